"""The engine's notes about a hand are templates with values and a clause, like its refusals; their English
text, what the hand's state, records and ``replay_hand`` hold, is what it always was. No Django here."""

from __future__ import annotations

import json
import pickle

import pytest

from casino.rules.errors import N_, Note
from casino.rules.holdem_bonus import Phase, TableRules, new_hand


def _dealt():
    return new_hand(TableRules(min_ante=5)).place_ante(1, 10).place_ante(2, 10).close_bets().deal_initial()


def _every_note_the_engine_makes():
    """Each irregularity outcome of the manual (THB-24, THB-73, THB-74, THB-76, C-35) and the note it leaves."""
    dealt = _dealt()
    decided = dealt.bet_flop(1, 20).bet_flop(2, 20).deal_flop("2c 7d 9h").pass_turn(1).pass_turn(2).deal_turn("Js")
    decided = decided.pass_river(1).pass_river(2).deal_river("Kc")
    alone = new_hand(TableRules(min_ante=5)).place_ante(1, 10).close_bets().deal_initial()
    return [
        decided.report_dealer_card_exposed(),
        dealt.report_dealer_card_exposed(),
        dealt.report_face_up_card(1, "7c"),
        dealt.report_face_up_card(1),
        dealt.report_face_up_card(2),
        dealt.report_box_wrong_card_count(1, 3),
        dealt.report_dealer_wrong_card_count(3, correctable=True),
        dealt.report_dealer_wrong_card_count(1),
        alone.report_box_wrong_card_count(1, 3),
        dealt.void_hand("The deck was found defective", "C-35"),
    ]


#: The English each outcome noted before notes were templates, byte for byte (docs/hand-history.md).
ENGLISH = [
    "A dealer's card was shown after every player had decided: no effect (THB-73)",
    "Hand void: A dealer's card was shown before every player had decided (THB-73)",
    "A card (7c) found face up in the deck is not used this hand (THB-74)",
    "A card found face up in the deck is not used this hand (THB-74)",
    "Hand void: 2 cards were found face up in the deck during the deal (THB-74)",
    "Box 1 was dealt 3 cards: its hand is void and its bets returned (THB-76)",
    "The dealer was dealt 3 cards and it was corrected in sequence, face down (THB-76)",
    "Hand void: The dealer was dealt 1 cards (THB-76)",
    "Hand void: Every box's hand is void (THB-76)",
    "Hand void: The deck was found defective (C-35)",
]


def test_every_note_is_a_note_whose_english_is_what_it_always_was():
    notes = [hand.irregularities[-1] for hand in _every_note_the_engine_makes()]
    assert notes == ENGLISH
    assert all(isinstance(note, Note) and type(str(note)) is str for note in notes)
    assert [str(note) for note in notes] == ENGLISH


def test_a_void_hand_keeps_its_reason_as_a_note_without_clause_and_its_clause_apart():
    hands = _every_note_the_engine_makes()
    void = [h for h in hands if h.phase is Phase.VOID]
    assert [(h.void_reason, h.void_clause) for h in void] == [
        ("A dealer's card was shown before every player had decided", "THB-73"),
        ("2 cards were found face up in the deck during the deal", "THB-74"),
        ("The dealer was dealt 1 cards", "THB-76"),
        ("Every box's hand is void", "THB-76"),
        ("The deck was found defective", "C-35"),
    ]
    assert [type(h.void_reason) for h in void] == [Note] * 4 + [str]  # what the pit boss typed stays text
    assert void[1].void_reason.template == "%(n)s cards were found face up in the deck during the deal"
    assert void[1].void_reason.params == {"n": 2} and void[1].void_reason.clause is None
    assert void[1].irregularities[-1].params["reason"] is void[1].void_reason


def test_a_note_keeps_template_values_and_clause_pickles_travels_as_json_and_is_frozen():
    note = Note(N_("Hand void: %(reason)s"), "THB-76", reason=Note(N_("The dealer was dealt %(n)s cards"), n=1))
    assert note == "Hand void: The dealer was dealt 1 cards (THB-76)"
    assert (note.template, note.clause) == ("Hand void: %(reason)s", "THB-76")
    back = pickle.loads(pickle.dumps(note))
    assert back == note and back.clause == "THB-76" and back.params["reason"].params == {"n": 1}
    again = Note.from_dict(json.loads(json.dumps(note.to_dict())))
    assert again == note and again.to_dict() == note.to_dict()
    with pytest.raises(AttributeError):
        note.clause = "THB-24"


def test_the_engine_refuses_to_note_an_english_sentence():
    with pytest.raises(TypeError):
        _dealt()._noted("Something happened (THB-73)")
