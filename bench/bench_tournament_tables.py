"""Load on a tournament's dealt tables (issue #15): N dealers' tablets at a live dealer's pace, the
players' phones and the room's clock displays open, two daphne processes, PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/bench_tournament_tables.py --tables 100 --phones 1000 --displays 10 \\
        --rate 0.2 --seconds 60 --warmup 120

An event of 9 players a table is registered and drawn through the services, the clock started. Each
simulated dealer logs in and taps its table's hand through the tablet's views (``bench/tournament_script``:
a new hand, checks, calls and folds, the board, the showdown, the award; about 20 taps a hand), one tap
every 1/rate seconds (0.2: a tap every 5 s, a hand of about two minutes). Each tablet's own socket is
open; the latency is from a dealer's request until that version reaches its tablet's socket (the screen
the dealer looks at). The phones (one per entry, then a second for some) and the clock displays receive
every change of the event (a hand's end, the clock): their pushes are counted, not timed. The tables
start together, so their first hands end together some two minutes in: ``--warmup`` taps that long
before measuring, so that hands end all the time as at a real event (the steady state). Each dealer is
put on duty at its table by the director first (only the dealer on duty deals there). It prints
p50/p95/p99, the daphne processes' CPU per tap and the machine's. Compare with the stack's floor at the
same rate and sockets: ``bench_pit_load.py --app floor --tables 100 --sockets 1010 --rate 0.2``.

``--busts 0.05``: a player in turn who may go all-in does so once in twenty, so players bust as at a real
event; each bust is ranked in the event, which proposes the balancing (moves, broken tables, halts), and
the floor (this process, through the services, as the console's one tap does) confirms each plan a second
or two after it appears. A table the plan touches waits for it, a broken table's dealer stops, the moved
players' phones follow them to their new seats. The report then counts the busts, the plans confirmed,
the tables broken and the "New hand" taps refused while a table waited.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pit_load import (  # noqa: E402
    Dealer,
    cpu_seconds,
    machine_cpu,
    percentile,
    production_on_loopback,
    start_servers,
    stop_servers,
)
from bench.tournament_script import FRAGMENT_VERSION, TabletScript, running_event  # noqa: E402

PHONE_VERSION = re.compile(r'data-version="(\d+)"')


def prepare(n_tables: int, n_phones: int, prefix: str):
    """The event (9 a table, drawn, the clock running), a dealer per table, the phones' sessions."""

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.contrib.sessions.backends.db import SessionStore

    from casino import player_links
    from casino.roles import ensure_role_groups
    from tournaments import services
    from tournaments.models import Entry
    from tournaments.reads import event as event_reads
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    ensure_role_groups()
    User = get_user_model()
    director = User.objects.create_user(f"{prefix}director")
    director.groups.add(Group.objects.get(name="tournament_director"))
    # an ID number holds letters, digits and dashes, not the prefix's underscore (issue #34)
    tournament = running_event(director, name=f"{prefix} bench", players=n_tables * 9,
                               document=lambda n: f"{prefix.replace('_', '-')}{n}")
    state = event_reads.tournament_state(tournament)
    dealer_group = Group.objects.get(name="dealer")
    tables = []
    for seats in state.tables:
        hand_reads.dealt_table(tournament, seats.table)
        dealer = User.objects.create_user(f"{prefix}dealer{seats.table}", password="bench-pass-2026")
        dealer.groups.add(dealer_group)
        table = hand_reads.dealt_table(tournament, seats.table)  # the floor puts each dealer on duty at a table
        dealing.assign_dealer(table=table, by=director, key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=dealer)
        tables.append((seats.table, dealer.username))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    phones = []
    for i in range(n_phones):
        link = services.issue_entry_link(entries[i % len(entries)], by=director)
        session = SessionStore()
        session[player_links.SESSION_KEY] = str(link.pk)
        session.create()
        phones.append(session.session_key)
    return tournament.pk, tables, phones, director.pk


class Floor(threading.Thread):
    """The tournament floor: confirms each balancing plan the event proposes, a second or two after it
    appears (``services.confirm_plan``, the console's one tap), until ``stop`` is set."""

    def __init__(self, event: int, director_id: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.event, self.director_id, self.stop = event, director_id, stop
        self.confirmed = 0
        self.errors: list[str] = []

    def run(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db import connection

        from casino.writes import StaleVersion
        from tournaments import services
        from tournaments.models import Tournament
        from tournaments.reads import event as event_reads

        director = get_user_model().objects.get(pk=self.director_id)
        try:
            while not self.stop.wait(1.5):
                tournament = Tournament.objects.get(pk=self.event)
                pending = event_reads.tournament_state(tournament).pending_plan
                if pending is None:
                    continue
                try:
                    services.confirm_plan(tournament=tournament, by=director, key=uuid.uuid4().hex,
                                          expected_version=tournament.version, proposed=pending[0])
                    self.confirmed += 1
                except StaleVersion:
                    continue  # a hand ended meanwhile: look again
                except Exception as error:  # noqa: BLE001 - reported in the summary
                    self.errors.append(repr(error))
        finally:
            connection.close()


def players_left(event: int) -> int:
    from tournaments.models import Tournament
    from tournaments.reads import event as event_reads

    return event_reads.tournament_state(Tournament.objects.get(pk=event)).players_left


async def listen(url: str, origin: str, cookie: str | None, pattern: re.Pattern, arrivals: list,
                 stop: asyncio.Event, connected: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie} if cookie else {}
    async with connect(url, origin=origin, additional_headers=headers, max_size=2**22, open_timeout=60) as socket:
        connected.set()

        async def receive() -> None:
            async for message in socket:
                match = pattern.search(message, 0, 800)
                if match:
                    arrivals.append((int(match.group(1)), time.time()))

        task = asyncio.create_task(receive())
        await stop.wait()
        task.cancel()


async def run(args, event: int, tables, phones, servers, bases, director_id: int) -> dict:
    stop = asyncio.Event()
    script = TabletScript(event, random.Random(7), all_in=args.busts)  # noqa: S311 - a bench's choices, not a game
    floor_stop = threading.Event()
    floor = Floor(event, director_id, floor_stop) if args.busts else None
    left_before = await asyncio.to_thread(players_left, event)
    dealers = [Dealer(number, username, bases, args.rate, script) for number, username in tables]
    for i, dealer in enumerate(dealers):
        dealer.uneven = args.uneven_pace
        if args.by_table:  # as deploy/Caddyfile routes a dealt table: its taps where its tablet's socket is (where(i))
            dealer.base_urls = [bases[i % len(bases)]]
    for dealer in dealers:
        dealer.start()
    while not all(d.logged_in.is_set() for d in dealers):
        await asyncio.sleep(0.2)
    print(f"{len(dealers)} dealers logged in")

    async def open_all(specs):
        tasks = []
        for url, origin, cookie, pattern, arrivals in specs:
            connected = asyncio.Event()
            tasks.append(asyncio.create_task(listen(url, origin, cookie, pattern, arrivals, stop, connected)))
            await asyncio.wait_for(connected.wait(), 60)
        return tasks

    def where(i):
        port = servers[i % len(servers)][1]
        return f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}"

    tablet_arrivals = {d.table_id: [] for d in dealers}
    phone_arrivals = [[] for _ in phones]
    display_arrivals = [[] for _ in range(args.displays)]
    specs = []
    for i, dealer in enumerate(dealers):
        ws, origin = where(i)
        specs.append((ws + script.socket_path(dealer.table_id), origin, dealer.cookie_header(), FRAGMENT_VERSION,
                      tablet_arrivals[dealer.table_id]))
    for i, key in enumerate(phones):
        ws, origin = where(i)
        specs.append((ws + "/ws/player/", origin, f"sessionid={key}", PHONE_VERSION, phone_arrivals[i]))
    for i in range(args.displays):
        ws, origin = where(i)
        specs.append((ws + f"/ws/tournaments/{event}/clock/", origin, None, PHONE_VERSION, display_arrivals[i]))
    tasks = await open_all(specs)
    print(f"{len(dealers)} tablets, {len(phones)} phones and {args.displays} clock displays connected")
    await asyncio.sleep(2)
    began = time.time()
    for dealer in dealers:
        dealer.stop_at = began + args.warmup + args.seconds
        dealer.go.set()
    if floor is not None:
        floor.start()
    if args.warmup:
        # The tables start together: their first hands end together, about two minutes in. Measured after
        # a warm-up, hands end all the time, as at a real event (each end a change of the event).
        print(f"warming up for {args.warmup:.0f} s")
        await asyncio.sleep(args.warmup)
    cpu_before = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_before = cpu_seconds(os.getpid())
    machine_before, wall_before = machine_cpu(), time.time()
    phones_before = sum(len(a) for a in phone_arrivals)
    displays_before = sum(len(a) for a in display_arrivals)
    while any(d.is_alive() for d in dealers):
        await asyncio.sleep(0.5)
    wall = time.time() - wall_before
    cpu_after = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_cpu = cpu_seconds(os.getpid()) - own_before
    machine_after = machine_cpu()
    await asyncio.sleep(3)  # the last pushes
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    floor_stop.set()
    if floor is not None:
        await asyncio.to_thread(floor.join)
    left_after = await asyncio.to_thread(players_left, event)

    latencies, missed = [], 0
    by_action: dict[str, list[float]] = {}  # which taps wait longest: a hand's end does the most work
    series: list[dict] = []
    for dealer in dealers:
        seen: dict[int, float] = {}
        for version, arrived in tablet_arrivals[dealer.table_id]:
            seen.setdefault(version, arrived)
        for version, sent in dealer.sent.items():
            if sent < wall_before:
                continue  # a warm-up tap
            if version in seen:
                latency = seen[version] - sent
                latencies.append(latency)
                action = script.kinds.get((dealer.table_id, version), "?")
                by_action.setdefault(action, []).append(latency)
                series.append({"sent": round(sent - wall_before, 3), "ms": round(1000 * latency, 1),
                               "action": action, "table": dealer.table_id})
            else:
                missed += 1
    taps = sum(1 for d in dealers for sent in d.sent.values() if sent >= wall_before)
    errors = [e for d in dealers for e in d.errors]
    busy = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1])
    daphne = sum(cpu_after[p] - cpu_before[p] for p in cpu_after)
    if args.series:
        with open(args.series, "w") as out:
            out.writelines(json.dumps(tap) + "\n" for tap in sorted(series, key=lambda tap: tap["sent"]))
    return {
        "app": "tournament tablets",
        "tables": len(dealers),
        "phones": len(phones),
        "clock_displays": args.displays,
        "daphne_processes": len(servers),
        "seconds": round(wall, 1),
        "taps": taps,
        "taps_per_second": round(taps / wall, 2),
        "tap_to_tablet_ms": {p: round(percentile(latencies, q) * 1000, 1)
                             for p, q in (("p50", 50), ("p95", 95), ("p99", 99))},
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "taps_whose_version_the_tablet_did_not_show": missed,
        "tap_to_tablet_ms_by_action": {
            action: {"taps": len(times), "p50": round(percentile(times, 50) * 1000, 1),
                     "p95": round(percentile(times, 95) * 1000, 1),
                     "over_150_ms": sum(1 for t in times if t > 0.150)}
            for action, times in sorted(by_action.items(), key=lambda item: -len(item[1]))},
        "tap_request_ms_by_action": {
            action: {p: round(percentile([t for sent, t in answers if sent >= wall_before], q) * 1000, 1)
                     for p, q in (("p50", 50), ("p95", 95))}
            for action, answers in script.answered.items() if any(sent >= wall_before for sent, _t in answers)},
        "tap_request_ms": {p: round(percentile([t for d in dealers for t in d.request_seconds], q) * 1000, 1)
                           for p, q in (("p50", 50), ("p95", 95))},
        "warmup_seconds": args.warmup,
        "uneven_pace": args.uneven_pace,
        "phone_pushes": sum(len(a) for a in phone_arrivals) - phones_before,
        "display_pushes": sum(len(a) for a in display_arrivals) - displays_before,
        "daphne_cpu_ms_per_tap": round(1000 * daphne / max(1, taps), 1),
        "machine_cpu_ms_per_tap": round(1000 * busy * os.cpu_count() * wall / max(1, taps), 1),
        "machine_cpu_percent": round(100 * busy, 1),
        "load_generator_cpu_percent": round(100 * own_cpu / wall, 1),
        **({"busts": left_before - left_after, "plans_confirmed": floor.confirmed,
            "tables_broken": len(script.broken), "new_hands_refused_while_waiting": script.refused,
            "floor_errors": floor.errors[:5]} if floor is not None else {}),
        "errors": errors[:5],
        "error_count": len(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--displays", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=0,
                        help="seconds of taps before the measurement (150: the first hands have ended)")
    parser.add_argument("--rate", type=float, default=0.2, help="taps per second per table (0.2: one every 5 s)")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--uneven-pace", action="store_true",
                        help="each dealer's wait between taps drawn between 0.5/rate and 1.5/rate (the same mean) "
                             "instead of exactly 1/rate: the tables, which start their first hands together, drift "
                             "apart as at a real event instead of ending their hands in step for the whole run")
    parser.add_argument("--by-table", action="store_true",
                        help="each table's taps to the process its tablet's socket is on, as deploy/Caddyfile routes "
                             "them, instead of alternating between the processes")
    parser.add_argument("--series", metavar="FILE",
                        help="write each measured tap (sent, its latency, action, table) to FILE, a JSON line each: "
                             "whether the slow taps come together in time (a stall of the machine) or apart")
    parser.add_argument("--busts", type=float, default=0.0,
                        help="the chance a player in turn who may go all-in does (0.05: players bust, the floor "
                             "confirms the balancing)")
    args = parser.parse_args()

    env = production_on_loopback("bench_tournament_tables measures PostgreSQL + Redis: set DATABASE_URL and REDIS_URL")
    prefix = f"t{int(time.time())}_"
    began = time.time()
    event, tables, phones, director_id = prepare(args.tables, args.phones, prefix)
    print(f"event {event}: {len(tables)} tables drawn, {len(phones)} phone links, in {time.time() - began:.0f} s")
    servers = start_servers(args.servers, env)
    bases = [f"http://127.0.0.1:{port}" for _proc, port in servers]
    try:
        report = asyncio.run(run(args, event, tables, phones, servers, bases, director_id))
        print(json.dumps(report, indent=2))
    finally:
        stop_servers(servers)


if __name__ == "__main__":
    main()
