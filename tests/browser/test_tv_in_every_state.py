"""The room's TV in every state of an event, at 1920x1080 and 1280x720, in Debian's chromium (issue #36, item 14).

Each state is the real page (``tournaments/clock_display.html`` with the fragment ``screens`` renders from a
board) with the real stylesheets, served to the browser by a route: no server, no socket (its scripts are not
loaded, so no "reconnecting" line covers anything). For each state and size the big digits are on screen, tall
and in contrast with what is behind them, and nothing (a banner, the payouts, an announcement) falls off the
screen or out of its part of it.
"""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from casino.rules.tournament.clock import ClockEvent
from casino.rules.tournament.structure import Break, Level, Structure
from tournaments.reads.event import Announcement, Board
from tournaments.rendering import clock as clock_screen

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}
START = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
STRUCTURE = Structure(steps=(Level(100, 200, 0, minutes=20), Level(200, 400, 400, minutes=20), Break(minutes=10),
                             Level(300, 600, 600, minutes=20), Level(400, 800, 800, minutes=20)))
#: The longest announcements the record makes, as a busy evening leaves them (three are shown).
NEWS = (
    Announcement(START + timedelta(minutes=30),
                 "Registration is closed: %(entries)s entries, prize pool %(prize_pool)s",
                 (("entries", 120), ("prize_pool", 1_200_000))),
    Announcement(START + timedelta(minutes=31), "The structure has changed: %(reason)s",
                 (("reason", "the director adds a level of 25 minutes before the dinner break, as announced"),)),
    Announcement(START + timedelta(minutes=32), "Hand for hand: every table waits for the others before each hand"),
)
PRIZES = (300_000, 190_000, 140_000, 110_000, 90_000, 75_000, 62_000, 52_000, 45_000, 40_000, 36_000, 32_000,
          28_000, 28_000, 28_000)


def _board(**changes) -> Board:
    base = Board(tournament_id=7, version=3, name="Sunday Deepstack Championship", status="running",
                 status_label="Running", structure=STRUCTURE, clock_events=(ClockEvent("start", START),),
                 entries=120, players_left=87, chips_in_play=120 * 20000, prize_pool=1_200_000,
                 prize_pool_fixed=True, prizes=PRIZES, announcements=NEWS)
    return replace(base, **changes)


def _hand_for_hand(*before: ClockEvent) -> tuple[ClockEvent, ...]:
    return (ClockEvent("start", START), *before, ClockEvent("hand_for_hand_on", START + timedelta(minutes=3)))


#: Each state the TV shows: the board and the instant it is read at.
STATES = {
    "running": (_board(), START + timedelta(minutes=7)),
    "paused": (_board(clock_events=(ClockEvent("start", START), ClockEvent("pause", START + timedelta(minutes=5)))),
               START + timedelta(minutes=9)),
    "break": (_board(), START + timedelta(minutes=45)),
    "hand-for-hand": (_board(clock_events=_hand_for_hand(), players_left=30), START + timedelta(minutes=7)),
    # RP-08-A: the bubble is one more player than places paid; both banners on is the tallest clock.
    "bubble": (_board(clock_events=_hand_for_hand(), players_left=len(PRIZES) + 1), START + timedelta(minutes=7)),
    "paused in hand-for-hand on the bubble": (
        _board(clock_events=(*_hand_for_hand(), ClockEvent("pause", START + timedelta(minutes=6))),
               players_left=len(PRIZES) + 1), START + timedelta(minutes=9)),
    "final table": (_board(players_left=9, announcements=(*NEWS[:2], Announcement(
        START + timedelta(minutes=33), "Table %(table)s is broken", (("table", 2),)))), START + timedelta(minutes=75)),
    "finished": (_board(status="finished", status_label="Finished", players_left=1,
                        clock_events=(ClockEvent("start", START), ClockEvent("finish", START + timedelta(minutes=80))),
                        announcements=(*NEWS[:2],
                                       Announcement(START + timedelta(minutes=80), "The tournament is over"))),
                 START + timedelta(minutes=81)),
}


def _tv_page(board: Board, now: datetime, language: str) -> str:
    # each state its own version: the fragment is kept per board version (a real event's versions differ)
    board = replace(board, version=list(STATES.values()).index((board, now)) + 10)
    with translation.override(language):
        fragment = clock_screen.clock_display_fragment(board, now)
        return render_to_string("tournaments/clock_display.html", {
            "tournament": SimpleNamespace(pk=board.tournament_id, name=board.name), "fragment": fragment})


def _serve(page, html: str) -> None:
    """The page and the casino's stylesheets; its scripts are not served (no socket to connect to)."""

    def answer(route):
        path = route.request.url.split("//", 1)[1].split("/", 1)[1].split("?")[0]
        if path.startswith("static/css/"):
            route.fulfill(path=str(ROOT / "static" / "css" / os.path.basename(path)), content_type="text/css")
        elif path.startswith("static/"):
            route.fulfill(status=404, body="")
        else:
            route.fulfill(body=html, content_type="text/html; charset=utf-8")

    page.route("**/*", answer)
    page.goto("http://tv.casino.test/tournaments/7/clock/")


#: In the page: the contrast of an element's text with the first background behind it (WCAG's ratio).
CONTRAST = """(el) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => {
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let node = el, bg = null;
  while (node && node.nodeType === 1) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { bg = c.slice(0, 3); break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const a = lum(rgb(getComputedStyle(el).color).slice(0, 3)), b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

#: In the page: what of the TV is off the screen or out of its part of the grid (a description each).
CUT_OFF = """() => {
  const out = [], W = window.innerWidth, H = window.innerHeight;
  for (const el of document.querySelectorAll('#clock-display *')) {
    if (!el.textContent.trim() || el.children.length) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.bottom > H + 0.5 || r.right > W + 0.5 || r.top < -0.5 || r.left < -0.5)
      out.push(el.className + ' "' + el.textContent.trim().slice(0, 40) + '" at ' + Math.round(r.bottom) + ' of ' + H);
  }
  const areas = '.tclock-head, .tclock-clock, .tclock-facts, .tclock-ladder, .tclock-announcements';
  for (const area of document.querySelectorAll(areas)) {
    if (area.scrollHeight > area.clientHeight + 1 && getComputedStyle(area).overflow === 'visible')
      out.push(area.className + ' overflows its part by ' + (area.scrollHeight - area.clientHeight) + 'px');
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_state_of_the_tv_shows_its_digits_and_cuts_nothing_off(size, language, browser, screenshots):
    viewport = SIZES[size]
    page = browser.new_page(viewport=viewport)
    for state, (board, now) in STATES.items():
        _serve(page, _tv_page(board, now, language))
        page.screenshot(path=os.path.join(screenshots, f"tv-{state.replace(' ', '-')}-{size}-{language}.png"))
        where = f"{state} at {size} ({language})"
        assert page.evaluate(CUT_OFF) == [], where
        if state != "finished":
            digits = page.locator("#clock-display [data-role=time-left]")
            box = digits.bounding_box()
            assert box is not None and box["height"] > viewport["height"] / 6, f"{where}: the digits are too small"
            assert digits.evaluate(CONTRAST) >= 7, f"{where}: the digits do not stand out from the screen"
        for number in page.locator("#clock-display .tclock-facts dd, #clock-display [data-role=blinds]").all():
            assert number.evaluate(CONTRAST) >= 7, f"{where}: {number.inner_text()!r} does not stand out"
        if state in ("bubble", "paused in hand-for-hand on the bubble"):
            assert page.locator("#clock-display [data-stage=bubble]").is_visible(), where
            assert page.locator("#clock-display .tclock-hfh").is_visible(), where
    page.close()
