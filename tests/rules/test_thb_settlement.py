"""Settlement against the dealer and of the Bonus (THB-39, THB-47..54, THB-60, THB-63, THB-68, C-29, C-31)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Approval, Outcome, Phase, TableRules

from .thb_helpers import box, played_hand

BOARD = ["2c", "7d", "9h", "Js", "Kc"]

#: THB-67's house option: only THB-54's awards wait for the pit boss (the engine's default before issue #38).
ONLY_THB54_HELD = TableRules(min_ante=5, release_every_bonus=False)


def settled_box(hand, number):
    assert hand.phase is Phase.SETTLED
    return hand.settlement.box(number)


def test_the_dealers_better_hand_takes_ante_flop_turn_and_river_THB_47():
    hand = played_hand(dealer=["Kd", "Kh"], board=BOARD,
                       boxes=[box(1, 10, "Ah Qd", turn="bet", river="bet")])
    result = settled_box(hand, 1)
    assert result.outcome is Outcome.LOSE
    assert (result.ante.net, result.flop.net, result.turn.net, result.river.net) == (-10, -20, -10, -10)
    assert result.net == -50 and hand.settlement.house_net == 50


def test_equal_hands_push_every_bet_THB_48_THB_68():
    # Both make the same jack-high straight, 7-8-9-T-J, with a ten and an eight of other suits.
    hand = played_hand(dealer=["Th", "8s"], board=BOARD, boxes=[box(2, 10, "Tc 8d", turn="bet", river="bet")])
    result = settled_box(hand, 2)
    assert result.outcome is Outcome.PUSH and result.category.value == "straight"
    assert result.net == 0 and result.returned == result.staked == 50


def test_the_player_wins_flop_turn_and_river_one_to_one_THB_49():
    hand = played_hand(dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Kd Qh", turn="bet", river="bet")])
    result = settled_box(hand, 1)
    assert result.outcome is Outcome.WIN
    assert (result.flop.net, result.turn.net, result.river.net) == (20, 10, 10)


def test_it_pays_the_ante_only_on_a_straight_or_better_THB_50_THB_63():
    straight = settled_box(played_hand(dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Tc 8d")]), 1)
    assert straight.category.value == "straight" and straight.ante.net == 10
    trips = settled_box(played_hand(dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Kd Kh")]), 1)
    assert trips.category.value == "three-of-a-kind" and trips.outcome is Outcome.WIN
    assert trips.ante.net == 0 and trips.ante.returned == 10 and trips.flop.net == 20


def test_an_ante_below_a_straight_is_returned_not_lost_C_29():
    result = settled_box(played_hand(dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Ad 5h")]), 1)
    assert result.outcome is Outcome.WIN and result.category.value == "high-card"
    assert result.ante.net == 0 and result.ante.returned == 10


def test_the_house_option_pays_the_ante_only_from_a_flush_C_29(flush_ante_table):
    straight = played_hand(flush_ante_table, dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Tc 8d")])
    assert settled_box(straight, 1).ante.net == 0
    flush = played_hand(flush_ante_table, dealer=["3h", "4s"], board=["2c", "7c", "9h", "Js", "Kc"],
                        boxes=[box(1, 10, "Ac 5c")])
    assert settled_box(flush, 1).category.value == "flush" and settled_box(flush, 1).ante.net == 10


def test_a_fold_loses_only_the_ante_THB_56():
    hand = played_hand(dealer=["3h", "4s"], board=BOARD,
                       boxes=[box(1, 10, "Kd Qh"), box(4, 20, "2h 3d", flop="fold")])
    result = settled_box(hand, 4)
    assert result.outcome is Outcome.FOLD and result.category is None
    assert result.ante.net == -20 and result.net == -20 and result.flop.stake == 0


def test_the_cards_speak_the_hand_plays_its_best_combination_THB_60():
    result = settled_box(played_hand(dealer=["3h", "4s"], board=["Ac", "Kc", "Qc", "2d", "7h"],
                                     boxes=[box(1, 10, "Jc Tc")]), 1)
    assert result.category.value == "royal-flush" and result.ante.net == 10


def test_all_five_cards_count_in_a_tie_break_THB_68():
    hand = played_hand(dealer=["Ah", "3s"], board=BOARD, boxes=[box(1, 10, "Ad 4h")])
    assert settled_box(hand, 1).outcome is Outcome.PUSH  # A-K-J-9-7 each: the fourth-card kickers are on the board
    hand = played_hand(dealer=["Ah", "3s"], board=["2c", "7d", "9h", "Js", "5c"], boxes=[box(1, 10, "Ad 8h")])
    assert settled_box(hand, 1).outcome is Outcome.WIN  # A-J-9-8-7 beats A-J-9-7-5


def test_the_bonus_is_settled_on_the_two_cards_alone_whatever_the_main_bets_do_THB_39_THB_51():
    hand = played_hand(dealer=["Ks", "Kh"], board=BOARD, boxes=[box(1, 10, "Qd Qh", bonus=5)])
    result = settled_box(hand, 1)
    assert result.outcome is Outcome.LOSE
    assert result.bonus.award == "kk-qq-jj" and result.bonus.wager.net == 50
    assert result.net == -10 - 20 + 50  # ante and flop lost, the Bonus paid


@pytest.mark.parametrize(("cards", "award", "pays"), [
    ("As Ad", "aa", 30), ("Ah Kh", "ak-suited", 25), ("Ac Qc", "aq-aj-suited", 20), ("Jd Ad", "aq-aj-suited", 20),
    ("Ah Kd", "ak-offsuit", 15), ("Qs Qh", "kk-qq-jj", 10), ("Ac Jd", "aq-aj-offsuit", 5),
    ("Th Td", "pair-2-10", 3), ("2h 2s", "pair-2-10", 3),
])
def test_the_bonus_pays_the_manuals_table_THB_53(cards, award, pays):
    hand = played_hand(ONLY_THB54_HELD, dealer=["3h", "4s"], board=["5c", "6d", "8s", "9c", "Ts"],
                       boxes=[box(1, 10, cards, bonus=4)])
    result = settled_box(hand, 1)
    assert (result.bonus.award, result.bonus.wager.net) == (award, 4 * pays)
    assert result.bonus.needs_approval is False


@pytest.mark.parametrize("cards", ["Ah Td", "Kh Qh", "Kc Jc", "7c 2d"])
def test_any_other_two_cards_lose_the_bonus_THB_53(cards):
    result = settled_box(played_hand(dealer=["3h", "4s"], board=["5c", "6d", "8s", "9c", "Ts"],
                                     boxes=[box(1, 10, cards, bonus=4)]), 1)
    assert result.bonus.award is None and result.bonus.wager.net == -4


def test_aces_against_the_dealers_aces_pay_1000_to_1_pending_approval_THB_53_THB_54():
    hand = played_hand(dealer=["Ah", "Ad"], board=BOARD, boxes=[box(1, 10, "As Ac", bonus=5, turn="bet")])
    result = settled_box(hand, 1)
    assert result.bonus.award == "aa-vs-dealer-aa" and result.bonus.wager.net == 5000
    assert result.bonus.approval is Approval.PENDING
    assert hand.settlement.pending_approvals == (1,)
    assert not hand.is_finished
    assert hand.awaiting == "approval of the Bonus award of box 1"


def test_the_approver_releases_a_pending_award_and_is_recorded_THB_54_C_30():
    hand = played_hand(dealer=["Ah", "Ad"], board=BOARD, boxes=[box(1, 10, "As Ac", bonus=5)])
    approved = hand.approve_bonus(1, approver="pit boss 12")
    assert approved.approvals == ((1, Approval.APPROVED, "pit boss 12"),)  # who approved is kept (C-30)
    assert approved.settlement.box(1).bonus.approval is Approval.APPROVED
    assert approved.settlement.box(1).bonus.wager.net == 5000
    assert approved.is_finished
    with pytest.raises(RuleViolation, match="no Bonus award waiting for approval"):
        approved.verify_approve_bonus(1)


def test_a_denied_award_is_not_paid_and_its_stake_is_returned_THB_54():
    hand = played_hand(dealer=["Ah", "Ad"], board=BOARD, boxes=[box(1, 10, "As Ac", bonus=5)])
    denied = hand.deny_bonus(1, approver="DJ", reason="cards under review")
    bonus = denied.settlement.box(1).bonus
    assert bonus.approval is Approval.DENIED and bonus.wager.net == 0 and bonus.wager.returned == 5
    assert denied.is_finished


def test_a_house_may_require_approval_of_any_payout_above_an_amount_THB_54():
    rules = TableRules(min_ante=5, approval_above=100, release_every_bonus=False)
    small = played_hand(rules, dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Qd Qh", bonus=10)])
    large = played_hand(rules, dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Qd Qh", bonus=11)])
    assert settled_box(small, 1).bonus.needs_approval is False  # 100 is not above 100
    assert settled_box(large, 1).bonus.needs_approval is True
    assert large.settlement.pending_approvals == (1,)


def test_under_the_house_option_only_the_awards_that_need_approval_are_held_THB_54():
    hand = played_hand(ONLY_THB54_HELD, dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Qd Qh", bonus=10)])
    assert settled_box(hand, 1).bonus.needs_approval is False and hand.is_finished


def test_by_default_the_pit_boss_releases_every_winning_bonus_THB_67():
    """THB-67, as written: Bonus-winning hands stay face up until the pit boss orders them removed."""
    rules = TableRules(min_ante=5)
    assert rules.release_every_bonus is True
    hand = played_hand(rules, dealer=["3h", "4s"], board=BOARD, boxes=[box(1, 10, "Qd Qh", bonus=10),
                                                                         box(2, 10, "7c 2d", bonus=5)])
    assert settled_box(hand, 1).bonus.needs_approval is True and hand.settlement.pending_approvals == (1,)
    assert not hand.is_finished
    assert settled_box(hand, 2).bonus.needs_approval is False  # a losing Bonus has nothing to release
    released = hand.approve_bonus(1, approver="pat")
    assert released.is_finished and settled_box(released, 1).bonus.wager.net > 0


def test_the_release_option_keeps_to_the_record_and_replays_THB_67():
    from casino.rules.holdem_bonus.record import replay_thb_record

    rules = TableRules(min_ante=5)
    assert TableRules.from_dict(rules.to_dict()) == rules
    house_option = TableRules(min_ante=5, release_every_bonus=False)
    assert "release_every_bonus" not in house_option.to_dict()  # as every hand's JSON before the default
    assert TableRules.from_dict(house_option.to_dict()) == house_option
    with pytest.raises(RuleViolation) as refused:
        TableRules(min_ante=5, release_every_bonus="yes")
    assert refused.value.clause == "THB-67"
    record = {"game": "texas-holdem-bonus", "limits": {"min_ante": 5}, "house": {"release_every_bonus": True},
              "dealer": ["3h", "4s"], "board": BOARD,
              "boxes": [{"box": 1, "ante": 10, "bonus": 10, "cards": ["Qd", "Qh"], "flop": "bet", "turn": "check",
                         "river": "check"}]}
    assert replay_thb_record(record)["boxes"][0]["needs_approval"] is True
    # A record kept before the default changed says nothing: it replays as it was played.
    del record["house"]
    assert replay_thb_record(record)["boxes"][0]["needs_approval"] is False


def test_a_folded_boxs_bonus_is_still_settled_on_its_cards_C_31():
    hand = played_hand(dealer=["3h", "4s"], board=BOARD,
                       boxes=[box(1, 10, "Kd Qh"), box(2, 10, "Ah Kh", flop="fold", bonus=5)])
    result = settled_box(hand, 2)
    assert result.outcome is Outcome.FOLD
    assert result.bonus.award == "ak-suited" and result.bonus.wager.net == 125 and result.net == 115


def test_when_all_fold_the_dealers_cards_still_decide_the_1000_to_1_C_31(open_hand):
    hand = (open_hand.place_ante(2, 10).place_bonus(2, 5).close_bets().deal_initial()
            .fold(2, ["As", "Ac"]))
    assert hand.phase is Phase.SHOWDOWN
    assert hand.awaiting == "the dealer's cards, for the A-A Bonus (C-31)"
    with_aces = hand.reveal_dealer(["Ah", "Ad"])
    assert with_aces.settlement.box(2).bonus.award == "aa-vs-dealer-aa"
    without = hand.reveal_dealer(["Kh", "Kd"])
    assert without.settlement.box(2).bonus.award == "aa" and without.settlement.box(2).net == 140


def test_a_folded_box_with_a_bonus_waits_for_its_cards_before_settling_C_31(open_hand):
    hand = open_hand.place_ante(2, 10).place_bonus(2, 5).close_bets().deal_initial().fold(2)
    assert hand.phase is Phase.SHOWDOWN
    assert hand.awaiting == "box 2's cards, for its Bonus (C-31)"
    assert hand.reveal_box(2, ["7c", "7d"]).settlement.box(2).bonus.award == "pair-2-10"


def test_the_dealer_shows_first_then_boxes_7_down_to_1_THB_15(three_boxes_at_river):
    hand = three_boxes_at_river
    with pytest.raises(RuleViolation) as refused:
        hand.verify_reveal_box(5, ["3c", "4d"])
    assert refused.value.clause == "THB-15"
    hand = hand.reveal_dealer(["Qc", "Qd"])
    with pytest.raises(RuleViolation, match="Box 5 is shown before box 3"):
        hand.verify_reveal_box(3, ["8c", "8d"])
    hand = hand.reveal_box(5, ["3c", "4d"]).reveal_box(3, ["8c", "8d"]).reveal_box(1, ["Tc", "8h"])
    assert hand.phase is Phase.SETTLED
    assert [b.outcome.value for b in hand.settlement.boxes] == ["win", "lose", "lose"]


def test_the_dealers_cards_are_not_shown_before_the_river_THB_73(three_boxes_dealt):
    with pytest.raises(RuleViolation) as refused:
        three_boxes_dealt.verify_reveal_dealer(["Qc", "Qd"])
    assert refused.value.clause == "THB-73"


def test_the_house_result_is_minus_the_players_nets(three_boxes_at_river):
    hand = (three_boxes_at_river.reveal_dealer(["Qc", "Qd"]).reveal_box(5, ["3c", "4d"])
            .reveal_box(3, ["8c", "8d"]).reveal_box(1, ["Tc", "8h"]))
    nets = [b.net for b in hand.settlement.boxes]
    assert nets == [10 + 20 + 10 - 5, -20 - 40 - 20, -5 - 10]
    assert hand.settlement.house_net == -sum(nets)


def test_the_dealer_and_each_box_announce_their_best_five_cards_THB_46_THB_61(three_boxes_at_river):
    assert three_boxes_at_river.dealer_hand_value() is None  # not shown yet
    hand = three_boxes_at_river.reveal_dealer(["Qc", "Qd"]).reveal_box(5, ["3c", "4d"])
    dealer = hand.dealer_hand_value()
    assert dealer.category.value == "one-pair"
    assert sorted(map(str, dealer.best_five)) == sorted(["Qc", "Qd", "Kc", "Js", "9h"])
    assert hand.hand_value(5).describe() == "high-card (Kc Js 9h 7d 4d)"


def test_a_settled_hand_takes_no_more_actions_THB_64(three_boxes_at_river):
    hand = (three_boxes_at_river.reveal_dealer(["Qc", "Qd"]).reveal_box(5, ["3c", "4d"])
            .reveal_box(3, ["8c", "8d"]).reveal_box(1, ["Tc", "8h"]))
    with pytest.raises(RuleViolation) as refused:
        hand.verify_reveal_box(1, ["Tc", "8h"])
    assert refused.value.clause == "THB-64"
    assert hand.is_finished and hand.awaiting == "nothing: the hand is settled"


def test_the_showdown_goes_from_box_7_to_box_1_with_a_folded_bonus_box_in_its_place_THB_15_C_31(open_hand):
    hand = (open_hand.place_ante(3, 10).place_bonus(3, 5).place_ante(5, 10).place_ante(6, 10).place_bonus(6, 5)
            .close_bets().deal_initial().fold(3).bet_flop(5, 20).fold(6).deal_flop(["2c", "7d", "9h"])
            .pass_turn(5).deal_turn("Js").pass_river(5).deal_river("Kc"))
    assert hand.showdown_order == (("dealer", None), ("box", 6), ("box", 5), ("box", 3))
    hand = hand.reveal_dealer(["3h", "4s"])
    assert hand.awaiting == "box 6's cards, for its Bonus (C-31)"
    hand = hand.reveal_box(6, ["Qd", "Qc"])
    assert hand.showdown_order == (("box", 5), ("box", 3)) and hand.awaiting == "box 5's cards (THB-15)"
    hand = hand.reveal_box(5, ["8s", "8d"]).reveal_box(3, ["5c", "5d"])
    assert hand.showdown_order == () and hand.phase is Phase.SETTLED
