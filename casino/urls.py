from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from casino import deck_views, lockout_views, views
from casino.forms import StaffLoginForm

# A database failure outside a view gets the "database unavailable" page too (casino.unavailable).
handler500 = "casino.unavailable.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=StaffLoginForm),
         name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("staff/lockouts/", lockout_views.lockout_list, name="staff_lockouts"),
    path("staff/lockouts/unlock", lockout_views.unlock_login, name="staff_unlock_login"),
    # issue #39: a stock's decks (a pit's, a tournament's), docs/decks.md
    path("decks/<str:stock>/", deck_views.stock_decks, name="stock_decks"),
    path("decks/<str:stock>/<slug:action>/", deck_views.stock_act, name="stock_deck_act"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("p/", views.player_home, name="player_home"),
    path("p/<str:token>/", views.player_enter, name="player_enter"),
    path("tables/", include("tables.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
]
