from django.shortcuts import render

from casino.access import role_required
from casino.roles import Role
from tournaments.models import Tournament


@role_required(Role.TOURNAMENT_DIRECTOR, Role.ADMINISTRATOR)
def director_home(request):
    tournaments = Tournament.objects.select_related("director").order_by("starts_at")
    return render(request, "tournaments/director_home.html", {"tournaments": tournaments})
