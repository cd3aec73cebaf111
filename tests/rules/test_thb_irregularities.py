"""Irregularities as engine actions, with the manual's outcomes (THB-24, THB-73..76, C-29)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Outcome, Phase
from casino.rules.shuffle import Shoe


def every_stake_returned(hand) -> bool:
    return all(w.net == 0 and w.returned == w.stake for b in hand.settlement.boxes for w in b.wagers.values())


def test_a_dealer_card_shown_before_every_player_decided_voids_the_round_and_returns_every_bet_THB_73(
    three_boxes_dealt,
):
    hand = three_boxes_dealt.bet_flop(1).report_dealer_card_exposed()
    assert hand.phase is Phase.VOID and hand.void_clause == "THB-73"
    assert every_stake_returned(hand)
    assert [b.staked for b in hand.settlement.boxes] == [10 + 5 + 20, 20, 5]
    assert hand.settlement.house_net == 0


def test_a_dealer_card_shown_after_every_decision_changes_nothing_THB_73(three_boxes_at_river):
    hand = three_boxes_at_river.report_dealer_card_exposed()
    assert hand.phase is Phase.RIVER
    assert "no effect" in hand.irregularities[-1]


def test_one_card_face_up_in_the_deck_is_burned_and_play_goes_on_THB_74(three_boxes_dealt):
    hand = three_boxes_dealt.report_face_up_card(1, "Qs")
    assert hand.phase is Phase.INITIAL_DEAL
    assert [str(c) for c in hand.discards] == ["Qs"]
    hand = hand.bet_flop(1).bet_flop(3).bet_flop(5)
    with pytest.raises(RuleViolation, match="Qs in the flop is already in the discards"):
        hand.verify_deal_flop(["Qs", "2c", "3c"])


def test_more_than_one_card_face_up_in_the_deck_voids_the_round_and_reshuffles_THB_74(three_boxes_dealt):
    hand = three_boxes_dealt.report_face_up_card(2)
    assert hand.phase is Phase.VOID and hand.needs_reshuffle
    assert every_stake_returned(hand)


def test_face_up_cards_are_reported_only_while_dealing_THB_74(open_hand, three_boxes_at_river):
    with pytest.raises(RuleViolation) as refused:
        open_hand.verify_report_face_up_card(1)
    assert refused.value.clause == "THB-74"
    assert not three_boxes_at_river.can_report_face_up_card(1)


def test_a_box_dealt_the_wrong_number_of_cards_is_void_and_the_others_play_on_THB_76(three_boxes_dealt):
    hand = three_boxes_dealt.report_box_wrong_card_count(3, 3)
    assert hand.box(3).void and hand.phase is Phase.INITIAL_DEAL
    assert hand.to_act == 1
    hand = hand.bet_flop(1)
    assert hand.to_act == 5  # box 3 is skipped
    hand = (hand.bet_flop(5).deal_flop(["2c", "7d", "9h"]).pass_turn(1).pass_turn(5).deal_turn("Js")
            .pass_river(1).pass_river(5).deal_river("Kc").reveal_dealer(["3h", "4s"])
            .reveal_box(5, ["Qc", "Qd"]).reveal_box(1, ["Kd", "Kh"]))
    assert hand.phase is Phase.SETTLED
    void_box = hand.settlement.box(3)
    assert void_box.outcome is Outcome.VOID and void_box.net == 0 and void_box.returned == 20
    assert hand.settlement.box(1).outcome is Outcome.WIN


def test_a_void_box_has_no_more_decisions_THB_76(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).report_box_wrong_card_count(3, 1)
    with pytest.raises(RuleViolation) as refused:
        hand.verify_bet_flop(3, 40)
    assert refused.value.clause == "THB-76"


def test_two_cards_is_not_a_wrong_number_THB_76(three_boxes_dealt):
    assert not three_boxes_dealt.can_report_box_wrong_card_count(1, 2)
    assert not three_boxes_dealt.can_report_dealer_wrong_card_count(2)


def test_when_every_box_is_void_the_round_is_void_THB_76(open_hand):
    hand = open_hand.place_ante(1, 10).place_bonus(1, 2).close_bets().deal_initial()
    hand = hand.report_box_wrong_card_count(1, 3)
    assert hand.phase is Phase.VOID
    assert every_stake_returned(hand)


def test_the_dealer_dealt_the_wrong_number_voids_the_round_THB_76(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).report_dealer_wrong_card_count(3)
    assert hand.phase is Phase.VOID and hand.void_clause == "THB-76"
    assert every_stake_returned(hand)


def test_the_dealer_short_a_card_is_corrected_in_sequence_face_down_and_play_goes_on_THB_76(three_boxes_dealt):
    hand = three_boxes_dealt.report_dealer_wrong_card_count(1, correctable=True)
    assert hand.phase is Phase.INITIAL_DEAL
    assert "corrected in sequence" in hand.irregularities[-1]


def test_the_dealers_shown_cards_cannot_be_corrected_THB_76(three_boxes_at_river):
    hand = three_boxes_at_river.reveal_dealer(["Qc", "Qd"])
    assert not hand.can_report_dealer_wrong_card_count(3, correctable=True)


def test_any_other_dealing_error_voids_the_whole_round_THB_24(three_boxes_at_river):
    hand = three_boxes_at_river.void_hand("The deck was found defective", clause="C-35")
    assert hand.phase is Phase.VOID and hand.void_reason == "The deck was found defective"
    assert every_stake_returned(hand)
    assert not hand.can_void_hand("again")


def test_a_void_needs_a_reason_THB_24(three_boxes_dealt):
    assert not three_boxes_dealt.can_void_hand("  ")


def test_a_settled_hand_cannot_be_voided(open_hand):
    hand = open_hand.place_ante(1, 10).close_bets().deal_initial().fold(1)
    assert hand.phase is Phase.SETTLED
    with pytest.raises(RuleViolation, match="The hand is settled"):
        hand.verify_void_hand("too late")


def test_in_dealt_mode_a_face_up_card_takes_the_top_card_of_the_shoe_out_of_play_THB_74(open_hand):
    shoe = Shoe.shuffled()
    hand = open_hand.place_ante(1, 10).load_shoe(shoe).close_bets().report_face_up_card(1).deal_initial()
    assert hand.discards == shoe.cards[:1]
    assert hand.box(1).cards == (shoe.cards[1], shoe.cards[3])
