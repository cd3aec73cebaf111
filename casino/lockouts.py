"""Staff login lock-outs: who is locked out now, the way out, and their audit.

django-axes counts the failures and locks a username on one address
(settings ``AXES_*``); this module only reads its state and uses its own API to
lift a lock, so the throttling stays axes's. The floor's tablets share one
address, so a pit boss locked out at the start of a shift must not wait 15
minutes with a table open: the games director or an administrator unlocks them
(docs/roles.md says who may, and why not the pit boss).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from casino.audit import CASINO_STREAM, record_event
from casino.models import AuditEvent
from casino.roles import Role, has_role

LOCKED_OUT = "login.locked_out"
UNLOCKED = "login.unlocked"
THROTTLE_LABEL = "login-throttle"  # the audit's "who" for a lock-out: nobody, the throttle itself


@dataclass(frozen=True)
class Lockout:
    username: str
    ip_address: str | None
    failures: int
    since: datetime | None  # when the lock-out was recorded (None: not recorded, e.g. from before this screen)
    until: datetime | None  # None: axes has no cool-off (AXES_COOLOFF_TIME None), only an unlock lifts it
    person: object | None  # the staff account of that username, if there is one

    @property
    def name(self) -> str:
        return self.person.get_full_name() if self.person is not None else ""


def client_address(request) -> str | None:
    """The client address a login failure counts against (``AXES_CLIENT_IP_CALLABLE``).

    Without proxies, the connection's. Behind ``PROXY_COUNT`` proxies, each appending the address it
    was reached from to X-Forwarded-For, the one the outermost proxy saw: ``PROXY_COUNT`` from the
    right. Entries further left are whatever the client sent, so a guesser cannot pick a fresh
    address per try. (django-ipware, axes's other way, counts differently and answers None when the
    header is shorter than it expects: every such login would share one "address".)
    """
    remote = request.META.get("REMOTE_ADDR") or None
    count = settings.PROXY_COUNT
    if count <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(hops) < count:
        return remote  # not through every proxy: the connection is all we know
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:
        return remote  # axes stores an IP address column: never a made-up value


def _audit_details(username: str, ip_address: str | None, **more) -> dict:
    return {"username": username, "ip_address": ip_address or "", **more}


def _user_named(username: str):
    return get_user_model().objects.filter(username=username).first()


# --------------------------------------------------------------------------- recording a lock-out


def _recorded_lately(username: str, ip_address: str | None, cool_off: timedelta | None) -> bool:
    recorded = AuditEvent.objects.filter(stream=CASINO_STREAM, action=LOCKED_OUT, details__username=username,
                                         details__ip_address=ip_address or "")
    if cool_off is not None:
        recorded = recorded.filter(at__gte=timezone.now() - cool_off)
    return recorded.exists()


def record_lockout(sender, request, username, ip_address, **kwargs) -> None:
    """axes's ``user_locked_out`` (request, username, ip_address): audit the lock, once.

    axes sends it again at every refused try while the pair stays locked (each one restarts the
    cool-off), so a locked-out attacker would fill the log: record the try that reached the limit,
    and a later one only if no lock-out of the pair is recorded within the cool-off (two failures
    at the same moment can both count past the limit).
    """
    limit = get_failure_limit(request, getattr(request, "axes_credentials", None))
    failures = getattr(request, "axes_failures_since_start", None)
    username = (username or "")[:150]
    if failures is None or failures > limit:
        if _recorded_lately(username, ip_address, get_cool_off(request)):
            return
    person = _user_named(username)
    with transaction.atomic():
        record_event(
            action=LOCKED_OUT, actor_label=THROTTLE_LABEL, obj=person, stream=CASINO_STREAM,
            details=_audit_details(username, ip_address, failures=failures or limit, limit=limit),
        )


# --------------------------------------------------------------------------- who is locked out now


def locked_out_now() -> list[Lockout]:
    """Every username + address pair axes refuses now, newest first.

    Counted as axes counts (its failures within the cool-off, summed over browsers, against its
    limit), so this screen and the login page agree.
    """
    cool_off = get_cool_off()
    limit = get_failure_limit(None, None)
    attempts = AccessAttempt.objects.all()
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    rows = list(
        attempts.values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=limit)
        .order_by("-last")
    )
    usernames = {row["username"] for row in rows if row["username"]}
    people = {u.username: u for u in get_user_model().objects.filter(username__in=usernames)}
    since: dict[tuple[str, str], datetime] = {}
    recorded = AuditEvent.objects.filter(stream=CASINO_STREAM, action=LOCKED_OUT, details__username__in=usernames)
    for at, details in recorded.order_by("at").values_list("at", "details"):
        since[(details.get("username"), details.get("ip_address"))] = at
    return [
        Lockout(
            username=row["username"] or "",
            ip_address=row["ip_address"],
            failures=row["failures"],
            since=since.get((row["username"], row["ip_address"] or "")),
            until=row["last"] + cool_off if cool_off is not None else None,
            person=people.get(row["username"]),
        )
        for row in rows
    ]


# --------------------------------------------------------------------------- the way out


class CannotUnlock(Exception):
    """There is nothing to unlock: that username is not locked out from that address (any more)."""


def may_unlock(by, person) -> bool:
    """The games director unlocks anyone but an administrator; an administrator unlocks anyone.

    A lifted lock is five more guesses at that password: a games director must not be able to
    give themselves unlimited guesses at an account stronger than their own.
    """
    if has_role(by, Role.ADMINISTRATOR):
        return True
    if not has_role(by, Role.GAMES_DIRECTOR):
        return False
    return person is None or not (person.is_superuser or has_role(person, Role.ADMINISTRATOR))


def unlock(*, by, username: str, ip_address: str | None, reason: str) -> int:
    """Lift the lock on ``username`` at ``ip_address`` through axes, audited with who and why.

    Returns how many of axes's attempt records were cleared.
    """
    lockout = next((lo for lo in locked_out_now() if lo.username == username and lo.ip_address == ip_address), None)
    if lockout is None:
        raise CannotUnlock("not locked out")
    if not may_unlock(by, lockout.person):
        raise PermissionDenied
    with transaction.atomic():
        # Both given, axes clears exactly this pair (an address alone would free every user on it;
        # a pair axes recorded with no address, every address of that username).
        cleared = AxesProxyHandler.reset_attempts(ip_address=ip_address, username=username)
        record_event(
            action=UNLOCKED, actor=by, obj=lockout.person, stream=CASINO_STREAM,
            details=_audit_details(username, ip_address, reason=reason, failures=lockout.failures),
        )
    return cleared
