"""Staff and player sessions: in the database, read through the Redis cache (``SESSION_ENGINE``).

Redis may be down: logging in, opening a player's link and logging out must still work, and a
logged-out session must never be usable again, even once Redis is back with its copy of it.

A session's row in the database is the record; Redis holds a copy that answers the reads (a staff tap
does not read its session row). Logging out (and the key change at login, ``cycle_key``) deletes the
row and then the copy. When the copy cannot be deleted (Redis down or not answering), the logout still
succeeds and leaves a note in the database, a session row named ``stale-<key>`` (``STALE_COPY``),
saying that Redis may still hold a copy of ``<key>``. Before a daphne process trusts a copy from
Redis it knows the notes: it reads them again when its last read is older than
``STALE_COPY_CHECK_SECONDS``, and at once when it has opened a new connection to Redis since (Redis
restarted, or failed and answers again: ``casino.cache.connections_made``). It refuses a copy that a
note names (and reads the database, where the session is gone), deletes the noted copies from Redis as
soon as Redis answers, and then the notes. Notes are in the database, so every process sees them.

So a logged-out session stays logged out when Redis comes back, on every process. The one gap: a
Redis that one process cannot reach while another still can (a broken link, not an outage); the
other process may then serve the copy for at most ``STALE_COPY_CHECK_SECONDS`` after the logout.

The notes live in Django's own session table (no table of their own to migrate or to grant): a
session key never contains ``-``, no cookie can name a note (``_validate_session_key``), and
``clearsessions`` removes a note once any copy it names has expired from Redis anyway.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from casino.cache import connections_made
from casino.redis_outage import REDIS

log = logging.getLogger(__name__)

STALE_COPY = "stale-"
STALE_COPY_CHECK_SECONDS = 1.0


class StaleCopies:
    """The session keys whose copy in Redis outlived their logout, as this process last read them."""

    def __init__(self):
        self._lock = threading.Lock()
        self._keys: frozenset[str] = frozenset()
        self._read_at = float("-inf")
        self._connections_seen = 0

    def note(self, session_key: str) -> None:
        """Record that Redis may still hold a copy of a deleted session (its delete failed)."""
        Session.objects.update_or_create(
            session_key=STALE_COPY + session_key,
            # A copy lives in Redis at most as long as a session (SESSION_COOKIE_AGE); so does the note.
            defaults={"session_data": "", "expire_date": timezone.now() + _longest_copy()},
        )
        with self._lock:
            self._keys |= {session_key}

    def current(self, cache) -> frozenset[str]:
        """The noted keys, their copies deleted if Redis answers. Read again after a second, and at once
        after this process opened a new connection to Redis: Redis restarted, or failed and answers again."""
        with self._lock:
            fresh = time.monotonic() - self._read_at < STALE_COPY_CHECK_SECONDS
            if fresh and connections_made() == self._connections_seen:
                return self._keys
            self._read_at, self._connections_seen = time.monotonic(), connections_made()
        notes = list(Session.objects.filter(session_key__startswith=STALE_COPY).values_list("session_key", flat=True))
        keys = frozenset(note.removeprefix(STALE_COPY) for note in notes)
        if keys:
            try:
                cache.delete_many([SessionStore.cache_key_prefix + key for key in keys])
            except Exception:  # noqa: BLE001 - Redis still down: the notes stay and keep refusing the copies
                log.warning("could not yet delete %d logged-out sessions' copies from the cache", len(keys))
            else:
                Session.objects.filter(session_key__in=notes).delete()
                log.info("deleted %d logged-out sessions' copies from the cache", len(keys))
        # Kept until the next read even when deleted: a copy read from Redis just before the delete is
        # still refused.
        with self._lock:
            self._keys = keys
        return keys

    def forget(self) -> None:
        """Read the notes again on the next look (tests)."""
        with self._lock:
            self._keys, self._read_at = frozenset(), float("-inf")


def _longest_copy() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.SESSION_COOKIE_AGE)


stale_copies = StaleCopies()


class SessionStore(cached_db.SessionStore):
    """Django's cached-database sessions that keep working when Redis does not answer.

    Django's own store falls back to the database when the cache read fails and logs a failed cache
    write on save; here the cache write after a database read, the cache's part in ``exists`` (asked
    for every new session key) and the cache delete are forgiven too, the last with a note (above).
    """

    def _validate_session_key(self, key):
        # A note is not a session: no cookie may name one (nor read, overwrite or delete it).
        return super()._validate_session_key(key) and not key.startswith(STALE_COPY)

    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except Exception as error:  # noqa: BLE001 - Redis down or a bad key: the database answers
            REDIS.failed("session cache unavailable, reading the session from the database", error, logger=log)
            data = None
        else:
            REDIS.answered()
        if data is not None and self.session_key not in stale_copies.current(self._cache):
            return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except Exception as error:  # noqa: BLE001 - the next read goes to the database again
            REDIS.failed("could not cache the session", error, logger=log)
        return data

    def save(self, must_create=False):
        # As Django's, whose failed cache write logged a traceback per request while Redis was down.
        DatabaseSessionStore.save(self, must_create)
        try:
            self._cache.set(self.cache_key, self._session, self.get_expiry_age())
        except Exception as error:  # noqa: BLE001 - the next read goes to the database
            REDIS.failed("could not cache the saved session", error, logger=log)
        else:
            REDIS.answered()

    def exists(self, session_key):
        # The row is the record: a copy in Redis never exists without it, except a logged-out one's.
        return DatabaseSessionStore.exists(self, session_key)

    def delete(self, session_key=None):
        if session_key is None:
            session_key = self.session_key
        if session_key is None:
            return
        DatabaseSessionStore.delete(self, session_key)
        try:
            self._cache.delete(self.cache_key_prefix + session_key)
        except Exception as error:  # noqa: BLE001 - Redis down: the note refuses the copy until it is deleted
            REDIS.failed("could not delete a logged-out session's copy from the cache; noted", error, logger=log)
            stale_copies.note(session_key)

    # Django's async session methods, for async views: the same rules, in a worker thread.
    async def aload(self):
        return await sync_to_async(self.load)()

    async def aexists(self, session_key):
        return await sync_to_async(self.exists)(session_key)

    async def adelete(self, session_key=None):
        return await sync_to_async(self.delete)(session_key)
