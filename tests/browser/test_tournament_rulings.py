"""The floor's penalty and the director's ruling reach the dealer's tablet in Debian's chromium (issue #15;
TDA-71-D, TDA-01): the tablet shows the penalty without a reload and kills the player's next hand by itself,
and a hand backed up from the table's page is redrawn on the tablet. The floor works from a phone: the
table's page, its penalty form and list and its hand in play fit its width."""

import pytest

from tests.browser.conftest import PHONE, off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import _running, tap
from tests.browser.test_tournament_two_tablets import _log_in
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    director_dora,
    floor_fede,
    register,
    registering,
    sunday_event,
)
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def test_a_penalty_given_at_the_tables_page_is_served_at_the_tablet_and_a_ruling_backs_the_hand_up(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, browser  # noqa: F811
):
    (server,) = daphne_servers(1)

    def three_at_one_table():
        register(registering, floor_fede, 2)  # a third player: a dead hand leaves a hand to play
        return _running(registering, director_dora, floor_fede, dealer_dana)

    number = off_the_browser_thread(three_at_one_table)
    offender = off_the_browser_thread(lambda: event_reads.tournament_state(registering).table(number).players[0][1])

    dealer = _log_in(browser, server, dealer_dana)
    dealer.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/deal/")
    wait_until(dealer, "window.htmx && document.querySelector('[ws-connect]')")

    floor = _log_in(browser, server, floor_fede, viewport=PHONE)
    floor.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/")
    floor.select_option("#penalty-form select[name=entry]", str(offender))
    floor.select_option("#penalty-form select[name=infraction]", "communication_device")
    floor.select_option("#penalty-form select[name=kind]", "hands")
    floor.fill("#penalty-form input[name=count]", "1")
    floor.click("#penalty-form [data-action='penalty']")
    floor.wait_for_selector("#penalties")
    assert "0 of 1 hands served" in floor.inner_text("#penalties")
    assert _fits(floor, "#penalty-form", "#penalties")

    # pushed to the tablet, no reload; the next hand kills the player's hand at the end of the deal
    dealer.wait_for_selector("text=Penalty: 1 hand to sit out", timeout=10000)
    tap(dealer, "[data-action='new-hand']")
    assert "Dead hand: penalty (TDA-71-D)" in dealer.inner_text("#deal-table")
    tap(dealer, "[data-action='call']")

    # the director backs the hand up to before the call from the table's page (TDA-01)
    floor.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/")
    assert _fits(floor, "#hand-in-play")
    floor.fill("#hand-in-play input[name=reason]", "the player had only said 'call?'")
    before = dealer.get_attribute("#deal-table", "data-version")
    floor.click("#hand-in-play [data-action='back-up-hand']")  # issue #36: the first tap only asks
    floor.wait_for_timeout(500)
    assert dealer.get_attribute("#deal-table", "data-version") == before
    assert "Tap again" in floor.inner_text("#hand-in-play [data-action='back-up-hand']")
    floor.click("#hand-in-play [data-action='back-up-hand']")
    floor.wait_for_selector("text=No action yet since the deal.")
    wait_until(dealer, f"document.getElementById('deal-table').dataset.version !== '{before}'", 10000)

    def actions():
        hand = hand_reads.latest_hand(hand_reads.dealt_table(registering, number))
        return [r.record["action"] for r in hand_reads.effective_rows(hand)]

    assert "call" not in off_the_browser_thread(actions)
    assert dealer.query_selector("[data-action='call']") is not None  # the same player is asked again


def _fits(page, *selectors: str) -> bool:
    """Nothing of the page is wider than the phone, and each of ``selectors`` is there and within its width."""
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        return False
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] > PHONE["width"]:
            return False
    return True


def test_the_floor_cannot_bust_a_live_player_at_a_tablet_table_and_sees_why_CC_43(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, browser  # noqa: F811
):
    """Issue #36, item 7: at a table dealt from a tablet the busts come from its hands. The floor's "Record the
    bust" on a player with chips is refused, he is told why, and the player and his chips stay in play."""
    (server,) = daphne_servers(1)
    number = off_the_browser_thread(lambda: _running(registering, director_dora, floor_fede, dealer_dana))
    dealer = _log_in(browser, server, dealer_dana)
    dealer.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/deal/")
    wait_until(dealer, "window.htmx && document.querySelector('[ws-connect]')")
    tap(dealer, "[data-action='new-hand']")
    while dealer.query_selector("[data-action='fold']"):  # the hand ends: the table is between hands
        tap(dealer, "[data-action='fold']")
    if dealer.query_selector("[data-action='award-pots']"):
        tap(dealer, "[data-action='award-pots']")

    def seated():
        state = event_reads.tournament_state(registering)
        return {n: state.entry(n).stack for _seat, n in state.table(number).players}

    before = off_the_browser_thread(seated)
    floor = _log_in(browser, server, floor_fede, viewport=PHONE)
    floor.goto(f"{server.url}/tournaments/{registering.pk}/tables/{number}/")
    floor.check("#bust-form input[name=seats] >> nth=0")
    floor.click("#bust-form [data-action='bust']")
    floor.wait_for_load_state("networkidle")
    said = floor.inner_text("body")
    assert "CC-43" in said or "tablet" in said.lower(), said[:400]
    assert off_the_browser_thread(seated) == before and sum(before.values()) > 0
