"""Chips put in without a word: call or raise by the 50% rule and the single- and multiple-chip rules.

TDA-43-A, TDA-44, TDA-45 (with its worked examples), TDA-46 situation 1,
TDA-51-B undercalls, TDA-52-A under-bets and TDA-61 over-betting for change.
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from tests.rules.holdem.helpers import new_hand, to_street


def facing_a_bet(bet: int, small: int = 100, big: int = 200, stacks: int = 100_000, players: int = 4):
    """Flop, button on the last seat: seat 1 bets ``bet``, seat 2 is in turn."""
    hand = to_street(new_hand([stacks] * players, button=players, small=small, big=big), "flop")
    hand = hand.bet(1, bet)
    return hand


def facing_a_raise_to_1100(stacks: int = 100_000):
    """Blinds 250-500: UTG raises to 1,100 (+600); UTG+1 is in turn (TDA-45 examples)."""
    hand = new_hand([stacks] * 6, button=6, small=250, big=500)
    hand = hand.raise_to(3, 1_100)
    return hand


def test_TDA_43_A_facing_1000_pushing_1400_is_a_call():
    hand = facing_a_bet(1_000)
    reading = hand.read_chips(2, [1_000, 200, 200])
    hand = hand.push_chips(2, [1_000, 200, 200])
    assert (reading.act, reading.to, reading.returned, reading.clause) == ("call", 1_000, 400, "TDA-43-A")
    assert hand.stack[hand._pos[2]] == 100_000 - 200 - 1_000


def test_TDA_43_A_half_a_raise_or_more_is_completed_to_the_minimum_raise():
    hand = facing_a_bet(1_000)
    reading = hand.read_chips(2, [1_000, 500])
    assert (reading.act, reading.to) == ("raise", 2_000)


def test_TDA_44_A_one_oversize_chip_facing_a_bet_is_a_call():
    hand = facing_a_bet(400)
    reading = hand.read_chips(2, [5_000])
    hand = hand.push_chips(2, [5_000])
    assert (reading.act, reading.to, reading.returned, reading.clause) == ("call", 400, 4_600, "TDA-44-A")


def test_TDA_44_A_one_oversize_chip_is_a_call_even_when_it_is_the_last():
    hand = to_street(new_hand({1: 10_000, 2: 1_200, 3: 10_000}, button=3), "flop")
    hand = hand.bet(1, 400)
    reading = hand.read_chips(2, [1_000])
    assert (reading.act, reading.to) == ("call", 400)


def test_TDA_44_C_one_chip_not_facing_a_bet_is_a_bet_of_its_value():
    hand = to_street(new_hand([10_000] * 3, button=3), "flop")
    reading = hand.read_chips(1, [1_000])
    hand = hand.push_chips(1, [1_000])
    assert (reading.act, reading.to, reading.clause) == ("raise", 1_000, "TDA-44-C")
    assert hand.current_bet == 1_000


def test_TDA_52_A_a_silent_bet_below_the_minimum_is_brought_up_to_it():
    hand = to_street(new_hand([10_000] * 3, button=3), "flop")
    reading = hand.read_chips(1, [100])
    assert (reading.act, reading.to) == ("raise", 200) and "TDA-52-A" in reading.adjustment


def test_TDA_44_A_the_big_blind_with_the_option_tossing_one_chip_checks():
    hand = new_hand([10_000] * 3, button=3)
    hand = hand.call(3)
    hand = hand.call(1)
    reading = hand.read_chips(2, [1_000])
    hand = hand.push_chips(2, [1_000])
    assert reading.act == "check" and reading.returned == 1_000
    assert hand.phase.value == "deal-board"


def test_TDA_45_A_ex1_500_and_1000_facing_a_raise_to_1100_is_a_call():
    # A opens 400; B raises to 1,100; C silently pushes 500 + 1,000.
    hand = facing_a_bet(400)
    hand = hand.raise_to(2, 1_100)
    reading = hand.read_chips(3, [500, 1_000])
    hand = hand.push_chips(3, [500, 1_000])
    assert (reading.act, reading.to, reading.returned, reading.clause) == ("call", 1_100, 400, "TDA-45-A")


def test_TDA_45_A_ex2_two_last_1000s_facing_1050_are_a_call():
    # Blinds 25-50, postflop: A opens 1,050; B pushes his last chips, two 1,000s.
    hand = to_street(new_hand({1: 50_000, 2: 2_050, 3: 50_000}, button=3, small=25, big=50), "flop")
    hand = hand.bet(1, 1_050)
    reading = hand.read_chips(2, [1_000, 1_000])
    hand = hand.push_chips(2, [1_000, 1_000])
    assert (reading.act, reading.to, reading.returned) == ("call", 1_050, 950)
    assert hand.stack[hand._pos[2]] == 950


def test_TDA_45_ex1_two_1000s_facing_1200_are_a_call():
    hand = facing_a_bet(1_200)
    assert hand.read_chips(2, [1_000, 1_000]).act == "call"


def test_TDA_45_ex1_1000_and_500_facing_a_raise_to_1100_are_a_call():
    hand = facing_a_raise_to_1100()
    reading = hand.read_chips(4, [1_000, 500])
    assert (reading.act, reading.to, reading.returned) == ("call", 1_100, 400)


def test_TDA_45_ex2_1000_and_five_100s_reach_the_threshold_and_are_a_raise_to_1700():
    hand = facing_a_raise_to_1100()
    reading = hand.read_chips(4, [1_000, 100, 100, 100, 100, 100])
    hand = hand.push_chips(4, [1_000, 100, 100, 100, 100, 100])
    assert (reading.act, reading.to) == ("raise", 1_700)
    assert hand.current_bet == 1_700


def test_TDA_45_ex3_1000_and_three_100s_fall_short_and_are_a_call_with_200_returned():
    hand = facing_a_raise_to_1100()
    reading = hand.read_chips(4, [1_000, 100, 100, 100])
    hand = hand.push_chips(4, [1_000, 100, 100, 100])
    assert (reading.act, reading.to, reading.returned) == ("call", 1_100, 200)


def test_TDA_45_ex4A_2500_against_an_open_of_1400_is_a_forced_minimum_raise_to_2800():
    hand = facing_a_bet(1_400)
    reading = hand.read_chips(2, [1_000, 500, 500, 500])
    assert (reading.act, reading.to) == ("raise", 2_800)


def test_TDA_45_ex4B_2000_against_an_open_of_1400_is_a_call():
    hand = facing_a_bet(1_400)
    reading = hand.read_chips(2, [1_000, 500, 500])
    assert (reading.act, reading.to, reading.returned) == ("call", 1_400, 600)


@pytest.mark.parametrize("chips", [[1_000, 500, 500, 500], [1_000, 500, 500]])
def test_TDA_45_ex4_with_the_last_chips_both_are_all_in(chips):
    hand = to_street(new_hand({1: 50_000, 2: 200 + sum(chips), 3: 50_000}, button=3), "flop")
    hand = hand.bet(1, 1_400)
    reading = hand.read_chips(2, chips)
    hand = hand.push_chips(2, chips)
    assert (reading.act, reading.to, reading.clause) == ("raise", sum(chips), "TDA-45-B")
    assert hand.stack[hand._pos[2]] == 0


def test_TDA_46_sit1_the_big_blind_adding_one_1000_chip_to_his_blind_calls():
    # Blinds 25-50: the big blind has two 25s out; the button raises to 600.
    hand = new_hand([10_000] * 3, button=3, small=25, big=50)
    hand = hand.raise_to(3, 600)
    hand = hand.fold(1)
    assert hand.read_chips(2, [1_000]).act == "call"


@pytest.mark.parametrize("chips", [[500, 500], [100, 500]])
def test_TDA_46_sit1_adding_chips_all_needed_for_the_call_is_a_call(chips):
    hand = new_hand([10_000] * 3, button=3, small=25, big=50)
    hand = hand.raise_to(3, 600)
    hand = hand.fold(1)
    assert hand.read_chips(2, chips).act == "call"


def test_TDA_46_sit1_adding_1000_and_500_to_1550_is_a_raise():
    hand = new_hand([10_000] * 3, button=3, small=25, big=50)
    hand = hand.raise_to(3, 600)
    hand = hand.fold(1)
    reading = hand.read_chips(2, [1_000, 500])
    assert (reading.act, reading.to) == ("raise", 1_550)


def test_TDA_61_over_betting_for_change_is_a_raise_to_650():
    # A opens 325; B silently pushes 525 (500 + 25) wanting change: a raise, completed to 650.
    hand = to_street(new_hand([10_000] * 3, button=3, small=25, big=50), "flop")
    hand = hand.bet(1, 325)
    reading = hand.read_chips(2, [500, 25])
    hand = hand.push_chips(2, [500, 25])
    assert (reading.act, reading.to) == ("raise", 650)


def test_TDA_51_ex2_an_undercall_of_the_opening_bet_binds_a_full_call():
    # Four players: A opens 8,000; B silently puts in 2,000 and must complete to 8,000.
    hand = facing_a_bet(8_000, small=1_000, big=2_000)
    reading = hand.read_chips(2, [1_000, 1_000])
    hand = hand.push_chips(2, [1_000, 1_000])
    assert (reading.act, reading.to, reading.clause) == ("call", 8_000, "TDA-51-B")


def test_TDA_51_B_an_undercall_of_a_raise_heads_up_binds_a_full_call():
    hand = facing_a_bet(2_000, small=1_000, big=2_000, players=2)
    hand = hand.raise_to(2, 8_000)
    reading = hand.read_chips(1, [1_000, 1_000])
    hand = hand.push_chips(1, [1_000, 1_000])
    assert (reading.act, reading.to, reading.clause) == ("call", 8_000, "TDA-51-B")


def test_TDA_51_ex1_an_undercall_of_a_raise_multiway_is_for_the_floor():
    # Blinds 1,000-2,000: A opens 2,000; B raises to 8,000; C silently puts in 2,000.
    hand = facing_a_bet(2_000, small=1_000, big=2_000)
    hand = hand.raise_to(2, 8_000)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.push_chips(3, [1_000, 1_000])
    assert refused.value.clause == "TDA-51-B"


def test_TDA_51_ex3_saying_call_binds_the_full_amount():
    hand = facing_a_bet(2_000, small=1_000, big=2_000)
    hand = hand.raise_to(2, 8_000)
    hand = hand.call(3)
    assert hand.bets[hand._pos[3]] == 8_000


def test_chips_beyond_the_stack_are_refused():
    hand = facing_a_bet(400, stacks=1_000)
    with pytest.raises(RuleViolation):
        hand = hand.push_chips(2, [500, 500])
