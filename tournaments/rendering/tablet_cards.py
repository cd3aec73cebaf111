"""What the dealer's tablet shows of a hand's cards and of its end (issue #36, items 3 and 4).

The card picker's grid (the 52 cards, those already face up greyed out) and the award as the table hears
it: who collects what and with which hand, and who is left without chips. Read from the engine's state;
nothing here decides anything (the award is the engine's, TDA-12 and TDA-15..21).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext

from casino.rules.cards import RANKS
from casino.rules.evaluator import HAND_NAMES, evaluate
from casino.rules.holdem import Phase
from tournaments.reads import event as event_reads

# Suits in the picker's rows, spades first as on the pit's picker; ranks from the ace down.
_SUITS = (("s", "♠", False), ("h", "♥", True), ("d", "♦", True), ("c", "♣", False))


def card_grid(used: set[str]) -> list[list[dict[str, Any]]]:
    """The 52 cards as four rows of a suit, each marked used (face up already: the board, a hand shown)."""
    return [[{"code": rank + suit, "rank": "10" if rank == "T" else rank, "symbol": symbol, "red": red,
              "used": rank + suit in used}
             for rank in reversed(RANKS)]
            for suit, symbol, red in _SUITS]


def cards_face_up(engine) -> set[str]:
    """The cards the hand has shown: the board and every hand tabled (a card cannot come twice, TDA-35)."""
    up = {str(c) for c in engine.board if c is not None}
    for p, hole in enumerate(engine.hole):
        if hole is not None and engine.shown[p]:
            up.update(str(c) for c in hole)
    return up


def names_by_seat(tournament_id: int, hand) -> dict[int, str]:
    """The names of the players dealt into ``hand``, by seat: a player the hand busted has left the seats."""
    entries = {int(seat): entry for seat, entry in hand.entries.items()}
    names = event_reads.entries_by_number(tournament_id, entries.values())
    return {seat: names[entry][1] for seat, entry in entries.items() if entry in names}


def hand_results(engine, names: Mapping[int, str] | Callable[[], Mapping[int, str]]) -> dict[str, Any] | None:
    """The award as the table hears it, once the engine can make it (its award step) or has (the hand over):
    ``winners`` (seat, name, chips collected and, where hands were shown, the hand's name in the viewer's
    language and its five cards) and ``busts`` (the seats the award leaves without chips; the event ranks
    them, CC-19). A seat that collects nothing is not listed. None before the award and after a misdeal.
    ``names``: the players' names by seat, or what reads them (only once there is an award to name)."""
    if engine.phase is Phase.AWARD and engine.can_award_pots():
        after = engine.award_pots()
    elif engine.phase is Phase.COMPLETE and engine.payouts is not None:
        after = engine
    else:
        return None
    names = names() if callable(names) else names
    contested = sum(1 for p in range(len(engine.seats)) if engine.shown[p] and not engine.folded[p]) > 1
    winners = []
    for seat, chips in (after.payouts or {}).items():
        if chips <= 0:
            continue
        row: dict[str, Any] = {"seat": seat, "name": names.get(seat, ""), "chips": chips, "hand": "", "cards": ""}
        p = engine.seats.index(seat)
        hole, board = engine.hole[p], [c for c in engine.board if c is not None]
        if contested and hole is not None and engine.shown[p] and len(board) >= 3:
            value = evaluate((*hole, *board))
            row.update(hand=gettext(HAND_NAMES[value.category]), cards=" ".join(map(str, value.best_five)))
        winners.append(row)
    busts = [{"seat": seat, "name": names.get(seat, "")} for seat, stack in after.stacks.items() if stack == 0]
    return {"winners": winners, "busts": busts}
