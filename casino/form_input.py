"""A form's values read for one command, or a clear refusal: the parsers both games' screens share.

Whatever a parser cannot read raises ``BadInput`` with a sentence naming the field and what was wrong;
the screen answers it with a 400 and its notice (``casino.refusals``), never a 500, and nothing is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import gettext as _

from casino.rules.cards import parse_card
from casino.rules.errors import RuleViolation
from casino.writes import is_valid_key


class BadInput(Exception):
    """A form value the screen cannot turn into an action; its text says which and why."""


#: A whole number as a director types it: ASCII digits, an optional sign, no more digits than a bound
#: can need (``int()`` also reads "²", "٣" and 5,000-digit strings, and Python refuses >4,300 digits).
_WHOLE = re.compile(r"[-+]?[0-9]{1,30}")


def whole(value, what: str, *, low: int = 0, high: int = 10**12) -> int:
    raw = "" if value is None else str(value).strip()
    if not _WHOLE.fullmatch(raw):
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        raise BadInput(_("%(what)s must be a whole number, not “%(value)s”.")
                       % {"what": what, "value": shown})
    number = int(raw)
    if not low <= number <= high:
        raise BadInput(_("%(what)s must be between %(low)d and %(high)d.") % {"what": what, "low": low, "high": high})
    return number


def optional_whole(value, what: str, **limits) -> int | None:
    return None if value is None or not str(value).strip() else whole(value, what, **limits)


def deck_cards(codes: Iterable[str]) -> list[str]:
    """Card codes as typed or picked ("2c", "Td"), each a card of the deck, in their canonical spelling."""
    try:
        return [str(parse_card(c)) for c in codes]
    except RuleViolation:
        raise BadInput(_("That is not a card of the deck.")) from None


def version_and_key(post) -> tuple[int, str]:
    """The screen's version and the request's idempotency key every tap carries (``casino.writes``)."""
    version = whole(post.get("version"), _("The screen's version"), low=0, high=2**62)
    key = (post.get("key") or "").strip()
    if not key:
        raise BadInput(_("This form is incomplete: reload the page."))
    if not is_valid_key(key):
        raise BadInput(_("The form's request key is not valid: reload the page."))
    return version, key
