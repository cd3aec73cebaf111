"""Every tap of the tournament dealer's tablet is at least 44 px each way, at 1024x768, in Debian's chromium, in
Spanish (issue #38's edges, item 1): measured at each step of a ten-seat hand (between hands, the betting with its
Absent buttons, each tool opened, the flop's card picker) and not only the two found short (the Absent
buttons at 36 px, the picker's cells at 31 px, the top bar's at 30 and 40 px). The hand's screen does not scroll more
for it: each step's page is no taller than it was before the change (measured then: 768 px between hands and at the
flop's picker, 773 px in the betting)."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.conftest import off_the_browser_thread
from tests.browser.test_tournament_tablet import tap
from tests.browser.test_tournament_tablet_at_the_table import _in_view, _to_the_flop
from tests.browser.test_tournament_tablet_fits_with_the_rulings import (
    _in_spanish,
    _no_sideways_overflow,
    _ten_seats_a_rotation_and_a_deck,
)
from tests.tournaments.conftest import dealer_dana_here, director_dora, floor_fede  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAP = 44  # px: the smallest touch target
#: The page's height at each step before the taps grew (issue #38's edges): no step may scroll more than it did.
HEIGHT_BEFORE = {"between hands": 768, "the betting": 773, "the flop's picker": 768}
TABLET = {"width": 1024, "height": 768}
#: Every element a finger taps: a checkbox or radio is tapped through its label (the picker's cells, a choice).
TAPS = ("a[href], button, summary, select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), "
        "label:has(> input[type=checkbox]), label:has(> input[type=radio])")


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def _too_small(page) -> list:
    """The taps shown on the page smaller than a finger: [what, width, height]."""
    return page.evaluate(
        """([sel, tap]) => [...document.querySelectorAll(sel)]
             .filter(e => e.checkVisibility() && !e.closest('[hidden]'))
             .map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.width > 0 && r.height > 0 && (r.width < tap - 0.5 || r.height < tap - 0.5))
             .map(([e, r]) => [e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 30),
                               Math.round(r.width), Math.round(r.height)])""",
        [TAPS, TAP])


def _height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def _open(page, summary: str) -> None:
    page.click(summary)
    page.wait_for_timeout(150)


def test_every_tap_of_the_tablet_is_44_px_at_each_step_of_a_hand_and_the_hand_scrolls_no_more_RP_01_TDA_30(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, dealer_diego,  # noqa: F811
    browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_ten_seats_a_rotation_and_a_deck, director_dora, floor_fede, dealer_dana_here,
                                   dealer_diego)
    page = _in_spanish(browser, server, dealer_dana_here, TABLET)
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/tables/{table.number}/deal/")
    page.wait_for_selector("#deal-table [data-action='new-hand']")

    # Between hands: the deck's panel opened, "New hand".
    _open(page, "#deal-table [data-deck] details summary")
    assert _too_small(page) == [], "between hands"
    assert _height(page) <= HEIGHT_BEFORE["between hands"]

    # The betting: the Absent buttons (TDA-30) at every seat not yet acted, the choices, the shortcuts.
    tap(page, "[data-action='new-hand']")
    assert page.locator("#deal-table form.kill-hand button").count() >= 8
    page.screenshot(path=f"{screenshots}/tournament-tablet-touch-betting-1024.png")
    assert _too_small(page) == [], "the betting"
    # The draw decides who is in turn: his name on one line, as when the height before was measured (a name on two
    # lines makes the step's column, which sets the page's height, one line taller before and after alike).
    page.evaluate("document.querySelector(\"#deal-table [data-step='betting'] h2\").textContent = "
                  "'Le toca al asiento 6: Yago Yáñez'")
    assert _height(page) <= HEIGHT_BEFORE["the betting"]
    # the seats' column, whose rows grew, ends above the step's: it does not set the page's height
    assert page.evaluate("document.querySelector('#deal-table .tablet-seats').getBoundingClientRect().bottom <= "
                         "document.querySelector('#deal-table .tablet-step').getBoundingClientRect().bottom")
    assert _in_view(page, "#deal-table tr.to-act")
    for summary in ("details[data-out-of-turn] summary", "details.hand-tools summary",
                    "details[data-dealing-errors] summary"):
        _open(page, f"#deal-table {summary}")
        assert _too_small(page) == [], summary
        _open(page, f"#deal-table {summary}")

    # The flop's card picker, its 52 cells (the showdown's and a recovered hand's are the same picker in the same
    # column, css/tournament_tablet.css).
    _to_the_flop(page)
    page.screenshot(path=f"{screenshots}/tournament-tablet-touch-flop-picker-1024.png")
    assert page.locator("#deal-table [data-step='board'] label.pick").count() == 52
    assert _too_small(page) == [], "the flop's picker"
    assert _height(page) <= HEIGHT_BEFORE["the flop's picker"]
    assert _in_view(page, "#deal-table [data-step='board'] .picker-grid")
    assert _in_view(page, "#deal-table [data-step='board'] [data-chosen]")
    assert _no_sideways_overflow(page)


def _a_second_act_out_of_turn(table, dealer) -> int:
    """A hand with a call out of turn by the next player, a misdeal, the hand again and his second call out of turn:
    his seat."""
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    def tap_(fn, **kwargs):
        table.refresh_from_db()
        return fn(table=table, by=dealer, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)

    for again in (False, True):
        if again:
            tap_(dealing.act, record={"action": "misdeal"})
        tap_(dealing.start_hand)
        state = hand_reads.hand_state(hand_reads.latest_hand(table))
        seat = state.call(state.to_act).to_act
        tap_(dealing.act, record={"action": "out-of-turn", "seat": seat, "act": "call"})
    return seat


def test_a_repeated_act_out_of_turn_calls_the_floor_on_the_tablet_with_the_player_to_act_on_screen_CC_133(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, dealer_diego,  # noqa: F811
    browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_ten_seats_a_rotation_and_a_deck, director_dora, floor_fede, dealer_dana_here,
                                   dealer_diego)
    seat = off_the_browser_thread(_a_second_act_out_of_turn, table, dealer_dana_here)
    page = _in_spanish(browser, server, dealer_dana_here, TABLET)
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/tables/{table.number}/deal/")
    page.wait_for_selector(f"#deal-table [data-oot-repeated='{seat}']")
    page.screenshot(path=f"{screenshots}/tournament-tablet-oot-repeated-1024.png")
    assert _in_view(page, f"#deal-table [data-oot-repeated='{seat}']")
    assert _in_view(page, "#deal-table tr.to-act")
    for choice in ("fold", "call", "raise"):
        assert _in_view(page, f"#deal-table [data-step='betting'] button[data-action='{choice}']"), choice
    assert _too_small(page) == []
    assert _no_sideways_overflow(page)
