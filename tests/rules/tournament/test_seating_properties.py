"""Whole fields busting down to one player, seat plans checked at every step (hypothesis).

Fields of 2 to 400 players at 6, 8, 9 or 10 seats, final tables of 2 to 10 (C-01), with hands played,
busts, late entries and a random break order: after every change the plan (CC-54..62, TDA-10/11) keeps
every seat legal, loses and duplicates nobody, never moves a player into a small blind's seat (TDA-11-A;
a broken table's player only when that table's every open seat was needed), sits out exactly the
relocated players on the button (C-03, CC-53) or between the button and the small blind (CC-57), and once
applied leaves nothing to do and no table halted (C-18, CC-59), the tables within one player of each
other; the field ends at one final table.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.seating import (
    Plan,
    RuleViolation,
    TableSeats,
    apply,
    draw_seats,
    hand_played,
    next_hand,
    open_table,
    plan,
    seat_late_entry,
)


def _between(seat: int, start: int, end: int, seats: int) -> bool:
    return 0 < (seat - start) % seats < (end - start) % seats


def _check_legal(tables: tuple[TableSeats, ...], field: set[int]) -> None:
    seen = []
    for t in tables:
        seats = [s for s, _ in t.players]
        assert all(1 <= s <= t.seats for s in seats)
        assert len(set(seats)) == len(seats)
        seen.extend(e for _, e in t.players)
    assert sorted(seen) == sorted(field)


def _check_plan(tables: tuple[TableSeats, ...], result, after: tuple[TableSeats, ...],
                options: HouseOptions) -> None:
    by_number = {t.table: t for t in tables}
    for number in result.halted:
        assert by_number[number].count <= options.halt_if_table_players_le and not by_number[number].final
    if result.redraw:
        return
    arriving: dict[int, set[int]] = {}
    for m in result.moves:
        arriving.setdefault(m.to_table, set()).add(m.to_seat)
    final = {t.table: t for t in after}
    for m in result.moves:
        before, hand_before = by_number[m.to_table], next_hand(by_number[m.to_table])
        if m.why == "balance" and hand_before is not None:
            # TDA-11-A: never into the small blind of the hand that follows (a table of one player, just
            # opened, has no blinds yet: whoever sits first after its button will post the small blind).
            hand = next_hand(final[m.to_table])
            assert hand is None or m.to_seat not in (hand.small_blind, hand.small_blind_position)
        elif hand_before is not None and m.to_seat == hand_before.small_blind_position:
            # A broken table's player only when that table's every open seat was needed.
            assert set(before.open_seats()) <= arriving[m.to_table]
        hand = next_hand(final[m.to_table])
        on_button = hand is not None and m.to_seat == hand.button
        between = hand is not None and _between(m.to_seat, hand.button, hand.small_blind_position,
                                                final[m.to_table].seats)
        assert m.sits_out == ((on_button and options.relocated_on_button_sits_out) or between)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 400), seats=st.sampled_from([6, 8, 9, 10]), final_size=st.integers(2, 10),
       sits_out=st.booleans(), late=st.integers(0, 12), seed=st.integers(0, 2**32 - 1))
def test_a_field_busting_to_one_player_keeps_every_plan_legal_and_ends_at_one_final_table(
        players, seats, final_size, sits_out, late, seed):
    options = HouseOptions(final_table_size=final_size, relocated_on_button_sits_out=sits_out)
    rng = random.Random(seed)
    field = set(range(1, players + 1))
    tables, moves = draw_seats(sorted(field), seats, rng)
    assert len(moves) == players
    order = [t.table for t in tables]
    rng.shuffle(order)
    break_order = tuple(order[: len(order) // 2])  # the rest break after, highest number first
    next_entry = players + 1
    more_than_one_table = len(tables) > 1
    while len(field) > 1:
        # The tables play a hand (some do not get to it before the next change).
        tables = tuple(hand_played(t) if rng.random() < 0.8 else t for t in tables)
        # A late entry now and then in the first part of the event (TDA-08-A).
        if late and rng.random() < 0.2 and not any(t.final for t in tables):
            late -= 1
            try:
                move = seat_late_entry(next_entry, tables, rng)
            except RuleViolation:
                tables = (*tables, open_table(max(t.table for t in tables) + 1, seats, tables))
                move = seat_late_entry(next_entry, tables, rng)
            target = next(t for t in tables if t.table == move.to_table)
            hand = next_hand(target)
            if hand is not None:
                assert move.to_seat != hand.small_blind_position and move.to_seat != hand.button
                assert not _between(move.to_seat, hand.button, hand.small_blind_position, target.seats)
            field.add(next_entry)
            tables = apply(tables, Plan(moves=(move,)))
            next_entry += 1
        else:
            for entry in rng.sample(sorted(field), rng.randint(1, min(3, len(field) - 1))):
                field.discard(entry)
                tables = tuple(replace(t, players=tuple(p for p in t.players if p[1] != entry)) for t in tables)
        more_than_one_table |= len(tables) > 1
        result = plan(tables, options=options, break_order=break_order, rng=rng)
        after = apply(tables, result)
        _check_legal(after, field)
        _check_plan(tables, result, after, options)
        tables = after
        again = plan(tables, options=options, break_order=break_order, rng=rng)
        assert again.empty and again.halted == (), (again, [t.count for t in tables])
        if len(tables) > 1:
            assert max(t.count for t in tables) - min(t.count for t in tables) <= 1
            assert len(field) > final_size
            if final_size >= 7:
                # Final tables of 7 or more: no table is left at or below the halting count (C-18). A
                # smaller final table can leave two short tables that no move helps: a warning then.
                assert min(t.count for t in tables) > options.halt_if_table_players_le
    assert len(tables) == 1
    assert tables[0].final == more_than_one_table


def _button_from(number: int, table: TableSeats) -> int:
    occupied = {s for s, _ in table.players}
    seat = number
    while seat not in occupied:
        seat = seat % table.seats + 1
    return seat


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 120), seats=st.sampled_from([6, 8, 9, 10]), seed=st.integers(0, 2**32 - 1))
def test_cc82_a_draw_is_even_and_every_table_takes_the_button_from_one_drawn_seat_number(players, seats, seed):
    tables, moves = draw_seats(list(range(players)), seats, random.Random(seed))
    assert max(t.count for t in tables) - min(t.count for t in tables) <= 1
    assert sorted(m.entry for m in moves) == list(range(players))
    assert any(all(t.button == _button_from(number, t) for t in tables) for number in range(1, seats + 1))
