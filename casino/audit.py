"""Writing, anchoring and verifying the audit log (see AuditEvent and docs/audit.md).

``record_event`` must run inside the transaction of the change it records,
so the event and the change commit or roll back together. It serialises the
writers of one stream with a transaction-scoped advisory lock keyed on the
stream name (held until commit, so two writers can never read the same tail
and fork the chain). The
unique (stream, seq) constraint is the backstop if a lock is ever missed.

Anchors: the head of a stream (stream, seq, hash), signed with the audit key,
appended to a file outside the database (settings.AUDIT_ANCHOR_PATH) and to
the log. The database can be rewritten by its owner; the anchors written
before cannot, so a deleted tail or a recomputed chain no longer matches them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Func, Max, Q, TextField, Value
from django.utils import timezone

from casino.models import GENESIS_HASH, KEYED, UNKEYED, AuditEvent, object_label
from casino.roles import primary_role

CASINO_STREAM = "casino"
anchor_log = logging.getLogger("casino.audit.anchor")


def _lock_key(stream: str) -> int:
    return int.from_bytes(hashlib.sha256(stream.encode()).digest()[:8], "big", signed=True)


def _lock_stream(stream: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_lock_key(stream)])


def stream_lock(stream: str) -> dict:
    """Annotations that take ``stream``'s writer lock when the row they annotate is selected, for a
    write that selects (and locks) its object first anyway: the lock rides along that statement
    instead of costing a round trip of its own. Then ``record_event(..., locked=True)``.

    The annotation ``_audit_stream_tail`` is the stream's last event as the lock found it (``stream_tail``):
    read after the lock was taken, in a snapshot of its own (migration casino 0007), so it is the tail the
    write's first event follows, with no read of its own.
    """
    return {"_audit_stream_tail": Func(Value(_lock_key(stream)), Value(stream), function="casino_audit_stream_tail",
                                       output_field=TextField())}


def stream_tail(row, stream: str) -> AuditEvent | None:
    """The stream's last event (its seq and hash only) as ``stream_lock``'s annotation on ``row`` read it; None
    for an empty stream (its first event then reads the tail, and finds none)."""
    tail = getattr(row, "_audit_stream_tail", None)
    if not tail:
        return None
    seq, hash_ = tail.split(" ")
    return AuditEvent(stream=stream, seq=int(seq), hash=hash_)


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
    event = chained_event(action=action, actor=actor, actor_label=actor_label, role=role, obj=obj, stream=stream,
                          details=details, locked=locked, after=after)
    append_events([event])
    return event


def chained_event(
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
    """The event ``record_event`` appends, chained and hashed but not saved yet: a write that appends several
    saves them together (``append_events``), one statement under its lock instead of one each."""
    if not connection.in_atomic_block:
        raise RuntimeError("record_event must run inside the transaction of the change it records")
    stream = stream or (object_label(obj) if obj is not None else CASINO_STREAM)
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
    return event


def append_events(events: list[AuditEvent]) -> None:
    """Save events made by ``chained_event``, in their order, in one statement; anchor the heads when due."""
    if not events:
        return
    if not connection.in_atomic_block:
        raise RuntimeError("record_event must run inside the transaction of the change it records")
    if len(events) == 1:
        events[0].save(force_insert=True)
    else:
        AuditEvent.objects.bulk_create(events)
    for event in events:
        _anchor_when_due(event)


# --- Anchors -------------------------------------------------------------------------------------------

# When this process last anchored each stream (time.monotonic()), or first wrote to it.
_anchored_at: dict[str, float] = {}


def _anchor_when_due(event: AuditEvent) -> None:
    """Every AUDIT_ANCHOR_EVERY-th event of a stream, or its first event AUDIT_ANCHOR_SECONDS after this
    process last anchored it, anchors the stream's head once the transaction commits. Costs a dict
    lookup per event; the file is written at commit, once in many events (never in a rolled-back one)."""
    now = time.monotonic()
    since = _anchored_at.setdefault(event.stream, now)
    every = settings.AUDIT_ANCHOR_EVERY
    if (every and event.seq % every == 0) or now - since >= settings.AUDIT_ANCHOR_SECONDS:
        _anchored_at[event.stream] = now
        head = Anchor(event.stream, event.seq, event.hash)
        # robust: a full disk must not turn a committed tap into an error (it is logged instead).
        transaction.on_commit(lambda: write_anchors([head]), robust=True)


@dataclass(frozen=True)
class Anchor:
    """A stream's head at one moment: the log must still hold this very event later."""

    stream: str
    seq: int
    hash: str
    at: str = ""

    def signature(self, key: bytes | None = None) -> str:
        text = json.dumps(["casino-audit-anchor", self.stream, self.seq, self.hash, self.at], separators=(",", ":"))
        return hmac.new(key or settings.AUDIT_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()

    def line(self) -> str:
        fields = {"stream": self.stream, "seq": self.seq, "hash": self.hash, "at": self.at}
        return json.dumps({**fields, "sig": self.signature()}, separators=(",", ":"), ensure_ascii=False)


def write_anchors(heads: Iterable[Anchor], path: Path | None = None) -> int:
    """Append the signed heads, one JSON line each, to the anchor file and to the log."""
    at = timezone.now().isoformat(timespec="seconds")
    lines = [Anchor(h.stream, h.seq, h.hash, at).line() for h in heads]
    if not lines:
        return 0
    path = Path(path or settings.AUDIT_ANCHOR_PATH)
    path.parent.mkdir(parents=True, exist_ok=True)
    # One write in append mode: lines of several processes never interleave.
    with path.open("a", encoding="utf-8") as file:
        file.write("".join(line + "\n" for line in lines))
    for line in lines:
        anchor_log.info("audit anchor %s", line)
    return len(lines)


def stream_heads(stream: str | None = None) -> list[Anchor]:
    """The last event of every stream (or of one)."""
    events = AuditEvent.objects.order_by()
    if stream:
        events = events.filter(stream=stream)
    last = dict(events.values_list("stream").annotate(seq=Max("seq")))
    heads = []
    names = sorted(last)
    for start in range(0, len(names), 500):
        wanted = Q()
        for name in names[start:start + 500]:
            wanted |= Q(stream=name, seq=last[name])
        heads += [Anchor(*row) for row in AuditEvent.objects.filter(wanted).values_list("stream", "seq", "hash")]
    return sorted(heads, key=lambda h: h.stream)


def anchor_heads(path: Path | None = None, stream: str | None = None) -> int:
    """Anchor the head of every stream that moved since its last anchor in ``path`` (``manage.py anchor_audit``)."""
    path = Path(path or settings.AUDIT_ANCHOR_PATH)
    anchored: dict[str, int] = {}
    for anchor, _problem in read_anchors([path]):
        if anchor is not None:
            anchored[anchor.stream] = max(anchored.get(anchor.stream, 0), anchor.seq)
    return write_anchors([h for h in stream_heads(stream) if anchored.get(h.stream) != h.seq], path)


def read_anchors(paths: Iterable[Path]) -> Iterable[tuple[Anchor | None, str | None]]:
    """Each line of the anchor files: (the anchor, None) if its signature holds, else (None, what is wrong)."""
    for path in paths:
        if not Path(path).exists():
            continue
        with Path(path).open(encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                if not line.strip():
                    continue
                where = f"anchor {path}:{number}"
                try:
                    data = json.loads(line)
                    anchor = Anchor(str(data["stream"]), int(data["seq"]), str(data["hash"]), str(data["at"]))
                    signature = str(data["sig"])
                except (ValueError, KeyError, TypeError):
                    yield None, f"{where}: not an anchor line"
                    continue
                if not hmac.compare_digest(signature, anchor.signature()):
                    yield None, f"{where}: its signature does not match (forged, or signed with another key)"
                    continue
                yield anchor, None


def verify_anchors(paths: Iterable[Path], stream: str | None = None) -> tuple[int, list[str]]:
    """Check every anchor against the log: the anchored event must still be there, with the anchored hash.
    Returns (anchors checked, problems)."""
    problems: list[str] = []
    by_stream: dict[str, list[Anchor]] = {}
    for anchor, problem in read_anchors(paths):
        if problem:
            problems.append(problem)
        elif stream is None or anchor.stream == stream:
            by_stream.setdefault(anchor.stream, []).append(anchor)
    checked = 0
    for name in sorted(by_stream):
        anchors = by_stream[name]
        checked += len(anchors)
        seqs = sorted({a.seq for a in anchors})
        stored: dict[int, str] = {}
        for start in range(0, len(seqs), 1000):
            stored.update(AuditEvent.objects.filter(stream=name, seq__in=seqs[start:start + 1000])
                          .values_list("seq", "hash"))
        last = AuditEvent.objects.filter(stream=name).aggregate(m=Max("seq"))["m"] or 0
        for anchor in sorted(anchors, key=lambda a: a.seq):
            if anchor.seq not in stored:
                if anchor.seq > last:
                    problem = (f"stream {name} ends at event #{last} but event #{anchor.seq} was anchored "
                               f"at {anchor.at}: its tail was deleted")
                else:
                    problem = f"stream {name}: event #{anchor.seq}, anchored at {anchor.at}, is missing"
                problems.append(problem)
                break
            if stored[anchor.seq] != anchor.hash:
                problems.append(f"stream {name}, event #{anchor.seq}: its hash differs from the one anchored at "
                                f"{anchor.at}: the chain was rewritten")
                break
    return checked, problems


@dataclass(frozen=True)
class BrokenLink:
    stream: str
    seq: int
    event_id: int | None
    problem: str

    def __str__(self) -> str:
        where = f"stream {self.stream}, event #{self.seq}" + (f" (id {self.event_id})" if self.event_id else "")
        return f"{where}: {self.problem}"


def verify_chain(stream: str | None = None, *, chunk: int = 2000, unkeyed: list | None = None,
                 ) -> tuple[int, BrokenLink | None]:
    """Walk every chain (or one) in order; return (events checked, the first broken link or None).

    An unkeyed event (plain SHA-256, from before the audit key) may only precede the stream's keyed
    ones: one after a keyed event is a forgery by someone without the key. ``unkeyed``, if given,
    collects how many unkeyed events each stream has.
    """
    streams = [stream] if stream else list(AuditEvent.objects.order_by().values_list("stream", flat=True).distinct())
    checked = 0
    key = settings.AUDIT_KEY.encode()
    for name in sorted(streams):
        expected_seq, prev_hash, keyed_since, old = 1, GENESIS_HASH, None, 0
        for event in AuditEvent.objects.filter(stream=name).order_by("seq").iterator(chunk_size=chunk):
            checked += 1
            if event.seq != expected_seq:
                return checked, BrokenLink(name, expected_seq, None, f"missing; the chain jumps to #{event.seq}")
            if event.prev_hash != prev_hash:
                return checked, BrokenLink(name, event.seq, event.pk, "does not point to the hash of the event before")
            if event.scheme not in (KEYED, UNKEYED):
                return checked, BrokenLink(name, event.seq, event.pk, f"unknown hash scheme {event.scheme!r}")
            if event.scheme == UNKEYED and keyed_since is not None:
                return checked, BrokenLink(name, event.seq, event.pk,
                                           f"hashed without the audit key after keyed event #{keyed_since}")
            if event.compute_hash(key) != event.hash:
                return checked, BrokenLink(name, event.seq, event.pk, "its content does not match its hash")
            if event.scheme == KEYED:
                keyed_since = keyed_since or event.seq
            else:
                old += 1
            expected_seq, prev_hash = event.seq + 1, event.hash
        if old and unkeyed is not None:
            unkeyed.append((name, old))
    return checked, None


# --- The games' own records against the log -------------------------------------------------------


@dataclass(frozen=True)
class RecordCheck:
    """A game's stored records checked against what the audit log recorded for them (the hands of the
    tables, say). Each app registers its own in its ``AppConfig.ready``: the core never imports an app.

    ``run(stream)`` returns ``(records checked, problems)``; ``report`` is the line ``verify_audit``
    prints, with ``{count}`` for the number checked.
    """

    report: str
    run: Callable[[str | None], tuple[int, list[str]]]


_record_checks: list[RecordCheck] = []


def register_record_check(check: RecordCheck) -> None:
    if check not in _record_checks:
        _record_checks.append(check)


def record_checks() -> tuple[RecordCheck, ...]:
    return tuple(_record_checks)

