"""Pot-limit (TDA-54) and fixed-limit (TDA-47-B, TDA-48, DEAL-15, C-21) betting."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import Betting, CapLift, HouseRules, Mode
from tests.rules.holdem.helpers import new_hand, to_street


def pot_limit(stacks=None, players: int = 4, **kw):
    return new_hand(stacks or [100_000] * players, button=players, small=50, big=100, betting=Betting.POT_LIMIT,
                    **kw)


def fixed_limit(stacks=None, players: int = 4, **kw):
    return new_hand(stacks or [100_000] * players, button=players, small=50, big=100,
                    betting=Betting.FIXED_LIMIT, **kw)


def test_TDA_54_a_pot_size_raise_before_the_flop_is_three_and_a_half_big_blinds():
    hand = pot_limit()
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (100, 200, 350)


def test_TDA_54_the_pot_raise_is_the_call_plus_the_pot_after_calling():
    hand = pot_limit()
    hand = hand.raise_to(3, 350)
    # Pot 50 + 100 + 350 = 500; seat 4 calls 350 then raises the 850 pot: to 350 + 850 = 1,200.
    assert hand.legal().max_to == 1_200
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(4, 1_250)
    assert refused.value.clause == "TDA-54"


def test_TDA_54_after_the_flop_bets_are_based_on_the_actual_pot():
    hand = to_street(pot_limit(), "flop")
    assert hand.pot_total == 400 and hand.legal().max_to == 400
    hand = hand.bet(1, 400)
    assert hand.legal().max_to == 400 + 800 + 400


def test_TDA_54_an_all_in_above_the_pot_is_refused():
    hand = to_street(pot_limit(), "flop")
    assert not hand.can_all_in(1)


def test_fixed_limit_bets_are_the_small_bet_then_the_big_bet():
    hand = fixed_limit()
    assert (hand.legal().min_to, hand.legal().max_to) == (200, 200)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(3, 300)
    assert refused.value.clause == "TDA-48"
    hand = to_street(hand, "turn")
    assert (hand.legal().min_to, hand.legal().max_to) == (200, 200)


def test_TDA_48_the_cap_is_a_bet_and_three_raises_with_the_big_blind_as_the_bet():
    hand = fixed_limit()
    hand = hand.raise_to(3, 200)
    hand = hand.raise_to(4, 300)
    hand = hand.raise_to(1, 400)
    legal = hand.legal()
    assert legal.seat == 2 and legal.call == 300 and legal.min_to is None
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(2, 500)
    assert refused.value.clause == "TDA-48"


def test_TDA_48_in_a_tournament_the_cap_holds_heads_up_in_the_hand():
    hand = fixed_limit(players=2, rules=HouseRules(mode=Mode.TOURNAMENT))
    for to in (200, 300, 400):
        hand = hand.raise_to(hand.to_act, to)
    assert hand.legal().min_to is None


def test_TDA_48_the_cap_is_lifted_when_two_players_are_left_in_the_tournament():
    hand = fixed_limit(players=2, rules=HouseRules(mode=Mode.TOURNAMENT), heads_up_in_tournament=True)
    for to in (200, 300, 400):
        hand = hand.raise_to(hand.to_act, to)
    assert hand.legal().min_to == 500


def test_DEAL_15_in_a_ring_game_the_cap_is_lifted_heads_up_in_the_hand():
    hand = fixed_limit(rules=HouseRules(mode=Mode.RING))
    hand = hand.raise_to(3, 200)
    hand = hand.fold(4)
    hand = hand.fold(1)
    for to in (300, 400, 500):
        hand = hand.raise_to(hand.to_act, to)
    assert hand.legal().min_to == 600


def test_C_21_the_house_may_keep_the_cap_always():
    hand = fixed_limit(players=2, rules=HouseRules(mode=Mode.RING, limit_cap_lifted_when=CapLift.NEVER))
    for to in (200, 300, 400):
        hand = hand.raise_to(hand.to_act, to)
    assert hand.legal().min_to is None


def test_TDA_47_B_in_limit_an_all_in_of_half_a_bet_or_more_reopens_the_betting():
    # Flop, small bet 100: A bets 100, B all-in for 150 (half a bet more), C calls; A may raise again.
    hand = to_street(fixed_limit({1: 10_000, 2: 250, 3: 10_000, 4: 10_000}), "flop")
    hand = hand.bet(1, 100)
    hand = hand.all_in(2)
    hand = hand.call(3)
    hand = hand.fold(4)
    legal = hand.legal()
    assert legal.seat == 1 and legal.call == 50 and legal.min_to == 250


def test_TDA_47_B_in_limit_an_all_in_under_half_a_bet_does_not_reopen_but_may_be_completed():
    hand = to_street(fixed_limit({1: 10_000, 2: 240, 3: 10_000, 4: 10_000}), "flop")
    hand = hand.bet(1, 100)
    hand = hand.all_in(2)  # 140: +40, less than half of 100
    legal = hand.legal()
    assert legal.seat == 3 and legal.call == 140 and legal.min_to == 200  # completes the raise
    hand = hand.call(3)
    hand = hand.call(4)
    legal = hand.legal()
    assert legal.seat == 1 and legal.call == 40 and legal.min_to is None


def test_a_short_all_in_in_limit_does_not_count_toward_the_cap():
    hand = fixed_limit({1: 10_000, 2: 10_000, 3: 10_000, 4: 240})
    hand = hand.raise_to(3, 200)
    hand = hand.all_in(4)  # 240: +40, less than half a bet, not a raise toward the cap
    hand = hand.raise_to(1, 300)
    assert hand.legal().seat == 2 and hand.legal().min_to == 400
    hand = hand.raise_to(2, 400)
    assert hand.legal().seat == 3 and hand.legal().min_to is None


def test_in_limit_an_all_in_above_the_fixed_raise_is_refused():
    hand = fixed_limit({1: 10_000, 2: 10_000, 3: 10_000, 4: 310})
    hand = hand.raise_to(3, 200)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.all_in(4)
    assert refused.value.clause == "TDA-48"


def pot_of_10500():
    """Pot-limit 500-1,000: a raise to 3,500 called twice before the flop leaves 10,500 in the pot."""
    hand = new_hand([100_000] * 3, button=3, small=500, big=1_000, betting=Betting.POT_LIMIT)
    assert hand.legal().max_to == 3_500
    hand = hand.raise_to(3, 3_500)
    hand = hand.call(1)
    hand = hand.call(2)
    hand = hand.deal_flop()
    assert hand.pot_total == 10_500
    return hand


def test_TDA_52_ex1_a_pot_bet_is_measured_on_the_exact_pot_so_the_dealer_cannot_miscount_it():
    hand = pot_of_10500()
    assert hand.legal().max_to == 10_500
    assert hand.can_bet(1, 9_500)  # a bet below the pot is any bet


def test_TDA_52_ex3_a_bet_above_the_pot_is_refused():
    hand = pot_of_10500()
    with pytest.raises(RuleViolation) as refused:
        hand = hand.bet(1, 11_500)
    assert refused.value.clause == "TDA-54" and refused.value.params["high"] == 10_500
