"""What the phones at a dealt table are told of the seat in turn's time to act and of the acts out of turn (issue
#38's edges, item 2): the table's public summary (the same message for every phone there, C-33) carries the time to
act from the hand's record (CC-114, C-04), the acts out of turn waiting at their seats (TDA-53-A) and what the rules
or the director leave the seat in turn (TDA-53-B, CC-134, CC-135, C-08); each phone's script draws its own seat's
part only (static/js/tournament_phone_hand.js, tests/browser/test_tournament_phone_rulings.py)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import projections, services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import phone as phone_screen
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def phones(table) -> dict:
    """The hand as every phone at the table is sent it now."""
    table.refresh_from_db()
    board = event_reads.board_at(table.tournament)
    message = phone_screen.table_message(table, hand_reads.SUMMARIES.snapshot_anywhere(table, table.version),
                                         board.action_seconds)
    return json.loads(message)["table_summary"]["hand"]


def test_the_phones_are_told_the_seat_in_turns_time_to_act_from_the_hands_last_record_CC_114_C_04(
    event_in_play, first_table, dealer_dana_here
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    in_turn = to_act(first_table)
    hand = phones(first_table)
    last = hand_reads.effective_rows(hand_in_play(first_table))[-1].at
    assert hand["time_to_act"] == {"seat": in_turn, "seconds": 60,
                                   "ends_ms": round((last + timedelta(seconds=60)).timestamp() * 1000)}
    # the next seat's time runs from the call that reached him
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": in_turn})
    hand = phones(first_table)
    last = hand_reads.effective_rows(hand_in_play(first_table))[-1].at
    assert hand["time_to_act"]["seat"] == to_act(first_table) != in_turn
    assert hand["time_to_act"]["ends_ms"] == round((last + timedelta(seconds=60)).timestamp() * 1000)


def test_while_the_clock_is_called_the_phones_are_told_the_clock_not_the_time_to_act_CC_115(
    event_in_play, first_table, dealer_dana_here
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.call_clock, dealer_dana_here)
    hand = phones(first_table)
    assert hand["time_to_act"] is None and hand["clock"]["seat"] == to_act(first_table)


def test_where_the_house_runs_no_base_shot_clock_the_phones_are_told_no_time_to_act_TDA_29(
    event_in_play, first_table, dealer_dana_here, director_dora
):
    act(services.change_setup, event_in_play, director_dora, reason="C-04", options={"action_seconds": 0})
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert phones(first_table)["time_to_act"] is None


def test_an_act_out_of_turn_waits_at_its_seat_on_the_phones_then_binds_at_its_turn_TDA_53_A_CC_135(
    event_in_play, first_table, dealer_dana_here
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    in_turn = to_act(first_table)
    later = hand_reads.hand_state(hand_in_play(first_table)).call(in_turn).to_act
    at(first_table, dealing.act, dealer_dana_here, record={"action": "out-of-turn", "seat": later, "act": "call"})
    hand = phones(first_table)
    assert hand["out_of_turn"] == [{"seat": later, "act": "call", "to": None}]
    assert hand["binding"] is None and hand["to_act"] == in_turn
    # TDA-53-A: the time to act stays the seat in turn's, from the record before the act out of turn
    assert hand["time_to_act"]["seat"] == in_turn
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": in_turn})
    hand = phones(first_table)
    assert hand["to_act"] == later
    assert hand["binding"] == {"seat": later, "clause": "CC-135", "changed": False, "every_option": False,
                               "ruling": False, "act": "call", "to": None}


def test_a_changed_action_tells_the_phones_the_out_of_turn_player_calls_or_folds_CC_134_C_08(
    event_in_play, first_table, dealer_dana_here
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    in_turn = to_act(first_table)
    later = hand_reads.hand_state(hand_in_play(first_table)).call(in_turn).to_act
    at(first_table, dealing.act, dealer_dana_here, record={"action": "out-of-turn", "seat": later, "act": "call"})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": in_turn, "to": 150})
    binding = phones(first_table)["binding"]
    assert binding["seat"] == later and binding["clause"] == "CC-134" and binding["changed"] is True
    assert binding["every_option"] is False and binding["act"] == "call"


def test_the_phones_summary_carries_no_name_no_entry_and_no_card_with_the_rulings_C_33():
    summary = {"number": 3, "hand": 12, "phase": "betting", "paused": None, "street": "flop", "pot": 1_500,
               "in_play": True, "all_in": [], "stacks": {4: 8_250, 7: 11_000}, "to_act": 7, "board_held": False,
               "entries": {4: 5, 7: 8}, "clock": None, "out_of_turn": [{"seat": 4, "act": "raise", "to": 800}],
               "skipped": None, "acting_since": "2026-11-23T20:00:00+00:00",
               "binding": None}
    hand = projections.table_for_phones(3, 41, summary, 60)["hand"]
    assert hand["time_to_act"] == {"seat": 7, "seconds": 60, "ends_ms": round(
        datetime.fromisoformat("2026-11-23T20:01:00+00:00").timestamp() * 1000)}
    assert hand["out_of_turn"] == [{"seat": 4, "act": "raise", "to": 800}]
    assert "entries" not in hand
    assert projections.table_for_phones(3, 41, summary, 0)["hand"]["time_to_act"] is None  # TDA-29
