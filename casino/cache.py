"""Django's Redis cache with one connection pool per process.

Django keeps a cache backend object per request context (``caches`` is an asgiref ``Local``), and
its ``RedisCache`` keeps its client, with the client's connection pools, on that object. Under ASGI
every request, and every worker-thread call of a websocket, starts from the event loop's context, so
each one built a new backend, a new pool and a new TCP connection to Redis, so a cache read cost more
than the database read it was meant to save. Here every backend object with the same servers and
options uses one client, so one pool per process; redis-py's pools are thread-safe. Django's client
also builds a ``redis.Redis`` object for every call: here one per pool is kept, as thread-safe as the
pool (docs/decisions/2026-11-23-one-redis-client-per-process.md).

The process also counts the connections it opens to Redis (``connections_made``): a new one after a
pooled one has been in use means Redis restarted or failed, and may hold copies of sessions logged out
meanwhile (casino.sessions).
"""

from __future__ import annotations

import itertools
import re
import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple, RedisCacheClient] = {}
_clients_lock = threading.Lock()

_connection_numbers = itertools.count(1)  # next() is atomic under the GIL
_latest_connection = 0


def _connected(connection) -> None:
    """redis-py's hook after each new connection (``redis_connect_func``), in place of its handshake."""
    global _latest_connection
    connection.on_connect()
    _latest_connection = next(_connection_numbers)


def connections_made() -> int:
    """How many connections this process has opened to Redis so far (through the cache)."""
    return _latest_connection


class ProcessRedisCacheClient(RedisCacheClient):
    """Django's client, keeping one ``redis.Redis`` per connection pool instead of one per call."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._redis_of_pool: dict[int, object] = {}  # id of a pool (kept in self._pools for good) -> its client

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._redis_of_pool.get(id(pool))
        if client is None:  # two threads may both make one: either will do
            client = self._redis_of_pool.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class ProcessRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is shared by the whole process."""

    def validate_key(self, key) -> None:
        # Django's check loops over every character of every key for memcached's sake; this cache is only
        # ever Redis, which takes any key (docs/decisions/2026-11-23-small-per-tap-savings.md).
        return None

    def clear(self) -> bool:
        """Empty this cache. Without a ``KEY_PREFIX`` (settings.CACHES) the Redis database is the casino's
        alone and Django's FLUSHDB does it; with one, the database is shared (several casinos, or the test
        suite's parallel workers, each with its prefix) and only the keys under this prefix are deleted: a
        FLUSHDB would also take the others' sessions, snapshots and channel-layer messages."""
        if not self.key_prefix:
            return super().clear()
        client = self._cache.get_client(None, write=True)
        pattern = re.sub(r"([\\*?\[\]])", r"\\\1", self.key_prefix) + ":*"
        batch = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) == 1000:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
        return True

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = ProcessRedisCacheClient(self._servers, **self._options,
                                                                  redis_connect_func=_connected)
        return client
