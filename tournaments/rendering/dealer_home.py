"""A tournament dealer's part of his home page (issue #38's edges, item 3; RP-07): where the event's rotation puts
him now and where and when he deals next, above all while he rests (his home has no table of his then). Registered
with the core's ``casino.dealer_home`` by ``tournaments.apps``; read when the page is opened, nothing pushed."""

from __future__ import annotations

import math
from datetime import datetime

from django.template.loader import render_to_string

from tournaments.reads import rotation as rotation_reads


def rotation_section(user, now: datetime) -> str:
    plans = rotation_reads.dealer_plans(user, now)
    if not plans:
        return ""
    return render_to_string("tournaments/_dealer_home_rotation.html", {"plans": plans,
                                                                      "reload_in": seconds_to_next_change(plans, now)})


def seconds_to_next_change(plans: list[dict], now: datetime) -> int | None:
    """When the page reloads itself: a few seconds after the next change of the rotations it shows, so that a
    resting dealer's home says where he deals from the moment his break ends, without a tap (the page is not live:
    it has nothing else to push). None when no change is coming."""
    coming = [p["next_at"] for p in plans if p["next_at"] is not None]
    if not coming:
        return None
    return max(5, math.ceil((min(coming) - now).total_seconds()) + 2)
