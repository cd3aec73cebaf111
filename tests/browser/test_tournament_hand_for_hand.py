"""Hand-for-hand synchronises several tables (issue #36 item 9; RP-08-F, CC-11), on two dealers' tablets and the
director's console in Debian's chromium.

Two dealt tables of five, hand-for-hand on and its deal released (by the services: the console's taps for them
are tested elsewhere). At table A an all-in is called: A's tablet is refused the flop, citing RP-08-F, while
table B's hand of the same deal runs, and the console offers the director A's board. B's hand ends: the
console stops offering it, and A's dealer deals the board with no release. A's all-in busts a player, the
final table is drawn and confirmed from the console: hand-for-hand ends by itself and the last table's tablet
deals its next hand, and an all-in's board there, with no release. (The services' side:
tests/tournaments/test_hand_for_hand_tables.py.)
"""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap, tap_cards
from tests.browser.test_tournament_two_tablets import _log_in, _tablet
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    dealer_dana_here,
    director_dora,
    floor_fede,
    registering,
    sunday_event,
    two_dealt_tables,
    two_tables_in_play,
)
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLOP = ("2c", "7d", "9h")


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def _hand_for_hand_dealt(tournament, director) -> None:
    act(services.clock_command, tournament, director, kind="hand_for_hand_on")
    act(services.clock_command, tournament, director, kind="hand_for_hand_hand")


def _event(tournament):
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


def _board(tournament, number: int) -> list[str]:
    hand = hand_reads.latest_hand(hand_reads.dealt_table(tournament, number))
    return [str(c) for c in hand_reads.hand_state(hand).board]


def _releases() -> int:
    return AuditEvent.objects.filter(action="tournament.table_board_released").count()


def _all_in_and_called(tablet) -> None:
    """The first to act moves all in, the next calls (equal stacks: the loser busts), the others fold."""
    tap(tablet, "[data-action='all-in']")
    tap(tablet, "[data-action='call']")
    while tablet.query_selector("[data-step='betting']"):
        tap(tablet, "[data-action='fold']")


def _refused(tablet, *cards: str) -> str:
    """Tap the cards of a step the server refuses: the tablet keeps its version and says why."""
    before = tablet.get_attribute("#deal-table", "data-version")
    for card in cards:
        tablet.click(f"#deal-table form[data-card-picker] label.pick:has(input[value='{card}'])")
    tablet.wait_for_selector("#deal-table .notice-error", timeout=10000)
    assert tablet.get_attribute("#deal-table", "data-version") == before
    return tablet.inner_text("#deal-table .notice-error")


def test_rp08f_cc11_a_board_waits_only_for_the_other_tables_hand_and_hand_for_hand_ends_at_the_final_table(
    daphne_servers, two_tables_in_play, two_dealt_tables, director_dora, dealer_dana_here, screenshots,  # noqa: F811
    browser,
):
    (server,) = daphne_servers(1)
    event = two_tables_in_play
    one, other = (t.number for t in two_dealt_tables)
    off_the_browser_thread(_hand_for_hand_dealt, event, director_dora)

    console = _log_in(browser, server, director_dora)
    console.goto(f"{server.url}/tournaments/{event.pk}/")
    wait_until(console, "window.htmx && document.querySelector('[ws-connect]')")
    a = _log_in(browser, server, dealer_dana_here)
    _tablet(a, server, event.pk, one)
    b = a.context.new_page()
    _tablet(b, server, event.pk, other)
    assert "Hand-for-hand" in a.inner_text("[data-level]")

    tap(a, "[data-action='new-hand']")
    tap(b, "[data-action='new-hand']")  # the same hand-for-hand deal at both tables
    _all_in_and_called(a)
    # RP-08-F: table B's hand of this deal still runs, so no card is dealt at A; the tablet says why
    said = _refused(a, *FLOP)
    assert "RP-08-F" in said and "director" in said
    assert off_the_browser_thread(_board, event, one) == []
    release = f"[data-dealt-table='{one}'] [data-action='release-board']"
    console.wait_for_selector(release, timeout=10000)  # the director could release it: nobody needs to
    a.screenshot(path=f"{screenshots}/hand-for-hand-board-held.png")

    while b.query_selector("[data-step='betting']"):  # B's hand of the deal ends: everyone folds to the big blind
        tap(b, "[data-action='fold']")
    tap(b, "[data-action='award-pots']")
    console.wait_for_selector(release, state="detached", timeout=10000)  # nothing left to wait for
    tap_cards(a, *FLOP)  # the refusal left the picker empty: the dealer taps the flop again
    assert off_the_browser_thread(_board, event, one) == list(FLOP)
    assert a.inner_text("[data-board]").split() == list(FLOP)
    for cards in ("Js", "Kc", "As Ad", "3h 4s"):  # the turn, the river, then the hands in the order asked
        tap_cards(a, *cards.split())
    tap(a, "[data-action='award-pots']")
    assert off_the_browser_thread(_releases) == 0

    # Nine left: the final table is drawn (C-01); two tables still play until the floor confirms the moves
    assert "busted" in a.inner_text("[data-step='between-hands']")
    console.wait_for_selector("[data-action='confirm-plan']", timeout=10000)
    assert off_the_browser_thread(_event, event).hand_for_hand
    console.click("[data-action='confirm-plan']")
    console.wait_for_selector("[data-action='confirm-plan']", state="detached", timeout=10000)

    # CC-11: one table left, hand-for-hand has ended by itself, and the console offers no release any more
    state = off_the_browser_thread(_event, event)
    assert not state.hand_for_hand
    (final,) = [t.table for t in state.tables if t.count >= 2]
    wait_until(console, "!document.querySelector(\"[data-action='hand-for-hand-deal']\")", 10000)
    last = a if final == one else b
    wait_until(last, "!document.querySelector('[data-level]').textContent.includes('Hand-for-hand')", 10000)

    # The last table's tablet deals on with no release: the next hand, and an all-in's board at once
    tap(last, "[data-action='new-hand']")
    _all_in_and_called(last)
    tap_cards(last, *FLOP)
    assert last.inner_text("[data-board]").split() == list(FLOP)
    assert off_the_browser_thread(_releases) == 0
    last.screenshot(path=f"{screenshots}/hand-for-hand-ended-final-table.png")
