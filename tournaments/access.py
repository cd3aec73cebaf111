"""Who may act at one tournament: the object check of the tournaments (``casino.access`` explains the two checks).

A casino assigns each event to a tournament director (``Tournament.director``): he directs that event, and
only that one. The games director and the administrators (``DIRECT_GAMES``) assign and reassign an event's
director and may direct any event themselves. The floor staff (the ``tournament_floor`` role) work the floor
of every event, as the casino puts them where the room needs them; a tournament director works the floor of
his own events only. A director of another event may look at the list of events and at this one's screens;
he may not act at it.

Asked by the services' permission check (``tournaments.services._require``, whatever the entry point), the
dealt tables' commands (``tournaments.dealing``), the views, the tablets and the sockets, and by the
templates through ``tournaments.console.may_direct`` / ``may_work_floor``.
"""

from __future__ import annotations

from casino.roles import DIRECT_GAMES, DIRECT_TOURNAMENTS, RUN_TOURNAMENT_FLOOR, Role, can, has_role


def oversees_events(user) -> bool:
    """The games director and the administrators: they assign each event's director and may direct any."""
    return can(user, DIRECT_TOURNAMENTS) and can(user, DIRECT_GAMES)


def directs(user, tournament) -> bool:
    """Whether ``user`` directs ``tournament``: its assigned director, or one who oversees every event."""
    if not can(user, DIRECT_TOURNAMENTS):
        return False
    if oversees_events(user):
        return True
    return tournament is not None and tournament.director_id is not None and tournament.director_id == user.pk


def floor_staff(user) -> bool:
    """The floor staff, who work every event's floor (asked first: it reads no event)."""
    return has_role(user, Role.TOURNAMENT_FLOOR) and can(user, RUN_TOURNAMENT_FLOOR)


def works_floor(user, tournament) -> bool:
    """Whether ``user`` works ``tournament``'s floor: the floor staff, or its director (as above)."""
    return floor_staff(user) or directs(user, tournament)


def directs_another_event(user, tournament) -> bool:
    """A tournament director who is not this event's: he looks, he does not act (the refusal says so)."""
    return can(user, DIRECT_TOURNAMENTS) and not directs(user, tournament)
