"""How many taps a bust takes (issue #36, "Measured taps: ... a bust"), in Debian's chromium.

At a table the floor runs without a tablet, the bust is the floor's, on the table's page on a 390x844 phone:
tick who busted, record (two or more in one hand: each one's stack at the start of the hand, CC-19). At a
table dealt from its tablet the bust comes from the hand: the award that ends it puts the bust in the event,
and nobody taps anything more (CC-43: the floor's bust there is refused). A tap is a tap on a checkbox, a
button or a link; a typed field counts once. The counts are the figures docs/tournament-console.md records
("Measured taps: a bust"); the floor's flow ran the same on the code before issue #36 (b10be5a).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import _running, tap, tap_cards
from tests.browser.test_tournament_two_tablets import _log_in
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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
#: (taps, typed fields) on the table's page, from the page open to the bust recorded; the same before issue #36.
FLOOR_TAPS = {"one bust": (2, 0), "two busts in one hand": (4, 2)}


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


class FloorPhone:
    """The table's page on the floor's phone, counting what the floor does."""

    def __init__(self, page):
        self.page, self.taps, self.typed = page, 0, 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1

    def tap_and_land(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.click(selector)
        self.taps += 1

    def type_into(self, selector: str, text: str) -> None:
        self.page.fill(selector, text)  # the tap that takes the cursor is part of typing the field
        self.typed += 1


def _five_at_a_floor_table(tournament, director, floor) -> int:
    """Five players drawn at one table, the clock running; no dealer on duty and no hand dealt: the floor
    reports its hands."""
    for i in range(5):
        register(tournament, floor, i)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (table,) = event_reads.tournament_state(tournament).tables
    return table.table


def _in_play(tournament) -> dict[int, int]:
    """Seat -> entry of the players still in."""
    tournament.refresh_from_db()
    state = event_reads.tournament_state(tournament)
    return {seat: entry for t in state.tables for seat, entry in t.players}


def test_a_bust_at_a_floor_table_takes_two_taps_and_two_busts_in_one_hand_four_taps_and_their_stacks(
    daphne_servers, registering, director_dora, floor_fede, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    number = off_the_browser_thread(_five_at_a_floor_table, registering, director_dora, floor_fede)
    seats = sorted(off_the_browser_thread(_in_play, registering))
    page = _log_in(browser, server, floor_fede, viewport=PHONE)
    page.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/")

    one = FloorPhone(page)
    one.tap(f"#bust-form input[data-seat='{seats[0]}']")
    one.tap_and_land("#bust-form [data-action='bust']")
    assert seats[0] not in off_the_browser_thread(_in_play, registering)
    assert page.locator(f"#bust-form input[data-seat='{seats[0]}']").count() == 0  # back on the page, updated
    page.screenshot(path=f"{screenshots}/bust-floor-phone.png", full_page=True)

    # CC-19: two in one hand, each one's stack at the start of the hand (the smaller one placed lower)
    two = FloorPhone(page)
    two.tap(f"#bust-form input[data-seat='{seats[1]}']")
    two.tap(f"#bust-form input[data-seat='{seats[2]}']")
    two.tap("#bust-form details summary")  # the stacks are folded away until a second bust needs them
    two.type_into(f"#bust-form input[name='stack_{seats[1]}']", "4000")
    two.type_into(f"#bust-form input[name='stack_{seats[2]}']", "7500")
    two.tap_and_land("#bust-form [data-action='bust']")
    assert not {seats[1], seats[2]} & set(off_the_browser_thread(_in_play, registering))

    print(f"one bust: {one.taps} taps, {one.typed} typed; two busts: {two.taps} taps, {two.typed} typed")
    assert (one.taps, one.typed) == FLOOR_TAPS["one bust"]
    assert (two.taps, two.typed) == FLOOR_TAPS["two busts in one hand"]


def test_a_bust_at_a_tablet_table_comes_from_the_hand_and_takes_no_tap_more(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, browser  # noqa: F811
):
    """Three at a tablet table: the button moves all in, the small blind calls and loses, the big blind folds.
    The award the hand needs anyway busts the small blind: the event has him out, and the floor's table page
    no longer offers him, with no tap on any screen after the award."""
    (server,) = daphne_servers(1)

    def three_at_a_tablet_table():
        register(registering, floor_fede, 2)
        return _running(registering, director_dora, floor_fede, dealer_dana)

    number = off_the_browser_thread(three_at_a_tablet_table)
    tablet = _log_in(browser, server, dealer_dana, viewport=TABLET)
    tablet.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/deal/")
    wait_until(tablet, "window.htmx && document.querySelector('[ws-connect]')")
    tap(tablet, "[data-action='new-hand']")
    tap(tablet, "[data-action='all-in']")  # three-handed, the button acts first
    tap(tablet, "[data-action='call']")  # the small blind, all in for as much
    tap(tablet, "[data-action='fold']")  # the big blind
    for cards in ("2c 7d 9h", "Js", "Kc", "As Ad", "3h 4s"):  # the board, then the hands in the order asked
        tap_cards(tablet, *cards.split())
    before = off_the_browser_thread(_in_play, registering)
    tap(tablet, "[data-action='award-pots']")  # the hand's own last tap
    tablet.wait_for_selector("[data-step='between-hands']")
    assert "busted" in tablet.inner_text("[data-step='between-hands']")  # the award says who is out

    after = off_the_browser_thread(_in_play, registering)
    assert len(before) == 3 and len(after) == 2  # the bust is in the event, and nobody tapped again

    floor = _log_in(browser, server, floor_fede, viewport=PHONE)
    floor.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/")
    (busted,) = set(before) - set(after)
    assert floor.locator(f"#bust-form input[data-seat='{busted}']").count() == 0
