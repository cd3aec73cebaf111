"""What one write into a big event costs, by the field's size (issue #37): plain hands' ends and busts.

    DATABASE_URL=... REDIS_URL=... DEBUG=1 .venv/bin/python bench/profile_event_write.py --tournament PK \\
        [--hands 30] [--busts 10] [--profile]

Runs on an event already in play in the database (``bench/bench_tournament_sim.py`` leaves its "Bench 1000"
and "Bench 10000" there), through ``tournaments.services.play.report_hand`` on simulated time, as the
floor: ``--hands`` plain hands' ends (chips moved between two players of a random table, nobody out),
then ``--busts`` hands that bust one player (the write proposes the plan; the floor confirms each plan).
For each kind: the median wall time, the median CPU time of this process (what the field's size costs in
Python, apart from waiting on a shared PostgreSQL), the queries, and for the plain hands the time from the
replay taken under the event's lock to the commit (a simple timing around ``writing._replayer_for``; the
lock's own measurement is ``casino.writes``'s). The first two writes are left out: a new process replays
the record once. ``--profile``: cProfile of the plain hands, the 30 costliest functions by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tournament", type=int, required=True, help="the event's id (in play)")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--busts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from casino.rules.tournament import seating
    from casino.writes import simulated_time
    from tournaments import services, writing
    from tournaments.models import Tournament
    from tournaments.reads import event as event_reads
    from tournaments.simulation import START, _staff

    t = Tournament.objects.get(pk=args.tournament)
    floor = _staff("sim-floor", "tournament_floor")
    rng = random.Random(args.seed)
    run = f"{time.time():.0f}"
    holds: list[float] = []
    replayer_for = writing._replayer_for

    def timed_replayer(row):
        taken = time.perf_counter()
        transaction.on_commit(lambda: holds.append(time.perf_counter() - taken))
        return replayer_for(row)

    writing._replayer_for = timed_replayer
    profile = cProfile.Profile()
    n = 0

    def timed(fn, profiled=False, **kwargs) -> tuple[float, float, int]:
        nonlocal n
        n += 1
        t.refresh_from_db()
        wall, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as queries, simulated_time(START):
            if profiled:
                profile.enable()
            fn(tournament=t, by=floor, key=f"profile-{run}-{n}", expected_version=t.version, **kwargs)
            if profiled:
                profile.disable()
        return time.perf_counter() - wall, time.process_time() - cpu, len(queries.captured_queries)

    def state():
        t.refresh_from_db()
        return event_reads.tournament_state(t)

    def a_hand(busts: bool) -> dict:
        s = state()
        table = rng.choice([x for x in s.tables if x.count >= 3 and x.table not in s.halted])
        hand = seating.next_hand(table)
        a, b = rng.sample([seat for seat, _ in table.players], 2)
        starts = {seat: s.entry(e).stack for seat, e in table.players}
        ends = dict(starts)
        moved = ends[a] if busts else min(100, ends[a] - 1)
        ends[a] -= moved
        ends[b] += moved
        return dict(table=table.table, hand=100_000 + n, button=hand.button,
                    small_blind_seat=hand.small_blind_position, big_blind_seat=hand.big_blind,
                    stacks_at_start=starts, stacks_at_end=ends, busts=[a] if busts else [], rng=rng)

    plain = [timed(services.report_hand, profiled=args.profile and i >= 2, **a_hand(False))
             for i in range(args.hands)]
    plain_holds = holds[2:]
    busts, confirms = [], []
    for _ in range(args.busts):
        busts.append(timed(services.report_hand, **a_hand(True)))
        while state().pending_plan is not None:
            confirms.append(timed(services.confirm_plan, proposed=state().pending_plan[0]))
            timed(services.propose_plan, rng=rng)

    def medians(name: str, rows: list[tuple[float, float, int]]) -> str:
        if not rows:
            return f"{name}: none"
        return (f"{name}: {len(rows)}, wall {statistics.median(r[0] for r in rows) * 1000:.1f} ms, "
                f"CPU {statistics.median(r[1] for r in rows) * 1000:.1f} ms, "
                f"{statistics.median(r[2] for r in rows):.0f} queries")

    s = state()
    print(f"event {t.pk}: {len(s.entries)} entries, {s.players_left} in, {len(s.tables)} tables, "
          f"{len(event_reads.tournament_record(t))} events")
    print(medians("plain hands", plain[2:]))
    if plain_holds:
        print(f"  lock taken to commit: median {statistics.median(plain_holds) * 1000:.1f} ms, "
              f"slowest {max(plain_holds) * 1000:.1f} ms")
    print(medians("busts", busts[1:]))
    print(medians("confirmations", confirms))
    if args.profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
