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

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

MESSAGE_TYPE = "state.changed"  # handled by LiveConsumer.state_changed
# A tap waits for its announcements (after commit) at most this long: a Redis that hangs instead of
# refusing would otherwise hold it for the channel layer's read timeout (REDIS_READ_TIMEOUT, 30 s).
ANNOUNCE_SECONDS = 2


def send_now(groups: list[str], messages: list[dict]) -> None:
    """Send each message to its group: one trip from this thread to the event loop for all of them."""
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
        except TimeoutError:  # the screens catch up on their next push or reconnect
            log.warning("could not announce to %s within %s s", ", ".join(groups), ANNOUNCE_SECONDS)
            return
        for group, message, result in zip(groups, messages, results, strict=True):
            if isinstance(result, Exception):  # a lost push is recovered by version checks, never fatal
                log.warning("could not announce %s to %s", message.get("event"), group, exc_info=result)

    async_to_sync(send_all)()


def announce_change(*groups: str, version: int, event: str = "changed", **ids) -> None:
    """Tell each of ``groups`` that its object changed, once the current transaction commits.

    Each group gets its own message (``group`` names it: a screen following several groups knows
    which one moved) carrying the same version, event and ids.
    """
    messages = [{"type": MESSAGE_TYPE, "group": group, "version": int(version), "event": event, **ids}
                for group in groups]
    transaction.on_commit(lambda: send_now(list(groups), messages))
