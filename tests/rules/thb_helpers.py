"""Builders shared by the Texas Hold'em Bonus tests: a whole hand from a compact description."""

from __future__ import annotations

from casino.rules.holdem_bonus import TableRules
from casino.rules.holdem_bonus.record import hand_from_record


def played_hand(rules: TableRules | None = None, *, boxes: list[dict], dealer=None, board=None):
    """Play a hand in the dealer's order (bets, deal, decisions box 1 up, streets, showdown 7 to 1).

    ``boxes`` entries use the hand-history keys: box, ante, bonus, cards, flop, turn, river.
    """
    rules = rules or TableRules(min_ante=5)
    record = {"game": "texas-holdem-bonus", "boxes": boxes, "dealer": dealer, "board": board}
    return hand_from_record(record, rules)


def box(number: int, ante: int, cards, flop="bet", turn="check", river="check", bonus=0) -> dict:
    entry = {"box": number, "ante": ante, "cards": cards.split() if isinstance(cards, str) else cards, "flop": flop}
    if flop == "bet":
        entry.update(turn=turn, river=river)
    if bonus:
        entry["bonus"] = bonus
    return entry
