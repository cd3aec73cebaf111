"""Count every poker hand through the evaluator and compare with the published counts (THB-10).

The evaluator is a library, so it is verified rather than trusted: all
2,598,960 five-card hands give 7,462 distinct ranks in the known category
counts, and all 133,784,560 seven-card hands give the counts below
(``python manage.py verify_evaluator``).

The work is split by the two lowest cards of each hand (1,326 tasks) and
spread over worker processes; within a task, ``itertools`` and
``collections.Counter`` keep the loop in C (``starmap`` over ``combinations``
into phevaluator), some 4-5 million hands a second per core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import combinations, starmap
from math import comb

from phevaluator import _pheval

from casino.rules.evaluator import Category, category_of_rank

#: All 2,598,960 five-card hands by category.
FIVE_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}

#: All 133,784,560 seven-card hands by the category of their best five (straight flushes 41,584, royals included).
SEVEN_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 41_584 - 4_324,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}

PUBLISHED = {5: FIVE_CARD_COUNTS, 7: SEVEN_CARD_COUNTS}
DISTINCT_RANKS = {5: 7_462, 7: 4_824}
_EVALUATORS = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}


def count_ranks(task: tuple[int, int, int]) -> Counter[int]:
    """Ranks of every hand of ``size`` cards whose two lowest card ids are ``low`` and ``second``."""
    size, low, second = task
    evaluate = partial(_EVALUATORS[size], low, second)
    return Counter(starmap(evaluate, combinations(range(second + 1, 52), size - 2)))


def tasks(size: int) -> list[tuple[int, int, int]]:
    """One task per pair of lowest cards, biggest first so the workers finish together."""
    found = [(size, a, b) for a, b in combinations(range(52), 2) if 51 - b >= size - 2]
    return sorted(found, key=lambda t: -comb(51 - t[2], size - 2))


def task_size(task: tuple[int, int, int]) -> int:
    size, _, second = task
    return comb(51 - second, size - 2)


@dataclass(frozen=True)
class Census:
    """What counting every hand of one size found."""

    size: int
    categories: dict[Category, int]
    distinct_ranks: int

    @property
    def total(self) -> int:
        return sum(self.categories.values())

    def mismatches(self) -> list[str]:
        """Differences from the published figures, as sentences (empty when all agree)."""
        expected = PUBLISHED[self.size]
        found = [
            f"{c.value}: counted {self.categories.get(c, 0):,}, published {n:,}"
            for c, n in expected.items()
            if self.categories.get(c, 0) != n
        ]
        if self.total != comb(52, self.size):
            found.append(f"hands: counted {self.total:,}, there are {comb(52, self.size):,}")
        if self.distinct_ranks != DISTINCT_RANKS[self.size]:
            found.append(f"distinct ranks: counted {self.distinct_ranks:,}, known {DISTINCT_RANKS[self.size]:,}")
        return found


def take_census(size: int = 7, processes: int = 2, progress: Callable[[int], object] | None = None) -> Census:
    """Evaluate every hand of ``size`` (5 or 7) cards; ``progress(n)`` is told of each ``n`` hands done."""
    if size not in _EVALUATORS:
        raise ValueError(f"hands of {size} cards are not counted; choose 5 or 7")
    ranks: Counter[int] = Counter()
    work = tasks(size)
    if processes <= 1:
        results = map(count_ranks, work)
        for task, counted in zip(work, results):
            ranks.update(counted)
            if progress:
                progress(task_size(task))
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(processes) as pool:
            for counted in pool.imap_unordered(count_ranks, work):
                ranks.update(counted)
                if progress:
                    progress(counted.total())
    categories: Counter[Category] = Counter()
    for rank, n in ranks.items():
        categories[category_of_rank(rank)] += n
    return Census(size=size, categories=dict(categories), distinct_ranks=len(ranks))
