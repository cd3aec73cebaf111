"""The paytable's admin page in Debian's chromium (issue #16, item 9): the games director types an
award's odds and the page shows the exact house edge of what is typed, before anything is saved."""

import pytest

from casino.rules.holdem_bonus import paytable_odds
from casino.rules.holdem_bonus.paytable import Paytable as RulesPaytable
from tables.models import Paytable
from tables.paytables import add_paytable_version
from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.tables.test_paytables import SPECIAL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_house_edge_follows_the_odds_as_they_are_typed(daphne_servers, games_director_gloria, browser):
    (server,) = daphne_servers(1)

    def make():
        paytable = Paytable.objects.create(name="house-special")
        add_paytable_version(paytable, SPECIAL, by=games_director_gloria)
        return paytable.pk

    pk = off_the_browser_thread(make)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", games_director_gloria.username)
    page.fill("input[name=password]", games_director_gloria.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/admin/tables/paytable/{pk}/change/")
    saved = paytable_odds(RulesPaytable("x", SPECIAL)).house_edge
    wait_until(page, f"document.getElementById('paytable-edge').textContent.includes('{float(saved):.4%}')", 10000)

    page.fill("input[name=pays_aa]", "30")  # back to the manual's 30 to 1: 8.5406%
    wait_until(page, "document.getElementById('paytable-edge').textContent.includes('8.5406%')", 10000)
    page.fill("input[name=pays_aa]", "0")  # no award pays 0 to 1: the page says so
    wait_until(page, "document.getElementById('paytable-edge').classList.contains('errornote')", 10000)
    assert off_the_browser_thread(lambda: Paytable.objects.get(pk=pk).versions.count()) == 1  # nothing saved
