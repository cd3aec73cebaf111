"""A whole tournament simulated through the real services (issue #14: "A whole tournament, simulated").

``simulate_tournament`` registers the players at the desk, closes registration, draws the seats, runs
the clock on SIMULATED time (``casino.writes.simulated_time``: every write records the simulated
instant, so the same seed gives the same record, ``at`` included), plays simulated hands at every table
(``casino.rules.tournament.hand_simulator``) and reports each one through ``play.report_hand``, as
a tablet would; it confirms every plan the services propose (balancing moves, table breaks, halts, the
redraw at two tables and the final table) with the floor's one tap, asks for a fresh plan after each
confirmation (so a halted table resumes once its moves are made), colours up and races the chips at
each table at the breaks that remove a denomination (``play.colour_up``), records the results and
pays every prize after checking the winner's ID. No shortcut writes: only the services the screens use.

One round: each table still playing deals one hand; a round takes ``HAND_SECONDS`` of simulated time.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from casino.roles import ensure_role_groups
from casino.rules.errors import RuleViolation
from casino.rules.tournament import clock, hand_simulator, prizes, record
from casino.rules.tournament.structure import Break, Structure
from casino.writes import simulated_time
from tournaments.dealt_simulation import play_dealt_hand
from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing, play, registration, seating, setup
from tournaments.services import flights as flight_services

#: When a simulated event starts, and how long one round of hands (one hand at every table) takes.
START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
HAND_SECONDS = 120


@dataclass
class SimulationReport:
    tournament: Tournament
    hands: int = 0
    plans: int = 0
    colour_ups: int = 0
    writes: int = 0
    ended_at: datetime = START
    #: (tables in play, seconds to propose the plan) of the slowest proposals seen (the bench reads them)
    plan_seconds: list[tuple[int, float]] = field(default_factory=list)
    #: the TableHand ids played hand by hand, in order (``hand_by_hand``)
    dealt_hands: list[int] = field(default_factory=list)
    #: the penalties the director gave (``penalty_chance``), each a suspension the tablets served
    penalties: int = 0


def _staff(username: str, role: str):
    ensure_role_groups()
    user, created = get_user_model().objects.get_or_create(username=username, defaults={"first_name": username})
    if created:
        user.set_unusable_password()
        user.save()
    user.groups.add(Group.objects.get(name=role))
    return user


def simulate_tournament(*, entries: int, seed: int, seats: int = 9, ante_mode: str = "button",
                        final_table_size: int = 10,
                        buy_in: int = 100, starting_stack: int = 10_000, all_in_chance: float | None = None,
                        progress: Callable[[int], None] | None = None,
                        on_phase: Callable[[str], None] | None = None,
                        hand_by_hand: bool = False, penalty_chance: float = 0.0,
                        payout_table=(), flights: int = 0, days: int = 2, series_end_level: int = 4,
                        qualifiers: int | None = None, reentry_chance: float = 0.25,
                        day_end_chip_race: str = "before_bagging") -> SimulationReport:
    """Play a whole event of ``entries`` players with ``random.Random(seed)``; returns what it did.

    ``progress(n)`` is told of each ``n`` players out; ``on_phase(name)`` of each phase (registration,
    start, play, results). ``hand_by_hand``: every hand is dealt through the dealers' tablets' services
    with random legal actions (``tournaments.dealt_simulation``) instead of a drawn result; before each such
    hand, with ``penalty_chance``, the director suspends one of the table's players for 1 to 3 hands (TDA-71),
    which the tablet serves by itself (drawn from a generator of its own: the hands' draws stay the same).
    ``payout_table``: the house's own (as ``services.create_tournament`` takes it), e.g. to pay enough places
    for the bubble to come at two tables in a small event.

    ``flights`` (2 or more): the event plays as qualifying series (CC-05..CC-10, ``_flights``): the players
    drawn into the series, each series played from level 1 to ``series_end_level`` or until ``qualifiers``
    remain (by default a quarter of its players), its chips bagged; a player busted in a series re-enters a later
    one with ``reentry_chance``; then ``days`` - 1 days of the Final Stage, each a redraw of the bagged players
    with their stacks, the last played to the end. A day ending at the break where the structure colours
    up races each table's odd chips before bagging, or at the redrawn tables as the next day starts, as the house
    option ``day_end_chip_race`` says (TDA-24-A, CC-68/69)."""
    if all_in_chance is None:
        all_in_chance = 0.05 if hand_by_hand else 0.15
    if entries < 2:
        raise ValueError("a simulated tournament needs at least two entries")
    rng = random.Random(seed)
    penalty_rng = random.Random(f"penalties-{seed}")
    director = _staff("sim-director", "tournament_director")
    floor = _staff("sim-floor", "tournament_floor")
    dealer = _staff("sim-dealer", "dealer") if hand_by_hand else None
    keys = itertools.count(1)
    deal_keys = itertools.count(1)
    now = START
    phase = on_phase or (lambda _name: None)

    with simulated_time(now):
        tournament, result = setup.create_tournament(
            by=director, key=f"sim-{seed}-0", name=f"Simulated event {entries}/{seed}", starts_at=START,
            buy_in=buy_in, fee=0, starting_stack=starting_stack, seats_per_table=seats,
            options={"ante_mode": ante_mode, "final_table_size": final_table_size,
                     **({"reentry_allowed": True, "day_end_chip_race": day_end_chip_race} if flights else {})},
            payout_table=payout_table)
    report = SimulationReport(tournament=tournament, writes=1)
    version = result.version

    def act(fn, by, **kwargs):
        nonlocal version
        with simulated_time(now):
            done = fn(tournament=tournament, by=by, key=f"sim-{next(keys)}", expected_version=version, **kwargs)
        version = done.version
        report.writes += 1
        return done

    phase("registration")
    act(registration.open_registration, director)
    if flights:
        per_series = entries // flights
        act(flight_services.set_series, director, series=flights, end_level=series_end_level,
            qualifiers=qualifiers or max(2, per_series // 4))
    documents: dict[int, tuple[str, str]] = {}
    for n in range(1, entries + 1):
        id_number = f"{90_000_000 + n}"
        done = act(registration.register, floor, name=f"Simulated player {n}", id_type="dni", id_number=id_number,
                   birth_date=date(1970 + n % 30, 1 + n % 12, 1 + n % 28))
        documents[done.entry] = ("dni", id_number)
    if not flights:
        act(registration.close_registration, director)
        phase("start")
        act(seating.start_tournament, director, rng=rng)
        act(play.clock_command, director, kind="start")

    def state():
        tournament.version = version
        return event_reads.tournament_state(tournament)

    structure = Structure.from_dict(state().setup.structure)
    options = state().setup.options
    paid = len(record.payout_shares(state().setup, entries) or prizes.default_payout_shares(entries))
    coloured: set[int] = set()
    hands_at: dict[int, int] = {}
    out = 0

    def settle_plans() -> None:
        """Confirm every plan proposed, then ask again: a table halted for the moves resumes (C-18)."""
        while True:
            pending = state().pending_plan
            if pending is None:
                return
            act(seating.confirm_plan, floor, proposed=pending[0])
            report.plans += 1
            act(seating.propose_plan, floor, rng=rng)

    def day_over() -> bool:
        """CC-05: a series (or a day of the Final Stage) stops at its last level or at its qualifiers."""
        s = state()
        if s.qualifying is None:
            return False
        reading = clock.clock_at(structure, list(s.clock_events), now,
                                 hand_for_hand_seconds=options.hand_for_hand_seconds)
        return flight_services.day_end_due(s, structure, reading)[0] is not None

    def play_on() -> None:
        coloured.clear()  # a day's clock starts afresh: its breaks colour up again
        while _playing(state()) > 1 and not day_over():
            settle_plans()
            if day_over():
                break
            play_round()

    def play_round() -> None:
        nonlocal now, out, version
        s = state()
        reading = clock.clock_at(structure, list(s.clock_events), now,
                                 hand_for_hand_seconds=options.hand_for_hand_seconds)
        step = structure.steps[reading.step]
        if isinstance(step, Break):
            if step.removes and reading.step not in coloured:
                coloured.add(reading.step)
                # TDA-24, CC-68/69: at the break that removes a denomination, the floor races each table's odd
                # chips in one tap, as the console offers it (issue #36)
                _race_every_table(act, floor, state, rng, report)
            now += timedelta(seconds=max(reading.seconds_left, 1))
            return
        qualifying = s.qualifying is not None and not s.qualifying.final_stage
        if (_hand_for_hand_due(s, paid) and not qualifying) != s.hand_for_hand:
            # RP-08-A: hand-for-hand as the bubble approaches (as soon as one bust at each table could take
            # the event past it) while more than one table plays; off once the bubble bursts
            act(play.clock_command, director, kind="hand_for_hand_on" if not s.hand_for_hand else
                "hand_for_hand_off")
            s = state()
        if s.hand_for_hand:
            # the synchronised deal: every table starts its hand together (CC-11); the level loses a hand's time
            act(play.clock_command, floor, kind="hand_for_hand_hand")
            s = state()
        level = clock.level_for_hand(structure, list(s.clock_events), now,
                                     hand_for_hand_seconds=options.hand_for_hand_seconds)
        for number in [t.table for t in s.tables]:
            s = state()
            table = s.table_in_play(number)
            if table is None or table.table in s.halted or table.count < 2:
                continue
            stacks = {e: s.entry(e).stack for _, e in table.players}
            hands_at[number] = hands_at.get(number, 0) + 1
            if hand_by_hand and penalty_rng.random() < penalty_chance:
                act(play.give_penalty, director, entry=penalty_rng.choice(sorted(stacks)), kind="hands",
                    count=penalty_rng.randint(1, 3), infraction="delay")
                report.penalties += 1
            if hand_by_hand:
                # the tablet's writes, one per tap; the hand's end is reported into the event by them
                with simulated_time(now):
                    dealt_table = hand_reads.dealt_table(tournament, number)
                    if dealt_table.dealer_id != dealer.pk:  # the floor puts the dealer on duty there first
                        dealing.assign_dealer(table=dealt_table, by=director, key=f"sim-deal-{next(deal_keys)}",
                                              expected_version=dealt_table.version, dealer=dealer)
                        dealt_table.refresh_from_db()
                    dealt = play_dealt_hand(dealt_table, dealer, rng, keys=deal_keys, all_in_chance=all_in_chance,
                                            director=director)
                tournament.refresh_from_db()
                version = tournament.version
                report.writes += dealt.actions.count() + 1
                report.dealt_hands.append(dealt.pk)
                busted = [seat for seat, chips in hand_reads.hand_state(dealt).stacks.items() if chips == 0]
            else:
                # C-03, CC-53, CC-57, TDA-10: a player moved onto the button or between the button and the
                # small blind sits this hand out, as at a dealt table (``services.dealing``)
                hand = hand_simulator.play_hand(table, stacks, level, ante_mode=options.ante_mode, rng=rng,
                                                hand=hands_at[number], all_in_chance=all_in_chance,
                                                ante_halve_at_or_below=options.ante_halve_at_or_below,
                                                sitting_out=s.sitting_out_seats(number))
                if hand is None:  # the dealt tables refuse such a deal too (CC-77): nothing the simulator can play
                    raise RuntimeError(f"table {number}: fewer than two players to deal in, the others sitting out")
                act(play.report_hand, floor, table=number, hand=hand.hand, button=hand.button,
                    small_blind_seat=hand.small_blind_position, big_blind_seat=hand.big_blind,
                    stacks_at_start=hand.stacks_at_start, stacks_at_end=hand.stacks_at_end,
                    busts=list(hand.busted), rng=rng, started_at=now, level=reading.level_number)
                busted = list(hand.busted)
            report.hands += 1
            if busted:
                out += len(busted)
                if progress:
                    progress(len(busted))
                settle_plans()
                if _playing(state()) <= 1 or day_over():
                    break
        now += timedelta(seconds=HAND_SECONDS)

    phase("play")
    if flights:
        _flights(act, director, floor, state, play_on, documents, rng=rng, flights=flights, days=days,
                 series_end_level=series_end_level, reentry_chance=reentry_chance, tablets=hand_by_hand,
                 report=report)
    else:
        play_on()

    phase("results")
    if state().hand_for_hand:
        act(play.clock_command, director, kind="hand_for_hand_off")
    act(play.clock_command, director, kind="finish")
    act(play.record_results, director)
    for place in state().results:
        for entry in place.entries:
            if place.prize(entry) > 0:
                id_type, id_number = documents[entry]
                act(play.pay_prize, director, entry=entry, id_type=id_type, id_number=id_number)
    report.ended_at = now
    tournament.refresh_from_db()
    return report


def _playing(state) -> int:
    """The players the day plays down: those seated in an event with series (the others wait for their series
    or have bagged), else every player still in."""
    if state.qualifying is None:
        return state.players_left
    return sum(1 for e in state.entries if e.status == "seated")


def _flights(act, director, floor, state, play_on, documents, *, rng, flights: int, days: int,
             series_end_level: int, reentry_chance: float, tablets: bool, report) -> None:
    """The qualifying series, one after the other, then the Final Stage's days (CC-05..CC-10), through the
    services the director's and the floor's screens use."""
    act(flight_services.draw_series, director, rng=rng)
    for series in range(1, flights + 1):
        act(flight_services.start_series, director, series=series, rng=rng)
        act(play.clock_command, director, kind="start")
        play_on()
        _bag(act, floor, state, rng, tablets=tablets, report=report)
        if series < flights and reentry_chance:
            # a player busted in this series re-enters a later one (the house allows re-entry): registered at the
            # desk with the same document, then drawn into a series still to play (CC-06)
            busted = [e.entry for e in state().entries if e.status == "busted"
                      and state().qualifying.series_of(e.entry) == series]
            again = [n for n in busted if rng.random() < reentry_chance]
            for number in again:
                id_type, id_number = documents[number]
                done = act(registration.register, floor, name=f"Simulated player {number}", id_type=id_type,
                           id_number=id_number, birth_date=date(1980, 1, 1))
                if done.entry is not None:
                    documents[done.entry] = (id_type, id_number)
            if again:
                act(flight_services.draw_series, director, rng=rng)
    act(registration.close_registration, director)
    for day in range(2, max(days, 2) + 1):
        last_day = day == max(days, 2)
        start = state().qualifying.next_stage_level
        act(flight_services.start_final_stage, director, end_level=None if last_day else start + 3, rng=rng)
        for e in state().entries:
            if e.status == "seated":
                # CC-09: most show their receipt; one in ten forgot it and is penalised as the house says
                bag = state().qualifying.bag_of(e.entry)
                act(flight_services.check_in, floor, entry=e.entry,
                    receipt="" if rng.random() < 0.1 else bag.receipt)
        act(play.clock_command, director, kind="start")
        # TDA-24-A: where the house races a day's-end colour-up at the next day's tables ("next_day"), a chip the
        # skipped break removed is raced off at each new table before its first hand, once the clock runs (the
        # chips in play are the running level's)
        _race_every_table(act, floor, state, rng, report)
        play_on()
        if not last_day:
            _bag(act, floor, state, rng, tablets=tablets, report=report)


def _race_every_table(act, floor, state, rng, report) -> None:
    """The floor races each table's odd chips (TDA-24-A), where a colour-up left any: a table with nothing to
    race refuses (TDA-24-A) and is passed."""
    for number in [t.table for t in state().tables]:
        try:
            act(play.race_odd_chips, floor, table=number, rng=rng)
        except RuleViolation as refused:
            if refused.clause != "TDA-24-A":
                raise
            continue
        report.colour_ups += 1


def _bag(act, floor, state, rng, *, tablets: bool, report) -> None:
    """The day's end: the floor bags each table's chips. A tablet's stacks are its counts; at a table without
    one the floor types them (here the stacks the simulated hands left, as the floor counts them). A day that
    ends at the break where the structure colours up races each table's odd chips first, where the house races
    them before bagging (``day_end_chip_race``, TDA-24-A)."""
    if state().setup.options.day_end_chip_race == "before_bagging":
        _race_every_table(act, floor, state, rng, report)
    s = state()
    seated = {e.entry: e.stack for e in s.entries if e.status == "seated"}
    counts: dict[int, int] = {} if tablets else dict(seated)
    while True:
        try:
            act(flight_services.end_day, floor, floor_counts=counts, rng=rng)
            return
        except RuleViolation as refused:
            table = refused.params.get("table") if refused.clause == "CC-09" else None
            if table is None or not tablets:
                raise
            # a table that dealt no hand from its tablet today: the floor counts it
            counts.update({n: seated[n] for _seat, n in s.table(int(table)).players})


def _hand_for_hand_due(state, paid: int) -> bool:
    """RP-08-A: the event goes hand-for-hand as the bubble approaches, not only at it. A round deals a hand at
    every table together, and one bust at each table takes the players left down by as many as there are
    tables: from the places paid plus the tables playing, a round could pass the bubble (issue #38 item 15),
    and the hand-for-hand hands make its busts at different tables share their places (CC-21). Only while
    more than one table plays (CC-11: one table has none to wait for); it stays on until the bubble bursts
    (the places paid or fewer left), however many tables break meanwhile."""
    playing = [t for t in state.tables if t.count >= 2]
    if len(playing) < 2 or state.players_left <= paid:
        return False
    return state.hand_for_hand or state.players_left <= paid + len(playing)
