"""The tournament clock: a pure function of the structure, the stored events and the time (TDA-23,
CC-87, RP-08-B..D), and the failures other tournament clocks shipped (issue #14)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.errors import RuleViolation
from casino.rules.tournament.clock import ClockEvent, check_clock_event, clock_at, level_for_hand, levels_begun
from casino.rules.tournament.structure import Break, Level, Structure

T0 = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
L1, L2, L3, L4 = Level(25, 50), Level(50, 100), Level(100, 200, ante=200), Level(200, 400, ante=400)
#: 20-minute levels, a 10-minute break after level 2
STRUCTURE = Structure(steps=(L1, L2, Break(minutes=10), L3, L4))


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def ev(kind: str, when: datetime, **kw) -> ClockEvent:
    return ClockEvent(kind, when, **kw)


START = [ev("start", T0)]


def test_before_the_start_the_clock_is_not_started():
    reading = clock_at(STRUCTURE, START, at(seconds=-1))
    assert not reading.started and not reading.running
    assert reading.seconds_left == 20 * 60 and reading.level == L1 and reading.step_ends_at is None


def test_no_events_means_not_started():
    assert not clock_at(STRUCTURE, [], at(30)).started


def test_a_running_clock_counts_down_in_whole_seconds():
    reading = clock_at(STRUCTURE, START, at(5, 30))
    assert reading.running and reading.level_number == 1 and reading.level == L1
    assert reading.seconds_left == 14 * 60 + 30
    assert reading.next_level == L2
    assert reading.seconds_to_break == 34 * 60 + 30


def test_seconds_left_round_up_like_a_countdown():
    assert clock_at(STRUCTURE, START, at(seconds=0.4)).seconds_left == 20 * 60
    assert clock_at(STRUCTURE, START, at(seconds=1)).seconds_left == 20 * 60 - 1


def test_tda23_the_next_level_starts_the_instant_the_clock_reaches_zero():
    assert clock_at(STRUCTURE, START, at(20, -0.5)).level == L1
    reading = clock_at(STRUCTURE, START, at(20))
    assert reading.level == L2 and reading.level_number == 2 and reading.seconds_left == 20 * 60


def test_step_ends_at_lets_a_browser_count_down_without_drifting():
    events = START + [ev("pause", at(3)), ev("resume", at(10))]
    for minute in (11, 12.5, 19):
        assert clock_at(STRUCTURE, events, at(minute)).step_ends_at == at(27)


# The failures other clocks shipped (issue #14)

def test_running_fast_reading_twice_at_the_same_time_gives_the_same_answer():
    events = START + [ev("pause", at(7)), ev("resume", at(9))]
    now = at(15, 12.3)
    first = clock_at(STRUCTURE, events, now)
    for _ in range(50):  # fifty open displays asking at once
        clock_at(STRUCTURE, events, now)
    assert clock_at(STRUCTURE, events, now) == first


def test_drifting_a_thousand_pauses_lose_no_time():
    # 1000 running stretches of 1.3 s with pauses of 0.7 s between: 1300 s of running time exactly;
    # flooring each stretch to whole seconds would lose 300 s
    events = list(START)
    t = T0
    for _ in range(1000):
        t += timedelta(seconds=1.3)
        events.append(ev("pause", t))
        t += timedelta(seconds=0.7)
        events.append(ev("resume", t))
    reading = clock_at(STRUCTURE, events, t)
    # 1300 s = the 1200 s of level 1, then 100 s into level 2
    assert reading.level_number == 2 and reading.seconds_left == 20 * 60 - 100


def test_a_pause_is_shown_as_paused_not_as_a_break():
    events = START + [ev("pause", at(5))]
    reading = clock_at(STRUCTURE, events, at(45))
    assert reading.paused and not reading.on_break and not reading.running
    assert reading.level == L1 and reading.seconds_left == 15 * 60 and reading.step_ends_at is None


def test_a_break_is_shown_as_a_break_with_the_level_before_it_and_no_level_number():
    reading = clock_at(STRUCTURE, START, at(41))
    assert reading.on_break and not reading.paused and reading.running
    assert reading.step == 2 and reading.level_number is None
    assert reading.level == L2 and reading.next_level == L3 and reading.next_level_number == 3
    assert reading.seconds_left == 9 * 60


def test_level_numbers_do_not_count_breaks():
    reading = clock_at(STRUCTURE, START, at(51))
    assert reading.step == 3 and reading.level_number == 3 and reading.level == L3


def test_the_clock_keeps_the_last_level_when_the_structure_runs_out_instead_of_sticking_at_zero():
    total = 20 + 20 + 10 + 20 + 20
    reading = clock_at(STRUCTURE, START, at(total, 65))
    assert reading.level == L4 and reading.level_number == 4 and reading.step == 4
    assert reading.structure_ended and reading.running
    assert reading.seconds_left == 0 and reading.seconds_past_end == 65
    assert reading.next_level is None and reading.seconds_to_break is None
    assert clock_at(STRUCTURE, START, at(total, 125)).seconds_past_end == 125  # it still moves


def test_time_added_to_the_last_level_after_the_end_counts_down_again():
    total = 90
    events = START + [ev("adjust", at(total + 1), seconds=300)]
    reading = clock_at(STRUCTURE, events, at(total + 2))
    assert not reading.structure_ended and reading.seconds_left == 240 and reading.level == L4


def test_rp08_ex2_hand_for_hand_takes_two_minutes_a_hand_from_17_30():
    events = START + [ev("hand_for_hand_on", at(2, 30))]  # 17:30 left at the announcement
    assert clock_at(STRUCTURE, events, at(2, 30)).seconds_left == 17 * 60 + 30
    # the hand in progress at the announcement is still being played: the wall clock no longer runs
    during = clock_at(STRUCTURE, events, at(6))
    assert during.hand_for_hand and during.seconds_left == 17 * 60 + 30 and during.step_ends_at is None
    events.append(ev("hand_for_hand_hand", at(6)))  # the next hand starts: 15:30
    assert clock_at(STRUCTURE, events, at(6)).seconds_left == 15 * 60 + 30
    events.append(ev("hand_for_hand_hand", at(13)))  # a long hand later: 13:30
    assert clock_at(STRUCTURE, events, at(13)).seconds_left == 13 * 60 + 30


def test_rp08c_each_hand_takes_its_fixed_time_however_long_it_lasts():
    events = START + [ev("hand_for_hand_on", at(0))]
    events += [ev("hand_for_hand_hand", at(seconds=10 + 600 * i)) for i in range(3)]
    reading = clock_at(STRUCTURE, events, at(40), hand_for_hand_seconds=90)
    assert reading.seconds_left == 20 * 60 - 3 * 90 and reading.level == L1


def test_rp08d_blinds_keep_rising_when_the_hands_reach_the_end_of_the_level():
    events = START + [ev("hand_for_hand_on", at(19))]  # 60 s left
    events.append(ev("hand_for_hand_hand", at(20)))
    reading = clock_at(STRUCTURE, events, at(21))
    assert reading.level == L2 and reading.seconds_left == 20 * 60 - 60 and reading.hand_for_hand


def test_rp08_hand_time_never_shortens_a_break_and_the_break_runs_on_the_wall_clock():
    events = START + [ev("hand_for_hand_on", at(39))]  # level 2, 60 s left, a break next
    events.append(ev("hand_for_hand_hand", at(45)))
    reading = clock_at(STRUCTURE, events, at(45))
    assert reading.on_break and reading.seconds_left == 10 * 60
    reading = clock_at(STRUCTURE, events, at(52))
    assert reading.on_break and reading.seconds_left == 3 * 60
    # after the break the next level waits for hands again
    reading = clock_at(STRUCTURE, events, at(70))
    assert reading.level == L3 and reading.seconds_left == 20 * 60 and reading.step_ends_at is None


def test_hand_for_hand_off_lets_the_wall_clock_run_the_level_again():
    events = START + [ev("hand_for_hand_on", at(2, 30)), ev("hand_for_hand_hand", at(6)),
                      ev("hand_for_hand_off", at(10))]
    reading = clock_at(STRUCTURE, events, at(11))
    assert not reading.hand_for_hand and reading.seconds_left == 14 * 60 + 30
    assert reading.step_ends_at == at(10) + timedelta(minutes=15, seconds=30)


def test_adjust_adds_and_takes_time_from_the_current_step():
    events = START + [ev("adjust", at(1), seconds=120), ev("adjust", at(2), seconds=-30)]
    assert clock_at(STRUCTURE, events, at(3)).seconds_left == 20 * 60 - 3 * 60 + 90


def test_taking_all_the_time_left_ends_the_step():
    events = START + [ev("adjust", at(5), seconds=-15 * 60)]
    assert clock_at(STRUCTURE, events, at(5)).level == L2


def test_skip_moves_to_a_step_with_its_full_time():
    events = START + [ev("skip", at(5), step=3)]
    reading = clock_at(STRUCTURE, events, at(6))
    assert reading.level_number == 3 and reading.seconds_left == 19 * 60


def test_a_skip_before_the_start_starts_the_event_at_that_step():
    events = [ev("skip", at(-5), step=1), ev("start", T0)]
    assert clock_at(STRUCTURE, events, at(1)).level == L2


def test_cc32_the_levels_begun_count_a_break_as_the_level_before_it():
    def begun(minutes):
        return levels_begun(STRUCTURE, clock_at(STRUCTURE, START, at(minutes)))

    assert levels_begun(STRUCTURE, clock_at(STRUCTURE, START, at(seconds=-1))) == 0  # not started
    assert (begun(1), begun(21), begun(41), begun(51), begun(71)) == (1, 2, 2, 3, 4)  # 41: the break


def test_finish_stops_the_clock():
    events = START + [ev("finish", at(5))]
    reading = clock_at(STRUCTURE, events, at(50))
    assert reading.finished and not reading.running and reading.seconds_left == 15 * 60


@pytest.mark.parametrize("stored, new, clause", [
    (START + [ev("pause", at(1))], ev("pause", at(2)), "TDA-23"),
    (START, ev("resume", at(2)), "TDA-23"),
    (START, ev("start", at(2)), "TDA-23"),
    ([], ev("pause", at(2)), "TDA-23"),
    (START, ev("skip", at(2), step=5), "CC-86"),
    (START, ev("skip", at(2), step=-1), "CC-86"),
    (START, ev("adjust", at(2), seconds=-19 * 60), "TDA-23"),
    (START, ev("hand_for_hand_off", at(2)), "RP-08-B"),
    (START, ev("hand_for_hand_hand", at(2)), "RP-08-B"),
    (START + [ev("hand_for_hand_on", at(1))], ev("hand_for_hand_on", at(2)), "RP-08-B"),
    (START + [ev("hand_for_hand_on", at(1)), ev("pause", at(2))], ev("hand_for_hand_hand", at(3)), "RP-08-B"),
    (START + [ev("hand_for_hand_on", at(41))], ev("hand_for_hand_hand", at(42)), "RP-08-B"),
    (START + [ev("finish", at(1))], ev("resume", at(2)), "TDA-23"),
    (START + [ev("pause", at(5))], ev("resume", at(4)), "TDA-23"),
    (START, ev("nap", at(2)), "TDA-23"),
])
def test_impossible_clock_actions_are_refused(stored, new, clause):
    with pytest.raises(RuleViolation) as caught:
        check_clock_event(STRUCTURE, stored, new)
    assert caught.value.clause == clause


def test_possible_clock_actions_pass_the_check():
    check_clock_event(STRUCTURE, START, ev("pause", at(1)))
    check_clock_event(STRUCTURE, START, ev("adjust", at(2), seconds=-18 * 60))
    check_clock_event(STRUCTURE, START + [ev("hand_for_hand_on", at(1))], ev("hand_for_hand_hand", at(2)))


def test_a_naive_time_is_refused():
    with pytest.raises(RuleViolation):
        clock_at(STRUCTURE, START, datetime(2026, 11, 23, 21, 0))


# level_for_hand (TDA-23, CC-87)

def test_tda23_a_hand_started_before_the_clock_reaches_zero_plays_the_old_level():
    assert level_for_hand(STRUCTURE, START, at(19, 59)) == L1


def test_cc87_the_new_level_applies_from_the_next_hand():
    assert level_for_hand(STRUCTURE, START, at(20)) == L2
    assert level_for_hand(STRUCTURE, START, at(20, 1)) == L2


def test_a_hand_started_during_a_break_plays_the_level_after_it():
    assert level_for_hand(STRUCTURE, START, at(45)) == L3


def test_a_hand_started_while_paused_plays_the_paused_level():
    events = START + [ev("pause", at(19))]
    assert level_for_hand(STRUCTURE, events, at(30)) == L1


def test_rp08d_a_hand_whose_deduction_ends_the_level_plays_the_next_level():
    events = START + [ev("hand_for_hand_on", at(19)), ev("hand_for_hand_hand", at(20))]
    assert level_for_hand(STRUCTURE, events, at(20)) == L2


def test_the_last_level_is_played_for_ever_once_the_structure_runs_out():
    assert level_for_hand(STRUCTURE, START, at(500)) == L4


# Properties

stretches = st.lists(st.tuples(st.integers(0, 5_000_000), st.integers(0, 5_000_000)), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(stretches)
def test_total_running_time_is_the_sum_of_the_step_time_consumed(pairs):
    """Running stretches of random microseconds between pauses: the steps consumed add up exactly."""
    events = list(START)
    t = T0
    running = 0
    for run, pause in pairs:
        t += timedelta(microseconds=run)
        running += run
        events.append(ev("pause", t))
        t += timedelta(microseconds=pause)
        events.append(ev("resume", t))
    reading = clock_at(STRUCTURE, events, t)
    consumed = sum(STRUCTURE.steps[i].minutes * 60 for i in range(reading.step))
    consumed += STRUCTURE.steps[reading.step].minutes * 60 - reading.seconds_left
    # seconds_left rounds up: what was consumed is the running time rounded down
    assert consumed == running // 1_000_000


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 90 * 60), st.integers(1, 10 * 3600))
def test_pausing_never_changes_the_level_or_the_time_left(pause_after, paused_for):
    events = START + [ev("pause", at(seconds=pause_after))]
    at_pause = clock_at(STRUCTURE, events, at(seconds=pause_after))
    later = clock_at(STRUCTURE, events, at(seconds=pause_after + paused_for))
    assert (later.step, later.level, later.seconds_left) == (at_pause.step, at_pause.level, at_pause.seconds_left)
    assert later.paused and not later.running


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 3 * 3600), st.integers(0, 3600))
def test_a_reading_depends_only_on_the_time(first, second):
    """Whatever was read before, a reading at a given time is the same."""
    events = START + [ev("pause", at(17)), ev("resume", at(23))]
    clock_at(STRUCTURE, events, at(seconds=first))
    assert clock_at(STRUCTURE, events, at(seconds=second)) == clock_at(STRUCTURE, events, at(seconds=second))
    assert clock_at(STRUCTURE, events, at(seconds=second)).seconds_left >= 0


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30), st.integers(1, 300), st.integers(0, 19 * 60))
def test_rp08b_during_hand_for_hand_only_the_hands_move_the_clock(hands, seconds_a_hand, announced_after):
    """However long the hands take on the wall clock, the time consumed is the hands times the fixed
    time (this structure has no break for a deduction to stop at)."""
    structure = Structure(steps=(L1, L2, L3, L4))
    events = START + [ev("hand_for_hand_on", at(seconds=announced_after))]
    events += [ev("hand_for_hand_hand", at(seconds=announced_after + 1 + 3600 * i)) for i in range(hands)]
    reading = clock_at(structure, events, at(seconds=announced_after + 3600 * (hands + 1)),
                       hand_for_hand_seconds=seconds_a_hand)
    consumed = 20 * 60 * reading.step + 20 * 60 - reading.seconds_left + reading.seconds_past_end
    # past the end of the last level the hands still count, as time played past the end
    assert consumed == announced_after + hands * seconds_a_hand
