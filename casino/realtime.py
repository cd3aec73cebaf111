"""Announcing changes to open screens (see docs/realtime.md).

The database is the truth and a push is only a hint (channel layers deliver
at most once and drop silently when a channel is full). So a service calls
``announce_change`` inside its transaction; the message goes out only after
commit and carries a group name, ids and a version number, never state.
Each connection re-renders its own viewer's projection from the database,
which is also what keeps private cards private.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.db import transaction

from casino.redis_outage import REDIS

log = logging.getLogger(__name__)

MESSAGE_TYPE = "state.changed"  # handled by LiveConsumer.state_changed
# A tap waits for its announcements (after commit) at most this long: a Redis that hangs instead of
# refusing would otherwise hold it for the channel layer's read timeout (REDIS_READ_TIMEOUT, 30 s).
ANNOUNCE_SECONDS = 2


def send_now(groups: list[str], messages: list[dict]) -> None:
    """Send each message to its group: one trip from this thread to an event loop for all of them.

    With Redis, that loop is the announcer's own (``_ANNOUNCER``), not the process's: the process's loop
    serves every socket of the process, and a tap waiting there for its turn would queue behind every
    socket's work (docs/decisions/2026-11-26-channel-layer-receive-in-one-trip.md). channels-redis keeps
    a connection pool per loop, so both loops send on one layer. The in-memory layer (a laptop, the suite
    without Redis) keeps its queues on the process's loop: it is reached there, as before.
    """
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        try:
            results = await asyncio.wait_for(
                asyncio.gather(
                    *(layer.group_send(group, message) for group, message in zip(groups, messages, strict=True)),
                    return_exceptions=True,
                ),
                ANNOUNCE_SECONDS,
            )
        except TimeoutError as error:  # the screens catch up on their next push or reconnect
            REDIS.failed(f"could not announce to {', '.join(groups)} within {ANNOUNCE_SECONDS} s", error, logger=log)
            return
        for group, message, result in zip(groups, messages, results, strict=True):
            if isinstance(result, Exception):  # a lost push is recovered by version checks, never fatal
                REDIS.failed(f"could not announce {message.get('event')} to {group}", result, logger=log)
            else:
                REDIS.answered()

    if isinstance(layer, RedisChannelLayer):
        _ANNOUNCER.run(send_all)
    else:
        async_to_sync(send_all)()


class Announcer:
    """An event loop in a thread of its own, started at the first announcement, for announcing from sync
    code without waiting for the process's loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                self._loop = asyncio.new_event_loop()
                threading.Thread(target=self._loop.run_forever, name="announcer", daemon=True).start()
            return self._loop

    def run(self, send: Callable[[], Awaitable[None]]) -> None:
        """Run ``send()`` on the announcer's loop and wait for it (``send`` bounds its own time; this is a
        safety net on top). Sync code only, as ``async_to_sync``: waiting here on an event loop would stall it."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("an announcement is sent from sync code, not from an event loop's thread")
        future = asyncio.run_coroutine_threadsafe(send(), self._running_loop())
        try:
            future.result(ANNOUNCE_SECONDS + 1)
        except TimeoutError:
            future.cancel()
            log.warning("the announcer did not finish within %s s", ANNOUNCE_SECONDS + 1)


_ANNOUNCER = Announcer()


def announce_change(*groups: str, version: int, event: str = "changed", **ids) -> None:
    """Tell each of ``groups`` that its object changed, once the current transaction commits.

    Each group gets its own message (``group`` names it: a screen following several groups knows
    which one moved) carrying the same version, event and ids.
    """
    messages = [{"type": MESSAGE_TYPE, "group": group, "version": int(version), "event": event, **ids}
                for group in groups]
    transaction.on_commit(lambda: send_now(list(groups), messages))
