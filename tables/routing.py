from django.urls import path

from tables.consumers import PitConsumer, TableDealerConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/dealer/", TableDealerConsumer.as_asgi()),
    path("ws/tables/pit/<int:pit_id>/", PitConsumer.as_asgi()),
]
