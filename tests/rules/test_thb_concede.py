"""THB-66: a player who clearly says his hand loses need not turn his cards (not with a Bonus bet)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Outcome, Phase, replay


def _at_the_showdown(open_hand, bonus_at_1=False):
    hand = open_hand.place_ante(1, 10).place_ante(3, 20)
    if bonus_at_1:
        hand = hand.place_bonus(1, 5)
    return (hand.close_bets().deal_initial().bet_flop(1, 20).bet_flop(3, 40).deal_flop(["2c", "7d", "9h"])
            .bet_turn(1, 10).pass_turn(3).deal_turn("Js").pass_river(1).bet_river(3, 20).deal_river("Kc")
            .reveal_dealer(["Qh", "Qd"]))


def test_a_player_who_says_he_loses_is_not_asked_for_his_cards_and_loses_his_main_bets_THB_66(open_hand):
    hand = _at_the_showdown(open_hand).reveal_box(3, ["8s", "Ts"]).concede_box(1)
    assert hand.phase is Phase.SETTLED
    box = hand.settlement.box(1)
    assert box.outcome is Outcome.LOSE and box.category is None
    assert (box.ante.net, box.flop.net, box.turn.net, box.river.net) == (-10, -20, -10, 0)
    assert hand.box(1).cards is None  # never turned
    assert hand.settlement.box(3).outcome is Outcome.WIN


def test_a_conceding_box_leaves_the_showdown_order_in_or_out_of_turn_THB_66(open_hand):
    hand = _at_the_showdown(open_hand)
    assert hand.showdown_order == (("box", 3), ("box", 1))
    conceded = hand.concede_box(1)
    assert conceded.showdown_order == (("box", 3),)
    # The same hand replays from its records to the same result.
    again = replay(hand.rules, [a.to_dict() for a in conceded.reveal_box(3, ["8s", "Ts"]).actions])
    assert again.settlement == conceded.reveal_box(3, ["8s", "Ts"]).settlement


@pytest.mark.parametrize(("play", "says"), [
    (lambda h: h.place_ante(1, 10).close_bets().deal_initial().bet_flop(1, 20), "showdown"),  # too early
    (lambda h: _at_the_showdown(h, bonus_at_1=True), "Bonus"),  # a Bonus needs the cards (C-31)
    (lambda h: _at_the_showdown(h).reveal_box(3, ["8s", "Ts"]).reveal_box(1, ["As", "Ac"]), "settled"),
])
def test_a_concession_is_refused_where_the_rule_does_not_allow_it_THB_66(open_hand, play, says):
    hand = play(open_hand)
    assert not hand.can_concede_box(1)
    with pytest.raises(RuleViolation) as refused:
        hand.concede_box(1)
    assert refused.value.clause in ("THB-66", "THB-64") and says in str(refused.value)


def test_a_folded_box_has_nothing_to_concede_THB_66(open_hand):
    hand = (open_hand.place_ante(1, 10).place_ante(2, 10).close_bets().deal_initial().bet_flop(1, 20)
            .fold(2).deal_flop(["2c", "7d", "9h"]).pass_turn(1).deal_turn("Js").pass_river(1).deal_river("Kc")
            .reveal_dealer(["Qh", "Qd"]))
    with pytest.raises(RuleViolation, match="nothing to concede"):
        hand.concede_box(2)


def test_a_conceded_box_is_written_and_replayed_by_the_hand_history_format_THB_66(open_hand):
    from casino.rules.holdem_bonus.record import record_from_state, replay_thb_record

    hand = _at_the_showdown(open_hand).reveal_box(3, ["8s", "Ts"]).concede_box(1)
    record = record_from_state(hand)
    [box_1] = [b for b in record["boxes"] if b["box"] == 1]
    assert box_1.get("concede") is True and "cards" not in box_1
    answer = replay_thb_record(record)
    assert {b["box"]: b["outcome"] for b in answer["boxes"]} == {1: "lose", 3: "win"}


@pytest.mark.parametrize("entry", [
    {"box": 1, "ante": 10, "flop": "bet", "turn": "check", "river": "check", "concede": "yes"},
    {"box": 1, "ante": 10, "flop": "fold", "concede": True},
    {"box": 1, "ante": 10, "bonus": 5, "flop": "bet", "turn": "check", "river": "check", "concede": True},
    {"box": 1, "ante": 10, "cards": ["As", "Ac"], "flop": "bet", "turn": "check", "river": "check", "concede": True},
])
def test_the_hand_history_refuses_a_concession_the_rule_does_not_allow_THB_66(entry):
    from casino.rules.replay import replay_record

    answer = replay_record({"game": "texas-holdem-bonus", "limits": {"min_ante": 5}, "dealer": ["Qh", "Qd"],
                                "board": ["2c", "7d", "9h", "Js", "Kc"], "boxes": [entry]})
    assert "THB-66" in answer["error"]
