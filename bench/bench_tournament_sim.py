"""A simulated tournament through the services, and the balancing decision at 1,100 tables (issue #14).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/bench_tournament_sim.py [--entries 10000] [--play 1000] [--decisions 20]

Two parts, both through ``tournaments.services`` on simulated time (``casino.writes.simulated_time``),
in the database named by DATABASE_URL (migrated first; it leaves its tournaments there):

1. The decision at full size: ``--entries`` players registered at the desk one write each, the draw
   (``start_tournament``: 10,000 entries at 9 seats are 1,112 tables), then ``--decisions`` times a
   hand at a random table busts one player (``report_hand``: the write proposes the plan) and the
   floor confirms the plan (``confirm_plan``). Timed: each registration, the draw, each bust's write,
   ``seating.plan`` alone on the same tables, and each confirmation; the slowest and the median.
2. A whole event of ``--play`` entries (``tournaments.simulation.simulate_tournament``, the command's
   engine): wall time, hands, writes. ``--play 10000`` plays the whole 10,000-entry event (long).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _bar(total: int, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, file=sys.stderr)


def decisions_at_size(entries: int, decisions: int, seed: int) -> dict:
    from casino.rules.tournament import seating
    from casino.writes import simulated_time
    from tournaments import services
    from tournaments.reads import event as event_reads
    from tournaments.simulation import START, _staff

    rng = random.Random(seed)
    director = _staff("sim-director", "tournament_director")
    floor = _staff("sim-floor", "tournament_floor")
    now = START
    n = 0
    with simulated_time(now):
        t, done = services.create_tournament(by=director, key=f"bench-{seed}-0", name=f"Bench {entries}",
                                             starts_at=START, buy_in=100, starting_stack=10_000, seats_per_table=9)
    version = done.version

    def act(fn, by, **kwargs):
        nonlocal version, n
        n += 1
        began = time.perf_counter()
        with simulated_time(now):
            result = fn(tournament=t, by=by, key=f"bench-{n}", expected_version=version, **kwargs)
        version = result.version
        return result, time.perf_counter() - began

    act(services.open_registration, director)
    registering = []
    bar = _bar(entries, "registrations")
    for i in range(entries):
        _r, took = act(services.register, floor, name=f"Bench player {i}", id_type="dni",
                       id_number=f"{80_000_000 + i}", birth_date=date(1980, 1, 1 + i % 28))
        registering.append(took)
        if bar:
            bar.update()
    if bar:
        bar.close()
    act(services.close_registration, director)
    _r, draw = act(services.start_tournament, director, rng=rng)
    act(services.clock_command, director, kind="start")

    def state():
        t.version = version
        return event_reads.tournament_state(t)

    tables = len(state().tables)
    busts, plans, confirms = [], [], []
    for _ in range(decisions):
        now += timedelta(seconds=60)
        s = state()
        table = rng.choice([x for x in s.tables if x.count >= 2])
        hand = seating.next_hand(table)
        seats = [seat for seat, _ in table.players]
        loser = rng.choice(seats)
        winner = rng.choice([seat for seat in seats if seat != loser])
        starts = {seat: s.entry(e).stack for seat, e in table.players}
        ends = dict(starts)
        ends[winner] += ends[loser]
        ends[loser] = 0
        _r, took = act(services.report_hand, floor, table=table.table, hand=1, button=hand.button,
                       small_blind_seat=hand.small_blind_position, big_blind_seat=hand.big_blind,
                       stacks_at_start=starts, stacks_at_end=ends, busts=[loser], rng=rng)
        busts.append(took)
        after = state()
        began = time.perf_counter()
        seating.plan(after.tables, options=after.setup.options, break_order=after.setup.break_order,
                     rng=random.Random(seed))
        plans.append(time.perf_counter() - began)
        while state().pending_plan is not None:
            _r, took = act(services.confirm_plan, floor, proposed=state().pending_plan[0])
            confirms.append(took)
            act(services.propose_plan, floor, rng=rng)
    return {"entries": entries, "tables": tables, "registration_median_ms": statistics.median(registering) * 1000,
            "registration_last_ms": registering[-1] * 1000, "registrations_s": sum(registering),
            "draw_s": draw, "bust_write_ms": (statistics.median(busts) * 1000, max(busts) * 1000),
            "plan_alone_ms": (statistics.median(plans) * 1000, max(plans) * 1000),
            "confirm_ms": (statistics.median(confirms) * 1000, max(confirms) * 1000) if confirms else None}


def whole_event(entries: int, seed: int) -> dict:
    from tournaments.simulation import simulate_tournament

    bar = _bar(entries - 1, "players out")
    began = time.perf_counter()
    report = simulate_tournament(entries=entries, seed=seed, seats=9, progress=bar.update if bar else None)
    took = time.perf_counter() - began
    if bar:
        bar.close()
    return {"entries": entries, "wall_s": took, "hands": report.hands, "writes": report.writes,
            "plans": report.plans, "colour_ups": report.colour_ups, "ms_per_write": took / report.writes * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=10_000, help="entries for the decision at size (0: skip)")
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--play", type=int, default=1_000, help="entries of the whole event played (0: skip)")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    setup_django()
    if args.entries:
        print("decision at size:", decisions_at_size(args.entries, args.decisions, args.seed), flush=True)
    if args.play:
        print("whole event:", whole_event(args.play, args.seed), flush=True)


if __name__ == "__main__":
    main()
