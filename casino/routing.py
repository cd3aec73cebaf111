from django.urls import path

from casino.consumers import PlayerConsumer
from tables.routing import websocket_urlpatterns as tables_sockets
from tournaments.routing import websocket_urlpatterns as tournaments_sockets

websocket_urlpatterns = [
    path("ws/player/", PlayerConsumer.as_asgi()),
    *tables_sockets,
    *tournaments_sockets,
]
