"""The chip race at a colour-up (TDA-24-A/B/C, CC-68/69)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.rules.cards import parse_card
from casino.rules.errors import RuleViolation
from casino.rules.tournament.chip_race import card_strength, chips_to_race, exchange_leftover, race


def test_chips_raced_are_the_odd_chips_value_to_the_nearest_chip_half_rounding_up():
    assert chips_to_race(75, 100) == 1
    assert chips_to_race(50, 100) == 1
    assert chips_to_race(25, 100) == 0
    assert chips_to_race(225, 100) == 2
    assert chips_to_race(250, 100) == 3


def test_cards_rank_first_then_suit_spades_hearts_diamonds_clubs():
    order = [parse_card(text) for text in ("2s", "Ac", "Ad", "Ah", "As")]
    assert sorted(order, key=card_strength) == order


def test_tda24a_one_card_per_odd_chip_dealt_one_at_a_time_from_seat_1():
    odd = ((5, 50, 1), (1, 10, 3), (3, 30, 2))
    result = race(odd, {10: 1_075, 30: 550, 50: 925}, removed=25, into=100, smallest_left=100,
                  rng=random.Random(1))
    assert [entry for entry, _ in result.cards] == [10, 30, 50]
    assert [len(cards) for _, cards in result.cards] == [3, 2, 1]
    dealt = [card for _, cards in result.cards for card in cards]
    assert len(set(dealt)) == 6


def test_the_best_cards_win_one_chip_each_and_the_odd_chips_are_given_up():
    # 3 + 2 + 1 odd chips of 25 = 150 -> 2 chips of 100 raced (150 is one and a half chips: rounds up).
    odd = ((1, 10, 3), (3, 30, 2), (5, 50, 1))
    stacks = {10: 1_075, 30: 550, 50: 925, 70: 2_000}
    result = race(odd, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(7))
    best = {entry: max((parse_card(card) for card in cards), key=card_strength) for entry, cards in result.cards}
    expected = sorted(best, key=lambda entry: card_strength(best[entry]), reverse=True)[:2]
    assert list(result.won) == expected
    after = dict(result.stacks)
    for entry, count in ((10, 3), (30, 2), (50, 1)):
        assert after[entry] == stacks[entry] - count * 25 + (100 if entry in result.won else 0)
    assert after[70] == 2_000
    assert result.removed_value == 150 - 200


def test_tda24a_cc69_no_one_is_raced_out_a_player_left_with_nothing_gets_the_smallest_chip():
    # Seat 2 has only one odd chip of 25; two players race for one chip (50 = half a chip, rounds up).
    for seed in range(20):
        result = race(((1, 1, 1), (2, 2, 1)), {1: 525, 2: 25}, removed=25, into=100, smallest_left=100,
                      rng=random.Random(seed))
        after = dict(result.stacks)
        assert after[2] == 100
        assert result.rescued == (() if 2 in result.won else (2,))


def test_whole_chips_are_exchanged_and_a_lone_quarter_chip_is_removed_without_compensation():
    result = race(((1, 1, 5),), {1: 1_125}, removed=25, into=100, smallest_left=100, rng=random.Random(3))
    assert len(result.cards[0][1]) == 1  # 5 chips of 25: 4 exchanged for one of 100, one odd chip raced
    assert result.won == ()
    assert dict(result.stacks) == {1: 1_100}
    assert result.removed_value == 25


def test_the_same_seed_gives_the_same_race():
    odd = ((1, 10, 3), (3, 30, 2), (5, 50, 1))
    stacks = {10: 1_075, 30: 550, 50: 925}
    first = race(odd, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(42))
    assert race(odd, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(42)) == first


def test_a_race_that_cannot_be_run_is_refused():
    with pytest.raises(RuleViolation):
        race(((1, 1, 1),), {1: 25}, removed=100, into=25, smallest_left=100, rng=random.Random(1))
    with pytest.raises(RuleViolation, match="Seat 1 cannot race"):
        race(((1, 1, 9),), {1: 25}, removed=25, into=100, smallest_left=100, rng=random.Random(1))
    with pytest.raises(RuleViolation, match="more than one deck"):
        race(tuple((seat, seat, 19) for seat in range(1, 4)), {seat: 1_000 for seat in range(1, 4)},
             removed=5, into=100, smallest_left=100, rng=random.Random(1))


def test_tda24c_leftover_chips_are_exchanged_for_the_smallest_chip_and_the_rest_removed():
    assert exchange_leftover(275, 100) == (200, 75)
    assert exchange_leftover(50, 100) == (0, 50)


@given(seed=st.integers(0, 2**32), counts=st.lists(st.integers(0, 7), min_size=2, max_size=10),
       extra=st.lists(st.sampled_from([0, 100, 500, 1_000]), min_size=10, max_size=10))
def test_the_race_conserves_chips_and_nobody_wins_two_or_is_raced_out(seed, counts, extra):
    odd = tuple((seat, 100 + seat, count) for seat, count in enumerate(counts, start=1))
    stacks = {100 + seat: count * 25 + extra[seat - 1] for seat, count in enumerate(counts, start=1)}
    result = race(odd, stacks, removed=25, into=100, smallest_left=100, rng=random.Random(seed))
    after = dict(result.stacks)
    assert sum(stacks.values()) - result.removed_value == sum(after.values())
    assert len(set(result.won)) == len(result.won)
    assert all(stack > 0 for entry, stack in after.items() if stacks[entry] > 0)
    racing = {entry for entry, _ in result.cards}
    assert len(result.won) == min(len(racing), chips_to_race(result.raced_value, 100))
