"""What a player link shows, per kind of seat.

Each seat model (tables.Box, tournaments.Entry) provides
``player_groups()`` and ``render_player_fragment(link)``, and may provide
``player_fragment_from_memory(link, version)`` with ``player_shared_read(version)``
(a push rendered on the event loop after one read per version and process);
this module only dispatches, so the casino core does not depend on the games'
internals.
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


def fragment_from_memory(link: PlayerLink, seat, version: int) -> str | None:
    """The seat's fragment at ``version`` from its process's memory, link checked, or None (the seat
    does not render from memory, or does not hold the version yet). Runs on the event loop."""
    render = getattr(seat, "player_fragment_from_memory", None)
    return render(link, version) if render is not None else None


def shared_read(seat, version: int):
    """``(key, read)`` that fills the memory ``fragment_from_memory`` uses, or None."""
    read = getattr(seat, "player_shared_read", None)
    return read(version) if read is not None else None
