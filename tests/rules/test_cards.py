"""Cards and the deck check (THB-03, THB-16, THB-22)."""

from __future__ import annotations

import pytest

from casino.rules.cards import Card, check_deck, check_no_duplicates, full_deck, parse_card, parse_cards
from casino.rules.errors import RuleViolation


def test_a_card_is_written_rank_then_suit_and_ten_may_be_written_10_THB_03():
    assert parse_card("Ah") == Card("A", "h")
    assert parse_card("10d") == parse_card("Td") == Card("T", "d")
    assert parse_cards(["2c", "Ks"]) == (Card("2", "c"), Card("K", "s"))


@pytest.mark.parametrize("bad", ["1h", "Ax", "A", "", "AhK", "11c", "Zs"])
def test_a_bad_card_is_refused_with_a_message_naming_it_THB_03(bad):
    with pytest.raises(RuleViolation) as refused:
        parse_card(bad)
    assert repr(bad) in str(refused.value)
    assert refused.value.clause == "THB-03"


def test_a_card_that_is_not_text_is_refused_THB_03():
    with pytest.raises(RuleViolation, match="is not a card"):
        parse_card(7)


def test_the_deck_has_52_different_cards_with_the_evaluators_ids_THB_03():
    deck = full_deck()
    assert len(set(deck)) == 52
    assert [c.id for c in deck] == list(range(52))
    assert all(Card.from_id(c.id) == c for c in deck)


def test_a_complete_deck_passes_the_count_THB_16():
    report = check_deck([str(c) for c in full_deck()])
    assert report.is_complete
    assert report.describe() == "The deck is complete: 52 different cards."


def test_the_deck_count_finds_duplicated_missing_and_foreign_cards_THB_22():
    cards = [str(c) for c in full_deck() if str(c) != "Qs"] + ["Ah", "Joker"]
    report = check_deck(cards)
    assert not report.is_complete
    assert [str(c) for c in report.duplicates] == ["Ah"]
    assert [str(c) for c in report.missing] == ["Qs"]
    assert report.extra == ("Joker",)
    assert "duplicated: Ah" in report.describe() and "missing: Qs" in report.describe()


def test_a_card_seen_twice_is_refused_and_named_THB_03():
    with pytest.raises(RuleViolation, match="Kd appears more than once"):
        check_no_duplicates(parse_cards(["Kd", "2c", "Kd"]))
