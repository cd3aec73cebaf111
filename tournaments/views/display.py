"""The tournament's display pages: the room's clock display (issue #14, CC-04).

The clock display is a public room screen: no login. A TV in the room is a browser anyone near it can
reach; logging it in as staff would leave a staff session on a public keyboard, and a per-screen link
would only guard what the room already sees. So it shows exactly what is announced aloud in the room
(level, blinds, time, counts, the prize pool and ladder, the director's announcements) and nothing
about a person: no name, no entry number, no seat (the phones and the staff screens have those).
A player's phone is the core's player link page (``/p/<token>/``), rendered by tournaments.rendering.phone.

The seating display (issue #36) is the other room screen: the seating board a room puts up after a draw, a
redraw or a table broken, every player still in by name with their table and seat, as the floor reads it out
and the players crowd round to read it. It is public too, like the paper seating list pinned up in a room: it
shows names, tables and seats and nothing else (no ID, no chips, no result).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering import clock as clock_screen


@require_GET
def clock_display(request, tournament_id: int):
    """Public: the room's clock display of one tournament (its socket: ClockDisplayConsumer)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fragment = clock_screen.clock_display_fragment(event_reads.board_at(tournament))
    return render(request, "tournaments/clock_display.html", {"tournament": tournament, "fragment": fragment})


@require_GET
def seating_display(request, tournament_id: int):
    """Public: the room's seating screen of one tournament (its socket: SeatingDisplayConsumer)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fragment = clock_screen.seating_display_fragment(event_reads.board_at(tournament))
    return render(request, "tournaments/seating_display.html", {"tournament": tournament, "fragment": fragment})
