"""The one exception the rules engine raises for a refused action.

Refusals are written for translation without the engine knowing about Django
(docs/rules-engine.md, "Refusal messages and translation"):

* the message is a %-style template with named placeholders, marked with
  ``N_`` so that ``makemessages`` extracts it, and the values come as
  keyword arguments::

      raise RuleViolation(N_("Box %(box)s has no ante in this hand"), "THB-26", box=3)

* a word or phrase that varies inside a sentence and must itself be
  translated ("the flop", "box 3's cards") is a ``Phrase``: its own marked
  template and values. Every other value (numbers, cards, what the dealer
  typed) is shown as it is.

``message`` and ``str()`` stay English, as before; ``casino.i18n.explain``
gives the sentence in the active language.
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark a refusal template for extraction (``makemessages --keyword=N_``); returns it unchanged.

    Translation happens later, on the Django side, in the dealer's language.
    """
    return text


def _format(template: str, params: dict[str, Any]) -> str:
    return template % params if params else template


def _phrase(template: str, params: dict[str, Any]) -> Phrase:
    return Phrase(template, **params)


class Phrase(str):
    """A word or phrase inside a refusal that the dealer's language translates too.

    ``Phrase(N_("box %(box)s's cards"), box=3)`` is the ``str`` ``"box 3's cards"`` (so the English
    message, equality and JSON are as with plain text) and keeps ``template`` and ``params`` so that
    ``casino.i18n.explain`` can translate it before putting it in the translated sentence.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Phrase:
        self = super().__new__(cls, _format(template, params))
        self.template = template
        self.params = params
        return self

    def __reduce__(self):
        # str's own pickling would rebuild it from the English text alone.
        return (_phrase, (self.template, self.params))


class RuleViolation(Exception):
    """An action the rules do not allow, explained for the dealer.

    ``RuleViolation(message, clause=None, **params)``. ``message`` is a sentence a dealer can read
    at the table; ``clause`` is the checklist ID it rests on (e.g. ``"THB-57"``), also appended to
    the message so that logs and screens always show where the rule comes from.

    With ``params``, ``message`` is a %-style template with named placeholders
    (``"Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"``):
    ``template`` keeps it, ``params`` the values, and ``message`` is the English sentence with
    the values in. Without them, ``template`` is the message and ``params`` is empty (nothing
    is %-formatted, so an old caller's text may contain ``%``).
    """

    def __init__(self, message: str, clause: str | None = None, **params: Any) -> None:
        self.template = message
        self.params = params
        self.message = _format(message, params)
        self.clause = clause
        super().__init__(f"{self.message} ({clause})" if clause else self.message)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.args[0]
