"""Qualifying series (flights), the day's end and the Final Stage in the record (casino/rules/tournament/flights.py,
CC-05..CC-10): each clause's test fails when its rule is broken."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament import flights
from casino.rules.tournament.record import replay, verify_record

AT = "2026-12-06T18:00:00+00:00"


class Record:
    def __init__(self) -> None:
        self.events: list[dict] = []

    def add(self, type_: str, **fields) -> int:
        seq = len(self.events) + 1
        self.events.append({"seq": seq, "at": AT, "type": type_, **fields})
        return seq


def two_series(entries: int = 8, seed: int = 11, end_level: int = 4, qualifiers: int = 2) -> Record:
    """``entries`` registered, two series set and the players drawn into them by ``seed`` (CC-06)."""
    r = Record()
    r.add("setup", buy_in=100, fee=0, starting_stack=10_000, seats_per_table=9, structure={}, payout_table=[],
          break_order=[], options={}, late_registration_level=None)
    r.add("registration_opened")
    r.add("series_set", series=2, end_level=end_level, qualifiers=qualifiers, choice=False)
    for n in range(1, entries + 1):
        r.add("registered", entry=n, reentry_of=None)
    drawn = flights.draw_series(list(range(1, entries + 1)), [1, 2], seed)
    r.add("series_assigned", entries=[list(p) for p in drawn], how="draw", seed=str(seed), among=[1, 2])
    return r


def play_series(r: Record, series: int, *, level: int = 4, chips: dict[int, int] | None = None,
                counted_by: str = "floor", why: str = "level") -> list[int]:
    """The series started, its players seated at table 1, and bagged at the end of ``level``."""
    q = replay(r.events).qualifying
    players = list(q.entries_of(series))
    r.add("series_started", series=series)
    for seat, n in enumerate(players, start=1):
        r.add("seated", entry=n, table=1, seat=seat, chips=10_000, why="draw", button=1,
              occupied=list(range(1, len(players) + 1)), from_table=None, from_seat=None, sits_out=False)
    bags = [flights.Bag(entry=n, day=1, series=series, table=1, seat=seat, chips=(chips or {}).get(n, 10_000),
                        counted_by=counted_by, receipt=f"R{n:07d}") for seat, n in enumerate(players, start=1)]
    r.add("day_ended", day=1, series=series, level=level, why=why, bags=[flights.bag_to_dict(b) for b in bags],
          digest=flights.counts_digest(1, series, bags))
    return players


def test_the_series_draw_is_the_one_its_seed_draws_and_even_CC_06():
    drawn = flights.draw_series(list(range(1, 12)), [1, 2, 3], 42)
    assert drawn == flights.draw_series(list(range(1, 12)), [1, 2, 3], 42)
    sizes = sorted(sum(1 for _e, s in drawn if s == n) for n in (1, 2, 3))
    assert sizes == [3, 4, 4]
    assert drawn != flights.draw_series(list(range(1, 12)), [1, 2, 3], 43)


def test_a_series_draw_recorded_otherwise_than_its_seed_draws_is_refused_CC_06():
    r = two_series()
    state = replay(r.events)
    assert sorted(len(state.qualifying.entries_of(s)) for s in (1, 2)) == [4, 4]
    forged = [list(p) for p in flights.draw_series(list(range(1, 9)), [1, 2], 11)]
    forged[0][1], forged[-1][1] = forged[-1][1], forged[0][1]  # two players swapped between series
    if forged[0][1] == forged[-1][1]:
        forged[0][1] = 3 - forged[0][1]
    r.events[-1] = {**r.events[-1], "entries": forged}
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-06"


def test_each_series_starts_its_own_clock_at_level_1_CC_05():
    r = two_series()
    r.add("series_started", series=1)
    r.add("clock", kind="start", seconds=0, step=0)
    r.add("clock", kind="skip", seconds=0, step=3)
    assert len(replay(r.events).clock_events) == 2
    r.events = r.events[:-3]
    play_series(r, 1)
    r.add("series_started", series=2)
    assert replay(r.events).clock_events == ()  # series 2 begins at level 1, not where series 1 stopped
    r.add("series_started", series=1)
    with pytest.raises(RuleViolation) as refused:  # a series plays once
        replay(r.events)
    assert refused.value.clause == "CC-05"


def test_the_day_ends_only_at_its_level_played_out_CC_05():
    assert not flights.level_played_out(4, False, False, 4, 4)  # level 4 still playing
    assert flights.level_played_out(5, False, False, 5, 4)  # level 5 begun
    assert flights.level_played_out(4, True, False, None, 4)  # the break after level 4
    assert not flights.level_played_out(3, True, False, None, 4)  # the break after level 3
    assert flights.level_played_out(4, False, True, 4, 4)  # the structure's last level, its time run out


def test_every_player_at_a_table_bags_at_the_days_end_CC_05_CC_09():
    r = two_series()
    players = list(replay(r.events).qualifying.entries_of(1))
    r.add("series_started", series=1)
    for seat, n in enumerate(players, start=1):
        r.add("seated", entry=n, table=1, seat=seat, chips=10_000, why="draw", button=1, occupied=[],
              from_table=None, from_seat=None, sits_out=False)
    bags = [flights.Bag(entry=n, day=1, series=1, table=1, seat=seat, chips=10_000, counted_by="floor",
                        receipt="X") for seat, n in enumerate(players[:-1], start=1)]
    r.add("day_ended", day=1, series=1, level=4, why="level", bags=[flights.bag_to_dict(b) for b in bags],
          digest=flights.counts_digest(1, 1, bags))
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-09"


def test_the_direction_changes_a_series_end_level_and_qualifiers_but_not_once_it_ended_CC_07():
    r = two_series()
    r.add("series_changed", series=2, end_level=6, qualifiers=3, reason="a bigger field")
    s2 = replay(r.events).qualifying.get(2)
    assert (s2.end_level, s2.qualifiers) == (6, 3)
    assert replay(r.events).qualifying.get(1).end_level == 4
    play_series(r, 1)
    r.add("series_changed", series=1, end_level=5, qualifiers=None, reason="too late")
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-07"


def test_the_final_stage_starts_at_the_level_after_qualifying_ended_CC_08():
    r = two_series()
    play_series(r, 1, level=4)
    play_series(r, 2, level=5, why="level")
    r.add("registration_closed", entries=8, prize_pool=800)
    assert replay(r.events).qualifying.next_stage_level == 6
    r.add("stage_started", day=2, level=5, step=5, end_level=None)
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-08"
    r.events[-1] = {**r.events[-1], "level": 6}
    state = replay(r.events)
    assert state.qualifying.final_stage and state.qualifying.final_level == 6


def test_the_final_stage_waits_for_every_series_CC_08():
    r = two_series()
    play_series(r, 1)
    r.add("stage_started", day=2, level=5, step=5, end_level=None)
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-08"


def test_a_bagged_player_keeps_his_chips_and_is_redrawn_with_them_CC_10():
    r = two_series()
    one = play_series(r, 1, chips={n: 12_345 + n for n in range(1, 9)})
    two = play_series(r, 2)
    state = replay(r.events)
    assert all(state.entry(n).status == "bagged" and state.entry(n).table is None for n in one + two)
    assert state.entry(one[0]).stack == 12_345 + one[0]
    assert state.tables == () and state.players_left == 8
    r.add("registration_closed", entries=8, prize_pool=800)
    r.add("stage_started", day=2, level=5, step=5, end_level=None)
    for seat, n in enumerate(one + two, start=1):
        r.add("seated", entry=n, table=1, seat=seat, chips=state.entry(n).stack, why="redraw", button=1,
              occupied=[], from_table=None, from_seat=None, sits_out=False)
    after = replay(r.events)
    assert after.entry(one[0]).status == "seated" and after.entry(one[0]).stack == 12_345 + one[0]
    assert after.chips_in_play == state.chips_in_play


def test_a_count_from_the_tablet_that_is_not_the_tablets_stack_is_a_problem_CC_09():
    r = two_series()
    play_series(r, 1, chips={n: 9_000 for n in range(1, 9)}, counted_by="tablet")
    problems = verify_record(r.events).problems
    assert any("counted from the tablet" in p for p in problems)
    r2 = two_series()
    play_series(r2, 1, counted_by="tablet")  # 10,000 each: the stacks the record holds
    assert verify_record(r2.events).ok


def test_a_counts_sheet_whose_digest_is_not_its_bags_is_a_problem_CC_09():
    r = two_series()
    play_series(r, 1)
    r.events[-1] = {**r.events[-1], "digest": "0" * 64}
    assert any("digest" in p for p in verify_record(r.events).problems)


def test_a_qualifier_checks_in_with_his_own_receipt_only_CC_09():
    r = two_series()
    one = play_series(r, 1)
    play_series(r, 2)
    r.add("registration_closed", entries=8, prize_pool=800)
    r.add("stage_started", day=2, level=5, step=5, end_level=None)
    r.add("checked_in", entry=one[0], shown=True, receipt=f"R{one[0]:07d}")
    r.add("checked_in", entry=one[1], shown=False, receipt=None)
    state = replay(r.events)
    assert state.qualifying.has_checked_in(one[0], 2) and state.qualifying.has_checked_in(one[1], 2)
    r.add("checked_in", entry=one[2], shown=True, receipt=f"R{one[3]:07d}")  # another player's receipt
    with pytest.raises(RuleViolation) as refused:
        replay(r.events)
    assert refused.value.clause == "CC-09"


def test_the_counts_sheet_lists_each_bag_by_table_and_seat():
    bags = [flights.Bag(entry=7, day=1, series=2, table=3, seat=4, chips=15_000, counted_by="tablet", receipt="AB"),
            flights.Bag(entry=2, day=1, series=2, table=1, seat=9, chips=8_000, counted_by="floor", receipt="CD")]
    lines = flights.counts_csv(1, 2, bags).splitlines()
    assert lines == ["day,series,table,seat,entry,chips,counted_by,receipt", "1,2,1,9,2,8000,floor,CD",
                     "1,2,3,4,7,15000,tablet,AB"]
