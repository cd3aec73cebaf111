"""
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from casino import player_links, refusals
from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.i18n import explain
from casino.models import PlayerLink
from casino.refusals import Outcome, mark_refusal
from casino.roles import Role, has_role
from casino.rules.errors import RuleViolation
from casino.rules.tournament.eligibility import ID_TYPES
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.penalties import INFRACTIONS, PENALTY_KINDS
from casino.rules.tournament.record import parse_at, voided_seqs
from casino.writes import asking, is_valid_key
from tournaments import console, forms, screens
from tournaments.models import Entry, ExclusionListEntry, StructureTemplate, Tournament


log = logging.getLogger(__name__)


EVENT_CHANGED = gettext_lazy("The event changed: refreshing. Check and try again.")


DIRECTORS = console.DIRECTOR_ROLES


FLOOR = console.FLOOR_ROLES


#: Who assigns an event's director (the check itself: ``tournaments.access.oversees_events``).
OVERSEERS = (Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


def page_context(request, tournament, here: str) -> dict:
    return {"tournament": tournament, "here": here, "may_direct": console.may_direct(request.user, tournament),
            "may_work_floor": console.may_work_floor(request.user, tournament)}


def may_act(user, tournament: Tournament, roles: tuple[str, ...]) -> bool:
    """The door's role check made for this event (``tournaments.access``): a director acts at his own events
    only; the floor staff at any; the games director and administrators everywhere."""
    if roles == OVERSEERS:
        return console.oversees_events(user)
    if roles == DIRECTORS:
        return console.may_direct(user, tournament)
    return console.may_work_floor(user, tournament)


def require_directs(request, tournament: Tournament) -> None:
    """A director of another event may look at this one; he may not change it (403)."""
    if not console.may_direct(request.user, tournament):
        raise PermissionDenied


def outcome(call: Callable) -> Outcome:
    """Run ``call`` and say how it went: (status, notice, result), as ``casino.refusals`` maps it."""
    return refusals.outcome(call, stale=EVENT_CHANGED)
