"""Dead hands (issue #15; checklist TDA-30, CC-29, TDA-71-D): a player absent from the seat when the deal
ends, or serving a penalty, is dealt in and posted for the blinds and antes, and the dealer kills the hand
at the end of the deal. It can win nothing: an absent big blind does not take the blinds."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, TableSetup, action_from_dict
from casino.rules.holdem.replay import replay_holdem_hand


def dealt(stacks=None, **kw) -> HoldemHand:
    """Button 1, blinds 50/100: seat 2 the small blind, seat 3 the big blind, seat 4 first to act."""
    setup = TableSetup(stacks=stacks or {1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=1, small_blind=50,
                       big_blind=100, **kw)
    return HoldemHand(setup).post_blinds().deal_hole_cards()


def test_an_absent_big_blind_is_posted_killed_and_the_blinds_go_to_the_last_live_hand_TDA_30_CC_29():
    hand = dealt().kill_hand(3)
    assert hand.to_act == 4
    hand = hand.fold(4).fold(1)  # everyone folds to the small blind: the dead big blind cannot win
    assert hand.award_pots().payouts == {1: 0, 2: 150, 3: 0, 4: 0}
    assert hand.stacks[3] == 900  # his big blind stays in the pot (CC-29)


def test_the_dead_hand_of_the_player_first_to_act_passes_the_turn_on():
    hand = dealt().kill_hand(4)
    assert hand.to_act == 1 and hand.legal().seat == 1


def test_killing_every_other_hand_ends_the_betting_and_the_last_live_hand_wins():
    hand = dealt().kill_hand(1).kill_hand(4).kill_hand(2)
    assert hand.to_act is None
    # The big blind's unmatched 50 comes back to him as an uncalled bet; he wins the dead small blind.
    won = hand.award_pots()
    assert won.payouts == {1: 0, 2: 0, 3: 100, 4: 0} and won.stacks[3] == 1050 and won.stacks[2] == 950


def test_a_hand_is_killed_only_at_the_end_of_the_deal_before_anyone_acts_TDA_30():
    with pytest.raises(RuleViolation) as late:
        dealt().fold(4).kill_hand(1)
    assert late.value.clause == "TDA-30"
    with pytest.raises(RuleViolation, match="already dead"):
        dealt().kill_hand(1).kill_hand(1)
    with pytest.raises(RuleViolation, match="not dealt"):
        dealt().kill_hand(7)


def test_a_killed_hand_is_not_substantial_action_a_misdeal_may_still_be_declared_TDA_36():
    hand = dealt().kill_hand(3).kill_hand(1)
    assert hand.can(action_from_dict({"action": "misdeal"}))


def test_the_record_and_the_hand_line_replay_a_dead_hand_to_the_same_stacks():
    hand = dealt().kill_hand(3).fold(4).fold(1)
    again = HoldemHand.replay(hand.setup, [a.to_dict() for a in hand.actions])
    assert again.stacks == hand.stacks and again.folded == hand.folded
    line = {"game": "holdem", **hand.setup.to_dict(),
            "actions": [{"seat": 3, "act": "kill-hand"}, {"seat": 4, "act": "fold"}, {"seat": 1, "act": "fold"}]}
    assert replay_holdem_hand(line)["payouts"] == {"1": 0, "2": 150, "3": 0, "4": 0}
