"""Announcing changes to open screens (see docs/realtime.md).

The database is the truth and a push is only a hint (channel layers deliver
at most once and drop silently when a channel is full). So a service calls
``announce_change`` inside its transaction; the message goes out only after
commit and carries a group name, ids and a version number, never state.
Each connection re-renders its own viewer's projection from the database,
which is also what keeps private cards private.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

MESSAGE_TYPE = "state.changed"  # handled by LiveConsumer.state_changed


def group_for(obj) -> str:
    """A channel-layer group named after the object: ``tables.table.3``."""
    return f"{obj._meta.label_lower}.{obj.pk}"


def send_now(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - a lost push is recovered by version checks, never fatal
        log.warning("could not announce %s to %s", message.get("event"), group, exc_info=True)


def announce_change(group: str, *, version: int, event: str = "changed", **ids) -> None:
    """Tell ``group`` that its object changed, once the current transaction commits."""
    message = {"type": MESSAGE_TYPE, "group": group, "version": int(version), "event": event, **ids}
    transaction.on_commit(lambda: send_now(group, message))
