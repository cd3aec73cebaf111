"""Whether PostgreSQL and Redis answer, for ``/healthz`` (load balancers), within a second.

Both checks run on the daphne process's event loop, at once, each cut off after ``CHECK_SECONDS``:

- Redis: a PING on each channel-layer host, through the layer's own connection pool for this event
  loop (the pool the sockets use), never through ``receive``. The old check sent itself a message on a
  process-local channel and waited for it: channels-redis lets one ``receive`` at a time per process
  pop Redis (its receive lock), and the holder, a connected websocket, pops only its own list
  (``specific.<process>!``) until a message comes, so the check's message (``healthz.<process>!``)
  waited in Redis past its timeout on every process with a socket open (issue #12).
- PostgreSQL: a connection of its own, opened and closed (psycopg's async connect), not one from the
  request pool: a pool busy with a burst of taps is not an outage, and a check must not wait for it.

A check that fails or takes longer says False and logs why; the answer is never an error page.
"""

from __future__ import annotations

import asyncio
import logging

import psycopg
from channels.layers import get_channel_layer
from django.db import connections

log = logging.getLogger(__name__)

# A load balancer's probe gets its answer within a second, whatever is down (a healthy PING or
# PostgreSQL login takes milliseconds; the rest of the second is for a busy event loop).
CHECK_SECONDS = 0.5


async def _within_limit(name: str, check) -> bool:
    try:
        return await asyncio.wait_for(check(), CHECK_SECONDS)
    except Exception:  # noqa: BLE001 - health is the answer, not an error page
        log.warning("healthz: %s did not answer within %s s", name, CHECK_SECONDS, exc_info=True)
        return False


async def _database_answers() -> bool:
    database = connections["default"]
    # Django's own connection settings, less its sync cursor and adapters (this is an async connection).
    params = {k: v for k, v in database.get_connection_params().items() if k not in ("cursor_factory", "context")}
    async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
        cursor = await conn.execute("SELECT 1")
        return (await cursor.fetchone())[0] == 1


async def _channel_layer_answers() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    if not hasattr(layer, "connection"):  # the in-memory layer lives in this process
        return True
    replies = await asyncio.gather(*(layer.connection(index).ping() for index in range(layer.ring_size)))
    return all(replies)


async def check() -> dict[str, bool]:
    """``{"database": ..., "channel_layer": ...}``, each True when it answered in time."""
    database, channel_layer = await asyncio.gather(
        _within_limit("the database", _database_answers),
        _within_limit("the channel layer", _channel_layer_answers),
    )
    return {"database": database, "channel_layer": channel_layer}
