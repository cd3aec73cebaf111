"""A deck's life as the pure engine rules it (casino/rules/decks.py): no Django here."""

from __future__ import annotations

import pytest

from casino.rules.decks import (
    DEFAULT_CHANGE_ON,
    Deck,
    DeckState,
    Defect,
    can_change,
    change_due,
    defect_in,
    verify_change,
    verify_shuffler_pair,
)
from casino.rules.errors import RuleViolation
from casino.rules.tournament.options import HouseOptions

TABLE = "tables.table.3"
PIT_BOSS, SECOND = 7, 8
CARDS = [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"]


def _in_play() -> Deck:
    deck = Deck.receive("Red", "Casino Club", "L-001").issue(TABLE, PIT_BOSS)
    return deck.check(PIT_BOSS, complete=True, undamaged=True, unmarked=True).put_in_play(TABLE)


def _refused(clause: str, call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        call(*args, **kwargs)
    assert refused.value.clause == clause
    return refused.value


def test_a_deck_goes_from_the_stock_to_play_through_its_issue_and_its_check_THB_21():
    deck = Deck.receive(" Red ", "Casino Club", "L-001")
    assert (deck.state, deck.back, deck.place) == (DeckState.IN_STOCK, "red", None)
    issued = deck.issue(TABLE, PIT_BOSS)
    assert (issued.state, issued.place, issued.issued_by) == (DeckState.ISSUED, TABLE, PIT_BOSS)
    checked = issued.check(PIT_BOSS, complete=True, undamaged=True, unmarked=True, counted=52)
    assert (checked.state, checked.checked_by, checked.counted) == (DeckState.CHECKED, PIT_BOSS, 52)
    assert checked.put_in_play(TABLE).state is DeckState.IN_PLAY


def test_a_deck_is_received_only_with_its_back_and_serial_THB_21():
    _refused("THB-21", Deck.receive, "", "design", "L-1")
    _refused("THB-21", Deck.receive, "blue", "design", "  ")


def test_a_deck_is_issued_once_from_the_stock_and_signed_THB_21():
    deck = Deck.receive("blue", "", "L-2")
    _refused("THB-21", deck.issue, TABLE, None)
    assert not deck.can_issue(TABLE, None)
    _refused("THB-21", deck.issue(TABLE, PIT_BOSS).issue, "tables.table.4", PIT_BOSS)


def test_an_unchecked_deck_is_not_played_THB_21():
    issued = Deck.receive("blue", "", "L-3").issue(TABLE, PIT_BOSS)
    assert not issued.can_put_in_play(TABLE)
    _refused("THB-21", issued.put_in_play, TABLE)


def test_a_deck_is_played_only_at_the_table_it_was_issued_to_THB_21():
    checked = Deck.receive("blue", "", "L-4").issue(TABLE, PIT_BOSS).check(
        PIT_BOSS, complete=True, undamaged=True, unmarked=True)
    _refused("THB-21", checked.put_in_play, "tables.table.9")


@pytest.mark.parametrize(("kwargs", "defect"), [
    ({"complete": False, "undamaged": True, "unmarked": True}, Defect.MISSING),
    ({"complete": True, "undamaged": False, "unmarked": True}, Defect.DAMAGED),
    ({"complete": True, "undamaged": True, "unmarked": False}, Defect.MARKED),
])
def test_a_deck_failing_its_opening_check_is_defective_not_played_THB_21(kwargs, defect):
    failed = Deck.receive("red", "", "L-5").issue(TABLE, PIT_BOSS).check(PIT_BOSS, **kwargs)
    assert (failed.state, failed.defect) == (DeckState.DEFECTIVE, defect)
    assert "THB-21" in failed.reason
    assert not failed.can_put_in_play(TABLE)


@pytest.mark.parametrize(("counted", "defect"), [(51, Defect.MISSING), (53, Defect.EXTRA)])
def test_a_count_that_is_not_52_makes_the_deck_defective_THB_16(counted, defect):
    failed = Deck.receive("red", "", "L-6").issue(TABLE, PIT_BOSS).check(
        PIT_BOSS, complete=True, undamaged=True, unmarked=True, counted=counted)
    assert (failed.state, failed.defect, failed.counted) == (DeckState.DEFECTIVE, defect, counted)


def test_a_count_is_a_number_of_cards_THB_16():
    issued = Deck.receive("red", "", "L-6").issue(TABLE, PIT_BOSS)
    _refused("THB-16", issued.check, PIT_BOSS, complete=True, undamaged=True, unmarked=True, counted=-1)


def test_a_deck_in_play_declared_defective_keeps_its_reason_CC_72():
    defective = _in_play().declare_defective("duplicate", "two kings of spades")
    assert (defective.state, defective.defect, defective.reason) == (
        DeckState.DEFECTIVE, Defect.DUPLICATE, "two kings of spades")
    _refused("CC-72", _in_play().declare_defective, "sticky")


def test_a_retired_deck_later_found_marked_is_declared_defective_CC_72():
    found = _in_play().retire("level change").declare_defective("marked", "found marked in the count room")
    assert found.state is DeckState.DEFECTIVE


@pytest.mark.parametrize(("cards", "backs", "defect"), [
    (CARDS, None, None),
    (CARDS[:-1], None, Defect.MISSING),
    ([*CARDS, "2x"], None, Defect.EXTRA),
    ([*CARDS[:-1], CARDS[0]], None, Defect.DUPLICATE),
    (CARDS, ["red"] * 51 + ["blue"], Defect.DIFFERENT_BACKS),
])
def test_what_a_count_card_by_card_shows_CC_72(cards, backs, defect):
    assert defect_in(cards, backs) == defect


def test_a_cancellation_takes_two_signatures_of_two_people_THB_21():
    retired = _in_play().retire("changed")
    once = retired.sign_cancellation(PIT_BOSS, 52)
    assert (once.state, once.signed_by, once.counted) == (DeckState.CANCELLING, (PIT_BOSS,), 52)
    refused = _refused("THB-21", once.sign_cancellation, PIT_BOSS)
    assert "two different people" in refused.message
    done = once.sign_cancellation(SECOND)
    assert (done.state, done.signed_by) == (DeckState.CANCELLED, (PIT_BOSS, SECOND))
    assert not done.can_sign_cancellation(9)


def test_a_deck_is_cancelled_counted_and_a_short_one_is_declared_defective_first_CC_72():
    retired = _in_play().retire()
    _refused("THB-16", retired.sign_cancellation, PIT_BOSS, None)
    _refused("CC-72", retired.sign_cancellation, PIT_BOSS, 50)
    assert retired.declare_defective("missing").sign_cancellation(PIT_BOSS, 50).state is DeckState.CANCELLING


def test_a_deck_in_play_is_not_cancelled_THB_21():
    _refused("THB-21", _in_play().sign_cancellation, PIT_BOSS, 52)


def test_a_shuffler_table_plays_one_red_and_one_blue_deck_THB_36():
    verify_shuffler_pair(["Blue", "red"])
    _refused("THB-36", verify_shuffler_pair, ["red", "red"])
    _refused("THB-36", verify_shuffler_pair, ["red"])


def test_a_player_may_not_ask_for_a_deck_change_CC_76():
    refused = _refused("CC-76", verify_change, "player")
    assert "defective" in refused.message
    assert not can_change("player", ("level", "dealer_change", "director"))


def test_a_defective_deck_changes_whoever_finds_it_CC_76():
    verify_change("defective", ("level",))


def test_the_house_sets_when_the_deck_changes_C_17():
    assert DEFAULT_CHANGE_ON == ("level", "director")
    verify_change("level")
    verify_change("director")
    _refused("C-17", verify_change, "dealer_change")
    verify_change("dealer_change", ("level", "dealer_change"))


def test_a_level_change_makes_a_deck_change_due_CC_71():
    assert change_due(DEFAULT_CHANGE_ON, level_in_play=3, level_now=4) == "level"
    assert change_due(DEFAULT_CHANGE_ON, level_in_play=4, level_now=4) is None
    assert change_due(("director",), level_in_play=3, level_now=4) is None


def test_a_dealer_change_makes_a_deck_change_due_where_the_house_says_TDA_26():
    assert change_due(DEFAULT_CHANGE_ON, level_in_play=1, level_now=1, dealer_in_play=5, dealer_now=6) is None
    assert change_due(("dealer_change",), level_in_play=1, level_now=1, dealer_in_play=5, dealer_now=6) == (
        "dealer_change")


def test_the_house_option_for_deck_changes_is_read_and_checked_C_17():
    assert HouseOptions().deck_change_on == ("level", "director")
    assert HouseOptions.from_dict({"deck_change_on": ["dealer_change"]}).deck_change_on == ("dealer_change",)
    _refused("C-17", HouseOptions, deck_change_on=("player",))
    _refused("C-17", HouseOptions, deck_change_on=())
