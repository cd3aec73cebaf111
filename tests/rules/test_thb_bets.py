"""Bets before the cards: ante, Bonus, boxes and 'no va más' (THB-12, THB-18..20, THB-26, THB-31, THB-52, C-28)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Phase, TableRules, new_hand


def refusal(check, *args) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        check(*args)
    return refused.value


def test_a_hand_opens_with_bets_hagan_sus_apuestas_THB_30(open_hand):
    assert open_hand.phase is Phase.BETS_OPEN
    assert open_hand.awaiting == "bets, then 'no va más'"


def test_the_table_maximum_is_twenty_times_the_minimum_by_default_THB_18_THB_19():
    assert TableRules(min_ante=5).max_ante == 100
    assert TableRules(min_ante=10).max_ante == 200
    assert TableRules(min_ante=20).max_ante == 400


def test_the_table_maximum_must_be_twenty_times_the_minimum_as_written_THB_18():
    for maximum in (50, 101, 1000):
        with pytest.raises(RuleViolation, match="20 times the minimum: 100, not") as refused:
            TableRules(min_ante=5, max_ante=maximum)
        assert refused.value.clause == "THB-18"
    assert TableRules(min_ante=5, max_ante=100).max_ante == 100


def test_a_house_option_may_set_another_multiple_or_any_maximum_THB_18():
    assert TableRules(min_ante=5, max_ante=50, max_ante_multiple=10).max_ante == 50
    assert TableRules(min_ante=5, max_ante_multiple=10).max_ante == 50
    assert TableRules(min_ante=5, max_ante=37, max_ante_multiple=None).max_ante == 37
    with pytest.raises(RuleViolation, match="10 times the minimum"):
        TableRules(min_ante=5, max_ante=100, max_ante_multiple=10)
    with pytest.raises(RuleViolation) as refused:
        TableRules(min_ante=5, max_ante_multiple="twenty")
    assert refused.value.clause == "THB-18"


def test_a_hand_stored_before_the_rule_reads_at_the_limits_it_was_played_at_THB_18():
    stored = {"min_ante": 5, "max_ante": 50, "min_bonus": 1, "max_bonus": 50, "paytable": "manual",
              "ante_pays_from": "straight", "approval_awards": ["aa-vs-dealer-aa"], "approval_above": None,
              "boxes": 7}
    assert TableRules.from_dict(stored).max_ante == 50
    assert TableRules.from_dict(TableRules(min_ante=5).to_dict()).max_ante_multiple == 20


def test_it_takes_an_ante_within_the_tables_limits_THB_26(open_hand):
    assert open_hand.can_place_ante(1, 5)
    assert open_hand.can_place_ante(7, 100)
    assert open_hand.place_ante(2, 25).box(2).ante == 25


def test_it_refuses_an_ante_below_the_table_minimum_THB_26(open_hand):
    violation = refusal(open_hand.verify_place_ante, 1, 4)
    assert str(violation) == "Box 1's ante of 4 is below the table minimum of 5 (THB-26)"


def test_it_refuses_an_ante_above_the_table_maximum_THB_18(open_hand):
    violation = refusal(open_hand.verify_place_ante, 1, 101)
    assert violation.clause == "THB-18" and "above the table maximum of 100" in violation.message


@pytest.mark.parametrize("amount", [0, -5, 7.5, "10", True, None])
def test_it_refuses_an_ante_that_is_not_a_whole_positive_amount_THB_26(open_hand, amount):
    assert not open_hand.can_place_ante(1, amount)


@pytest.mark.parametrize("number", [0, 8, 9, -1])
def test_it_has_boxes_1_to_7_only_C_28(open_hand, number):
    violation = refusal(open_hand.verify_place_ante, number, 10)
    assert violation.clause == "C-28" and f"There is no box {number}" in violation.message


def test_it_takes_one_ante_per_box_one_box_per_player_THB_12(open_hand):
    hand = open_hand.place_ante(3, 10)
    violation = refusal(hand.verify_place_ante, 3, 20)
    assert violation.clause == "THB-12"
    assert hand.withdraw_bets(3).place_ante(3, 20).box(3).ante == 20


def test_it_takes_the_bonus_only_from_a_box_with_an_ante_THB_52(open_hand):
    violation = refusal(open_hand.verify_place_bonus, 2, 5)
    assert str(violation) == ("Box 2 has no ante: the Bonus is only for a player who has placed the ante (THB-52)")
    assert open_hand.place_ante(2, 10).can_place_bonus(2, 5)


def test_it_allows_a_bonus_below_the_table_minimum_within_its_own_limits_THB_20():
    rules = TableRules(min_ante=10, min_bonus=1, max_bonus=25)
    hand = new_hand(rules).place_ante(1, 10)
    assert hand.can_place_bonus(1, 1)
    assert refusal(hand.verify_place_bonus, 1, 26).clause == "THB-20"
    assert refusal(new_hand(TableRules(min_ante=10, min_bonus=2)).place_ante(1, 10).verify_place_bonus, 1, 1).clause \
        == "THB-20"


def test_it_takes_the_bonus_only_before_the_cards_THB_52(open_hand):
    hand = open_hand.place_ante(1, 10).close_bets()
    violation = refusal(hand.verify_place_bonus, 1, 5)
    assert violation.clause == "THB-52"


def test_no_more_bets_locks_the_ante_THB_31(open_hand):
    hand = open_hand.place_ante(1, 10).close_bets()
    assert hand.phase is Phase.NO_MORE_BETS
    assert refusal(hand.verify_place_ante, 2, 10).clause == "THB-31"
    assert refusal(hand.verify_withdraw_bets, 1).clause == "THB-31"


def test_a_hand_needs_at_least_one_player_and_may_start_with_one_THB_12(open_hand):
    assert refusal(open_hand.verify_close_bets).clause == "THB-12"
    assert open_hand.place_ante(4, 5).can_close_bets()


def test_cards_are_dealt_only_after_no_more_bets_THB_31(open_hand):
    hand = open_hand.place_ante(1, 10)
    assert refusal(hand.verify_deal_initial).clause == "THB-31"
    assert hand.close_bets().deal_initial().phase is Phase.INITIAL_DEAL


def test_the_table_refuses_limits_that_make_no_sense_THB_18():
    with pytest.raises(RuleViolation, match="below the minimum"):
        TableRules(min_ante=10, max_ante=5)
    with pytest.raises(RuleViolation, match="straight or from a flush"):
        TableRules(ante_pays_from="one-pair")


def test_table_rules_survive_a_trip_through_json_C_28():
    rules = TableRules(min_ante=10, min_bonus=2, max_bonus=50, ante_pays_from="flush", approval_above=500)
    data = rules.to_dict()
    assert data == {
        "min_ante": 10, "max_ante": 200, "min_bonus": 2, "max_bonus": 50, "paytable": "manual",
        "ante_pays_from": "flush", "approval_awards": ["aa-vs-dealer-aa"], "approval_above": 500, "boxes": 7,
        "release_every_bonus": True, "max_ante_multiple": 20,
    }
    assert TableRules.from_dict(data) == rules
    with pytest.raises(RuleViolation, match="Unknown table setting seats"):
        TableRules.from_dict({"seats": 9})
