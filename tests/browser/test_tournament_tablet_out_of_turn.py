"""Out-of-turn action on the tournament dealer's tablet, in Debian's chromium (issue #38 item 1): a call out of
turn recorded at its seat (a second tap), bound at its turn (CC-134, CC-135); then a call out of turn whose
action changes before his turn, leaving call or fold by the house default (CC-134, C-08)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap, tap_cards
from tests.browser.test_tournament_tablet_at_the_table import (
    LANDSCAPE_TABLETS,
    _a_table_of,
    _records,
    _tablet,
    _version,
)
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    dealer_dana_here,
    director_dora,
    floor_fede,
)
from tournaments.reads import hands as hand_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the dealer's password when she logs in."""


def _engine(table):
    return hand_reads.hand_state(hand_reads.latest_hand(hand_reads.dealt_table(table.tournament, table.number)))


def _to_act(page) -> int:
    return int(page.get_attribute("#deal-table [data-step='betting']", "data-to-act"))


def _record_out_of_turn(page, seat: int, what: str) -> None:
    """The out-of-turn mode: the seat and its act chosen, sent by the second tap of its button."""
    if not page.is_visible("#tap-out-of-turn button"):
        page.click("#deal-table details[data-out-of-turn] summary")
    page.wait_for_selector("#tap-out-of-turn button", state="visible", timeout=5000)
    page.select_option("#tap-out-of-turn select[name=seat]", str(seat))
    page.select_option("#tap-out-of-turn select[name=act]", what)
    version = _version(page)
    page.click("#tap-out-of-turn button")
    page.wait_for_timeout(600)
    assert _version(page) == version  # the first tap only asks
    tap(page, "#tap-out-of-turn button")


def test_an_out_of_turn_call_bound_and_then_changed_action(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 3, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0])
    tap(page, "[data-action='new-hand']")

    # Preflop: the player after the one in turn calls out of turn; the turn stays where it was.
    first = _to_act(page)
    second = off_the_browser_thread(lambda: _engine(table).call(first).to_act)
    _record_out_of_turn(page, second, "call")
    assert "Out of turn: call" in page.inner_text(f"#deal-table [data-oot='{second}']")
    assert _to_act(page) == first
    assert off_the_browser_thread(_records, table)[-1] == {"action": "out-of-turn", "seat": second, "act": "call"}

    # The player in turn calls: no change, so the call out of turn binds: a call, never a raise (CC-135).
    tap(page, "[data-action='call']")
    assert _to_act(page) == second
    wait_until(page, "document.querySelector(\"#deal-table [data-binding='CC-135']\")", 5000)
    page.screenshot(path=f"{screenshots}/tournament-tablet-out-of-turn-bound.png")
    assert page.query_selector("#deal-table [data-step='betting'] [data-action='raise']") is None
    assert page.query_selector(f"#tap-fold-{second}") is None
    tap(page, "[data-action='call']")
    assert off_the_browser_thread(_records, table)[-1] == {"action": "call", "seat": second}
    while not page.query_selector("[data-step='board']"):  # the big blind checks
        tap(page, "[data-action='check']")
    tap_cards(page, "2c", "7d", "9h")

    # On the flop: the last to act "calls" out of turn (a check: nothing to call), then the first bets: the
    # action changed, so he may call or fold, not raise (CC-134, the house default of C-08).
    first = _to_act(page)
    last = off_the_browser_thread(lambda: _engine(table).check(first).check(_engine(table).check(first).to_act)
                                  .to_act)
    _record_out_of_turn(page, last, "call")
    assert _to_act(page) == first
    tap(page, "[data-action='bet']")  # the keypad's minimum bet
    while _to_act(page) != last:
        tap(page, "[data-action='call']")
    wait_until(page, "document.querySelector(\"#deal-table [data-binding='CC-134']\")", 5000)
    page.screenshot(path=f"{screenshots}/tournament-tablet-out-of-turn-changed.png")
    assert "calls or folds" in page.inner_text("#deal-table [data-binding]")
    assert page.query_selector("#deal-table [data-step='betting'] [data-action='raise']") is None
    assert page.query_selector(f"#tap-fold-{last}") is not None
    tap(page, "[data-action='call']")
    page.wait_for_selector("[data-step='board']")
    records = off_the_browser_thread(_records, table)
    assert {"action": "out-of-turn", "seat": last, "act": "call"} in records
    assert records[-1] == {"action": "call", "seat": last}
