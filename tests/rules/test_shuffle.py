"""The shuffle: the OS CSPRNG, a complete deck, uniform positions (THB-03, THB-32; 25 CFR 547.14).

Uniformity is checked by a chi-square test on the position of every card
over a fixed number of shuffles: a 52 x 52 table of (card, position) counts,
100 expected in each cell. When the shuffle is uniform each cell is a
binomial count (N shuffles, p = 1/52) against a known expectation, so the
statistic's mean is 52 x 52 x (1 - p) = 52 x 51 = 2,652, and it follows a
chi-square law with that many degrees of freedom (not the 51 x 51 of a
table whose expectations are estimated from its margins: with those, a fair
shuffle failed one sample in 25, measured over 80 samples: mean 2,649,
standard deviation 68). It must stay below the 99% critical value.

A fair shuffle still fails such a test 1 time in 100. The RNG cannot be
seeded (it is the OS CSPRNG, on purpose), so the test draws fresh shuffles
once more after a failure and fails only if both samples fail: a fair
shuffle then fails 1 run in 10,000, while a biased one (see the last test)
fails both samples every time.
"""

from __future__ import annotations

import random
from math import sqrt

import pytest

from casino.rules.cards import full_deck
from casino.rules.errors import RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM, Shoe, shuffled_deck

SHUFFLES = 5_200  # 100 expected per (card, position) cell
Z_99 = 2.3263478740408408  # the standard normal's 99th percentile
DEGREES = 52 * 51  # see the module's docstring


def chi_square_critical_99(k: int) -> float:
    """Wilson-Hilferty approximation of the chi-square 99% quantile (within 0.1% for k this large)."""
    h = 2 / (9 * k)
    return k * (1 - h + Z_99 * sqrt(h)) ** 3


def position_chi_square(shuffle) -> float:
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(SHUFFLES):
        for position, card in enumerate(shuffle()):
            counts[card.id][position] += 1
    expected = SHUFFLES / 52
    return sum((n - expected) ** 2 / expected for row in counts for n in row)


def is_uniform(shuffle) -> bool:
    limit = chi_square_critical_99(DEGREES)
    return position_chi_square(shuffle) < limit or position_chi_square(shuffle) < limit


def test_the_critical_value_matches_the_published_table_value():
    # Published 99% quantiles: 77.386 (51 degrees), 135.807 (100 degrees).
    assert chi_square_critical_99(51) == pytest.approx(77.386, rel=2e-3)
    assert chi_square_critical_99(100) == pytest.approx(135.807, rel=1e-3)


def test_the_shuffle_draws_from_the_operating_systems_csprng_THB_32():
    assert isinstance(SYSTEM_RANDOM, random.SystemRandom)


def test_the_shuffle_never_uses_the_random_modules_own_functions(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("random module function used")

    for name in ("shuffle", "random", "randrange", "randint", "choice", "sample", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    assert len(shuffled_deck()) == 52


def test_a_shuffled_deck_is_always_complete_THB_03():
    for _ in range(50):
        assert sorted(shuffled_deck()) == list(full_deck())


def test_every_card_is_equally_likely_in_every_position_at_99_percent_confidence():
    assert is_uniform(shuffled_deck)


def test_the_uniformity_test_catches_a_biased_shuffle():
    def sticky_bottom_card():
        cards = list(shuffled_deck())
        if SYSTEM_RANDOM.random() < 0.1:  # the ace of spades stays at the bottom one time in ten
            cards.remove(full_deck()[51])
            cards.append(full_deck()[51])
        return cards

    assert not is_uniform(sticky_bottom_card)


def test_the_shoe_deals_from_the_top_and_burns_one_THB_42():
    shoe = Shoe.from_cards([str(c) for c in full_deck()])
    (first, second), rest = shoe.deal(2)
    assert (str(first), str(second)) == ("2c", "2d")
    burned, rest = rest.burn()
    assert str(burned) == "2h" and len(rest) == 49


def test_a_shoe_refuses_a_defective_deck_THB_22():
    cards = [str(c) for c in full_deck()][:-1] + ["2c"]
    with pytest.raises(RuleViolation, match="duplicated: 2c; missing: As"):
        Shoe.from_cards(cards)
