"""An event dealt hand by hand at the tablets through hand-for-hand to its winner (issue #36 item 10; RP-08,
CC-11): the simulated director releases each deal and, after an all-in and a call, the board held while the
other table's hand of the deal still runs (RP-08-F), as a real one does; the bubble bursts, the final table
plays without hand-for-hand, and the event ends with its winner and a stopped clock."""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from tournaments.dealt_simulation import verify_dealt_hands
from tournaments.reads import event as event_reads
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)

#: Seven places paid of sixteen: the bubble (eight players) comes at two tables of six seats, so the event goes
#: hand-for-hand there; seed 6 deals an all-in called in a hand-for-hand hand (its board is held).
PAYOUT = [[16, [3000, 2000, 1500, 1200, 1000, 700, 600]]]


def test_rp08_cc11_an_event_dealt_hand_by_hand_goes_through_hand_for_hand_to_its_winner():
    report = simulate_tournament(entries=16, seed=6, seats=6, final_table_size=6, hand_by_hand=True,
                                 payout_table=PAYOUT)
    events = [event.as_record() for event in report.tournament.events.order_by("seq")]
    clock_kinds = [e["kind"] for e in events if e["type"] == "clock"]
    assert clock_kinds.count("hand_for_hand_on") == 1 and clock_kinds.count("hand_for_hand_hand") >= 1
    assert "hand_for_hand_off" in clock_kinds and clock_kinds[-1] == "finish"
    on = next(e["seq"] for e in events if e.get("kind") == "hand_for_hand_on")
    off = next(e["seq"] for e in events if e.get("kind") == "hand_for_hand_off")
    dealt_in_h4h = [e for e in events if e["type"] == "hand" and on < e["seq"] < off]
    assert dealt_in_h4h and all(e["hand_for_hand_hand"] for e in dealt_in_h4h)
    # RP-08-F: an all-in called in a hand-for-hand hand, its board held and released by the director
    assert AuditEvent.objects.filter(action="tournament.table_board_released").exists()
    state = event_reads.tournament_state(report.tournament)
    assert state.finished and state.players_left == 1
    assert any(e["type"] == "results" for e in events) and events[-1]["type"] in ("finished", "prize_paid")
    # every hand dealt replays to its recorded stacks, and carries its start and level (item 11)
    assert verify_dealt_hands(report.dealt_hands) == []
    hands = [e for e in events if e["type"] == "hand"]
    assert hands and all(e.get("started_at") and e.get("level") for e in hands)
