from django.urls import path

from tables import bank_views, views

app_name = "tables"
urlpatterns = [
    path("", views.dealer_home, name="dealer_home"),
    path("<int:table_id>/", views.dealer_table, name="dealer_table"),
    path("<int:table_id>/act/<slug:action>/", views.dealer_act, name="dealer_act"),
    path("<int:table_id>/pit/<slug:action>/", views.pit_act, name="pit_act"),
    path("<int:table_id>/hands/", views.hand_recall, name="hand_recall"),
    path("hands/<int:hand_id>/reconstruct", views.hand_reconstruction, name="hand_reconstruction"),
    path("<int:table_id>/sessions/<int:session_id>/hands.jsonl", views.session_download, name="session_download"),
    path("hands/<int:hand_id>.jsonl", views.hand_download, name="hand_download"),
    path("pit/", views.pit_home, name="pit_home"),
    path("pit/<int:pit_id>/", views.pit_console, name="pit_console"),
    path("pit/<int:pit_id>/rotation/", views.pit_rotation, name="pit_rotation"),
    path("floor/", views.floor, name="floor"),
    path("<int:table_id>/boxes/<int:number>/link", views.issue_box_link, name="issue_box_link"),
    path("links/<uuid:link_id>/", views.player_link, name="player_link"),
    path("links/<uuid:link_id>/revoke", views.revoke_link, name="revoke_link"),
    # the table's bank (issue #39, docs/bank.md)
    path("<int:table_id>/bank/", bank_views.table_bank, name="table_bank"),
    path("<int:table_id>/bank/<slug:action>/", bank_views.table_bank_act, name="table_bank_act"),
    path("slips/<int:slip_id>/", bank_views.slip_view, name="slip"),
    path("slips/<int:slip_id>/sign", bank_views.slip_sign, name="slip_sign"),
    path("slips/<int:slip_id>/void", bank_views.slip_void, name="slip_void"),
    path("cage/", bank_views.cage_home, name="cage_home"),
    path("security/", bank_views.security_home, name="security_home"),
    path("shift/", bank_views.shift_report, name="shift_report"),
]
