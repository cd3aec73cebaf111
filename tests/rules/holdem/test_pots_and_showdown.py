"""Streets, the round closing, side pots, the showdown and the award.

DEAL-16, DEAL-17, CC-113, TDA-12, TDA-16 (worked examples), TDA-17, TDA-19,
TDA-20 (worked example and the odd chip), TDA-21, TDA-38 (one burn a street).
"""

from __future__ import annotations

import pytest

from casino.rules.cards import parse_cards
from casino.rules.errors import RuleViolation
from casino.rules.holdem import AnteKind, Phase, Pot, Street, split_pot
from tests.rules.holdem.helpers import finish, new_hand, to_street


def test_CC_113_the_round_closes_when_everyone_has_matched_the_bet():
    hand = new_hand([10_000] * 3, button=3)
    hand = hand.raise_to(3, 600)
    hand = hand.call(1)
    assert hand.phase is Phase.BETTING and hand.to_act == 2
    hand = hand.call(2)
    assert hand.phase is Phase.BOARD and hand.to_act is None and hand.legal() is None


def test_the_big_blind_has_the_option_when_everyone_limps():
    hand = new_hand([10_000] * 3, button=3)
    hand = hand.call(3)
    hand = hand.call(1)
    legal = hand.legal()
    assert legal.seat == 2 and legal.check and legal.call == 0 and legal.min_to == 400


def test_TDA_38_one_card_is_burned_before_each_street():
    hand = to_street(new_hand([10_000] * 3, button=3), "river", board="2c7d9hJsKc")
    assert len(hand.burns) == 3 and [str(c) for c in hand.board] == ["2c", "7d", "9h", "Js", "Kc"]
    with pytest.raises(RuleViolation):
        hand = hand.deal_flop(parse_cards("AcAdAh"))


def test_a_card_dealt_twice_is_a_defective_deck():
    hand = new_hand([10_000] * 3, button=3, cards={1: "AsKd"})
    hand = hand.call(3)
    hand = hand.call(1)
    hand = hand.check(2)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.deal_flop(parse_cards("As2c3c"))
    assert refused.value.clause == "TDA-35-E"


def test_DEAL_17_an_uncontested_pot_is_won_without_showing():
    hand = new_hand([10_000] * 3, button=3)
    hand = hand.raise_to(3, 600)
    hand = hand.fold(1)
    hand = hand.fold(2)
    assert hand.phase is Phase.AWARD and hand.in_hand == [3]
    # The part of the raise nobody called (400) is back with seat 3: the pot is the blinds and his 200.
    assert hand.pot_total == 500 and hand.stacks[3] == 9_800
    hand = hand.award_pots()
    assert hand.payouts == {1: 0, 2: 0, 3: 500}
    assert hand.stacks == {1: 9_900, 2: 9_800, 3: 10_300}


def test_TDA_16_ex1_heads_up_turn_all_in_and_call_tables_both_hands_then_the_river_is_dealt():
    hand = to_street(new_hand({1: 5_000, 2: 20_000}, button=2), "turn", board="2c7d9hJs")
    hand = hand.all_in(1)
    hand = hand.call(2)
    assert hand.cards_up and hand.phase is Phase.BOARD and hand.street is Street.TURN


def test_TDA_16_ex2_no_tabling_while_two_players_can_still_bet_then_all_up_when_nobody_can():
    hand = new_hand({1: 10_000, 2: 10_000, 3: 1_000}, button=3)  # A = seat 3, B = seat 1, C = seat 2
    hand = hand.all_in(3)
    hand = hand.call(1)
    hand = hand.call(2)
    assert not hand.cards_up
    hand = hand.deal_flop()
    hand = hand.check(1)
    hand = hand.check(2)
    assert not hand.cards_up
    hand = hand.deal_turn()
    hand = hand.all_in(1)
    hand = hand.call(2)
    assert hand.cards_up


def test_TDA_16_ex3_a_river_checked_down_with_an_all_in_player_tables_every_hand():
    hand = new_hand({1: 10_000, 2: 10_000, 3: 700}, button=3)
    hand = hand.all_in(3)
    hand = hand.call(1)
    hand = hand.call(2)
    hand = hand.deal_flop()
    hand = hand.check(1)
    hand = hand.check(2)
    hand = hand.deal_turn()
    hand = hand.bet(1, 1_000)
    hand = hand.call(2)
    assert not hand.cards_up
    hand = hand.deal_river()
    hand = hand.check(1)
    hand = hand.check(2)
    assert hand.cards_up and hand.phase is Phase.SHOWDOWN
    # The side pot of B and C (2,000) is its own pot, the main pot all three.
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(2_100, (1, 2, 3)), (2_000, (1, 2))]
    with pytest.raises(RuleViolation) as refused:
        hand = hand.muck_hand(2)
    assert refused.value.clause == "TDA-16"


def test_TDA_17_A_the_last_aggressor_on_the_river_shows_first():
    hand = to_street(new_hand([10_000] * 4, button=4), "river")
    hand = hand.check(1)
    hand = hand.bet(2, 400)
    hand = hand.raise_to(3, 1_200)
    hand = hand.call(4)
    hand = hand.call(1)
    hand = hand.call(2)
    assert hand.showdown_order() == [3, 4, 1, 2]


def test_TDA_17_A_with_no_river_bet_the_first_player_left_of_the_button_shows_first():
    hand = to_street(new_hand({2: 10_000, 5: 10_000, 8: 10_000}, button=5), "river")
    hand = hand.fold(8)
    hand = hand.check(2)
    hand = hand.check(5)
    assert hand.showdown_order() == [2, 5]


def test_TDA_17_B_when_all_but_one_muck_the_last_hand_wins_without_showing():
    hand = new_hand([10_000] * 3, button=3)
    hand = to_street(hand, "river", board="2c7d9hJsKc")
    for seat in (1, 2, 3):
        hand = hand.check(seat)
    hand = hand.muck_hand(1)
    hand = hand.muck_hand(2)
    assert hand.phase is Phase.AWARD
    hand = hand.award_pots()
    assert hand.payouts == {1: 0, 2: 0, 3: 600}


def test_TDA_13_D_a_tabled_hand_cannot_be_mucked():
    hand = to_street(new_hand([10_000] * 2, button=2, cards={1: "AsAd", 2: "KcKd"}), "river", board="2c7d9hJs3c")
    hand = hand.check(1)
    hand = hand.check(2)
    hand = hand.show_hand(1)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.muck_hand(1)
    assert refused.value.clause == "TDA-13-D"


def test_TDA_12_the_cards_speak():
    # Seat 1 holds a flush it may not have noticed; seat 2 a pair of kings. The cards decide.
    hand = new_hand([10_000] * 2, button=2, cards={1: "2h3h", 2: "KcKd"})
    hand = finish(hand, board="AhJh9h8c4s")
    payouts = hand.payouts
    assert payouts == {1: 400, 2: 0}


def test_TDA_19_playing_the_board_splits_the_pot():
    hand = new_hand([10_000] * 2, button=2, cards={1: "2c3d", 2: "4c5d"})
    assert finish(hand, board="AhKhQhJhTh").payouts == {1: 200, 2: 200}


def test_TDA_20_ex1_a_66_chip_pot_splits_33_33_not_34_32():
    assert split_pot(66, [1, 2]) == {1: 33, 2: 33}


def test_TDA_20_A_the_odd_chip_goes_to_the_first_winner_left_of_the_button():
    assert split_pot(67, [5, 2]) == {5: 34, 2: 33}


def test_TDA_20_the_pot_is_broken_down_to_the_smallest_chip_in_play_before_splitting():
    # Smallest chip 25: 175 between two is 100 and 75, not 87.5 each.
    assert split_pot(175, [3, 1], chip_unit=25) == {3: 100, 1: 75}


def test_TDA_20_several_odd_chips_go_one_each_from_the_button_s_left():
    assert split_pot(102, [7, 9, 2, 4]) == {7: 26, 9: 26, 2: 25, 4: 25}


def test_TDA_20_A_in_a_hand_the_odd_chip_goes_left_of_the_button():
    # Blinds 25-50 with a 25 big-blind ante, smallest chip 25: a 175 pot split between seats 1 and 2.
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=3, small=25, big=50, chip_unit=25,
                    ante=(AnteKind.BIG_BLIND, 25), cards={1: "2c3d", 2: "2d3c", 3: "4h4s"})
    hand = to_street(hand, "flop", board="AhKhQh")
    hand = hand.check(1)
    hand = hand.check(2)
    hand = hand.fold(3)
    assert finish(hand, board="AhKhQhJh9s").payouts == {1: 100, 2: 75, 3: 0}


def test_TDA_21_each_side_pot_is_settled_on_its_own():
    # Seat 1 all-in for 1,000 has the best hand; seat 2 (3,000) beats seat 3 for the side pot.
    hand = new_hand({1: 1_000, 2: 3_000, 3: 10_000}, button=3, cards={1: "AsAd", 2: "KsKd", 3: "QsQd"})
    hand = hand.raise_to(3, 3_000)
    hand = hand.all_in(1)
    hand = hand.all_in(2)
    hand = finish(hand, board="2c7d9h4s3h")
    payouts = hand.payouts
    assert payouts == {1: 3_000, 2: 4_000, 3: 0}
    assert hand.stacks == {1: 3_000, 2: 4_000, 3: 7_000}


def test_DEAL_16_a_short_all_in_plays_for_his_share_only():
    hand = new_hand({1: 500, 2: 10_000, 3: 10_000}, button=3, cards={1: "AsAd", 2: "KsKd", 3: "QsQd"})
    hand = hand.raise_to(3, 2_000)
    hand = hand.all_in(1)
    hand = hand.call(2)
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(1_500, (1, 2, 3)), (3_000, (2, 3))]
    assert finish(hand, board="2c7d9h4s3h").payouts == {1: 1_500, 2: 3_000, 3: 0}


def test_pots_during_a_round_count_players_who_can_still_call():
    hand = new_hand({1: 500, 2: 10_000, 3: 10_000}, button=3)
    hand = hand.raise_to(3, 2_000)
    hand = hand.all_in(1)
    # Seat 2 has 200 in and will call or fold: he counts for both pots until then.
    assert hand.pots() == [Pot(1_200, (1, 2, 3)), Pot(1_500, (2, 3))]
