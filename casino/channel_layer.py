"""The channel layer: channels-redis's, receiving what waits for this process in one round trip.

Every socket of a daphne process receives through one Redis key of the process (channels-redis keeps a
group message once per process, with the list of its sockets that should hear it). Upstream pops that
key one message at a time, and each message costs four round trips in a row on the process's event loop
(put back what an interrupted receive left, BZPOPMIN, copy to the backup set, then clean the backup:
the next receive waits for the clean). Under load each round trip waits its turn on a busy loop and for
the interpreter lock, and messages pile up in Redis under load
(docs/decisions/2026-11-26-channel-layer-receive-in-one-trip.md).

Here one Lua script does what upstream does per message for everything waiting (up to ``batch``): it puts
back what an interrupted receive left, pops the messages and copies them to the backup set, atomically;
the messages go to their sockets' buffers at once, and one cleaner removes them from the backup. When
nothing waits, the receive blocks in BZPOPMIN as upstream's does (as many trips as upstream's when the
process is idle). Delivery is what upstream gives (at most once, in order of arrival, a message kept in
the backup until its receive has it); only the number of trips changed.

It leans on channels-redis 4's receive internals (``receive_single``'s contract, the backup set, the
clean locks), so the version is pinned in pyproject.toml; ``tests/casino/test_channel_layer.py`` checks
them against the installed version.
"""

from __future__ import annotations

import asyncio

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

# KEYS[1]: the process's channel key, KEYS[2]: its backup set, ARGV[1]: how many to take at most.
_TAKE_WAITING = """
local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', KEYS[2])
local taken = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #taken, 2 do
    redis.call('ZADD', KEYS[2], taken[i + 1], taken[i])
end
return taken
"""


class CasinoChannelLayer(RedisChannelLayer):
    #: At most this many waiting messages taken in one trip (each goes to its sockets' buffers at once).
    batch = 100
    #: A process's connections to Redis for the layer at most (redis-py's own bound), and how long a call
    #: waits for one of them to be free before it fails.
    max_connections = 100
    connection_wait_seconds = 10

    def create_pool(self, index):
        """A pool whose calls beyond its bound wait for a free connection. Upstream's (redis-py 8's
        ``ConnectionPool``) refuses the 101st call at once with "Too many connections", and the socket's
        consumer dies: a thousand phones reconnecting after a blip, or leaving as a process stops, join
        or leave their groups in the same moment (docs/decisions/2026-11-26-redis-pool-waits.md). Sentinel
        hosts keep upstream's pool."""
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        address = host.pop("address")
        return BlockingConnectionPool.from_url(address, max_connections=self.max_connections,
                                               timeout=self.connection_wait_seconds, **host)

    async def receive_single(self, channel):
        """As upstream's (``(channel or channels, message)``), for the process's own channel key: the
        last of the messages waiting, those before it put in their sockets' buffers. Called by
        ``receive`` under its receive lock, so one call at a time per process."""
        if not channel.endswith("!"):
            return await super().receive_single(channel)  # a general channel: not the sockets' path
        channel_key = self.prefix + channel
        backup = self._backup_channel_name(channel_key)
        connection = self.connection(self.consistent_hash(channel))
        # As upstream: no receive of this key until the backup of the last one is cleaned.
        await self.receive_clean_locks.acquire(channel_key)
        try:
            members = await self._take(connection, channel_key, backup)
        except BaseException:
            self.receive_clean_locks.release(channel_key)
            raise
        cleaner = asyncio.ensure_future(connection.zpopmin(backup, len(members)))
        self.receive_cleaners.append(cleaner)

        def cleaned(task) -> None:
            self.receive_cleaners.remove(task)
            self.receive_clean_locks.release(channel_key)

        cleaner.add_done_callback(cleaned)
        *earlier, last = (self._addressed(channel, member) for member in members)
        # ``receive`` puts the one returned into its sockets' buffers: the last, so that a socket hears its
        # messages in the order they came
        for to, message in earlier:
            for name in to if isinstance(to, list) else [to]:
                self.receive_buffer[name].put_nowait(message)
        return last

    async def _take(self, connection, channel_key: str, backup: str) -> list[bytes]:
        """What waits, in one trip; when nothing does, the first message to come, as upstream blocks for it
        (``BZPOPMIN``, then kept in the backup): no more trips than upstream when the process is idle."""
        while True:
            taken = await connection.eval(_TAKE_WAITING, 2, channel_key, backup, self.batch)
            if taken:
                return taken[0::2]
            came = await connection.bzpopmin(channel_key, timeout=self.brpop_timeout)
            if came is not None:
                _key, member, score = came
                await connection.zadd(backup, {member: float(score)})
                return [member]

    def _addressed(self, channel: str, member: bytes) -> tuple[str | list[str], dict]:
        message = self.deserialize(member)
        return message.pop("__asgi_channel__", channel), message
