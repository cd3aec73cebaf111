"""Issue #39's leftovers in Debian's chromium: the cashier's phone shows a fill the pit boss requested on his screen,
without a reload (docs/bank.md, docs/realtime.md); she signs it there (a plain form that the socket pushed, which
takes the page's CSRF token as it is sent), and the pit boss's bank page shows the cage's step, without a reload."""

import pytest

from tables.models import ChipSlip
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until
from tests.conftest import _staff
from tests.tables.test_bank import opened_with_float

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(browser, server, person, viewport=TABLET):
    page = browser.new_context(viewport=viewport, locale="es-ES", is_mobile=viewport is PHONE,
                               has_touch=viewport is PHONE).new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", person.username)
    page.fill("input[name=password]", person.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state()
    return page


def _live(page, url: str) -> None:
    page.goto(url)
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_timeout(500)  # the socket joins its group


def test_the_cashiers_phone_shows_a_fill_requested_from_the_pit_bosss_screen_without_a_reload(
        daphne_servers, table_one, dealer_dana, pit_boss_pat, django_user_model, browser):
    cashier = off_the_browser_thread(lambda: _staff(django_user_model, "carla", "cage_cashier", "Carla"))
    off_the_browser_thread(opened_with_float, table_one, dealer_dana, pit_boss_pat)
    (server,) = daphne_servers(1)
    boss, cage = _login(browser, server, pit_boss_pat), _login(browser, server, cashier, PHONE)

    _live(cage, f"{server.url}/tables/cage/")
    assert cage.locator("#slips-cage [data-slip]").count() == 0
    _live(boss, f"{server.url}/tables/{table_one.pk}/bank/")

    # the pit boss requests a fill on the table's bank page
    boss.fill("form[data-form='request-slip'] input[name='chips-100']", "10")
    with boss.expect_navigation():
        boss.click("form[data-form='request-slip'] button[data-action='request-slip']")
    number = off_the_browser_thread(lambda: ChipSlip.objects.get().number)
    wait_until(boss, "window.htmx && document.querySelector('[ws-connect]')")
    boss.wait_for_timeout(500)

    # the cashier's phone shows it, with its step's button, in Spanish: nobody reloaded it
    cage.wait_for_selector(f"#slips-cage [data-slip='{number}'][data-slip-state='requested']", timeout=10000)
    assert "Firmar: Emitido por la caja" in cage.inner_text(f"#slips-cage [data-slip='{number}']")

    # she signs it on the pushed fragment (its plain form takes the page's CSRF token), and the pit boss's page
    # shows the cage's step at once
    with cage.expect_navigation():
        cage.click(f"#slips-cage [data-slip='{number}'] button[data-action='sign-slip']")
    assert off_the_browser_thread(lambda: ChipSlip.objects.get().state) == "issued"
    boss.wait_for_selector(f"#slips [data-slip='{number}'][data-slip-state='issued']", timeout=10000)
    assert cage.locator(f"#slips-cage [data-slip='{number}']").count() == 0  # security's step now
    assert not browser.refusals
