"""A live pit in Debian's chromium: a dealer's tablet, the pit boss's console and a player's phone.

One daphne server and three browser contexts. Every change goes through the
server, as at a real table (the in-memory channel layer only reaches its own
process): the dealer taps the tablet, the pit boss taps the console, and the
phone only watches. The hand is the one the manual makes special: box 1 holds
A-A with a Bonus and the dealer shows A-A, the 1000 to 1 award that waits for
the pit boss (THB-54, C-30).
"""

import os

import pytest

from casino import player_links
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until
from tests.conftest import issue_box_link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page, server, user):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _socket_open(page):
    """The page's websocket is open once the server has pushed the first fragment (live.js clears the bar)."""
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_timeout(400)


class Tablet:
    def __init__(self, page):
        self.page = page

    def step(self, kind: str):
        self.page.wait_for_selector(f"#dealer-table [data-step='{kind}']", timeout=10000)

    def tap(self, action: str):
        self.page.click(f"#dealer-table button[data-action='{action}']:not([disabled])")

    def bet(self, box: int, spot: str, chips: list[int]):
        keypad = "#dealer-table form[data-keypad]"
        self.page.click(f"{keypad} .pick-box label:has(input[value='{box}'])")
        self.page.click(f"{keypad} .pick-spot label:has(input[value='{spot}'])")
        self.page.click(f"{keypad} button[data-clear]")
        for chip in chips:
            self.page.click(f"{keypad} button[data-chip='{chip}']")
        version = self.version()
        self.page.click(f"{keypad} button[data-action='record-bet']:not([disabled])")
        self.wait_past(version)

    def pick(self, *cards: str):
        """The cards tapped in order; the last one the step needs sends them (issue #16: no confirming tap)."""
        version = self.version()
        for card in cards:
            self.page.click(f"#dealer-table form[data-picker] label.pick:has(input[value='{card}'])")
        self.wait_past(version)

    def version(self) -> int:
        return int(self.page.get_attribute("#dealer-table", "data-version"))

    def wait_past(self, version: int):
        wait_until(self.page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {version}",
                   timeout=10000)

    def tap_and_wait(self, action: str):
        version = self.version()
        self.tap(action)
        self.wait_past(version)


def test_a_dealer_plays_a_1000_to_1_hand_the_pit_boss_approves_it_and_the_phone_sees_the_payout_live(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, screenshots, browser
):
    (server,) = daphne_servers(1)
    shot = lambda page, name: page.screenshot(path=os.path.join(screenshots, name), full_page=True)  # noqa: E731

    dealer_page = browser.new_context(viewport=TABLET, locale="es-ES").new_page()
    boss_page = browser.new_context(viewport=TABLET, locale="es-ES").new_page()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES").new_page()
    errors = []
    for page in (dealer_page, boss_page, phone):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # --- The dealer asks to open; the pit boss's console hears it live and confirms the deck check (THB-21).
    _login(dealer_page, server, dealer_dana)
    dealer_page.goto(f"{server.url}/tables/{table_one.pk}/")
    tablet = Tablet(dealer_page)
    _socket_open(dealer_page)
    shot(dealer_page, "pit-tablet-closed.png")

    _login(boss_page, server, pit_boss_pat)
    boss_page.goto(f"{server.url}/tables/pit/")
    _socket_open(boss_page)
    tablet.tap_and_wait("open")
    assert "Esperando la comprobación de las barajas" in dealer_page.inner_text("#dealer-table")
    boss_page.wait_for_selector("button[data-action='deck-ok']", timeout=10000)  # pushed, not reloaded
    shot(boss_page, "pit-console-deck-check.png")
    boss_page.click("button[data-action='deck-ok']")
    dealer_page.wait_for_selector("#dealer-table button[data-action='new-hand']", timeout=10000)

    # --- The player's phone: box 1's QR link (issued at the table), opened once, never reloaded after.
    link = off_the_browser_thread(
        lambda: issue_box_link(table_one, 1, dealer_dana)
    )
    phone.goto(server.url + player_links.url_for(link))
    assert "Casilla 1" in phone.inner_text("#player-view")
    _socket_open(phone)
    phone.evaluate("window.__sameDocument = true")

    # --- "Hagan sus apuestas": box 1 ante 10 and Bonus 5 with the chip keypad.
    tablet.tap_and_wait("new-hand")
    tablet.step("bets")
    keypad = "#dealer-table form[data-keypad]"
    # Limits as you type: 3 is below the table minimum of 5, the button stays off (THB-26).
    dealer_page.click(f"{keypad} .pick-box label:has(input[value='1'])")
    dealer_page.fill(f"{keypad} [data-amount]", "3")
    assert dealer_page.is_disabled(f"{keypad} button[data-action='record-bet']")
    assert "mínimo" in dealer_page.inner_text(f"{keypad} [data-hint]")
    shot(dealer_page, "pit-tablet-keypad-limit.png")
    tablet.bet(1, "ante", [5, 5])
    tablet.bet(1, "bonus", [5])
    wait_until(phone, "document.querySelector('#player-view').innerText.includes('Bonus')", timeout=10000)
    shot(dealer_page, "pit-tablet-bets.png")
    assert _no_horizontal_scroll(dealer_page)

    # --- "No va más", the deal, box 1 plays ("va", 2 x ante).
    tablet.tap_and_wait("close-bets")
    tablet.step("deal-initial")
    tablet.tap_and_wait("deal")
    tablet.step("decision")
    shot(dealer_page, "pit-tablet-decision.png")
    tablet.tap_and_wait("bet")

    # --- The flop with the card picker; turn and river checked; cards already used are greyed out.
    tablet.step("street")
    tablet.pick("2c", "7d", "9h")
    tablet.step("decision")
    tablet.tap_and_wait("check")
    tablet.step("street")
    assert dealer_page.is_disabled("#dealer-table form[data-picker] input[value='2c']")
    shot(dealer_page, "pit-tablet-card-picker.png")
    tablet.pick("Js")
    tablet.tap_and_wait("check")
    tablet.pick("Kc")

    # --- The dealer's A-A first, then box 1's A-A (THB-15): the award waits for the pit boss.
    tablet.step("dealer-cards")
    tablet.pick("Ah", "Ad")
    tablet.step("box-cards")
    tablet.pick("As", "Ac")
    tablet.step("approval")
    settlement = dealer_page.inner_text("#settlement")
    assert "A-A con A-A del crupier" in settlement and "5000" in settlement
    shot(dealer_page, "pit-tablet-settlement-waiting.png")
    wait_until(phone, "document.querySelector('#player-view').innerText.includes('A pagar cuando se apruebe')",
               timeout=10000)
    shot(phone, "pit-phone-award-waiting.png")

    # --- The pit boss sees the hand's cards in the console and approves (second browser context).
    boss_page.wait_for_selector("[data-action='approve']", timeout=10000)
    approval = boss_page.inner_text(".approvals")
    assert "1000:1" in approval and "paga 5000" in approval
    for code in ("As", "Ac", "Ah", "Ad"):
        assert boss_page.locator(f".approvals [data-card='{code}']").count() == 1
    shot(boss_page, "pit-console-approval.png")
    # Two steps (issue #16): the first tap asks "Approve paying 5000 ...?", the second records it.
    boss_page.click("[data-action='approve']")
    assert "5000" in boss_page.inner_text("[data-confirm='approve'] form")
    boss_page.click("button[data-action='confirm-approve']")
    boss_page.wait_for_selector("[data-action='approve']", state="detached", timeout=10000)

    # --- The phone sees the payout appear without reloading; the tablet can deal the next hand.
    wait_until(phone, "document.querySelector('#player-view').innerText.includes('Se le paga: 5035')", timeout=10000)
    assert phone.evaluate("window.__sameDocument === true")  # the same document: pushed, not reloaded
    view = phone.inner_text("#player-view")
    assert "Aprobado" in view and "+5000" in view
    assert _no_horizontal_scroll(phone)
    shot(phone, "pit-phone-payout.png")
    tablet.step("settled")
    dealer_page.wait_for_selector("#dealer-table button[data-action='new-hand']", timeout=10000)
    shot(dealer_page, "pit-tablet-settled.png")
    shot(boss_page, "pit-console-after.png")
    assert _no_horizontal_scroll(boss_page)
    assert errors == []
