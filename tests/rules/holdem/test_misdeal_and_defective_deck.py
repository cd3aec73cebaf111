"""Misdeals (TDA-35, TDA-36, CC-97, CC-99; the C-06 house option) and the defective deck (TDA-35-E, C-35)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import AnteKind, HouseRules, MisdealCutoff, Phase
from tests.rules.holdem.helpers import new_hand, to_street

TDA = HouseRules(misdeal_cutoff=MisdealCutoff.TDA_SUBSTANTIAL_ACTION)


def five_handed(rules: HouseRules | None = None):
    return new_hand([10_000] * 5, button=5, ante=(AnteKind.BIG_BLIND, 200), rules=rules)


def test_C_06_the_default_cutoff_is_the_casino_s_two_players_rule():
    assert HouseRules().misdeal_cutoff is MisdealCutoff.CC_TWO_ACTIONS


def test_CC_99_two_calls_still_allow_a_misdeal():
    hand = five_handed()
    hand = hand.call(3)
    hand = hand.call(4)
    assert hand.substantial_action  # under the TDA it would be too late (the C-06 example)
    assert hand.can_declare_misdeal()


def test_CC_99_after_a_third_player_acts_there_is_no_misdeal():
    hand = five_handed()
    hand = hand.call(3)
    hand = hand.fold(4)
    hand = hand.fold(5)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.declare_misdeal()
    assert refused.value.clause == "CC-99"


def test_TDA_36_two_calls_are_substantial_action_and_no_misdeal_may_be_declared():
    hand = five_handed(TDA)
    hand = hand.call(3)
    hand = hand.call(4)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.declare_misdeal()
    assert refused.value.clause == "TDA-35-D"


def test_TDA_36_two_folds_are_not_substantial_action():
    hand = five_handed(TDA)
    hand = hand.fold(3)
    hand = hand.fold(4)
    assert not hand.substantial_action and hand.can_declare_misdeal()


def test_TDA_36_any_three_actions_are_substantial_action():
    hand = five_handed(TDA)
    hand = hand.fold(3)
    hand = hand.fold(4)
    hand = hand.fold(5)
    assert hand.substantial_action and not hand.can_declare_misdeal()


def test_a_fold_then_a_call_is_substantial_action_one_chip_action_of_two_is_enough_TDA_36():
    hand = five_handed(TDA)
    hand = hand.fold(3)
    assert not hand.substantial_action and hand.can_declare_misdeal()
    hand = hand.call(4)  # the second act in turn, the only one putting chips in
    assert hand.voluntary_actions == 2 and hand.chip_actions == 1
    assert hand.substantial_action
    with pytest.raises(RuleViolation) as refused:
        hand.declare_misdeal()
    assert refused.value.clause == "TDA-35-D"


def test_a_call_then_a_check_heads_up_is_substantial_action_TDA_36():
    hand = new_hand([10_000, 10_000], button=1, rules=TDA)
    hand = hand.call(1)  # the button's small blind completes: one chip action
    assert not hand.substantial_action and hand.can_declare_misdeal()
    hand = hand.check(2)  # the big blind checks: no chips, but the second act in turn
    assert hand.substantial_action and not hand.can_declare_misdeal()


def test_TDA_36_blinds_do_not_count_as_action():
    hand = five_handed(TDA)
    assert hand.voluntary_actions == 0 and hand.can_declare_misdeal()


def test_CC_97_a_misdeal_returns_every_bet_antes_and_blinds_included():
    hand = five_handed()
    hand = hand.raise_to(3, 1_000)
    hand = hand.declare_misdeal()
    assert hand.phase is Phase.MISDEAL and hand.is_over
    assert hand.stacks == dict.fromkeys(range(1, 6), 10_000)
    assert hand.payouts == {1: 100, 2: 400, 3: 1_000, 4: 0, 5: 0}
    assert hand.pot_total == 0 and hand.pots() == []
    with pytest.raises(RuleViolation):
        hand = hand.call(4)


def test_TDA_35_E_a_defective_deck_stops_the_hand_and_returns_all_bets_even_after_substantial_action():
    hand = to_street(five_handed(TDA), "turn")
    hand = hand.bet(1, 800)
    hand = hand.call(2)
    assert not hand.can_declare_misdeal()
    hand = hand.declare_defective_deck()
    assert hand.phase is Phase.VOID
    assert hand.stacks == dict.fromkeys(range(1, 6), 10_000)


def test_a_finished_hand_cannot_be_voided():
    hand = new_hand([10_000] * 2, button=2)
    hand = hand.fold(2)
    hand = hand.award_pots()
    assert not hand.can_declare_defective_deck() and not hand.can_declare_misdeal()
