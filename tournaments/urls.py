from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.director_home, name="director_home"),
    path("new/", views.new_tournament, name="new"),
    path("<int:tournament_id>/", views.console_page, name="console"),
    path("<int:tournament_id>/act/<slug:action>/", views.act, name="act"),
    path("<int:tournament_id>/setup/", views.setup, name="setup"),
    path("<int:tournament_id>/setup/template/", views.structure_template, name="structure_template"),
    path("<int:tournament_id>/registration/", views.registration, name="registration"),
    path("<int:tournament_id>/registration/exclusions/", views.import_exclusions, name="import_exclusions"),
    path("<int:tournament_id>/tables/<int:table>/", views.table_page, name="table"),
    path("<int:tournament_id>/entries/<int:entry>/", views.entry_page, name="entry"),
    path("<int:tournament_id>/record/", views.record_page, name="record"),
    path("<int:tournament_id>/hands.jsonl", views.hands_download, name="hands"),
    path("<int:tournament_id>/receipts/<int:entry_id>/link/", views.issue_accreditation_link,
         name="issue_accreditation_link"),
    path("<int:tournament_id>/receipts/<int:entry_id>/<slug:kind>/", views.receipt, name="receipt"),
    path("<int:tournament_id>/classification/", views.classification, name="classification"),
    path("<int:tournament_id>/chip-counts/", views.chip_count_sheet, name="chip_counts"),
    path("<int:tournament_id>/seating/", views.seating, name="seating"),
]

# the dealers' tablets at the tournament's tables (issue #15)
from tournaments import tablet  # noqa: E402

urlpatterns += [
    path("<int:tournament_id>/tables/<int:table>/deal/", tablet.tablet_page, name="tablet"),
    path("<int:tournament_id>/tables/<int:table>/deal/<slug:action>/", tablet.tablet_act, name="tablet_act"),
]

# displays (t-displays)
from tournaments import display_views  # noqa: E402

urlpatterns += [
    path("<int:tournament_id>/clock/", display_views.clock_display, name="clock_display"),
    path("<int:tournament_id>/seating/room/", display_views.seating_display, name="seating_display"),
]
