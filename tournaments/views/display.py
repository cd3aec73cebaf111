"""
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET
from tournaments import screens
from tournaments.models import Tournament


@require_GET
def clock_display(request, tournament_id: int):
    """Public: the room's clock display of one tournament (its socket: ClockDisplayConsumer)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fragment = screens.clock_display_fragment(screens.board_at(tournament))
    return render(request, "tournaments/clock_display.html", {"tournament": tournament, "fragment": fragment})
