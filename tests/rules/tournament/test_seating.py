"""Seating, late entries, the next hand's blinds, balancing, breaking tables and redraws.

TDA-07, TDA-08-A, TDA-09, TDA-10 (and TDA-10-ex1), TDA-11-A/C/D/E, CC-32, CC-48, CC-49, CC-53..62,
CC-82; house options C-01, C-03, C-18, C-25. Pure: no Django, no database.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from casino.rules.cards import full_deck, parse_card
from casino.rules.errors import RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.seating import (
    Move,
    Plan,
    TableSeats,
    apply,
    breaking_sequence,
    correct_seat,
    draw_seats,
    due_big_blind,
    hand_played,
    next_hand,
    open_table,
    override_seat,
    plan,
    seat_late_entry,
    tables_needed,
    two_step_draw,
    worst_position,
)

CC = HouseOptions()


def table(number: int, seated, *, seats: int = 10, button=None, sb=None, bb=None, drawn=False,
          final=False) -> TableSeats:
    """A table whose player in seat s is entry number*100 + s (easy to read in a failure)."""
    return TableSeats(number, seats, tuple((s, number * 100 + s) for s in sorted(seated)), button=button,
                      small_blind=sb, big_blind=bb, button_is_next=drawn, final=final)


def full(number: int, *, seats: int = 10, but=(), **kwargs) -> TableSeats:
    return table(number, [s for s in range(1, seats + 1) if s not in but], seats=seats, **kwargs)


class DrawnSeat(random.Random):
    """A seeded rng whose one ``randrange`` (the button's seat number, CC-82) is fixed by the test."""

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__(seed)
        self.seat = seat

    def randrange(self, start, stop=None, step=1):
        assert start <= self.seat < stop
        return self.seat


# ---------------------------------------------------------------------------------------------- the draw


def test_tda07_tables_needed_are_the_fewest_that_seat_everyone():
    assert tables_needed(0, 10) == 0
    assert tables_needed(10, 10) == 1
    assert tables_needed(11, 10) == 2
    assert tables_needed(100, 9) == 12
    assert tables_needed(13, 6) == 3


@pytest.mark.parametrize("players, seats", [(-1, 10), (10, 11), (10, 1), (10, "9")])
def test_tda07_tables_needed_refuses_a_nonsense_field(players, seats):
    with pytest.raises(RuleViolation):
        tables_needed(players, seats)


def test_tda07_the_draw_seats_every_entry_once_at_tables_that_differ_by_one_at_most():
    entries = list(range(1, 58))
    tables, moves = draw_seats(entries, 9, random.Random(7))
    assert len(tables) == 7
    assert sorted(e for t in tables for _, e in t.players) == entries
    assert sorted(m.entry for m in moves) == entries
    assert max(t.count for t in tables) - min(t.count for t in tables) <= 1
    for t in tables:
        assert all(1 <= s <= 9 for s, _ in t.players)
        assert len({s for s, _ in t.players}) == t.count
    assert {(m.to_table, m.to_seat, m.entry) for m in moves} == {(t.table, s, e) for t in tables for s, e in t.players}
    assert all(m.why == "draw" and m.from_table is None for m in moves)


def test_cc32_no_stacks_for_empty_seats_only_players_seated_get_a_move_and_chips():
    tables, moves = draw_seats([1, 2, 3, 4, 5, 6, 7, 8], 10, random.Random(1))
    assert [t.count for t in tables] == [8]
    assert len(moves) == 8  # one seat assignment (and one starting stack) per entry, none for an empty seat


def test_tda07_the_empty_seats_are_spread_around_the_table():
    (only,), _ = draw_seats(list(range(8)), 10, random.Random(3))
    empty = sorted(set(range(1, 11)) - {s for s, _ in only.players})
    assert len(empty) == 2
    assert (empty[1] - empty[0]) % 10 not in (1, 9)  # never side by side


def test_tda07_the_draw_is_random_and_the_same_seed_gives_the_same_draw():
    entries = list(range(1, 31))
    first = draw_seats(entries, 10, random.Random(11))
    assert draw_seats(entries, 10, random.Random(11)) == first
    assert draw_seats(entries, 10, random.Random(12)) != first
    # Over many draws, entry 1 lands at every table and in every seat (nothing fixed by the order).
    where = Counter()
    for seed in range(300):
        tables, moves = draw_seats(entries, 10, random.Random(seed))
        move = next(m for m in moves if m.entry == 1)
        where[move.to_table, move.to_seat] += 1
    assert {t for t, _ in where} == {1, 2, 3}
    assert {s for _, s in where} == set(range(1, 11))


def test_cc48_a_draw_at_given_tables_fills_every_one_of_them_evenly():
    tables, moves = draw_seats(list(range(10)), 10, random.Random(5), tables=[7, 3], why="redraw")
    assert [t.table for t in tables] == [7, 3]
    assert sorted(t.count for t in tables) == [5, 5]
    assert {m.why for m in moves} == {"redraw"}


def test_tda07_the_draw_refuses_duplicates_and_too_few_or_too_many_tables():
    with pytest.raises(RuleViolation):
        draw_seats([1, 1, 2], 10, random.Random(1))
    with pytest.raises(RuleViolation):
        draw_seats(list(range(25)), 10, random.Random(1), tables=[1, 2])
    with pytest.raises(RuleViolation):
        draw_seats([1], 10, random.Random(1), tables=[1, 2])
    with pytest.raises(RuleViolation):
        draw_seats([1, 2], 10, random.Random(1), why="lunch")


def test_cc82_every_table_starts_with_the_button_at_the_drawn_seat_number():
    tables, _ = draw_seats(list(range(1, 28)), 9, DrawnSeat(4, seat=5))
    for t in tables:
        assert t.button_is_next
        occupied = [s for s, _ in t.players]
        if 5 in occupied:
            assert t.button == 5
        else:
            # The drawn seat is empty here: the button goes to the next player clockwise (our reading).
            assert t.button == min([s for s in occupied if s > 5] or occupied)


def test_cc82_an_empty_drawn_seat_sends_the_button_clockwise_to_the_next_player():
    # 8 players at 10 seats leave seats 5 and 10 empty; drawing seat 10 puts the button on seat 1.
    (only,), _ = draw_seats(list(range(8)), 10, DrawnSeat(1, seat=10))
    assert 10 not in {s for s, _ in only.players}
    assert only.button == 1


# ---------------------------------------------------------------------------------------------- the next hand


def test_c25_the_blinds_and_button_move_one_player_each_hand():
    t = full(1, button=1, sb=2, bb=3)
    hand = next_hand(t)
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 3, 4)
    assert due_big_blind(t) == 104


def test_c25_cc80_the_big_blind_busted_the_next_hand_has_a_dead_small_blind():
    hand = next_hand(full(1, but=(3,), button=1, sb=2, bb=3))
    assert (hand.button, hand.small_blind, hand.big_blind, hand.small_blind_position) == (2, None, 4, 3)


def test_c25_cc79_the_small_blind_busted_the_button_is_dead_on_his_seat():
    hand = next_hand(full(1, but=(2,), button=1, sb=2, bb=3))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 3, 4)


def test_c25_after_a_dead_small_blind_the_button_goes_to_its_empty_seat():
    busted = full(1, but=(3,), button=1, sb=2, bb=3)
    after = hand_played(busted)
    assert (after.button, after.small_blind, after.big_blind) == (2, 3, 4)
    hand = next_hand(after)
    assert (hand.button, hand.small_blind, hand.big_blind) == (3, 4, 5)


def test_c25_cc81_a_dead_small_blind_reported_without_its_seat_leaves_the_button_where_it_was():
    hand = next_hand(full(1, but=(3,), button=2, sb=None, bb=4))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 4, 5)


def test_c25_a_big_blind_moves_past_empty_seats_to_the_next_player():
    hand = next_hand(table(1, [1, 2, 3, 7, 8], button=1, sb=2, bb=3))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 3, 7)


def test_tda34_heads_up_the_button_posts_the_small_blind_and_nobody_posts_the_big_blind_twice():
    # Three players, the small blind (seat 4) busts: seat 7 was the big blind, 1 posts it now.
    hand = next_hand(table(1, [1, 7], button=1, sb=4, bb=7))
    assert (hand.button, hand.small_blind, hand.big_blind) == (7, 7, 1)
    played = hand_played(table(1, [1, 7], button=1, sb=4, bb=7))
    hand = next_hand(played)
    assert (hand.button, hand.small_blind, hand.big_blind) == (1, 1, 7)


def test_c25_a_button_that_would_land_on_the_big_blind_goes_back_to_the_player_before_the_small_blind():
    # Heads-up, seat 2 had the button and the small blind, seat 6 the big blind; a new player sat in 4.
    hand = next_hand(table(1, [2, 4, 6], button=2, sb=2, bb=6))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 6, 2)


def test_c25_reported_blinds_on_seats_the_table_lacks_are_refused():
    with pytest.raises(RuleViolation, match="no seat 11"):
        next_hand(full(1, button=1, sb=2, bb=11))
    with pytest.raises(RuleViolation, match="no seat 0"):
        next_hand(full(1, button=1, sb=0, bb=3))


def test_cc82_a_drawn_button_deals_the_first_hand_from_where_it_is():
    hand = next_hand(full(1, button=6, drawn=True))
    assert (hand.button, hand.small_blind, hand.big_blind) == (6, 7, 8)
    hand = next_hand(table(1, [3, 9], button=9, drawn=True))
    assert (hand.button, hand.small_blind, hand.big_blind) == (9, 9, 3)


def test_c25_a_button_without_blinds_reads_the_last_blinds_from_it():
    hand = next_hand(full(1, button=10))
    assert (hand.button, hand.small_blind, hand.big_blind) == (1, 2, 3)


def test_c25_a_table_with_players_and_no_button_asks_for_it_and_a_lone_player_has_no_hand():
    with pytest.raises(RuleViolation, match="button"):
        next_hand(full(1))
    assert next_hand(table(1, [4], button=2)) is None


# ---------------------------------------------------------------------------------------------- late entries


def test_tda08a_a_late_entry_takes_a_random_open_seat_at_a_table_with_the_fewest_players():
    tables = (full(1, but=(5,), button=1, sb=2, bb=3), table(2, [1, 2, 3, 4, 6, 7, 8], button=1, sb=2, bb=3),
              table(3, [1, 2, 3, 4, 6, 7, 8], button=3, sb=4, bb=6))
    landed = Counter()
    for seed in range(200):
        move = seat_late_entry(999, tables, random.Random(seed))
        assert move.why == "late" and move.from_table is None
        landed[move.to_table, move.to_seat] += 1
    assert {t for t, _ in landed} == {2, 3}
    # Table 2 (next hand: button 2, small blind 3, big blind 4): all its open seats are playable.
    assert {s for t, s in landed if t == 2} == {5, 9, 10}
    # Table 3 (next: button 4, small blind 6): never 5, between the button and the small blind.
    assert {s for t, s in landed if t == 3} == {9, 10}


def test_tda08a_cc57_never_between_the_button_and_the_small_blind_nor_on_an_empty_button_or_small_blind():
    # Next hand at this table: the button dead on seat 4, the small blind dead on seat 7, big blind 8.
    t = table(1, [1, 2, 3, 8, 9], button=3, sb=4, bb=7)
    hand = next_hand(t)
    assert (hand.button, hand.small_blind, hand.small_blind_position, hand.big_blind) == (4, None, 7, 8)
    seats = {seat_late_entry(1, (t,), random.Random(seed)).to_seat for seed in range(100)}
    assert seats == {10}


def test_tda08a_a_full_field_is_refused_until_the_director_opens_a_table():
    tables = (full(1, button=1, sb=2, bb=3), full(2, button=1, sb=2, bb=3))
    with pytest.raises(RuleViolation, match="opens a new table") as refusal:
        seat_late_entry(999, tables, random.Random(1))
    assert refusal.value.clause == "TDA-08-A"
    tables = (*tables, open_table(3, 10, tables))
    move = seat_late_entry(999, tables, random.Random(1), why="reentry")
    assert (move.to_table, move.why) == (3, "reentry")


def test_no_late_entry_or_re_entry_is_seated_at_the_final_table_TDA_08_A():
    # The final table, 10 seats with two open: a late entry or a re-entry is refused, not seated there.
    final = table(1, [1, 2, 3, 4, 5, 6, 7, 8], button=1, sb=2, bb=3, final=True)
    for why in ("late", "reentry"):
        for seed in range(20):
            with pytest.raises(RuleViolation, match="final table") as refusal:
                seat_late_entry(999, (final,), random.Random(seed), why=why)
            assert refusal.value.clause == "TDA-08-A"
    # Nor at a table the director opens beside it.
    with pytest.raises(RuleViolation, match="final table"):
        seat_late_entry(999, (final, open_table(2, 10, (final,))), random.Random(1))
    # The same table before it is the final one takes him.
    assert seat_late_entry(999, (replace(final, final=False),), random.Random(1)).to_table == 1


def test_tda08a_a_seated_entry_or_an_existing_table_number_is_refused():
    tables = (full(1, but=(5,), button=1, sb=2, bb=3),)
    with pytest.raises(RuleViolation):
        seat_late_entry(101, tables, random.Random(1))
    with pytest.raises(RuleViolation):
        open_table(1, 10, tables)
    with pytest.raises(RuleViolation):
        seat_late_entry(5, tables, random.Random(1), why="balance")


# ---------------------------------------------------------------------------------------------- worst position


def test_tda11a_cc58_the_worst_position_is_the_open_seat_that_posts_the_big_blind_next():
    # Next hand: button 2, small blind 3, big blind 4. In seat 6 he posts the big blind after 4 and 5,
    # in seat 9 after 4, 5, 7 and 8: seat 6 is the worse.
    t = table(1, [1, 2, 3, 4, 5, 7, 8, 10], button=1, sb=2, bb=3)
    assert worst_position(t) == 6
    t = table(1, [1, 2, 3, 5, 6, 7, 8, 9, 10], button=1, sb=2, bb=3)
    # Seat 4 sits between the small blind (3) and the next big blind (5): he posts it at once.
    assert worst_position(t) == 4


def test_tda11a_the_worst_position_is_never_the_small_blind_even_when_that_leaves_a_lone_big_blind():
    # The last big blind (seat 3) busted: seat 3 is the next hand's (dead) small blind, never given.
    t = table(1, [1, 2, 4, 5, 6, 7, 8, 9], button=1, sb=2, bb=3)
    assert worst_position(t) == 10
    t = table(1, [1, 2, 5, 6, 7, 8, 9, 10], button=1, sb=2, bb=3)
    # Seat 4 comes before the next big blind (5): he posts it with no small blind that hand (lone BB).
    assert worst_position(t) == 4
    moved_in = hand_played(table(1, [1, 2, 4, 5, 6, 7, 8, 9, 10], button=1, sb=2, bb=3))
    assert (moved_in.small_blind, moved_in.big_blind) == (3, 4)


def test_tda11a_a_full_table_or_one_with_only_its_small_blind_open_has_no_worst_position():
    assert worst_position(full(1, button=1, sb=2, bb=3)) is None
    assert worst_position(full(1, but=(3,), button=1, sb=2, bb=3)) is None


# ---------------------------------------------------------------------------------------------- balancing


def _seat_of(tables, entry):
    return next((t.table, s) for t in tables for s, e in t.players if e == entry)


def test_tda11a_cc58_balancing_moves_the_player_due_the_big_blind_to_the_worst_position():
    fullest = full(1, button=1, sb=2, bb=3)  # 10 players, seat 4 is due the big blind
    short = table(2, [1, 2, 3, 5, 6, 7, 8, 9], button=1, sb=2, bb=3)  # 8 players, worst position 4
    third = table(3, [1, 2, 3, 5, 6, 7, 8, 9, 10], button=1, sb=2, bb=3)
    result = plan((fullest, short, third), options=CC, break_order=(1, 2, 3), rng=random.Random(1))
    assert result.moves == (Move(104, 2, 4, "balance", from_table=1, from_seat=4),)
    after = apply((fullest, short, third), result)
    assert [t.count for t in after] == [9, 9, 9]
    assert due_big_blind(after[0]) == 105  # the big blind moves on at the table he left
    assert due_big_blind(after[1]) == 104  # and he posts it at once at the new one


def test_tda11c_among_equally_full_tables_the_one_that_breaks_first_gives_the_player():
    tables = (full(1, button=1, sb=2, bb=3), full(2, button=1, sb=2, bb=3),
              table(3, range(1, 9), button=1, sb=2, bb=3), full(4, button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(4, 2, 1, 3), rng=random.Random(1))
    assert [(m.from_table, m.to_table) for m in result.moves] == [(4, 3)]
    result = plan(tables, options=CC, break_order=(2, 4, 1, 3), rng=random.Random(1))
    assert [(m.from_table, m.to_table) for m in result.moves] == [(2, 3)]


def test_cc54_balancing_goes_on_until_no_table_has_two_more_than_another():
    tables = (full(1, button=1, sb=2, bb=3), full(2, button=1, sb=2, bb=3),
              table(3, range(1, 7), button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(1, 2, 3), rng=random.Random(1))
    after = apply(tables, result)
    assert sorted(t.count for t in after) == [8, 9, 9]
    assert len(result.moves) == 2
    assert {m.why for m in result.moves} == {"balance"}
    assert plan(after, options=CC, break_order=(1, 2, 3), rng=random.Random(1)).empty


def test_cc54_tables_within_one_of_each_other_need_nothing():
    tables = (full(1, button=1, sb=2, bb=3), table(2, range(1, 10), button=1, sb=2, bb=3))
    assert plan(tables, options=CC, break_order=(1, 2), rng=random.Random(1)) == Plan()


# ---------------------------------------------------------------------------------------------- breaking


def test_cc55_tables_break_in_the_announced_order_then_the_others_highest_number_first():
    tables = tuple(table(n, [1, 2], button=1) for n in (1, 2, 3, 5, 8))
    assert breaking_sequence(tables, (3, 9, 1)) == [3, 1, 8, 5, 2]
    assert breaking_sequence(tables, ()) == [8, 5, 3, 2, 1]


def test_tda10_cc56_a_table_whose_players_fit_the_open_seats_breaks_into_them_by_draw():
    # 4 tables of 10 seats, 29 players: table 2 (next in the order) breaks into the others' 7 open seats.
    tables = (table(1, [1, 2, 3, 4, 5, 6, 7], button=1, sb=2, bb=3),
              table(2, [1, 2, 3, 4, 5, 6], button=1, sb=2, bb=3),
              table(3, [1, 2, 3, 4, 5, 6, 7], button=5, sb=6, bb=7),
              table(4, range(1, 10), button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(2, 1, 3, 4), rng=random.Random(3))
    assert result.broken == (2,)
    assert sorted(m.entry for m in result.moves) == [201, 202, 203, 204, 205, 206]
    assert {m.why for m in result.moves} == {"break"}
    assert all(m.from_table == 2 and m.from_seat == m.entry - 200 for m in result.moves)
    after = apply(tables, result)
    assert [t.table for t in after] == [1, 3, 4]
    assert sorted(t.count for t in after) == [9, 10, 10]
    # The two-step draw is on the plan for the record, highest card first (TDA-10-ex1).
    assert [e for e, _ in result.cards] == [m.entry for m in result.moves]
    cards = [parse_card(c) for _, c in result.cards]
    assert cards == sorted(cards, reverse=True)


def test_tda10_a_broken_table_keeps_the_others_even():
    tables = (table(1, range(1, 9), button=1, sb=2, bb=3), table(2, range(1, 7), button=1, sb=2, bb=3),
              table(3, range(1, 9), button=1, sb=2, bb=3), table(4, range(1, 9), button=1, sb=2, bb=3))
    # 30 players at 10 seats: table 2 breaks, its 6 players take 2 seats at each of the others.
    result = plan(tables, options=CC, break_order=(2, 1, 3, 4), rng=random.Random(8))
    assert result.broken == (2,)
    assert sorted(t.count for t in apply(tables, result)) == [10, 10, 10]
    tables = (table(1, range(1, 10), button=1, sb=2, bb=3), table(2, range(1, 4), button=1, sb=2, bb=3),
              table(3, range(1, 8), button=1, sb=2, bb=3), table(4, range(1, 8), button=1, sb=2, bb=3))
    # 26 players: table 2's 3 players go to the short tables 3 and 4 first (9, 8, 9 or 9, 9, 8).
    result = plan(tables, options=CC, break_order=(2, 1, 3, 4), rng=random.Random(8))
    after = apply(tables, result)
    assert max(t.count for t in after) - min(t.count for t in after) <= 1
    assert all(m.to_table in (3, 4) for m in result.moves)


def test_tda10_the_players_of_a_broken_table_may_land_on_any_seat_over_many_draws():
    seats_taken = Counter()
    for seed in range(200):
        tables = (table(1, [1, 2, 3, 4, 6, 7, 8, 9], button=1, sb=2, bb=3),
                  table(2, [1, 2, 3], button=1, sb=2, bb=3),
                  table(3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], button=1, sb=2, bb=3))
        tables = (*tables, table(4, [1, 2, 3, 4, 5, 6, 7, 8, 9], button=1, sb=2, bb=3))
        result = plan(tables, options=CC, break_order=(2, 1, 3, 4), rng=random.Random(seed))
        assert result.broken == (2,)
        seats_taken.update((m.entry, m.to_table, m.to_seat) for m in result.moves)
    # Entry 201 was drawn into each of the three open seats.
    assert {(t, s) for e, t, s in seats_taken if e == 201} == {(1, 5), (1, 10), (4, 10)}


def test_tda10_ex1_the_two_step_draw_matches_seat_cards_to_players_by_the_card_dealt():
    seat_cards = [(1, 4), (1, 9), (3, 2)]
    drawn = two_step_draw([11, 22, 33], seat_cards, random.Random(21))
    # Replaying the example by hand with the same seed: (1) the seat cards shuffled face down and
    # stacked; (2) one playing card face up to each player; the stack's top card to the highest card.
    rng = random.Random(21)
    stack = list(seat_cards)
    rng.shuffle(stack)
    deck = list(full_deck())
    rng.shuffle(deck)
    dealt = dict(zip([11, 22, 33], deck))
    by_card = sorted(dealt, key=dealt.get, reverse=True)
    assert [(e, c) for e, c, _, _ in drawn] == [(e, dealt[e]) for e in by_card]
    assert [(t, s) for _, _, t, s in drawn] == stack
    with pytest.raises(RuleViolation):
        two_step_draw([1, 2], [(1, 1)], random.Random(1))


def test_cc53_c03_a_relocated_player_drawing_the_dead_buttons_seat_sits_that_hand_out():
    # Table 1's next hand: its button is dead on seat 2 (that small blind busted). Table 2 breaks.
    receiving = table(1, [1, 3, 4, 5, 6, 7, 8, 9], button=1, sb=2, bb=3)
    assert next_hand(receiving).button == 2
    for options, sits_out in ((CC, True), (HouseOptions(relocated_on_button_sits_out=False), False)):
        found = False
        for seed in range(60):
            tables = (receiving, table(2, [1, 2], button=1, sb=1, bb=2), full(3, but=(10,), button=1, sb=2, bb=3),
                      full(4, but=(9, 10), button=1, sb=2, bb=3))
            result = plan(tables, options=options, break_order=(2, 1, 3, 4), rng=random.Random(seed))
            assert result.broken == (2,)
            onto_button = [m for m in result.moves if (m.to_table, m.to_seat) == (1, 2)]
            if onto_button:
                found = True
                assert onto_button[0].sits_out is sits_out
        assert found


def test_cc57_tda10_a_relocated_player_between_the_button_and_the_small_blind_is_not_dealt_in():
    # Next hand at table 1: button 2, small blind position 5 (the last big blind, busted): seats 3 and 4
    # are between them. A broken table's players drawn there sit the hand out whatever C-03 says.
    receiving = table(1, [1, 2, 6, 7, 8, 9, 10], button=1, sb=2, bb=5)
    hand = next_hand(receiving)
    assert (hand.button, hand.small_blind_position) == (2, 5)
    options = HouseOptions(relocated_on_button_sits_out=False)
    for seed in range(30):
        tables = (receiving, table(2, [1, 2, 3], button=1, sb=2, bb=3), full(3, button=1, sb=2, bb=3),
                  table(4, range(1, 9), button=1, sb=2, bb=3))
        result = plan(tables, options=options, break_order=(2, 1, 3, 4), rng=random.Random(seed))
        for m in result.moves:
            assert m.sits_out is (m.to_table == 1 and m.to_seat in (3, 4))


# ---------------------------------------------------------------------------------------------- redraws


def test_cc48_down_to_two_tables_everyone_is_redrawn_at_the_two_that_break_last():
    tables = (table(1, range(1, 8), button=1, sb=2, bb=3), table(2, range(1, 7), button=1, sb=2, bb=3),
              table(3, range(1, 8), button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(2, 3, 1), rng=random.Random(2))
    assert result.redraw == "redraw"
    assert {m.why for m in result.moves} == {"redraw"}
    assert len(result.moves) == 20
    after = apply(tables, result)
    assert [t.table for t in after] == [1, 3]
    assert [t.count for t in after] == [10, 10]
    assert all(t.button_is_next and not t.final for t in after)
    assert dict(result.buttons) == {t.table: t.button for t in after}
    assert len({b for _, b in result.buttons}) == 1  # CC-82: the same seat number at both


def test_cc61_cc62_at_ten_players_the_final_table_is_redrawn_with_its_button_drawn():
    tables = (table(1, range(1, 6), button=1, sb=2, bb=3), table(2, range(1, 6), button=3, sb=4, bb=5))
    result = plan(tables, options=CC, break_order=(1, 2), rng=random.Random(4))
    assert result.redraw == "final_table"
    assert {m.why for m in result.moves} == {"final_table"}
    after = apply(tables, result)
    assert len(after) == 1
    (final,) = after
    assert final.table == 2 and final.final and final.count == 10
    assert (final.table, final.button) in result.buttons
    assert final.button_is_next


def test_c01_rp09_a_nine_handed_final_table_two_tables_of_five_wait_until_nine_remain():
    nine = HouseOptions(final_table_size=9)
    tables = (table(1, range(1, 6), seats=9, button=1, sb=2, bb=3),
              table(2, range(1, 6), seats=9, button=1, sb=2, bb=3))
    assert plan(tables, options=nine, break_order=(1, 2), rng=random.Random(1)).empty
    tables = (tables[0], table(2, range(1, 5), seats=9, button=1, sb=2, bb=3))
    result = plan(tables, options=nine, break_order=(1, 2), rng=random.Random(1))
    assert result.redraw == "final_table"
    (final,) = apply(tables, result)
    assert (final.count, final.seats) == (9, 9)


def test_c01_rp09_a_seven_handed_final_table_at_six_max_seats_seven():
    seven = HouseOptions(final_table_size=7)
    tables = (table(1, range(1, 5), seats=6, button=1, sb=2, bb=3),
              table(2, range(1, 4), seats=6, button=1, sb=2, bb=3))
    (final,) = apply(tables, plan(tables, options=seven, break_order=(1, 2), rng=random.Random(1)))
    assert (final.count, final.seats, final.final) == (7, 7, True)


def test_c01_the_two_table_redraw_of_a_nine_handed_final_uses_both_tables_even_if_one_would_do():
    nine = HouseOptions(final_table_size=9)
    tables = tuple(table(n, range(1, 5), button=1, sb=2, bb=3) for n in (1, 2, 3))[:2] + (
        table(3, [1, 2], button=1, sb=2, bb=1),)
    result = plan(tables, options=nine, break_order=(3, 2, 1), rng=random.Random(1))
    assert result.redraw == "redraw"
    assert sorted(t.count for t in apply(tables, result)) == [5, 5]


# ---------------------------------------------------------------------------------------------- halting


def test_cc59_c18_a_table_down_to_three_halts_until_the_moves_are_made():
    tables = (full(1, button=1, sb=2, bb=3), full(2, button=1, sb=2, bb=3), full(3, button=1, sb=2, bb=3),
              table(4, [1, 2, 3], button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(1, 2, 3, 4), rng=random.Random(1))
    assert result.halted == (4,)
    assert not result.broken  # 33 players do not fit three tables of 10
    after = apply(tables, result)
    assert min(t.count for t in after) == 8
    assert plan(after, options=CC, break_order=(1, 2, 3, 4), rng=random.Random(1)).halted == ()


def test_cc59_the_final_table_never_halts():
    final = table(1, [1, 2, 3], button=1, sb=2, bb=3, final=True)
    assert plan((final,), options=CC, break_order=(), rng=random.Random(1)) == Plan()


def test_tda11d_a_table_three_short_of_the_fullest_is_a_warning_only():
    tables = (full(1, button=1, sb=2, bb=3), table(2, range(1, 8), button=1, sb=2, bb=3),
              full(3, button=1, sb=2, bb=3), full(4, button=1, sb=2, bb=3))
    result = plan(tables, options=CC, break_order=(1, 2, 3, 4), rng=random.Random(1))
    assert result.halted == ()
    assert len(result.warnings) == 1 and "Table 2" in result.warnings[0] and "TDA-11-D" in result.warnings[0]
    tda = HouseOptions(halt_if_short_by_ge=4)
    assert plan(tables, options=tda, break_order=(1, 2, 3, 4), rng=random.Random(1)).warnings == ()


def test_tda11e_c18_a_house_that_halts_at_two_players_does_not_halt_three():
    tables = (full(1, button=1, sb=2, bb=3), full(2, button=1, sb=2, bb=3), full(3, button=1, sb=2, bb=3),
              table(4, [1, 2, 3], button=1, sb=2, bb=3))
    options = HouseOptions(halt_if_table_players_le=2)
    assert plan(tables, options=options, break_order=(1, 2, 3, 4), rng=random.Random(1)).halted == ()


# ---------------------------------------------------------------------------------------------- applying


def test_apply_refuses_a_plan_that_does_not_fit_the_tables():
    tables = (full(1, but=(5,), button=1, sb=2, bb=3), table(2, [1, 2], button=1, sb=2, bb=1))
    for bad in (Plan(moves=(Move(101, 1, 2, "balance", from_table=1, from_seat=1),)),  # seat taken
                Plan(moves=(Move(201, 1, 11, "balance", from_table=2, from_seat=1),)),  # no seat 11
                Plan(moves=(Move(201, 1, 5, "balance", from_table=2, from_seat=2),)),  # not where he sits
                Plan(moves=(Move(201, 9, 5, "balance", from_table=2, from_seat=1),)),  # no table 9
                Plan(moves=(Move(201, 1, 5, "balance"), Move(201, 1, 5, "balance"))),  # twice
                Plan(moves=(Move(999, 1, 5, "balance"),)),  # nobody
                Plan(broken=(2,))):  # a table broken with players on it
        with pytest.raises(RuleViolation):
            apply(tables, bad)


def test_apply_makes_a_plans_moves_at_once_so_a_redraw_can_swap_seats():
    tables = (table(1, [1, 2], button=1, sb=1, bb=2), table(2, [1, 2], button=1, sb=1, bb=2))
    swap = Plan(moves=(Move(101, 1, 2, "redraw", 1, 1), Move(102, 1, 1, "redraw", 1, 2),
                       Move(201, 1, 3, "redraw", 2, 1), Move(202, 1, 4, "redraw", 2, 2)),
                redraw="final_table", buttons=((1, 3),))
    (final,) = apply(tables, swap)
    assert final.players == ((1, 102), (2, 101), (3, 201), (4, 202))
    assert final.final and final.button == 3


# ---------------------------------------------------------------------------------------------- corrections


def test_tda07_a_player_in_the_wrong_seat_is_moved_to_the_right_one():
    tables = (full(1, but=(5,), button=1, sb=2, bb=3), table(2, [1, 2], button=1, sb=1, bb=2))
    move = correct_seat(tables, 201, 1, 5)
    assert move == Move(201, 1, 5, "correction", from_table=2, from_seat=1)
    assert _seat_of(apply(tables, Plan(moves=(move,))), 201) == (1, 5)


def test_tda09_cc49_the_director_overrides_a_seat_only_into_an_open_seat_that_exists():
    tables = (full(1, but=(5,), button=1, sb=2, bb=3), table(2, [1, 2], button=1, sb=1, bb=2))
    assert override_seat(tables, 101, 2, 7).why == "override"
    for entry, to_table, to_seat in ((101, 1, 2), (101, 1, 11), (101, 3, 1), (999, 1, 5)):
        with pytest.raises(RuleViolation):
            override_seat(tables, entry, to_table, to_seat)
    with pytest.raises(RuleViolation):
        correct_seat(tables, 101, 2, 2)


def test_cc54_a_plan_refuses_tables_that_seat_an_entry_twice_or_repeat_a_table():
    with pytest.raises(RuleViolation, match="seated twice"):
        plan((table(1, [1, 2], button=1), TableSeats(2, 10, ((1, 101), (2, 5)), button=1)), options=CC,
             break_order=(), rng=random.Random(1))
    with pytest.raises(RuleViolation, match="twice"):
        plan((table(1, [1, 2], button=1), table(1, [3, 4], button=3)), options=CC, break_order=(),
             rng=random.Random(1))
    with pytest.raises(RuleViolation, match="no seat 12"):
        plan((table(1, [1, 2], button=1), TableSeats(2, 10, ((12, 5), (2, 6)), button=2)), options=CC,
             break_order=(), rng=random.Random(1))


def test_tda07_the_casino_draws_with_the_os_csprng_and_a_plan_with_the_same_seed_is_the_same():
    tables, moves = draw_seats(list(range(1, 41)), 9, SYSTEM_RANDOM)
    assert sorted(m.entry for m in moves) == list(range(1, 41))
    tables = tuple(hand_played(t) for t in tables)
    busted = tuple(replace(t, players=t.players[:-3]) if t.table == 1 else t for t in tables)
    first = plan(busted, options=CC, break_order=(1,), rng=random.Random(9))
    assert first == plan(busted, options=CC, break_order=(1,), rng=random.Random(9))
    assert plan(busted, options=CC, break_order=(1,), rng=SYSTEM_RANDOM).moves
