"""The dealers' rotation as the screens and the tables read it (issue #38 item 5; RP-07).

``schedule_at``: the event's rotation at a moment, from its setup (``DealerRotation``) and its clock's level
changes and breaks (``casino.rules.tournament.dealer_changes``); ``due_dealer``: the dealer the rotation puts at a
table now. The write that follows it is ``tournaments.services.rotation``.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model

from casino.rules import rotation as engine
from casino.rules.tournament.dealer_changes import dealer_change_stops
from casino.rules.tournament.structure import Structure
from tournaments.models import DealerRotation, DealtTable, Tournament
from tournaments.reads import event as event_reads


def setup_of(row: DealerRotation) -> engine.RotationSetup:
    return engine.RotationSetup(dealers=tuple(row.dealers), tables=tuple(row.tables),
                                down_minutes=row.down_minutes, starts_at=row.starts_at)


def schedule_at(tournament: Tournament, now: datetime, *, state=None, ahead: int = 3) -> engine.Schedule | None:
    """The event's rotation at ``now``; None when the floor has set none."""
    row = DealerRotation.objects.filter(tournament_id=tournament.pk).first()
    if row is None:
        return None
    state = state if state is not None else event_reads.tournament_state(tournament)
    stops = () if state.setup is None else dealer_change_stops(
        Structure.from_dict(state.setup.structure), list(state.clock_events), now,
        hand_for_hand_seconds=state.setup.options.hand_for_hand_seconds)
    return engine.schedule(setup_of(row), now, stops=stops, ahead=ahead)


def due_dealer(table: DealtTable, now: datetime) -> tuple[bool, int | None]:
    """(whether the table is in the event's rotation, the dealer's id the rotation puts there at ``now``)."""
    tournament = Tournament.objects.get(pk=table.tournament_id)
    plan = schedule_at(tournament, now, ahead=0)
    if plan is None or table.number not in plan.current.tables:
        return False, None
    return True, plan.current.tables[table.number]


def names_of(ids) -> dict[int, str]:
    users = get_user_model().objects.filter(pk__in=[i for i in ids if i is not None])
    return {u.pk: u.get_full_name() or u.get_username() for u in users}


def board(plan: engine.Schedule | None) -> dict | None:
    """The console's and the tablets' view: each table's dealer now and next, who rests, the next change's time,
    with names."""
    if plan is None:
        return None
    ids = set(plan.current.tables.values()) | set(plan.current.resting)
    names = names_of(ids)
    nxt = plan.ahead[0][1] if plan.ahead else None
    return {
        "since": plan.since, "next_at": plan.next_at,
        "tables": [{"table": t, "dealer": names.get(d, d), "dealer_id": d,
                    "next": names.get(nxt.tables[t], nxt.tables[t]) if nxt else None}
                   for t, d in plan.current.tables.items()],
        "resting": [names.get(d, d) for d in plan.current.resting],
        "next_resting": [names.get(d, d) for d in nxt.resting] if nxt else [],
        "plan": plan,
        "names": names,
    }


def clock_reading(tournament: Tournament, now: datetime | None = None):
    """The event's clock at ``now`` (the rotation's tests and screens compare the next change with it)."""
    from django.utils import timezone

    from casino.rules.tournament.clock import clock_at

    state = event_reads.tournament_state(Tournament.objects.get(pk=tournament.pk))
    return clock_at(Structure.from_dict(state.setup.structure), list(state.clock_events), now or timezone.now(),
                    hand_for_hand_seconds=state.setup.options.hand_for_hand_seconds)


def dealer_plans(user, now: datetime) -> list[dict]:
    """Where the running events' rotations put ``user`` now and next, for his home page (RP-07): [{"tournament",
    "now": the table the rotation puts him at now (None: his break), "on_duty": whether he deals there already
    (the table follows a change due during a hand when the hand ends), "next_at", "next": the table he goes to
    then (None: his break)}]. One row a rotation he is in; nothing for an event that is not running."""
    rows = (DealerRotation.objects.filter(dealers__contains=[user.pk], tournament__status=Tournament.Status.RUNNING)
            .select_related("tournament").order_by("tournament__starts_at", "tournament_id"))
    found = []
    for row in rows:
        plan = schedule_at(row.tournament, now)
        if plan is None:
            continue
        here = plan.current.table_of(user.pk)
        going = plan.next_for(user.pk)
        on_duty = here is not None and DealtTable.objects.filter(
            tournament_id=row.tournament_id, number=here, dealer_id=user.pk).exists()
        found.append({"tournament": row.tournament, "now": here, "on_duty": on_duty,
                      "next_at": going[0] if going else None, "next": going[1] if going else None})
    return found
