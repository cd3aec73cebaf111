"""What the rules engine says, in the dealer's language.

Refusals carry their own translatable template and values (``casino.i18n.explain``), and so do the
engine's notes about a hand (an irregularity applied, why a hand is void, THB-24, THB-73..76): a
``casino.rules.errors.Note`` is translated by its template (``casino.i18n.explain_note``), never by
reading its English. An alert keeps a note twice in its parameters: as its English sentence under
its own name (``note``, ``reason``) and as template, values and clause under ``notes``; an alert
written before notes were templates has the English alone, and the note is found again by
replaying its hand (``tables.reads.alert_params``, a read).
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
