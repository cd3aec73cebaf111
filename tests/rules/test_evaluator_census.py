"""The evaluator, verified over every five-card hand (THB-10, THB-11, THB-68)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, starmap

from phevaluator import _pheval

from casino.rules.evaluator import Category, category_of_rank, compare, evaluate
from casino.rules.evaluator_census import FIVE_CARD_COUNTS, SEVEN_CARD_COUNTS, take_census


def test_all_2598960_five_card_hands_give_the_known_category_counts_and_7462_ranks_THB_10():
    ranks = Counter(starmap(_pheval.evaluate_5cards, combinations(range(52), 5)))
    categories = Counter()
    for rank, n in ranks.items():
        categories[category_of_rank(rank)] += n
    assert len(ranks) == 7462
    assert dict(categories) == FIVE_CARD_COUNTS
    assert sum(categories.values()) == 2_598_960


def test_the_census_agrees_with_the_published_five_card_counts_over_two_processes():
    census = take_census(5, processes=2)
    assert census.mismatches() == []


def test_the_published_seven_card_counts_add_up_to_every_seven_card_hand():
    assert sum(SEVEN_CARD_COUNTS.values()) == 133_784_560
    assert SEVEN_CARD_COUNTS[Category.ROYAL_FLUSH] + SEVEN_CARD_COUNTS[Category.STRAIGHT_FLUSH] == 41_584


def test_the_ace_plays_low_in_the_wheel_THB_10():
    assert evaluate("Ah 2c 3d 4s 5h".split()).category is Category.STRAIGHT
    assert compare("Ah 2c 3d 4s 5h".split(), "2h 3c 4d 5s 6h".split()) == -1


def test_hands_of_the_same_combination_tie_whatever_the_suits_THB_68():
    assert compare("Ah Kh 9c 7d 2s".split(), "As Ks 9d 7h 2c".split()) == 0
    assert compare("Ah Kh 9c 7d 3s".split(), "As Ks 9d 7h 2c".split()) == 1
