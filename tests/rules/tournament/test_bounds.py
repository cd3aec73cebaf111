"""The numbers a real event can hold (issue #34, item 3): the structure refuses what no clock can count
(TDA-23, CC-86), and the clock reads a structure stored before these bounds without overflowing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.bounds import LONGEST_STEP_READ_MINUTES, MAX_CHIPS, MAX_STEP_MINUTES, MAX_STEPS
from casino.rules.tournament.clock import ClockEvent, clock_at
from casino.rules.tournament.structure import Break, Level, Structure, check_structure

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def test_it_refuses_a_level_longer_than_600_minutes_TDA_23():
    with pytest.raises(RuleViolation, match="cannot last more than") as refused:
        check_structure(Structure(steps=(Level(25, 50, minutes=MAX_STEP_MINUTES + 1),), denominations=(25,)))
    assert refused.value.clause == "TDA-23"


def test_it_refuses_a_break_of_a_hundred_quintillion_minutes_TDA_23():
    with pytest.raises(RuleViolation, match="cannot last more than"):
        check_structure(Structure(steps=(Level(25, 50), Break(minutes=10**20), Level(50, 100)), denominations=(25,)))


def test_it_refuses_a_blind_past_a_trillion_chips_CC_86():
    with pytest.raises(RuleViolation, match="more than"):
        check_structure(Structure(steps=(Level(25, MAX_CHIPS + 25),), denominations=(25,)))


def test_it_refuses_a_denomination_past_a_trillion_CC_63():
    with pytest.raises(RuleViolation, match="denomination cannot be more than"):
        check_structure(Structure(steps=(Level(25, 50),), denominations=(25, 10**13)))


def test_it_refuses_more_steps_than_a_clock_can_skip_to_CC_86():
    with pytest.raises(RuleViolation, match="at most"):
        check_structure(Structure(steps=(Level(25, 50),) * (MAX_STEPS + 1), denominations=(25,)))


def test_the_clock_reads_a_stored_level_of_a_hundred_quintillion_minutes_as_an_indefinitely_long_one():
    stored = Structure(steps=(Level(25, 50, minutes=10**20), Break(minutes=10**20), Level(50, 100)),
                       denominations=(25,))
    now = T0 + timedelta(hours=3)
    reading = clock_at(stored, [ClockEvent("start", T0)], now)
    left = LONGEST_STEP_READ_MINUTES * 60 - 3 * 3600
    assert reading.level_number == 1 and reading.seconds_left == left and reading.seconds_to_break == left
    assert reading.step_ends_at == now + timedelta(seconds=left)
