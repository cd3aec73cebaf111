"""The dealers' rotation of a tournament room (issue #38 item 5; RP-07): the floor sets it, the tables follow it.

* ``set_rotation``: the floor (or the director) gives the dealers in their order, the tables in theirs and the down
  (minutes at a table); the engine (``casino.rules.rotation``) checks it; it is stored and audited through the
  event's write path, and each table of it then follows its first change (``follow_at``).
* ``stop_rotation``: the floor stops it (the dealers on duty stay where they are).
* ``follow_rotation``: inside a write at a table, the table takes the dealer the rotation puts there now, when no
  hand is in play (a hand starts at a dealer change, TDA-23: never mid-hand). Every hand's end at a table calls
  it (``services.dealing.act``), so a change due during a hand is made as the hand ends.
* ``hand_over``: the same at a table with no hand in play, from its tablet or the console (a change that fell due
  while the table was idle, or at a break's end).

The change's time is the schedule's: a down after the change before, never in the 90 s before a level change or a
break, nor during a break (RP-07; the clock's stops, ``tournaments.reads.rotation``). Each dealer put on duty is
audited as the floor's assignment is (``tournament.table_dealer_assigned``, with ``rotation``), so ``verify_audit``
checks it the same way; the relieved dealer's tablet closes and says who took over (``consumers``).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model

from casino.roles import Role, has_role
from casino.rules import rotation as engine
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem import Phase
from casino.rules.holdem.hand import ENDED
from casino.writes import NotAllowed
from tournaments.access import runs_the_floor
from tournaments.models import DealerRotation, DealtTable
from tournaments.reads import rotation as rotation_reads
from tournaments.reads.hands import latest_hand
from tournaments.writing import EventWrite, TableResult, TableWrite, TournamentResult, write_at_table, write_event


def _active_dealer(user) -> bool:
    return user is not None and user.is_active and has_role(user, Role.DEALER)


def set_rotation(*, tournament, by, key: str, expected_version: int, dealers: list, tables: list[int],
                 down_minutes: int, starts_at: datetime | None = None) -> TournamentResult:
    """The floor sets (or sets again) the event's rotation, starting now (or at ``starts_at``): the dealers (users or
    their ids) in their order, the tables (numbers) in theirs, the down in minutes. Audited; each table then follows
    it."""
    ids = [getattr(d, "pk", d) for d in dealers]
    found = get_user_model().objects.in_bulk(ids)
    if len(found) != len(set(ids)):
        raise RuleViolation(N_("Choose the casino's active dealers."), None)
    dealers = [found[i] for i in ids]
    for dealer in dealers:
        if not _active_dealer(dealer):
            raise RuleViolation(N_("%(name)s is not one of the casino's active dealers."), None,
                                name=dealer.get_full_name() or dealer.get_username())

    def work(w: EventWrite) -> None:
        start = starts_at or w.now
        setup = engine.RotationSetup(dealers=tuple(d.pk for d in dealers), tables=tuple(tables),
                                     down_minutes=down_minutes, starts_at=start)
        engine.verify_setup(setup)
        for number in tables:
            w.state.table(number)  # a table of the event in play (TDA-07's refusal otherwise)
        DealerRotation.objects.update_or_create(
            tournament=w.row, defaults={"dealers": list(setup.dealers), "tables": list(setup.tables),
                                        "down_minutes": down_minutes, "starts_at": start})
        w.audit("tournament.dealer_rotation_set", dealers=[d.get_username() for d in dealers],
                dealer_ids=list(setup.dealers), tables=list(tables), down_minutes=down_minutes,
                starts_at=start.isoformat())

    result = write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                         action="set_rotation", work=work, who="floor")
    follow_at(tournament, by=by, key=key, tables=tables)
    return result


def follow_at(tournament, *, by, key: str, tables: list[int]) -> list[int]:
    """Each of ``tables`` with no hand in play takes the dealer the rotation puts there now (one write at each
    table, after the event's); the others follow at their hand's end. The tables handed over."""
    done = []
    tournament_id = getattr(tournament, "pk", tournament)
    for number in tables:
        table = DealtTable.objects.filter(tournament_id=tournament_id, number=number).first()
        if table is None:
            table = DealtTable.objects.create(tournament_id=tournament_id, number=number)
        try:
            hand_over(table=table, by=by, key=f"{key}:t{number}"[:100], expected_version=table.version)
        except (RuleViolation, NotAllowed):
            continue  # a hand in play (it follows at its end), or nothing to change
        done.append(number)
    return done


def follow_due(*, tournament, by, key: str, expected_version: int | None = None) -> TournamentResult:
    """The floor's "make the changes due": each table of the rotation with no hand in play takes the dealer the
    rotation puts there now (the others at their hand's end)."""
    row = DealerRotation.objects.filter(tournament_id=getattr(tournament, "pk", tournament)).first()
    if row is None:
        raise RuleViolation(N_("No dealers' rotation is running."), "RP-07")
    if not follow_at(tournament, by=by, key=key, tables=list(row.tables)):
        raise RuleViolation(N_("No dealer change is due at a table between hands (RP-07: the rotation's schedule)."),
                            "RP-07")
    return TournamentResult(DealerRotation.objects.get(pk=row.pk).tournament.version)


def stop_rotation(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    """The floor stops the rotation; the dealers on duty stay where they are. Audited."""

    def work(w: EventWrite) -> None:
        deleted, _ = DealerRotation.objects.filter(tournament=w.row).delete()
        if not deleted:
            raise RuleViolation(N_("No dealers' rotation is running."), "RP-07")
        w.audit("tournament.dealer_rotation_stopped")

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="stop_rotation", work=work, who="floor")


def follow_rotation(w: TableWrite) -> bool:
    """Inside a write at a table whose hand is over (or with none): the table takes the dealer the rotation puts
    there now. Whether its dealer changed. Audited as an assignment, with the dealer relieved."""
    in_rotation, due = rotation_reads.due_dealer(w.table, w.now)
    if not in_rotation or due is None or due == w.table.dealer_id:
        return False
    dealer = get_user_model().objects.filter(pk=due).first()
    if not _active_dealer(dealer):
        return False  # a dealer no longer active is not put on duty: the floor assigns another
    relieved = w.table.dealer
    w.table.dealer = dealer
    # dealer_id: verify_audit compares the table's dealer on duty with the last one assigned (issue #34).
    w.audit("tournament.table_dealer_assigned", table=w.table.number, dealer=dealer.get_username(),
            dealer_id=dealer.pk, rotation=True, relieved=relieved.get_username() if relieved is not None else None)
    return True


def hand_over(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """The table takes the dealer the rotation puts there now, when no hand is in play (TDA-23: a hand starts at
    a dealer change; the change waits for the hand's end). Its dealer on duty, the floor or the director."""

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is not None and Phase(hand.phase) not in ENDED:
            raise RuleViolation(N_("The dealer changes when the hand in play is over."), "TDA-23")
        if not follow_rotation(w):
            raise RuleViolation(N_("No dealer change is due at this table (RP-07: the rotation's schedule)."),
                                "RP-07")

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="hand_over", work=work)


def verify_not_relieved(w: TableWrite) -> None:
    """A dealer the rotation has relieved deals no new hand here: he hands the table over (the floor and the
    director deal on)."""
    if runs_the_floor(w.by, w.table) or w.table.dealer_id != w.by.pk:
        return
    in_rotation, due = rotation_reads.due_dealer(w.table, w.now)
    if in_rotation and due is not None and due != w.by.pk:
        names = rotation_reads.names_of([due])
        raise RuleViolation(N_("The rotation puts %(name)s at this table now: hand it over."), "RP-07",
                            name=names.get(due, due))
