"""A tournament dealer's part of his home page (issue #38's edges, item 3; RP-07): where the event's rotation puts
him now and where and when he deals next, above all while he rests (his home has no table of his then). Registered
with the core's ``casino.dealer_home`` by ``tournaments.apps``; read when the page is opened, nothing pushed."""

from __future__ import annotations

from datetime import datetime

from django.template.loader import render_to_string

from tournaments.reads import rotation as rotation_reads


def rotation_section(user, now: datetime) -> str:
    plans = rotation_reads.dealer_plans(user, now)
    if not plans:
        return ""
    return render_to_string("tournaments/_dealer_home_rotation.html", {"plans": plans})
