"""Shortcuts of the dealer's tablet (issue #36, item 3's taps): one tap for what the table did in one go.

"Folds to seat 9" when the players between the one in turn and seat 9 all fold, "Everyone checks" when
nobody bets on a street. The tablet still records each player's act in turn, each its own tap on the
server (static/js/tournament_tablet.js sends the folds or checks one after the other and stops at any
refusal or change): the record, the audit and the hand line are those of the taps one by one.
"""

from __future__ import annotations

from casino.rules.holdem import Phase


def fold_to(engine) -> list[int]:
    """The seats the betting may be folded around to from the player in turn, in turn order: each seat that
    would be in turn if every player before it folded. Not past the end of the round or of the hand (the
    last fold that closes either is the dealer's own tap)."""
    seats: list[int] = []
    hand = engine
    while len(seats) < len(engine.seats):
        legal = hand.legal()
        if legal is None or not hand.can_fold(legal.seat):
            break
        hand = hand.fold(legal.seat)
        after = hand.legal() if hand.phase is Phase.BETTING else None
        if after is None or after.seat in seats:
            break
        seats.append(after.seat)
    return seats


def may_check_around(engine) -> bool:
    """Nobody has bet on this street and the player in turn may check: the street may be checked around."""
    legal = engine.legal()
    return legal is not None and legal.check and engine.current_bet == 0
