"""Writing and verifying the audit log (see AuditEvent).

``record_event`` must run inside the transaction of the change it records,
so the event and the change commit or roll back together. It serialises the
writers of one stream: on PostgreSQL with a transaction-scoped advisory lock
keyed on the stream name (held until commit, so two writers can never read
the same tail and fork the chain); SQLite serialises all writers anyway. The
unique (stream, seq) constraint is the backstop if a lock is ever missed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import connection
from django.db.models import Func, TextField, Value
from django.utils import timezone

from casino.models import GENESIS_HASH, AuditEvent
from casino.roles import primary_role

CASINO_STREAM = "casino"


def stream_for(obj) -> str:
    """The chain an object's events belong to: ``tables.table.3``, ``tournaments.tournament.1``."""
    return f"{obj._meta.label_lower}.{obj.pk}"


def _lock_key(stream: str) -> int:
    return int.from_bytes(hashlib.sha256(stream.encode()).digest()[:8], "big", signed=True)


def _lock_stream(stream: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_lock_key(stream)])


def stream_lock(stream: str) -> dict:
    """Annotations that take ``stream``'s writer lock when the row they annotate is selected, for a
    write that selects (and locks) its object first anyway: the lock rides along that statement
    instead of costing a round trip of its own. Then ``record_event(..., locked=True)``.

    Empty where the database has no advisory locks (SQLite serialises all writers anyway).
    """
    if connection.vendor != "postgresql":
        return {}
    return {"_audit_stream_lock": Func(Value(_lock_key(stream)), function="pg_advisory_xact_lock",
                                       output_field=TextField())}


def record_event(
    *,
    action: str,
    actor=None,
    actor_label: str = "",
    role: str | None = None,
    obj=None,
    stream: str | None = None,
    details: dict | None = None,
    locked: bool = False,
    after: AuditEvent | None = None,
) -> AuditEvent:
    """Append one event to the chain of ``stream`` (default: the object's own, else ``casino``).

    ``locked``: this transaction already holds the stream's lock (``stream_lock``). ``after``: the
    stream's last event, appended by this same transaction under that lock (its successor needs no
    read of the tail).
    """
    if not connection.in_atomic_block:
        raise RuntimeError("record_event must run inside the transaction of the change it records")
    stream = stream or (stream_for(obj) if obj is not None else CASINO_STREAM)
    if after is not None and (after.stream != stream or not locked):
        raise ValueError("record_event(after=...) follows an event of the same stream, under its lock")
    if not locked:
        _lock_stream(stream)
    last = after or AuditEvent.objects.filter(stream=stream).order_by("-seq").only("seq", "hash").first()
    if actor is not None and getattr(actor, "is_authenticated", False):
        actor_label = actor_label or actor.get_username()
        role = role if role is not None else (primary_role(actor) or "")
    else:
        actor = None
    event = AuditEvent(
        stream=stream,
        seq=(last.seq + 1) if last else 1,
        at=timezone.now(),
        actor=actor,
        actor_label=actor_label[:150],
        role=role or "",
        action=action,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        details=details or {},
        prev_hash=last.hash if last else GENESIS_HASH,
    )
    # Hash what the database will give back: JSON round-trips, datetimes keep microseconds.
    event.hash = event.compute_hash()
    event.save(force_insert=True)
    return event


@dataclass(frozen=True)
class BrokenLink:
    stream: str
    seq: int
    event_id: int | None
    problem: str

    def __str__(self) -> str:
        where = f"stream {self.stream}, event #{self.seq}" + (f" (id {self.event_id})" if self.event_id else "")
        return f"{where}: {self.problem}"


def verify_chain(stream: str | None = None, *, chunk: int = 2000) -> tuple[int, BrokenLink | None]:
    """Walk every chain (or one) in order; return (events checked, the first broken link or None)."""
    streams = [stream] if stream else list(AuditEvent.objects.order_by().values_list("stream", flat=True).distinct())
    checked = 0
    for name in sorted(streams):
        expected_seq, prev_hash = 1, GENESIS_HASH
        for event in AuditEvent.objects.filter(stream=name).order_by("seq").iterator(chunk_size=chunk):
            checked += 1
            if event.seq != expected_seq:
                return checked, BrokenLink(name, expected_seq, None, f"missing; the chain jumps to #{event.seq}")
            if event.prev_hash != prev_hash:
                return checked, BrokenLink(name, event.seq, event.pk, "does not point to the hash of the event before")
            if event.compute_hash() != event.hash:
                return checked, BrokenLink(name, event.seq, event.pk, "its content does not match its hash")
            expected_seq, prev_hash = event.seq + 1, event.hash
    return checked, None
