"""A Redis outage logged as one: its start, a count while it lasts, its end.

While Redis is down every session read, shared snapshot and announcement of a process fails; each
logged its own traceback, some 35 a second, which hid any other error in the log. The places that
carry on without Redis tell ``REDIS`` of each failure (``failed``) and of each call that answered
(``answered``); it logs the first failure once (a warning with the error), then at most one line every
``SUMMARY_SECONDS`` with the count, then "Redis is back after N s, M calls failed". An error that is not
Redis failing (a bug) keeps its own traceback. One per process: each daphne logs its own view.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from redis.exceptions import RedisError

log = logging.getLogger("casino.redis")

#: at most one "still down" line this often while Redis does not answer
SUMMARY_SECONDS = 30.0


def is_redis_failure(error: BaseException) -> bool:
    """Redis refusing, timing out or dropping the connection, as redis-py and asyncio raise it."""
    return isinstance(error, RedisError | OSError | TimeoutError | EOFError)


class RedisOutage:
    """This process's view of Redis: answering, or down since when and how many calls failed."""

    def __init__(self, *, summary_seconds: float = SUMMARY_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.summary_seconds = summary_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._failures = 0
        self._counted_at = 0.0

    @property
    def down(self) -> bool:
        return self._since is not None

    def reset(self) -> None:
        """Forget an outage without logging its end (tests)."""
        with self._lock:
            self._since, self._failures = None, 0

    def failed(self, what: str, error: BaseException, *, logger: logging.Logger = log) -> None:
        """A call to Redis failed (``what``: what the process was doing, then does without). Not Redis
        failing: ``logger`` gets the warning with its traceback, as before."""
        if not is_redis_failure(error):
            logger.warning("%s", what, exc_info=error)
            return
        now = self.clock()
        with self._lock:
            first = self._since is None
            if first:
                self._since, self._failures, self._counted_at = now, 0, now
            self._failures += 1
            count = not first and now - self._counted_at >= self.summary_seconds
            if count:
                self._counted_at = now
            failures, since = self._failures, self._since
        if first:
            log.warning("Redis is not answering (%s: %s: %s); carrying on without it, failures counted every %.0f s",
                        what, type(error).__name__, error, self.summary_seconds)
        elif count:
            log.warning("Redis still not answering after %.0f s: %d calls failed", now - since, failures)

    def answered(self) -> None:
        """A call to Redis answered: if Redis was down, the outage ends here."""
        if self._since is None:  # the usual case, without the lock
            return
        now = self.clock()
        with self._lock:
            if self._since is None:
                return
            since, failures, self._since = self._since, self._failures, None
        log.warning("Redis is back after %.0f s, %d calls failed", now - since, failures)


REDIS = RedisOutage()
