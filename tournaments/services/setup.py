"""The event's setup (CC-04): its creation, the changes its director makes, the structure templates, and
which director runs it (the games director assigns him). Each a command through ``writing.write_event``."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from casino.audit import record_event
from casino.roles import DIRECT_TOURNAMENTS, can
from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import bounds, clock, record
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.structure import Structure
from casino.writes import NotAllowed
from tournaments.models import (
    StructureTemplate,
    Tournament,
)
from tournaments.writing import EventWrite, TournamentResult, setup_of, structure_of, write_event

#: Fields of the setup a director may change (``change_setup``), as the record's ``setup`` names them.
SETUP_FIELDS = ("buy_in", "fee", "starting_stack", "seats_per_table", "structure", "payout_table", "break_order",
                "options", "late_registration_level")


def is_director(user) -> bool:
    """A tournament director (of some event): who creates events, keeps structure templates and the exclusion
    list. What he may do at one event is ``access.directs``."""
    return can(user, DIRECT_TOURNAMENTS)


def assign_director(*, tournament, by, key: str, expected_version: int, director) -> TournamentResult:
    """The games director (or an administrator) assigns the event to a tournament director, or reassigns it:
    from then on he directs it and the one before does not (``tournaments.access``). Audited, with both."""
    from django.contrib.auth import get_user_model

    from casino.roles import Role

    chosen = get_user_model().objects.filter(pk=getattr(director, "pk", director), is_active=True,
                                             groups__name=Role.TOURNAMENT_DIRECTOR).first()
    if chosen is None:
        raise RuleViolation(N_("Choose one of the casino's active tournament directors."), "CC-03")

    def work(w: EventWrite) -> None:
        before = w.row.director_id
        if before == chosen.pk:
            raise RuleViolation(N_("%(name)s directs this event already."), "CC-03",
                                name=chosen.get_full_name() or chosen.username)
        Tournament.objects.filter(pk=w.row.pk).update(director=chosen)
        w.row.director = chosen
        w.audit("tournament.director_assigned", before=before, after=chosen.pk, director=chosen.username)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="director_assigned", work=work, who="overseer")


def _setup_fields(*, buy_in: int, fee: int, starting_stack: int, seats_per_table: int, structure: dict | None,
                  payout_table, break_order, options: dict | None, late_registration_level: int | None) -> dict:
    from casino.rules.tournament import structure as structure_rules

    if seats_per_table not in (10, 9, 8, 6):
        raise RuleViolation(N_("A table seats 10, 9, 8 or 6 players, not %(seats)s"), "CC-48", seats=seats_per_table)
    if buy_in < 0 or fee < 0 or starting_stack <= 0:
        raise RuleViolation(N_("The buy-in, fee and starting stack must be positive"), "CC-14")
    if max(buy_in, fee) > bounds.MAX_MONEY or starting_stack > bounds.MAX_STARTING_STACK:
        # issue #34: past these no real event, and no 32-bit column of the event's row
        raise RuleViolation(N_("The buy-in and fee cannot be more than %(money)s, the starting stack more than "
                               "%(stack)s"), "CC-14", money=bounds.MAX_MONEY, stack=bounds.MAX_STARTING_STACK)
    house = HouseOptions.from_dict(options)
    steps = structure if structure else structure_rules.default_structure().as_dict()
    structure_rules.check_structure(Structure.from_dict(steps))
    return {"buy_in": buy_in, "fee": fee, "starting_stack": starting_stack, "seats_per_table": seats_per_table,
            "structure": steps,
            "payout_table": [[int(n), [int(s) for s in shares]] for n, shares in payout_table or ()],
            "break_order": [int(t) for t in break_order or ()], "options": house.as_dict(),
            "late_registration_level": late_registration_level}


def create_tournament(*, by, key: str, name: str, starts_at: datetime, buy_in: int, starting_stack: int, fee: int = 0,
                      seats_per_table: int = 9, structure: dict | None = None, payout_table=(), break_order=(),
                      options: dict | None = None, late_registration_level: int | None = None,
                      ends_at: datetime | None = None) -> tuple[Tournament, TournamentResult]:
    """A new event with its setup recorded (the record's first event)."""
    if not is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    fields = _setup_fields(buy_in=buy_in, fee=fee, starting_stack=starting_stack, seats_per_table=seats_per_table,
                           structure=structure, payout_table=payout_table, break_order=break_order, options=options,
                           late_registration_level=late_registration_level)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name, starts_at=starts_at, ends_at=ends_at, buy_in=buy_in, fee=fee, starting_stack=starting_stack,
            seats_per_table=seats_per_table, structure=fields["structure"], payout_table=fields["payout_table"],
            break_order=fields["break_order"], house_options=fields["options"],
            late_registration_level=late_registration_level, director=by,
        )

        def work(w: EventWrite) -> None:
            w.record("setup", **fields)
            w.audit("tournament.setup", name=name, buy_in=buy_in, fee=fee, starting_stack=starting_stack)

        result = write_event(tournament=tournament, by=by, key=key, expected_version=0, action="setup", work=work)
    tournament.refresh_from_db()
    return tournament, result


def change_setup(*, tournament, by, key: str, expected_version: int, reason: str = "", **changes) -> TournamentResult:
    """A change to the setup, recorded as ``setup_changed`` (``structure_changed`` for the structure alone)
    and announced to every screen (CC-04)."""
    unknown = set(changes) - set(SETUP_FIELDS)
    if unknown:
        raise ValueError(f"not a setup field: {', '.join(sorted(unknown))}")

    def work(w: EventWrite) -> None:
        current = record.setup_event_fields(setup_of(w))
        merged = _setup_fields(**{**current, **changes})
        changed = {k: merged[k] for k in changes if merged[k] != current[k]}
        if not changed:
            raise RuleViolation(N_("Nothing in the setup changed"), "CC-04")
        if w.state.registration == "closed" and ({"buy_in", "fee"} & set(changed)):
            raise RuleViolation(N_("The buy-in and fee are fixed once registration closes"), "CC-14")
        if set(changed) == {"structure"}:
            w.record("structure_changed", structure=changed["structure"], reason=reason)
        else:
            w.record("setup_changed", changes=changed, reason=reason)
        row = w.tournament
        for name, column in (("buy_in", "buy_in"), ("fee", "fee"), ("starting_stack", "starting_stack"),
                             ("seats_per_table", "seats_per_table"), ("structure", "structure"),
                             ("payout_table", "payout_table"), ("break_order", "break_order"),
                             ("options", "house_options"), ("late_registration_level", "late_registration_level")):
            if name in changed:
                setattr(row, column, changed[name])
        row.save()
        clock_still_replays(w)  # CC-86: a structure cut below the step the clock has reached
        w.event = "setup_changed"  # CC-04: every screen shows the change
        w.audit("tournament.setup_changed", fields=sorted(changed), reason=reason)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="setup_changed",
                  work=work)


def clock_still_replays(w: EventWrite) -> None:
    """The clock replays on what this write leaves (its commands, the structure, the house options): else every
    screen showing the clock would fail to read it. The clock's own refusal rolls the write back (issue #34)."""
    setup = setup_of(w)
    clock.clock_at(structure_of(setup), list(w.state.clock_events), w.now,
                   hand_for_hand_seconds=setup.options.hand_for_hand_seconds)


def save_structure_template(*, by, name: str, structure: dict) -> StructureTemplate:
    """Keep a structure under a name, to copy into later events."""
    from casino.rules.tournament import structure as structure_rules

    if not is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    structure_rules.check_structure(Structure.from_dict(structure))
    with transaction.atomic():
        template, _created = StructureTemplate.objects.update_or_create(
            name=name, defaults={"structure": structure, "created_by": by})
        record_event(action="tournament.structure_template_saved", actor=by, obj=template, details={"name": name})
    return template


def copy_structure_template(*, tournament, template: StructureTemplate, by, key: str, expected_version: int
                            ) -> TournamentResult:
    return change_setup(tournament=tournament, by=by, key=key, expected_version=expected_version,
                        reason=f"template {template.name}", structure=dict(template.structure))
