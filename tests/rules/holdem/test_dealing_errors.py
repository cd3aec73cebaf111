"""The dealer's errors with the cards and the procedures' outcomes (issue #38 item 2): premature board cards
(RP-05-A/B/C, CC-106, CC-107), a four-card flop (CC-103, TDA-39), cards exposed in the deal and after (CC-94..101,
TDA-35-A(5)), an extra card (CC-102), boxed cards (C-07), the button short (TDA-37), a wrong card count (CC-98,
TDA-38), a dropped stub (RP-04) and burn errors (CC-104, CC-105); each replays to the same stacks."""

from __future__ import annotations

import pytest

from casino.rules.cards import parse_cards
from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, HouseRules, MisdealCutoff, Phase, Street, action_from_dict
from casino.rules.holdem.replay import replay_holdem_hand
from tests.rules.holdem.helpers import finish, new_hand, play_round_passively

CARDS = {1: "AsAd", 2: "KsKd", 3: "QsQd", 4: "JsJd"}


def four_handed(rules: HouseRules | None = None, cards: dict | None = None) -> HoldemHand:
    return new_hand([10_000] * 4, button=4, rules=rules, cards=cards)


def refused(step, *args, **kwargs) -> str:
    with pytest.raises(RuleViolation) as refusal:
        step(*args, **kwargs)
    return refusal.value.clause


def replays_the_same(hand: HoldemHand) -> None:
    again = HoldemHand.replay(hand.setup, [a.to_dict() for a in hand.actions], hand.rules)
    assert again.stacks == hand.stacks and again.board == hand.board and again.burns == hand.burns
    assert again.phase is hand.phase and again.director_calls == hand.director_calls


# -- premature board cards -----------------------------------------------------------------------------


def test_a_premature_flop_keeps_its_burn_and_the_new_flop_is_dealt_without_a_burn_RP_05_A():
    hand = four_handed().call(3)
    hand = hand.premature_board(parse_cards("2c3d4h"), "5s")
    assert hand.phase is Phase.BETTING and hand.board == ()  # not used (CC-106)
    hand = play_round_passively(hand)
    # the burn is already on the table: another burn is refused, the premature cards may come again
    assert refused(hand.deal_flop, parse_cards("2c3d9h"), "6s") == "RP-05-A"
    hand = hand.deal_flop(parse_cards("2c3d9h"))
    assert hand.burns == (parse_cards("5s")[0],) and hand.board == parse_cards("2c3d9h")
    replays_the_same(hand)


def test_premature_flop_cards_are_not_used_even_if_everyone_folds_CC_106():
    hand = four_handed().premature_board()
    hand = hand.fold(3).fold(4).fold(1)
    assert hand.phase is Phase.AWARD and hand.board == ()
    hand = hand.award_pots()
    assert hand.stacks[2] == 10_100


def test_a_premature_turn_is_set_aside_the_turn_burnt_and_the_river_dealt_without_a_burn_RP_05_B():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    hand = hand.check(1).premature_board(parse_cards("9c"), "8c")
    # the set-aside card is not the turn
    assert refused(hand.check(2).check(3).check(4).deal_turn, "9c", "7c") == "TDA-35-E"
    hand = play_round_passively(hand).deal_turn("Tc", "7c")
    hand = play_round_passively(hand)
    assert refused(hand.deal_river, "9c", "6c") == "RP-05-B"  # no burn on the river
    hand = hand.deal_river("9c")  # the set-aside card went back into the stub: it may be the river
    assert hand.burns[-1] is None and hand.board[-1] == parse_cards("9c")[0]
    replays_the_same(hand)


def test_a_premature_river_goes_back_the_burn_stays_and_the_river_comes_without_a_burn_RP_05_C():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    hand = play_round_passively(hand).deal_turn("Tc", "7c")
    hand = hand.check(1).premature_board(parse_cards("9c"), "8c")
    hand = play_round_passively(hand)
    assert refused(hand.deal_river, "Kc", "6c") == "RP-05-C"
    hand = hand.deal_river("9c")
    assert hand.burns[-1] == parse_cards("8c")[0] and hand.board[-1] == parse_cards("9c")[0]
    replays_the_same(hand)


def test_board_cards_are_premature_only_while_a_round_is_open_CC_106():
    hand = play_round_passively(four_handed())
    assert refused(hand.premature_board) == "CC-106"


# -- a four-card flop ----------------------------------------------------------------------------------


def test_a_four_card_flop_is_refused_as_a_deal_CC_103():
    hand = play_round_passively(four_handed())
    assert refused(hand.deal_flop, parse_cards("2c3d4h5h"), "5s") == "CC-103"
    assert not hand.can_deal_flop(parse_cards("2c3d4h5h"))


def test_a_four_card_flop_is_redealt_without_a_burn_even_if_the_extra_card_is_known_CC_103_CC_107():
    hand = play_round_passively(four_handed())
    hand = hand.four_card_flop(parse_cards("2c3d4h5h"), "6s")
    assert hand.phase is Phase.BOARD and hand.board == () and hand.director_calls == ()
    assert refused(hand.deal_flop, parse_cards("2c3d4h"), "7s") == "CC-107"
    hand = hand.deal_flop(parse_cards("5h3d4h"))
    assert hand.burns == (parse_cards("6s")[0],) and hand.street is Street.FLOP
    replays_the_same(hand)


def test_under_TDA_39_the_director_is_called_and_his_pick_is_the_turn_s_burn_TDA_39():
    hand = play_round_passively(four_handed(HouseRules(four_card_flop="TDA-39")))
    assert refused(hand.four_card_flop, parse_cards("2c3d4h5h"), "6s") == "TDA-39"  # his pick is needed
    hand = hand.four_card_flop(parse_cards("2c3d4h5h"), "6s", "4h")
    assert hand.board == parse_cards("2c3d5h") and hand.director_calls == ("TDA-39",)
    hand = play_round_passively(hand)
    hand = hand.deal_turn("Tc")
    assert hand.burns == parse_cards("6s4h")
    replays_the_same(hand)


# -- cards exposed in the deal and after ---------------------------------------------------------------


@pytest.mark.parametrize("position", [1, 2])
def test_the_first_or_second_card_exposed_by_the_dealer_is_a_misdeal_CC_98_TDA_35_A(position):
    hand = four_handed().exposed_in_deal(position, 1, "Ah")
    assert hand.phase is Phase.MISDEAL and hand.stacks == dict.fromkeys(range(1, 5), 10_000)
    replays_the_same(hand)


def test_from_the_third_card_the_exposed_card_is_replaced_and_becomes_the_flop_s_burn_CC_101():
    hand = four_handed(cards=CARDS).exposed_in_deal(5, 1, "As", "2h")
    assert hand.phase is Phase.BETTING and hand.hole[0] == parse_cards("2hAd")
    hand = play_round_passively(hand)
    assert refused(hand.deal_flop, parse_cards("3c4c5c"), "6c") == "CC-101"
    hand = hand.deal_flop(parse_cards("3c4c5c"))
    assert hand.burns == parse_cards("As")
    replays_the_same(hand)


def test_two_cards_exposed_by_the_dealer_are_a_misdeal_CC_98():
    hand = four_handed().exposed_in_deal(5, 1).exposed_in_deal(7, 3)
    assert hand.phase is Phase.MISDEAL


def test_an_exposed_card_is_recorded_during_the_deal_only_CC_101():
    assert refused(four_handed().call(3).exposed_in_deal, 5) == "CC-101"


def test_a_card_exposed_after_the_deal_is_shown_and_the_hand_stays_live_CC_94():
    hand = four_handed(cards=CARDS).call(3).exposed_card(3, "Qs")
    assert hand.exposed_cards() == {3: ["Qs"]} and not hand.folded[2] and hand.director_calls == ()
    assert refused(hand.exposed_card, 3, "2c") == "CC-94"  # not his card
    replays_the_same(hand)


def test_a_card_exposed_on_purpose_calls_the_director_for_the_penalty_CC_95():
    hand = four_handed().call(3).exposed_card(3, "Qs", True)
    assert hand.director_calls == ("CC-95",) and not hand.folded[2]


def test_an_unidentified_exposed_card_shows_the_whole_hand_CC_96():
    hand = four_handed().exposed_card(1)
    assert hand.exposed_cards() == {1: ["?"]}


# -- an extra card, boxed cards -------------------------------------------------------------------------


def test_an_extra_card_to_the_first_player_returns_as_the_flop_s_burn_CC_102():
    hand = four_handed().extra_card("9d")
    hand = play_round_passively(hand).deal_flop(parse_cards("2c3c4c"))
    assert hand.burns == parse_cards("9d")
    assert refused(four_handed().call(3).extra_card, "9d") == "CC-102"  # before the first round starts
    replays_the_same(hand)


def test_two_extra_cards_in_the_initial_deal_are_a_misdeal_CC_98():
    assert four_handed().extra_card(count=2).phase is Phase.MISDEAL


def test_boxed_cards_are_scrap_paper_by_default_CC_100_C_07():
    hand = four_handed().boxed_cards(2, parse_cards("9d9h"))
    assert hand.phase is Phase.BETTING
    assert refused(play_round_passively(hand).deal_flop, parse_cards("9d2c3c")) == "TDA-35-E"  # discarded


def test_boxed_cards_after_a_card_went_to_the_next_player_are_a_misdeal_CC_100():
    assert four_handed().boxed_cards(2, next_dealt=True).phase is Phase.MISDEAL


def test_under_TDA_two_boxed_cards_are_a_misdeal_and_one_is_not_TDA_35_A():
    rules = HouseRules(boxed_cards="TDA-35-A")
    assert four_handed(rules).boxed_cards(2).phase is Phase.MISDEAL
    assert four_handed(rules).boxed_cards(1).phase is Phase.BETTING


def test_the_house_reads_boxed_cards_by_CC_100_C_07():
    assert HouseRules().boxed_cards == "CC-100"
    assert refused(HouseRules, boxed_cards="THB-74") == "C-07"


# -- the button short a card, a wrong card count -------------------------------------------------------


def test_the_button_short_a_card_is_dealt_it_even_after_substantial_action_TDA_37():
    hand = new_hand([10_000] * 5, button=5).call(3).call(4)  # substantial action (TDA-36)
    hand = hand.button_short("9d")
    assert not hand.folded[4] and hand.phase is Phase.BETTING and hand.to_act == 5
    replays_the_same(hand)


def test_a_button_who_acted_short_a_card_has_a_dead_hand_TDA_37():
    hand = four_handed().call(3).call(4).button_short()
    assert hand.folded[3] and hand.to_act == 1


def test_a_wrong_card_count_before_the_cutoff_is_a_misdeal_CC_98():
    hand = four_handed().fold(3).wrong_card_count(1, 3)
    assert hand.phase is Phase.MISDEAL and hand.stacks == dict.fromkeys(range(1, 5), 10_000)


def test_after_substantial_action_a_wrong_card_count_kills_the_hand_and_one_card_is_burnt_TDA_38():
    rules = HouseRules(misdeal_cutoff=MisdealCutoff.TDA_SUBSTANTIAL_ACTION)
    hand = new_hand([10_000] * 6, button=6, rules=rules)
    hand = hand.fold(3).call(4)  # TDA-38-ex1A: substantial action
    hand = hand.wrong_card_count(5, 1)
    assert hand.folded[4] and hand.to_act == 6
    hand = play_round_passively(hand)
    hand = hand.deal_flop(parse_cards("2c3c4c"), "5c")  # one burn, no double burn (TDA-38-ex1A)
    assert hand.burns == parse_cards("5c")
    replays_the_same(hand)


# -- a dropped stub, burn errors ------------------------------------------------------------------------


def test_a_dropped_stub_records_how_it_was_rebuilt_RP_04():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    assert refused(hand.stub_rebuilt, "guess") == "RP-04"
    hand = play_round_passively(hand)
    kept = hand.stub_rebuilt("stub")
    assert not kept.can_deal_turn("5s")  # the burns stay out of a stub rebuilt from the stub only
    mixed = hand.stub_rebuilt("all")
    assert mixed.can_deal_turn("5s") and mixed.actions[-1].how == "all"
    replays_the_same(mixed)


def test_a_flop_with_no_burn_found_before_anyone_acts_is_dealt_again_CC_104():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"))
    hand = hand.burn_error(0)
    assert hand.phase is Phase.BOARD and hand.board == ()
    hand = hand.deal_flop(parse_cards("3d4h5h"), "2c")
    assert hand.board == parse_cards("3d4h5h")
    replays_the_same(hand)


def test_after_action_the_cards_stand_and_the_next_street_makes_up_for_the_burn_CC_105():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    extra = hand.check(1).burn_error(2)  # an extra burn: the turn comes without one
    assert extra.board == parse_cards("2c3d4h")
    assert refused(play_round_passively(extra).deal_turn, "9c", "8c") == "CC-105"
    missed = hand.check(1).burn_error(0)  # no burn: the turn is burnt twice
    assert missed.burn_plan[0][1] == "two"


# -- the records -----------------------------------------------------------------------------------------


def test_every_dealing_error_record_reads_back_from_its_dict():
    hand = four_handed().extra_card("9d").exposed_card(1, "Ah", True)
    for action in hand.actions:
        assert action_from_dict(action.to_dict()) == action


def test_a_hand_line_with_a_premature_flop_replays_to_the_recorded_stacks_RP_05_A():
    hand = four_handed(cards=CARDS).call(3).premature_board(parse_cards("2c3d4h"), "5s")
    hand = finish(hand, "2c3d9hTc8c")
    assert hand.stacks[1] == 10_600
    line = {"game": "holdem", "button": 4, "blinds": {"small": 100, "big": 200},
            "stacks": {str(s): 10_000 for s in range(1, 5)},
            "actions": [{"seat": 3, "act": "call"},
                        {"act": "premature-board", "cards": ["2c", "3d", "4h"], "burn": "5s"},
                        {"seat": 4, "act": "call"}, {"seat": 1, "act": "call"}, {"seat": 2, "act": "check"},
                        *[{"seat": s, "act": "check"} for _street in range(3) for s in (1, 2, 3, 4)]],
            "board": ["2c", "3d", "9h", "Tc", "8c"], "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                             "3": ["Qs", "Qd"], "4": ["Js", "Jd"]}}
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["payouts"] is not None and answer["stacks"]["1"] == 10_600


def test_a_hand_line_with_a_four_card_flop_redeals_the_flop_CC_103():
    line = {"game": "holdem", "button": 2, "blinds": {"small": 100, "big": 200}, "stacks": {"1": 5_000, "2": 5_000},
            "actions": [{"seat": 2, "act": "call"}, {"seat": 1, "act": "check"},
                        {"act": "four-card-flop", "cards": ["2c", "3d", "4h", "5h"]}, {"seat": 1, "act": "fold"}],
            "board": ["5h", "3d", "4h"]}
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["stacks"] == {"1": 4_800, "2": 5_200}


def test_cards_exposed_or_given_to_hands_not_recorded_are_tabled_with_them_at_the_showdown_CC_94_CC_101_TDA_37():
    hand = new_hand([10_000] * 2, button=2).exposed_card(1, "Ah").exposed_in_deal(3, 2, "Kd", "2s")
    hand = hand.button_short("7d")
    hand = play_round_passively(hand).deal_flop(parse_cards("3c4c9h"))
    hand = play_round_passively(hand).deal_turn("Tc")
    hand = play_round_passively(hand).deal_river("Jc")
    hand = play_round_passively(hand)
    hand = hand.show_hand(2, parse_cards("2s7d")).show_hand(1, parse_cards("AhAd"))
    assert hand.award_pots().stacks == {1: 10_200, 2: 9_800}
    assert hand.burns[0] == parse_cards("Kd")[0]  # the card exposed in the deal was the flop's burn (CC-101)


def test_a_tournament_s_C_07_option_reaches_the_engine_CC_100_by_default_C_07():
    from casino.rules.tournament.options import HouseOptions
    from casino.rules.tournament.table_hand import house_rules_for

    assert house_rules_for(HouseOptions()).boxed_cards == "CC-100"
    tda = house_rules_for(HouseOptions(boxed_cards="TDA-35-A"))
    assert tda.boxed_cards == "TDA-35-A" and HouseRules.from_dict(tda.to_dict()) == tda
    assert refused(HouseOptions, boxed_cards="none") == "C-07"
    assert HouseRules().to_dict() == HouseRules.from_dict({}).to_dict()  # the default writes no new key
    assert "boxed_cards" not in HouseRules().to_dict()


def test_a_hand_killed_for_a_wrong_card_count_takes_its_act_out_of_turn_with_it_TDA_38_TDA_53():
    rules = HouseRules(misdeal_cutoff=MisdealCutoff.TDA_SUBSTANTIAL_ACTION)
    hand = new_hand([10_000] * 6, button=6, rules=rules).fold(3).call(4)  # substantial action
    hand = hand.act_out_of_turn(6, "call")  # seat 6 calls before seat 5 acts
    assert hand.out_of_turn_at(6) is not None
    hand = hand.wrong_card_count(6, 3)
    assert hand.folded[5] and hand.out_of_turn_at(6) is None and hand.to_act == 5
    replays_the_same(hand)


# -- CC-95's cases: who saw the exposed card -------------------------------------------------------------


def test_a_card_shown_to_another_active_player_is_shown_to_everyone_at_once_CC_95():
    hand = four_handed(cards=CARDS).call(3).exposed_card(3, "Qs", seen_by="active")
    assert hand.exposed_cards() == {3: ["Qs"]} and hand.exposed_cards(at_end=True) == {}
    assert hand.actions[-1].seen_by == "active" and not hand.folded[2] and hand.director_calls == ()
    assert action_from_dict(hand.actions[-1].to_dict()) == hand.actions[-1]
    replays_the_same(hand)


def test_a_card_exposed_to_a_player_not_in_the_hand_is_shown_at_the_hand_s_end_CC_95():
    hand = four_handed(cards=CARDS).fold(3).call(4).exposed_card(4, "Js", seen_by="out")
    assert hand.exposed_cards(at_end=True) == {4: ["Js"]} and hand.exposed_cards() == {}
    assert not hand.folded[3] and hand.director_calls == ()
    assert action_from_dict(hand.actions[-1].to_dict()).seen_by == "out"
    replays_the_same(hand)


def test_an_intentional_exposure_keeps_the_hand_and_calls_the_director_whoever_saw_it_CC_95():
    hand = four_handed().call(3).exposed_card(3, "Qs", True, "out")
    assert hand.director_calls == ("CC-95",) and not hand.folded[2]
    assert hand.exposed_cards(at_end=True) == {3: ["Qs"]}


def test_who_saw_an_exposed_card_is_another_active_player_or_one_not_in_the_hand_CC_95():
    hand = four_handed().call(3)
    assert refused(hand.exposed_card, 3, "Qs", None, "nobody") == "CC-95"
    with pytest.raises(RuleViolation):  # a record says it with a word
        action_from_dict({"action": "exposed-card", "seat": 3, "seen_by": 2})


# -- CC-105: an earlier street's burn error in an all-in hand ---------------------------------------------


def all_in_run_out(flop: str = "2c3d4h") -> HoldemHand:
    """Heads-up, all-in before the flop, the flop dealt without a burn, then the turn and river."""
    hand = new_hand([10_000] * 2, button=2, cards={1: "AsAd", 2: "KsKd"}).all_in(2).call(1)
    hand = hand.deal_flop(parse_cards(flop)).deal_turn("6s", "5h").deal_river("8d", "7c")
    assert hand.phase is Phase.SHOWDOWN
    return hand


def test_an_all_in_hand_s_flop_burn_error_found_at_the_showdown_is_corrected_before_the_award_CC_105():
    hand = all_in_run_out()
    for seat in hand.showdown_order():
        hand = hand.show_hand(seat)
    assert hand.phase is Phase.AWARD and "flop" in hand.burn_error_streets()
    hand = hand.burn_error(0, "flop")
    # the flop, turn and river go back: dealt again as they would have come without the error
    assert hand.phase is Phase.BOARD and hand.board == () and hand.burns == () and hand.street is Street.PREFLOP
    hand = hand.deal_flop(parse_cards("3d4h5h"), "2c").deal_turn("7c", "6s").deal_river("9d", "8d")
    for seat in hand.showdown_order():
        hand = hand.show_hand(seat)
    hand = hand.award_pots()
    assert hand.board == parse_cards("3d4h5h7c9d") and hand.stacks == {1: 20_000, 2: 0}
    error = next(a for a in hand.actions if a.kind == "burn-error")
    assert error.to_dict() == {"action": "burn-error", "burns": 0, "street": "flop"}
    replays_the_same(hand)


def test_an_all_in_hand_s_turn_burn_error_takes_back_the_turn_and_the_river_only_CC_105():
    hand = all_in_run_out().burn_error(2, "turn")
    assert hand.board == parse_cards("2c3d4h") and hand.street is Street.FLOP and hand.phase is Phase.BOARD
    assert hand.can_deal_turn("5h", "6s")  # the cards taken back are in the stub again
    replays_the_same(hand)


def test_an_earlier_street_s_burn_error_is_not_corrected_once_the_pot_is_awarded_CC_105():
    hand = all_in_run_out()
    for seat in hand.showdown_order():
        hand = hand.show_hand(seat)
    hand = hand.award_pots()
    assert refused(hand.burn_error, 0, "flop") == "CC-105" and hand.burn_error_streets() == []


def test_after_betting_since_an_earlier_street_its_cards_stand_and_the_next_street_makes_up_for_it_CC_105():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"))  # no burn
    hand = play_round_passively(hand).deal_turn("6s", "5h")
    hand = hand.check(1).burn_error(0, "flop")  # found on the turn, after the flop's betting
    assert hand.board == parse_cards("2c3d4h6s") and hand.burn_plan[0][:2] == (Street.RIVER, "two")
    hand = play_round_passively(hand)
    assert refused(hand.deal_river, "9d", "8d", 1) == "CC-105"  # one burn is not enough: two
    # at the showdown, with betting since, nothing is left to make up for it
    done = play_round_passively(hand.deal_river("9d", "8d", 2, "7d"))
    assert refused(done.burn_error, 0, "flop") == "CC-105"
    assert refused(four_handed().burn_error, 0, "flop") == "CC-105"  # no flop dealt yet
    assert refused(hand.burn_error, 0, "preflop") == "CC-105"


# -- CC-105: the street after a burn error takes two burns, or none ----------------------------------------


def test_after_a_missed_burn_the_next_street_takes_and_records_two_burn_cards_CC_105():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"))  # no burn
    hand = play_round_passively(hand.check(1).burn_error(0))
    assert refused(hand.deal_turn, "9c", "8c", 1) == "CC-105"  # a record of one burn is refused
    hand = hand.deal_turn("9c", "8c", second_burn="7c")
    record = hand.actions[-1]
    assert record.to_dict() == {"action": "deal-turn", "card": "9c", "burn": "8c", "burns": 2, "second_burn": "7c"}
    assert action_from_dict(record.to_dict()) == record
    assert hand.burn_counts == (1, 2) and hand.burn_plan == ()
    hand = play_round_passively(hand)
    assert refused(hand.deal_river, "7c") == "TDA-35-E"  # the second burn card is out of play
    hand = hand.deal_river("Tc")
    assert hand.burn_counts == (1, 2, 1) and hand.actions[-1].burns is None  # one burn again, as usual
    replays_the_same(hand)


def test_a_street_dealt_unrecorded_after_a_missed_burn_still_records_two_burns_CC_105():
    hand = play_round_passively(four_handed()).deal_flop()
    hand = play_round_passively(hand.check(1).burn_error(0)).deal_turn()
    assert hand.actions[-1].burns == 2 and hand.burn_counts == (1, 2)


def test_after_an_extra_burn_the_next_street_takes_no_burn_and_its_record_says_so_CC_105():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    hand = play_round_passively(hand.check(1).burn_error(2))
    assert refused(hand.deal_turn, "9c", None, 2) == "CC-105"
    hand = hand.deal_turn("9c")
    assert hand.actions[-1].to_dict() == {"action": "deal-turn", "card": "9c", "burns": 0}
    assert hand.burn_counts == (1, 0)
    replays_the_same(hand)


def test_a_second_burn_card_is_refused_without_a_missed_burn_CC_105():
    hand = play_round_passively(four_handed()).deal_flop(parse_cards("2c3d4h"), "5s")
    assert refused(play_round_passively(hand).deal_turn, "9c", "8c", None, "7c") == "CC-105"


def test_a_hand_line_s_burns_must_follow_from_its_burn_error_CC_105():
    line = {"game": "holdem", "button": 2, "blinds": {"small": 100, "big": 200}, "stacks": {"1": 5_000, "2": 5_000},
            "actions": [{"seat": 2, "act": "call"}, {"seat": 1, "act": "check"}, {"seat": 1, "act": "check"},
                        {"act": "burn-error", "burns": 0}, {"seat": 2, "act": "check"},
                        {"seat": 1, "act": "bet", "to": 200}, {"seat": 2, "act": "fold"}],
            "board": ["2c", "3d", "4h", "9c"], "burns": {"flop": 1, "turn": 2}}
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["stacks"] == {"1": 5_200, "2": 4_800}
    assert "CC-105" in replay_holdem_hand({**line, "burns": {"flop": 1, "turn": 1}})["error"]
    assert "error" in replay_holdem_hand({**line, "burns": {"turn": "two"}})


def test_a_street_taken_back_keeps_the_burn_already_on_the_table_for_its_new_deal_CC_105_CC_101():
    hand = new_hand([10_000] * 2, button=2, cards={1: "AsAd", 2: "KsKd"}).exposed_in_deal(3, 1, "As", "2h")
    hand = hand.all_in(2).call(1).deal_flop(parse_cards("2c3d4h"))  # its burn: the exposed card (CC-101)
    hand = hand.deal_turn("6s", "5h").deal_river("8d", "7c")
    hand = hand.burn_error(2, "flop")  # the dealer burnt one more anyway: found before the award
    assert hand.board == () and hand.burn_plan == ((Street.FLOP, "ready", parse_cards("As")[0], "CC-101"),)
    assert refused(hand.deal_flop, parse_cards("3d4h5h"), "2c") == "CC-101"  # the burn is on the table
    hand = hand.deal_flop(parse_cards("2c3d4h"))
    assert hand.burns == parse_cards("As") and hand.burn_counts == (1,)
    replays_the_same(hand)
