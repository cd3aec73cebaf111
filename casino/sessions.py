"""Staff and player sessions: in the database, read through the Redis cache (``SESSION_ENGINE``)."""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db

log = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    """Django's cached-database sessions (the database stays the record; Redis answers the reads:
    a staff tap no longer reads its session row), which keep working when Redis does not answer.

    Django's own store already falls back to the database when the cache read fails and logs a failed
    cache write on save; here the cache write after a database read is forgiven too. A failed cache
    delete still fails (logging out must never leave a usable session in the cache).
    """

    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # noqa: BLE001 - Redis down or a bad key: the database answers
            log.warning("session cache unavailable, reading the session from the database", exc_info=True)
            data = None
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except Exception:  # noqa: BLE001 - the next read goes to the database again
            log.warning("could not cache the session", exc_info=True)
        return data
