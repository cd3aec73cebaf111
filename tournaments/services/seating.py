"""The seats (TDA-05..11, CC-47..49): the start's random draw, the floor's seat corrections and the director's
overrides, the balancing and breaking plans (proposed with what was drawn, confirmed with one tap, never with a
hand in play at a table the plan touches: TDA-11), and the button set by the floor."""

from __future__ import annotations

from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import record, seating
from casino.rules.tournament.record import plan_to_dict
from tournaments.models import (
    Tournament,
)
from tournaments.writing import (
    EventWrite,
    TournamentResult,
    between_hands,
    hand_for_hand_ends_at_one_table,
    hands_in_play,
    seated_fields,
    setup_of,
    write_event,
)


def record_the_draw(w: EventWrite, entries: list[int], setup: record.Setup, rng) -> tuple:
    """The random draw of ``entries``' seats and the tables' buttons (TDA-07, CC-48, CC-82), each with a full stack,
    recorded as one ``seated`` event an entry (``why: "draw"``), so a replay never draws: the event's start, and a
    qualifying series' (CC-05, CC-06). The tables drawn."""
    tables, moves = seating.draw_seats(entries, setup.seats_per_table, rng, why="draw")
    buttons = {t.table: t.button for t in tables}
    occupied = {t.table: [s for s, _ in t.players] for t in tables}
    for move in moves:
        w.record("seated", entry=move.entry, table=move.to_table, seat=move.to_seat, chips=setup.starting_stack,
                 why="draw", button=buttons.get(move.to_table), occupied=occupied.get(move.to_table, []),
                 from_table=None, from_seat=None, sits_out=False)
    return tables


def start_tournament(*, tournament, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TournamentResult:
    """Draw every registered entry's seat (TDA-07, CC-48) and the buttons (CC-82), each with a full stack;
    the draw's result is recorded, so a replay never draws."""

    def work(w: EventWrite) -> None:
        setup = setup_of(w)
        if w.row.status == Tournament.Status.RUNNING or w.state.tables:
            raise RuleViolation(N_("The tournament has started already"), "TDA-07")
        if w.state.qualifying is not None and w.state.qualifying.series:
            # an event with qualifying series starts series by series, each drawing its own players (CC-05)
            raise RuleViolation(N_("This event plays qualifying series: start a series instead"), "CC-05")
        entries = [e.entry for e in w.state.entries if e.status == "registered"]
        if len(entries) < 2:
            raise RuleViolation(N_("A tournament needs at least two entries to start"), "TDA-07")
        tables = record_the_draw(w, entries, setup, rng)
        w.row.status = Tournament.Status.RUNNING
        w.audit("tournament.started", entries=len(entries), tables=len(tables))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="start",
                  work=work)


def _reseat(*, tournament, by, key, expected_version, entry: int, table: int, seat: int, reason: str, why: str,
            who: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the seat changes"), "TDA-09")

    def work(w: EventWrite) -> None:
        current = w.state.entry(entry)
        if current.status not in record.IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-07", entry=entry)
        between_hands(w, current.table, table)
        move = seating.Move(entry=entry, to_table=table, to_seat=seat, why=why, from_table=current.table,
                            from_seat=current.seat)
        w.record("seated", **seated_fields(w.state, move, current.stack, reason=reason))
        w.audit(f"tournament.seat_{why}", entry=entry, table=table, seat=seat, reason=reason,
                from_table=current.table, from_seat=current.seat)
        record_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action=f"seat_{why}",
                  work=work, who=who, rng=rng)


def correct_seat(*, tournament, by, key: str, expected_version: int, entry: int, table: int, seat: int,
                 reason: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor corrects a wrong seat (TDA-07), with a reason."""
    return _reseat(tournament=tournament, by=by, key=key, expected_version=expected_version, entry=entry,
                   table=table, seat=seat, reason=reason, why="correction", who="floor", rng=rng)


def override_seat(*, tournament, by, key: str, expected_version: int, entry: int, table: int, seat: int,
                  reason: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The director overrides a seat (TDA-09, CC-49), with a reason."""
    return _reseat(tournament=tournament, by=by, key=key, expected_version=expected_version, entry=entry,
                   table=table, seat=seat, reason=reason, why="override", who="director", rng=rng)


def record_plan(w: EventWrite) -> None:
    """After a change: what the floor must do now, recorded with what was drawn; confirmed with one tap."""
    state = w.state
    if len(state.tables) < 1 or state.players_left < 2:
        return
    setup = setup_of(w)
    proposed = seating.plan(state.tables, options=setup.options, break_order=setup.break_order, rng=w.rng)
    empty = not (proposed.moves or proposed.broken or proposed.redraw)
    halts_change = set(proposed.halted) != set(state.halted)
    if empty and not halts_change:
        return
    w.record("plan_proposed", plan=plan_to_dict(proposed))
    w.audit("tournament.plan_proposed", moves=len(proposed.moves), broken=list(proposed.broken),
            halted=list(proposed.halted), redraw=proposed.redraw)


def propose_plan(*, tournament, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TournamentResult:
    def work(w: EventWrite) -> None:
        record_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="plan_proposed",
                  work=work, who="floor", rng=rng)


def confirm_plan(*, tournament, by, key: str, expected_version: int, proposed: int) -> TournamentResult:
    """The floor's one tap: apply exactly the moves proposed (the version check guarantees nothing changed
    since the screen showed them): seats, broken tables, halts and drawn buttons."""

    def work(w: EventWrite) -> None:
        pending = w.state.pending_plan
        if pending is None or pending[0] != proposed:
            raise RuleViolation(N_("The plan changed since it was shown: look at the new one"), "TDA-11")
        plan = pending[1]
        touched = seating.plan_tables(plan, w.state.tables)
        waits = hands_in_play(w, touched)  # their rows locked without waiting: a tap being written counts
        if waits:
            # TDA-11: the players play the hand out; the plan stays proposed, the console says when it can go
            raise RuleViolation(N_("Table %(table)s has a hand in play: confirm the moves when it ends."),
                                "TDA-11", table=min(waits))
        w.record("plan_confirmed", proposed=proposed)
        table_seats = dict(getattr(plan, "seats", ()) or ())
        drawn = dict(plan.buttons)  # a redraw's and the final table's buttons (CC-82): the next hand's
        for move in plan.moves:
            stack = w.state.entry(move.entry).stack
            w.record("seated", **seated_fields(w.state, move, stack, plan=proposed,
                                                table_seats=table_seats.get(move.to_table),
                                                drawn_button=drawn.get(move.to_table)))
        # each event of the confirmation names its plan: a correction of the confirmation takes them all back
        for t in w.state.tables:
            # the tables the plan breaks, and those a redraw leaves empty (CC-48, CC-61/62)
            if t.table in plan.broken or (plan.redraw and not t.players):
                w.record("table_broken", table=t.table, plan=proposed)
        for table in plan.halted:
            if table not in w.state.halted:
                w.record("table_halted", table=table, plan=proposed)
        for table in w.state.halted:
            if table not in plan.halted:
                w.record("table_resumed", table=table, plan=proposed)
        for table, seat in plan.buttons:
            w.record("button", table=table, seat=seat, plan=proposed)
        w.audit("tournament.plan_confirmed", proposed=proposed, moves=len(plan.moves), broken=list(plan.broken))
        hand_for_hand_ends_at_one_table(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="plan_confirmed", work=work, who="floor")


def set_button(*, tournament, by, key: str, expected_version: int, table: int, seat: int,
               rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor enters where the next hand's button is at a table (when a move needs it)."""

    def work(w: EventWrite) -> None:
        t = w.state.table(table)
        if not 1 <= seat <= t.seats:
            raise RuleViolation(N_("Table %(table)s has no seat %(seat)s"), "TDA-07", table=table, seat=seat)
        between_hands(w, table)
        w.record("button", table=table, seat=seat)
        w.audit("tournament.button", table=table, seat=seat)
        record_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="button",
                  work=work, who="floor", rng=rng)
