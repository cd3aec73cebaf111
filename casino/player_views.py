"""What a player link shows, per kind of seat: a registry the games fill in.

Each game registers, in its ``AppConfig.ready``, how one kind of seat (a table's seating, a tournament
entry) shows on its player's phone (``register_seat``): the groups whose announcements re-render it and
how to render it, and optionally how to render a push on the event loop from what the process already
holds for a version, after one shared read per version and process. This module only dispatches: the
core never imports a game, and a game's model never imports its screens.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from casino.models import PlayerLink


@dataclass(frozen=True)
class SeatScreen:
    """How one kind of seat shows on its player's phone.

    ``groups(seat)``: the channel-layer groups whose announcements re-render it (the seat's fields and
    the objects it names are loaded by this call, in a worker thread: the event loop never reads).
    ``versioned(seat)``: those of them whose announcements carry the version its fragment shows (a
    backlog of them is rendered once); the others' are rendered at each announcement. Default: all.
    ``render(seat, link, version)``: its fragment (``version``: what a push announced, else now).
    ``from_memory(seat, link, version)``: the fragment from what this process holds, link checked, or
    None. ``shared_read(seat, version)``: ``(key, read)`` that fills what ``from_memory`` uses.
    ``news(seat, link, event, shown)``: for an announcement on one of its groups that are not versioned
    (another aggregate's: a tap at a tournament entry's table), ``(key, read, render)``: ``render()`` gives a
    message the phone draws on top of the fragment it shows (the table's public summary, the same for every
    phone there, no card), from memory after one shared read (``LiveConsumer.news_from_memory``), or None to
    render the fragment in a worker thread. ``news_now(seat, link)``: in a worker thread, after a fragment
    rendered there, the message as the latest such announcement would give it, or None.
    ``groups_now(seat, shown)``: from memory, the seat's groups
    as the version ``shown`` has them (a tournament entry's table), or None to keep those it joined.
    """

    groups: Callable[[object], list[str]]
    render: Callable[..., str]
    from_memory: Callable[[object, PlayerLink, int], str | None] | None = None
    shared_read: Callable[[object, int], tuple[Hashable, Callable[[], object]]] | None = None
    versioned: Callable[[object], list[str]] | None = None
    news: Callable[[object, PlayerLink, dict, int], tuple | None] | None = None
    news_now: Callable[[object, PlayerLink], str | None] | None = None
    groups_now: Callable[[object, int], list[str] | None] | None = None


_screens: dict[type, SeatScreen] = {}


def register_seat(model: type, screen: SeatScreen) -> None:
    _screens[model] = screen


def _screen(seat) -> SeatScreen:
    try:
        return _screens[type(seat)]
    except KeyError:
        raise LookupError(f"no player's screen is registered for {type(seat).__name__}") from None


def _seat(link: PlayerLink):
    seat = link.seat
    if seat is None:
        raise LookupError(f"player link {link.pk} points to a seat that no longer exists")
    return seat


def seat_groups(link: PlayerLink) -> list[str]:
    seat = _seat(link)
    return list(_screen(seat).groups(seat))


def versioned_groups(link: PlayerLink) -> list[str]:
    """The seat's groups whose announcements carry the version its fragment shows (``SeatScreen``)."""
    seat = _seat(link)
    screen = _screen(seat)
    return list((screen.versioned or screen.groups)(seat))


def render_player_fragment(link: PlayerLink, *, seat=None, version: int | None = None) -> str:
    """The seat's fragment; ``version``: the version a push announced, which the seat may render from
    what its process already holds for that version."""
    seat = seat or _seat(link)
    return _screen(seat).render(seat, link, version=version)


def fragment_from_memory(link: PlayerLink, seat, version: int) -> str | None:
    """The seat's fragment at ``version`` from its process's memory, link checked, or None (the seat
    does not render from memory, or does not hold the version yet). Runs on the event loop."""
    render = _screen(seat).from_memory
    return render(seat, link, version) if render is not None else None


def shared_read(seat, version: int):
    """``(key, read)`` that fills the memory ``fragment_from_memory`` uses, or None."""
    read = _screen(seat).shared_read
    return read(seat, version) if read is not None else None


def news_from_memory(link: PlayerLink, seat, event: dict, shown: int):
    """``(key, read, render)`` for an announcement of another aggregate's version on one of the seat's groups
    (``SeatScreen.news``), or None: the push is rendered in a worker thread."""
    news = _screen(seat).news
    return news(seat, link, event, shown) if news is not None else None


def news_now(link: PlayerLink, seat) -> str | None:
    """In a worker thread, after the seat's fragment: what its latest news would bring (``SeatScreen.news_now``)."""
    now = _screen(seat).news_now
    return now(seat, link) if now is not None else None


def groups_now(seat, shown: int) -> list[str] | None:
    """The seat's groups as the version ``shown`` has them, from memory (``SeatScreen.groups_now``), or None."""
    follow = _screen(seat).groups_now
    return follow(seat, shown) if follow is not None else None
