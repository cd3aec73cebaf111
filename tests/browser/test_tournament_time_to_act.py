"""The time to act on the tournament dealer's tablet, in Debian's chromium (issue #38 items 4 and 11).

The seat in turn's row counts down its time to act (CC-114: 60 s, house option C-04) from the end the
server read off the hand's record, drawn by the page itself (no push each second): the same end after a
reload; it moves to the next seat, restarted, when the seat acts; at zero the tablet asks the dealer to call
the clock (CC-115) and records nothing. The rows show each seat's running bet (RP-12) and the all-in
marker (RP-01).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap
from tests.browser.test_tournament_tablet_at_the_table import (  # noqa: F401 - fixtures
    _a_table_of,
    _records,
    _tablet,
    quick_passwords,
)
from tests.tournaments.conftest import act, dealer_dana_here, director_dora, floor_fede  # noqa: F401 - fixtures
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 1024, "height": 768}


def _to_act(page) -> int:
    return int(page.get_attribute("[data-step='betting']", "data-to-act"))


def _timed_seats(page) -> list[int]:
    return page.evaluate("[...document.querySelectorAll('#deal-table [data-act-ends]')]"
                         ".map(t => +t.closest('tr').dataset.seat)")


def _left(page, seat: int) -> int:
    return int(page.inner_text(f"tr[data-seat='{seat}'] .act-timer [data-act-left]"))


def test_the_seat_in_turn_counts_down_its_time_to_act_and_the_next_seat_starts_again_CC_114_RP_01_RP_12(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 4, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, TABLET)
    tap(page, "[data-action='new-hand']")
    first = _to_act(page)
    assert _timed_seats(page) == [first]
    assert page.is_visible(f"tr[data-seat='{first}'] .act-timer")
    start = _left(page, first)
    assert 55 <= start <= 60
    # the page counts it down by itself: no push comes meanwhile
    version = page.get_attribute("#deal-table", "data-version")
    wait_until(page, f"+document.querySelector(\"tr[data-seat='{first}'] [data-act-left]\").textContent < {start}",
               5000)
    assert page.get_attribute("#deal-table", "data-version") == version
    assert page.is_hidden("[data-act-time-up]")
    # a reload reads the same end from the record
    ends = page.get_attribute(f"tr[data-seat='{first}'] [data-act-ends]", "data-act-ends")
    page.reload()
    wait_until(page, "document.getElementById('deal-table') && document.querySelector('[data-act-ends]')")
    assert page.get_attribute(f"tr[data-seat='{first}'] [data-act-ends]", "data-act-ends") == ends
    # RP-12: the blinds in front of their seats
    bets = page.evaluate("Object.fromEntries([...document.querySelectorAll('#deal-table tr[data-seat]')]"
                         ".map(r => [r.dataset.seat, r.querySelector('[data-bet]').textContent.trim()]))")
    assert sorted(b for b in bets.values() if b) == ["25", "50"]
    page.screenshot(path=f"{screenshots}/tournament-tablet-time-to-act.png")

    tap(page, "[data-action='call']")
    second = _to_act(page)
    assert second != first and _timed_seats(page) == [second]  # the timer moved to the next seat
    assert _left(page, second) >= 58  # and started again
    assert page.inner_text(f"tr[data-seat='{first}'] [data-bet]").strip() == "50"  # RP-12: the call in front

    tap(page, "[data-action='all-in']")  # RP-01: the all-in marker on his seat
    page.wait_for_selector(f"tr[data-seat='{second}'] [data-all-in]", state="visible", timeout=5000)
    assert page.evaluate("[...document.querySelectorAll('#deal-table [data-all-in]')]"
                         ".map(m => +m.closest('tr').dataset.seat)") == [second]
    third = _to_act(page)
    assert _timed_seats(page) == [third] and third not in (first, second)


def _two_seconds_to_act(table, director):
    act(services.change_setup, Tournament.objects.get(pk=table.tournament_id), director, reason="a fast test",
        options={"action_seconds": 2})


def test_at_zero_the_tablet_asks_for_the_clock_and_records_nothing_CC_114_CC_115(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    browser
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 4, director_dora, floor_fede, dealer_dana_here)
    off_the_browser_thread(_two_seconds_to_act, table, director_dora)
    page = _tablet(browser, server, dealer_dana_here, table, TABLET)
    tap(page, "[data-action='new-hand']")
    seat = _to_act(page)
    page.wait_for_selector(f"[data-act-time-up='{seat}']", state="visible", timeout=8000)
    assert page.inner_text(f"tr[data-seat='{seat}'] [data-act-left]") == "0"
    assert "ran-out" in page.get_attribute(f"tr[data-seat='{seat}'] .act-timer", "class")
    assert page.is_visible("button[data-action='call-clock']")
    records = off_the_browser_thread(_records, table)
    assert records[-1]["action"] == "deal-hole-cards"  # nothing recorded at zero: no fold, no check
