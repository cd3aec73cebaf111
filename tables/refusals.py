"""What the rules engine says, in the dealer's language.

Refusals carry their own translatable template and values (``casino.i18n.explain``).
The engine's notes about a hand (an irregularity applied, why a hand is void,
THB-73..76) are still plain English sentences, kept in the hand's state and in
alerts; each one is matched here against a pattern and given as a translatable
message with the same numbers and cards. A note no pattern knows is shown as it is.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.i18n import explain
from casino.rules.errors import RuleViolation

_CARD = r"[2-9TJQKA][cdhs]"

# What the engine notes about a hand: irregularities it applied and why a hand is void (THB-73..76).
NOTES: list[tuple[re.Pattern, object, dict]] = [
    (r"A dealer's card was shown after every player had decided: no effect \(THB-73\)",
     _("A dealer's card was shown after every player had decided: no effect (THB-73)"), {}),
    (rf"A card \((?P<card>{_CARD})\) found face up in the deck is not used this hand \(THB-74\)",
     _("A card (%(card)s) found face up in the deck is not used this hand (THB-74)"), {}),
    (r"A card found face up in the deck is not used this hand \(THB-74\)",
     _("A card found face up in the deck is not used this hand (THB-74)"), {}),
    (r"Box (?P<box>\d+) was dealt (?P<n>\d+) cards: its hand is void and its bets returned \(THB-76\)",
     _("Box %(box)s was dealt %(n)s cards: its hand is void and its bets returned (THB-76)"), {}),
    (r"The dealer was dealt (?P<n>\d+) cards and it was corrected in sequence, face down \(THB-76\)",
     _("The dealer was dealt %(n)s cards and it was corrected in sequence, face down (THB-76)"), {}),
    (r"A dealer's card was shown before every player had decided",
     _("A dealer's card was shown before every player had decided"), {}),
    (r"(?P<n>\d+) cards were found face up in the deck during the deal",
     _("%(n)s cards were found face up in the deck during the deal"), {}),
    (r"The dealer was dealt (?P<n>\d+) cards", _("The dealer was dealt %(n)s cards"), {}),
    (r"Every box's hand is void", _("Every box's hand is void"), {}),
]
NOTES = [(re.compile(p + r"\Z", re.S), m, c) for p, m, c in NOTES]
_WITH_CLAUSE = re.compile(r"(?P<text>.*) \((?P<clause>(?:THB|C)-\d+[a-z]?)\)\Z", re.S)
_HAND_VOID = re.compile(r"Hand void: (?P<reason>.*)\Z", re.S)


def _translate(text: str, patterns) -> str | None:
    for pattern, message, converters in patterns:
        match = pattern.match(text)
        if match is None:
            continue
        params = {k: converters[k](v) if k in converters else v for k, v in match.groupdict().items()}
        return str(message) % params if params else str(message)
    return None


def refusal_text(violation: RuleViolation) -> str:
    """The refusal as the dealer reads it: the sentence in their language and the clause it rests on."""
    return explain(violation)


def engine_note(text: str) -> str:
    """An engine note (an irregularity applied, why a hand is void) in the active language.

    Notes may end with their clause in brackets and a void one starts with
    "Hand void: "; a note no pattern knows is returned as it is.
    """
    if not text:
        return text
    found = _translate(text, NOTES)
    if found is not None:
        return found
    void = _HAND_VOID.match(text)
    if void:
        return gettext("Hand void: %(reason)s") % {"reason": engine_note(void.group("reason"))}
    with_clause = _WITH_CLAUSE.match(text)
    if with_clause:
        inner = _translate(with_clause.group("text"), NOTES)
        if inner is not None:
            return f"{inner} ({with_clause.group('clause')})"
    return text

