"""A small bounded, thread-safe, least-recently-used cache for one process.

The live screens keep what a table version shows (replayed hand states, snapshots,
rendered parts of a phone's screen) so that the many sockets that re-render after
one push share one piece of work. Each cache is keyed by what its value depends
on, never by a guess, so an entry is either right or absent; bounding it keeps a
long-running process from growing without end.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

V = TypeVar("V")

_ALL: list[BoundedCache] = []


class BoundedCache(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, V] = OrderedDict()
        self.lock = threading.Lock()
        self.making: dict[Hashable, threading.Lock] = {}
        _ALL.append(self)

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: V) -> V:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value

    def pop(self, key: Hashable) -> V | None:
        with self.lock:
            return self.items.pop(key, None)

    def get_or_make(self, key: Hashable, make: Callable[[], V], *, alone: bool = False) -> V:
        """The value for ``key``, made by ``make()`` if absent. ``alone``: threads that miss the same
        key at once wait for the first one's value instead of each making it (a push reaches every
        phone of a table at the same moment, and only one of them should read the database)."""
        found = self.get(key)
        if found is not None:
            return found
        if not alone:
            return self.put(key, make())
        with self.lock:
            gate = self.making.setdefault(key, threading.Lock())
        try:
            with gate:
                found = self.get(key)
                return found if found is not None else self.put(key, make())
        finally:
            with self.lock:
                self.making.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def __len__(self) -> int:
        return len(self.items)


def clear_all() -> None:
    """Empty every cache of this process (tests that flush the database between them)."""
    for cache in _ALL:
        cache.clear()


@contextmanager
def another_process() -> Iterator[None]:
    """Inside, every cache of this process starts empty; on leaving, what they held before is back and
    what was kept inside is forgotten. A test's stand-in for the casino's other daphne process: what a
    write made there is in PostgreSQL (and in Redis, if shared), never in this process's memory."""
    held = []
    for cache in _ALL:
        with cache.lock:
            held.append((cache, cache.items))
            cache.items = OrderedDict()
    try:
        yield
    finally:
        for cache, items in held:
            with cache.lock:
                cache.items = items


# The coroutines under way per event loop and key (``single_flight``).
_flights: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, asyncio.Future]] = (
    weakref.WeakKeyDictionary()
)


async def single_flight(key: Hashable, make: Callable[[], Awaitable[V]]) -> V:
    """``await make()``, once for all the coroutines of this event loop that ask for ``key`` while it
    runs: the others await the same result (or exception) instead of starting their own.

    A push reaches every phone of a table in a process at once; the first one's read (in a worker
    thread) serves them all, and the rest never leave the event loop. One caller cancelled (its
    socket closed) does not cancel the others' read.
    """
    loop = asyncio.get_running_loop()
    flights = _flights.setdefault(loop, {})
    flight = flights.get(key)
    if flight is None:
        flight = asyncio.ensure_future(make())
        flights[key] = flight

        def landed(done: asyncio.Future) -> None:
            flights.pop(key, None)
            if not done.cancelled():
                done.exception()  # retrieved: if every caller has gone, asyncio need not warn

        flight.add_done_callback(landed)
    return await asyncio.shield(flight)
