"""The simulator's records are legal (issue #38 items 13, 14, 15): a player who must sit a hand out is not
dealt it (C-03, CC-53, CC-57, TDA-10), a redraw's seats carry the drawn button of the table's next hand
(CC-82, docs/tournament-record.md), and hand-for-hand starts as the bubble approaches (RP-08-A), busts at
different tables in one round sharing their places (CC-20, CC-21)."""

from __future__ import annotations

import pytest

from casino.rules.tournament.record import verify_record
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def record_of(tournament) -> list[dict]:
    return [event.as_record() for event in tournament.events.order_by("seq")]


@pytest.fixture
def thirty_nine_one():
    """The issue's example: 30 entries, 9 seats, seed 1."""
    return record_of(simulate_tournament(entries=30, seed=1, seats=9).tournament)


def test_a_simulated_player_moved_onto_the_button_is_not_dealt_the_next_hand_CC_53_CC_57(thirty_nine_one):
    events = thirty_nine_one
    moved_out = [e for e in events if e["type"] == "seated" and e["sits_out"]]
    assert moved_out  # the example has such moves: entry 3 to table 1 seat 2, the next button
    for move in moved_out:
        next_hand = next(e for e in events if e["seq"] > move["seq"] and e["type"] == "hand"
                         and e["table"] == move["table"])
        assert move["entry"] not in [p["entry"] for p in next_hand["players"]], (move, next_hand)
    assert verify_record(events).ok
