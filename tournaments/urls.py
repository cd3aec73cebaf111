from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.director_home, name="director_home"),
]
