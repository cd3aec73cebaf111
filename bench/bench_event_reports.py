"""Hand reports into one big event at a live pace, from two daphne processes (issue #37).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/bench_event_reports.py --entries 10000 --rate 9 --seconds 60

At 10,000 entries an event has 1,112 tables; a hand every two minutes at each is about 9 hands' ends a second,
each reported into the event under the event's one row lock (``tournaments.services.dealing``: the award's
last step, ``services.play.report_hand``). The issue's target: the report's p95 under 100 ms and the event's
lock held under 10 ms a report. This bench measures both.

1. The event, through the services: ``--entries`` registered at the desk (``bench.tournament_script
   .running_event``: one write each, the slow part, about 30 ms each at 10,000), drawn (``start_tournament``,
   one write) and its clock started; a dealer on duty at each table (``assign_dealer``), logged in as a login
   leaves a session (the dealers share one password hash: 1,112 password hashes would take minutes and
   measure nothing here). ``--event N`` reuses an event an earlier run made (its dealers on duty).
2. Each report's hand is played in this process through the dealers' services (``dealing.start_hand``, the
   folds to the big blind), up to its award, before the measured time: 1,112 tables' whole hands are some
   180 taps a second, which two cores cannot serve. What is measured is the hand's end as the tablet sends it:
   the "award" POST (``/tournaments/<event>/tables/<n>/deal/award-pots/``, the table's version, a fresh key,
   htmx's and the CSRF header, the dealer's session) to the daphne process its table's socket is on (as
   deploy/Caddyfile routes a dealt table), whose write reports the hand into the event.
3. The reports go out at ``--rate`` a second over ``--seconds`` (the gaps drawn as a Poisson process,
   ``--even`` for equal ones), each at a table not reported yet, in random order: spread over the tables. When
   the run asks for more reports than there are tables (at 1,000 entries, 112 tables), it goes in rounds: the
   tables' next hands are played to their award between rounds, outside the measured time. Requests go out on
   time whatever the answers (a pool of client threads): a slow report does not slow the next one, it queues.
4. Each daphne process logs every lock a write held (``casino.writes.LOCK_HOLD``, ``LOCK_HOLD_LOG``): the
   event's lock from the report's lock taken to the award's commit, and how long the report waited for it.

It prints the reports' request time p50/p95/p99 (from the POST sent to its answer), the event lock's hold
p50/p95/p99/max and wait, how many reports queued on the lock (asked for it while another report held it),
the lock's busy share of the measured time, the daphne processes' CPU, and how late the client sent
(schedule slip: near 0 means the client did not hold the measure back).

It creates its content in the database named by DATABASE_URL: use a bench database.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pit_load import (  # noqa: E402 - the path above first
    cpu_seconds,
    machine_cpu,
    percentile,
    production_on_loopback,
    start_servers,
    stop_servers,
)
from bench.tournament_script import FRAGMENT_VERSION, running_event  # noqa: E402

SEATS = 9
PASSWORD = "bench-pass-2026"  # noqa: S105 - the bench's dealers, on a bench database


# --- Set-up, through the services ---------------------------------------------------------------------


@dataclass
class Table:
    number: int
    pk: int
    dealer: int  # the dealer on duty's user id
    session: str = ""  # the dealer's session key
    csrf: str = ""  # the dealer's browser's CSRF cookie (and header)
    version: int = 0  # the table's version at its award step


def make_event(entries: int, prefix: str):
    """An event of ``entries`` drawn at nine a table, its clock running, a dealer on duty at each table."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from casino.roles import ensure_role_groups
    from tournaments.reads import event as event_reads
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    ensure_role_groups()
    User = get_user_model()
    director = User.objects.create_user(f"{prefix}director")
    director.groups.add(Group.objects.get(name="tournament_director"))
    began = time.time()
    tournament = running_event(director, name=f"{prefix} reports", players=entries,
                               document=lambda n: f"{prefix.replace('_', '-')}{n}")
    print(f"event {tournament.pk}: {entries} entries registered and drawn in {time.time() - began:.0f} s", flush=True)
    state = event_reads.tournament_state(tournament)
    hashed = make_password(PASSWORD)  # once: every bench dealer has the same password
    dealers = User.objects.bulk_create([User(username=f"{prefix}dealer{seats.table}", password=hashed)
                                        for seats in state.tables])
    Group.objects.get(name="dealer").user_set.add(*dealers)
    for seats, dealer in zip(state.tables, dealers, strict=True):
        table = hand_reads.dealt_table(tournament, seats.table)  # the floor puts each dealer on duty at a table
        dealing.assign_dealer(table=table, by=director, key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=dealer)
    print(f"{len(dealers)} dealers on duty", flush=True)
    return tournament.pk


def tables_of(event: int) -> list[Table]:
    """The event's dealt tables with a dealer on duty (an event made by ``make_event``)."""
    from tournaments.models import DealtTable

    rows = DealtTable.objects.filter(tournament_id=event, dealer__isnull=False).order_by("number")
    return [Table(number=t.number, pk=t.pk, dealer=t.dealer_id) for t in rows]


def log_dealers_in(tables: list[Table]) -> None:
    """Each dealer's browser as a login leaves it: a session naming the dealer, and a CSRF cookie whose value
    the tablet's page would carry in its header (django's double-submit check compares the two)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.middleware.csrf import _get_new_csrf_string

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
    users = get_user_model().objects.in_bulk([t.dealer for t in tables])
    for table in tables:
        user = users[table.dealer]
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        table.session, table.csrf = session.session_key, _get_new_csrf_string()


def play_to_the_award(event: int, table: Table) -> None:
    """The table's next hand dealt and folded to the big blind through the dealer's services (a hand the last run
    left in play is played on), up to the award's tap: ``table.version`` is then the version the tablet shows."""
    from django.contrib.auth import get_user_model

    from casino.rules.holdem import Phase
    from casino.rules.holdem.hand import ENDED
    from tournaments.models import DealtTable
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    dealer = get_user_model().objects.get(pk=table.dealer)
    row = DealtTable.objects.get(pk=table.pk)

    def tap(fn, **kwargs):
        done = fn(table=row, by=dealer, key=uuid.uuid4().hex, expected_version=row.version, **kwargs)
        row.version = done.version

    hand = hand_reads.latest_hand(row)
    if hand is None or Phase(hand.phase) in ENDED:
        tap(dealing.start_hand)
        hand = hand_reads.latest_hand(row)
    while (seat := hand_reads.hand_state(hand).to_act) is not None:
        tap(dealing.act, record={"action": "fold", "seat": seat})
        hand = hand_reads.latest_hand(row)
    table.version = row.version


def play_all_to_the_award(event: int, tables: list[Table], threads: int = 4) -> None:
    """``play_to_the_award`` at each table, a few tables at once (each table's writes are on its own lock)."""
    from django.db import connection

    def play(table: Table) -> None:
        try:
            play_to_the_award(event, table)
        finally:
            connection.close()  # this thread's

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(play, tables))


# --- The reports, as the tablets send them --------------------------------------------------------------


@dataclass
class Report:
    table: Table
    base: str
    due: float  # when it is to be sent (time.time())
    sent: float = 0.0
    answered: float = 0.0
    status: int | None = None
    error: str = ""

    @property
    def seconds(self) -> float:
        return self.answered - self.sent


class Tablets:
    """The tablets' award taps: one kept-alive connection per client thread and daphne process, as a tablet's
    browser keeps one."""

    def __init__(self, event: int) -> None:
        self.event = event
        self.local = threading.local()

    def _connection(self, base: str) -> http.client.HTTPConnection:
        connections = self.local.__dict__.setdefault("connections", {})
        if base not in connections:
            connections[base] = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=120)
        return connections[base]

    def request(self, base: str, method: str, path: str, table: Table, data: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": f"sessionid={table.session}; csrftoken={table.csrf}"}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
                            "X-CSRFToken": table.csrf})
        for attempt in (1, 2):
            connection = self._connection(base)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.read().decode()
            except (http.client.HTTPException, ConnectionError):
                connection.close()  # the server closed a kept-alive connection: another, once
                self.local.connections.pop(base)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def award(self, report: Report) -> None:
        table = report.table
        path = f"/tournaments/{self.event}/tables/{table.number}/deal/award-pots/"
        report.sent = time.time()
        try:
            report.status, answer = self.request(report.base, "POST", path, table,
                                                 {"version": table.version, "key": uuid.uuid4().hex})
            if report.status != 200 or not FRAGMENT_VERSION.search(answer):
                report.error = f"HTTP {report.status} {re.sub(r'<[^>]+>', ' ', answer)[:160]!r}"
        except Exception as error:  # noqa: BLE001 - counted in the summary
            report.error = repr(error)
        report.answered = time.time()

    def open_tablet(self, base: str, table: Table) -> int:
        """The tablet's page (GET), as a dealer opens it: warms the process (the event's record read)."""
        status, _page = self.request(base, "GET", f"/tournaments/{self.event}/tables/{table.number}/deal/", table)
        return status


def schedule(count: int, rate: float, start: float, rng: random.Random, even: bool) -> list[float]:
    """When each of ``count`` reports is due: a Poisson process of ``rate`` a second (tables end their hands
    independently), or equal gaps with ``even``."""
    due, at = [], start
    for _ in range(count):
        at += (1 / rate) if even else rng.expovariate(rate)
        due.append(at)
    return due


def send_on_time(tablets: Tablets, reports: list[Report], threads: int) -> None:
    """Each report sent when due, whatever the answers to the ones before (an open loop: a slow answer makes
    the next reports queue at the server, as tablets would, not wait at the client)."""
    with ThreadPoolExecutor(threads) as pool:
        for report in reports:
            wait = report.due - time.time()
            if wait > 0:
                time.sleep(wait)
            pool.submit(tablets.award, report)


# --- The lock's hold, from the daphne processes' lines ---------------------------------------------------


def lock_holds(path: str, aggregate: str, windows: list[tuple[float, float]]) -> list[dict]:
    """The lines of ``casino.writes.LOCK_HOLD`` for ``aggregate``'s lock taken within one of ``windows``."""
    holds = []
    for line in Path(path).read_text().splitlines():
        try:
            hold = json.loads(line)
        except ValueError:
            continue
        if hold.get("aggregate") == aggregate and any(a <= hold["taken_at"] <= b for a, b in windows):
            holds.append(hold)
    return holds


def queued(holds: list[dict]) -> int:
    """How many of the lock's takers asked for it while another held it (they waited in line)."""
    spans = sorted((h["taken_at"], h["taken_at"] + h["held_ms"] / 1000) for h in holds)
    count = 0
    for h in holds:
        asked = h["taken_at"] - h["waited_ms"] / 1000
        if any(taken <= asked < released and taken != h["taken_at"] for taken, released in spans):
            count += 1
    return count


def ms(values: list[float], *points: int) -> dict:
    return {f"p{p}": round(percentile(values, p) * 1000, 1) if values else None for p in points}


# --- One report under the lock, profiled ------------------------------------------------------------------


def profile_one_report(event: int, table: Table, top: int = 25) -> str:
    """One hand's end reported through the services in this process, profiled from the event's lock taken to the
    commit that releases it (``casino.writes``' lock-hold hook, the commit's first): what the lock is held for.
    Its hand is played to the award first (not profiled)."""
    import cProfile
    import io
    import pstats

    from casino import writes
    from tournaments.reads import event as event_reads
    from tournaments.writing import TOURNAMENTS

    play_to_the_award(event, table)
    # as a process's screens read the event outside any write: it follows the record up to now, and a write at
    # a version the other process made goes on from a copy of that (``reads.event.replayer_as_read``)
    event_reads.record_as_read(event)
    profiler = cProfile.Profile()
    locked, report = writes._write_locked, writes._report_lock_holds

    def write_locked(kind, *args, **kwargs):
        if kind is TOURNAMENTS:
            profiler.enable()
        return locked(kind, *args, **kwargs)

    def lock_holds_reported(held, ended):
        profiler.disable()
        return report(held, ended)

    writes._write_locked, writes._report_lock_holds = write_locked, lock_holds_reported
    try:
        from django.contrib.auth import get_user_model

        from tournaments.models import DealtTable
        from tournaments.services import dealing

        row = DealtTable.objects.get(pk=table.pk)
        dealing.act(table=row, by=get_user_model().objects.get(pk=table.dealer), key=uuid.uuid4().hex,
                    expected_version=row.version, record={"action": "award-pots"})
    finally:
        writes._write_locked, writes._report_lock_holds = locked, report
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    out.write(f"the event's lock held for {1000 * stats.total_tt:.1f} ms of profiled time\n")
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# --- The run ---------------------------------------------------------------------------------------------


@dataclass
class Run:
    event: int
    tables: list[Table]
    bases: list[str]
    lock_log: str
    pids: list[int] = field(default_factory=list)  # the daphne processes, whose CPU is counted while measuring
    reports: list[Report] = field(default_factory=list)
    windows: list[tuple[float, float]] = field(default_factory=list)
    prepared_seconds: float = 0.0
    daphne_cpu: float = 0.0  # seconds, within the windows
    machine_busy: list[tuple[int, int]] = field(default_factory=list)  # (busy, total) jiffies, within the windows


def drive(run: Run, *, rate: float, seconds: float, seed: int = 7, even: bool = False, threads: int = 256,
          warmup: int = 4, log=print) -> None:
    """Warm each process up (a tablet opened and ``warmup`` reports, not measured), then send ``rate * seconds``
    reports in rounds of at most one per table, each round's hands played to their award before it."""
    rng = random.Random(seed)  # noqa: S311 - the bench's choices, not a game
    tablets = Tablets(run.event)
    where = {t.number: run.bases[i % len(run.bases)] for i, t in enumerate(run.tables)}  # as the Caddyfile routes
    for i, base in enumerate(run.bases):
        tablets.open_tablet(base, run.tables[i % len(run.tables)])
    warm = [run.tables[i % len(run.tables)] for i in range(warmup)]
    for table in warm:
        play_to_the_award(run.event, table)
    for table in warm:
        tablets.award(Report(table, where[table.number], time.time()))
    total = round(rate * seconds)
    while len(run.reports) < total:
        count = min(len(run.tables), total - len(run.reports))
        chosen = rng.sample(run.tables, count)  # spread over the tables, none twice in a round
        began = time.time()
        play_all_to_the_award(run.event, chosen)
        run.prepared_seconds += time.time() - began
        log(f"{count} hands played to their award in {time.time() - began:.0f} s; sending their reports")
        time.sleep(1)  # the preparation's announcements heard
        cpu_before = sum(cpu_seconds(pid) for pid in run.pids)
        machine_before = machine_cpu()
        start = time.time()
        due = schedule(count, rate, start, rng, even)
        reports = [Report(t, where[t.number], at) for t, at in zip(chosen, due, strict=True)]
        send_on_time(tablets, reports, threads)  # returns once every report is answered
        run.windows.append((start, time.time()))
        run.daphne_cpu += sum(cpu_seconds(pid) for pid in run.pids) - cpu_before
        machine_after = machine_cpu()
        run.machine_busy.append((machine_after[0] - machine_before[0], machine_after[1] - machine_before[1]))
        run.reports += reports


def summary(run: Run, *, rate: float) -> dict:
    from casino.models import label_of
    from tournaments.models import Tournament

    answered = [r for r in run.reports if not r.error]
    holds = lock_holds(run.lock_log, label_of(Tournament, run.event), run.windows)
    hand_holds = [h for h in holds if h["action"] == "hand"]
    measured = sum(b - a for a, b in run.windows)
    held = [h["held_ms"] / 1000 for h in hand_holds]
    waited = [h["waited_ms"] / 1000 for h in hand_holds]
    slips = [r.sent - r.due for r in run.reports]
    rounds = [run.reports[i:i + len(run.tables)] for i in range(0, len(run.reports), len(run.tables))]
    sending = sum(max(r.sent for r in part) - start for part, (start, _end) in zip(rounds, run.windows, strict=True))
    return {
        "event": run.event,
        "tables": len(run.tables),
        "daphne_processes": len(run.bases),
        "reports": len(run.reports),
        "rate_asked": rate,
        "rate_sent": round(len(run.reports) / sending, 2) if sending else None,
        "measured_seconds": round(measured, 1),  # from each round's first report due to its last one answered
        "rounds": len(run.windows),
        "report_request_ms": ms([r.seconds for r in answered], 50, 95, 99),
        "report_request_max_ms": round(max((r.seconds for r in answered), default=0) * 1000, 1),
        "report_requests_over_100_ms": sum(1 for r in answered if r.seconds > 0.100),
        "event_lock_held_ms": {**ms(held, 50, 95, 99), "max": round(max(held, default=0) * 1000, 1)},
        "event_lock_waited_ms": {**ms(waited, 50, 95, 99), "max": round(max(waited, default=0) * 1000, 1)},
        "reports_queued_on_the_lock": queued(hand_holds),
        "event_lock_busy_percent": round(100 * sum(held) / measured, 1) if measured else None,
        "event_lock_holds_seen": len(hand_holds),
        "other_event_writes": len(holds) - len(hand_holds),
        "client_send_slip_ms": ms(slips, 50, 95) | {"max": round(max(slips, default=0) * 1000, 1)},
        "daphne_cpu_ms_per_report": round(1000 * run.daphne_cpu / max(1, len(run.reports)), 1),
        "machine_cpu_percent": round(100 * sum(b for b, _t in run.machine_busy)
                                     / max(1, sum(t for _b, t in run.machine_busy)), 1),
        "hands_played_to_their_award_seconds": round(run.prepared_seconds, 1),
        "load_average_at_end": round(os.getloadavg()[0], 2),
        "errors": [r.error for r in run.reports if r.error][:5],
        "error_count": sum(1 for r in run.reports if r.error),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=10_000, help="the event's field (9 a table)")
    parser.add_argument("--tables", type=int, default=None,
                        help="the tables instead of --entries (entries = 9 a table: 1,112 tables is 10,008)")
    parser.add_argument("--rate", type=float, default=9.0, help="hands' ends reported a second, all tables")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds (rate x seconds reports)")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes")
    parser.add_argument("--even", action="store_true", help="equal gaps between reports instead of Poisson's")
    parser.add_argument("--warmup", type=int, default=4, help="reports sent before measuring, not counted")
    parser.add_argument("--threads", type=int, default=256,
                        help="client threads sending the reports: enough for every report in flight, or the client "
                             "waits and the schedule slips (client_send_slip_ms)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", action="store_true",
                        help="after the run, profile two reports in this process from the event's lock to the "
                             "commit: one after the other processes' writes, one after this process's own")
    parser.add_argument("--port", type=int, default=8900,
                        help="the first daphne's port (the next ones follow): another engineer's bench may hold 8900")
    parser.add_argument("--event", type=int, default=None,
                        help="reuse this event (made by an earlier run, its dealers on duty) instead of a new one")
    args = parser.parse_args()
    entries = args.tables * SEATS if args.tables else args.entries

    lock_log = os.path.join(tempfile.mkdtemp(prefix="bench-lock-hold-"), "lock-hold.jsonl")
    env = production_on_loopback("bench_event_reports measures PostgreSQL + Redis: set DATABASE_URL and REDIS_URL")
    env["LOCK_HOLD_LOG"] = lock_log
    import logging

    logging.getLogger("casino.audit.anchor").setLevel(logging.WARNING)  # the set-up's thousands of writes
    event = args.event or make_event(entries, f"r{int(time.time())}_")
    tables = tables_of(event)
    log_dealers_in(tables)
    print(f"event {event}: {len(tables)} tables, their dealers logged in; the lock's log: {lock_log}", flush=True)
    # start_servers' ports: another bench's daphne would be measured
    for port in range(args.port, args.port + args.servers):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                raise SystemExit(f"port {port} is taken (a daphne left by an interrupted bench?): stop it first")
    servers = start_servers(args.servers, env, port_base=args.port)
    run = Run(event, tables, [f"http://127.0.0.1:{port}" for _proc, port in servers], lock_log,
              pids=[proc.pid for proc, _port in servers])
    try:
        drive(run, rate=args.rate, seconds=args.seconds, seed=args.seed, even=args.even, threads=args.threads,
              warmup=args.warmup, log=lambda line: print(line, flush=True))
        time.sleep(1)  # the last lines written
        print(json.dumps(summary(run, rate=args.rate), indent=2))
    finally:
        stop_servers(servers)
    if args.profile:
        first, second = random.Random(args.seed).sample(tables, 2)  # noqa: S311
        print("one report after the daphne processes' writes (this process copies the replay it follows):")
        print(profile_one_report(event, first))
        print("one report right after this process's own (its replay kept):")
        print(profile_one_report(event, second))


if __name__ == "__main__":
    main()
