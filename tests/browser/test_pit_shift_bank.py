"""A whole shift at one pit in Debian's chromium, every step a person's taps on their own screen (issue #39;
docs/bank.md, docs/decks.md): the pit boss receives the decks into the pit's stock and issues them to the table; the
dealer asks to open and the pit boss ticks the red and the blue deck he checked (THB-21, THB-36); the opening float
counted by the dealer and signed by the pit boss (THB-70); chips sold; a fill and a credit signed on the pit boss's,
the cashier's, the security officer's and the table's screens; dealt-mode hands on the tablet; a deck changed between
hands (the old one out of play, a new one issued, checked in the pit boss's presence and in play); the closing float
counted and signed; the session closed; and the games director's shift report with its plot, reconciled to the chip,
signed. No service is called off the browser thread but the fixtures' people, pit and table: what is read there is
only to assert what was recorded. The taps of each step are counted (``TAPS``) and held to a ceiling; screenshots of
the key steps go to /tmp/shift-shots/."""

import datetime
import os
from collections import Counter
from urllib.parse import urlencode

import pytest

from casino.models import Deck
from tables.models import ChipSlip, ChipSlipStep, Hand, HandAction, ShiftReportSignature, TableSession
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until
from tests.conftest import _staff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shift-shots"
TAPS: Counter = Counter()  # taps per step of the shift, for the report and the ceilings below


def _shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def _login(browser, server, person, viewport=TABLET):
    page = browser.new_context(viewport=viewport, locale="es-ES", is_mobile=viewport is PHONE,
                               has_touch=viewport is PHONE).new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", person.username)
    page.fill("input[name=password]", person.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state()
    return page


def _tap(page, selector: str, step: str, *, navigates: bool = False) -> None:
    """One tap, counted under ``step``; a plain page's post or link is waited for."""
    TAPS[step] += 1
    if navigates:
        with page.expect_navigation():
            page.click(selector)
    else:
        page.click(selector)


def _no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


class Tablet:
    """The dealer's tablet, live: each tap waits for the table's next version."""

    def __init__(self, page):
        self.page = page

    def version(self) -> int:
        return int(self.page.get_attribute("#dealer-table", "data-version"))

    def tap(self, selector: str, step: str) -> None:
        version = self.version()
        _tap(self.page, f"#dealer-table {selector}", step)
        wait_until(self.page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {version}",
                   timeout=10000)

    def step_kind(self) -> str:
        return self.page.get_attribute("#dealer-table [data-step]", "data-step")

    def bet(self, box: int, chips: list[int], step: str) -> None:
        keypad = "form[data-keypad]"
        if not self.page.is_checked(f"#dealer-table {keypad} .pick-box input[value='{box}']"):
            _tap(self.page, f"#dealer-table {keypad} .pick-box label:has(input[value='{box}'])", step)
        for chip in chips:
            _tap(self.page, f"#dealer-table {keypad} button[data-chip='{chip}']", step)
        self.tap(f"{keypad} button[data-action='record-bet']:not([disabled])", step)

    def deal_a_hand(self, step: str, *, repeat: bool) -> None:
        """A dealt-mode hand (the electronic shoe) from its start to its settlement: boxes 1 and 2 at 10 and 25
        (or the last hand's bets again), each box plays the flop and checks the turn and the river."""
        self.tap("button[data-action='new-dealt-hand']", step)
        if repeat:
            self.tap("button[data-action='repeat']", step)
        else:
            self.bet(1, [10], step)
            self.bet(2, [25], step)
        self.tap("button[data-action='close-bets']", step)
        for _ in range(40):
            kind = self.step_kind()
            if kind == "settled":
                return
            button = {"deal-initial": "deal", "street": "deal-street", "dealer-cards": "reveal-dealer",
                      "box-cards": "reveal-box"}.get(kind)
            if kind == "decision":
                street = self.page.get_attribute("#dealer-table form input[name=street]", "value")
                button = "bet" if street == "flop" else "check"
            assert button is not None, f"the tablet shows a step the shift does not expect: {kind}"
            self.tap(f"button[data-action='{button}']:not([disabled])", step)
        raise AssertionError("the hand did not settle")


def _receive(boss, serial: str, back: str) -> None:
    form = "form[data-form='receive']"
    if back != "red":  # red is ticked already
        _tap(boss, f"{form} label:has(input[name=back][value='{back}'])", "receive a deck")
    boss.fill(f"{form} input[name=serial]", serial)
    _tap(boss, f"{form} button[data-action='receive']", "receive a deck", navigates=True)
    assert boss.locator(f"section[data-deck='{serial}'][data-deck-state='in-stock']").count() == 1


def _issue(boss, serial: str, step: str) -> None:
    _tap(boss, f"section[data-deck='{serial}'] button[data-action='issue']", step, navigates=True)
    assert boss.locator(f"section[data-deck='{serial}'][data-deck-state='issued']").count() == 1


def _slip_sign_on_phone(page, server, home: str, number: str, step: str) -> None:
    page.goto(f"{server.url}{home}")
    _tap(page, f"[data-slip='{number}'] button[data-action='sign-slip']", step, navigates=True)


def _bank(page, table, step: str) -> None:
    """From the tablet or the console to the table's bank: one tap."""
    link = "a[data-link='bank']" if "/tables/pit/" not in page.url else f"a[data-link='bank-{table.pk}']"
    _tap(page, link, step, navigates=True)


def _back(page, where: str, step: str) -> None:
    _tap(page, f"a[data-link='{where}']", step, navigates=True)
    if where in ("tablet", "console"):
        wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
        page.wait_for_timeout(300)  # the socket joins its groups


def _chips(page, form: str, chips: dict[int, int]) -> None:
    for denomination, count in chips.items():
        page.fill(f"{form} input[name='chips-{denomination}']", str(count))


def _request_slip(boss, kind: str, chips: dict[int, int], step: str) -> str:
    form = "form[data-form='request-slip']"
    if kind != "fill":  # a fill is chosen already
        TAPS[step] += 1
        boss.select_option(f"{form} select[name=kind]", kind)
    _chips(boss, form, chips)
    _tap(boss, f"{form} button[data-action='request-slip']", step, navigates=True)
    return boss.get_attribute("#slips .slip[data-slip]", "data-slip")  # the newest first


def test_a_whole_shift_at_one_pit_through_the_screens_of_the_people_who_run_it(
        daphne_servers, table_one, dealer_dana, pit_boss_pat, games_director_gloria, django_user_model, browser):
    TAPS.clear()
    cashier = off_the_browser_thread(lambda: _staff(django_user_model, "carla", "cage_cashier", "Carla"))
    security = off_the_browser_thread(lambda: _staff(django_user_model, "sam", "security_officer", "Sam"))
    (server,) = daphne_servers(1)
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=1)
    dealer, boss = _login(browser, server, dealer_dana), _login(browser, server, pit_boss_pat)
    cage, guard = _login(browser, server, cashier, PHONE), _login(browser, server, security, PHONE)
    tablet = Tablet(dealer)

    # --- the pit boss receives three decks into the pit's stock and issues a red and a blue one to THB-1 (THB-21)
    boss.goto(f"{server.url}/tables/pit/{table_one.pit_id}/")
    _tap(boss, "a[data-link='decks']", "receive a deck", navigates=True)
    _receive(boss, "R-1", "red")
    _receive(boss, "B-1", "blue")
    _receive(boss, "R-2", "red")  # a spare, in the stock
    _issue(boss, "R-1", "issue a deck")
    _issue(boss, "B-1", "issue a deck")
    _shot(boss, "01-decks-page-issued")
    assert _no_horizontal_scroll(boss)

    # --- the dealer asks to open; the pit boss finds the red and the blue deck ticked and confirms his check
    dealer.goto(f"{server.url}/tables/{table_one.pk}/")
    wait_until(dealer, "window.htmx && document.querySelector('[ws-connect]')")
    dealer.wait_for_timeout(300)
    tablet.tap("button[data-action='open']", "open the table (dealer)")
    _back(boss, "home", "open the table (pit boss)")
    boss.wait_for_selector(f"#pit-table-{table_one.pk} button[data-action='deck-ok']", timeout=10000)
    ticked = boss.eval_on_selector_all(f"#pit-table-{table_one.pk} .deck-check form input[name=decks]:checked",
                                       "inputs => inputs.map(i => i.value)")
    assert sorted(ticked) == ["B-1", "R-1"]  # the only red and blue pair issued: nothing to type, nothing to tick
    _shot(boss, "02-console-deck-check")
    _tap(boss, f"#pit-table-{table_one.pk} button[data-action='deck-ok']", "open the table (pit boss)")
    dealer.wait_for_selector("#dealer-table [data-decks] [data-deck='R-1']", timeout=10000)
    assert dealer.locator("#dealer-table [data-decks] [data-deck='B-1'][data-deck-back='blue']").count() == 1
    _shot(dealer, "03-tablet-open-decks-in-play")

    # --- the opening float: counted by the dealer, signed by the pit boss (THB-70); chips sold for cash
    _tap(dealer, "#dealer-table a[data-link='opening-float']", "opening float (dealer)", navigates=True)
    _chips(dealer, "form[data-form='count-float']", {100: 50, 25: 40})
    _tap(dealer, "form[data-form='count-float'] button[data-action='count-float']", "opening float (dealer)",
         navigates=True)
    _bank(boss, table_one, "opening float (pit boss)")
    _tap(boss, "form[data-form='sign-float'] button[data-action='sign-float']", "opening float (pit boss)",
         navigates=True)
    assert boss.locator("#float li[data-stage='opening'][data-total='6000']").count() == 1
    dealer.fill("form[data-form='drop'] input[name=amount]", "300")
    _tap(dealer, "form[data-form='drop'] button[data-action='drop']", "chips sold", navigates=True)
    assert dealer.locator("#drop li[data-drop='300']").count() == 1

    # --- a fill: requested by the pit boss, issued by the cage, carried by security, received at the table
    fill = _request_slip(boss, "fill", {100: 10}, "fill (pit boss)")
    _shot(boss, "04-bank-fill-requested")
    _back(boss, "console", "fill (pit boss)")
    assert boss.locator(f"[data-slip='{fill}'][data-slip-state='requested']").count() == 1
    _slip_sign_on_phone(cage, server, "/tables/cage/", fill, "fill (cage)")
    _shot(cage, "05-cage-phone")
    _slip_sign_on_phone(guard, server, "/tables/security/", fill, "fill (security)")
    dealer.reload()
    _tap(dealer, f"#slips [data-slip='{fill}'] button[data-action='sign-slip']", "fill (table)", navigates=True)
    assert dealer.locator(f"#slips [data-slip='{fill}'][data-slip-state='received']").count() == 1
    _shot(dealer, "06-bank-fill-received")
    assert _no_horizontal_scroll(dealer)
    _back(dealer, "tablet", "fill (table)")

    # --- three hands dealt from the electronic shoe; the second and third repeat the first one's bets
    tablet.deal_a_hand("first hand", repeat=False)
    _shot(dealer, "07-tablet-hand-settled")
    tablet.deal_a_hand("hand with the bets repeated", repeat=True)
    tablet.deal_a_hand("hand with the bets repeated", repeat=True)

    # --- a credit: requested by the pit boss, released at the table, carried by security, received by the cage
    _bank(boss, table_one, "credit (pit boss)")
    credit = _request_slip(boss, "credit", {100: 5}, "credit (pit boss)")
    _bank(dealer, table_one, "credit (table)")
    _tap(dealer, f"#slips [data-slip='{credit}'] button[data-action='sign-slip']", "credit (table)", navigates=True)
    _slip_sign_on_phone(guard, server, "/tables/security/", credit, "credit (security)")
    _slip_sign_on_phone(cage, server, "/tables/cage/", credit, "credit (cage)")
    dealer.reload()
    assert dealer.locator(f"#slips [data-slip='{credit}'][data-slip-state='received']").count() == 1
    _back(dealer, "tablet", "credit (table)")

    _back(boss, "console", "credit (pit boss)")

    # --- a deck changed between hands on the console: R-2 from the pit's stock issued, checked in the pit boss's
    # presence and in play; the red R-1 leaves play (the new one's colour: the pair stays red and blue, THB-36)
    _tap(boss, f"#pit-table-{table_one.pk} [data-action='change-deck']", "change a deck")
    change = f"#pit-table-{table_one.pk} [data-deck-change] form"
    _tap(boss, f"{change} label:has(input[name=deck][value='R-2'])", "change a deck")
    assert not boss.is_checked(f"{change} input[name=retire][value='B-1']")
    _shot(boss, "08-console-deck-change")
    assert _no_horizontal_scroll(boss)
    _tap(boss, f"{change} button[data-action='deck-change']", "change a deck")
    dealer.wait_for_selector("#dealer-table [data-decks] [data-deck='R-2']", timeout=10000)
    assert dealer.locator("#dealer-table [data-decks] [data-deck='R-1']").count() == 0
    assert dealer.locator("#dealer-table [data-decks] [data-deck='B-1']").count() == 1
    _shot(dealer, "09-tablet-after-deck-change")

    tablet.deal_a_hand("hand with the bets repeated", repeat=True)
    tablet.deal_a_hand("hand with the bets repeated", repeat=True)

    # --- the closing: the dealer asks, counts the tray; the pit boss signs it and confirms the closing
    tablet.tap("button[data-action='close-table']", "closing (dealer)")
    _bank(boss, table_one, "closing (pit boss)")
    expected = int(boss.get_attribute("[data-expected]", "data-expected"))  # what the tray must hold, as he sees it
    _tap(dealer, "#dealer-table a[data-link='closing-float']", "closing (dealer)", navigates=True)
    assert dealer.input_value("form[data-form='count-float'] select[name=stage]") == "closing"
    _chips(dealer, "form[data-form='count-float']", {1: expected})
    _tap(dealer, "form[data-form='count-float'] button[data-action='count-float']", "closing (dealer)",
         navigates=True)
    boss.reload()
    _tap(boss, "form[data-form='sign-float'] button[data-action='sign-float']", "closing (pit boss)", navigates=True)
    assert boss.locator(f"#float li[data-stage='closing'][data-total='{expected}']").count() == 1
    _shot(boss, "10-bank-closing-signed")
    _back(boss, "console", "closing (pit boss)")
    _tap(boss, f"#pit-table-{table_one.pk} button[data-action='close-ok']", "closing (pit boss)")
    _back(dealer, "tablet", "closing (dealer)")
    dealer.wait_for_selector("#dealer-table button[data-action='open']", timeout=10000)  # closed: it may reopen
    assert dealer.locator("#dealer-table [data-decks]").count() == 0  # its decks left play with it
    _shot(dealer, "11-tablet-closed")

    # --- the games director's shift report: reconciled to the chip, with its plot, signed
    director = _login(browser, server, games_director_gloria)
    end = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=1)
    director.goto(f"{server.url}/tables/shift/?{urlencode({'from': start.isoformat(), 'to': end.isoformat()})}")
    row = director.locator("tr[data-table='THB-1']")
    assert row.get_attribute("data-difference") == "0"
    assert director.locator("svg.shift-plot rect[data-table='THB-1']").count() == 1
    assert director.locator("svg.shift-plot polyline.plot-difference").count() == 1
    assert row.locator("td").all_inner_texts()[1:6] == ["6000", str(expected), "1000", "500", "300"]
    _shot(director, "12-shift-report")
    _tap(director, "button[data-action='sign-shift']", "shift report", navigates=True)

    # --- what was recorded
    def recorded():
        steps = {d.serial: [(s.action, s.by.username) for s in d.steps.order_by("seq")] for d in Deck.objects.all()}
        session = TableSession.objects.get(table=table_one)
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        actions = HandAction.objects.filter(hand__session=session)
        slips = {s.number: list(ChipSlipStep.objects.filter(slip=s).order_by("seq")
                                .values_list("by__username", flat=True)) for s in ChipSlip.objects.all()}
        return (steps, session.status, hands, actions.count(), set(actions.values_list("actor__username", flat=True)),
                slips, ShiftReportSignature.objects.get().figures["totals"])

    steps, status, hands, action_rows, actors, slips, totals = off_the_browser_thread(recorded)
    opened = [("received", "pat"), ("issued", "pat"), ("checked", "pat"), ("in-play", "pat")]
    assert steps["R-1"] == [*opened, ("retired", "pat")]  # changed by the pit boss
    assert steps["R-2"] == [*opened, ("retired", "pat")]  # retired by the closing, confirmed by him
    assert steps["B-1"] == [*opened, ("retired", "pat")]
    assert status == "closed"
    assert [h.mode for h in hands] == ["dealt"] * 5 and all(h.house_net is not None for h in hands)
    assert action_rows > 5 * 10 and actors == {"dana"}  # every tap of every hand, by the dealer
    assert slips == {fill: ["pat", "carla", "sam", "dana"], credit: ["pat", "dana", "sam", "carla"]}
    assert totals["difference"] == 0

    # --- the taps, held to a ceiling (a dealer's and a pit boss's screens: few taps, nothing typed but counts)
    print("\ntaps per step of the shift:", dict(TAPS))
    ceilings = {"receive a deck": 7, "issue a deck": 2, "open the table (dealer)": 1, "open the table (pit boss)": 2,
                "opening float (dealer)": 2, "opening float (pit boss)": 2, "chips sold": 1,
                "fill (pit boss)": 2, "fill (cage)": 1, "fill (security)": 1, "fill (table)": 2,
                "credit (pit boss)": 4, "credit (table)": 3, "credit (security)": 1, "credit (cage)": 1,
                "change a deck": 3, "closing (dealer)": 4, "closing (pit boss)": 4}
    over = {step: (TAPS[step], ceiling) for step, ceiling in ceilings.items() if TAPS[step] > ceiling}
    assert not over, f"steps that take more taps than their ceiling: {over}"
    assert TAPS["hand with the bets repeated"] / 4 <= 16
