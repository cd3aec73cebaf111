"""Django's Redis cache with one connection pool per process.

Django keeps a cache backend object per request context (``caches`` is an asgiref ``Local``), and
its ``RedisCache`` keeps its client, with the client's connection pools, on that object. Under ASGI
every request, and every worker-thread call of a websocket, starts from the event loop's context, so
each one built a new backend, a new pool and a new TCP connection to Redis: a read cost more than the
database read it was meant to save (measured by bench/bench_pit_load.py, docs/benchmarks.md). Here
every backend object with the same servers and options uses one client, so one pool per process;
redis-py's pools are thread-safe.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple, RedisCacheClient] = {}
_clients_lock = threading.Lock()


class ProcessRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is shared by the whole process."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
