"""The dealer's tablet at a tournament table in Debian's chromium (issue #15): a hand played tap by tap
to the showdown, the engine's winner paid, and the bust gone into the event by itself."""

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


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the dealer's password when she logs in."""


def tap(page, selector: str) -> None:
    """One tap, then wait for the tablet to show the version it made (a second tap while the first is
    in flight is dropped by htmx, as a dealer's double tap should be)."""
    before = page.get_attribute("#deal-table", "data-version")
    page.click(selector)
    wait_until(page, f"document.getElementById('deal-table').dataset.version !== '{before}'", 10000)


def tap_cards(page, *cards: str) -> None:
    """Tap each card on the tablet's picker (issue #36): the last one the step needs sends it; waits for the
    version it makes."""
    before = page.get_attribute("#deal-table", "data-version")
    for card in cards:
        page.click(f"#deal-table form[data-card-picker] label.pick:has(input[value='{card}'])")
    wait_until(page, f"document.getElementById('deal-table').dataset.version !== '{before}'", 10000)


def _running(tournament, director, floor, dealer):
    """Two players drawn at one table, the clock running, the dealer put on duty there by the floor."""
    for i in range(2):
        register(tournament, floor, i)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (table,) = event_reads.tournament_state(tournament).tables
    dealt = hand_reads.dealt_table(tournament, table.table)
    dealing.assign_dealer(table=dealt, by=floor, key=uuid.uuid4().hex, expected_version=dealt.version, dealer=dealer)
    return table.table


def test_a_heads_up_hand_is_dealt_to_the_showdown_and_the_bust_reaches_the_event(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, browser, settings  # noqa: F811
):
    (server,) = daphne_servers(1)
    number = off_the_browser_thread(lambda: _running(registering, director_dora, floor_fede, dealer_dana))
    page = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", dealer_dana.username)
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    tap(page, "[data-action='new-hand']")
    tap(page, "[data-action='call-clock']")  # C-04: 30 seconds, counted down on the tablet
    page.wait_for_timeout(1300)
    assert int(page.inner_text("[data-clock-left]")) <= 29
    tap(page, "[data-action='all-in']")  # heads-up, the button (small blind) moves all in: the clock stops
    tap(page, "[data-action='call']")
    for cards in ("2c 7d 9h", "Js", "Kc"):
        tap_cards(page, *cards.split())
    shown = page.inner_text("[data-step='showdown']")
    for cards in ("As Ad", "3h 4s"):  # in the order the tablet asks (TDA-16/17)
        tap_cards(page, *cards.split())
    assert "Seat" in shown
    # The engine's award, shown for the dealer to push and confirm: aces win the whole pot.
    assert "collects 20,000" in page.inner_text("[data-awards]")
    tap(page, "[data-action='award-pots']")
    page.wait_for_selector("[data-step='between-hands']")
    assert "collects" in page.inner_text("#deal-table")

    def event():
        registering.refresh_from_db()
        state = event_reads.tournament_state(registering)
        return state.players_left, hand_reads.latest_hand(hand_reads.dealt_table(registering, number)).reported_seq

    players_left, reported = off_the_browser_thread(event)
    assert players_left == 1 and reported is not None
