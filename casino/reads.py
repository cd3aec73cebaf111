"""The read path of every aggregate: what its screens show at one version, read once per version.

A Texas Hold'em Bonus table today, a tournament and its tables next: every write bumps the aggregate's
version under its row lock (``casino.writes``), and what a version shows never changes. So the screens
that re-render after one announcement (a tablet, a console, every phone of the table, in each daphne
process) share one read of that version instead of each reading PostgreSQL. This module holds the
machinery; what a game's snapshot is, and how it is read, is passed in (``VersionedReads(read=...)``),
never imported: the core knows no game.

Where each read looks is in its name:

- ``snapshot_from_db(row)``: the aggregate at the version of ``row``, a row just read from PostgreSQL
  (what this process holds of that version, else the rest read from PostgreSQL);
- ``snapshot_in_process(row, version)``: what this process's memory holds for ``version``; never reads;
- ``snapshot_from_redis(row, version)``: the snapshot of exactly ``version`` that the process which
  wrote it left in Redis (``SHARE_SNAPSHOTS``), then held in this process too; never reads PostgreSQL;
- ``snapshot_anywhere(row, version)``: this process, then Redis, then PostgreSQL, in that order, one
  read per version and process however many screens ask at once (single flight);
- ``once_per_version(what, row, version, read)``: any other read of a version (the links that may
  watch a table), made once per version and process; ``held_once`` answers it without reading;
- ``ReplayedStates``: the latest replayed state of an append-only record (a hand's rows), so that a
  screen that finds the record grown applies only the rows it has not seen.

The one invalidation rule
-------------------------
Every cache here is keyed either by (aggregate, version), the aggregate being its id and creation
stamp, or by content that never changes (an append-only record up to a given row, a table's boxes, a
finished hand). A write bumps the version, so a new version never reads an old entry, and **nothing is
ever invalidated by hand**: an entry is right or absent. Only committed reads are kept (a read inside
a write, which may still roll back, is kept at commit or not at all). Memory is bounded by
least-recently-used eviction (``casino.memo.BoundedCache``); Redis entries expire after
``SHARED_SNAPSHOT_SECONDS``, since a version is only news for a moment. The creation stamp is in every
key because a test database reuses the ids of flushed rows; the test suite also empties every cache
between tests (``casino.memo.clear_all``).
"""

from __future__ import annotations

import dataclasses
import logging
import zlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction

from casino.memo import BoundedCache
from casino.redis_outage import REDIS

log = logging.getLogger(__name__)

#: How long a version's snapshot waits in Redis for the other processes' screens (settings.CACHES).
SHARED_SNAPSHOT_SECONDS = 30


class Snapshot(Protocol):
    """What a game's snapshot must say: the version it shows (its content may be a later version's
    than the one asked for, never an earlier one)."""

    @property
    def version(self) -> int: ...


S = TypeVar("S", bound=Snapshot)
V = TypeVar("V")
R = TypeVar("R")


def effective_rows(rows: Iterable[R]) -> list[R]:
    """The rows of a hand's append-only record that its replay uses. Every game undoes the same way, by
    a later row naming the one it undoes (``undoes_id``): both are left out."""
    rows = list(rows)
    undone = {r.undoes_id for r in rows if r.undoes_id is not None}
    return [r for r in rows if r.undoes_id is None and r.pk not in undone]


def identity(row) -> tuple:
    """An aggregate as the caches name it: its id and creation stamp (a test database reuses ids)."""
    return (row.pk, row.created_at)


def version_key(row, version: int) -> tuple:
    """One version of one aggregate: the key of every per-version entry."""
    return (row.pk, row.created_at, version)


def at_commit(do: Callable[[], None]) -> None:
    """``do()`` once what was read is committed: now outside a transaction, else at its commit (never if
    it rolls back), so that a cache never keeps a read of rows that were not committed."""
    if connection.in_atomic_block:
        transaction.on_commit(do)
    else:
        do()


class VersionedReads(Generic[S]):
    """The snapshots of one kind of aggregate, per version: in this process, in Redis, in PostgreSQL.

    ``read(row)``: the snapshot at the version of ``row``, a row just read from PostgreSQL (the game's
    own queries). ``fetch(row)``: the aggregate's row as it is now. ``adopt(snapshot)``: called with a
    snapshot taken from Redis, to seed the game's other caches from it (e.g. its replayed state).
    """

    def __init__(self, name: str, *, read: Callable[[Any], S], fetch: Callable[[Any], Any],
                 adopt: Callable[[S], None] | None = None, size: int = 512) -> None:
        self.name = name
        self._read, self._fetch, self._adopt = read, fetch, adopt
        self._snapshots: BoundedCache[S] = BoundedCache(size)
        self._per_version: BoundedCache[Any] = BoundedCache(size)

    # --- the snapshot of a version ----------------------------------------------------------------

    def snapshot_from_db(self, row) -> S:
        """The aggregate at the version of ``row`` (a row just read from PostgreSQL): what this process
        holds of that version, else the rest read from PostgreSQL and kept, unless inside a write."""
        key = version_key(row, row.version)
        found = self._snapshots.get(key)
        if found is not None:
            return found
        snapshot = self._read(row)
        if not connection.in_atomic_block:  # inside a write, what it read may still roll back
            self._snapshots.put(key, snapshot)
        return snapshot

    def snapshot_in_process(self, row, version: int) -> S | None:
        """What this process holds for ``version`` (``row``: only its id and creation stamp count); never
        reads. Safe on the event loop. Its content may be a later version's, which it says."""
        return self._snapshots.get(version_key(row, version))

    def snapshot_from_redis(self, row, version: int) -> S | None:
        """The snapshot of exactly ``version`` that another process left in Redis, now held in this
        process too; None if absent, if sharing is off or Redis does not answer (the log says so)."""
        key = version_key(row, version)
        found = shared(self._shared_name(key))
        if found is None or getattr(found, "version", None) != version:
            return None
        self._snapshots.put(key, found)
        if self._adopt is not None:
            self._adopt(found)
        return found

    def snapshot_anywhere(self, row, version: int | None = None) -> S:
        """The aggregate at ``version``: from this process, else Redis, else PostgreSQL (as it is now,
        which may be a later version and then says so); without ``version``, read now.

        A push names the version it announces: the screens that follow it ask for that version, and
        only the first of them in each process reads; the others asking at the same moment wait for
        that read (single flight) and share it.
        """
        def read_now() -> S:
            return self.snapshot_from_db(self._fetch(row))

        if version is None:
            return read_now()
        # Kept under the version asked for too (its content may be a later version's, which says so):
        # the other screens that follow the same push then find it.
        return self._snapshots.get_or_make(
            version_key(row, version), lambda: self.snapshot_from_redis(row, version) or read_now(), alone=True,
        )

    def leave(self, row, snapshot: S) -> None:
        """A write leaves the snapshot of the version it made, at its commit and before its announcement
        (register this in ``Write.before_announce``): in this process for its screens, and in Redis for
        the other processes' screens and writes. A Redis failure only costs them a read."""
        key = version_key(row, snapshot.version)

        def leave_now() -> None:
            self._snapshots.put(key, snapshot)
            share(self._shared_name(key), snapshot)

        at_commit(leave_now)

    def _shared_name(self, key: tuple) -> str:
        pk, created_at, version = key
        return f"{self.name}.snapshot:{pk}:{created_at.timestamp()}:{version}"

    # --- any other read of a version --------------------------------------------------------------

    def once_per_version(self, what: str, row, version: int, read: Callable[[], V]) -> V:
        """``read()`` once per version and process (single flight), kept under ``what``: a read that
        follows the version's announcement, e.g. the player links that may watch a table."""
        return self._per_version.get_or_make((what, *version_key(row, version)), read, alone=True)

    def held_once(self, what: str, row, version: int) -> Any | None:
        """What ``once_per_version(what, row, version, ...)`` made in this process; never reads."""
        return self._per_version.get((what, *version_key(row, version)))


def shared_cache():
    """Redis, where a version's snapshot waits for the other processes' screens; None when sharing is off
    (one process) or there is no Redis."""
    return caches["default"] if settings.SHARE_SNAPSHOTS else None


def shape_of(*classes: type) -> str:
    """The fields of ``classes`` (dataclasses, NamedTuples, models) as a short fingerprint, for the name of
    what a process leaves in Redis (``share``): during a rolling deploy the processes may run different code,
    and what one pickled must not reach another in another shape (a field added, renamed). A process then
    finds nothing under its own shape and reads the record."""
    names = [f"{cls.__name__}.{name}" for cls in classes for name in _field_names(cls)]
    return format(zlib.crc32(" ".join(names).encode()), "08x")


def _field_names(cls: type) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    if hasattr(cls, "_fields"):  # a NamedTuple
        return list(cls._fields)
    return [f.name for f in cls._meta.concrete_fields]


def share(name: str, value: Any) -> None:
    """Leave ``value`` in Redis under ``name`` for the other processes, for ``SHARED_SNAPSHOT_SECONDS``
    (nothing when sharing is off). A failure costs them a read of their own: the log says so, the write
    that made it stands."""
    cache = shared_cache()
    if cache is None:
        return
    try:
        cache.set(name, value, SHARED_SNAPSHOT_SECONDS)
    except Exception as error:  # noqa: BLE001 - the other processes read the database instead
        REDIS.failed(f"could not share the snapshot {name}", error, logger=log)
    else:
        REDIS.answered()


def shared(name: str) -> Any | None:
    """What a process left in Redis under ``name`` (``share``); None if absent, expired, sharing is off
    or Redis does not answer (the log says so): the caller reads the database instead."""
    cache = shared_cache()
    if cache is None:
        return None
    try:
        value = cache.get(name)
    except Exception as error:  # noqa: BLE001 - the caller reads the database instead
        REDIS.failed(f"could not read the shared snapshot {name}", error, logger=log)
        return None
    REDIS.answered()
    return value


class ReplayedStates(Generic[V]):
    """The latest replayed state of append-only records (a hand's rows), per process:
    ``record key -> (last row's seq, state)``.

    Rows are only ever appended, so the replay of a record's rows up to a given seq never changes:
    every screen that re-renders after a push shares one replay, and a screen that finds the record
    grown applies only the rows it has not seen. ``key`` names the record by immutable content (its id
    and start time). Only states of committed rows are kept (``remember`` inside a write waits for its
    commit), and of two the later is kept (screens may race; either is right).
    """

    def __init__(self, size: int = 1024) -> None:
        self._states: BoundedCache[tuple[int, V]] = BoundedCache(size)

    def latest(self, key: Hashable) -> tuple[int, V] | None:
        """``(seq, state)``: the state after the record's rows up to ``seq``, if this process holds one."""
        return self._states.get(key)

    def remember(self, key: Hashable, seq: int, state: V) -> None:
        def put() -> None:
            known = self._states.get(key)
            if known is None or known[0] < seq:
                self._states.put(key, (seq, state))

        at_commit(put)


def immutable_cache(size: int) -> BoundedCache:
    """A per-process cache for content that never changes once complete (a table's boxes, a finished
    hand's results): the same rule, keyed by what never changes."""
    return BoundedCache(size)
