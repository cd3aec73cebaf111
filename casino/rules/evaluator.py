"""Hand ranking (THB-10, THB-11, THB-60, THB-68; TDA-12 the cards speak).

A thin wrapper over phevaluator (a perfect-hash evaluator in C, ~5 M seven-
card hands a second through Python here). Its rank runs from 1 (a royal
flush) to 7462 (7-5-4-3-2 offsuit), smaller is stronger, and equal ranks are
exactly the ties THB-68 describes (same five-card combination, suits ignored).

``HandValue`` turns that into something a dealer's screen can use: a value
that compares with ``>`` meaning "beats", the category name and the five
cards that make the hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import total_ordering
from itertools import combinations

from phevaluator import _pheval

from casino.rules.cards import Card, check_no_duplicates, parse_card
from casino.rules.errors import N_

_EVALUATE = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
WORST_RANK = 7462


class Category(Enum):
    """Hand categories, low to high (THB-10). Values are the names the JSON formats use."""

    HIGH_CARD = "high-card"
    ONE_PAIR = "one-pair"
    TWO_PAIR = "two-pair"
    THREE_OF_A_KIND = "three-of-a-kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full-house"
    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    ROYAL_FLUSH = "royal-flush"

    @property
    def order(self) -> int:
        return _CATEGORY_ORDER[self]

    def __ge__(self, other: Category) -> bool:
        return self.order >= other.order

    def __gt__(self, other: Category) -> bool:
        return self.order > other.order

    def __le__(self, other: Category) -> bool:
        return self.order <= other.order

    def __lt__(self, other: Category) -> bool:
        return self.order < other.order


_CATEGORY_ORDER = {c: i for i, c in enumerate(Category)}

#: Each category's name as a screen says it, marked for translation (the same words as the pit's screens,
#: so one catalogue entry serves both); the screen translates it in the viewer's language.
HAND_NAMES = {
    Category.HIGH_CARD: N_("High card"),
    Category.ONE_PAIR: N_("Pair"),
    Category.TWO_PAIR: N_("Two pair"),
    Category.THREE_OF_A_KIND: N_("Three of a kind"),
    Category.STRAIGHT: N_("Straight"),
    Category.FLUSH: N_("Flush"),
    Category.FULL_HOUSE: N_("Full house"),
    Category.FOUR_OF_A_KIND: N_("Four of a kind"),
    Category.STRAIGHT_FLUSH: N_("Straight flush"),
    Category.ROYAL_FLUSH: N_("Royal flush"),
}

# phevaluator's rank boundaries: the last (weakest) rank of each category.
_CATEGORY_BOUNDS = (
    (1, Category.ROYAL_FLUSH),
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.ONE_PAIR),
    (WORST_RANK, Category.HIGH_CARD),
)


def category_of_rank(rank: int) -> Category:
    """The category of a phevaluator rank (1..7462)."""
    for last, category in _CATEGORY_BOUNDS:
        if rank <= last:
            return category
    raise ValueError(f"{rank} is not a hand rank (1..{WORST_RANK})")


def rank_cards(cards: Sequence[Card]) -> int:
    """phevaluator's rank of the best five of 5-7 cards: 1 is a royal flush, smaller is stronger."""
    fn = _EVALUATE.get(len(cards))
    if fn is None:
        raise ValueError(f"a poker hand is ranked from 5 to 7 cards, not {len(cards)}")
    return fn(*(c.id for c in cards))


@total_ordering
@dataclass(frozen=True, slots=True)
class HandValue:
    """The best five-card hand from 5-7 cards. ``a > b`` means a beats b."""

    rank: int
    category: Category
    best_five: tuple[Card, ...]

    @property
    def strength(self) -> int:
        """Higher is stronger: 1 for the worst hand up to 7462 for a royal flush."""
        return WORST_RANK + 1 - self.rank

    def __lt__(self, other: HandValue) -> bool:
        return self.rank > other.rank

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.rank == other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def describe(self) -> str:
        return f"{self.category.value} ({' '.join(map(str, self.best_five))})"


def evaluate(cards: Iterable[Card | str]) -> HandValue:
    """Rank the best five of 5-7 cards and name the five that make it (THB-46)."""
    hand = tuple(parse_card(c) for c in cards)
    check_no_duplicates(hand, "a hand")
    rank = rank_cards(hand)
    if len(hand) == 5:
        best = hand
    else:
        best = next(five for five in combinations(hand, 5) if rank_cards(five) == rank)
    # Show the five cards strongest first, as a dealer spreads them.
    best = tuple(sorted(best, key=lambda c: (-c.rank_index, c.suit)))
    return HandValue(rank=rank, category=category_of_rank(rank), best_five=best)


def compare(a: Iterable[Card | str], b: Iterable[Card | str]) -> int:
    """1 if hand a beats hand b, -1 if it loses, 0 for a tie (THB-68, TDA-12)."""
    ra, rb = evaluate(a).rank, evaluate(b).rank
    return (ra < rb) - (ra > rb)
