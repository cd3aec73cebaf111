"""A command's refusal as the screen answers it: one mapping for both games' taps and forms.

* the object moved on (``StaleVersion``): 409 and what was recorded since the version the screen showed, as the
  game's ``changed`` says it ("Since your screen: Box 3 bet the flop. … Check and try again."), else the
  caller's "… changed: refreshing";
* the key was used already for another action (``KeyUsedElsewhere``): 409; nothing was applied;
* bad input (``BadInput``): 400 and what was wrong;
* the rules refuse (``RuleViolation``): 422 and the clause's sentence in the viewer's language;
* the command's own refusal (``NotAllowed``): 403 and its sentence.

A refusal by the rules or by the command carries ``X-Rule-Refusal: 1``: the screens' scripts tell it from a
403 of a session that ended (live.js, casino.js).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.utils.translation import gettext as _

from casino.form_input import BadInput
from casino.i18n import explain
from casino.rules.errors import RuleViolation
from casino.writes import KeyUsedElsewhere, NotAllowed, StaleVersion


class Outcome(NamedTuple):
    status: int
    notice: dict | None
    result: object = None


#: The most changes a stale screen's notice lists, the last ones: a glance at what happened, not the record.
CHANGES_SAID = 6

#: The first line of a list whose earlier changes were left out (no words to translate).
EARLIER_LEFT_OUT = "…"


def last_changes(said: list[str], more_before: bool = False) -> list[str]:
    """The last ``CHANGES_SAID`` lines of ``said`` (oldest first), "…" first when earlier ones are left out."""
    if len(said) <= CHANGES_SAID and not more_before:
        return said
    return [EARLIER_LEFT_OUT, *said[-(CHANGES_SAID - 1):]]


def since_your_screen(changes: list[str]) -> str:
    """A stale tap's answer naming what was recorded since the screen's version (issue #35)."""
    return " ".join([_("Since your screen:"), *changes, _("Check and try again.")])


def outcome(call: Callable, *, stale: str, changed: Callable[[], list[str]] | None = None) -> Outcome:
    """Run ``call`` (one command) and say how it went; ``stale`` is what a 409 for a stale screen says when
    ``changed`` (what was recorded since the version the screen showed, in the viewer's language) says nothing."""
    try:
        result = call()
    except StaleVersion:
        changes = changed() if changed is not None else []
        return Outcome(409, {"level": "stale", "text": since_your_screen(changes) if changes else str(stale)})
    except KeyUsedElsewhere:
        # nothing applied: the stored answer was another action's, never shown as this one's success
        return Outcome(409, {"level": "error", "text": _("This request was already used for something else.")})
    except BadInput as bad:
        return Outcome(400, {"level": "error", "text": str(bad)})
    except RuleViolation as refused:
        # The transaction rolled back: nothing of the action was recorded.
        return Outcome(422, {"level": "error", "text": explain(refused)})
    except NotAllowed as denied:
        return Outcome(403, {"level": "error", "text": explain(denied)})
    alerts = getattr(result, "alerts", None)
    # the alerts are in the language of the request that wrote them
    return Outcome(200, {"level": "info", "text": " ".join(alerts)} if alerts else None, result)


def is_refusal(status: int, notice: dict | None) -> bool:
    """A refusal by the rules, the command or a key used elsewhere, not a stale screen, bad input or a logout."""
    return status in (403, 422) or (status == 409 and notice is not None and notice.get("level") == "error")


def mark_refusal(response, status: int, notice: dict | None):
    """The fragment's response with ``X-Rule-Refusal`` when it answers a refusal (see the module's docstring)."""
    if is_refusal(status, notice):
        response["X-Rule-Refusal"] = "1"  # live.js: a refusal by the rules is not a logout
    return response
