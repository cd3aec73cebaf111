"""What the rules engine says, in the dealer's language.

Refusals carry their own translatable template and values (``casino.i18n.explain``), and so do the
engine's notes about a hand (an irregularity applied, why a hand is void, THB-24, THB-73..76): a
``casino.rules.errors.Note`` is translated by its template (``casino.i18n.explain_note``), never by
reading its English. An alert keeps a note twice in its parameters: as its English sentence under
its own name (``note``, ``reason``) and as template, values and clause under ``notes``; an alert
written before notes were templates has the English alone, and the note is found again by
replaying its hand (``alert_params``).
"""

from __future__ import annotations

from typing import Any

from casino.i18n import explain, explain_note
from casino.rules.errors import Note, RuleViolation


def refusal_text(violation: RuleViolation) -> str:
    """The refusal as the dealer reads it: the sentence in their language and the clause it rests on."""
    return explain(violation)


def engine_note(note: str) -> str:
    """An engine note (an irregularity applied, why a hand is void) in the active language.

    A ``Note`` is translated by its template; plain text (what a pit boss typed) is shown as it is.
    """
    return explain_note(note) if note else note


def alert_notes(notes: dict[str, Note]) -> dict[str, Any]:
    """An alert's parameters for these engine notes: each as its English text, and all of them under
    ``notes`` as template, values and clause (what ``alert_params`` translates)."""
    if not notes:
        return {}
    return {**{name: str(note) for name, note in notes.items()},
            "notes": {name: note.to_dict() for name, note in notes.items()}}


#: The alerts whose ``note`` or ``reason`` is one of the engine's notes (other alerts' notes are typed).
ENGINE_NOTE_ALERTS = ("irregularity", "void")


def alert_params(alert) -> dict[str, Any]:
    """An alert's parameters with the engine's notes in the active language, ready for its message."""
    params = dict(alert.params or {})
    stored = params.pop("notes", None)
    if stored is not None:
        notes = {name: Note.from_dict(data) for name, data in stored.items()}
    elif alert.kind in ENGINE_NOTE_ALERTS:
        notes = _notes_of_an_older_alert(alert, params)
    else:
        notes = {}
    for name, note in notes.items():
        params[name] = explain_note(note)
    return params


def _notes_of_an_older_alert(alert, params: dict[str, Any]) -> dict[str, Note]:
    """An alert stored before notes were templates holds only the English sentence: the engine's own
    note of the same text is found in its hand's replayed state (irregularities are never undone)."""
    if alert.hand_id is None:
        return {}
    from tables.services import hand_state  # the services import the models, which import this module

    try:
        state = hand_state(alert.hand)
    except RuleViolation:  # pragma: no cover - a stored hand always replays (verify_audit checks it)
        return {}
    found: dict[str, Note] = {}
    note = next((n for n in state.irregularities if isinstance(n, Note) and n == params.get("note")), None)
    if note is not None:
        found["note"] = note
    reason = state.void_reason
    if isinstance(reason, Note):
        with_clause = Note(reason.template, state.void_clause, **reason.params)
        if with_clause == params.get("reason"):
            found["reason"] = with_clause
    return found
