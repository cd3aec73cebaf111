"""Who may act at one tournament: the object check of the tournaments (``casino.access`` explains the two checks).

A casino assigns each event to a tournament director (``Tournament.director``): he directs that event, and
only that one. The games director and the administrators (``DIRECT_GAMES``) assign and reassign an event's
director and may direct any event themselves. The floor staff (the ``tournament_floor`` role) work the floor
of every event, as the casino puts them where the room needs them; a tournament director works the floor of
his own events only. A director of another event may look at the list of events and at this one's screens;
he may not act at it.

Asked by the write path's permission check (``tournaments.writing.require``, whatever the entry point), the
dealt tables' commands (``tournaments.services.dealing``), the views, the tablets and the sockets; the pages
ask ``may_direct`` / ``may_work_floor`` (the role and this event), the tablets ``may_open``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from casino.roles import DEAL, DIRECT_GAMES, DIRECT_TOURNAMENTS, RUN_TOURNAMENT_FLOOR, Role, can, has_role

if TYPE_CHECKING:
    from tournaments.models import DealtTable, Tournament


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


#: The floor staff's role (added by the back end as ``Role.TOURNAMENT_FLOOR``).
FLOOR_ROLE = getattr(Role, "TOURNAMENT_FLOOR", "tournament_floor")


#: Who enters the tournaments' pages as a director: the tournament directors, and the games director and the
#: administrators, who assign each event's director and may direct any (``tournaments.access``).
DIRECTOR_ROLES = (Role.TOURNAMENT_DIRECTOR, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


FLOOR_ROLES = (*DIRECTOR_ROLES, FLOOR_ROLE)


def may_direct(user, tournament: Tournament | None = None) -> bool:
    """Setup, registration, the clock, the plan's overrides, prizes and corrections: at ``tournament``, only
    its own director (and the games director, the administrators: ``directs``); without one, whether
    ``user`` is a director at all (who creates an event)."""
    if tournament is not None:
        return has_role(user, *DIRECTOR_ROLES) and directs(user, tournament)
    return has_role(user, *DIRECTOR_ROLES)


def may_work_floor(user, tournament: Tournament | None = None) -> bool:
    """The table actions: busts, withdrawals, chip counts, buttons, colour-ups, confirming a move: at
    ``tournament``, the floor staff and its director (``works_floor``)."""
    if tournament is not None:
        return has_role(user, *FLOOR_ROLES) and works_floor(user, tournament)
    return has_role(user, *FLOOR_ROLES)


def runs_the_floor(user, table: DealtTable) -> bool:
    """The event's director, or the floor for him: who pauses a table, releases its board, assigns its dealer
    (``tournaments.works_floor``: a director of another event does not). The floor staff first: that
    reads no row, and a tablet's push asks it at every tap."""
    # a dealer's push asks this too: no director, no read of the table's event
    return floor_staff(user) or (can(user, DIRECT_TOURNAMENTS) and directs(user, table.tournament))


def may_deal_at(user, table: DealtTable) -> bool:
    """Who records a tournament table's hands: its dealer on duty (whom the floor assigns,
    ``assign_dealer``), the floor and the director (at any table of his own events)."""
    if table.dealer_id is not None and table.dealer_id == getattr(user, "pk", None) and can(user, DEAL):
        return True
    return runs_the_floor(user, table)


#: Who opens a tournament table's tablet: its dealers, the floor and the director (and administrators).
TABLET_ROLES = (Role.DEALER, Role.TOURNAMENT_FLOOR, Role.TOURNAMENT_DIRECTOR, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


def may_open(user, table: DealtTable) -> bool:
    """Who opens a tournament table's tablet: its dealer on duty, the floor and the director."""
    return has_role(user, *TABLET_ROLES) and may_deal_at(user, table)


def event_of_deck_stock(label: str):
    """The event whose stock of decks ``label`` names (its tables' group, ``tournaments.tournament.<id>.tables``,
    docs/decks.md), or None."""
    from tournaments.models import Tournament, tables_group

    head, _dot, tail = label.rpartition(".tournament.")
    number = tail.removesuffix(".tables")
    if not head or not number.isdigit() or len(number) >= 10 or label != tables_group(int(number)):
        return None
    return Tournament.objects.filter(pk=int(number)).first()


def event_tables_for_decks(tournament) -> list[tuple[str, str]]:
    """The event's dealt tables a deck may be issued to: their labels and names."""
    from django.utils.translation import gettext

    return [(t.group_name, gettext("Table %(number)s") % {"number": t.number})
            for t in tournament.dealt_tables.order_by("number")]
