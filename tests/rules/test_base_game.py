"""The base game's analyser (THB-47..50, THB-56, THB-68; C-29b the ante's house option).

The full deck's count takes minutes on every core, so the suite checks the same code on reduced decks
against a plain brute force that shares nothing with it but the rules (it ranks hands with the
project's evaluator, phevaluator, and walks every deal), and checks the stored full-deck figures
against the published ones.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

pytest.importorskip("numba")

from casino.rules.cards import Card  # noqa: E402
from casino.rules.evaluator import Category, category_of_rank, rank_cards  # noqa: E402
from casino.rules.holdem_bonus import base_game  # noqa: E402
from casino.rules.holdem_bonus.base_game import (  # noqa: E402
    ANTE_OPTIONS,
    analyse,
    hole_class_name,
    published_base_game_figures,
    stored_analysis,
    strength_of,
)

ANTE_FROM = {"straight": Category.STRAIGHT, "flush": Category.FLUSH}


def test_the_kernels_evaluator_orders_hands_as_the_projects_evaluator_does_thb_10_thb_68():
    rng = random.Random(20261124)
    deck = [Card.from_id(i) for i in range(52)]
    hands = [rng.sample(deck, 7) for _ in range(4000)]
    # Every wheel and every straight flush shape at least once, which random deals rarely give.
    hands += [[Card.from_id(i) for i in ids] for ids in (
        (48, 0, 4, 8, 12, 33, 45), (49, 1, 5, 9, 13, 50, 22), (32, 36, 40, 44, 48, 0, 1))]
    import numpy as np

    ranks = [rank_cards(h) for h in hands]
    strengths = [strength_of(np.array([c.id for c in h], np.int64)) for h in hands]
    for rank, strength in zip(ranks, strengths, strict=True):
        category = category_of_rank(rank)
        for option, threshold in base_game._ANTE_THRESHOLD.items():
            assert (strength >= threshold) == (category >= ANTE_FROM[option])
    for (ra, sa), (rb, sb) in zip(zip(ranks, strengths, strict=True), zip(ranks[1:], strengths[1:], strict=True),
                                  strict=False):
        # phevaluator: smaller is stronger; the kernel: larger is stronger; equal is a tie in both.
        assert (ra < rb) == (sa > sb) and (ra == rb) == (sa == sb)


def _brute_force(deck: list[Card]) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """The house edge, per ante option, by walking every deal and deciding each bet by its value.

    Also returns each hole class's value of playing on, to compare class by class.
    """
    ids = sorted(c.id for c in deck)
    rank_of = {}
    for seven in combinations(ids, 7):
        rank_of[frozenset(seven)] = rank_cards([Card.from_id(i) for i in seven])
    per_option = {o: Fraction(0) for o in ANTE_OPTIONS}
    wager = {o: Fraction(0) for o in ANTE_OPTIONS}
    class_values: dict[str, set] = {}
    holes = list(combinations(ids, 2))
    for hole in holes:
        rest = [c for c in ids if c not in hole]
        values = {o: Fraction(0) for o in ANTE_OPTIONS}
        extra_bets = Fraction(0)
        flops = list(combinations(rest, 3))
        for flop in flops:
            after_flop = [c for c in rest if c not in flop]
            turn_wl = 0
            river_values = 0
            river_bets = 0
            money = {o: 0 for o in ANTE_OPTIONS}
            for turn in after_flop:
                after_turn = [c for c in after_flop if c != turn]
                wl_this_turn = 0
                for river in after_turn:
                    board = (*flop, turn, river)
                    mine = rank_of[frozenset((*hole, *board))]
                    dealer_cards = [c for c in after_turn if c != river]
                    wins = losses = 0
                    for dealer in combinations(dealer_cards, 2):
                        theirs = rank_of[frozenset((*dealer, *board))]
                        wins += mine < theirs
                        losses += mine > theirs
                    for o in ANTE_OPTIONS:
                        ante = (wins if category_of_rank(mine) >= ANTE_FROM[o] else 0) - losses
                        money[o] += ante + 2 * (wins - losses)
                    wl_this_turn += wins - losses
                # The river bet, decided knowing the turn: made when it wins more than it loses.
                if wl_this_turn > 0:
                    river_values += wl_this_turn
                    river_bets += 1
                turn_wl += wl_this_turn
            turn_value = max(0, turn_wl)
            dealer_count = len(list(combinations(range(len(after_flop) - 2), 2)))
            deals = len(after_flop) * (len(after_flop) - 1) * dealer_count
            for o in ANTE_OPTIONS:
                values[o] += Fraction(money[o] + turn_value + river_values, deals)
            extra_bets += (1 if turn_wl > 0 else 0) + Fraction(river_bets, len(after_flop))
        for o in ANTE_OPTIONS:
            value = values[o] / len(flops)
            class_values.setdefault(hole_class_name(hole), set()).add((o, value))
            if value > -1:
                per_option[o] += value
                wager[o] += 3 + extra_bets / len(flops)
            else:
                per_option[o] -= 1
                wager[o] += 1
    edges = {o: (-per_option[o] / len(holes), wager[o] / len(holes)) for o in ANTE_OPTIONS}
    return edges, class_values


def _matches_the_brute_force(ranks: str) -> None:
    # Six ranks in two suits: straights (the wheel in A23456), flushes and every other hand occur.
    deck = [Card(r, s) for r in ranks for s in "cd"]
    edges, class_values = _brute_force(deck)
    analysis = analyse(deck)
    for option in ANTE_OPTIONS:
        figures = analysis.figures(option)
        assert figures.house_edge == edges[option][0]
        assert figures.average_wager == edges[option][1]
    for c in analysis.classes:
        # Every hole hand of a class has the same value (the suit symmetry the analyser relies on).
        assert class_values[c.name] == {(o, c.value[i]) for i, o in enumerate(ANTE_OPTIONS)}


@pytest.fixture
def the_kernel_interpreted(monkeypatch):
    """The kernel's own Python run by the interpreter (numba's ``py_func``), not compiled: the same
    arithmetic without the compile, which takes a minute or more where numba's cache is cold."""
    for name, value in list(vars(base_game).items()):
        if hasattr(value, "py_func"):
            monkeypatch.setattr(base_game, name, value.py_func)


@pytest.mark.parametrize("ranks", ["9TJQKA", "A23456"])
def test_the_analysers_arithmetic_matches_a_brute_force_on_a_reduced_deck_thb_47_to_50(
        ranks, the_kernel_interpreted):
    assert not hasattr(base_game._flop_totals, "py_func")  # interpreted indeed
    _matches_the_brute_force(ranks)


@pytest.mark.slow
@pytest.mark.parametrize("ranks", ["9TJQKA", "A23456"])
def test_the_compiled_analyser_matches_a_brute_force_on_a_reduced_deck_to_the_last_chip_thb_47_to_50(ranks):
    _matches_the_brute_force(ranks)


def test_the_stored_full_deck_figures_are_the_published_ones_to_four_significant_digits_thb_50():
    figures = published_base_game_figures()
    assert f"{float(figures['straight'].house_edge) * 100:.4g}" == "2.037"
    assert f"{float(figures['straight'].element_of_risk) * 100:.4g}" == "0.5335"
    assert f"{float(figures['flush'].house_edge) * 100:.5g}" == "5.5935"


def test_the_stored_strategy_is_consistent_with_its_own_numbers():
    analysis = stored_analysis()
    assert analysis.deck_size == 52
    assert len(analysis.classes) == 169
    assert sum(c.hands for c in analysis.classes) == 1326
    # Paying the ante from a flush rather than a straight never makes a hand worth more.
    for c in analysis.classes:
        assert c.value[1] <= c.value[0]
        assert 0 <= c.turn_bets <= 1 and 0 <= c.river_bets <= 1
    by_name = {c.name: c for c in analysis.classes}
    # Aces always play, and a hand worth more than the folded ante plays.
    assert by_name["AA"].plays(0) and by_name["AA"].value[0] > 0
    assert all(c.plays(0) == (c.value[0] > -1) for c in analysis.classes)
