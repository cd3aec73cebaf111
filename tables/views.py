from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino import player_links
from casino.access import role_required
from casino.audit import stream_for
from casino.models import PlayerLink
from casino.roles import Role
from tables.access import is_dealer_at, may_view
from tables.models import Box, Pit, Table

SUPERVISORS = (Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


@role_required(Role.DEALER)
def dealer_home(request):
    """The dealer's tablet home: the tables they are on duty at."""
    tables = Table.objects.filter(dealer=request.user).select_related("pit").prefetch_related("boxes")
    return render(request, "tables/dealer_home.html", {"tables": tables})


@role_required(Role.PIT_BOSS)
def pit_home(request):
    """The pit boss's console: the tables of their pit (THB-72)."""
    pits = Pit.objects.filter(pit_boss=request.user).prefetch_related("tables__dealer")
    return render(request, "tables/pit_home.html", {"pits": pits})


@role_required(Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
def floor(request):
    pits = Pit.objects.prefetch_related("tables__dealer").select_related("pit_boss")
    return render(request, "tables/floor.html", {"pits": pits})


@role_required(Role.DEALER, *SUPERVISORS)
@require_POST
def issue_box_link(request, table_id: int, number: int):
    """A new QR link for one box: the dealer of that table or its supervisors only."""
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    if not may_view(request.user, table):
        raise PermissionDenied
    box = get_object_or_404(Box, table=table, number=number)
    link = player_links.issue_player_link(seat=box, by=request.user, stream=stream_for(table))
    return redirect("tables:player_link", link_id=link.pk)


def _link_table(request, link_id) -> tuple[PlayerLink, Table]:
    link = get_object_or_404(PlayerLink, pk=link_id)
    seat = link.seat
    if not isinstance(seat, Box) or not may_view(request.user, seat.table):
        raise PermissionDenied
    return link, seat.table


@role_required(Role.DEALER, *SUPERVISORS)
def player_link(request, link_id):
    link, table = _link_table(request, link_id)
    url = player_links.url_for(link, request)
    context = {"link": link, "table": table, "url": url, "qr": player_links.qr_svg(url)}
    return render(request, "tables/player_link.html", context)


@role_required(Role.DEALER, *SUPERVISORS)
@require_POST
def revoke_link(request, link_id):
    link, table = _link_table(request, link_id)
    player_links.revoke_player_link(link, by=request.user, stream=stream_for(table))
    messages.success(request, _("The link for %(seat)s no longer works.") % {"seat": link.label})
    return redirect("tables:dealer_home" if is_dealer_at(request.user, table) else "home")
