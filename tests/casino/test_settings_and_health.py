"""Settings from the environment, the production check and /healthz."""

import json
import os
import re
import subprocess
import sys
from unittest import mock

import pytest
import yaml

from tests.conftest import ROOT

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "a-production-secret-key-that-is-long-and-random-0123456789-abcdefghij",
    "AUDIT_KEY": "a-production-audit-key-kept-off-the-database-0123456789-abcdefghij",
    "ALLOWED_HOSTS": "casino.example.org",
    "DATABASE_URL": "postgres://casino@127.0.0.1:5432/casino",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def _manage(*args, env):
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "SECRET_KEY", "AUDIT_KEY", "AUDIT_KEY_FILE", "DATABASE_URL", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("key", ["SECRET_KEY", "AUDIT_KEY"])
def test_production_refuses_to_start_without_its_keys(key):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != key}
    result = _manage("check", env=env)
    assert result.returncode != 0
    assert f"{key} is not set" in result.stderr
    assert "Traceback" not in result.stderr.split("ImproperlyConfigured")[-1]


def test_production_reads_the_audit_key_from_a_file_and_refuses_a_short_one(tmp_path):
    key_file = tmp_path / "audit.key"
    key_file.write_text("k" * 40 + "\n")
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "AUDIT_KEY"}
    code = "from django.conf import settings as s; print(s.AUDIT_KEY)"
    result = _manage("shell", "-c", code, env={**env, "AUDIT_KEY_FILE": str(key_file)})
    assert result.stdout.strip().splitlines()[-1] == "k" * 40, result.stderr
    short = _manage("check", env={**env, "AUDIT_KEY": "short"})
    assert short.returncode != 0 and "AUDIT_KEY is too short" in short.stderr


@pytest.fixture
def embedded_server_as_found():
    """CI runs on DATABASE_URL's server: a cluster this test started in the checkout's var/ is stopped after it."""
    from casino import embedded_db

    was_running = embedded_db.is_running(ROOT / "var")
    yield
    if not was_running:
        embedded_db.stop(ROOT / "var")


def test_the_embedded_default_is_postgresql_in_var_and_the_in_memory_layer(embedded_server_as_found):
    code = (
        "from django.conf import settings as s; import json; d = s.DATABASES['default'];"
        "print(json.dumps([d['ENGINE'], d['HOST'], s.CHANNEL_LAYERS['default']['BACKEND'], s.DEBUG,"
        " s.LANGUAGE_CODE, s.TIME_ZONE]))"
    )
    result = _manage("shell", "-c", code, env={})
    assert result.returncode == 0, result.stderr
    engine, host, layer, debug, language, tz = json.loads(result.stdout.strip().splitlines()[-1])
    assert engine == "django.db.backends.postgresql"
    assert host == str((ROOT / "var" / "postgres").resolve())  # its unix socket, in the cluster's directory
    assert layer == "channels.layers.InMemoryChannelLayer"
    assert debug is True
    assert (language, tz) == ("es", "Europe/Madrid")


def test_a_database_url_that_is_not_postgresql_is_refused_at_start():
    result = _manage("check", env={"DEBUG": "1", "DATABASE_URL": "sqlite:///casino.sqlite3"})
    assert result.returncode != 0
    assert "DATABASE_URL must name a PostgreSQL database" in result.stderr


def test_redis_url_selects_the_redis_channel_layer():
    code = "from django.conf import settings as s; print(s.CHANNEL_LAYERS['default']['BACKEND'])"
    result = _manage("shell", "-c", code, env={"REDIS_URL": "redis://127.0.0.1:6379/3"})
    assert result.stdout.strip().splitlines()[-1] == "casino.channel_layer.CasinoChannelLayer"


@pytest.mark.django_db
def test_healthz_says_both_the_database_and_the_channel_layer_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "channel_layer": True}


@pytest.mark.django_db
def test_healthz_answers_503_when_the_channel_layer_does_not(client):
    with mock.patch("casino.health.get_channel_layer", return_value=None):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] is False
    assert response.json()["database"] is True


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client):
    with mock.patch("casino.health._database_answers", side_effect=OSError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is False


@pytest.mark.django_db(transaction=True)
async def test_http_runs_the_whole_middleware_chain_and_view_in_one_worker_thread():
    """casino.asgi_http: no hop between the event loop and threads per middleware; under load each hop queues."""
    import asyncio

    from channels.testing import HttpCommunicator

    from casino.asgi import application, django_asgi_app

    assert not asyncio.iscoroutinefunction(django_asgi_app._middleware_chain)
    request = HttpCommunicator(application, "GET", "/healthz", headers=[(b"host", b"localhost")])
    response = await request.get_response()
    assert response["status"] == 200


@pytest.mark.django_db(transaction=True)
async def test_http_requests_reuse_their_thread_instead_of_starting_one_each():
    """casino.asgi_http: asgiref would start and stop an OS thread per request, blocking the event loop each time."""
    import threading

    from channels.testing import HttpCommunicator
    from django.core.signals import request_finished, request_started

    from casino.asgi import application

    threads = []

    def note_thread(**kwargs):
        threads.append(threading.current_thread())  # the object: an ended thread's ident is reused

    request_started.connect(note_thread)
    request_finished.connect(note_thread)
    try:
        for _ in range(3):
            request = HttpCommunicator(application, "GET", "/healthz", headers=[(b"host", b"localhost")])
            response = await request.get_response()
            await request.wait()  # the handler closes the response after the body has gone
            assert response["status"] == 200
    finally:
        request_started.disconnect(note_thread)
        request_finished.disconnect(note_thread)
    # Each request opens and closes in the thread that served it, and the next one gets that thread back.
    assert len(threads) == 6
    assert len(set(threads)) == 1
    assert threads[0] is not threading.current_thread()


async def test_at_most_http_threads_requests_run_at_once_and_the_next_waits_its_turn():
    """A burst waits for a request thread instead of outrunning the database pool (casino.asgi_http)."""
    import asyncio

    from casino.asgi_http import RequestThreads

    threads = RequestThreads(2)
    first, second = await threads.borrow(), await threads.borrow()
    assert first is not second
    third = asyncio.ensure_future(threads.borrow())
    await asyncio.sleep(0.05)
    assert not third.done()  # two requests run: the third waits, with no thread of its own

    threads.give_back(second)

    assert await asyncio.wait_for(third, 1) is second  # it gets the thread the second request used
    threads.give_back(first)
    threads.give_back(second)
    assert threads.idle == 2


def test_http_threads_must_be_at_least_one():
    from casino.asgi_http import RequestThreads

    with pytest.raises(ValueError, match="HTTP_THREADS"):
        RequestThreads(0)


# --- docker-compose.yml's defaults ------------------------------------------------------------------

_COMPOSE_VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def _compose_app_environment() -> dict[str, str]:
    """The app service's environment as `docker compose up` gives it with only the variables it demands set
    on the host: each ``${NAME:-default}`` its default, each ``${NAME:?message}`` (a secret) a long random one."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environment = compose["services"]["app"]["environment"]
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)

    def resolve(match: re.Match) -> str:
        name, op = match["name"], match["op"] or ""
        if op.endswith("?"):
            return f"compose-{name}-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"
        return match["arg"] if op.endswith("-") else ""

    return {name: _COMPOSE_VARIABLE.sub(resolve, str(value)) for name, value in environment.items()}


def test_the_compose_files_defaults_pass_the_production_check():
    """`docker compose up` as the README says must be a deployment Django's own check finds nothing wrong with:
    TLS at the proxy service, secure cookies, redirects to HTTPS (no Docker engine here: the check runs on the
    app service's environment exactly as the compose file sets it)."""
    env = _compose_app_environment()
    assert env["DEBUG"] == "0"
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={"PATH": os.environ["PATH"], **env}, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_compose_file_puts_a_tls_proxy_in_front_and_keeps_the_app_off_the_host():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    proxies = [name for name, service in services.items() if "app" in (service.get("depends_on") or {})]
    assert proxies, "no service in front of the app"
    assert "ports" not in services["app"], "the app's plain HTTP port must not be published past the proxy"
    assert _compose_app_environment()["BEHIND_TLS_PROXY"] == "1"


def test_the_award_approver_role_is_read_from_the_environment_and_checked_C_30():
    code = "from django.conf import settings as s; print(s.AWARD_APPROVER_ROLE)"
    assert _manage("shell", "-c", code, env={}).stdout.strip().splitlines()[-1] == "pit_boss"
    director = _manage("shell", "-c", code, env={"AWARD_APPROVER_ROLE": "games_director"})
    assert director.stdout.strip().splitlines()[-1] == "games_director", director.stderr
    dealer = _manage("check", env={"AWARD_APPROVER_ROLE": "dealer"})
    assert dealer.returncode != 0
    assert "AWARD_APPROVER_ROLE='dealer' is not a role that approves awards" in dealer.stderr


@pytest.mark.django_db
def test_nothing_waits_on_postgresql_for_ever_a_lock_a_statement_or_an_idle_transaction():
    from django.db import connection

    with connection.cursor() as cursor:
        shown = {}
        for name in ("lock_timeout", "statement_timeout", "idle_in_transaction_session_timeout"):
            cursor.execute(f"SHOW {name}")
            shown[name] = cursor.fetchone()[0]
    assert shown == {"lock_timeout": "10s", "statement_timeout": "30s", "idle_in_transaction_session_timeout": "1min"}


@pytest.mark.django_db(transaction=True)
def test_a_write_that_waits_too_long_for_a_lock_gives_up_with_an_error_the_retry_page_knows():
    import threading

    from django.db import OperationalError, connection, connections, transaction

    from casino.unavailable import DATABASE_UNAVAILABLE
    from tables.models import Pit

    pit = Pit.objects.create(name="Sala A")
    held, release = threading.Event(), threading.Event()

    def hold_the_row():
        with transaction.atomic():
            Pit.objects.select_for_update().get(pk=pit.pk)
            held.set()
            release.wait(10)
        connections.close_all()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert held.wait(10)
        with pytest.raises(OperationalError) as refused, transaction.atomic():
            with connection.cursor() as cursor:  # the house's 10 s, shortened for this transaction only
                cursor.execute("SET LOCAL lock_timeout = '200ms'")
            Pit.objects.select_for_update().get(pk=pit.pk)
        assert isinstance(refused.value, DATABASE_UNAVAILABLE)
        assert "lock timeout" in str(refused.value)
    finally:
        release.set()
        holder.join()


def test_a_serving_process_leaves_what_it_loaded_out_of_the_collector_and_collects_in_full_less_often():
    """Daphne's application (casino.asgi): a full collection stalls the whole process
    (docs/decisions/2026-11-26-gc-freeze.md)."""
    code = "import gc, casino.asgi; print(gc.get_freeze_count(), gc.get_threshold()[2])"

    def served(**env) -> list[int]:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("GC_")}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, "DEBUG": "1", **env},
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return [int(n) for n in result.stdout.split()]

    frozen, full_every = served()
    assert frozen > 10_000  # Django, the URLconf and every view, out of every collection
    assert full_every == 100  # Python's is 10
    assert served(GC_FREEZE_AT_START="0", GC_FULL_COLLECTION_EVERY="25") == [0, 25]
