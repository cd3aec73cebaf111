"""The event in play: the clock (TDA-23, CC-86..88), busts and the hands the tablets report (CC-19), penalties
(TDA-71), withdrawals and disqualifications, chip counts, the colour-up (TDA-24, CC-68), the results and the
prizes paid (CC-89..93). Each a command through ``writing.write_event``."""

from __future__ import annotations

from datetime import datetime

from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import chip_race, clock, penalties, record
from tournaments.models import (
    IdCheck,
    Tournament,
    normalise_id_number,
)
from tournaments.reads.hands import tables_playing
from tournaments.services.registration import check_document
from tournaments.services.seating import record_plan
from tournaments.writing import (
    EventWrite,
    TournamentResult,
    _iso,
    between_hands,
    dealt_from_a_tablet,
    entry_at,
    entry_row,
    hand_for_hand_ends_at_one_table,
    setup_of,
    structure_of,
    write_event,
)


def clock_command(*, tournament, by, key: str, expected_version: int, kind: str, seconds: int = 0,
                  step: int = 0) -> TournamentResult:
    """start, pause, resume, adjust (seconds), skip (to step), hand_for_hand_on/off, hand_for_hand_hand, finish."""
    if kind not in clock.CLOCK_KINDS:
        raise RuleViolation(N_("Unknown clock command %(kind)s"), "TDA-23", kind=kind)

    def work(w: EventWrite) -> None:
        setup = setup_of(w)
        if kind == "hand_for_hand_on" and len(tables_playing(w.state)) <= 1:
            # issue #36: one table has no other to wait for (CC-11); on, its level's clock would only move with
            # releases nobody needs (RP-08-B)
            raise RuleViolation(N_("Hand-for-hand synchronises several tables: only one table is playing."),
                                "CC-11")
        new = clock.ClockEvent(kind=kind, at=w.now, seconds=int(seconds), step=int(step))
        check = getattr(clock, "check_clock_event", None)
        if check is not None:
            check(structure_of(setup), list(w.state.clock_events), new,
                  hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        w.record("clock", kind=kind, seconds=int(seconds), step=int(step))
        w.event = "clock"
        w.audit("tournament.clock", kind=kind, seconds=int(seconds), step=int(step))

    # the floor (or the simulator, a tablet) says each hand-for-hand hand has started; the rest is the director's
    who = "floor" if kind == "hand_for_hand_hand" else "director"
    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action=f"clock_{kind}",
                  work=work, who=who)


def _bust(w: EventWrite, *, table: int, seat: int, hand: int | None, stack_at_start: int | None) -> int:
    state = w.state
    entry = entry_at(state, table, seat)
    if stack_at_start is None and hand is not None:
        # CC-19: two or more busting in one hand at one table are ranked by their stacks at its start
        same_hand = [e for e in state.eliminations if e.table == table and e.hand == hand]
        if same_hand:
            raise RuleViolation(N_("Two players busted in hand %(hand)s at table %(table)s: enter the stacks "
                                   "each had at the start of the hand"), "CC-19", hand=hand, table=table)
    h4h = state.hand_for_hand_hands if state.hand_for_hand else None
    w.record("bust", entry=entry, table=table, hand=hand, hand_for_hand_hand=h4h, stack_at_start=stack_at_start)
    w.audit("tournament.bust", entry=entry, table=table, seat=seat, hand=hand, stack_at_start=stack_at_start)
    return entry


def record_bust(*, tournament, by, key: str, expected_version: int, table: int, seat: int, hand: int | None = None,
                stack_at_start: int | None = None, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor records a bust (table, seat; the stack at the start of the hand when two or more bust in one
    hand at one table, CC-19); the plan that follows is proposed at once."""

    def work(w: EventWrite) -> None:
        between_hands(w, table)
        if dealt_from_a_tablet(w, table):
            # its busts come from its hands (their chips accounted); a wrong one is corrected with a reason
            raise RuleViolation(N_("Table %(table)s is dealt from its tablet: its busts come from its hands. "
                                   "Correct the record, with the reason, if one is wrong."), "CC-43", table=table)
        w.entry = _bust(w, table=table, seat=seat, hand=hand, stack_at_start=stack_at_start)
        finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="bust",
                  work=work, who="floor", rng=rng)


def report_hand(*, tournament, by, key: str, expected_version: int | None, table: int, hand: int, button: int,
                small_blind_seat: int | None, big_blind_seat: int | None, stacks_at_start: dict[int, int],
                stacks_at_end: dict[int, int], busts: list[int] = (), penalised: list[int] = (),
                rng=SYSTEM_RANDOM, who: str = "floor", started_at: datetime | None = None,
                level: int | None = None) -> TournamentResult:
    """The end of one hand at one table, as the simulator and the dealers' tablets report it
    (``tournaments.dealing``, ``who="table"``: the table's dealer may): its button and blinds, each seat's
    stack at its start and end where known, and the seats that busted (CC-19: ranked by their stacks at
    the start). Chips are conserved over the seats reported at both ends. ``penalised``: the seats whose
    hands were dead for their player's penalty (TDA-71-D): each serves one hand of it. ``started_at`` and
    ``level`` (the level number the hand was dealt at, TDA-23): when the hand started and at which level,
    recorded where known (issue #36), so an inspector checks the blinds posted against the level's."""

    def work(w: EventWrite) -> None:
        state = w.state
        seated = {s: n for s, n in state.table(table).players}
        starts = {int(s): int(v) for s, v in (stacks_at_start or {}).items()}
        ends = {int(s): int(v) for s, v in (stacks_at_end or {}).items()}
        for seat in {*starts, *ends, *busts}:
            if seat not in seated:
                raise RuleViolation(N_("No one sits at table %(table)s, seat %(seat)s"), "TDA-07", table=table,
                                    seat=seat)
        if starts and set(starts) == set(ends) and sum(starts.values()) != sum(ends.values()):
            raise RuleViolation(N_("The stacks at the end of hand %(hand)s do not add up to those at its start"),
                                "CC-19", hand=hand)
        for seat in busts:
            if ends.get(seat, 0) != 0:
                raise RuleViolation(N_("Seat %(seat)s busted but ends the hand with chips"), "CC-18", seat=seat)
        players = [{"entry": n, "seat": s, "start": starts.get(s), "end": ends.get(s),
                    **({"penalty": True} if s in penalised else {})}
                   for s, n in sorted(seated.items()) if s in starts or s in ends]
        w.record("hand", table=table, hand=hand, button=button, small_blind=small_blind_seat,
                 big_blind=big_blind_seat, players=players,
                 hand_for_hand_hand=state.hand_for_hand_hands if state.hand_for_hand else None,
                 **({"started_at": _iso(started_at)} if started_at is not None else {}),
                 **({"level": int(level)} if level is not None else {}))
        # the smaller stack at the start of the hand busted first (CC-19): it ranks lower
        for seat in sorted(busts, key=lambda s: (starts.get(s, 0), s)):
            _bust(w, table=table, seat=seat, hand=hand, stack_at_start=starts.get(seat))
        w.audit("tournament.hand", table=table, hand=hand, busts=list(busts))
        if busts:
            finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="hand",
                  work=work, who=who, rng=rng)


def give_penalty(*, tournament, by, key: str, expected_version: int, entry: int, kind: str, count: int = 0,
                 infraction: str = "other", reason: str = "") -> TournamentResult:
    """A penalty (TDA-71-A, CC-45/46), given by the director or a floor supervisor: a warning, or a
    suspension of ``count`` hands or rounds (a round: one hand for each player at the offender's table now,
    offender included), which the record keeps as hands. A dealt table kills the player's hands until they
    are served (TDA-71-D); one given during a hand is served from the next (TDA-68). A disqualification is
    ``disqualify``'s (CC-47). Audited."""
    reason = (reason or "").strip()[:200]
    if kind != "warning" and not reason and infraction == "other":
        raise RuleViolation(N_("Say what the player did."), "CC-39")

    def work(w: EventWrite) -> None:
        state = w.state
        e = state.entry(entry)
        if e.status not in record.IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-71-A", entry=entry)
        at_table = len(state.table(e.table).players) if e.table is not None else 0
        hands = penalties.verify_penalty(kind, count, infraction, players_at_table=at_table,
                                         max_rounds=state.setup.options.max_penalty_rounds)
        w.record("penalty", entry=entry, kind=kind, hands=hands, rounds=count if kind == "rounds" else 0,
                 infraction=infraction, reason=reason)
        w.audit("tournament.penalty", entry=entry, kind=kind, hands=hands, infraction=infraction, reason=reason)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="penalty",
                  work=work, who="floor")


def end_penalty(*, tournament, by, key: str, expected_version: int, entry: int, reason: str) -> TournamentResult:
    """The director (or the floor for him) ends an entry's suspension before its hands are served (CC-46:
    the player sits out "until the TD ends the penalty"): every penalty of the entry still in force ends.
    Audited."""
    reason = (reason or "").strip()[:200]
    if not reason:
        raise RuleViolation(N_("Say why the penalty ends."), "CC-46")

    def work(w: EventWrite) -> None:
        in_force = [p for p in w.state.penalties if p.entry == entry and p.in_force]
        if not in_force:
            raise RuleViolation(N_("Entry %(entry)s is serving no penalty."), "CC-46", entry=entry)
        for p in in_force:
            w.record("penalty_ended", entry=entry, penalty=p.seq, reason=reason)
        w.audit("tournament.penalty_ended", entry=entry, penalties=[p.seq for p in in_force], reason=reason)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="penalty_ended",
                  work=work, who="floor")


def finish_or_plan(w: EventWrite) -> None:
    hand_for_hand_ends_at_one_table(w)
    if w.state.players_left <= 1:
        return  # the director records the results
    record_plan(w)


def withdraw(*, tournament, by, key: str, expected_version: int, entry: int, reason: str = "",
             rng=SYSTEM_RANDOM) -> TournamentResult:
    """A voluntary withdrawal (CC-34): all the player's chips removed; ranked as if eliminated."""

    def work(w: EventWrite) -> None:
        e = w.state.entry(entry)
        between_hands(w, e.table)
        w.record("withdrawal", entry=entry, chips_removed=e.stack)
        w.audit("tournament.withdrawal", entry=entry, chips_removed=e.stack, reason=reason)
        finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="withdrawal",
                  work=work, rng=rng)


def disqualify(*, tournament, by, key: str, expected_version: int, entry: int, reason: str,
               rng=SYSTEM_RANDOM) -> TournamentResult:
    """A disqualification (CC-47): the chips leave the tournament; the prize share is redistributed."""
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the player is disqualified"), "CC-47")

    def work(w: EventWrite) -> None:
        e = w.state.entry(entry)
        between_hands(w, e.table)
        w.record("disqualification", entry=entry, chips_removed=e.stack, reason=reason)
        w.audit("tournament.disqualification", entry=entry, chips_removed=e.stack, reason=reason)
        finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="disqualification", work=work, rng=rng)


def enter_chip_count(*, tournament, by, key: str, expected_version: int, counts: dict[int, int]) -> TournamentResult:
    """Chip counts (at breaks): entry -> chips. Not at a table whose dealt hand is in play (TDA-11)."""

    def work(w: EventWrite) -> None:
        for entry, chips in sorted(counts.items()):
            if int(chips) < 0:
                raise RuleViolation(N_("A chip count cannot be negative"), "CC-68")
            if w.state.entry(int(entry)).status not in record.IN_PLAY:
                raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "CC-18", entry=entry)
        # TDA-11: recounted between hands; the hand's end would overwrite the count
        between_hands(w, *{w.state.entry(int(entry)).table for entry in counts})
        for entry, chips in sorted(counts.items()):
            w.record("chip_count", entry=int(entry), chips=int(chips))
        w.audit("tournament.chip_count", entries=len(counts))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="chip_count",
                  work=work, who="floor")


def hold_stack(*, tournament, by, key: str, expected_version: int, entry: int, held: bool = True) -> TournamentResult:
    """CC-31: an absent player's stack is kept until he arrives (revocable by the director)."""

    def work(w: EventWrite) -> None:
        w.state.entry(entry)
        w.record("stack_held", entry=entry, held=bool(held))
        w.audit("tournament.stack_held", entry=entry, held=bool(held))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="hold_stack",
                  work=work)


def remove_absent_stacks(*, tournament, by, key: str, expected_version: int, absent: list[int],
                         rng=SYSTEM_RANDOM) -> TournamentResult:
    """CC-30: the stacks of players still absent at the end of the first level are removed (those held
    under CC-31 are kept); each removal takes the player out, ranked in the order of removal."""

    def work(w: EventWrite) -> None:
        for entry in absent:
            e = w.state.entry(entry)
            if e.held:
                raise RuleViolation(N_("Entry %(entry)s's stack is held (CC-31)"), "CC-31", entry=entry)
            if e.status not in record.IN_PLAY:
                raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "CC-30", entry=entry)
            between_hands(w, e.table)
            w.record("chips_removed", entry=entry, chips=e.stack, reason="absent")
        w.audit("tournament.absent_stacks_removed", entries=list(absent))
        finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="absent_removed", work=work, rng=rng)


def _record_race(w: EventWrite, table: int, odd: tuple, *, removed: int, into: int, smallest_left: int, rng,
                 computed: bool = False) -> None:
    """The race run and recorded at ``table`` (TDA-24-A): ``odd`` is (seat, entry, chips of ``removed``);
    its cards are drawn from ``rng`` (the command's, for a reproducible race)."""
    stacks = {n: w.state.entry(n).stack for _, n in w.state.table(table).players}
    result = chip_race.race(odd, stacks, removed=removed, into=into, smallest_left=smallest_left, rng=rng)
    w.record("colour_up", table=table, removed=removed, into=into, odd_chips=[list(o) for o in odd],
             cards=[[n, list(c)] for n, c in result.cards], won=list(result.won), rescued=list(result.rescued),
             stacks=[list(s) for s in result.stacks])
    w.audit("tournament.colour_up", table=table, removed=removed, into=into, won=list(result.won),
            **({"from_stacks": True} if computed else {}))


def colour_up(*, tournament, by, key: str, expected_version: int, table: int, removed: int, into: int,
              smallest_left: int, odd_chips: dict[int, int], rng=SYSTEM_RANDOM) -> TournamentResult:
    """Colour-up and the chip race at one table (TDA-24, CC-68/69): ``odd_chips`` seat -> chips of
    ``removed`` left over; the race's cards and result are recorded."""

    def work(w: EventWrite) -> None:
        t = w.state.table(table)
        between_hands(w, table)
        seated = dict(t.players)
        odd = tuple((int(s), seated[int(s)], int(c)) for s, c in sorted(odd_chips.items()) if int(s) in seated)
        if len(odd) != len(odd_chips):
            raise RuleViolation(N_("Odd chips entered for an empty seat at table %(table)s"), "TDA-24", table=table)
        _record_race(w, table, odd, removed=removed, into=into, smallest_left=smallest_left, rng=rng)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="colour_up",
                  work=work, who="floor")


def race_odd_chips(*, tournament, by, key: str, expected_version: int | None, table: int, rng=SYSTEM_RANDOM,
                   who: str = "floor") -> TournamentResult:
    """Issue #36: the colour-up at one table in one tap (TDA-24-A, CC-68/69), the odd chips computed from the
    stacks the record holds (``chip_race.races_due``) instead of typed: the same ``colour_up`` event.
    ``who="table"``: the table's dealer runs it from the tablet (``expected_version`` None: the race is
    computed from the stacks under the event's lock, whatever version the tablet showed)."""

    def work(w: EventWrite) -> None:
        w.state.table(table)
        between_hands(w, table)
        due = next((d for d in chip_race.races_due(w.state, w.now, tables=(table,)) if d.table == table), None)
        if due is None:
            raise RuleViolation(N_("Table %(table)s has no odd chips to race."), "TDA-24-A", table=table)
        _record_race(w, table, due.odd_chips, removed=due.removed, into=due.into, smallest_left=due.smallest_left,
                     rng=w.rng, computed=True)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="colour_up",
                  work=work, who=who, rng=rng)


def record_results(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    """The final ranking and each place's prize, recomputed from the record and recorded (``results``)."""

    def work(w: EventWrite) -> None:
        state = w.state
        if state.prize_pool is None:
            raise RuleViolation(N_("Registration must close (the prize pool fixed) before the results"), "CC-14")
        results = record.compute_results(state)
        w.record("results", places=record.results_to_dicts(results))
        if state.players_left <= 1:
            _the_clock_stops(w)
            w.record("finished")
            w.row.status = Tournament.Status.FINISHED
        w.audit("tournament.results", places=len(results))

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="results",
                  work=work)


def _the_clock_stops(w: EventWrite) -> None:
    """Issue #36: the event's end stops its clock for good (the clock's ``finish``, TDA-23): the console, the
    room's display and the phones stop counting down a level nobody plays. Recorded and audited; nothing when
    the clock never started or has finished already."""
    setup, events = w.state.setup, list(w.state.clock_events)
    if setup is None or not any(e.kind == "start" for e in events) or any(e.kind == "finish" for e in events):
        return
    finish = clock.ClockEvent(kind="finish", at=w.now, seconds=0, step=0)
    clock.check_clock_event(structure_of(setup), events, finish,
                            hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    w.record("clock", kind="finish", seconds=0, step=0)
    w.audit("tournament.clock", kind="finish", seconds=0, step=0, why="results")


def pay_prize(*, tournament, by, key: str, expected_version: int, entry: int, id_type: str,
              id_number: str) -> TournamentResult:
    """Pay an entry its prize from the recorded results, after checking its player's ID (CC-15)."""

    def work(w: EventWrite) -> None:
        state = w.state
        prize = next((r.prize(entry) for r in state.results if entry in r.entries), 0)
        if prize <= 0:
            raise RuleViolation(N_("Entry %(entry)s has no prize to pay"), "CC-15", entry=entry)
        if state.entry(entry).paid:
            raise RuleViolation(N_("Entry %(entry)s's prize is paid already"), "CC-15", entry=entry)
        row = entry_row(w, entry)
        check_document(row, id_type, id_number)
        IdCheck.objects.create(entry=row, checkpoint=IdCheck.Checkpoint.PAYOUT, id_type=id_type,
                               id_number=normalise_id_number(id_number), by=w.by, at=w.now)
        w.record("id_checked", entry=entry, checkpoint="payout")
        w.record("prize_paid", entry=entry, amount=prize)
        w.audit("tournament.prize_paid", obj=row, entry=entry, amount=prize)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="prize_paid",
                  work=work)
