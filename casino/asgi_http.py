"""Django's HTTP handler under daphne, with the whole request in one worker thread.

Every view of this casino is synchronous (the ORM, row locks, durable commits), and so is
WhiteNoise. Django's stock ASGI handler builds its middleware chain in async mode: each
async-capable middleware then runs its ``process_request``/``process_response`` through
``sync_to_async``, and the chain crosses between the event loop and a worker thread about
twenty times per request (and WhiteNoise, sync only, adds two more). Under load those hops
queue behind the websockets on the one event loop, and a dealer's tap waited several times its own
work for them.

This handler loads the chain in sync mode, as WSGI would, and runs ``get_response`` in one
thread-sensitive ``sync_to_async`` call: the request's middleware and view run in the request's
own thread (Django gives each request its own ``ThreadSensitiveContext``), and the event loop
is touched once on the way in and once on the way out.

That thread is also reused, and their number is bounded. Django's handler opens a fresh
``ThreadSensitiveContext`` per request, for which asgiref starts a new OS thread and stops it
afterwards; starting it blocks the event loop until the new thread runs, which under load meant
waiting for the GIL while every socket of the process waited too. And with a thread per request, a
burst (a shift's dealers logging in at once, each hashing a password while holding a pooled database
connection) ran more requests than the pool has connections, and the last ones failed after the pool's
timeout (docs/decisions/2026-11-23-request-threads-reused.md). Here each request borrows
one of at most ``HTTP_THREADS`` single-thread executors (asgiref's
``ThreadSensitiveContext(executor=...)``); a request beyond them waits its turn on the event loop.
``request_started``, the view and ``response.close()`` still run in one thread that serves one
request at a time, as under a WSGI server's thread pool.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


class RequestThreads:
    """At most ``size`` single-thread executors lent at once per event loop, kept for the next request."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError("HTTP_THREADS must be at least 1")
        self.size = size
        self._idle: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()  # tests run event loops in several threads
        self._gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        with self._lock:
            gate = self._gates.get(loop)
            if gate is None:
                gate = self._gates[loop] = asyncio.Semaphore(self.size)
        return gate

    async def borrow(self) -> ThreadPoolExecutor:
        await self._gate().acquire()
        with self._lock:
            if self._idle:
                return self._idle.pop()  # the most recently used: its thread is warm
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            keep = len(self._idle) < self.size  # several loops (tests) never pile up threads
            if keep:
                self._idle.append(executor)
        if not keep:
            executor.shutdown(wait=False)
        self._gate().release()

    @property
    def idle(self) -> int:
        return len(self._idle)


class SyncRequestASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.threads = RequestThreads(settings.HTTP_THREADS)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = await self.threads.borrow()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give_back(executor)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_sync_request_asgi_application() -> SyncRequestASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the handler above."""
    import django

    django.setup(set_prefix=False)
    return SyncRequestASGIHandler()
