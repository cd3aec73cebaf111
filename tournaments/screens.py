"""What a tournament entry's player sees on their phone (registered in tournaments.apps)."""

from __future__ import annotations

from django.template.loader import render_to_string

from tournaments.models import Tournament


def player_groups(entry) -> list[str]:
    return [entry.tournament.group_name]


def player_fragment(entry, link, *, version: int | None = None) -> str:
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    return render_to_string("tournaments/player_fragment.html", {"entry": entry, "tournament": tournament})
