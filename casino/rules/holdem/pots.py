"""Main and side pots, and splitting a pot between tied winners (TDA-20, TDA-21, DEAL-16).

Pots are cut at the totals of the players who are all-in: each all-in
player can win from every other player only as much as he put in himself
(DEAL-16). Until the betting is over, a player still able to bet counts as
eligible for every pot, since he will call or fold. Single-payer antes (a
big-blind or button ante) are dead money and go to the main pot; antes from
every player count as each one's own contribution, so a player all-in for
part of his ante can win only that much from each other player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the seats that can win it, in seat order."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(
    seats: Sequence[int],
    contributed: Sequence[int],
    in_hand: Sequence[bool],
    all_in: Sequence[bool],
    dead_money: int = 0,
) -> list[Pot]:
    """The pots as they stand, main pot first.

    ``contributed`` is each position's chips in the middle for the whole hand
    (bets not yet pulled in included), ``in_hand`` whether it has not folded,
    ``all_in`` whether it has no chips left behind. ``dead_money`` joins the
    main pot.
    """
    n = len(seats)
    levels = sorted({contributed[i] for i in range(n) if in_hand[i] and all_in[i]})
    cuts: list[int | None] = [*levels, None]
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in cuts:
        amount = 0
        eligible = []
        for i in range(n):
            c = contributed[i]
            if level is None:
                if c > previous:
                    amount += c - previous
            elif c > previous:
                amount += (c if c < level else level) - previous
            if in_hand[i] and (not all_in[i] or (level is not None and contributed[i] >= level)):
                eligible.append(seats[i])
        if not pots:
            amount += dead_money
        if pots and (not eligible or pots[-1][1] == eligible):
            # Same players (or nobody new) can win it: it is one pot.
            pots[-1] = (pots[-1][0] + amount, pots[-1][1])
        else:
            pots.append((amount, eligible))
        if level is not None:
            previous = level
    return [Pot(amount, tuple(sorted(eligible))) for amount, eligible in pots if amount]


def split_pot(amount: int, winners_from_button: Sequence[int], chip_unit: int = 1) -> dict[int, int]:
    """Split a pot evenly between tied winners, odd chips first left of the button.

    The pot is broken down to the smallest chip in play before splitting
    (TDA-20) and each leftover chip goes, one at a time, to the next winner
    clockwise from the button (TDA-20-A, CC-152): with a 66 pot between two
    winners each gets 33, never 34 and 32 (TDA-20-ex1). ``winners_from_button``
    lists the winners in that order.
    """
    count = len(winners_from_button)
    units, loose = divmod(amount, chip_unit)
    share, odd = divmod(units, count)
    shares = {seat: share * chip_unit for seat in winners_from_button}
    for seat in winners_from_button[:odd]:
        shares[seat] += chip_unit
    if loose:
        # Less than the smallest chip cannot be split at all: it stays with the first winner.
        shares[winners_from_button[0]] += loose
    return shares
