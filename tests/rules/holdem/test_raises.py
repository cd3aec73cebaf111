"""Minimum bets and raises, and when the betting reopens (TDA-43, TDA-47, CC-136), with the TDA's worked examples.

Seat letters follow the examples: A is seat 1, B seat 2 and so on. Postflop
examples put the button on the last seat so that A acts first.
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from tests.rules.holdem.helpers import new_hand, to_street

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6


def postflop(players: int, small: int, big: int, stacks: int = 100_000):
    """A hand on the flop with ``players`` seats, button on the last, all having limped in."""
    hand = new_hand([stacks] * players, button=players, small=small, big=big)
    return to_street(hand, "flop")


def test_TDA_43_ex1_the_minimum_reraise_is_the_largest_previous_raise():
    hand = postflop(4, 100, 200)
    hand = hand.raise_to(A, 600)
    hand = hand.raise_to(B, 1_600)  # +1,000
    hand = hand.raise_to(C, 3_600)  # +2,000
    legal = hand.legal()
    assert legal.seat == D and legal.call == 3_600 and legal.min_to == 5_600


def test_TDA_43_ex1_a_smaller_reraise_is_refused_naming_the_rule():
    hand = postflop(4, 100, 200)
    hand = hand.raise_to(A, 600)
    hand = hand.raise_to(B, 1_600)
    hand = hand.raise_to(C, 3_600)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(D, 5_000)
    assert refused.value.clause == "TDA-43"
    assert "previous full bet or raise of 2000" in str(refused.value)
    assert str(refused.value).endswith("(TDA-43)")
    assert not hand.can_raise_to(D, 5_599) and hand.can_raise_to(D, 5_600)


def test_TDA_43_ex2_a_short_all_in_leaves_the_big_blind_as_the_largest_bet():
    # Blinds 50-100: UTG all-in for 150 (+50). The next player's minimum raise is to 250.
    hand = new_hand({1: 10_000, 2: 10_000, 3: 150, 4: 10_000}, button=4, small=50, big=100)
    hand = hand.all_in(3)
    legal = hand.legal()
    assert legal.seat == 4 and legal.call == 150 and legal.min_to == 250


def test_TDA_43_ex3_two_chips_pushed_are_a_raise_and_set_the_next_minimum():
    # Blinds 100-200, turn: A bets 300; B silently pushes two 500s (a raise of 700); C may raise to 1,700.
    hand = to_street(new_hand([50_000] * 4, button=4, small=100, big=200), "turn")
    hand = hand.bet(A, 300)
    reading = hand.read_chips(B, [500, 500])
    hand = hand.push_chips(B, [500, 500])
    assert (reading.act, reading.to, reading.returned) == ("raise", 1_000, 0)
    legal = hand.legal()
    assert legal.seat == C and legal.call == 1_000 and legal.min_to == 1_700


def test_TDA_43_ex4A_each_raise_sets_the_minimum_for_the_next():
    # Blinds 25-50: A to 125 (+75); B to 200 (+75); C to 500 (+300). D's minimum raise is to 800.
    hand = new_hand([10_000] * 6, button=6, small=25, big=50)  # 1 SB, 2 BB: A is seat 3
    hand = hand.raise_to(3, 125)
    hand = hand.raise_to(4, 200)
    hand = hand.raise_to(5, 500)
    assert hand.legal().seat == 6 and hand.legal().min_to == 800


def test_TDA_43_ex4B_a_raise_of_450_to_500_called_twice_lets_the_next_raise_to_950():
    hand = new_hand([10_000] * 6, button=6, small=25, big=50)
    hand = hand.raise_to(3, 500)  # raises 450
    hand = hand.call(4)
    hand = hand.call(5)
    legal = hand.legal()
    assert legal.seat == 6 and legal.call == 500 and legal.min_to == 950


def test_TDA_43_B_raise_with_an_amount_is_the_players_total():
    hand = postflop(3, 1_000, 2_000)
    hand = hand.bet(A, 2_000)
    hand = hand.raise_to(B, 8_000)
    assert hand.bets[hand._pos[B]] == 8_000 and hand.current_bet == 8_000


def test_CC_136_the_minimum_bet_is_the_big_blind():
    hand = postflop(3, 100, 200)
    assert hand.legal().min_to == 200
    with pytest.raises(RuleViolation) as refused:
        hand = hand.bet(A, 150)
    assert refused.value.clause == "CC-136"


def ex1_hand():
    # Blinds 50-100, postflop: A bets 100; B all-in 125; C calls; D all-in 200; E calls. A faces +100.
    stacks = {A: 10_000, B: 225, C: 10_000, D: 300, E: 10_000, F: 10_000}
    hand = to_street(new_hand(stacks, button=F, small=50, big=100), "flop")
    hand = hand.bet(A, 100)
    hand = hand.all_in(B)
    hand = hand.call(C)
    hand = hand.all_in(D)
    hand = hand.call(E)
    hand = hand.fold(F)
    return hand


def test_TDA_47_ex1_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    legal = ex1_hand().legal()
    assert legal.seat == A and legal.call == 100 and legal.min_to == 300


def test_TDA_47_ex1A_after_A_calls_C_facing_75_may_only_call_or_fold():
    hand = ex1_hand()
    hand = hand.call(A)
    legal = hand.legal()
    assert legal.seat == C and legal.call == 75 and legal.min_to is None and legal.fold
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(C, 400)
    assert refused.value.clause == "TDA-47"


def test_TDA_47_ex1B_after_A_min_raises_C_facing_175_has_every_option():
    hand = ex1_hand()
    hand = hand.raise_to(A, 300)
    legal = hand.legal()
    assert legal.seat == C and legal.call == 175 and legal.min_to == 400


def test_TDA_47_ex2_several_short_all_ins_leave_the_minimum_raise_at_the_last_full_bet():
    # Blinds 50-100, postflop: A bets 300; B all-in 500; C all-in 650; D all-in 800; E calls 800.
    stacks = {A: 10_000, B: 600, C: 750, D: 900, E: 10_000, F: 10_000}
    hand = to_street(new_hand(stacks, button=F, small=50, big=100), "flop")
    hand = hand.bet(A, 300)
    hand = hand.all_in(B)
    hand = hand.all_in(C)
    hand = hand.all_in(D)
    hand = hand.call(E)
    legal = hand.legal()
    assert legal.seat == F and legal.call == 800 and legal.min_to == 1_100


def ex3_hand():
    # Blinds 2,000-4,000 preflop: A limps 4,000; B folds; C all-in 7,500 (+3,500); folded round to the BB.
    # Seats: 1 SB, 2 BB, 3 A, 4 B, 5 C, 6 button.
    hand = new_hand({1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000, 5: 7_500, 6: 100_000}, button=6,
                    small=2_000, big=4_000)
    hand = hand.call(3)
    hand = hand.fold(4)
    hand = hand.all_in(5)
    hand = hand.fold(6)
    hand = hand.fold(1)
    return hand


def test_TDA_47_ex3A_the_big_blind_has_not_acted_and_may_raise_to_11500():
    hand = ex3_hand()
    legal = hand.legal()
    assert legal.seat == 2 and legal.call == 3_500 and legal.min_to == 11_500


def test_TDA_47_ex3A_the_first_raiser_may_only_call():
    hand = ex3_hand()
    hand = hand.call(2)
    legal = hand.legal()
    assert legal.seat == 3 and legal.call == 3_500 and legal.min_to is None
    assert not hand.can_raise_to(3, 11_500)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(3, 11_500)
    assert refused.value.clause == "TDA-47" and refused.value.params["call"] == 3_500


def test_TDA_47_ex3B_after_the_big_blind_min_raises_A_has_every_option():
    hand = ex3_hand()
    hand = hand.raise_to(2, 11_500)
    legal = hand.legal()
    assert legal.seat == 3 and legal.call == 7_500 and legal.min_to == 15_500


def test_TDA_47_a_short_all_in_bet_below_the_big_blind_does_not_reopen_for_those_who_checked():
    hand = to_street(new_hand({1: 10_000, 2: 10_000, 3: 350}, button=3, small=100, big=200), "flop")
    hand = hand.check(1)
    hand = hand.check(2)
    hand = hand.all_in(3)  # 150, less than a full bet of 200
    legal = hand.legal()
    assert legal.seat == 1 and legal.call == 150 and legal.min_to is None


def test_TDA_47_a_player_who_has_not_acted_may_raise_a_short_all_in_but_the_opener_may_not():
    hand = to_street(new_hand({1: 10_000, 2: 500, 3: 10_000, 4: 10_000}, button=4, small=100, big=200), "flop")
    hand = hand.bet(1, 200)
    hand = hand.all_in(2)  # 300: +100, short of a full raise
    assert hand.legal().seat == 3 and hand.legal().min_to == 500
    hand = hand.call(3)
    hand = hand.call(4)
    legal = hand.legal()
    assert legal.seat == 1 and legal.call == 100 and legal.min_to is None


def test_TDA_55_a_check_facing_a_bet_is_refused_and_call_with_no_bet_is_a_check():
    hand = postflop(3, 100, 200)
    hand = hand.call(A)  # "call" with nothing to call: a check
    assert hand.bets[hand._pos[A]] == 0 and hand.to_act == B
    hand = hand.bet(B, 400)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.check(C)
    assert refused.value.clause == "DEAL-11"


def test_TDA_58_folding_when_a_check_is_possible_is_allowed_and_binding():
    hand = postflop(3, 100, 200)
    assert hand.legal().check and hand.legal().fold
    hand = hand.fold(A)
    assert A not in hand.in_hand


def test_TDA_53_acting_out_of_turn_is_refused():
    hand = postflop(4, 100, 200)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(C, 800)
    assert refused.value.clause == "TDA-53" and "seat 1's turn" in str(refused.value)


def test_DEAL_16_a_player_short_of_the_call_calls_all_in():
    hand = new_hand({1: 10_000, 2: 10_000, 3: 300}, button=3, small=100, big=200)
    hand = hand.call(3)
    hand = hand.raise_to(1, 1_000)
    hand = hand.call(2)
    legal = hand.legal()
    assert legal.seat == 3 and legal.call == 100 and legal.min_to is None


def test_TDA_52_A_an_under_raise_is_refused_when_entered_so_the_callers_never_match_it():
    # NLH 100-200, postflop: A bets 600, B "raises to 1,000" (200 short): the minimum is 1,200.
    hand = postflop(5, 100, 200)
    hand = hand.bet(A, 600)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(B, 1_000)
    assert refused.value.clause == "TDA-43" and refused.value.params["low"] == 1_200
