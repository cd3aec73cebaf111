from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from casino import health, player_links
from casino.player_views import render_player_fragment
from casino.roles import Role, primary_role


@never_cache
@require_GET
async def healthz(request):
    """200 when the database and the channel layer both answer within a second, else 503 (load balancers).

    Async: the checks run on the event loop, at once, each with its own time limit (casino.health)."""
    answers = await health.check()
    ok = all(answers.values())
    return JsonResponse({"status": "ok" if ok else "unavailable", **answers}, status=200 if ok else 503)


ROLE_HOMES = {
    Role.DEALER: "tables:dealer_home",
    Role.PIT_BOSS: "tables:pit_home",
    Role.GAMES_DIRECTOR: "tables:floor",
    Role.ADMINISTRATOR: "tables:floor",
    Role.TOURNAMENT_DIRECTOR: "tournaments:director_home",
    Role.TOURNAMENT_FLOOR: "tournaments:director_home",
    Role.CAGE_CASHIER: "tables:cage_home",
    Role.SECURITY_OFFICER: "tables:security_home",
}


@login_required
def home(request):
    """Each role lands on its own screen; staff with no role get a clear page, not a 403."""
    role = primary_role(request.user)
    if role is None:
        return render(request, "casino/no_role.html", status=403)
    return redirect(ROLE_HOMES[role])


@never_cache
def player_enter(request, token: str):
    """Open a player link (from its QR code): remember it in this browser's session."""
    link = player_links.link_from_token(token)
    if link is None:
        return render(
            request,
            "casino/player_link_invalid.html",
            {"message": _("This link is not valid any more. Ask the dealer for a new one.")},
            status=404,
        )
    request.session.cycle_key()
    request.session[player_links.SESSION_KEY] = str(link.pk)
    return redirect("player_home")


@never_cache
def player_home(request):
    link = player_links.current_link(request.session)
    if link is None:
        return render(
            request,
            "casino/player_link_invalid.html",
            {"message": _("Open your seat's link again: scan the QR code at your place.")},
            status=403,
        )
    fragment = render_player_fragment(link)
    if request.htmx:
        return HttpResponse(fragment)
    return render(request, "casino/player.html", {"link": link, "fragment": fragment, "ws_url": "/ws/player/"})
