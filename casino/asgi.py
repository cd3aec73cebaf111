"""ASGI entry point: HTTP through Django, websockets under /ws/.

The websocket stack is wrapped in SameOriginValidator (casino.origin): browsers
send cookies to a websocket from any origin, so without it any web page (one
on another port of the same host included) could open a socket as a
logged-in dealer.
"""

import gc
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

from casino.asgi_http import get_sync_request_asgi_application  # noqa: E402

# Every view is sync: one thread per request instead of hopping per middleware (casino.asgi_http).
django_asgi_app = get_sync_request_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from casino.origin import SameOriginValidator  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

from django.conf import settings  # noqa: E402

# A thread back from a database round trip waits for the GIL until its holder reaches the switch interval
# (5 ms by default), and a tap makes a dozen round trips (docs/decisions/2026-11-22-gil-switch-interval.md).
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL)

# A full collection walks every object the process tracks (its sockets, the screens' caches, Django) while
# every socket and request waits: what the process loaded to start is left out of them (gc.freeze), and they
# come after GC_FULL_COLLECTION_EVERY middle-generation collections instead of Python's 10, at the price of
# some cyclic garbage kept longer (docs/decisions/2026-11-26-gc-freeze.md).
young, middle, _full = gc.get_threshold()
gc.set_threshold(young, middle, settings.GC_FULL_COLLECTION_EVERY)
if settings.GC_FREEZE_AT_START:
    from django.urls import get_resolver  # noqa: E402

    get_resolver().url_patterns  # every view imported now, to be frozen with the rest  # noqa: B018
    gc.collect()
    gc.freeze()
