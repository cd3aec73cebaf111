"""A stale tap on the dealer's tablet in Debian's chromium (issue #35, item 2): the tablet shows what was recorded
at the table since its screen, in the notice above the hand, until the dealer's next tap."""

import os

import pytest

from tables import services
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.tables.helpers import CLOSE_BETS, DEAL, act, ante, bet_flop, bonus, flop, open_for_play, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _version(page) -> int:
    return int(page.get_attribute("#dealer-table", "data-version"))


def test_a_tap_made_on_a_screen_another_device_moved_past_is_told_what_that_device_recorded(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, screenshots, browser
):
    (server,) = daphne_servers(1)

    def bets_open():
        open_for_play(table_one, dealer_dana, pit_boss_pat)
        act(services.start_hand, table_one, dealer_dana)

    off_the_browser_thread(bets_open)
    page = browser.new_context(viewport=TABLET, locale="en-US").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tables/{table_one.pk}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_timeout(400)
    shown = _version(page)

    # Another device records the bets and the hand up to the flop; the tablet is pushed the new version...
    now = off_the_browser_thread(lambda: play(table_one, dealer_dana, ante(1, 10), bonus(1, 5), ante(3, 20),
                                              CLOSE_BETS, DEAL, bet_flop(1, 20), bet_flop(3, 40),
                                              flop("2c 7d 9h")).table_version)
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) === {now}",
               timeout=10000)
    page.wait_for_timeout(300)
    # ...which a tap already on its way did not see: its form still carries the old version.
    page.evaluate(f"document.querySelectorAll('#dealer-table input[name=version]')"
                  f".forEach(function (input) {{ input.value = '{shown}'; }})")
    page.click("#dealer-table button[data-action='check']")

    page.wait_for_selector("#dealer-table .notice-stale")
    notice = page.inner_text("#dealer-table .notice-stale")
    page.screenshot(path=os.path.join(screenshots, "dealer-tablet-stale-tap.png"), full_page=True)
    assert notice.startswith("Since your screen: …")
    assert notice.endswith("Box 1 bet the flop. Box 3 bet the flop. The flop was dealt. Check and try again.")
    assert "2c" not in notice and "♣" not in notice
    assert _version(page) > shown  # the tablet shows the table as it is now, ready for the next tap
