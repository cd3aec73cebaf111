from django.urls import path

from tournaments.views import console as console_views
from tournaments.views import desk as desk_views
from tournaments.views import display as display_views
from tournaments.views import flights as flights_views
from tournaments.views import pages as pages_views
from tournaments.views import setup as setup_views
from tournaments.views import tablet as tablet_views

app_name = "tournaments"
urlpatterns = [
    path("", console_views.director_home, name="director_home"),
    path("new/", setup_views.new_tournament, name="new"),
    path("<int:tournament_id>/", console_views.console_page, name="console"),
    path("<int:tournament_id>/act/<slug:action>/", console_views.act, name="act"),
    path("<int:tournament_id>/setup/", setup_views.setup, name="setup"),
    path("<int:tournament_id>/setup/template/", setup_views.structure_template, name="structure_template"),
    path("<int:tournament_id>/registration/", desk_views.registration, name="registration"),
    path("<int:tournament_id>/registration/exclusions/", desk_views.import_exclusions, name="import_exclusions"),
    path("<int:tournament_id>/tables/<int:table>/", pages_views.table_page, name="table"),
    path("<int:tournament_id>/entries/<int:entry>/", desk_views.entry_page, name="entry"),
    path("<int:tournament_id>/record/", pages_views.record_page, name="record"),
    path("<int:tournament_id>/hands.jsonl", pages_views.hands_download, name="hands"),
    path("<int:tournament_id>/receipts/<int:entry_id>/link/", desk_views.issue_accreditation_link,
         name="issue_accreditation_link"),
    path("<int:tournament_id>/receipts/<int:entry_id>/<slug:kind>/", desk_views.receipt, name="receipt"),
    path("<int:tournament_id>/classification/", pages_views.classification, name="classification"),
    path("<int:tournament_id>/chip-counts/", pages_views.chip_count_sheet, name="chip_counts"),
    path("<int:tournament_id>/seating/", pages_views.seating, name="seating"),
    # qualifying series (flights), the day's end and its counts, the Final Stage (CC-05..CC-10)
    path("<int:tournament_id>/flights/", flights_views.flights_page, name="flights"),
    path("<int:tournament_id>/counts/<int:seq>/", flights_views.counts_sheet, name="counts_sheet"),
    path("<int:tournament_id>/counts/<int:seq>.csv", flights_views.counts_export, name="counts_export"),
    # the dealers' tablets at the tournament's tables (issue #15)
    path("<int:tournament_id>/tables/<int:table>/deal/", tablet_views.tablet_page, name="tablet"),
    path("<int:tournament_id>/tables/<int:table>/deal/<slug:action>/", tablet_views.tablet_act, name="tablet_act"),
    # the room's clock display
    path("<int:tournament_id>/clock/", display_views.clock_display, name="clock_display"),
    path("<int:tournament_id>/seating/room/", display_views.seating_display, name="seating_display"),
]
