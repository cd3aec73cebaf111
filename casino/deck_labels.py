"""The words the screens give a deck's data keys, in the reader's language (issue #39, docs/decks.md): its back's
colour (the engine's ``red`` and ``blue``, THB-36), the steps of its life (``DeckStep.action``) and its defects
(CC-72's, THB-21's). One place for every screen that shows a deck: the decks page, the pit's console and tablet,
a tournament's tablet. A colour typed by hand (another back) is shown as it was typed.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: THB-36's two backs, by the engine's keys (``casino.rules.decks.SHUFFLER_BACKS``).
BACK_LABELS = {"red": _("red"), "blue": _("blue")}

#: The steps of a deck's life (``casino.decks`` writes these keys into ``DeckStep.action``).
STEP_LABELS = {
    "received": _("Received into the stock"),
    "issued": _("Issued to a table"),
    "checked": _("Checked"),
    "in-play": _("In play"),
    "retired": _("Retired"),
    "defective": _("Defective"),
    "cancel-signed": _("Counted, one signature"),
    "cancelled": _("Cancelled"),
}

#: CC-72's defects, and THB-21's damaged and marked cards (``casino.rules.decks.Defect``).
DEFECT_LABELS = {
    "duplicate": _("two identical cards"),
    "different-backs": _("different backs"),
    "missing": _("missing cards"),
    "extra": _("extra cards"),
    "damaged": _("damaged cards"),
    "marked": _("marked cards"),
}


def _label(labels: dict, key) -> str:
    text = "" if key is None else str(key)
    return labels.get(text.strip().lower(), text)


def back_label(back) -> str:
    """A deck's back in the reader's language: red and blue translated, another colour as typed."""
    return _label(BACK_LABELS, back)


def step_label(action) -> str:
    """A step of a deck's life in the reader's language."""
    return _label(STEP_LABELS, action)


def defect_label(defect) -> str:
    """A deck's defect in the reader's language."""
    return _label(DEFECT_LABELS, defect)
