from django.urls import path

from tournaments.consumers import (
    ClockDisplayConsumer,
    DealerTabletConsumer,
    FlightsConsumer,
    SeatingDisplayConsumer,
    TournamentConsoleConsumer,
)

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/console/", TournamentConsoleConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/flights/", FlightsConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/clock/", ClockDisplayConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/seating/", SeatingDisplayConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/tables/<int:table>/deal/", DealerTabletConsumer.as_asgi()),
]
