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

# A daphne process runs each request's view in a worker thread beside an event loop serving hundreds
# of sockets. A thread back from a database round trip waits for the GIL until the thread holding it
# reaches the switch interval (5 ms by default), and a dealer's tap makes a dozen round trips: under
# load the waits, not the work, made most of a tap's time (docs/benchmarks.md).
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL)

# A daphne process at a hundred tournament tables holds some 370,000 objects the cyclic garbage collector
# tracks (a thousand sockets with their scopes, the screens' caches, Django itself). Python's full
# collection walks them all while the whole process waits, every socket and request: it came about every
# ten seconds and took 200 to 490 ms, each time a stall of every tap and push in flight there
# (docs/benchmarks.md, seventeenth session). What the process loaded to start (Django, the URLconf and
# every view) lives as long as the process: it is left out of every collection (gc.freeze). A full
# collection then waits for GC_FULL_COLLECTION_EVERY collections of the middle generation instead of
# Python's 10: minutes apart instead of seconds. The price: the garbage only a full collection frees (a
# few thousand objects a second there, in reference cycles) waits that long, some tens of megabytes.
young, middle, _full = gc.get_threshold()
gc.set_threshold(young, middle, settings.GC_FULL_COLLECTION_EVERY)
if settings.GC_FREEZE_AT_START:
    from django.urls import get_resolver  # noqa: E402

    get_resolver().url_patterns  # every view imported now, to be frozen with the rest  # noqa: B018
    gc.collect()
    gc.freeze()
