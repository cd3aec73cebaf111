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
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncRequestASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_sync_request_asgi_application() -> SyncRequestASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the handler above."""
    import django

    django.setup(set_prefix=False)
    return SyncRequestASGIHandler()
