"""The room's clock display in Debian's chromium: it counts down to the second from the server's clock,
and survives a reload and a server restart without drifting (issue #14, TDA-23).

The TV's own clock is set seven minutes fast (Playwright's clock): a screen that counted from its own
time would be seven minutes off; this one measures the server's "now" at each render and shows
``ends_at - server_now``. The expected time left is computed here from the server's clock, never read
back from the page's own arithmetic.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.conftest import ROOT, _wait_healthy
from tests.tournaments import display_fixtures as fx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TV = {"width": 1920, "height": 1080}
PORTRAIT_TV = {"width": 1080, "height": 1920}


def _shown_seconds(page) -> int:
    text = page.inner_text("#clock-display [data-role=time-left]").strip()
    parts = [int(p) for p in text.split(":")]
    return sum(value * 60 ** power for power, value in enumerate(reversed(parts)))


def _expected_seconds(page) -> int:
    """From the server's clock (this process's, the same machine's) and the end the server rendered."""
    ends_ms = int(page.get_attribute("#clock-display [data-role=time-left]", "data-countdown-to"))
    return max(0, math.ceil((ends_ms - time.time() * 1000) / 1000))


def _within_a_second(page) -> None:
    shown, expected = _shown_seconds(page), _expected_seconds(page)
    assert abs(shown - expected) <= 1, f"shows {shown} s left, the server's clock says {expected} s"


def _socket_open(page) -> None:
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && "
                     "document.getElementById('connection-status').hidden")
    page.wait_for_timeout(300)


def test_the_tv_counts_down_from_the_server_clock_and_survives_a_reload_and_a_restart(
    daphne_servers, tmp_path, browser
):
    def setup():
        director = fx.a_director("dora")
        tournament = fx.a_tournament(director)
        fx.start_the_clock(tournament, director)
        return tournament, director

    tournament, director = off_the_browser_thread(setup)
    (server,) = daphne_servers(1)
    page = browser.new_page(viewport=TV)
    # The TV's own clock runs seven minutes fast.
    page.clock.install(time=timezone.now() + timedelta(minutes=7))
    page.goto(f"{server.url}/tournaments/{tournament.pk}/clock/")
    _socket_open(page)
    assert page.get_attribute("#clock-display", "data-state") == "running"
    _within_a_second(page)

    # It counts down by itself: the seconds go by on the screen as on the server.
    before = _shown_seconds(page)
    page.wait_for_timeout(2600)
    assert before - _shown_seconds(page) in (2, 3)
    _within_a_second(page)

    # Big enough to read across the room: the time left is over a sixth of the screen's height.
    box = page.locator("#clock-display [data-role=time-left]").bounding_box()
    assert box["height"] > TV["height"] / 6

    # A reload shows the same time.
    page.reload()
    _socket_open(page)
    _within_a_second(page)

    # The server restarts: the screen keeps counting meanwhile, reconnects, and is still right.
    env = _environment_of(server.proc)
    server.stop()
    wait_until(page, "!document.getElementById('connection-status').hidden", timeout=10000)  # it noticed
    page.wait_for_timeout(1500)
    _within_a_second(page)
    restarted = _restart_on_the_same_port(server, env, tmp_path)
    try:
        wait_until(page, "document.getElementById('connection-status').hidden", timeout=30000)
        _within_a_second(page)

        # Paused: the screen says paused (not break) and the time stands still.
        off_the_browser_thread(fx.pause_the_clock, tournament, director)
        wait_until(page, "document.getElementById('clock-display').dataset.state === 'paused'", timeout=10000)
        held = page.inner_text("#clock-display [data-role=time-left]")
        page.wait_for_timeout(1500)
        assert page.inner_text("#clock-display [data-role=time-left]") == held
        assert page.locator("#clock-display .tclock-break").count() == 0

        # A level change is pushed: the screen shows the next level's blinds.
        off_the_browser_thread(fx.resume_the_clock, tournament, director)
        shown_level = page.inner_text("#clock-display .tclock-level")
        off_the_browser_thread(fx.next_level, tournament, director)
        wait_until(page, f"document.querySelector('#clock-display .tclock-level').textContent.trim() !== "
                         f"{shown_level.strip()!r}", timeout=10000)
        _within_a_second(page)
    finally:
        restarted.terminate()
        restarted.wait(timeout=10)


def test_a_portrait_tv_fits_the_clock_without_scrolling(daphne_servers, browser):
    def setup():
        director = fx.a_director("dora")
        tournament = fx.a_tournament(director)
        fx.start_the_clock(tournament, director)
        return tournament

    tournament = off_the_browser_thread(setup)
    (server,) = daphne_servers(1)
    page = browser.new_page(viewport=PORTRAIT_TV)
    page.goto(f"{server.url}/tournaments/{tournament.pk}/clock/")
    _socket_open(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator("#clock-display [data-role=time-left]").bounding_box()
    assert box["width"] > PORTRAIT_TV["width"] / 2


def _environment_of(proc: subprocess.Popen) -> dict[str, str]:
    """The environment a running server was started with (its settings: database, Redis, keys)."""
    raw = open(f"/proc/{proc.pid}/environ", "rb").read()
    return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


def _restart_on_the_same_port(server, env: dict[str, str], tmp_path) -> subprocess.Popen:
    """The same server again (same port, same settings), as after a crash and a restart."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(server.port), "casino.asgi:application"],
        cwd=ROOT, env=env, stdout=(tmp_path / "restarted.log").open("w"), stderr=subprocess.STDOUT,
    )
    server.proc = proc
    _wait_healthy(server)
    return proc
