from django.urls import path

from tournaments.consumers import ClockDisplayConsumer, TournamentConsoleConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/console/", TournamentConsoleConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/clock/", ClockDisplayConsumer.as_asgi()),
]
