"""ASGI entry point: HTTP through Django, websockets under /ws/.

The websocket stack is wrapped in AllowedHostsOriginValidator: browsers send
cookies to a websocket from any origin, so without it any web page could
open a socket as a logged-in dealer.
"""

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

from casino.asgi_http import get_sync_request_asgi_application  # noqa: E402

# Every view is sync: one thread per request instead of hopping per middleware (casino.asgi_http).
django_asgi_app = get_sync_request_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from casino.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

from django.conf import settings  # noqa: E402

# A daphne process runs each request's view in a worker thread beside an event loop serving hundreds
# of sockets. A thread back from a database round trip waits for the GIL until the thread holding it
# reaches the switch interval (5 ms by default), and a dealer's tap makes a dozen round trips: under
# load the waits, not the work, made most of a tap's time (docs/benchmarks.md).
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL)
