"""Exact odds of the Bonus bet for any paytable, by counting (fractions, never simulation).

The Bonus is settled on the player's two cards and, for ``aa-vs-dealer-aa``,
the dealer's two (THB-51, THB-53). Every ordered deal of a player pair and a
dealer pair from one deck is equally likely, so the probability of an award
is a count over the C(52,2) x C(50,2) = 1,326 x 1,225 = 1,624,350 such deals.
Other boxes' cards do not change it: averaged over them, the player's and the
dealer's cards are still two uniform pairs of the same deck.

Only a player A-A can depend on the dealer's cards, so the dealer's pairs are
walked for those six holdings alone; every other holding has a fixed award
and weighs 1,225 deals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

from casino.rules.cards import full_deck
from casino.rules.holdem_bonus.paytable import AWARD_DESCRIPTIONS, Paytable, get_paytable

PLAYER_PAIRS = comb(52, 2)
DEALER_PAIRS = comb(50, 2)
TOTAL_DEALS = PLAYER_PAIRS * DEALER_PAIRS


@dataclass(frozen=True, slots=True)
class AwardOdds:
    """One award's exact chance and what it gives back per unit staked."""

    award: str
    pays: int
    deals: int
    probability: Fraction

    @property
    def expected_return(self) -> Fraction:
        """Contribution to the bet's expected net per unit staked (probability x odds)."""
        return self.probability * self.pays

    def to_dict(self) -> dict:
        return {
            "award": self.award,
            "description": AWARD_DESCRIPTIONS[self.award],
            "pays": self.pays,
            "deals": self.deals,
            "probability": float(self.probability),
            "probability_exact": f"{self.probability.numerator}/{self.probability.denominator}",
        }


@dataclass(frozen=True, slots=True)
class PaytableOdds:
    """The full report for a paytable: each award's odds, the losing chance and the house edge."""

    paytable: Paytable
    awards: tuple[AwardOdds, ...]
    lose_probability: Fraction

    @property
    def expected_net(self) -> Fraction:
        """The player's expected net per unit staked (negative: the house's advantage)."""
        return sum((a.expected_return for a in self.awards), Fraction(0)) - self.lose_probability

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per unit staked on the Bonus."""
        return -self.expected_net

    def to_dict(self) -> dict:
        """The ``paytable_report --json`` answer: ``{"awards": [...], "house_edge": <float>}``."""
        return {"awards": [a.to_dict() for a in self.awards], "house_edge": float(self.house_edge)}


def award_deal_counts(paytable: Paytable | str) -> Counter[str | None]:
    """How many of the 1,624,350 (player pair, dealer pair) deals give each award; ``None`` counts losses."""
    table = get_paytable(paytable)
    deck = full_deck()
    counts: Counter[str | None] = Counter()
    for hole in combinations(deck, 2):
        if table.needs_dealer_cards(hole):
            rest = [c for c in deck if c not in hole]
            for dealer in combinations(rest, 2):
                counts[table.award_for(hole, dealer)] += 1
        else:
            counts[table.award_for(hole)] += DEALER_PAIRS
    return counts


def paytable_odds(paytable: Paytable | str) -> PaytableOdds:
    """Exact probability of every award of a paytable and the Bonus bet's house edge."""
    table = get_paytable(paytable)
    counts = award_deal_counts(table)
    awards = tuple(
        AwardOdds(award=key, pays=odds, deals=counts[key], probability=Fraction(counts[key], TOTAL_DEALS))
        for key, odds in table.pays.items()
    )
    return PaytableOdds(paytable=table, awards=awards, lose_probability=Fraction(counts[None], TOTAL_DEALS))


def bonus_house_edge(paytable: Paytable | str) -> Fraction:
    """The Bonus bet's exact house edge (per unit staked) under a paytable."""
    return paytable_odds(paytable).house_edge
