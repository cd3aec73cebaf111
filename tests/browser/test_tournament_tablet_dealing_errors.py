"""A dealing error at the tournament tablet in Debian's chromium (issue #38 item 2): a premature flop redealt
(RP-05-A, CC-106, CC-107). The dealer records it from the "Dealing error" menu by a second tap; the tablet then
says the flop comes without a burn, and the flop tapped on the picker is recorded with the burn left on the table."""

from __future__ import annotations

import pytest

from tests.browser.conftest import off_the_browser_thread
from tests.browser.test_tournament_tablet import tap, tap_cards
from tests.browser.test_tournament_tablet_at_the_table import (
    LANDSCAPE_TABLETS,
    _a_table_of,
    _records,
    _tablet,
    _to_the_flop,
    _version,
)
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    dealer_dana_here,
    director_dora,
    floor_fede,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the dealer's password when she logs in."""


def _open_dealing_errors(page, button: str) -> None:
    """Open the "Dealing error" menu unless it is open, then ``button`` shows."""
    if not page.is_visible(button):
        page.click("#deal-table details[data-dealing-errors] summary")
    page.wait_for_selector(button, state="visible", timeout=5000)


def test_a_premature_flop_redealt_RP_05_A(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, browser, screenshots  # noqa: F811
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 4, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0])
    tap(page, "[data-action='new-hand']")
    tap(page, "[data-action='call']")  # the first player acts; the round is still open

    # The flop turned too soon: one tap only asks, the second records it.
    _open_dealing_errors(page, "#tap-premature button")
    assert "Premature flop" in page.inner_text("#tap-premature button")
    page.screenshot(path=f"{screenshots}/tournament-tablet-dealing-errors-1024.png", full_page=True)
    version = _version(page)
    page.click("#tap-premature button")
    page.wait_for_timeout(600)
    assert _version(page) == version
    tap(page, "#tap-premature button")
    assert page.query_selector("[data-step='betting']") is not None  # the round goes on (CC-106)
    assert "without burning" in page.inner_text("[data-next-deal='RP-05-A']")
    assert page.query_selector("#tap-premature") is None  # once for this street
    records = off_the_browser_thread(_records, table)
    assert records[-1] == {"action": "premature-board"}

    # The round ends; the new flop is tapped and recorded without a burn of its own.
    _to_the_flop(page)
    assert page.query_selector("[data-next-deal='RP-05-A']") is not None
    page.screenshot(path=f"{screenshots}/tournament-tablet-premature-flop-redealt-1024.png")
    tap_cards(page, "2c", "7d", "9h")
    page.wait_for_selector("[data-step='betting']")
    assert "2c 7d 9h" in page.inner_text("[data-board]")
    deal = off_the_browser_thread(_records, table)[-1]
    assert deal == {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}
    assert page.query_selector("[data-next-deal]") is None


def test_a_card_seen_by_a_player_not_in_the_hand_is_listed_for_the_hand_s_end_CC_95(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, browser, screenshots  # noqa: F811
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 4, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0])
    tap(page, "[data-action='new-hand']")
    tap(page, "[data-action='fold']")  # a player out of the hand, who may see a card

    _open_dealing_errors(page, "#tap-exposed-card button")
    seat = page.eval_on_selector("#tap-exposed-card select[name='seat']", "s => s.value")
    page.fill("#tap-exposed-card input[name='cards']", "Ah")
    page.check("#tap-exposed-card input[name='seen_by'][value='out']")
    tap(page, "#tap-exposed-card button")
    listed = page.inner_text("[data-exposed-at-end]")
    assert "hand's end" in listed and f"seat {seat}: Ah" in listed
    assert page.query_selector("[data-exposed]") is None  # not shown to everyone now
    page.screenshot(path=f"{screenshots}/tournament-tablet-exposed-card-at-the-end-1024.png", full_page=True)
    records = off_the_browser_thread(_records, table)
    assert records[-1] == {"action": "exposed-card", "seat": int(seat), "card": "Ah", "seen_by": "out"}
