"""The core's per-version reads (casino.reads), with an aggregate of the test's own: no game involved.

A tournament will plug into the same machinery as a table does, so what it promises is pinned here
without ``tables``: one read per version and process, a snapshot left by a write found by the other
processes through Redis, never an entry of another version, and nothing invalidated by hand.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from django.core.cache import caches

from casino import reads
from casino.memo import another_process


@dataclass(frozen=True)
class Row:
    pk: int
    version: int
    created_at: datetime = datetime(2026, 11, 23, tzinfo=UTC)


@dataclass(frozen=True)
class Shown:
    """A snapshot: the version it shows and what the screens read for it."""

    version: int
    content: str


class Database:
    """The aggregate's rows as PostgreSQL would hold them, counting what the screens read."""

    def __init__(self) -> None:
        self.rows = {1: Row(1, 1)}
        self.snapshots_read = 0
        self.rows_fetched = 0

    def read(self, row: Row) -> Shown:
        self.snapshots_read += 1
        return Shown(row.version, f"aggregate {row.pk} at version {row.version}")

    def fetch(self, row: Row) -> Row:
        self.rows_fetched += 1
        return self.rows[row.pk]

    def bump(self) -> Row:
        row = self.rows[1]
        self.rows[1] = Row(row.pk, row.version + 1, row.created_at)
        return self.rows[1]


@pytest.fixture
def database():
    return Database()


@pytest.fixture
def adopted():
    return []


@pytest.fixture
def versions(database, adopted):
    return reads.VersionedReads("test-aggregate", read=database.read, fetch=database.fetch, adopt=adopted.append)


@pytest.fixture
def shared(settings):
    """Sharing on, through a cache that pickles as Redis does (a copy, never the object)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "reads"}}
    settings.SHARE_SNAPSHOTS = True
    yield
    caches["default"].clear()


@pytest.fixture(autouse=True)
def no_sharing_unless_asked(settings):
    settings.SHARE_SNAPSHOTS = False


def test_many_screens_asking_for_one_version_at_once_share_one_read(database, versions):
    row = database.rows[1]
    start = threading.Barrier(8)
    shown = []

    def screen() -> None:
        start.wait()
        shown.append(versions.snapshot_anywhere(row, 1))

    threads = [threading.Thread(target=screen) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert database.snapshots_read == 1 and database.rows_fetched == 1
    assert len(shown) == 8 and all(s is shown[0] for s in shown)


def test_a_new_version_is_read_anew_and_the_old_one_is_still_what_it_was(database, versions):
    row = database.rows[1]
    first = versions.snapshot_anywhere(row, 1)
    database.bump()
    second = versions.snapshot_anywhere(row, 2)
    assert (first.version, second.version) == (1, 2) and database.snapshots_read == 2
    assert versions.snapshot_in_process(row, 1) is first  # nothing was invalidated by hand


def test_a_version_asked_for_late_is_the_databases_later_one_and_says_so(database, versions):
    row = database.rows[1]
    database.bump()
    database.bump()
    snapshot = versions.snapshot_anywhere(row, 2)  # the screen heard of version 2; the row is at 3
    assert snapshot.version == 3
    assert versions.snapshot_in_process(row, 2) is snapshot  # the other screens of that push find it


def test_nothing_is_held_in_process_before_a_read_and_holding_never_reads(database, versions):
    row = database.rows[1]
    assert versions.snapshot_in_process(row, 1) is None
    assert database.snapshots_read == 0


def test_a_write_leaves_its_snapshot_for_this_process_and_through_redis_for_the_others(
    database, versions, adopted, shared
):
    row = database.bump()
    written = Shown(2, "as the write built it")
    versions.leave(row, written)  # outside a transaction: at once
    assert versions.snapshot_anywhere(row, 2) is written and database.snapshots_read == 0
    with another_process():
        assert versions.snapshot_in_process(row, 2) is None
        found = versions.snapshot_anywhere(row, 2)
        assert found == written and found is not written  # a copy, through pickle
        assert adopted == [found] and database.snapshots_read == 0


def test_redis_answers_only_for_the_version_left_there(database, versions, shared):
    row = database.bump()
    versions.leave(row, Shown(2, "version 2"))
    with another_process():
        assert versions.snapshot_from_redis(row, 3) is None
        assert versions.snapshot_from_redis(row, 1) is None
        assert versions.snapshot_from_redis(row, 2).content == "version 2"


def test_without_sharing_redis_is_not_asked(database, versions):
    row = database.bump()
    versions.leave(row, Shown(2, "only here"))
    with another_process():
        assert versions.snapshot_from_redis(row, 2) is None


def test_any_other_read_of_a_version_is_made_once_per_version(database, versions):
    row = database.rows[1]
    made = []
    for _ in range(3):
        versions.once_per_version("links", row, 1, lambda: made.append(1) or {"link": 1})
    assert made == [1] and versions.held_once("links", row, 1) == {"link": 1}
    assert versions.held_once("links", row, 2) is None


def test_replayed_states_keep_the_later_of_two_and_only_once_committed():
    states: reads.ReplayedStates[str] = reads.ReplayedStates(8)
    states.remember("hand", 3, "after row 3")
    states.remember("hand", 2, "after row 2")  # a slower screen: never goes back
    assert states.latest("hand") == (3, "after row 3")


@pytest.mark.django_db(transaction=True)
def test_a_state_remembered_inside_a_transaction_that_rolls_back_is_never_kept():
    from django.db import transaction

    states: reads.ReplayedStates[str] = reads.ReplayedStates(8)
    with pytest.raises(RuntimeError), transaction.atomic():
        states.remember("hand", 1, "a row that never was")
        raise RuntimeError
    assert states.latest("hand") is None
    with transaction.atomic():
        states.remember("hand", 1, "a committed row")
        assert states.latest("hand") is None  # kept at commit, not before
    assert states.latest("hand") == (1, "a committed row")


def test_another_process_starts_empty_and_gives_back_what_this_one_held(database, versions):
    row = database.rows[1]
    held = versions.snapshot_anywhere(row, 1)
    with another_process():
        assert versions.snapshot_in_process(row, 1) is None
        versions.snapshot_anywhere(row, 1)
    assert versions.snapshot_in_process(row, 1) is held and database.snapshots_read == 2
