"""A PostgreSQL restart kills every pooled connection at once: discard them all when the first is found.

The pool checks each connection before lending it (``CONN_HEALTH_CHECKS``, psycopg_pool's
``check_connection``), and a request whose connection fails the check takes the next one. But
psycopg_pool waits between two failed checks, 1 s, then 2, then 4... (so that a broken server is not
hammered): after a restart, a request that met the pool's dead connections one by one waited out its
``DATABASE_POOL_TIMEOUT`` and failed, though PostgreSQL was back. psycopg's advice is for the
application to call ``pool.check()`` when it notices a disconnection, which tests every idle
connection at once and replaces the dead ones; here the first failed check does that, and the request
gets one of the fresh connections.

``check`` is the callback psycopg_pool keeps as ``_check``; Django passes its own and takes no other
(Django 5.2), hence the wrap, installed once per pool when its first connection is made.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def sweep_dead_connections_at_the_first(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: wrap the pool's connection check, once per pool."""
    pool = getattr(connection, "pool", None)  # Django's psycopg pool; None or absent without one
    check = getattr(pool, "_check", None)
    if check is None or getattr(check, "sweeps_the_pool", False):
        return

    def check_or_sweep(conn) -> None:
        try:
            check(conn)
        except Exception:
            log.warning("a pooled database connection is dead: checking every idle one")
            pool.check()
            raise

    check_or_sweep.sweeps_the_pool = True
    pool._check = check_or_sweep
