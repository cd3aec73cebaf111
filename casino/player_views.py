"""What a player link shows, per kind of seat.

Each seat model (tables.Box, tournaments.Entry) provides
``player_groups()`` and ``render_player_fragment(link)``; this module only
dispatches, so the casino core does not depend on the games' internals.
"""

from __future__ import annotations

from casino.models import PlayerLink


def _seat(link: PlayerLink):
    seat = link.seat
    if seat is None:
        raise LookupError(f"player link {link.pk} points to a seat that no longer exists")
    return seat


def seat_groups(link: PlayerLink) -> list[str]:
    return list(_seat(link).player_groups())


def render_player_fragment(link: PlayerLink, *, seat=None, version: int | None = None) -> str:
    """The seat's fragment; ``version``: the version a push announced, which the seat may render from
    what its process already holds for that version."""
    return (seat or _seat(link)).render_player_fragment(link, version=version)
