"""The race each table owes after a colour-up break, computed from the stacks (issue #36; TDA-24-A, CC-68..70)."""

from __future__ import annotations

import random

from casino.rules.tournament.chip_race import odd_chips_of, race, race_due

DENOMINATIONS = (25, 100, 500, 1_000)
AFTER_THE_25S = (100, 500, 1_000)


def test_cc68_no_race_is_due_while_every_denomination_is_in_play():
    assert race_due(1, [(1, 10)], {10: 10_025}, denominations=DENOMINATIONS, in_play=DENOMINATIONS) is None


def test_cc68_no_race_is_due_when_every_stack_is_a_whole_number_of_the_smallest_chip_left():
    players = [(1, 10), (2, 20)]
    assert race_due(1, players, {10: 10_000, 20: 9_900}, denominations=DENOMINATIONS, in_play=AFTER_THE_25S) is None


def test_tda24a_the_odd_chips_are_what_the_smallest_chip_left_cannot_pay_counted_in_the_chip_removed():
    assert odd_chips_of(10_175, removed=25, into=100) == 3
    assert odd_chips_of(9_850, removed=25, into=100) == 2
    assert odd_chips_of(10_000, removed=25, into=100) == 0


def test_tda24a_the_race_due_lists_each_player_with_odd_chips_seat_1_first_into_the_smallest_chip_left():
    players = [(4, 40), (1, 10), (2, 20), (6, 60)]
    stacks = {10: 9_850, 20: 10_000, 40: 10_175, 60: 25}
    due = race_due(3, players, stacks, denominations=DENOMINATIONS, in_play=AFTER_THE_25S)
    assert due is not None and due.table == 3
    assert (due.removed, due.into, due.smallest_left) == (25, 100, 100)
    assert due.odd_chips == ((1, 10, 2), (4, 40, 3), (6, 60, 1))
    assert due.cards == 6


def test_cc69_two_denominations_removed_at_one_break_race_as_one_in_the_smallest_into_the_smallest_left():
    due = race_due(1, [(1, 10)], {10: 10_175}, denominations=(25, 100, 500, 1_000), in_play=(500, 1_000))
    assert due is not None and (due.removed, due.into) == (25, 500)
    assert due.odd_chips == ((1, 10, 7),)  # 175 is worth 7 chips of 25


def test_tda24a_the_race_due_runs_as_is_and_leaves_every_stack_a_whole_number_of_the_chip_left():
    players = [(1, 10), (2, 20), (3, 30), (5, 50)]
    stacks = {10: 9_850, 20: 10_075, 30: 25, 50: 4_000}
    due = race_due(1, players, stacks, denominations=DENOMINATIONS, in_play=AFTER_THE_25S)
    result = race(due.odd_chips, stacks, removed=due.removed, into=due.into, smallest_left=due.smallest_left,
                  rng=random.Random(36))
    after = dict(result.stacks)
    assert all(chips % 100 == 0 for chips in after.values())
    assert after[30] >= 100  # CC-69: the player with one chip of 25 is not raced out
    assert after[50] == 4_000
    again = race_due(1, players, after, denominations=DENOMINATIONS, in_play=AFTER_THE_25S)
    assert again is None


def test_cc70_the_same_seed_draws_the_same_race():
    players = [(1, 10), (2, 20)]
    stacks = {10: 9_850, 20: 10_075}
    due = race_due(1, players, stacks, denominations=DENOMINATIONS, in_play=AFTER_THE_25S)
    one = race(due.odd_chips, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(7))
    two = race(due.odd_chips, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(7))
    assert one == two


def test_tda24a_after_the_25s_race_the_100s_odd_chips_are_counted_as_100s_not_as_25s():
    players = [(1, 10), (2, 20)]
    stacks = {10: 10_300, 20: 9_700}
    due = race_due(1, players, stacks, denominations=(25, 100, 500, 1_000), in_play=(500, 1_000))
    assert due is not None and (due.removed, due.into) == (100, 500)
    assert due.odd_chips == ((1, 10, 3), (2, 20, 2))
