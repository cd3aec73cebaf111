"""The tables' screens fit their devices: no horizontal scroll at 360 px, targets of 48 px, English too.

The state is set up through the services beforehand (nothing here needs a push), then each screen
is opened in chromium at phone and tablet sizes and photographed into test-results/.
"""

import os
import uuid

import pytest

from tables import services, sessions
from tables.models import Table
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_TARGETS = """
() => [...document.querySelectorAll('main button, main label.pick, main .btn, main summary')]
  .filter(el => el.offsetParent !== null)
  .map(el => el.getBoundingClientRect())
  .filter(r => r.height < 44 || r.width < 44).length
"""


def _act(fn, table_id, by, **kwargs):
    table = Table.objects.get(pk=table_id)
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _set_up(table_one, dealer_dana, pit_boss_pat):
    """An open table, a settled hand awaiting approval (A-A vs A-A), and a second hand at the flop."""
    t = table_one.pk
    _act(sessions.request_opening, t, dealer_dana)
    _act(sessions.confirm_deck_check, t, pit_boss_pat)
    _act(services.start_hand, t, dealer_dana)
    for record in (
        {"action": "place-ante", "box": 2, "amount": 10}, {"action": "place-bonus", "box": 2, "amount": 5},
        {"action": "place-ante", "box": 5, "amount": 25}, {"action": "close-bets"}, {"action": "deal-initial"},
    ):
        _act(services.record_action, t, dealer_dana, record=record)
    # One card found face up in the deck: burned, the hand goes on, the pit boss is alerted (THB-74).
    _act(services.report_irregularity, t, dealer_dana, record={"action": "report-face-up-card", "count": 1})
    for record in (
        {"action": "bet-flop", "box": 2, "amount": 20}, {"action": "fold", "box": 5},
        {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}, {"action": "pass-turn", "box": 2},
        {"action": "deal-turn", "card": "Js"}, {"action": "bet-river", "box": 2, "amount": 10},
        {"action": "deal-river", "card": "Kc"}, {"action": "reveal-dealer", "cards": ["Ah", "Ad"]},
        {"action": "reveal-box", "box": 2, "cards": ["As", "Ac"]},
    ):
        _act(services.record_action, t, dealer_dana, record=record)


def _login(page, server, user):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_console_the_recall_and_the_tablet_fit_a_phone_and_a_tablet(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, screenshots, browser
):
    (server,) = daphne_servers(1)
    off_the_browser_thread(_set_up, table_one, dealer_dana, pit_boss_pat)

    boss = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES").new_page()
    _login(boss, server, pit_boss_pat)
    boss.goto(f"{server.url}/tables/pit/")
    boss.wait_for_selector("[data-action='approve']")
    assert _fits(boss)
    assert boss.evaluate(SMALL_TARGETS) == 0
    boss.screenshot(path=os.path.join(screenshots, "pit-console-phone.png"), full_page=True)

    boss.set_viewport_size(TABLET)
    boss.goto(f"{server.url}/tables/{table_one.pk}/hands/")
    # Waiting for approval: no house result yet, the award is not final.
    assert "Resultado de la casa" not in boss.inner_text("main")
    boss.screenshot(path=os.path.join(screenshots, "pit-recall-tablet.png"), full_page=True)
    boss.goto(f"{server.url}/tables/pit/")
    boss.click("[data-action='approve']")
    boss.click("button[data-action='confirm-approve']")  # the approval is confirmed (issue #16)
    boss.wait_for_selector("[data-action='approve']", state="detached")
    boss.goto(f"{server.url}/tables/{table_one.pk}/hands/")
    assert boss.locator("a[data-action='download']").count() == 1

    # The dealer's tablet in English, then at phone width with the keypad and the card picker.
    dealer = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(dealer, server, dealer_dana)
    dealer.click("button[name=language][value=en]")
    dealer.wait_for_load_state("networkidle")
    dealer.goto(f"{server.url}/tables/{table_one.pk}/")
    # THB-17: the dealer tells the pit boss discreetly; the tablet says only that it was done.
    dealer.click("#dealer-table .table-tools summary:has-text('Discreet alert')")
    dealer.fill("#dealer-table form[hx-post$='/suspect-cards/'] input[name=note]", "a nicked queen")
    dealer.click("#dealer-table button[data-action='suspect-cards']")
    dealer.wait_for_selector("#dealer-table .notice:has-text('told discreetly')")
    assert "nicked" not in dealer.inner_text("#dealer-table")
    boss.goto(f"{server.url}/tables/pit/")
    assert "a nicked queen" in boss.inner_text(".alerts")
    dealer.click("#dealer-table button[data-action='new-hand']")
    dealer.wait_for_selector("#dealer-table [data-step='bets']")
    assert "Place your bets" in dealer.inner_text("#dealer-table")
    assert dealer.evaluate(SMALL_TARGETS) == 0
    dealer.screenshot(path=os.path.join(screenshots, "pit-tablet-english.png"), full_page=True)

    # A push arriving while the dealer types (the pit boss marks an alert seen) keeps what was typed.
    keypad = "#dealer-table form[data-keypad]"
    dealer.click(f"{keypad} .pick-box label:has(input[value='3'])")
    dealer.fill(f"{keypad} [data-amount]", "25")
    shown = int(dealer.get_attribute("#dealer-table", "data-version"))
    boss.goto(f"{server.url}/tables/pit/")
    boss.click("button[data-action='acknowledge']")
    wait_until(dealer, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {shown}")
    assert dealer.input_value(f"{keypad} [data-amount]") == "25"
    assert dealer.is_checked(f"{keypad} input[name=box][value='3']")
    dealer.click(f"{keypad} button[data-action='record-bet']")
    dealer.wait_for_selector("#box-3 .bets")
    assert "25" in dealer.inner_text("#box-3")
    dealer.set_viewport_size(PHONE)
    assert _fits(dealer)
    dealer.screenshot(path=os.path.join(screenshots, "pit-tablet-keypad-phone.png"), full_page=True)
