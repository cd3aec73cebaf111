"""The streets of a Hold'em hand and what the dealer has to do next (the hand's ``street`` and ``phase``).

Defined apart from ``casino.rules.holdem.hand`` (which exports them as before) so that the dealing errors
(``casino.rules.holdem.dealing_errors``, a mixin of ``HoldemHand``) read them without importing the hand.
"""

from __future__ import annotations

from enum import Enum


class Street(Enum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)


class Phase(Enum):
    """What the dealer has to do next."""

    ANTES = "post-antes"
    BLINDS = "post-blinds"
    DEAL = "deal-hole-cards"
    BETTING = "betting"
    BOARD = "deal-board"  # the next street's burn and cards
    SHOWDOWN = "showdown"  # hands to be shown (or mucked)
    AWARD = "award-pots"
    COMPLETE = "complete"
    MISDEAL = "misdeal"  # void: every bet returned (CC-97)
    VOID = "void"  # defective deck: every bet returned (TDA-35-E)


ENDED = (Phase.COMPLETE, Phase.MISDEAL, Phase.VOID)
