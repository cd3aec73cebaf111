"""The rules engine's refusals in the active language (docs/rules-engine.md, "Refusal messages and translation").

The engine (``casino.rules``, no Django) raises ``RuleViolation(N_(template), clause, **params)``:
an English %-template, marked for ``makemessages`` (which this project runs with ``--keyword=N_``,
see ``casino/management/commands/makemessages.py``), and its values. ``explain`` translates the
template with the active catalogue, translates the values that are ``Phrase``s ("the flop", "box 3's
cards") the same way, and puts them in. Everything else (numbers, cards, what the dealer typed) goes
in as it is. A sentence the catalogue does not know yet stays English; a translation that does not
fit its values (a broken placeholder) gives the English sentence rather than an error screen.
The engine's notes about a hand (``Note``: an irregularity applied, why a hand is void) are the same
kind of template with values and a clause: ``explain_note``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from casino.rules.errors import Note, Phrase, RuleViolation


def _translate(template: str, params: dict[str, Any]) -> str:
    if not template:
        return template  # gettext("") is the catalogue's header, not a translation
    translated = gettext(template)
    if not params:
        return translated
    values = {name: _translate_phrase(value) if isinstance(value, Phrase) else value for name, value in params.items()}
    return translated % values


def _translate_phrase(phrase: Phrase) -> str:
    text = _translate(phrase.template, phrase.params)
    clause = phrase.clause if isinstance(phrase, Note) else None
    return f"{text} ({clause})" if clause else text


def explain(exc: RuleViolation) -> str:
    """The refusal as the dealer reads it, in the active language, ending with its clause: "... (THB-26)".

    Falls back to ``str(exc)`` (the English sentence) when the refusal cannot be translated.
    """
    try:
        text = _translate(exc.template, exc.params)
    except (AttributeError, KeyError, TypeError, ValueError):
        return str(exc)
    return f"{text} ({exc.clause})" if exc.clause else text


def explain_note(note: str) -> str:
    """An engine note (``casino.rules.errors.Note``) in the active language, ending with its clause.

    Translated by its template, never by its English text; plain text (what a pit boss typed as the
    reason for a void hand) is returned as it is, and so is a note whose translation does not fit.
    """
    if not isinstance(note, Phrase):
        return note
    try:
        return _translate_phrase(note)
    except (AttributeError, KeyError, TypeError, ValueError):
        return str(note)
