"""A shift at one pit in Debian's chromium (issue #39, the bank; docs/bank.md): the table opened with its decks and
its float counted by the dealer and signed by the pit boss, chips sold, hands dealt, a fill and a credit signed on
the pit boss's, the cashier's, the security officer's and the dealer's screens, a deck changed, the closing float
counted and signed, and the games director's shift report with its plot, reconciled to the chip, and signed."""

import datetime
import uuid
from urllib.parse import urlencode

import pytest

from casino import decks
from casino.models import object_label
from tables import bank_reads, services, sessions
from tables.management.commands.simulate_pit_shift import HAND
from tables.models import ChipSlip, Hand, ShiftReportSignature, TableSession
from tables.models import pit_group as pit_label
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread
from tests.conftest import _staff
from tests.tables.helpers import act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(browser, server, person, viewport=TABLET):
    page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", person.username)
    page.fill("input[name=password]", person.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state()
    return page


def _deck(table, boss, serial, back):
    deck = decks.receive_deck(stock=pit_label(table.pit_id), back=back, serial=serial, by=boss)
    decks.issue_deck(deck=deck, by=boss, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=object_label(table), place_name=table.name)
    deck.refresh_from_db()
    return deck


def _opened_with_decks(table, dealer, boss):
    _deck(table, boss, "R-1", "red"), _deck(table, boss, "B-1", "blue")
    act(sessions.request_opening, table, dealer)
    act(sessions.confirm_deck_check, table, boss, decks=("R-1", "B-1"))


def _hands(table, dealer, count):
    for _ in range(count):
        act(services.start_hand, table, dealer, mode=Hand.Mode.DEALT)
        for record in HAND:
            act(services.record_action, table, dealer, record=record)


def _change_deck(table, boss):
    """The red deck changed: retired, a new red one issued, checked in the pit boss's presence and put in play."""
    old = decks.Deck.objects.get(serial="R-1")
    decks.retire_deck(deck=old, by=boss, key=uuid.uuid4().hex, expected_version=old.version, reason="change")
    new = _deck(table, boss, "R-2", "red")
    decks.check_deck(deck=new, by=boss, key=uuid.uuid4().hex, expected_version=new.version, complete=True,
                     undamaged=True, unmarked=True)
    new.refresh_from_db()
    decks.put_in_play(deck=new, by=boss, key=uuid.uuid4().hex, expected_version=new.version, place=object_label(table))


def _sign_on_phone(page, server, home, number):
    page.goto(f"{server.url}{home}")
    page.click(f"[data-slip='{number}'] button[data-action='sign-slip']")
    page.wait_for_load_state()


def _sign_on_slip_page(page, server, slip_id):
    page.goto(f"{server.url}/tables/slips/{slip_id}/")
    assert page.locator(".slip-qr svg").count() == 1  # printable, with the QR code that opens it
    page.click("button[data-action='sign-slip']")
    page.wait_for_load_state()


def _request(page, server, table, kind, chips):
    page.goto(f"{server.url}/tables/{table.pk}/bank/")
    form = page.locator("form[data-form='request-slip']")
    form.locator("select[name=kind]").select_option(kind)
    for denomination, count in chips.items():
        form.locator(f"input[name='chips-{denomination}']").fill(str(count))
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    return off_the_browser_thread(lambda: ChipSlip.objects.order_by("-pk").values_list("pk", flat=True).first())


def _count(page, server, table, stage, chips):
    page.goto(f"{server.url}/tables/{table.pk}/bank/")
    form = page.locator("form[data-form='count-float']")
    form.locator("select[name=stage]").select_option(stage)
    for denomination, count in chips.items():
        form.locator(f"input[name='chips-{denomination}']").fill(str(count))
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def _sign_float(page, server, table, stage):
    page.goto(f"{server.url}/tables/{table.pk}/bank/")
    form = page.locator("form[data-form='sign-float']")
    form.locator("select[name=stage]").select_option(stage)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def test_a_shift_at_one_pit_from_the_floats_to_the_signed_shift_report(
        daphne_servers, table_one, dealer_dana, pit_boss_pat, games_director_gloria, django_user_model, browser):
    cashier = off_the_browser_thread(lambda: _staff(django_user_model, "carla", "cage_cashier", "Carla"))
    security = off_the_browser_thread(lambda: _staff(django_user_model, "sam", "security_officer", "Sam"))
    (server,) = daphne_servers(1)
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=1)
    off_the_browser_thread(lambda: _opened_with_decks(table_one, dealer_dana, pit_boss_pat))
    dealer, boss = _login(browser, server, dealer_dana), _login(browser, server, pit_boss_pat)
    cage, guard = _login(browser, server, cashier, PHONE), _login(browser, server, security, PHONE)

    # the opening float: counted by the dealer, signed by the pit boss (THB-70)
    _count(dealer, server, table_one, "opening", {100: 50, 25: 40})
    _sign_float(boss, server, table_one, "opening")
    assert "6000" in boss.inner_text("#float")

    # chips sold for cash, recorded by the dealer as it happens
    dealer.goto(f"{server.url}/tables/{table_one.pk}/bank/")
    dealer.fill("form[data-form='drop'] input[name=amount]", "300")
    dealer.click("form[data-form='drop'] button[type=submit]")
    dealer.wait_for_load_state()

    # a fill: the pit boss, the cage, security, the table; each a different logged-in person
    fill = _request(boss, server, table_one, "fill", {100: 10})
    number = off_the_browser_thread(lambda: ChipSlip.objects.get(pk=fill).number)
    boss.goto(f"{server.url}/tables/pit/{table_one.pit_id}/")
    assert boss.locator(f"[data-slip='{number}'][data-slip-state='requested']").count() == 1
    _sign_on_phone(cage, server, "/tables/cage/", number)
    _sign_on_phone(guard, server, "/tables/security/", number)
    _sign_on_slip_page(dealer, server, fill)
    assert off_the_browser_thread(lambda: ChipSlip.objects.get(pk=fill).state) == "received"

    off_the_browser_thread(lambda: _hands(table_one, dealer_dana, 3))

    # a credit: released at the table, carried, received by the cage
    credit = _request(boss, server, table_one, "credit", {100: 5})
    number = off_the_browser_thread(lambda: ChipSlip.objects.get(pk=credit).number)
    _sign_on_slip_page(dealer, server, credit)
    _sign_on_phone(guard, server, "/tables/security/", number)
    _sign_on_phone(cage, server, "/tables/cage/", number)
    assert off_the_browser_thread(lambda: ChipSlip.objects.get(pk=credit).state) == "received"

    off_the_browser_thread(lambda: _change_deck(table_one, pit_boss_pat))
    off_the_browser_thread(lambda: _hands(table_one, dealer_dana, 2))

    # the closing: the dealer counts the tray, the pit boss signs, the table closes
    off_the_browser_thread(lambda: act(sessions.request_closing, table_one, dealer_dana))
    expected = off_the_browser_thread(
        lambda: bank_reads.expected_closing(TableSession.objects.get(table=table_one)))
    _count(dealer, server, table_one, "closing", {1: expected})
    _sign_float(boss, server, table_one, "closing")
    off_the_browser_thread(lambda: act(sessions.confirm_closing, table_one, pit_boss_pat))
    assert off_the_browser_thread(lambda: TableSession.objects.get(table=table_one).status) == "closed"

    # the games director's shift report: reconciled to the chip, with its plot, signed
    director = _login(browser, server, games_director_gloria)
    end = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=1)
    window = urlencode({"from": start.isoformat(), "to": end.isoformat()})
    director.goto(f"{server.url}/tables/shift/?{window}")
    row = director.locator("tr[data-table='THB-1']")
    assert row.get_attribute("data-difference") == "0"
    assert director.locator("svg.shift-plot rect[data-table='THB-1']").count() == 1
    assert director.locator("svg.shift-plot polyline.plot-difference").count() == 1
    cells = row.locator("td").all_inner_texts()
    assert cells[1:6] == ["6000", str(expected), "1000", "500", "300"]
    director.click("button[data-action='sign-shift']")
    director.wait_for_load_state()
    assert off_the_browser_thread(lambda: ShiftReportSignature.objects.get().figures["totals"]["difference"]) == 0
