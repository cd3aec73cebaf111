"""The dealers' rotation engine (issue #38 item 5): who deals where and when, and RP-07's quiet windows.

Each test breaks when its rule does: the push order, the down, the 90 s before a level change or a break
(RP-07), the break itself, the tournament clock's stops, a dealer for every table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.rotation import (
    QUIET_SECONDS_BEFORE,
    RotationSetup,
    Stop,
    assignment,
    can_change_at,
    first_allowed,
    quiet_windows,
    schedule,
    verify_change_at,
    verify_setup,
)
from casino.rules.tournament.clock import ClockEvent
from casino.rules.tournament.dealer_changes import dealer_change_stops
from casino.rules.tournament.structure import Break, Level, Structure

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def setup(dealers="ABCD", tables=(1, 2, 3), down=20, **kw) -> RotationSetup:
    return RotationSetup(dealers=tuple(dealers), tables=tuple(tables), down_minutes=down, starts_at=T0, **kw)


def test_the_first_dealers_deal_in_order_and_the_rest_rest_RP_07():
    start = assignment(setup(), 0)
    assert start.tables == {1: "A", 2: "B", 3: "C"}
    assert start.resting == ("D",)


def test_at_each_change_every_dealer_moves_one_table_on_and_the_last_tables_dealer_rests_RP_07():
    after = assignment(setup(), 1)
    assert after.tables == {1: "D", 2: "A", 3: "B"}
    assert after.resting == ("C",)
    # with two resting, the one who rested longest comes back first
    five = setup(dealers="ABCDE")
    assert assignment(five, 0).resting == ("E", "D")
    assert assignment(five, 1).tables == {1: "E", 2: "A", 3: "B"}
    assert assignment(five, 1).resting == ("D", "C")


def test_the_rotation_comes_round_to_its_start_after_as_many_changes_as_dealers_RP_07():
    rota = setup()
    assert (assignment(rota, 4).tables, assignment(rota, 4).resting) == (assignment(rota, 0).tables, ("D",))
    seen = {assignment(rota, i).table_of("A") for i in range(4)}
    assert seen == {1, 2, 3, None}  # every table, and one break


def test_a_change_is_due_every_down_RP_07():
    plan = schedule(setup(), at(5), ahead=3)
    assert plan.current.index == 0 and plan.since == T0
    assert [when for when, _ in plan.ahead] == [at(20), at(40), at(60)]
    later = schedule(setup(), at(41))
    assert later.current.index == 2 and later.since == at(40)


def test_the_same_setup_and_moment_give_the_same_schedule():
    assert schedule(setup(), at(33)) == schedule(setup(), at(33))


def test_no_change_lands_in_the_90_seconds_before_a_level_change_RP_07():
    # a level changes at 20:19:00, so the change due at 20:20:00 is fine; one at 20:40:00 with a level at 20:41:00
    level = Stop(at(41), at(41))
    windows = quiet_windows([level])
    assert not can_change_at(at(40), windows)
    assert not can_change_at(at(41) - timedelta(seconds=QUIET_SECONDS_BEFORE), windows)
    assert can_change_at(at(41) - timedelta(seconds=QUIET_SECONDS_BEFORE + 1), windows)
    assert can_change_at(at(41), windows)  # at the level change itself (the deck changes then too, TDA-26)
    with pytest.raises(RuleViolation) as refused:
        verify_change_at(at(40), windows)
    assert refused.value.clause == "RP-07"
    plan = schedule(setup(), at(1), stops=[level])
    assert [when for when, _ in plan.ahead] == [at(20), at(41), at(61)]


def test_a_change_is_allowed_just_outside_the_90_seconds_RP_07():
    plan = schedule(setup(), at(1), stops=[Stop(at(21, 31), at(21, 31))])
    assert plan.next_at == at(20)  # 91 s before


def test_no_change_lands_in_the_90_seconds_before_a_break_nor_during_it_it_waits_for_its_end_RP_07():
    pause = Stop(at(21), at(31))  # a break from 20:21 to 20:31
    plan = schedule(setup(), at(1), stops=[pause])
    assert [when for when, _ in plan.ahead] == [at(31), at(51), at(71)]
    assert first_allowed(at(25), quiet_windows([pause])) == at(31)


def test_the_pits_own_breaks_stop_the_changes_as_a_tournaments_do_RP_07():
    pit = setup(breaks=((at(39), at(49)),))
    assert [when for when, _ in schedule(pit, at(1)).ahead] == [at(20), at(49), at(69)]


def test_a_dealer_is_told_where_and_when_he_goes_next_RP_07():
    plan = schedule(setup(), at(1))
    assert plan.next_for("A") == (at(20), 2)
    assert plan.next_for("C") == (at(20), None)  # to his break
    assert plan.next_for("D") == (at(20), 1)


@pytest.mark.parametrize("broken, clause", [
    (dict(dealers="AB"), "THB-72"),  # one croupier per table
    (dict(dealers="AAB"), "RP-07"),
    (dict(tables=(1, 1)), "RP-07"),
    (dict(tables=()), "RP-07"),
    (dict(down=0), "RP-07"),
    (dict(down=True), "RP-07"),
    (dict(down=241), "RP-07"),
    (dict(breaks=((at(10), at(5)),)), "RP-07"),
])
def test_a_rotation_the_tables_cannot_follow_is_refused_with_its_clause(broken, clause):
    with pytest.raises(RuleViolation) as refused:
        verify_setup(setup(**broken))
    assert refused.value.clause == clause


L1, L2, L3 = Level(25, 50, minutes=20), Level(50, 100, minutes=20), Level(100, 200, minutes=20)
STRUCTURE = Structure(steps=(L1, L2, Break(minutes=10), L3))


def test_the_clocks_level_changes_and_breaks_are_the_rotations_stops_RP_07():
    stops = dealer_change_stops(STRUCTURE, [ClockEvent("start", T0)], at(5))
    assert stops == (Stop(at(20), at(20)), Stop(at(40), at(50)), Stop(at(50), at(50)))


def test_a_clock_paused_moves_its_stops_and_past_stops_stay_where_they_were_RP_07():
    events = [ClockEvent("start", T0), ClockEvent("pause", at(25)), ClockEvent("resume", at(30))]
    stops = dealer_change_stops(STRUCTURE, events, at(31))
    assert stops[0] == Stop(at(20), at(20))  # happened before the pause
    assert stops[1] == Stop(at(45), at(55))  # the break moved by the 5 paused minutes


def test_a_tournament_rotation_follows_its_clock_RP_07():
    # 20-minute levels from 20:00, a break 20:40-20:50. A 19-minute down: 20:19 is 60 s before the level change, so the
    # change waits for it (20:20); the next, 20:39, is 60 s before the break: it waits for the break's end (20:50).
    stops = dealer_change_stops(STRUCTURE, [ClockEvent("start", T0)], at(1))
    plan = schedule(setup(down=19), at(1), stops=stops)
    assert [when for when, _ in plan.ahead] == [at(20), at(50), at(69)]
    # A 21-minute down: 20:21 is after the level change; 20:42 is in the break: at its end, 20:50; then 21:11.
    later = schedule(setup(down=21), at(1), stops=stops)
    assert [when for when, _ in later.ahead] == [at(21), at(50), at(71)]
