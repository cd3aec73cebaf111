"""The channel layer on Redis (casino.channel_layer) and the announcer's own loop (casino.realtime)."""

import asyncio
import threading
import uuid

import pytest
from django.conf import settings

from casino import realtime
from casino.channel_layer import CasinoChannelLayer

pytestmark = pytest.mark.redis


@pytest.fixture
async def layer():
    layer = CasinoChannelLayer(hosts=[settings.REDIS_URL], prefix=f"test-layer-{uuid.uuid4().hex[:8]}")
    yield layer
    await layer.flush()
    await layer.close_pools()


async def _sockets(layer, count):
    return [await layer.new_channel() for _ in range(count)]


async def test_the_messages_waiting_for_the_process_reach_their_sockets_in_one_trip(layer):
    first, second, third = await _sockets(layer, 3)
    for n, channel in enumerate((first, second, third), start=1):
        await layer.group_add(f"table.{n}", channel)
        await layer.group_send(f"table.{n}", {"type": "state.changed", "version": n})

    assert (await layer.receive(first))["version"] == 1
    # the other two came with the first, into their sockets' buffers: no trip to Redis left for them
    assert layer.receive_buffer[second].qsize() == 1 and layer.receive_buffer[third].qsize() == 1
    assert (await layer.receive(third))["version"] == 3
    assert (await layer.receive(second))["version"] == 2


async def test_one_message_to_a_group_reaches_every_socket_of_the_process_in_it(layer):
    tablet, phone = await _sockets(layer, 2)
    for channel in (tablet, phone):
        await layer.group_add("table.7", channel)
    await layer.group_send("table.7", {"type": "state.changed", "version": 12})

    assert await layer.receive(phone) == {"type": "state.changed", "version": 12}
    assert await layer.receive(tablet) == {"type": "state.changed", "version": 12}


async def test_messages_to_one_socket_arrive_in_the_order_they_were_sent(layer):
    (phone,) = await _sockets(layer, 1)
    for version in range(1, 6):
        await layer.send(phone, {"type": "state.changed", "version": version})

    assert [(await layer.receive(phone))["version"] for _ in range(5)] == [1, 2, 3, 4, 5]


async def test_what_it_took_leaves_the_backup_once_received(layer):
    phone, tablet = await _sockets(layer, 2)
    await layer.send(phone, {"type": "state.changed", "version": 1})
    await layer.send(tablet, {"type": "state.changed", "version": 1})
    await layer.receive(phone)
    await layer.wait_received()  # the cleaner ran

    key = layer.prefix + layer.non_local_name(phone)
    assert await layer.connection(0).zcard(layer._backup_channel_name(key)) == 0
    assert layer.receive_buffer[tablet].qsize() == 1


async def test_a_message_an_interrupted_receive_left_in_the_backup_is_received(layer):
    (phone,) = await _sockets(layer, 1)
    key = layer.prefix + layer.non_local_name(phone)
    left = layer.serialize({"type": "state.changed", "version": 4, "__asgi_channel__": [phone]})
    await layer.connection(0).zadd(layer._backup_channel_name(key), {left: 1.0})

    assert await layer.receive(phone) == {"type": "state.changed", "version": 4}


async def test_a_receive_waits_for_a_message_when_none_waits(layer):
    (phone,) = await _sockets(layer, 1)
    receiving = asyncio.ensure_future(layer.receive(phone))
    await asyncio.sleep(0.2)
    assert not receiving.done()

    await layer.send(phone, {"type": "state.changed", "version": 9})
    assert (await asyncio.wait_for(receiving, 5))["version"] == 9


@pytest.mark.django_db
def test_an_announcement_is_sent_from_the_announcers_own_loop_not_the_processs(monkeypatch):
    """The process's loop serves every socket: a tap does not wait for its turn there to announce."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    sent_from = []
    group_send = layer.group_send

    async def recorded(group, message):
        sent_from.append(threading.current_thread().name)
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recorded)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("tables.table.78", channel)

    realtime.send_now(["tables.table.78"], [{"type": "state.changed", "version": 3}])

    assert sent_from == ["announcer"]
    assert async_to_sync(layer.receive)(channel) == {"type": "state.changed", "version": 3}


async def test_an_announcement_is_refused_on_an_event_loops_thread_rather_than_stall_it():
    with pytest.raises(RuntimeError, match="sync code"):
        realtime.Announcer().run(lambda: asyncio.sleep(0))


async def test_a_burst_of_sockets_joining_and_leaving_at_once_waits_for_a_connection_instead_of_failing(layer):
    """A thousand phones reconnect at once after a blip (or leave as a process stops): each join and leave is
    a call to Redis at the same moment. redis-py 8's pool refuses a call beyond its 100th connection ("Too
    many connections": the socket's consumer dies, docs/decisions/2026-11-26-redis-pool-waits.md); the
    layer's pool makes the call wait for one instead, and opens no more than its own bound."""
    channels = [f"{layer.prefix}.phone!{n}" for n in range(400)]
    await asyncio.gather(*(layer.group_add("table.3", channel) for channel in channels))
    connection = layer.connection(0)
    assert await connection.zcard(layer._group_key("table.3")) == 400
    await asyncio.gather(*(layer.group_discard("table.3", channel) for channel in channels))
    assert await connection.zcard(layer._group_key("table.3")) == 0
    pool = connection.connection_pool
    assert len(pool._available_connections) + len(pool._in_use_connections) <= pool.max_connections
