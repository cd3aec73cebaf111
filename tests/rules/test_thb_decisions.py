"""Decisions and streets: va / no va, turn and river bets, the burns (THB-27..29, THB-41..45, THB-55..59)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Decision, Phase


def refusal(check, *args) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        check(*args)
    return refused.value


def test_the_flop_bet_must_be_exactly_twice_the_ante_THB_27_THB_57(three_boxes_dealt):
    violation = refusal(three_boxes_dealt.verify_bet_flop, 1, 30)
    assert str(violation) == "The flop bet must be exactly twice the ante: box 1 bets 20, not 30 (THB-57)"
    assert not three_boxes_dealt.can_bet_flop(1, 10)
    assert three_boxes_dealt.can_bet_flop(1, 20)


def test_players_decide_in_turn_from_the_dealers_left_THB_41(three_boxes_dealt):
    assert three_boxes_dealt.to_act == 1
    violation = refusal(three_boxes_dealt.verify_bet_flop, 3, 40)
    assert violation.clause == "THB-41" and "It is box 1's turn to decide, not box 3's" in violation.message
    assert three_boxes_dealt.bet_flop(1).to_act == 3


def test_a_fold_loses_the_ante_and_ends_the_boxs_decisions_THB_55_THB_56(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).fold(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
    assert hand.box(3).decisions[0] is Decision.FOLD
    assert hand.to_act == 1
    assert refusal(hand.verify_bet_turn, 3, 20).clause == "THB-55"


def test_after_the_flop_bet_a_player_cannot_fold_only_bet_or_check_THB_43(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
    assert refusal(hand.verify_fold, 1).clause == "THB-43"


def test_the_flop_is_dealt_only_once_every_player_has_decided_THB_42(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).fold(3)
    violation = refusal(hand.verify_deal_flop, ("2c", "7d", "9h"))
    assert violation.clause == "THB-42" and "Box 5 has still to make its flop decision" in violation.message
    assert hand.bet_flop(5).deal_flop(["2c", "7d", "9h"]).phase is Phase.FLOP


def test_the_flop_is_three_cards_THB_42(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5)
    assert not hand.can_deal_flop(["2c", "7d"])
    assert not hand.can_deal_flop(["2c", "7d", "Zz"])


def test_the_turn_bet_equals_the_ante_and_is_optional_THB_28_THB_58(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
    violation = refusal(hand.verify_bet_turn, 1, 20)
    assert str(violation) == "The turn bet must equal the ante: box 1 bets 10, not 20 (THB-28)"
    after = hand.bet_turn(1, 10).pass_turn(3)
    assert after.box(1).turn == 10 and after.box(3).turn == 0
    assert after.phase is Phase.TURN_DECISIONS


def test_turn_bets_come_after_the_flop_is_dealt_THB_43(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5)
    assert refusal(hand.verify_bet_turn, 1, 10).clause == "THB-43"


def test_the_river_bet_equals_the_ante_THB_29_THB_59(three_boxes_at_river, three_boxes_dealt):
    hand = (three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
            .pass_turn(1).pass_turn(3).pass_turn(5).deal_turn("Js"))
    assert refusal(hand.verify_bet_river, 1, 5).clause == "THB-29"


def test_a_river_bet_is_allowed_after_a_turn_check_THB_29(three_boxes_at_river):
    assert three_boxes_at_river.box(3).turn == 0
    assert three_boxes_at_river.box(3).river == 20


def test_every_box_bets_or_checks_before_the_turn_and_river_are_dealt_THB_44_THB_45(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"]).bet_turn(1)
    assert refusal(hand.verify_deal_turn, "Js").clause == "THB-44"
    hand = hand.pass_turn(3).pass_turn(5).deal_turn("Js").pass_river(1)
    assert refusal(hand.verify_deal_river, "Kc").clause == "THB-45"


def test_a_box_cannot_decide_twice_on_a_street_THB_41(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1)
    assert refusal(hand.verify_fold, 1).clause == "THB-41"


def test_a_box_without_an_ante_has_no_decisions_THB_26(three_boxes_dealt):
    assert refusal(three_boxes_dealt.verify_bet_flop, 2, 10).message == "Box 2 has no ante in this hand"


def test_nothing_is_decided_before_the_cards_are_dealt_THB_41(open_hand):
    hand = open_hand.place_ante(1, 10).close_bets()
    assert refusal(hand.verify_bet_flop, 1, 20).clause == "THB-41"


def test_a_card_already_on_the_table_cannot_be_dealt_again_THB_03(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
    violation = refusal(hand.pass_turn(1).pass_turn(3).pass_turn(5).verify_deal_turn, "7d")
    assert str(violation) == ("7d in the turn is already in the board: a single deck has one of each card (THB-03)")


def test_when_everyone_folds_no_community_cards_are_dealt_and_the_hand_settles_THB_69(open_hand):
    hand = open_hand.place_ante(1, 10).place_ante(2, 10).close_bets().deal_initial().fold(1).fold(2)
    assert hand.phase is Phase.SETTLED
    assert hand.settlement.house_net == 20
    assert not hand.can_deal_flop(["2c", "7d", "9h"])


def test_the_phases_follow_the_manual_in_order(three_boxes_dealt):
    seen = [three_boxes_dealt.phase]
    hand = three_boxes_dealt.bet_flop(1)
    seen.append(hand.phase)
    hand = hand.bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
    seen.append(hand.phase)
    hand = hand.bet_turn(1)
    seen.append(hand.phase)
    hand = hand.pass_turn(3).pass_turn(5).deal_turn("Js")
    seen.append(hand.phase)
    hand = hand.pass_river(1)
    seen.append(hand.phase)
    hand = hand.pass_river(3).pass_river(5).deal_river("Kc")
    seen.append(hand.phase)
    hand = hand.reveal_dealer(["Qc", "Qd"])
    seen.append(hand.phase)
    hand = hand.reveal_box(5, ["3c", "4d"]).reveal_box(3, ["8c", "8d"]).reveal_box(1, ["Tc", "8h"])
    seen.append(hand.phase)
    assert [p.value for p in seen] == [
        "initial-deal", "flop-decisions", "flop", "turn-decisions", "turn", "river-decisions", "river",
        "showdown", "settled",
    ]
