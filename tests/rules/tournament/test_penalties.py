"""Penalties in the event's record (TDA-71, CC-46): what a penalty comes to, and how a replay counts the
hands served (pure: no database)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.penalties import Penalty, hands_left, verify_penalty
from casino.rules.tournament.record import replay


def test_a_round_is_one_hand_for_each_player_at_the_table_offender_included_TDA_71_A():
    assert verify_penalty("rounds", 2, "delay", players_at_table=7, max_rounds=4) == 14
    assert verify_penalty("hands", 3, "delay", players_at_table=7, max_rounds=4) == 3
    assert verify_penalty("warning", 0, "etiquette", players_at_table=7, max_rounds=4) == 0


def test_a_suspension_is_at_most_the_houses_rounds_C_22_CC_46():
    with pytest.raises(RuleViolation) as too_long:
        verify_penalty("rounds", 5, "delay", players_at_table=9, max_rounds=4)
    assert too_long.value.clause == "CC-46"
    with pytest.raises(RuleViolation):
        verify_penalty("hands", 37, "delay", players_at_table=9, max_rounds=4)  # 4 rounds at 9 is 36 hands
    assert verify_penalty("hands", 36, "delay", players_at_table=9, max_rounds=4) == 36


def test_an_unknown_infraction_or_kind_is_refused_CC_39():
    with pytest.raises(RuleViolation, match="Unknown infraction"):
        verify_penalty("hands", 1, "jaywalking", players_at_table=9, max_rounds=4)
    with pytest.raises(RuleViolation, match="warning, a number of hands"):
        verify_penalty("months", 1, "delay", players_at_table=9, max_rounds=4)


def test_penalties_are_served_one_after_the_other_and_a_warning_serves_nothing():
    given = (Penalty(seq=5, entry=3, kind="hands", hands=2, served=1), Penalty(seq=7, entry=3, kind="warning"),
             Penalty(seq=9, entry=3, kind="hands", hands=3), Penalty(seq=11, entry=4, kind="hands", hands=9),
             Penalty(seq=12, entry=3, kind="hands", hands=5, ended=True))
    assert hands_left(given, 3) == 1 + 3


def _event(seq, type_, **fields):
    return {"seq": seq, "at": "2026-11-29T18:00:00+00:00", "type": type_, **fields}


def _two_players_at_table_one():
    return [
        _event(1, "setup", buy_in=100, starting_stack=1000, seats_per_table=9, structure={}),
        _event(2, "registered", entry=1), _event(3, "registered", entry=2),
        _event(4, "seated", entry=1, table=1, seat=1, chips=1000, why="draw"),
        _event(5, "seated", entry=2, table=1, seat=2, chips=1000, why="draw"),
    ]


def _hand(seq, number, penalised=()):
    return _event(seq, "hand", table=1, hand=number, button=1, small_blind=1, big_blind=2, players=[
        {"entry": 1, "seat": 1, "start": 1000, "end": 1000, **({"penalty": True} if 1 in penalised else {})},
        {"entry": 2, "seat": 2, "start": 1000, "end": 1000}])


def test_each_hand_whose_player_sat_out_for_the_penalty_serves_one_TDA_71_D():
    events = [*_two_players_at_table_one(),
              _hand(6, 1),  # played before the penalty
              _event(7, "penalty", entry=1, kind="hands", hands=2, rounds=0, infraction="delay", reason=""),
              _hand(8, 2),  # the hand in play when it was given: served from the next (TDA-68)
              _hand(9, 3, penalised=[1])]
    state = replay(events)
    assert state.penalty_hands_left(1) == 1 and state.penalties[0].served == 1
    state = replay([*events, _hand(10, 4, penalised=[1])])
    assert state.penalty_hands_left(1) == 0 and not state.penalties[0].in_force


def test_the_director_ends_a_penalty_and_a_hand_dead_for_it_meanwhile_serves_nothing_CC_46():
    events = [*_two_players_at_table_one(),
              _event(6, "penalty", entry=1, kind="hands", hands=4, rounds=0, infraction="delay", reason=""),
              _event(7, "penalty_ended", entry=1, penalty=6, reason="served at the rail"),
              _hand(8, 1, penalised=[1])]  # killed when it started, before the penalty ended
    state = replay(events)
    assert state.penalty_hands_left(1) == 0 and state.penalties[0].ended and state.penalties[0].served == 0
    with pytest.raises(RuleViolation, match="not in force"):
        replay([*events, _event(9, "penalty_ended", entry=1, penalty=6, reason="again")])


def test_a_penalty_voided_by_a_correction_is_never_served():
    events = [*_two_players_at_table_one(),
              _event(6, "penalty", entry=2, kind="rounds", hands=4, rounds=2, infraction="etiquette", reason=""),
              _event(7, "correction", voids=6, reason="wrong player", replaces={
                  "type": "penalty", "entry": 1, "kind": "rounds", "hands": 4, "rounds": 2,
                  "infraction": "etiquette", "reason": ""})]
    state = replay(events)
    assert state.penalty_hands_left(2) == 0 and state.penalty_hands_left(1) == 4


def test_a_player_out_of_the_event_is_not_penalised():
    events = [*_two_players_at_table_one(), _event(6, "withdrawal", entry=2, chips_removed=1000),
              _event(7, "penalty", entry=2, kind="warning", hands=0, rounds=0, infraction="etiquette", reason="")]
    with pytest.raises(RuleViolation, match="no longer in the event"):
        replay(events)
