"""A deck's refusal names its state and the change's reason in the reader's language, never as a code."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.i18n import explain
from casino.rules.decks import CHANGE_PHRASES, Deck
from casino.rules.errors import RuleViolation


def _issued_twice() -> RuleViolation:
    deck = Deck.receive("Red", "Casino Club", "L-001").issue("tables.table.3", 7)
    with pytest.raises(RuleViolation) as refused:
        deck.issue("tables.table.4", 7)
    return refused.value


def test_a_deck_issued_twice_is_said_issued_to_a_table_in_english_and_in_spanish_THB_21():
    refused = _issued_twice()
    with translation.override("en"):
        assert explain(refused) == "Deck L-001 is not in the stock: it is issued to a table (THB-21)"
    with translation.override("es"):
        said = explain(refused)
    assert "entregada a una mesa" in said and "issued" not in said


def test_the_reasons_for_a_deck_change_are_translated_C_17():
    with translation.override("es"):
        assert all(explain_phrase != str(phrase) for phrase, explain_phrase in
                   ((p, translation.gettext(p.template)) for p in CHANGE_PHRASES.values()))
