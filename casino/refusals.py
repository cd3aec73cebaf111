"""A command's refusal as the screen answers it: one mapping for both games' taps and forms.

* the object moved on (``StaleVersion``): 409 and the caller's "… changed: refreshing";
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


def outcome(call: Callable, *, stale: str) -> Outcome:
    """Run ``call`` (one command) and say how it went; ``stale`` is what a 409 for a stale screen says."""
    try:
        result = call()
    except StaleVersion:
        return Outcome(409, {"level": "stale", "text": str(stale)})
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
