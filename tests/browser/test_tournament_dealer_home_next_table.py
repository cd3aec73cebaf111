"""A resting tournament dealer's home page at the tablet's size (1024x768), in Debian's chromium, in Spanish (issue
#38's edges, item 3; RP-07): where and when he deals next, on screen as the page opens, nothing sideways."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import timezone

from tests.browser.conftest import off_the_browser_thread
from tests.browser.test_tournament_tablet_at_the_table import _in_view
from tests.browser.test_tournament_tablet_fits_with_the_rulings import (
    _in_spanish,
    _no_sideways_overflow,
    _ten_seats_a_rotation_and_a_deck,
)
from tests.tournaments.conftest import dealer_dana_here, director_dora, floor_fede  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 1024, "height": 768}


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the dealer's password when he logs in."""


def test_a_resting_dealer_lands_on_a_home_that_says_where_and_when_he_deals_next_RP_07(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, dealer_diego,  # noqa: F811
    browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_ten_seats_a_rotation_and_a_deck, director_dora, floor_fede, dealer_dana_here,
                                   dealer_diego)
    page = _in_spanish(browser, server, dealer_diego, TABLET)  # Diego rests: Dana deals the first down
    page.goto(f"{server.url}/")
    page.wait_for_selector("[data-tournament-rotation]")
    page.screenshot(path=f"{screenshots}/tournament-dealer-home-next-table-1024.png")
    shown = page.locator(f"[data-tournament-rotation='{table.tournament_id}']")
    assert shown.get_attribute("data-next-table") == str(table.number)
    at = datetime.fromisoformat(shown.get_attribute("data-next-at"))
    # the time in the house's clock, as the room's clock says it
    assert timezone.localtime(at).strftime("%H:%M") in page.inner_text("[data-rotation-next]")
    assert _in_view(page, "[data-tournament-rotation] [data-rotation-now]")
    assert _in_view(page, "[data-tournament-rotation] [data-rotation-next]")
    assert _no_sideways_overflow(page)
