"""Time to act (CC-114, house option C-04): the house's 60 seconds for any action, TDA-29's no base shot
clock, counted from the moment the action reached the seat (the hand's last record)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.time_to_act import reached_at, time_to_act

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def test_the_house_gives_the_player_in_turn_sixty_seconds_for_any_action_CC_114_C_04():
    assert HouseOptions().action_seconds == 60
    timed = time_to_act(4, T0, HouseOptions())
    assert (timed.seat, timed.since, timed.ends_at, timed.seconds) == (4, T0, T0 + timedelta(seconds=60), 60)


def test_a_stored_setup_without_the_option_reads_as_the_houses_sixty_seconds_C_04():
    assert HouseOptions.from_dict({"clock_seconds": 30}).action_seconds == 60


def test_where_the_house_follows_the_tda_there_is_no_base_shot_clock_TDA_29_C_04():
    assert time_to_act(4, T0, HouseOptions(action_seconds=0)) is None


def test_the_house_may_set_other_seconds_C_04():
    assert time_to_act(2, T0, HouseOptions(action_seconds=45)).ends_at == T0 + timedelta(seconds=45)


@pytest.mark.parametrize("seconds", [-1, 601])
def test_a_time_to_act_out_of_range_is_refused_C_04(seconds):
    with pytest.raises(RuleViolation) as refused:
        HouseOptions(action_seconds=seconds)
    assert refused.value.clause == "C-04"


def test_nobody_in_turn_has_no_time_to_act_CC_114():
    assert time_to_act(None, T0, HouseOptions()) is None


def test_the_time_runs_from_the_hands_last_record_CC_114():
    records = [T0 + timedelta(seconds=3), T0 + timedelta(seconds=41), T0 + timedelta(seconds=12)]
    assert reached_at(T0, records) == T0 + timedelta(seconds=41)
    assert reached_at(T0, []) == T0  # before any record: the hand's start


def test_the_seconds_left_count_a_part_second_as_one_and_stop_at_zero_CC_114():
    timed = time_to_act(1, T0, HouseOptions())
    assert timed.left(T0) == 60 and timed.left(T0 + timedelta(seconds=59.2)) == 1
    assert not timed.ran_out(T0 + timedelta(seconds=59.9))
    assert timed.left(T0 + timedelta(seconds=75)) == 0 and timed.ran_out(T0 + timedelta(seconds=60))
