"""Hands per second of the hand evaluator (issue 3, docs/benchmarks.md).

Prints three figures for 1,000,000 random seven-card hands: phevaluator's C
call driven by ``itertools.starmap`` (the loop ``verify_evaluator`` uses),
the engine's ``rank_cards`` (what settlement calls) and ``evaluate`` (rank,
category and best five cards, for the dealer's screen; measured on fewer
hands since it is slower).

    .venv/bin/python bench/bench_evaluator.py
"""

from __future__ import annotations

import random
import time
from itertools import starmap

from phevaluator import _pheval

from casino.rules.cards import full_deck
from casino.rules.evaluator import evaluate, rank_cards

HANDS = 1_000_000


def timed(label: str, count: int, run) -> None:
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    print(f"{label:<44} {count / seconds / 1e6:8.2f} M hands/s  ({count:,} hands in {seconds:.2f} s)")


def main() -> None:
    rng = random.Random(2026_11_22)  # fixed hands, so runs compare
    ids = [tuple(rng.sample(range(52), 7)) for _ in range(HANDS)]
    deck = full_deck()
    cards = [tuple(deck[i] for i in hand) for hand in ids[:200_000]]
    timed("phevaluator evaluate_7cards (starmap, C)", HANDS, lambda: sum(starmap(_pheval.evaluate_7cards, ids)))
    timed("casino.rules.evaluator.rank_cards", len(cards), lambda: [rank_cards(h) for h in cards])
    timed("casino.rules.evaluator.evaluate (best five)", 20_000, lambda: [evaluate(h) for h in cards[:20_000]])


if __name__ == "__main__":
    main()
