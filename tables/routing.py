from django.urls import path

from tables.consumers import (
    CageConsumer,
    PitConsumer,
    SecurityConsumer,
    ShiftReportConsumer,
    SlipConsumer,
    TableBankConsumer,
    TableDealerConsumer,
)

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/dealer/", TableDealerConsumer.as_asgi()),
    path("ws/tables/pit/<int:pit_id>/", PitConsumer.as_asgi()),
    # the table's bank (issue #39, docs/bank.md)
    path("ws/tables/<int:table_id>/bank/", TableBankConsumer.as_asgi()),
    path("ws/tables/cage/", CageConsumer.as_asgi()),
    path("ws/tables/security/", SecurityConsumer.as_asgi()),
    path("ws/tables/slips/<int:slip_id>/", SlipConsumer.as_asgi()),
    path("ws/tables/shift/", ShiftReportConsumer.as_asgi()),
]
