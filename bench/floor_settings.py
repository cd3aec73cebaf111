"""The casino's settings, serving bench.floor_app instead of the casino's URLs (bench_pit_load --app floor)."""

from casino.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floor_app"
ASGI_APPLICATION = "bench.floor_app.application"
