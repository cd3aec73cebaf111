"""Issue #36 in Debian's chromium: the colour-up break run from the dealer's tablet in one tap while the floor's
console lists the tables still to race (item 5, TDA-24-A), and the event's end: the final results stop the
clock, the console and the room's display show the final standings (item 8)."""

import uuid

import pytest

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
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The house default structure's second break, which colours up the 25s.
SECOND_BREAK = 9


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def _login(page, server, user):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _four_at_one_table(tournament, director, floor, dealer):
    for i in range(4):
        register(tournament, floor, i)
    act(services.close_registration, tournament, director)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (table,) = event_reads.tournament_state(tournament).tables
    dealt = hand_reads.dealt_table(tournament, table.table)
    dealing.assign_dealer(table=dealt, by=floor, key=uuid.uuid4().hex, expected_version=dealt.version, dealer=dealer)
    return table.table


def _at_the_colour_up(tournament, director, floor):
    act(services.enter_chip_count, tournament, floor, counts={1: 9_850, 2: 10_175, 3: 10_000, 4: 9_975})
    act(services.clock_command, tournament, director, kind="skip", step=SECOND_BREAK)


def test_tda24a_the_dealer_races_the_odd_chips_in_one_tap_and_the_console_forgets_the_table(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    number = off_the_browser_thread(lambda: _four_at_one_table(registering, director_dora, floor_fede, dealer_dana))
    off_the_browser_thread(lambda: _at_the_colour_up(registering, director_dora, floor_fede))
    console = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(console, server, floor_fede)
    console.goto(f"{server.url}/tournaments/{registering.pk}/")
    wait_until(console, "window.htmx && document.querySelector('[ws-connect]')")
    assert console.locator(f"[data-race-table='{number}']").count() == 1
    assert "Nothing to do" not in console.inner_text("#plan")
    console.screenshot(path=f"{screenshots}/tournament-colour-up-console.png", full_page=True)

    tablet = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(tablet, server, dealer_dana)
    tablet.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/deal/")
    wait_until(tablet, "window.htmx && document.querySelector('[ws-connect]')")
    panel = tablet.inner_text("[data-race-due]")
    assert "odd chips" in panel and tablet.locator("[data-race-seat]").count() == 3
    assert tablet.locator("[data-action='new-hand']").count() == 0
    button = tablet.locator("[data-action='colour-up']")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= TABLET["height"]  # the one tap is on screen
    tablet.screenshot(path=f"{screenshots}/tournament-colour-up-tablet.png")
    button.click()  # one tap: the race is run and recorded
    tablet.wait_for_selector("[data-action='new-hand']")
    assert tablet.locator("[data-race-due]").count() == 0
    assert tablet.locator("[data-raced-seat]").count() == 3  # the cards dealt and who wins, for the chips
    assert "wins a chip of 100" in tablet.inner_text("[data-raced]")
    tablet.screenshot(path=f"{screenshots}/tournament-colour-up-raced.png")
    # the console hears of it live: the table is no longer listed
    wait_until(console, f"!document.querySelector(\"[data-race-table='{number}']\")", 10000)

    def recorded():
        registering.refresh_from_db()
        return event_reads.tournament_record(registering)[-1], event_reads.tournament_state(registering)

    last, state = off_the_browser_thread(recorded)
    assert last["type"] == "colour_up" and all(e.stack % 100 == 0 for e in state.in_play)


def _three_busted(tournament, floor):
    for entry in (1, 2, 3):
        tournament.refresh_from_db()
        e = event_reads.tournament_state(tournament).entry(entry)
        act(services.record_bust, tournament, floor, table=e.table, seat=e.seat, hand=entry)


def test_the_final_results_stop_the_clock_and_every_screen_shows_the_final_standings(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    off_the_browser_thread(lambda: _four_at_one_table(registering, director_dora, floor_fede, dealer_dana))
    off_the_browser_thread(lambda: _three_busted(registering, floor_fede))
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    tv.goto(f"{server.url}/tournaments/{registering.pk}/clock/")
    wait_until(tv, "document.querySelector('#clock-display') && window.htmx")
    assert tv.get_attribute("#clock-display", "data-state") == "running"
    console = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    _login(console, server, director_dora)
    console.goto(f"{server.url}/tournaments/{registering.pk}/")
    wait_until(console, "window.htmx && document.querySelector('[ws-connect]')")
    console.click("#tournament-console button[data-action='results']")
    console.wait_for_selector("[data-role='final-standings']")
    standings = console.inner_text("[data-role='final-standings']")
    assert "Sergio Sosa" in standings and "Pia Paz" in standings
    assert console.locator("#tournament-console [data-countdown-to]").count() == 0
    console.screenshot(path=f"{screenshots}/tournament-final-standings-console.png", full_page=True)
    # the room's display hears it live: the clock stops and the places and prizes are shown, no name
    wait_until(tv, "document.querySelector('#clock-display').dataset.state === 'finished'", 10000)
    assert tv.locator("#clock-display [data-role='final-standings'] [data-place='1']").count() == 1
    assert tv.locator("#clock-display [data-countdown-to]").count() == 0
    assert "Sergio Sosa" not in tv.inner_text("#clock-display")
    tv.screenshot(path=f"{screenshots}/tournament-final-standings-tv.png")
