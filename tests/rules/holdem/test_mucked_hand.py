"""A hand mucked at the showdown, as a house option (issue #15; checklist: TDA-14, TDA-65-B against
CC-146). The house's reading by default (TDA-00): once mucked, the hand cannot win (CC-146). The TDA's:
a mucked hand still identified stays live and may be tabled where the TD so rules (TDA-14, TDA-65-B)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, HouseRules, TableSetup

HOUSE = HouseRules()
TDA = HouseRules(mucked_hand_recoverable=True)


def to_the_showdown(rules: HouseRules) -> HoldemHand:
    """Three players, button 1: everyone calls and checks down; on the river seat 2 bets 100 and both
    call. The showdown starts with seat 2, the river's bettor (TDA-17-A). Board 2c 7d 9h Js Kc."""
    setup = TableSetup(stacks={1: 1000, 2: 1000, 3: 1000}, button=1, small_blind=50, big_blind=100)
    hand = HoldemHand(setup, rules).post_blinds().deal_hole_cards()
    hand = hand.call(1).call(2).check(3).deal_flop(["2c", "7d", "9h"])
    hand = hand.check(2).check(3).check(1).deal_turn("Js").check(2).check(3).check(1).deal_river("Kc")
    return hand.bet(2, 100).call(3).call(1)


def test_the_showdown_starts_with_the_rivers_bettor_TDA_17():
    assert to_the_showdown(HOUSE).showdown_order() == [2, 3, 1]


def test_by_default_a_mucked_hand_cannot_be_recovered_to_win_the_pot_CC_146():
    hand = to_the_showdown(HOUSE).show_hand(2, ["As", "Ad"]).muck_hand(3).muck_hand(1)
    with pytest.raises(RuleViolation) as refused:
        hand.show_hand(1, ["Kh", "Kd"])  # three kings, but mucked
    assert refused.value.clause == "CC-146"
    assert hand.award_pots().payouts == {2: 600, 3: 0, 1: 0}


def test_where_the_house_follows_the_tda_an_identified_mucked_hand_is_live_and_wins_TDA_14_TDA_65_B():
    hand = to_the_showdown(TDA).show_hand(2, ["As", "Ad"]).muck_hand(3).muck_hand(1)
    recovered = hand.show_hand(1, ["Kh", "Kd"])
    assert recovered.award_pots().payouts == {2: 0, 3: 0, 1: 600}


def test_a_mucked_hand_is_live_only_when_identified_TDA_14():
    hand = to_the_showdown(TDA).show_hand(2, ["As", "Ad"]).muck_hand(1)
    with pytest.raises(RuleViolation) as refused:
        hand.show_hand(1)  # its cards were never recorded: not identified
    assert refused.value.clause == "TDA-14"


def test_a_recovered_hand_brings_back_a_showdown_that_still_has_a_hand_to_show():
    # Seats 2 and 3 muck: seat 1 would win without showing (TDA-17-B) ...
    hand = to_the_showdown(TDA).muck_hand(2).muck_hand(3)
    assert hand.phase.value == "award-pots"
    # ... until seat 2's identified hand is recovered: seat 1 must now show (or muck) for the pot.
    hand = hand.show_hand(2, ["As", "Ad"])
    assert hand.phase.value == "showdown"
    assert hand.show_hand(1, ["Kh", "Kd"]).award_pots().payouts == {2: 0, 3: 0, 1: 600}
    assert hand.muck_hand(1).award_pots().payouts == {2: 600, 3: 0, 1: 0}


def test_a_hand_is_shown_once_TDA_13_A():
    hand = to_the_showdown(HOUSE).show_hand(2, ["As", "Ad"])
    with pytest.raises(RuleViolation) as refused:
        hand.show_hand(2, ["As", "Ad"])
    assert refused.value.clause == "TDA-13-A"


def test_the_option_is_kept_in_the_hands_rules_only_when_chosen():
    assert "mucked_hand_recoverable" not in HOUSE.to_dict()
    assert HouseRules.from_dict(TDA.to_dict()) == TDA
    with pytest.raises(RuleViolation):
        HouseRules(mucked_hand_recoverable="yes")
