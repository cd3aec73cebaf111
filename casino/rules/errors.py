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

What the engine notes about a hand (an irregularity applied, why a hand is void)
is written the same way: a ``Note``, an ``N_`` template, its values and its
clause, that is also the English sentence the hand's state always held
(``casino.i18n.explain_note`` translates it).
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


def _note(template: str, clause: str | None, params: dict[str, Any]) -> Note:
    return Note(template, clause, **params)


class Note(Phrase):
    """Something the engine notes about a hand: an irregularity applied, why a hand is void (THB-24, THB-73..76).

    ``Note(N_("Box %(box)s was dealt %(n)s cards: its hand is void and its bets returned"), "THB-76", box=3, n=3)``
    is the ``str`` ``"Box 3 was dealt 3 cards: its hand is void and its bets returned (THB-76)"``: the
    English sentence the hand's state, hand records, ``replay_hand`` and logs always had. It keeps
    ``template``, ``params`` and ``clause`` (None: no clause is appended) so that screens translate it
    by its template (``casino.i18n.explain_note``), never by reading the English. A value may itself
    be a ``Phrase`` or a ``Note`` ("Hand void: %(reason)s"); every other value is shown as it is.
    Frozen: a note is part of a frozen ``HandState``. ``to_dict`` and ``Note.from_dict`` carry it
    through JSON (an alert's parameters).
    """

    clause: str | None

    def __new__(cls, template: str, clause: str | None = None, /, **params: Any) -> Note:
        text = _format(template, params)
        self = str.__new__(cls, f"{text} ({clause})" if clause else text)
        for name, value in (("template", template), ("params", dict(params)), ("clause", clause)):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Note is frozen: {name} cannot be set")

    def __reduce__(self):
        return (_note, (self.template, self.clause, self.params))

    def to_dict(self) -> dict[str, Any]:
        """``{"template": ..., "clause": ..., "params": {...}}``, a nested note or phrase as a dict too."""
        params = {name: _phrase_to_dict(value) if isinstance(value, Phrase) else value
                  for name, value in self.params.items()}
        return {"template": self.template, "clause": self.clause, "params": params}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Note:
        params = {name: cls.from_dict(value) if isinstance(value, dict) else value
                  for name, value in data["params"].items()}
        return cls(data["template"], data.get("clause"), **params)


def _phrase_to_dict(phrase: Phrase) -> dict[str, Any]:
    if isinstance(phrase, Note):
        return phrase.to_dict()
    return Note(phrase.template, None, **phrase.params).to_dict()
