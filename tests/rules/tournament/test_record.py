"""The event's record replayed: seats, busts, the pool, corrections (casino/rules/tournament/record.py)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.record import (
    EVENT_TYPES,
    Replayer,
    check_sequence,
    effective_events,
    plan_from_dict,
    plan_to_dict,
    replay,
)
from casino.rules.tournament.seating import Move, Plan

AT = "2026-11-23T20:00:00+00:00"


class Record:
    """A record written event by event, as the services write it."""

    def __init__(self) -> None:
        self.events: list[dict] = []

    def add(self, type_: str, **fields) -> int:
        seq = len(self.events) + 1
        self.events.append({"seq": seq, "at": AT, "type": type_, **fields})
        return seq


def started(entries: int = 4, stack: int = 10_000) -> Record:
    """Four entries seated at one 9-seat table (seats 1..4), registration closed with their buy-ins."""
    r = Record()
    r.add("setup", buy_in=100, fee=10, starting_stack=stack, seats_per_table=9, structure={}, payout_table=[],
          break_order=[], options={}, late_registration_level=None)
    r.add("registration_opened")
    for n in range(1, entries + 1):
        r.add("registered", entry=n, reentry_of=None)
    r.add("registration_closed", entries=entries, prize_pool=100 * entries)
    for n in range(1, entries + 1):
        r.add("seated", entry=n, table=1, seat=n, chips=stack, why="draw", button=1,
              occupied=list(range(1, entries + 1)), from_table=None, from_seat=None, sits_out=False)
    return r


def test_every_event_type_names_its_fields():
    assert "correction" in EVENT_TYPES and EVENT_TYPES["seated"][:5] == ("entry", "table", "seat", "chips", "why")


def test_tda07_the_draw_seats_each_entry_with_a_full_stack():
    state = replay(started().events)
    assert state.players_left == 4
    assert state.table(1).players == ((1, 1), (2, 2), (3, 3), (4, 4))
    assert state.table(1).button == 1
    assert [e.stack for e in state.entries] == [10_000] * 4
    assert state.chips_in_play == 40_000


def test_cc14_the_prize_pool_is_what_the_close_of_registration_fixed():
    state = replay(started().events)
    assert state.registration == "closed" and state.prize_pool == 400


def test_a_bust_leaves_the_table_and_is_an_elimination_in_record_order():
    r = started()
    seq = r.add("bust", entry=3, table=1, hand=7, hand_for_hand_hand=None, stack_at_start=2_000)
    state = replay(r.events)
    assert state.entry(3).status == "busted" and state.entry(3).stack == 0
    assert (3, 3) not in state.table(1).players
    assert [(e.entry, e.order, e.hand, e.stack_at_start) for e in state.eliminations] == [(3, seq, 7, 2_000)]


def test_cc19_a_bust_takes_its_stack_at_the_start_from_the_hand_reported():
    r = started()
    r.add("hand", table=1, hand=5, button=1, small_blind=2, big_blind=3, hand_for_hand_hand=None,
          players=[{"entry": 1, "seat": 1, "start": 10_000, "end": 27_000},
                   {"entry": 2, "seat": 2, "start": 8_000, "end": 0},
                   {"entry": 3, "seat": 3, "start": 9_000, "end": 0},
                   {"entry": 4, "seat": 4, "start": 13_000, "end": 13_000}])
    r.add("bust", entry=2, table=1, hand=5)
    r.add("bust", entry=3, table=1, hand=5)
    state = replay(r.events)
    assert [(e.entry, e.stack_at_start) for e in state.eliminations] == [(2, 8_000), (3, 9_000)]
    assert state.entry(1).stack == 27_000


def test_a_bust_of_someone_already_out_is_refused():
    r = started()
    r.add("bust", entry=2, table=1, hand=1)
    r.add("bust", entry=2, table=1, hand=2)
    with pytest.raises(RuleViolation):
        replay(r.events)


def test_tda07_a_seat_taken_by_another_entry_is_refused():
    r = started()
    r.add("seated", entry=2, table=1, seat=1, chips=10_000, why="correction", button=1, occupied=[1, 2, 3, 4])
    with pytest.raises(RuleViolation, match="taken by entry 1"):
        replay(r.events)


def test_a_move_keeps_the_players_stack_and_leaves_the_old_seat():
    r = started()
    r.add("seated", entry=4, table=2, seat=6, chips=10_000, why="balance", button=3, occupied=[6],
          from_table=1, from_seat=4)
    state = replay(r.events)
    assert state.entry(4).table == 2 and state.entry(4).seat == 6
    assert state.table(1).players == ((1, 1), (2, 2), (3, 3))
    assert state.table(2).players == ((6, 4),)


def test_cc34_cc47_a_withdrawal_and_a_disqualification_remove_the_chips_and_rank_as_eliminations():
    r = started()
    r.add("withdrawal", entry=1, chips_removed=10_000)
    r.add("disqualification", entry=2, chips_removed=10_000, reason="abuse")
    state = replay(r.events)
    assert [(e.entry, e.how) for e in state.eliminations] == [(1, "withdrawal"), (2, "disqualification")]
    assert state.chips_in_play == 20_000 and state.players_left == 2


def test_cc30_cc31_absent_stacks_are_removed_unless_held():
    r = started()
    r.add("stack_held", entry=2, held=True)
    r.add("chips_removed", entry=1, chips=10_000, reason="absent")
    state = replay(r.events)
    assert state.entry(1).stack == 0 and state.entry(2).held and state.entry(2).stack == 10_000


def test_rp08_hand_for_hand_on_and_off_and_its_hands():
    r = started()
    r.add("clock", kind="start", seconds=0, step=0)
    r.add("clock", kind="hand_for_hand_on", seconds=0, step=0)
    r.add("clock", kind="hand_for_hand_hand", seconds=0, step=0)
    r.add("clock", kind="hand_for_hand_hand", seconds=0, step=0)
    state = replay(r.events)
    assert state.hand_for_hand and state.hand_for_hand_hands == 2
    assert [c.kind for c in state.clock_events] == ["start", "hand_for_hand_on", "hand_for_hand_hand",
                                                   "hand_for_hand_hand"]
    r.add("clock", kind="hand_for_hand_off", seconds=0, step=0)
    assert not replay(r.events).hand_for_hand


def test_the_wrong_player_busted_is_corrected_and_the_record_keeps_both():
    r = started()
    wrong = r.add("bust", entry=2, table=1, hand=9, stack_at_start=None)
    r.add("bust", entry=4, table=1, hand=10, stack_at_start=None)
    r.add("correction", voids=wrong, reason="seat 3 busted, not seat 2",
          replaces={"type": "bust", "entry": 3, "table": 1, "hand": 9, "stack_at_start": None})
    state = replay(r.events)
    assert state.entry(2).status == "seated" and state.entry(2).stack == 10_000
    assert state.entry(3).status == "busted"
    # the corrected bust keeps its place in the order: before entry 4's
    assert [(e.entry, e.order) for e in state.eliminations] == [(3, wrong), (4, wrong + 1)]
    assert state.voided == (wrong,)
    assert len(r.events) == wrong + 2  # nothing erased


def test_voiding_a_correction_brings_the_mistake_back():
    r = started()
    bust = r.add("bust", entry=2, table=1, hand=9)
    correction = r.add("correction", voids=bust, reason="no one busted")
    assert replay(r.events).entry(2).status == "seated"
    r.add("correction", voids=correction, reason="entry 2 did bust after all")
    state = replay(r.events)
    assert state.entry(2).status == "busted" and state.voided == (correction,)


def test_a_wrong_seat_is_corrected_with_the_right_one():
    r = started()
    wrong = r.add("seated", entry=4, table=1, seat=7, chips=10_000, why="correction", button=1, occupied=[1, 2, 3])
    r.add("correction", voids=wrong, reason="seat 8",
          replaces={"type": "seated", "entry": 4, "table": 1, "seat": 8, "chips": 10_000, "why": "correction"})
    state = replay(r.events)
    assert state.entry(4).seat == 8 and (8, 4) in state.table(1).players


def test_effective_events_leave_out_the_corrections_and_mark_replacements():
    r = started(2)
    bust = r.add("bust", entry=1, table=1, hand=1)
    r.add("correction", voids=bust, reason="x", replaces={"type": "bust", "entry": 2, "table": 1, "hand": 1})
    standing = effective_events(r.events)
    assert standing[-1]["entry"] == 2 and standing[-1]["seq"] == bust and standing[-1]["corrected"]
    assert all(e["type"] != "correction" for e in standing)


def test_a_plan_proposed_waits_for_its_confirmation_and_a_bust_withdraws_it():
    r = started()
    plan = Plan(moves=(Move(entry=4, to_table=2, to_seat=1, why="balance", from_table=1, from_seat=4),),
                halted=(1,))
    assert plan_from_dict(plan_to_dict(plan)) == plan
    seq = r.add("plan_proposed", plan=plan_to_dict(plan))
    assert replay(r.events).pending_plan == (seq, plan)
    r.add("bust", entry=1, table=1, hand=3)
    assert replay(r.events).pending_plan is None


def test_a_table_broken_with_players_still_seated_is_refused():
    r = started()
    r.add("table_broken", table=1)
    with pytest.raises(RuleViolation, match="still has players"):
        replay(r.events)


def test_the_sequence_must_run_1_2_3_and_corrections_void_earlier_events():
    r = started(2)
    check_sequence(r.events)
    r.add("correction", voids=99, reason="x")
    with pytest.raises(RuleViolation):
        check_sequence(r.events)
    with pytest.raises(RuleViolation):
        check_sequence(r.events[1:])


def test_a_replay_kept_up_to_date_event_by_event_is_the_full_replay():
    from casino.rules.tournament.record import Replayer

    r = started()
    wrong = r.add("bust", entry=2, table=1, hand=9)
    r.add("chip_count", entry=1, chips=15_000)
    r.add("correction", voids=wrong, reason="x", replaces={"type": "bust", "entry": 3, "table": 1, "hand": 9})
    r.add("withdrawal", entry=4, chips_removed=10_000)
    kept = Replayer()
    for event in r.events:
        kept.append(event)
        assert kept.state() == replay(kept.events)


def test_a_copy_of_a_replay_goes_on_alone_and_the_replay_it_was_taken_from_is_left_as_it_was():
    """A write goes on from a copy of the process's replay (it may roll back): what it appends to the copy,
    a bust, a hand, a penalty, the clock, a table halted, is never seen by the replay it was copied from."""
    from casino.rules.tournament.record import Replayer

    r = started()
    r.add("hand", table=1, hand=1, button=1, small_blind=2, big_blind=3,
          players=[{"entry": n, "seat": n, "start": 10_000, "end": 10_000} for n in range(1, 5)])
    original = Replayer(r.events)
    before = original.state()
    copy = original.copy()
    assert copy.state() == before
    more = Record()
    more.events = list(r.events)
    more.add("hand", table=1, hand=2, button=2, small_blind=3, big_blind=4,
             players=[{"entry": 1, "seat": 1, "start": 10_000, "end": 0},
                      {"entry": 2, "seat": 2, "start": 10_000, "end": 20_000}])
    more.add("bust", entry=1, table=1, hand=2)
    more.add("penalty", entry=2, kind="hands", hands=2, infraction="other", reason="x")
    more.add("clock", kind="start", seconds=0, step=0)
    more.add("table_halted", table=1)
    for event in more.events[len(r.events):]:
        copy.append(event)
    assert copy.state() == replay(more.events)  # the copy, gone on, is the whole replay of what it holds
    assert original.state() == before and len(original.events) == len(r.events)
    # the original goes on its own way: nothing the copy applied is in it
    r.add("clock", kind="start", seconds=0, step=0)
    original.append(r.events[-1])
    assert original.state() == replay(r.events)
    assert original.state().entry(1).status != "busted" and not original.state().penalties
    assert not original.state().halted


def test_cc21_a_split_prize_and_a_cc47_shared_prize_survive_the_record_to_the_last_chip():
    """The record's results keep a split's rounding remainder and a disqualified player's shared prize,
    so what each entry is paid from the record alone adds up to the pool (a record that kept only
    ``prize_each`` lost them)."""
    from casino.rules.tournament.prizes import Elimination, results
    from casino.rules.tournament.record import results_from_dicts, results_to_dicts

    pool_prizes = (501, 301, 201, 0, 0)  # 1,003 in all
    out = [
        Elimination(entry=5, order=1, how="disqualification"),
        Elimination(entry=4, order=2, table=1, hand=7, hand_for_hand_hand=3),
        Elimination(entry=3, order=3, table=2, hand=9, hand_for_hand_hand=3),
        Elimination(entry=2, order=4, table=1, hand=12),
    ]
    computed = results(5, out, (1,), pool_prizes)
    assert any(r.remainder or r.shared_each or r.shared_remainder for r in computed)  # the case at stake
    kept = results_from_dicts(results_to_dicts(computed))
    paid = {entry: r.prize(entry) for r in kept for entry in r.entries}
    assert paid == {entry: r.prize(entry) for r in computed for entry in r.entries}
    assert sum(paid.values()) == sum(pool_prizes)
    assert {e: int(v) for d in results_to_dicts(computed) for e, v in d["prizes"].items()} == \
        {str(e): v for e, v in paid.items()}


def test_an_entry_is_found_by_its_number_wherever_it_sits_in_the_state_and_a_missing_one_is_refused_CC_26():
    from casino.rules.tournament.record import EntryState, TournamentState

    state = TournamentState(entries=tuple(EntryState(entry=n, stack=n * 100) for n in (1, 2, 5, 9)))
    assert [state.entry(n).stack for n in (1, 2, 5, 9)] == [100, 200, 500, 900]  # 5 and 9 are not 5th and 9th
    for missing in (3, 4, 0, -1, 10):
        with pytest.raises(RuleViolation) as refused:
            state.entry(missing)
        assert refused.value.clause == "CC-26"


def two_tables(sits_out: bool = True) -> Record:
    """Six entries drawn at two tables (1: seats 1..3, 2: seats 1..3), then entry 6 moved from table 2 to table
    1 seat 5, sitting its next hand out (``sits_out``, as the plan says for a seat between the button and the
    small blind, CC-57) or not."""
    r = Record()
    r.add("setup", buy_in=100, fee=0, starting_stack=1_000, seats_per_table=9, structure={}, payout_table=[],
          break_order=[], options={}, late_registration_level=None)
    r.add("registration_opened")
    for n in range(1, 7):
        r.add("registered", entry=n, reentry_of=None)
    r.add("registration_closed", entries=6, prize_pool=600)
    for n in range(1, 7):
        table, seat = (1, n) if n <= 3 else (2, n - 3)
        r.add("seated", entry=n, table=table, seat=seat, chips=1_000, why="draw", button=1, occupied=[],
              from_table=None, from_seat=None, sits_out=False)
    r.add("seated", entry=6, table=1, seat=5, chips=1_000, why="balance", button=1, occupied=[1, 2, 3],
          from_table=2, from_seat=3, sits_out=sits_out)
    return r


def hand_at(r: Record, table: int, hand: int, entries: list[int]) -> int:
    players = [{"entry": n, "seat": None, "start": 1_000, "end": 1_000} for n in entries]
    return r.add("hand", table=table, hand=hand, button=1, small_blind=2, big_blind=3, players=players)


def test_a_hand_dealing_a_player_who_had_to_sit_it_out_is_a_problem_of_the_record_CC_53_CC_57():
    from casino.rules.tournament.record import verify_record

    r = two_tables()
    assert replay(r.events).sitting_out == ((6, 1),) and replay(r.events).sitting_out_seats(1) == (5,)
    hand_at(r, 1, 2, [1, 2, 3, 6])  # entry 6 dealt the hand he had to sit out
    verification = verify_record(r.events)
    assert not verification.ok
    assert any("deals entry 6, who had to sit it out" in p for p in verification.problems)
    assert replay(r.events).sitting_out == ()  # the hand is played: the next one deals him


def test_the_hand_a_moved_player_sits_out_clears_it_and_the_next_deals_him_CC_53():
    from casino.rules.tournament.record import verify_record

    r = two_tables()
    hand_at(r, 2, 1, [4, 5])  # another table's hand serves nothing of it
    assert replay(r.events).sitting_out_seats(1) == (5,)
    hand_at(r, 1, 2, [1, 2, 3])
    assert replay(r.events).sitting_out == ()
    hand_at(r, 1, 3, [1, 2, 3, 6])
    assert verify_record(r.events).ok


def test_a_move_without_sits_out_deals_the_player_in_and_a_later_move_ends_a_sit_out():
    from casino.rules.tournament.record import verify_record

    r = two_tables(sits_out=False)
    hand_at(r, 1, 2, [1, 2, 3, 6])
    assert verify_record(r.events).ok
    moved = two_tables()
    moved.add("seated", entry=6, table=1, seat=7, chips=1_000, why="correction", button=1, occupied=[1, 2, 3],
              from_table=1, from_seat=5, sits_out=False, reason="wrong seat")
    assert replay(moved.events).sitting_out == ()


def test_a_redraw_seated_with_another_button_than_its_plan_drew_is_a_problem_of_the_record_CC_82():
    from casino.rules.tournament.record import verify_record

    for recorded, ok in ((7, True), (1, False)):
        r = two_tables(sits_out=False)
        plan = Plan(moves=(Move(1, 2, 7, "redraw", from_table=1, from_seat=1),), redraw="redraw",
                    buttons=((2, 7), (1, 3)))
        proposed = r.add("plan_proposed", plan=plan_to_dict(plan))
        r.add("plan_confirmed", proposed=proposed)
        r.add("seated", entry=1, table=2, seat=7, chips=1_000, why="redraw", button=recorded, occupied=[1, 2],
              from_table=1, from_seat=1, sits_out=False, plan=proposed)
        r.add("button", table=2, seat=7, plan=proposed)
        r.add("button", table=1, seat=3, plan=proposed)
        verification = verify_record(r.events)
        assert verification.ok is ok, verification.problems
        assert replay(r.events).table(2).button == 7


def test_busts_in_hands_at_two_tables_recorded_at_one_instant_share_their_places_CC_20():
    from casino.rules.tournament.record import compute_results

    r = two_tables(sits_out=False)
    r.add("bust", entry=1, table=1, hand=4, hand_for_hand_hand=None, stack_at_start=50)
    r.add("bust", entry=4, table=2, hand=9, hand_for_hand_hand=None, stack_at_start=900)
    shared = compute_results(replay(r.events))
    assert [(x.places, set(x.entries)) for x in shared] == [((5, 6), {1, 4})]
    later = two_tables(sits_out=False)
    later.add("bust", entry=1, table=1, hand=4, hand_for_hand_hand=None, stack_at_start=50)
    later.events.append({"seq": len(later.events) + 1, "at": "2026-11-23T20:00:01+00:00", "type": "bust", "entry": 4,
                         "table": 2, "hand": 9, "hand_for_hand_hand": None, "stack_at_start": 900})
    assert [(x.places, x.entries) for x in compute_results(replay(later.events))] == [((5,), (4,)), ((6,), (1,))]


def test_a_player_moved_to_a_table_before_its_first_hand_finds_the_drawn_blinds_where_they_were_CC_57():
    """50 entries, 8 seats, seed 4 (issue #38): a table broke before the next table's first hand; the plan had
    the player moved between its drawn button and small blind sit out (CC-57), and the replay read the blinds
    live from the button, making him the small blind he could not sit out (CC-53)."""
    from casino.rules.tournament.seating import next_hand

    r = Record()
    r.add("setup", buy_in=100, fee=0, starting_stack=1_000, seats_per_table=8, structure={}, payout_table=[],
          break_order=[], options={}, late_registration_level=None)
    r.add("registration_opened")
    for n in range(1, 10):
        r.add("registered", entry=n, reentry_of=None)
    r.add("registration_closed", entries=9, prize_pool=900)
    for n in range(1, 8):
        r.add("seated", entry=n, table=4, seat=n, chips=1_000, why="draw", button=7, occupied=[],
              from_table=None, from_seat=None, sits_out=False)
    for n in (8, 9):
        r.add("seated", entry=n, table=7, seat=n - 7, chips=1_000, why="draw", button=1, occupied=[],
              from_table=None, from_seat=None, sits_out=False)
    drawn = next_hand(replay(r.events).table(4))
    assert (drawn.button, drawn.small_blind, drawn.big_blind) == (7, 1, 2)  # read from the drawn button
    r.add("seated", entry=8, table=4, seat=8, chips=1_000, why="break", button=7, occupied=list(range(1, 8)),
          from_table=7, from_seat=1, sits_out=True)
    state = replay(r.events)
    where = next_hand(state.table(4))
    assert (where.button, where.small_blind, where.big_blind) == (7, 1, 2)
    assert state.sitting_out_seats(4) == (8,)


def _counted_again(state):
    """What the state says counted over the field, as before issue #37."""
    in_play = [e for e in state.entries if e.status in ("registered", "seated")]
    return len(in_play), sum(e.stack for e in in_play)


def test_players_left_and_chips_kept_as_each_event_applies_are_the_field_counted_CC_18_CC_30_CC_34():
    """Issue #37: the replay counts the players still in and their chips as it applies each event, instead of
    gathering every entry at each write; through busts, a withdrawal, an absent stack removed, a hand and a
    correction the counts are the field's, and the tables are found by number as in the list."""
    r = started(entries=6)
    replayer = Replayer(r.events)
    steps = [
        ("hand", dict(table=1, hand=1, button=1, small_blind=2, big_blind=3,
                      players=[{"entry": 1, "seat": 1, "start": 10_000, "end": 0},
                               {"entry": 2, "seat": 2, "start": 10_000, "end": 20_000}])),
        ("bust", dict(entry=1, table=1, hand=1)),
        ("withdrawal", dict(entry=3, chips_removed=10_000)),
        ("chips_removed", dict(entry=4, chips=10_000, reason="absent")),
        ("chip_count", dict(entry=5, chips=9_000)),
    ]
    for type_, fields in steps:
        seq = r.add(type_, **fields)
        replayer.append(r.events[-1])
        state = replayer.state()
        assert (state.players_left, state.chips_in_play) == _counted_again(state), type_
        assert state == replay(r.events) and state.last_seq == seq
    r.add("correction", voids=2 + 6 + 1 + 6 + 2, reason="the wrong player busted",
          replaces={"type": "bust", "entry": 6, "table": 1, "hand": 1})
    replayer.append(r.events[-1])
    state = replayer.state()
    assert (state.players_left, state.chips_in_play) == _counted_again(state)
    assert state.table_in_play(1) == next(t for t in state.tables if t.table == 1)
    assert state.table_in_play(2) is None


def test_entries_registered_out_of_number_order_are_frozen_in_number_order_CC_26():
    r = Record()
    r.add("registration_opened")
    for n in (3, 1, 2):
        r.add("registered", entry=n, reentry_of=None)
    state = replay(r.events)
    assert [e.entry for e in state.entries] == [1, 2, 3]
    assert state.entry(2).entry == 2 and state.players_left == 3
