"""The tablet's shortcuts (issue #36): the seats the betting may be folded around to, and a street that may be
checked around (``tournaments.rendering.tablet_shortcuts``, read from the engine's state)."""

from __future__ import annotations

from tests.rules.holdem.helpers import new_hand
from tournaments.rendering.tablet_shortcuts import fold_to, may_check_around


def test_preflop_the_betting_folds_around_to_each_seat_up_to_the_small_blind_never_to_the_end_of_the_hand():
    hand = new_hand({seat: 1000 for seat in range(1, 10)}, button=1)  # seat 4 is first in turn
    assert hand.to_act == 4
    assert fold_to(hand) == [5, 6, 7, 8, 9, 1, 2]  # the big blind's is the hand's end: the dealer's own tap


def test_after_a_raise_the_folds_go_around_to_the_raiser_at_most():
    hand = new_hand({1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=1).raise_to(4, 400)
    assert fold_to(hand) == [2, 3]  # seat 3 folding leaves the raiser alone: the hand's end


def test_a_street_is_checked_around_only_while_nobody_has_bet():
    hand = new_hand({1: 1000, 2: 1000, 3: 1000}, button=1).call(1).call(2).check(3)
    hand = hand.deal_flop(["2c", "7d", "9h"])
    assert may_check_around(hand)
    assert not may_check_around(hand.bet(2, 200))
    # preflop the big blind's option is a check, but there is a bet to match: no shortcut
    assert not may_check_around(new_hand({1: 1000, 2: 1000, 3: 1000}, button=1).call(1).call(2))
