import logging

from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from casino.consumers import PlayerConsumer
from casino.deck_consumers import StockDecksConsumer
from tables.routing import websocket_urlpatterns as tables_sockets
from tournaments.routing import websocket_urlpatterns as tournaments_sockets

log = logging.getLogger(__name__)


class UnknownAddressDenier(WebsocketDenier):
    """Any other address: the handshake is rejected (a browser sees a refused socket) with one log line.

    Without it channels' router raised "No route found", which daphne answered with a 500 and a
    traceback per attempt: a scanner could fill the logs (issue #12, item 7)."""

    async def connect(self):
        log.warning("Websocket refused: no such address %r", self.scope.get("path", "")[:200])
        await super().connect()


websocket_urlpatterns = [
    path("ws/player/", PlayerConsumer.as_asgi()),
    path("ws/decks/<str:stock>/", StockDecksConsumer.as_asgi()),  # issue #39: a stock's decks page
    *tables_sockets,
    *tournaments_sockets,
    # Last: whatever the routes above did not match.
    re_path(r"", UnknownAddressDenier.as_asgi()),
]
