"""Django's HTTP handler under daphne, with the whole request in one worker thread.

Every view of this casino is synchronous (the ORM, row locks, durable commits), and so is
WhiteNoise. Django's stock ASGI handler builds its middleware chain in async mode: each
async-capable middleware then runs its ``process_request``/``process_response`` through
``sync_to_async``, and the chain crosses between the event loop and a worker thread about
twenty times per request (and WhiteNoise, sync only, adds two more). Under load those hops
queue behind the websockets on the one event loop: the pit benchmark measured a dealer's tap
costing several times its own work (docs/benchmarks.md).

This handler loads the chain in sync mode, as WSGI would, and runs ``get_response`` in one
thread-sensitive ``sync_to_async`` call: the request's middleware and view run in the request's
own thread (Django gives each request its own ``ThreadSensitiveContext``), and the event loop
is touched once on the way in and once on the way out.

That thread is also reused. Django's handler opens a fresh ``ThreadSensitiveContext`` per
request, for which asgiref starts a new OS thread and stops it afterwards; starting it blocks the
event loop until the new thread runs, which under load meant waiting for the GIL while every
socket of the process waited too (the floor benchmark, docs/benchmarks.md). Here each request
borrows a single-thread executor from the process's idle ones (asgiref's
``ThreadSensitiveContext(executor=...)``), so ``request_started``, the view and
``response.close()`` still run in one thread that serves one request at a time, as under a WSGI
server's thread pool, and the thread is there for the next request.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


class RequestThreads:
    """Single-thread executors kept for the next request: at most ``keep`` idle ones.

    Borrowing never waits: with none idle a new one is made, as Django would, so a burst is
    never queued here; returning one beyond ``keep`` shuts it down.
    """

    def __init__(self, keep: int):
        self.keep = keep
        self._idle: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()  # tests run event loops in several threads

    def borrow(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()  # the most recently used: its thread is warm
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)

    @property
    def idle(self) -> int:
        return len(self._idle)


class SyncRequestASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.threads = RequestThreads(keep=settings.HTTP_THREADS)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.borrow()
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
