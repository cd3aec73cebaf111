"""Button, blinds and antes: derived or explicit seats, heads-up, dead button and small blind, the ante kinds.

TDA-32, TDA-34, CC-77, CC-80, CC-81, RP-11, CC-50, CC-51 (C-02), TDA-43-ex2,
TDA-54-B.
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import AnteKind, Betting, HouseRules, TableSetup
from tests.rules.holdem.helpers import new_hand, to_street


def test_CC_77_the_blinds_sit_left_of_the_button_and_the_first_to_act_left_of_the_big_blind():
    hand = new_hand({2: 5_000, 4: 5_000, 7: 5_000, 9: 5_000}, button=7)
    assert (hand.setup.sb_seat, hand.setup.bb_seat) == (9, 2)
    assert hand.stacks == {9: 4_900, 2: 4_800, 4: 5_000, 7: 5_000}
    assert hand.to_act == 4


def test_CC_111_after_the_flop_the_first_player_left_of_the_button_acts_first():
    hand = to_street(new_hand({2: 5_000, 4: 5_000, 7: 5_000, 9: 5_000}, button=7), "flop")
    assert hand.to_act == 9


def test_TDA_34_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    hand = new_hand({3: 5_000, 8: 5_000}, button=8)
    assert (hand.setup.sb_seat, hand.setup.bb_seat) == (8, 3)
    assert hand.to_act == 8 and hand.legal().call == 100


def test_TDA_34_heads_up_the_button_acts_last_after_the_flop():
    hand = to_street(new_hand({3: 5_000, 8: 5_000}, button=8), "flop")
    assert hand.to_act == 3
    hand = hand.check(3)
    assert hand.to_act == 8


def test_TDA_32_a_dead_button_on_an_empty_seat_still_orders_the_play():
    # Seat 5 was eliminated last hand: the button stays on the empty seat 5.
    hand = new_hand({1: 5_000, 3: 5_000, 7: 5_000}, button=5)
    assert (hand.setup.sb_seat, hand.setup.bb_seat) == (7, 1)
    assert hand.to_act == 3
    hand = to_street(hand, "flop")
    assert hand.to_act == 7


def test_CC_80_a_dead_small_blind_means_only_a_big_blind_is_posted():
    hand = new_hand({1: 5_000, 3: 5_000, 7: 5_000, 9: 5_000}, button=7, small_blind_seat=None, big_blind_seat=1)
    assert hand.setup.sb_seat is None
    assert hand.pot_total == 200 and hand.stacks[9] == 5_000
    assert hand.to_act == 3


def test_CC_81_dead_button_and_dead_small_blind_together():
    hand = new_hand({1: 5_000, 3: 5_000, 7: 5_000}, button=5, small_blind_seat=None, big_blind_seat=7)
    assert hand.pot_total == 200 and hand.to_act == 1


def test_a_dead_small_blind_needs_the_big_blind_seat():
    with pytest.raises(RuleViolation) as refused:
        TableSetup(stacks={1: 100, 2: 100, 3: 100}, button=1, small_blind=1, big_blind=2, small_blind_seat=None)
    assert refused.value.clause == "CC-80"


def test_blind_seats_must_hold_players():
    with pytest.raises(RuleViolation):
        TableSetup(stacks={1: 100, 2: 100, 3: 100}, button=1, small_blind=1, big_blind=2, big_blind_seat=6)


def test_TDA_43_ex2_a_big_blind_posted_short_is_still_the_full_bet_to_call():
    hand = new_hand({1: 10_000, 2: 150, 3: 10_000}, button=3, small=100, big=200)
    assert hand.stacks[2] == 0
    legal = hand.legal()
    assert legal.seat == 3 and legal.call == 200 and legal.min_to == 400


def test_a_short_big_blind_caller_gets_the_unmatched_part_back():
    hand = new_hand({1: 10_000, 2: 150, 3: 10_000}, button=3, small=100, big=200)
    hand = hand.call(3)
    hand = hand.fold(1)
    # The round is over: seat 3's 50 above the big blind's 150 was never matched.
    assert hand.stacks[3] == 9_850 and hand.pot_total == 100 + 150 + 150


def test_TDA_54_B_an_incomplete_all_in_big_blind_counts_in_full_for_the_pot_limit_maximum():
    full = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=3, betting=Betting.POT_LIMIT)
    short = new_hand({1: 10_000, 2: 150, 3: 10_000}, button=3, betting=Betting.POT_LIMIT)
    # Pot 300 and 200 to call: a pot raise is to 200 + 300 + 200 = 700, short blind or not.
    assert full.legal().max_to == 700
    assert short.legal().max_to == 700


def test_RP_11_the_big_blind_ante_is_paid_before_the_blind_and_is_dead_money():
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=3, ante=(AnteKind.BIG_BLIND, 200))
    assert hand.stacks == {1: 9_900, 2: 9_600, 3: 10_000}
    # The ante is not part of the big blind's bet: others call 200, not 400.
    assert hand.legal().call == 200 and hand.pot_total == 500


def test_RP_11_a_short_big_blind_pays_the_ante_first():
    hand = new_hand({1: 10_000, 2: 300, 3: 10_000}, button=3, ante=(AnteKind.BIG_BLIND, 200))
    assert hand.stacks[2] == 0 and hand.bets[hand._pos[2]] == 100 and hand.dead[hand._pos[2]] == 200


def test_RP_11_a_big_blind_all_in_for_the_ante_can_win_only_the_ante_back():
    hand = new_hand({1: 10_000, 2: 150, 3: 10_000}, button=3, ante=(AnteKind.BIG_BLIND, 200),
                    cards={1: "2c2d", 2: "AsAh", 3: "7c8d"})
    hand = hand.call(3)
    hand = hand.call(1)
    pots = hand.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(150, (1, 2, 3)), (400, (1, 3))]


def test_CC_50_the_button_pays_the_ante_with_seven_or_more_at_the_table():
    hand = new_hand([10_000] * 7, button=7, ante=(AnteKind.BUTTON, 200))
    assert hand.stacks[7] == 9_800 and hand.pot_total == 500


def test_CC_51_the_button_ante_is_halved_with_six_or_fewer_players():
    hand = new_hand([10_000] * 6, button=6, ante=(AnteKind.BUTTON, 200))
    assert hand.stacks[6] == 9_900


def test_C_02_the_house_may_never_halve_the_ante_as_RP_11_recommends():
    hand = new_hand([10_000] * 6, button=6, ante=(AnteKind.BUTTON, 200),
                    rules=HouseRules(button_ante_halved_at_or_below=None))
    assert hand.stacks[6] == 9_800


def test_CC_52_a_dead_button_pays_no_ante():
    hand = new_hand({1: 10_000, 3: 10_000, 7: 10_000}, button=5, ante=(AnteKind.BUTTON, 200))
    assert hand.pot_total == 300


def test_C_02_the_default_ante_kind_is_the_button_ante():
    setup = TableSetup.from_dict({"blinds": {"small": 100, "big": 200}, "button": 3, "ante": {"amount": 200},
                                  "stacks": {"1": 1_000, "2": 1_000, "3": 1_000}})
    assert setup.ante.kind is AnteKind.BUTTON


def test_every_player_antes_and_a_short_ante_is_all_in_for_that_much():
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000, 4: 50}, button=4, ante=(AnteKind.EVERY_PLAYER, 100))
    assert hand.stacks[4] == 0
    hand = hand.call(3)
    # Seat 4 can win only 50 from each player: the main pot is 4 x 50.
    assert hand.pots()[0].amount == 200 and 4 in hand.pots()[0].eligible
    assert all(4 not in p.eligible for p in hand.pots()[1:])


def test_a_player_all_in_on_the_blind_does_not_act():
    hand = new_hand({1: 50, 2: 10_000, 3: 10_000}, button=3)
    assert hand.stacks[1] == 0
    hand = hand.call(3)
    assert hand.to_act == 2  # seat 1, all-in on the small blind, is skipped


def test_stacks_and_blinds_must_be_whole_chips_of_the_smallest_denomination():
    with pytest.raises(RuleViolation) as refused:
        TableSetup(stacks={1: 1_010, 2: 1_000}, button=1, small_blind=25, big_blind=50, chip_unit=25)
    assert refused.value.clause == "TDA-20"
    with pytest.raises(RuleViolation):
        TableSetup(stacks={1: 1_000.5, 2: 1_000}, button=1, small_blind=25, big_blind=50)
