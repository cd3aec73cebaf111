"""Dealt mode: the engine deals from its own shuffled shoe, in the manual's order (THB-40..45)."""

from __future__ import annotations

import pytest

from casino.rules.cards import full_deck
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Mode, Phase, replay
from casino.rules.shuffle import Shoe


@pytest.fixture
def ordered_shoe() -> Shoe:
    """An unshuffled deck, so the deal order can be read off: 2c 2d 2h 2s 3c ..."""
    return Shoe.from_cards(full_deck())


@pytest.fixture
def dealt_hand(open_hand, ordered_shoe):
    return open_hand.place_ante(2, 10).place_ante(6, 10).load_shoe(ordered_shoe).close_bets().deal_initial()


def text(cards) -> list[str]:
    return [str(c) for c in cards]


def test_cards_go_one_at_a_time_players_dealer_players_dealer_THB_40(dealt_hand):
    assert dealt_hand.mode is Mode.DEALT
    assert text(dealt_hand.box(2).cards) == ["2c", "2s"]
    assert text(dealt_hand.box(6).cards) == ["2d", "3c"]
    assert text(dealt_hand.dealer_cards) == ["2h", "3d"]


def test_each_street_burns_one_card_first_THB_42_THB_44_THB_45(dealt_hand):
    hand = dealt_hand.bet_flop(2).bet_flop(6).deal_flop()
    assert text(hand.board) == ["3s", "4c", "4d"] and text(hand.discards) == ["3h"]
    hand = hand.pass_turn(2).pass_turn(6).deal_turn().pass_river(2).pass_river(6).deal_river()
    assert text(hand.board) == ["3s", "4c", "4d", "4s", "5d"]
    assert text(hand.discards) == ["3h", "4h", "5c"]
    assert hand.phase is Phase.RIVER


def test_a_dealt_hand_settles_after_the_dealer_and_boxes_are_shown_THB_15(dealt_hand):
    hand = (dealt_hand.bet_flop(2).bet_flop(6).deal_flop().pass_turn(2).pass_turn(6).deal_turn()
            .pass_river(2).pass_river(6).deal_river().reveal_dealer().reveal_box(6).reveal_box(2))
    assert hand.phase is Phase.SETTLED
    # Board 3s 4c 4d 4s 5d: box 6 (2d 3c) and the dealer (2h 3d) both make fours full of threes;
    # box 2 (2c 2s) makes fours full of twos and loses.
    assert hand.settlement.box(6).outcome.value == "push"
    assert hand.settlement.box(2).outcome.value == "lose"
    assert hand.settlement.dealer_category.value == "full-house"


def test_cards_entered_in_dealt_mode_must_be_the_ones_dealt(dealt_hand):
    hand = dealt_hand.bet_flop(2).bet_flop(6)
    with pytest.raises(RuleViolation, match="The flop dealt from the shoe are 3s 4c 4d, not"):
        hand.verify_deal_flop(["Ah", "Kh", "Qh"])
    assert hand.can_deal_flop(["4d", "3s", "4c"])


def test_a_dealt_hand_replays_exactly_from_its_records(open_hand):
    hand = open_hand.place_ante(1, 10).place_bonus(1, 5).load_shoe(Shoe.shuffled()).close_bets().deal_initial()
    hand = hand.bet_flop(1).deal_flop().bet_turn(1).deal_turn().bet_river(1).deal_river().reveal_dealer()
    hand = hand.reveal_box(1)
    records = [a.to_dict() for a in hand.actions]
    again = replay(hand.rules, records)
    assert again == hand
    assert again.settlement == hand.settlement


def test_the_shoe_must_be_a_complete_deck_THB_03(open_hand):
    cards = [str(c) for c in full_deck()][:51]
    with pytest.raises(RuleViolation, match="missing: As"):
        open_hand.verify_load_shoe(cards)


def test_the_shoe_is_loaded_once_before_the_deal_THB_32(dealt_hand, ordered_shoe):
    assert not dealt_hand.can_load_shoe(ordered_shoe.cards)


def test_recorded_mode_needs_the_cards_entered(three_boxes_dealt):
    hand = three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5)
    with pytest.raises(RuleViolation, match="Enter the flop"):
        hand.verify_deal_flop()


def test_the_next_card_of_the_shoe_is_the_card_used_a_card_drawn_by_mistake_is_not_skipped_THB_75(dealt_hand):
    """THB-75: a card drawn by mistake and not seen is used as if it were the next card: the deal takes the
    shoe's cards in order, and no record may skip one or put another in its place."""
    after_flop = dealt_hand.bet_flop(2).bet_flop(6).deal_flop()
    after_flop = after_flop.pass_turn(2).pass_turn(6) if after_flop.to_act else after_flop
    the_turn = after_flop.deal_turn().board[3]
    others = [c for c in ("Ah", "Kh", "Qh", "2c", "5d") if c != str(the_turn)]
    assert all(not after_flop.can_deal_turn(c) for c in others)
    assert after_flop.can_deal_turn(str(the_turn))
