"""Issue #39 in Debian's chromium: at a level change the dealer's tablet asks for a new deck before the next hand
(CC-71, the house's C-17), records the one typed in and deals with it; the floor's console shows the table's deck
live."""

import uuid

import pytest

from casino import decks
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    director_dora,
    floor_fede,
    register,
    registering,
    sunday_event,
)
from tournaments import services
from tournaments.models import tables_group
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def _login(page, server, user):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _checked_deck(table, floor, serial, back):
    deck = decks.receive_deck(stock=tables_group(table.tournament_id), back=back, serial=serial, by=floor)
    decks.issue_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=table.group_name, place_name=str(table))
    deck.refresh_from_db()
    decks.check_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version, complete=True,
                     undamaged=True, unmarked=True)
    deck.refresh_from_db()
    return deck


def _tap(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _a_hand_with_the_red_deck_then_level_two(tournament, director, floor, dealer):
    for i in range(4):
        register(tournament, floor, i)
    act(services.close_registration, tournament, director)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (seats,) = event_reads.tournament_state(tournament).tables
    table = hand_reads.dealt_table(tournament, seats.table)
    _tap(table, dealing.assign_dealer, floor, dealer=dealer)
    red = _checked_deck(table, floor, "SUN-001", "red")
    _tap(table, dealing.change_deck, dealer, deck=red, reason="opening")
    _tap(table, dealing.start_hand, dealer)
    while (to_act := hand_reads.hand_state(hand_reads.latest_hand(table)).to_act) is not None:
        _tap(table, dealing.act, dealer, record={"action": "fold", "seat": to_act})
    _tap(table, dealing.act, dealer, record={"action": "award-pots"})
    act(services.clock_command, tournament, director, kind="skip", step=1)  # level 2
    _checked_deck(table, floor, "SUN-002", "blue")
    return table


def test_cc71_at_a_level_change_the_tablet_asks_for_the_new_deck_and_deals_with_it(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(
        lambda: _a_hand_with_the_red_deck_then_level_two(registering, director_dora, floor_fede, dealer_dana))
    console = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(console, server, floor_fede)
    console.goto(f"{server.url}/tournaments/{registering.pk}/")
    wait_until(console, "window.htmx && document.querySelector('[ws-connect]')")
    assert console.locator(f"[data-dealt-table='{table.number}'] [data-deck='SUN-001']").count() == 1

    tablet = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(tablet, server, dealer_dana)
    tablet.goto(f"{server.url}/tournaments/{registering.pk}/tables/{table.number}/deal/")
    wait_until(tablet, "window.htmx && document.querySelector('[ws-connect]')")
    due = tablet.locator("[data-deck-due='level']")
    assert due.count() == 1 and "change the deck before the next hand (CC-71)" in due.inner_text()
    assert tablet.locator("button[data-action='new-hand']").count() == 0  # the next hand waits for the deck
    tablet.screenshot(path=f"{screenshots}/tournament-deck-change-due.png", full_page=True)
    # the serial's field and its button apart, not one touching the other
    apart = tablet.evaluate(
        """() => { const f = document.querySelector('#tap-change-deck-due input[name=serial]').getBoundingClientRect();
                   const b = document.querySelector('#tap-change-deck-due button').getBoundingClientRect();
                   return Math.max(b.top - f.bottom, b.left - f.right); }""")
    assert apart >= 8, apart
    form = tablet.locator("#tap-change-deck-due")
    form.locator("input[name=serial]").fill("SUN-002")
    form.locator("button[data-action='change-deck-due']").click()
    wait_until(tablet, "!document.querySelector('[data-deck-due]')", 10000)
    assert "In play: deck SUN-002 (blue)." in tablet.inner_text("[data-deck]")
    tablet.click("button[data-action='new-hand']")
    tablet.wait_for_selector("[data-step='betting']")
    tablet.screenshot(path=f"{screenshots}/tournament-deck-changed-hand-dealt.png", full_page=True)
    # the console hears of it live: the table's deck is the new one
    wait_until(console, f"!!document.querySelector(\"[data-dealt-table='{table.number}'] [data-deck='SUN-002']\")",
               10000)

    def dealt_with():
        return hand_reads.latest_hand(table).deck.serial

    assert off_the_browser_thread(dealt_with) == "SUN-002"
