"""The Bonus paytable as data, and its exact odds (THB-51, THB-53, C-31)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from casino.rules.cards import parse_cards
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import (
    AWARD_KEYS,
    MANUAL_PAYTABLE,
    Paytable,
    TableRules,
    bonus_house_edge,
    classify_hole_cards,
    get_paytable,
    paytable_odds,
    register_paytable,
)


def cards(text: str):
    return parse_cards(text.split())


def test_the_manuals_table_is_the_default_THB_53():
    assert TableRules().paytable is get_paytable("manual") is MANUAL_PAYTABLE
    assert dict(MANUAL_PAYTABLE.pays) == {
        "aa-vs-dealer-aa": 1000, "aa": 30, "ak-suited": 25, "aq-aj-suited": 20, "ak-offsuit": 15,
        "kk-qq-jj": 10, "aq-aj-offsuit": 5, "pair-2-10": 3,
    }


@pytest.mark.parametrize(("hole", "dealer", "award"), [
    ("As Ah", "Ac Ad", "aa-vs-dealer-aa"), ("As Ah", "Ac Kd", "aa"), ("As Ah", None, "aa"),
    ("Ks As", None, "ak-suited"), ("Qd Ad", None, "aq-aj-suited"), ("Ac Jc", None, "aq-aj-suited"),
    ("Kh Ac", None, "ak-offsuit"), ("Kh Kc", None, "kk-qq-jj"), ("Jh Js", None, "kk-qq-jj"),
    ("Ah Qs", None, "aq-aj-offsuit"), ("Td Th", None, "pair-2-10"), ("2d 2c", None, "pair-2-10"),
    ("Ah Ts", None, None), ("Kh Qh", None, None), ("9c 8c", None, None),
])
def test_two_cards_are_classified_into_the_award_keys_THB_53(hole, dealer, award):
    assert classify_hole_cards(cards(hole), cards(dealer) if dealer else None) == award


def test_a_hand_that_qualifies_twice_is_paid_the_better_award_only():
    assert MANUAL_PAYTABLE.award_for(cards("As Ah"), cards("Ac Ad")) == "aa-vs-dealer-aa"


def test_a_casino_can_register_its_own_paytable_and_omitted_awards_do_not_pay():
    no_jackpot = register_paytable(Paytable("no-jackpot", {"aa": 50, "ak-suited": 25, "pair-2-10": 2}))
    assert get_paytable("no-jackpot") is no_jackpot
    assert no_jackpot.award_for(cards("As Ah"), cards("Ac Ad")) == "aa"
    assert no_jackpot.award_for(cards("Kh Kc")) is None
    assert not no_jackpot.needs_dealer_cards(cards("As Ah"))


def test_a_paytable_refuses_unknown_awards_and_odds_that_are_not_whole_numbers_THB_53():
    with pytest.raises(RuleViolation, match="royal is not an award"):
        Paytable("bad", {"royal": 100})
    with pytest.raises(RuleViolation, match="must pay a whole number to 1"):
        Paytable("bad", {"aa": 2.5})
    with pytest.raises(RuleViolation, match="no paytable named 'nope'"):
        get_paytable("nope")


def test_the_manual_tables_award_probabilities_counted_by_hand():
    deals = comb(52, 2) * comb(50, 2)  # player's pair, then the dealer's pair from the other 50
    by_hand = {
        "aa-vs-dealer-aa": Fraction(6 * 1, deals),
        "aa": Fraction(6 * (comb(50, 2) - 1), deals),
        "ak-suited": Fraction(4, comb(52, 2)),
        "aq-aj-suited": Fraction(8, comb(52, 2)),
        "ak-offsuit": Fraction(12, comb(52, 2)),
        "kk-qq-jj": Fraction(3 * 6, comb(52, 2)),
        "aq-aj-offsuit": Fraction(2 * 12, comb(52, 2)),
        "pair-2-10": Fraction(9 * 6, comb(52, 2)),
    }
    odds = paytable_odds("manual")
    assert {a.award: a.probability for a in odds.awards} == by_hand
    assert odds.lose_probability == Fraction(comb(52, 2) - 126, comb(52, 2))


def test_the_manual_tables_house_edge_is_8_54_percent_computed_independently():
    pairs = comb(52, 2)
    p_aa = Fraction(6, pairs)
    p_dealer_aa = Fraction(1, comb(50, 2))
    expected_net = (
        p_aa * (p_dealer_aa * 1000 + (1 - p_dealer_aa) * 30)
        + Fraction(4 * 25 + 8 * 20 + 12 * 15 + 18 * 10 + 24 * 5 + 54 * 3, pairs)
        - Fraction(pairs - 126, pairs)
    )
    assert bonus_house_edge("manual") == -expected_net == Fraction(13873, 162435)
    assert float(bonus_house_edge("manual")) == pytest.approx(0.08541, abs=1e-5)


def test_any_paytable_gets_its_exact_house_edge():
    table = Paytable("pairs-only", {"pair-2-10": 5, "kk-qq-jj": 10, "aa": 20})
    p_pair = Fraction(78, comb(52, 2))  # 13 ranks x 6 combinations
    expected = -(Fraction(54, 1326) * 5 + Fraction(18, 1326) * 10 + Fraction(6, 1326) * 20 - (1 - p_pair))
    assert bonus_house_edge(table) == expected


def test_the_json_report_has_the_awards_and_the_house_edge():
    report = paytable_odds("manual").to_dict()
    assert list(report) == ["awards", "house_edge"]
    assert [a["award"] for a in report["awards"]] == list(AWARD_KEYS)
    assert report["awards"][0]["probability_exact"] == "1/270725"
    assert isinstance(report["house_edge"], float)


# --- A casino's own paytable kept as data: versions, and what a hand's record says (issue #16, item 9) ---

def test_a_registered_paytable_is_recorded_by_name_so_the_manuals_hands_keep_their_short_form_THB_53():
    assert MANUAL_PAYTABLE.to_record() == "manual"
    assert TableRules().to_dict()["paytable"] == "manual"


def test_a_versioned_paytable_is_recorded_with_its_pays_and_read_back_the_same_THB_53():
    from casino.rules.holdem_bonus.paytable import paytable_from_record

    special = Paytable("house-special", {"aa": 40, "pair-2-10": 2}, version=3)
    record = special.to_record()
    assert record == {"name": "house-special", "version": 3, "pays": {"aa": 40, "pair-2-10": 2}}
    assert paytable_from_record(record) == special and special.label == "house-special v3"
    rules = TableRules(paytable=special)
    assert TableRules.from_dict(rules.to_dict()).paytable == special


def test_a_paytable_named_like_a_registered_one_but_paying_otherwise_is_recorded_with_its_pays():
    # What the hand paid is what replays: a name alone would replay it under the manual's odds.
    assert Paytable("manual", {"aa": 40}).to_record() == {"name": "manual", "pays": {"aa": 40}}


def test_a_hand_played_under_an_earlier_version_replays_under_it_not_under_a_later_one_THB_53():
    from casino.rules.replay import replay_record

    record = {"game": "texas-holdem-bonus", "limits": {"min_ante": 5, "max_ante": 100},
              "paytable": {"name": "house-special", "version": 1, "pays": {"aa": 40}},
              "dealer": ["Qh", "Qd"], "board": ["2c", "7d", "9h", "Js", "Kc"],
              "boxes": [{"box": 1, "ante": 10, "bonus": 5, "cards": ["As", "Ac"], "flop": "bet", "turn": "check",
                         "river": "check"}]}
    answer = replay_record(record)
    assert (answer["boxes"][0]["bonus_award"], answer["boxes"][0]["bonus"]) == ("aa", 5 * 40)
    record["paytable"]["pays"] = {"aa": 50}
    assert replay_record(record)["boxes"][0]["bonus"] == 5 * 50


@pytest.mark.parametrize(("value", "says"), [
    ({"name": "x", "pays": {"aa": 40}, "odds": 1}, "odds"),
    ({"name": "x"}, "needs its pays"),
    ({"name": "", "pays": {"aa": 40}}, "needs a name"),
    ({"name": "x", "version": 0, "pays": {"aa": 40}}, "version is a whole number from 1"),
    ({"name": "x", "pays": {"royal": 4}}, "royal is not an award"),
    ({"name": "x", "pays": {"aa": -4}}, "must pay a whole number to 1"),
    (7, "a paytable's name or an object"),
])
def test_a_paytable_record_the_engine_cannot_read_is_refused_citing_THB_53(value, says):
    from casino.rules.holdem_bonus.paytable import paytable_from_record

    with pytest.raises(RuleViolation, match=says) as refused:
        paytable_from_record(value)
    assert refused.value.clause == "THB-53"
