from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from casino.player_views import SeatScreen, register_seat
        from tournaments import screens
        from tournaments.models import Entry

        # A player's phone shows their entry (tournaments.screens).
        register_seat(Entry, SeatScreen(groups=screens.player_groups, render=screens.player_fragment))
