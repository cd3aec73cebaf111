"""The base game's exact house edge and element of risk under the optimal strategy (THB-47..50, THB-56).

The ante is 1; after the hole cards the player folds (losing the ante, THB-56) or bets the flop (2);
after the flop he checks or bets the turn (1); after the turn he checks or bets the river (1). At the
showdown against the dealer's two cards (no qualifying hand) the better hand wins flop, turn and river
1 to 1; the ante wins 1 to 1 only from the house's hand up (a straight, or as a house option a flush,
THB-50 / C-29b) and is otherwise returned; a tie returns everything (THB-68). The Bonus is a separate bet.

How it is counted, exactly (every deal, no sampling):

* The game's money is linear in the bets, so the later decisions separate: the river bet is worth
  ``E[W - L]`` (W, L: the dealer hands the player beats / loses to) given the hole cards and the
  four board cards, and is made when that is positive; the turn bet likewise given the flop. The
  preflop decision compares the whole hand's value with the ante lost by folding.
* For each five-card board, every two-card hand of the remaining cards is ranked once, sorted, and
  swept in order with a count of the hands already passed that hold each card: a hole hand's wins
  are the weaker hands less those that share one of its cards, so all its 990 dealer hands are
  counted at once (``_board_outcomes``).
* Suit symmetry: flops are grouped into classes under the suit permutations that keep the deck
  (1,755 for 52 cards), each counted once with its class size; the 1,326 hole hands fall into 169
  classes that play alike, and a class's total over all flops is the class size times its total over
  the representative flops (a suit permutation maps a flop's class members onto each other and keeps
  each hole class).
* The kernel is compiled with numba and spread over every core (``prange`` over the flop classes).
  All sums are integers; the figures are exact fractions.

The same code runs on any deck (a list of cards), so the suite checks it against a plain brute force
on a reduced deck (``tests/rules/test_base_game.py``). The full deck's figures are kept as data
(``data/base_game.json``), written by ``paytable_report --base-game --recompute``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations
from math import comb
from pathlib import Path

from casino.rules.cards import RANKS, SUITS, Card, parse_card

DATA_FILE = Path(__file__).with_name("data") / "base_game.json"
#: The house option for the ante (THB-50, C-29b): its name in the data and the lowest category it pays on.
ANTE_OPTIONS = ("straight", "flush")
# The kernel's strength: the hand category in the bits from 20 up, its ranks below. 4 is a straight,
# 5 a flush (see _strength).
_CATEGORY_SHIFT = 20
_ANTE_THRESHOLD = {"straight": 4 << _CATEGORY_SHIFT, "flush": 5 << _CATEGORY_SHIFT}

try:  # numpy and numba are the `analysis` extra: the rest of the engine never needs them.
    import numpy as np
    from numba import njit, prange
except ImportError:  # pragma: no cover - exercised where the extra is not installed
    np = None


def _require_analysis() -> None:
    if np is None:
        raise RuntimeError("the base game's analyser needs numpy and numba: pip install '.[analysis]'")


# --- The compiled kernel ------------------------------------------------------------------------------

if np is not None:

    @njit(cache=True, inline="always")
    def _straight_high(mask):
        """The highest straight's top rank in a 13-bit rank mask, 3 for the wheel, -1 for none."""
        for high in range(12, 3, -1):
            window = 0x1F << (high - 4)
            if mask & window == window:
                return high
        if mask & 0x100F == 0x100F:  # A-2-3-4-5
            return 3
        return -1

    @njit(cache=True, inline="always")
    def _top_ranks(mask, n, skip1, skip2):
        """The ``n`` highest ranks set in ``mask`` other than skip1 and skip2, packed 4 bits each."""
        packed = 0
        taken = 0
        for r in range(12, -1, -1):
            if taken == n:
                break
            if (mask >> r) & 1 and r != skip1 and r != skip2:
                packed = (packed << 4) | r
                taken += 1
        return packed

    @njit(cache=True)
    def _strength(counts, suit_masks):
        """A seven-card hand's strength: higher is better, equal is a tie (THB-68: suits never break one).

        Categories 0 high card .. 8 straight flush (a royal flush is the highest straight flush).
        """
        for s in range(4):
            m = suit_masks[s]
            bits = 0
            x = m
            while x:
                x &= x - 1
                bits += 1
            if bits >= 5:
                # Quads or a full house cannot share seven cards with a flush, so the flush decides.
                high = _straight_high(m)
                if high >= 0:
                    return (8 << 20) | high
                return (5 << 20) | _top_ranks(m, 5, -1, -1)
        ranks = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
        quads = -1
        trips1 = -1
        trips2 = -1
        pair1 = -1
        pair2 = -1
        for r in range(12, -1, -1):
            c = counts[r]
            if c == 4:
                quads = r
            elif c == 3:
                if trips1 < 0:
                    trips1 = r
                elif trips2 < 0:
                    trips2 = r
            elif c == 2:
                if pair1 < 0:
                    pair1 = r
                elif pair2 < 0:
                    pair2 = r
        if quads >= 0:
            return (7 << 20) | (quads << 4) | _top_ranks(ranks, 1, quads, -1)
        if trips1 >= 0 and (trips2 >= 0 or pair1 >= 0):
            return (6 << 20) | (trips1 << 4) | max(trips2, pair1)
        high = _straight_high(ranks)
        if high >= 0:
            return (4 << 20) | high
        if trips1 >= 0:
            return (3 << 20) | (trips1 << 8) | _top_ranks(ranks, 2, trips1, -1)
        if pair2 >= 0:
            return (2 << 20) | (pair1 << 8) | (pair2 << 4) | _top_ranks(ranks, 1, pair1, pair2)
        if pair1 >= 0:
            return (1 << 20) | (pair1 << 12) | _top_ranks(ranks, 3, pair1, -1)
        return _top_ranks(ranks, 5, -1, -1)

    @njit(cache=True)
    def strength_of(cards):
        """The strength of the card ids in ``cards`` (5 to 7 of them)."""
        counts = np.zeros(13, np.int64)
        masks = np.zeros(4, np.int64)
        for c in cards:
            counts[c >> 2] += 1
            masks[c & 3] |= 1 << (c >> 2)
        return _strength(counts, masks)

    @njit(cache=True)
    def _board_outcomes(board, others, strengths, order, seen, group_seen, wins, ties):
        """Every hand of two ``others``: its strength with ``board``, and its wins and ties against
        every other such hand that shares none of its cards.

        ``others`` are local card numbers 0..k-1 mapped to ids by the caller; hands are the pairs
        (i, j), i < j, of positions in ``others``, numbered in order. ``seen``/``group_seen`` are
        scratch counters indexed by position.
        """
        counts = np.zeros(13, np.int64)
        masks = np.zeros(4, np.int64)
        for c in board:
            counts[c >> 2] += 1
            masks[c & 3] |= 1 << (c >> 2)
        k = others.shape[0]
        n = 0
        for i in range(k):
            ci = others[i]
            for j in range(i + 1, k):
                cj = others[j]
                counts[ci >> 2] += 1
                counts[cj >> 2] += 1
                mi = masks[ci & 3]
                mj = masks[cj & 3]
                masks[ci & 3] |= 1 << (ci >> 2)
                masks[cj & 3] |= 1 << (cj >> 2)
                strengths[n] = _strength(counts, masks)
                masks[cj & 3] = mj
                masks[ci & 3] = mi
                counts[ci >> 2] -= 1
                counts[cj >> 2] -= 1
                n += 1
        order[:n] = np.argsort(strengths[:n])
        seen[:] = 0
        pair_i = np.empty(n, np.int64)
        pair_j = np.empty(n, np.int64)
        n = 0
        for i in range(k):
            for j in range(i + 1, k):
                pair_i[n] = i
                pair_j[n] = j
                n += 1
        passed = 0
        start = 0
        while start < n:
            level = strengths[order[start]]
            end = start
            while end < n and strengths[order[end]] == level:
                end += 1
            group_seen[:] = 0
            for g in range(start, end):
                h = order[g]
                group_seen[pair_i[h]] += 1
                group_seen[pair_j[h]] += 1
            size = end - start
            for g in range(start, end):
                h = order[g]
                a = pair_i[h]
                b = pair_j[h]
                # The weaker hands passed so far, less those holding one of this hand's cards (no
                # weaker hand holds both: that would be this hand).
                wins[h] = passed - seen[a] - seen[b]
                # The equal hands, less this hand and those sharing a card with it.
                ties[h] = size - (group_seen[a] + group_seen[b] - 1)
            for g in range(start, end):
                h = order[g]
                seen[pair_i[h]] += 1
                seen[pair_j[h]] += 1
            passed += size
            start = end

    @njit(cache=True, parallel=True)
    def _flop_totals(deck, flops, hole_class, n_classes, thresholds):
        """For each flop (rows of deck positions) and hole class, the integer totals over every hole
        hand of the class that misses the flop, every turn, river and dealer hand:

        0, 1: the hand's money played to the end under the optimal turn and river decisions, with the
              ante paid from thresholds[0] or thresholds[1] up;
        2: hole hands that bet the turn; 3: (hole hand, turn card) pairs that bet the river.
        """
        n = deck.shape[0]
        k = n - 3  # cards left after the flop: the hole hands, turns and rivers come from them
        n_flops = flops.shape[0]
        out = np.zeros((n_flops, n_classes, 4), np.int64)
        n_holes = k * (k - 1) // 2
        for f in prange(n_flops):
            rest = np.empty(k, np.int64)
            in_flop = np.zeros(n, np.bool_)
            for x in range(3):
                in_flop[flops[f, x]] = True
            m = 0
            for p in range(n):
                if not in_flop[p]:
                    rest[m] = p
                    m += 1
            hole_id = np.zeros((k, k), np.int64)
            h = 0
            for i in range(k):
                for j in range(i + 1, k):
                    hole_id[i, j] = h
                    h += 1
            money = np.zeros((2, n_holes), np.int64)
            wl_all = np.zeros(n_holes, np.int64)
            wl_turn = np.zeros((k, n_holes), np.int64)  # river decision: by turn card, summed over rivers
            board = np.empty(5, np.int64)
            others = np.empty(k - 2, np.int64)
            local = np.empty(k - 2, np.int64)
            size = (k - 2) * (k - 3) // 2
            strengths = np.empty(size, np.int64)
            order = np.empty(size, np.int64)
            seen = np.zeros(k - 2, np.int64)
            group_seen = np.zeros(k - 2, np.int64)
            wins = np.empty(size, np.int64)
            ties = np.empty(size, np.int64)
            dealer_hands = (k - 4) * (k - 5) // 2
            for x in range(3):
                board[x] = deck[flops[f, x]]
            for t in range(k):
                for r in range(t + 1, k):
                    board[3] = deck[rest[t]]
                    board[4] = deck[rest[r]]
                    m = 0
                    for q in range(k):
                        if q != t and q != r:
                            others[m] = deck[rest[q]]
                            local[m] = q
                            m += 1
                    _board_outcomes(board, others, strengths, order, seen, group_seen, wins, ties)
                    p = 0
                    for i in range(k - 2):
                        for j in range(i + 1, k - 2):
                            w = wins[p]
                            lose = dealer_hands - w - ties[p]
                            wl = w - lose
                            hid = hole_id[local[i], local[j]]
                            s = strengths[p]
                            # Both orders of (turn, river) are deals of their own: count each.
                            for o in range(2):
                                ante = (w if s >= thresholds[o] else 0) - lose
                                money[o, hid] += 2 * (ante + 2 * wl)
                            wl_all[hid] += 2 * wl
                            wl_turn[t, hid] += wl
                            wl_turn[r, hid] += wl
                            p += 1
            for i in range(k):
                for j in range(i + 1, k):
                    hid = hole_id[i, j]
                    c = hole_class[rest[i], rest[j]]
                    extra = 0
                    river_bets = 0
                    for t in range(k):
                        if wl_turn[t, hid] > 0:
                            extra += wl_turn[t, hid]
                            river_bets += 1
                    turn_bet = 1 if wl_all[hid] > 0 else 0
                    if turn_bet:
                        extra += wl_all[hid]
                    out[f, c, 0] += money[0, hid] + extra
                    out[f, c, 1] += money[1, hid] + extra
                    out[f, c, 2] += turn_bet
                    out[f, c, 3] += river_bets
        return out


# --- Symmetry, aggregation and the figures ---------------------------------------------------------------


def _suit_permutations(deck: Sequence[int]) -> list[dict[int, int]]:
    """The suit permutations that map the deck onto itself, as card-id maps."""
    cards = set(deck)
    maps = []
    for perm in permutations(range(4)):
        mapping = {c: (c & ~3) | perm[c & 3] for c in deck}
        if set(mapping.values()) == cards:
            maps.append(mapping)
    return maps


def _classes(deck: Sequence[int], size: int, maps: list[dict[int, int]]) -> dict[tuple[int, ...], list]:
    """The deck's ``size``-card sets grouped by suit symmetry: representative -> its members."""
    groups: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for cards in combinations(sorted(deck), size):
        key = min(tuple(sorted(m[c] for c in cards)) for m in maps)
        groups.setdefault(key, []).append(cards)
    return groups


def hole_class_name(cards: Sequence[int]) -> str:
    """A hole hand's class as players write it: ``AA``, ``AKs``, ``T9o``."""
    a, b = sorted(cards, reverse=True)
    high, low = RANKS[a >> 2], RANKS[b >> 2]
    if high == low:
        return high + low
    return high + low + ("s" if a & 3 == b & 3 else "o")


@dataclass(frozen=True)
class HoleClass:
    name: str
    hands: int  # how many of the deck's hole hands it holds
    value: tuple[Fraction, Fraction]  # expected money of playing on, per ante, for each ante option
    turn_bets: Fraction  # the share of its deals in which it bets the turn when it plays
    river_bets: Fraction

    def plays(self, option: int) -> bool:
        # Folding costs the ante: play when playing on loses less (a tie of values folds, it is the same).
        return self.value[option] > -1


@dataclass(frozen=True)
class BaseGameFigures:
    option: str
    house_edge: Fraction  # per ante
    average_wager: Fraction  # ante + flop + turn + river per hand, in antes
    play_rate: Fraction

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.average_wager

    def to_dict(self) -> dict:
        return {
            "ante_pays_from": self.option,
            "house_edge": float(self.house_edge),
            "house_edge_exact": f"{self.house_edge.numerator}/{self.house_edge.denominator}",
            "element_of_risk": float(self.element_of_risk),
            "element_of_risk_exact": f"{self.element_of_risk.numerator}/{self.element_of_risk.denominator}",
            "average_wager": float(self.average_wager),
            "play_rate": float(self.play_rate),
        }


@dataclass(frozen=True)
class BaseGameAnalysis:
    deck_size: int
    classes: tuple[HoleClass, ...]

    def figures(self, option: str) -> BaseGameFigures:
        o = ANTE_OPTIONS.index(option)
        hands = sum(c.hands for c in self.classes)
        value = Fraction(0)
        wager = Fraction(0)
        played = 0
        for c in self.classes:
            if c.plays(o):
                value += c.hands * c.value[o]
                wager += c.hands * (3 + c.turn_bets + c.river_bets)
                played += c.hands
            else:
                value -= c.hands
                wager += c.hands
        return BaseGameFigures(option, -value / hands, wager / hands, Fraction(played, hands))

    def strategy(self, option: str) -> list[dict]:
        o = ANTE_OPTIONS.index(option)
        return [{"hand": c.name, "play": c.plays(o), "value": float(c.value[o])} for c in self.classes]


def analyse(deck: Sequence[Card | str] | None = None, progress: Callable[[int], None] | None = None,
            chunk: int = 64) -> BaseGameAnalysis:
    """Count the base game exactly on ``deck`` (default the full 52 cards)."""
    _require_analysis()
    ids = sorted(parse_card(c).id for c in deck) if deck is not None else list(range(52))
    n = len(ids)
    if n < 9:
        raise ValueError("a deal needs nine cards")
    position = {c: p for p, c in enumerate(ids)}
    maps = _suit_permutations(ids)
    flops = _classes(ids, 3, maps)
    holes = _classes(ids, 2, maps)
    hole_class = np.full((n, n), -1, np.int64)
    for number, members in enumerate(holes.values()):
        for a, b in members:
            hole_class[position[a], position[b]] = hole_class[position[b], position[a]] = number
    reps = list(flops)
    weights = np.array([len(flops[r]) for r in reps], np.int64)
    flop_rows = np.array([[position[c] for c in r] for r in reps], np.int64)
    thresholds = np.array([_ANTE_THRESHOLD[o] for o in ANTE_OPTIONS], np.int64)
    deck_arr = np.array(ids, np.int64)
    totals = np.zeros((len(holes), 4), dtype=object)
    for start in range(0, len(reps), chunk):
        part = _flop_totals(deck_arr, flop_rows[start:start + chunk], hole_class, len(holes), thresholds)
        for row, weight in zip(part, weights[start:start + chunk], strict=True):
            totals += row.astype(object) * int(weight)
        if progress:
            progress(len(part))
    k = n - 5  # after the hole hand and the flop
    deals_per_flop = k * (k - 1) * comb(k - 2, 2)  # turn, river, dealer hand
    classes = []
    for number, (rep, members) in enumerate(holes.items()):
        flops_each = comb(n - 2, 3)
        deals = len(members) * flops_each
        value = tuple(Fraction(int(totals[number, o]), deals * deals_per_flop) for o in range(2))
        classes.append(HoleClass(
            name=hole_class_name(rep), hands=len(members), value=value,
            turn_bets=Fraction(int(totals[number, 2]), deals),
            river_bets=Fraction(int(totals[number, 3]), deals * k),
        ))
    return BaseGameAnalysis(n, tuple(classes))


def write_figures(analysis: BaseGameAnalysis, path: Path = DATA_FILE) -> dict:
    data = {
        "deck_size": analysis.deck_size,
        "method": "exact: every deal, optimal strategy by backward induction (casino.rules.holdem_bonus.base_game)",
        "options": {o: analysis.figures(o).to_dict() for o in ANTE_OPTIONS},
        "strategy": {o: analysis.strategy(o) for o in ANTE_OPTIONS},
        "classes": [{"hand": c.name, "hands": c.hands,
                     "value": [f"{v.numerator}/{v.denominator}" for v in c.value],
                     "turn_bets": f"{c.turn_bets.numerator}/{c.turn_bets.denominator}",
                     "river_bets": f"{c.river_bets.numerator}/{c.river_bets.denominator}"} for c in analysis.classes],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data


def stored_analysis(path: Path = DATA_FILE) -> BaseGameAnalysis:
    """The full deck's analysis as last computed and kept in ``data/base_game.json``."""
    data = json.loads(path.read_text())
    return BaseGameAnalysis(data["deck_size"], tuple(
        HoleClass(c["hand"], c["hands"], tuple(Fraction(v) for v in c["value"]),
                  Fraction(c["turn_bets"]), Fraction(c["river_bets"])) for c in data["classes"]))


def published_base_game_figures(path: Path = DATA_FILE) -> dict[str, BaseGameFigures]:
    """The base game's house edge and element of risk per ante option, from the stored data."""
    analysis = stored_analysis(path)
    return {o: analysis.figures(o) for o in ANTE_OPTIONS}


__all__ = ["ANTE_OPTIONS", "SUITS", "analyse", "published_base_game_figures", "stored_analysis", "strength_of"]
