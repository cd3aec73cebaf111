"""Qualifying series (flights), the day's end with bagged counts, and the Final Stage (CC-05..CC-10).

One event, one record (docs/tournaments.md, "Flights"): the director sets the series (CC-05), draws the
players into them (CC-06, a logged draw) or lets them choose where the house allows, starts each series (its
own clock from level 1 and its own seat draw), changes a series' end level or qualifiers (CC-07); at the end of
the day's last level, between hands (TDA-11), the floor bags every player's chips — the counts read from the
tablets' stacks, typed by the floor where a table had no tablet — each bag with its receipt's code (CC-09);
then the Final Stage starts at the level after the one qualifying ended at (CC-08) with a redraw of the bagged
players and their stacks (CC-10), and each qualifier checks in with his receipt (CC-09). Every command goes
through ``writing.write_event``: locked, versioned, recorded and audited.
"""

from __future__ import annotations

from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import chip_race, clock, flights, seating
from casino.rules.tournament.flights import day_end_due  # read by the console and the simulator too
from casino.rules.tournament.structure import Level
from tournaments.models import Tournament
from tournaments.services.seating import record_plan, record_the_draw
from tournaments.writing import (
    EventWrite,
    TournamentResult,
    dealt_from_a_tablet,
    hands_in_play,
    seated_fields,
    setup_of,
    structure_of,
    write_event,
)


def _qualifying(w: EventWrite) -> flights.Qualifying:
    q = w.state.qualifying
    if q is None or not q.series:
        raise RuleViolation(N_("This event has no qualifying series"), "CC-05")
    return q


def set_series(*, tournament, by, key: str, expected_version: int, series: int, end_level: int, qualifiers: int,
               choice: bool = False) -> TournamentResult:
    """CC-05: the event plays a qualifying stage of ``series`` series, each from level 1 to ``end_level`` or
    until ``qualifiers`` remain; ``choice``: the house lets players choose their series. Before any seat is
    drawn."""

    def work(w: EventWrite) -> None:
        setup_of(w)
        if w.state.tables or w.row.status == Tournament.Status.RUNNING:
            raise RuleViolation(N_("The qualifying series are set before the first seat is drawn"), "CC-05")
        structure = structure_of(w.state.setup)
        levels = sum(1 for s in structure.steps if isinstance(s, Level))
        if not 1 <= int(end_level) < levels:
            raise RuleViolation(N_("A series ends at a level from 1 to %(last)s: the Final Stage plays the next"),
                                "CC-08", last=levels - 1)
        w.record("series_set", series=int(series), end_level=int(end_level), qualifiers=int(qualifiers),
                 choice=bool(choice))
        w.audit("tournament.series_set", series=int(series), end_level=int(end_level), qualifiers=int(qualifiers),
                choice=bool(choice))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="series_set", work=work)


def change_series(*, tournament, by, key: str, expected_version: int, series: int | None, end_level: int | None,
                  qualifiers: int | None, reason: str) -> TournamentResult:
    """CC-07: the direction changes the end level and the qualifiers of a series (``None``: every series not
    ended), with a reason. An end level already played out is refused: the series would have to end before
    its level did (CC-05)."""
    reason = (reason or "").strip()[:200]
    if not reason:
        raise RuleViolation(N_("Say why the series changes"), "CC-07")
    if end_level is None and qualifiers is None:
        raise RuleViolation(N_("Give the new end level or the new number of qualifiers"), "CC-07")

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        if end_level is not None and q.playing is not None and (series is None or int(series) == q.playing):
            structure = structure_of(setup_of(w))
            if _reading(w, structure).level_number is not None and int(end_level) < _levels_begun(w, structure):
                raise RuleViolation(N_("Series %(series)s has played past level %(level)s already"), "CC-07",
                                    series=q.playing, level=int(end_level))
        w.record("series_changed", series=series, end_level=end_level, qualifiers=qualifiers, reason=reason)
        w.audit("tournament.series_changed", series=series, end_level=end_level, qualifiers=qualifiers,
                reason=reason)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="series_changed", work=work)


def draw_series(*, tournament, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TournamentResult:
    """CC-06: every registered entry not yet in a series is drawn into the series still to play, as evenly as
    they allow; the seed is recorded, so anyone draws it again from the record (the replay does)."""

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        waiting = [e.entry for e in w.state.entries if e.status == "registered" and q.series_of(e.entry) is None]
        if not waiting:
            raise RuleViolation(N_("No registered player waits for a series"), "CC-06")
        among = [s.number for s in q.series if s.status == "waiting"]
        seed = flights.seed_from(rng if rng is not SYSTEM_RANDOM else None)
        drawn = flights.draw_series(waiting, among, seed, {s: len(q.entries_of(s)) for s in among})
        w.record("series_assigned", entries=[list(p) for p in drawn], how="draw", seed=str(seed), among=among)
        w.audit("tournament.series_drawn", entries=len(drawn), among=among, seed=str(seed))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="series_drawn", work=work, rng=rng)


def choose_series(*, tournament, by, key: str, expected_version: int, entry: int, series: int,
                  rng=SYSTEM_RANDOM) -> TournamentResult:
    """A player registered into the series he chose, where the house allows it (``series_set``'s ``choice``); a
    re-entry (a player busted in one series) into another still to play, or the one playing (then seated at
    once, as a late entry). An entry already placed keeps its series."""

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        if not q.choice:
            raise RuleViolation(N_("The house draws the series: players do not choose them"), "CC-06")
        e = w.state.entry(entry)
        if e.status != "registered" or q.series_of(entry) is not None:
            raise RuleViolation(N_("Entry %(entry)s has a series already"), "CC-06", entry=entry)
        chosen = q.get(int(series))
        if chosen.status == "ended":
            raise RuleViolation(N_("Series %(series)s has ended"), "CC-06", series=chosen.number)
        w.record("series_assigned", entries=[[entry, chosen.number]], how="chosen", seed=None, among=None)
        w.audit("tournament.series_chosen", entry=entry, series=chosen.number)
        if chosen.status == "playing":
            _seat_late(w, entry)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="series_chosen", work=work, who="floor", rng=rng)


def _seat_late(w: EventWrite, entry: int) -> None:
    setup = setup_of(w)
    why = "reentry" if w.state.entry(entry).reentry_of else "late"
    move = seating.seat_late_entry(entry, w.state.tables, w.rng, why=why)
    w.record("seated", **seated_fields(w.state, move, setup.starting_stack))
    w.audit("tournament.seated", entry=entry, table=move.to_table, seat=move.to_seat, why=why)
    record_plan(w)


def start_series(*, tournament, by, key: str, expected_version: int, series: int,
                 rng=SYSTEM_RANDOM) -> TournamentResult:
    """A series begins (CC-05): its clock afresh from level 1 (the director starts it), its players' seats drawn
    with the buttons (TDA-07, CC-48, CC-82), each with a full stack."""

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        setup = setup_of(w)
        players = [n for n in q.entries_of(int(series)) if w.state.entry(n).status == "registered"]
        if len(players) < 2:
            raise RuleViolation(N_("Series %(series)s needs at least two players to start"), "CC-05",
                                series=int(series))
        w.record("series_started", series=int(series))
        tables = record_the_draw(w, players, setup, w.rng)
        w.row.status = Tournament.Status.RUNNING
        w.audit("tournament.series_started", series=int(series), entries=len(players), tables=len(tables))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="series_started", work=work, rng=rng)


def _reading(w: EventWrite, structure):
    setup = setup_of(w)
    return clock.clock_at(structure, list(w.state.clock_events), w.now,
                          hand_for_hand_seconds=setup.options.hand_for_hand_seconds)


def _levels_begun(w: EventWrite, structure) -> int:
    return clock.levels_begun(structure, _reading(w, structure))


def end_day(*, tournament, by, key: str, expected_version: int, floor_counts: dict[int, int] | None = None,
            rng=SYSTEM_RANDOM) -> TournamentResult:
    """The day's (or the series') end (CC-05, CC-09): once its last level is played out or its qualifiers are
    all that remain, and every table between hands (TDA-11: each plays its hand out first), every player's
    chips are bagged: counted from the stacks the tablet reported at a table that has one, by the floor
    (``floor_counts``: entry -> chips) where a table had none; a floor count given for a tablet's player
    replaces the tablet's. A day ending at the break where the structure colours up bags only once each table's
    odd chips are raced (TDA-24-A, CC-68/69; the house option ``day_end_chip_race``, "before_bagging" by default;
    "next_day": the bags keep the odd chips, raced at the redrawn tables). The clock stops; each bag gets its
    receipt's code; the counts sheet's digest is
    recorded and audited (the floor's signature in the audit log's chain)."""
    counts = {int(k): int(v) for k, v in (floor_counts or {}).items()}

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        state = w.state
        structure = structure_of(setup_of(w))
        reading = _reading(w, structure)
        why, level = day_end_due(state, structure, reading)
        if why is None:
            raise RuleViolation(N_("The day ends when its last level has been played, or when the announced "
                                   "qualifiers remain"), "CC-05")
        busy = hands_in_play(w, {t.table for t in state.tables})
        if busy:
            raise RuleViolation(N_("Table %(table)s has a hand in play: bag the chips when it ends."), "TDA-11",
                                table=min(busy))
        if setup_of(w).options.day_end_chip_race == "before_bagging":
            # TDA-24-A, CC-68/69: the colour-up scheduled at the break the day ends at is raced before the chips
            # are bagged, so that each bag (and its receipt, CC-09) holds only chips still in play
            owed = chip_race.races_due(state, w.now)
            if owed:
                raise RuleViolation(N_("Table %(table)s still races its odd chips (the colour-up at the day's end): "
                                       "race them before bagging."), "TDA-24-A", table=owed[0].table)
            # ... and a count the floor types is made of those chips (a count in a chip gone is a miscount)
            smallest = structure.denominations_at(reading.step)[0] if reading.started else None
            wrong = sorted(n for n, chips in counts.items() if smallest and chips % smallest)
            if wrong:
                raise RuleViolation(N_("Entry %(entry)s's count is not made of the chips in play (the smallest is "
                                       "%(chip)s)"), "CC-68", entry=wrong[0], chip=smallest)
        bags = []
        for t in state.tables:
            tablet = dealt_from_a_tablet(w, t.table)
            for seat, entry in t.players:
                if entry in counts:
                    chips, by_whom = counts[entry], "floor"
                elif tablet:
                    chips, by_whom = state.entry(entry).stack, "tablet"
                else:
                    raise RuleViolation(N_("Table %(table)s had no tablet: the floor counts entry %(entry)s's "
                                           "chips"), "CC-09", table=t.table, entry=entry)
                if chips < 1:
                    raise RuleViolation(N_("Entry %(entry)s bags no chips"), "CC-09", entry=entry)
                bags.append(flights.Bag(entry=entry, day=q.day, series=q.playing, table=t.table, seat=seat,
                                        chips=chips, counted_by=by_whom,
                                        receipt=flights.receipt_code(rng if rng is not SYSTEM_RANDOM else None)))
        unknown = set(counts) - {b.entry for b in bags}
        if unknown:
            raise RuleViolation(N_("Entry %(entry)s does not sit at a table of this day"), "CC-09",
                                entry=min(unknown))
        if reading.running:
            w.record("clock", kind="pause", seconds=0, step=0)
        digest = flights.counts_digest(q.day, q.playing, bags)
        w.record("day_ended", day=q.day, series=q.playing, level=level, why=why,
                 bags=[flights.bag_to_dict(b) for b in bags], digest=digest)
        w.audit("tournament.day_ended", day=q.day, series=q.playing, level=level, why=why, bags=len(bags),
                chips=sum(b.chips for b in bags), sha256=digest)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="day_ended", work=work, who="floor", rng=rng)


def start_final_stage(*, tournament, by, key: str, expected_version: int, end_level: int | None = None,
                      rng=SYSTEM_RANDOM) -> TournamentResult:
    """A day of the Final Stage begins: the first once every series has ended, at the level after the one
    qualifying ended at (CC-08), a later one at the level after the last day's; the bagged players' seats are
    drawn (CC-10: the seat drawn, the bagged stack carried), and the clock is set at that level for the director
    to start. ``end_level``: the day's last level (it then ends with bags again); None: it plays to the end.
    Registration must be closed: the prize pool is fixed before the Final Stage (CC-14)."""

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        setup = setup_of(w)
        if w.state.registration != "closed":
            raise RuleViolation(N_("Close registration (the prize pool fixed) before the Final Stage"), "CC-14")
        if w.state.tables:
            raise RuleViolation(N_("Tables are still playing: end the day first"), "CC-08")
        level = q.next_stage_level
        structure = structure_of(setup)
        step = _step_of_level(structure, level)
        if end_level is not None and int(end_level) < level:
            raise RuleViolation(N_("The day ends at level %(level)s or later"), "CC-08", level=level)
        players = [e.entry for e in w.state.entries if e.status == "bagged"]
        if len(players) < 2:
            raise RuleViolation(N_("The Final Stage needs at least two players with chips"), "CC-08")
        w.record("stage_started", day=q.day + 1, level=level, step=step,
                 end_level=int(end_level) if end_level is not None else None)
        bagged = {e.entry: e.stack for e in w.state.entries if e.status == "bagged"}
        tables, moves = seating.draw_seats(players, setup.seats_per_table, w.rng, why="redraw")
        buttons = {t.table: t.button for t in tables}
        occupied = {t.table: [s for s, _ in t.players] for t in tables}
        for move in moves:
            w.record("seated", entry=move.entry, table=move.to_table, seat=move.to_seat, chips=bagged[move.entry],
                     why="redraw", button=buttons.get(move.to_table), occupied=occupied.get(move.to_table, []),
                     from_table=None, from_seat=None, sits_out=False)
        new = clock.ClockEvent(kind="skip", at=w.now, step=step)
        clock.check_clock_event(structure, [], new, hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        w.record("clock", kind="skip", seconds=0, step=step)
        w.row.status = Tournament.Status.RUNNING
        w.audit("tournament.stage_started", day=q.day + 1, level=level, step=step, entries=len(players),
                tables=len(tables), chips=sum(bagged.values()))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="stage_started", work=work, rng=rng)


def _step_of_level(structure, level: int) -> int:
    number = 0
    for index, step in enumerate(structure.steps):
        if isinstance(step, Level):
            number += 1
            if number == level:
                return index
    raise RuleViolation(N_("The structure has no level %(level)s for the Final Stage"), "CC-08", level=level)


def check_in(*, tournament, by, key: str, expected_version: int, entry: int, receipt: str = "") -> TournamentResult:
    """CC-09: a qualifier checks in to the Final Stage with his chip-count receipt (its code typed or scanned);
    without it he plays all the same, penalised as the house sets (``missing_receipt_penalty_hands``: 0 a
    warning, else hands sat out, TDA-71). A code that is not his is refused, nothing recorded."""
    code = (receipt or "").strip().upper()

    def work(w: EventWrite) -> None:
        q = _qualifying(w)
        bag = q.bag_of(entry)
        if bag is None or not q.final_stage:
            raise RuleViolation(N_("Entry %(entry)s bagged no chips to check in with"), "CC-09", entry=entry)
        if code and code != bag.receipt:
            raise RuleViolation(N_("That receipt is not entry %(entry)s's"), "CC-09", entry=entry)
        w.record("checked_in", entry=entry, shown=bool(code), receipt=code or None)
        w.audit("tournament.checked_in", entry=entry, shown=bool(code))
        if not code:
            hands = setup_of(w).options.missing_receipt_penalty_hands
            kind = "hands" if hands else "warning"
            w.record("penalty", entry=entry, kind=kind, hands=hands, rounds=0, infraction="other",
                     reason="CC-09: no chip-count receipt at check-in")
            w.audit("tournament.penalty", entry=entry, kind=kind, hands=hands, infraction="other",
                    reason="CC-09: no chip-count receipt at check-in")

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="checked_in", work=work, who="floor")
