"""The rules engine's refusals in the active language (docs/rules-engine.md, "Refusal messages and translation").

The engine (``casino.rules``, no Django) raises ``RuleViolation(N_(template), clause, **params)``:
an English %-template, marked for ``makemessages`` (which this project runs with ``--keyword=N_``,
see ``casino/management/commands/makemessages.py``), and its values. ``explain`` translates the
template with the active catalogue, translates the values that are ``Phrase``s ("the flop", "box 3's
cards") the same way, and puts them in. Everything else (numbers, cards, what the dealer typed) goes
in as it is. A sentence the catalogue does not know yet stays English; a translation that does not
fit its values (a broken placeholder) gives the English sentence rather than an error screen.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from casino.rules.errors import Phrase, RuleViolation


def _translate(template: str, params: dict[str, Any]) -> str:
    if not template:
        return template  # gettext("") is the catalogue's header, not a translation
    translated = gettext(template)
    if not params:
        return translated
    values = {name: _translate(value.template, value.params) if isinstance(value, Phrase) else value
              for name, value in params.items()}
    return translated % values


def explain(exc: RuleViolation) -> str:
    """The refusal as the dealer reads it, in the active language, ending with its clause: "... (THB-26)".

    Falls back to ``str(exc)`` (the English sentence) when the refusal cannot be translated.
    """
    try:
        text = _translate(exc.template, exc.params)
    except (AttributeError, KeyError, TypeError, ValueError):
        return str(exc)
    return f"{text} ({exc.clause})" if exc.clause else text
