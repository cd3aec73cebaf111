"""The one write path of every aggregate: a Texas Hold'em Bonus table today, a tournament and its
tables next (docs/architecture.md).

Every command on an aggregate runs ``write(kind, pk=..., by=..., key=..., expected_version=...,
action=..., work=...)``, in one transaction, in this order:

1. lock the aggregate's row (``select_for_update``): writes to one aggregate queue up, one at a time,
   while others go on undisturbed; the same statement takes the audit stream's lock and reads its tail,
   asks whether the idempotency key was used already, and reads what the game asks to have with the lock
   (``Aggregate.read_with_the_lock``): one round trip for all;
2. idempotency: a key already used answers the stored result (``duplicate=True``) and applies nothing
   again (a double tap, a retry after a network drop); a key that is someone else's is refused, and one
   that was used for another action (``KeyUsedElsewhere``: 409) is never answered with that one's result;
3. version: the screen acted on ``expected_version``; if the aggregate has moved on, ``StaleVersion``
   instead of silently overwriting what another screen did;
4. ``work(w)``: the game's own part (who may act, the rules engine, its rows, its audit events through
   ``w.audit``, saved together when it is done); a refusal raises and the transaction rolls back: nothing is
   half-recorded (a write made inside another's has no savepoint: its refusal rolls the outer one back);
5. bump the version, keep the request under its key with its answer, then run the steps ``work`` left for
   the end (``w.at_the_end``: a write into another aggregate, whose lock is then held the least);
6. ``w.before_announce()`` (what a game keeps of the version it made, at the commit), then announce the new
   version to ``w.groups`` after commit: ids and a version, never state (casino.realtime).

How long each write held its aggregate's lock, from the row locked to the transaction's commit (or rollback),
is measured always and logged at DEBUG on ``casino.writes.lock_hold`` (``LOCK_HOLD``; docs/reliability.md,
"How long a write holds its lock"): what the one lock an event's tables share costs them.

The write renders nothing: a screen asks its own cache for the version the write returns or announces, and
renders it there on the first ask (issue #35).

What differs between kinds of aggregate is passed in (``Aggregate``), never imported: the core knows
no game.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from casino.audit import append_events, chained_event, stream_lock, stream_tail
from casino.bad_input import has_nul
from casino.models import AuditEvent
from casino.realtime import announce_change
from casino.roles import primary_role
from casino.rules.errors import N_

#: What the request being answered asks (a digest of its form's fields, ``asking``): kept with its action.
_ASKED: ContextVar[str | None] = ContextVar("asked", default=None)

#: One line per aggregate lock a write held, at DEBUG (``LOCK_HOLD_LOG`` sends them to a file of their own).
LOCK_HOLD = logging.getLogger("casino.writes.lock_hold")

#: The time writes take as ``now`` while a simulation runs (``simulated_time``); None: the real clock.
_SIMULATED_NOW: ContextVar[datetime | None] = ContextVar("simulated_now", default=None)


def current_time() -> datetime:
    """The time a write records as its ``now``: the real clock, or the simulated one inside ``simulated_time``."""
    return _SIMULATED_NOW.get() or timezone.now()


@contextmanager
def simulated_time(at: datetime) -> Iterator[None]:
    """Run writes as if it were ``at`` (an aware datetime): every write inside records ``at`` as its time.

    For the tournament simulator (``simulate_tournament``) and tests: the record's ``at`` and the clock's
    readings then come from simulated time, so the same seed gives the same record. Screens never use it.
    """
    if at.tzinfo is None:
        raise ValueError("simulated_time needs an aware datetime")
    token = _SIMULATED_NOW.set(at)
    try:
        yield
    finally:
        _SIMULATED_NOW.reset(token)


class StaleVersion(Exception):
    """The screen acted on a version the aggregate has moved past: refetch and show it as it is."""

    def __init__(self, current_version: int) -> None:
        self.current_version = current_version
        super().__init__("The table changed, refreshing.")  # the screens say it in their language


class KeyUsedElsewhere(Exception):
    """The request's key was used already, by the same person, for another action on this aggregate: its
    stored answer is not this request's (the screen would say "Recorded" for something never done), and
    nothing is applied. The screens answer 409 with ``message``."""

    message = N_("This request was already used for something else.")

    def __init__(self, used_for: str, asked: str) -> None:
        self.used_for, self.asked = used_for, asked
        super().__init__(f"{self.message} (used for {used_for!r}, now asked for {asked!r})")


class NotAllowed(PermissionDenied):
    """This person may not do this to this aggregate (role or object refusal).

    Like the engine's ``RuleViolation``: an English ``N_`` template and its values, so that
    ``.message`` (logs, tests) does not depend on the active language and the screens translate
    it with ``casino.i18n.explain``.
    """

    def __init__(self, template: str, clause: str | None = None, **params) -> None:
        self.template, self.clause, self.params = template, clause, params
        self.message = template % params if params else template
        super().__init__(self.message)


@dataclass(frozen=True)
class Aggregate:
    """How one kind of aggregate is written.

    ``model`` has a ``version`` (bumped by every write). ``requests`` keeps each write under its key:
    a ``casino.models.WriteRequest`` (``key``, ``action``, ``by``, ``at``, ``alerts``) with a foreign key
    ``owner`` to the aggregate, ``version_field`` (the version the write made), and a foreign key for each of
    ``answer_ids`` (what the answer names besides the aggregate, e.g. the hand). ``stream(pk)``: its
    audit stream. ``groups(row)``: who hears of a write by default. ``saved_fields``: the row's fields a
    write may change besides its version.
    """

    model: type[models.Model]
    requests: type[models.Model]
    owner: str
    version_field: str
    stream: Callable[[int], str]
    groups: Callable[[models.Model], list[str]]
    answer_ids: tuple[str, ...] = ()
    saved_fields: tuple[str, ...] = ()
    #: what the game reads of the aggregate in the lock's own statement (annotations on its row, by name), each
    #: as the statement's snapshot saw it: before any write the lock waited for (a game checks what it reads)
    read_with_the_lock: Callable[[], dict] | None = None


@dataclass
class Written:
    """A write's answer: the version it made, what it names, and sentences for the person who acted.
    Each game's commands answer it, extended with what the game's screens ask of it."""

    version: int
    ids: dict[str, int | None] = field(default_factory=dict)
    duplicate: bool = False
    alerts: list[str] = field(default_factory=list)


@dataclass
class Write:
    """One write in progress: the locked row, who acts, and what the write produced."""

    row: models.Model
    by: object
    key: str
    action: str
    now: object
    role: str
    stream: str
    groups: list[str]
    event: str = "changed"
    alerts: list[str] = field(default_factory=list)
    last_event: AuditEvent | None = None  # the audit event this write appended last (first: the stream's tail)
    last_steps: list[Callable[[], None]] = field(default_factory=list)
    unsaved_events: list[AuditEvent] = field(default_factory=list)  # this write's audit events, saved together

    def audit(self, action: str, obj=None, **details) -> None:
        # ``write`` took the stream's lock with the row; each event follows the one before. They are saved
        # together when ``work`` is done (``save_audit``): one statement under the lock, not one each.
        self.last_event = chained_event(action=action, actor=self.by, obj=obj or self.row, stream=self.stream,
                                        details=details, locked=True, after=self.last_event)
        self.unsaved_events.append(self.last_event)

    def save_audit(self) -> None:
        """Save the audit events appended so far (in their chain's order), in one statement."""
        events, self.unsaved_events = self.unsaved_events, []
        append_events(events)

    def at_the_end(self, step: Callable[[], None]) -> None:
        """Run ``step`` after the rest of this write (its version, its request row), just before the commit:
        for a step that locks another aggregate, which all its peers also lock (a hand's end into its event,
        as every table's do), so that lock is held for the least time. It may still refuse, and then the
        whole write rolls back."""
        self.last_steps.append(step)

    def answer_ids(self) -> dict[str, int | None]:
        """What the answer and the announcement name besides the aggregate (a game's subclass says)."""
        return {}

    def before_announce(self) -> None:
        """Called after the version bump, inside the transaction: register what must happen at commit
        before the announcement (``transaction.on_commit`` keeps the order)."""


@contextmanager
def _asking_nothing() -> Iterator[None]:
    # a write made inside another's work (a hand's end into its event) keeps its own action: its key is its own
    token = _ASKED.set(None)
    try:
        yield
    finally:
        _ASKED.reset(token)


def _digest(what: object) -> str:
    if hasattr(what, "to_dict"):
        what = what.to_dict()
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()[:12]


def asked_for(action: str, what: object) -> str:
    """The action a request is kept under when one command takes many requests (any tap of a hand: a bet, a
    fold, the next card): its name and a digest of what was asked (the record the screen sent). A retry sends
    the same and is answered as a duplicate; the same key sent with something else is ``KeyUsedElsewhere``."""
    return f"{action[:27]}:{_digest(what)}"


@contextmanager
def asking(what: object) -> Iterator[None]:
    """The writes inside answer a request that asks ``what`` (its form's fields, as parsed: the seat, the entry,
    the counts): their actions are kept with its digest (``asked_for``), so that the key sent again for another
    seat or entry is refused as ``KeyUsedElsewhere`` instead of answered with the first one's result. A write
    made inside another's work keeps its own action (its key is its own)."""
    token = _ASKED.set(_digest(what))
    try:
        yield
    finally:
        _ASKED.reset(token)


def is_valid_key(key: object) -> bool:
    """An idempotency key: a non-empty text of at most 100 characters, with no NUL (PostgreSQL refuses it)."""
    return isinstance(key, str) and bool(key.strip()) and len(key) <= 100 and not has_nul(key)


def check_key(key: object) -> str:
    if not is_valid_key(key):
        raise ValueError("every write needs an idempotency key: a non-empty text of at most 100 characters, "
                         "without NUL")
    return key


@dataclass
class LockHeld:
    """One aggregate's row lock taken by a write: when the write asked for it and when it had it (``time.time``:
    comparable between processes, so a bench can tell which reports waited on which)."""

    aggregate: str  # the aggregate's audit stream, e.g. ``tournaments.tournament.12``
    action: str
    asked_at: float
    taken_at: float


#: The locks the writes of the transaction under way took, outermost first (None: no write under way).
_LOCKS_HELD: ContextVar[list[LockHeld] | None] = ContextVar("locks_held", default=None)


def _report_lock_holds(held: list[LockHeld], ended: str) -> None:
    """Log how long each lock of a transaction was held, now that it has ended (``ended``: "commit" or
    "rollback"): from the write's row locked to now. Runs as the transaction's first commit hook, before the
    announcements, so the time is the commit's and not theirs. ``waited_ms``: the locking statement's time, the
    wait behind the lock's previous holder included."""
    if not LOCK_HOLD.isEnabledFor(logging.DEBUG):
        return
    released = time.time()
    for lock in held:
        fields = {"aggregate": lock.aggregate, "action": lock.action,
                  "held_ms": round(1000 * (released - lock.taken_at), 3),
                  "waited_ms": round(1000 * (lock.taken_at - lock.asked_at), 3),
                  "taken_at": round(lock.taken_at, 6), "ended": ended, "pid": os.getpid()}
        LOCK_HOLD.debug(json.dumps(fields), extra={"lock_hold": fields})


def write(kind: Aggregate, *, pk: int, by, key: str, expected_version: int | None, action: str,
          work: Callable[[Write], None], write_class: type[Write] = Write) -> Written:
    """Lock -> idempotency -> version -> ``work`` -> version bump -> request kept -> announce after commit.

    ``expected_version``: the version the person saw when they asked (a stale one is refused: they look
    again). None only for a write that another write makes in its own transaction, on what that one locked
    and checked (a table's hand reported into its event): it rests on no screen, so whatever the aggregate's
    version at the lock, ``work`` checks its facts against the locked state."""
    key = check_key(key)
    asked = _ASKED.get()
    if asked is not None:
        action = f"{action[:27]}:{asked}"
    pk = int(pk)
    stream = kind.stream(pk)
    held = _LOCKS_HELD.get()
    if held is not None:
        # A write inside another's (a hand's end into its event): its lock ends with that one's, and so does a
        # refusal: no savepoint of its own, the whole outer write rolls back (its caller cannot go on after it).
        return _write_locked(kind, pk, by, key, expected_version, action, work, write_class, stream, held,
                             nested=True)
    held = []
    token = _LOCKS_HELD.set(held)
    try:
        return _write_locked(kind, pk, by, key, expected_version, action, work, write_class, stream, held)
    except BaseException:
        if held and not transaction.get_connection().in_atomic_block:
            _report_lock_holds(held, "rollback")  # a refusal holds the lock too, until its rollback
        raise
    finally:
        _LOCKS_HELD.reset(token)


def _write_locked(kind: Aggregate, pk: int, by, key: str, expected_version: int | None, action: str,
                  work: Callable[[Write], None], write_class: type[Write], stream: str,
                  held: list[LockHeld], nested: bool = False) -> Written:
    """``nested``: inside another write's transaction, which any exception here rolls back whole (Django marks it
    for rollback: a caller that caught the refusal cannot run another statement), so no savepoint is needed.
    Every statement between the lock and the commit holds the lock: a hand's end into its event holds the lock
    every table's hand's end waits for (issue #37)."""
    requests = kind.requests.objects
    with transaction.atomic(savepoint=not nested):
        asked_at = time.time()
        locked = (
            kind.model.objects.select_for_update()
            .annotate(key_used=Exists(requests.filter(**{kind.owner: OuterRef("pk")}, key=key)), **stream_lock(stream),
                      **(kind.read_with_the_lock() if kind.read_with_the_lock else {}))
            .get(pk=pk)
        )
        if not held:
            # the transaction's first commit hook (registered before any announcement's): the lock's end
            transaction.on_commit(lambda: _report_lock_holds(held, "commit"))
        held.append(LockHeld(stream, action, asked_at, time.time()))
        stale = expected_version is not None and int(expected_version) != locked.version
        # A double tap's twin may have waited on the lock while the first committed: the statement saw
        # the requests as they were when it began, so a stale version asks again (a statement of its own).
        if locked.key_used or stale:
            done = requests.filter(**{kind.owner: locked}, key=key).first()
            if done is not None:
                if done.by_id != getattr(by, "pk", None):
                    raise NotAllowed(N_("This request belongs to someone else."))
                if done.action != action:
                    # the same key on this aggregate for another action: a reused or forged key, not a retry
                    raise KeyUsedElsewhere(done.action, action)
                ids = {name: getattr(done, f"{name}_id") for name in kind.answer_ids}
                return Written(getattr(done, kind.version_field), ids, duplicate=True, alerts=list(done.alerts))
        if stale:
            raise StaleVersion(locked.version)
        w = write_class(row=locked, by=by, key=key, action=action, now=current_time(), role=primary_role(by) or "",
                        stream=stream, groups=kind.groups(locked), last_event=stream_tail(locked, stream))
        with _asking_nothing():
            work(w)
        w.save_audit()
        locked.version += 1
        locked.save(update_fields=["version", *kind.saved_fields])
        ids = w.answer_ids()
        requests.create(**{kind.owner: locked, kind.version_field: locked.version},
                        **{f"{name}_id": ids.get(name) for name in kind.answer_ids},
                        key=key, action=action, by=by, at=w.now, alerts=w.alerts)
        with _asking_nothing():
            for step in w.last_steps:
                step()
        w.save_audit()  # a last step's audit events, if any
        w.before_announce()
        announced = {kind.owner: locked.pk, **{name: value for name, value in ids.items() if value is not None}}
        announce_change(*w.groups, version=locked.version, event=w.event, **announced)
    return Written(locked.version, ids, alerts=list(w.alerts))
