from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("", views.dealer_home, name="dealer_home"),
    path("pit/", views.pit_home, name="pit_home"),
    path("floor/", views.floor, name="floor"),
    path("<int:table_id>/boxes/<int:number>/link", views.issue_box_link, name="issue_box_link"),
    path("links/<uuid:link_id>/", views.player_link, name="player_link"),
    path("links/<uuid:link_id>/revoke", views.revoke_link, name="revoke_link"),
]
