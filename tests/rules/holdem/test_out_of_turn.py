"""Out-of-turn action (TDA-53-A/B with its worked examples, CC-134, CC-135, house option C-08).

The act happened at the table: the dealer records it at its seat (``act_out_of_turn``), the turn stays with
the player it skipped, and no chip counts until the action reaches the seat. There it binds if the action did
not change (a check, call or fold before him is no change), or the house option decides (C-08: call or fold
by default, CC-134; every option, TDA-53-A). Acts out of turn that make substantial action past the skipped
player bind, and his hand waits for the director's ruling (TDA-53-B).
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, HouseRules, OutOfTurnAfterChange, Phase
from casino.rules.holdem.replay import replay_holdem_hand
from tests.rules.holdem.helpers import new_hand, to_street

TDA = HouseRules(oot_after_change=OutOfTurnAfterChange.ALL_OPTIONS)


def refused(step, *args) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        step(*args)
    return caught.value


def six_on_the_flop(rules: HouseRules | None = None) -> HoldemHand:
    """Blinds 50-100, six players, the button on seat 2: on the flop seat 3 acts first, then 4, 5, 6, 1, 2."""
    hand = new_hand([10_000] * 6, button=2, small=50, big=100, rules=rules)
    return to_street(hand, "flop")


# -- TDA-53-A and its first example: seat 6 raises to 800 out of turn, facing seat 3's 300 ------------------

def ex1(rules: HouseRules | None = None) -> HoldemHand:
    hand = six_on_the_flop(rules).bet(3, 300).fold(4)
    assert hand.to_act == 5
    return hand.act_out_of_turn(6, "raise", 800)


def test_an_act_out_of_turn_is_recorded_at_its_seat_and_the_action_goes_back_to_the_player_skipped_TDA_53_A():
    before = six_on_the_flop().bet(3, 300).fold(4)
    hand = before.act_out_of_turn(6, "raise", 800)
    assert hand.to_act == 5
    assert hand.out_of_turn_at(6).act == "raise" and hand.out_of_turn_at(6).to == 800
    # no chip counts yet: seat 6's 800 is still his, the pot is what it was
    assert hand.stacks[6] == before.stacks[6] and hand.pot_total == before.pot_total
    assert hand.actions[-1].to_dict() == {"action": "out-of-turn", "seat": 6, "act": "raise", "to": 800}


def test_ex1_seat_5_calls_so_seat_6s_raise_to_800_binds_TDA_53_ex1_CC_134():
    hand = ex1().call(5)
    assert hand.to_act == 6
    legal = hand.legal()
    assert (legal.fold, legal.check, legal.min_to, legal.max_to) == (False, False, 800, 800)
    assert refused(hand.call, 6).clause == "CC-134"
    assert refused(hand.raise_to, 6, 1_000).clause == "CC-134"
    assert refused(hand.fold, 6).clause == "CC-134"
    hand = hand.raise_to(6, 800)
    assert hand.bets[hand.seats.index(6)] == 800 and hand.out_of_turn_at(6) is None


def test_ex1_seat_5_folds_so_seat_6s_raise_still_binds_TDA_53_ex1():
    hand = ex1().fold(5)
    assert hand.legal().min_to == 800 and not hand.can_call(6)
    assert hand.can_raise_to(6, 800)


def test_ex1_seat_5_raises_to_600_so_seat_6_may_call_reraise_to_900_or_fold_under_TDA_C_08_TDA_53_ex1():
    hand = ex1(TDA).raise_to(5, 600)
    assert hand.to_act == 6
    legal = hand.legal()
    assert legal.fold and legal.call == 600 and legal.min_to == 900
    assert hand.stacks[6] == 10_000 - 100  # his 800 came back: only the preflop call is in
    assert hand.can_call(6) and hand.can_fold(6) and hand.can_raise_to(6, 900)


def test_ex1_seat_5_raises_to_600_so_seat_6_must_call_or_fold_by_the_house_default_CC_134_C_08():
    hand = ex1().raise_to(5, 600)
    legal = hand.legal()
    assert legal.fold and legal.call == 600 and legal.min_to is None
    violation = refused(hand.raise_to, 6, 900)
    assert violation.clause == "CC-134" and "may not raise" in str(violation)
    assert hand.can_call(6) and hand.can_fold(6)
    assert hand.call(6).bets[hand.seats.index(6)] == 600


# -- TDA-53-ex2 and CC-135: a check out of turn ------------------------------------------------------------

def ex2(rules: HouseRules | None = None) -> HoldemHand:
    hand = six_on_the_flop(rules).check(3).check(4)
    return hand.act_out_of_turn(6, "check")


def test_ex2_seat_5_checks_so_seat_6s_check_binds_and_may_not_become_a_bet_TDA_53_ex2_CC_135():
    hand = ex2().check(5)
    legal = hand.legal()
    assert legal.seat == 6 and legal.check and legal.min_to is None and not legal.fold
    violation = refused(hand.bet, 6, 300)
    assert violation.clause == "CC-135" and "may not bet" in str(violation)
    assert hand.check(6).to_act == 1


def test_a_check_out_of_turn_may_not_become_a_bet_even_where_the_house_follows_the_TDA_CC_135():
    hand = ex2(TDA).check(5)
    assert refused(hand.bet, 6, 300).clause == "CC-135"


def test_ex2_seat_5_bets_300_so_seat_6_may_call_raise_or_fold_under_TDA_C_08_TDA_53_ex2():
    hand = ex2(TDA).bet(5, 300)
    legal = hand.legal()
    assert legal.seat == 6 and legal.fold and legal.call == 300 and legal.min_to == 600
    assert hand.can_raise_to(6, 600)


def test_ex2_seat_5_bets_300_so_seat_6_must_call_or_fold_by_the_house_default_CC_134():
    hand = ex2().bet(5, 300)
    assert hand.legal().min_to is None
    assert refused(hand.raise_to, 6, 600).clause == "CC-134"
    assert refused(hand.check, 6).clause == "DEAL-11"
    assert hand.can_call(6) and hand.can_fold(6)


def test_a_call_out_of_turn_may_not_become_a_raise_CC_135():
    hand = six_on_the_flop().bet(3, 300).act_out_of_turn(5, "call")
    hand = hand.call(4)  # a call before him is no change
    assert hand.to_act == 5
    violation = refused(hand.raise_to, 5, 600)
    assert violation.clause == "CC-135" and "may not raise" in str(violation)
    assert refused(hand.fold, 5).clause == "CC-135"
    hand = hand.call(5)
    assert hand.bets[hand.seats.index(5)] == 300


def test_a_fold_out_of_turn_binds_even_when_the_action_changes_TDA_53_A():
    hand = six_on_the_flop(TDA).bet(3, 300).act_out_of_turn(6, "fold")
    hand = hand.raise_to(4, 900).call(5)
    assert hand.to_act == 6
    assert refused(hand.call, 6).clause == "TDA-53-A"
    legal = hand.legal()
    assert legal.fold and legal.min_to is None
    assert hand.fold(6).folded[hand.seats.index(6)]


def test_an_act_out_of_turn_is_refused_where_it_could_not_be_made_TDA_53_A():
    hand = six_on_the_flop().bet(3, 300)
    assert refused(hand.act_out_of_turn, 4, "call").clause == "TDA-53-A"  # his turn: record it in turn
    assert refused(hand.act_out_of_turn, 6, "check").clause == "DEAL-11"  # he faces 300
    assert refused(hand.act_out_of_turn, 6, "raise", 400).clause == "TDA-43"  # short of the minimum raise
    assert refused(hand.act_out_of_turn, 6, "shove").clause == "TDA-53-A"
    once = hand.act_out_of_turn(6, "call")
    assert refused(once.act_out_of_turn, 6, "fold").clause == "TDA-53-A"


def test_an_act_out_of_turn_whose_turn_never_comes_is_void_with_the_round_TDA_53_A():
    hand = new_hand([10_000] * 3, button=3, small=50, big=100)  # preflop: seat 3 (button) first, then 1, 2
    hand = hand.act_out_of_turn(2, "check")  # the big blind "checks" before anyone has acted
    hand = hand.fold(3).fold(1)  # everyone folds to him: his turn never comes
    assert hand.phase is Phase.AWARD and hand.out_of_turn == () and hand.in_hand == [2]


# -- TDA-53-B: substantial action out of turn past a skipped player -------------------------------------------

def b_ex1() -> HoldemHand:
    """Blinds 100-200, six players, button seat 6: seat 3 is under the gun."""
    hand = new_hand([10_000] * 6, button=6, small=100, big=200)
    hand = hand.raise_to(3, 600)
    assert hand.to_act == 4
    hand = hand.act_out_of_turn(5, "call")
    assert hand.skipped_ruling is None  # one act out of turn is not substantial action (TDA-36)
    return hand.act_out_of_turn(6, "fold")


def test_b_ex1_a_call_and_a_fold_out_of_turn_send_the_skipped_hand_to_the_director_TDA_53_B_ex1():
    hand = b_ex1()
    assert hand.skipped_ruling == 4 and hand.to_act == 4
    waits = refused(hand.call, 4)
    assert waits.clause == "TDA-53-B" and "the director rules on his hand first" in str(waits)
    assert refused(hand.fold, 4).clause == "TDA-53-B"
    assert refused(hand.act_out_of_turn, 1, "fold").clause == "TDA-53-B"
    legal = hand.legal()
    assert not legal.fold and not legal.check and legal.min_to is None


def test_b_ex1_the_director_rules_the_skipped_hand_dead_and_the_acts_out_of_turn_bind_TDA_53_B_ex1():
    hand = b_ex1().rule_skipped_hand(4, "dead")
    assert hand.folded[hand.seats.index(4)] and hand.to_act == 5
    assert refused(hand.raise_to, 5, 1_200).clause == "CC-135"
    hand = hand.call(5)
    assert hand.to_act == 6 and refused(hand.call, 6).clause == "TDA-53-A"
    hand = hand.fold(6)
    assert hand.to_act == 1 and hand.actions[-3].to_dict() == {"action": "skipped-hand", "seat": 4,
                                                                "ruling": "dead"}


def test_b_ex1_the_director_limits_the_skipped_hand_to_non_aggressive_options_TDA_53_B():
    hand = b_ex1().rule_skipped_hand(4, "non-aggressive")
    assert hand.to_act == 4 and hand.legal().min_to is None and hand.legal().fold
    violation = refused(hand.raise_to, 4, 1_200)
    assert violation.clause == "TDA-53-B"
    hand = hand.call(4)
    assert hand.to_act == 5 and not hand.can_raise_to(5, 1_200) and hand.can_call(5)


def test_b_ex1_a_ruling_is_only_on_the_skipped_hand_and_with_a_known_ruling_TDA_53_B():
    hand = b_ex1()
    assert refused(hand.rule_skipped_hand, 5, "dead").clause == "TDA-53-B"
    assert refused(hand.rule_skipped_hand, 4, "warning").clause == "TDA-53-B"
    assert refused(new_hand([10_000] * 3, button=3).rule_skipped_hand, 1, "dead").clause == "TDA-53-B"


def test_b_ex2_a_fold_and_a_call_out_of_turn_on_the_turn_send_seat_4s_hand_to_the_director_TDA_53_B_ex2():
    hand = new_hand({3: 10_000, 4: 10_000, 5: 10_000, 6: 10_000}, button=6, small=100, big=200)
    hand = to_street(hand, "turn")
    hand = hand.bet(3, 600)
    assert hand.to_act == 4
    hand = hand.act_out_of_turn(5, "fold").act_out_of_turn(6, "call")
    assert hand.skipped_ruling == 4
    hand = hand.rule_skipped_hand(4, "non-aggressive").fold(4)
    assert refused(hand.call, 5).clause == "TDA-53-A"
    hand = hand.fold(5).call(6)
    assert hand.phase is Phase.BOARD and hand.in_hand == [3, 6]


def test_two_acts_out_of_turn_without_chips_are_not_substantial_action_TDA_36():
    hand = six_on_the_flop().act_out_of_turn(5, "check").act_out_of_turn(6, "fold")
    assert hand.skipped_ruling is None and hand.to_act == 3
    hand = hand.act_out_of_turn(1, "check")  # a third act: substantial action (TDA-36)
    assert hand.skipped_ruling == 3


# -- records, replay and the house option ----------------------------------------------------------------------

def test_a_hand_with_acts_out_of_turn_replays_from_its_records_TDA_53():
    hand = b_ex1().rule_skipped_hand(4, "dead").call(5).fold(6).fold(1).fold(2)
    assert hand.phase is Phase.BOARD
    again = HoldemHand.from_dict(hand.to_dict())
    assert again.stacks == hand.stacks and again.actions == hand.actions


def test_a_hand_line_carries_the_acts_out_of_turn_and_the_ruling_and_replays_to_the_stacks_TDA_53_B():
    line = {"game": "holdem", "betting": "no-limit", "blinds": {"small": 100, "big": 200}, "button": 6,
            "stacks": {str(s): 10_000 for s in range(1, 7)},
            "actions": [{"seat": 3, "act": "raise", "to": 600}, {"seat": 5, "act": "call", "out_of_turn": True},
                        {"seat": 6, "act": "fold", "out_of_turn": True},
                        {"seat": 4, "act": "skipped-hand", "ruling": "dead"},
                        {"seat": 5, "act": "call"}, {"seat": 6, "act": "fold"}]}
    answer = replay_holdem_hand(line)
    assert "error" not in answer, answer
    assert answer["to_act"] == 1 and answer["pot_total"] == 600 + 600 + 100 + 200
    broken = {**line, "actions": [*line["actions"][:4], {"seat": 5, "act": "raise", "to": 1_200}]}
    refusal = replay_holdem_hand(broken)
    assert refusal["action"] == 4 and "CC-135" in refusal["error"]


def test_the_house_option_on_a_changed_action_is_kept_with_the_hand_C_08():
    assert "oot_after_change" not in HouseRules().to_dict()  # the default, CC-134, keeps the old records' JSON
    assert HouseRules.from_dict(TDA.to_dict()).oot_after_change is OutOfTurnAfterChange.ALL_OPTIONS
    assert HouseRules().oot_after_change is OutOfTurnAfterChange.CALL_OR_FOLD


def test_the_events_option_on_a_changed_action_reaches_the_engine_and_refuses_other_values_C_08():
    from casino.rules.tournament.options import HouseOptions
    from casino.rules.tournament.table_hand import house_rules_for

    assert HouseOptions().oot_after_change == "call_or_fold"  # the checklist's default: CC-134
    assert house_rules_for(HouseOptions()).oot_after_change is OutOfTurnAfterChange.CALL_OR_FOLD
    tda = house_rules_for(HouseOptions(oot_after_change="all_options"))
    assert tda.oot_after_change is OutOfTurnAfterChange.ALL_OPTIONS
    with pytest.raises(RuleViolation) as wrong:
        HouseOptions(oot_after_change="sometimes")
    assert wrong.value.clause == "C-08"
