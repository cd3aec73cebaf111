"""Load on a live pit: N tables with simulated dealers, M player phones, two daphne processes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/bench_pit_load.py --tables 50 --sockets 500 --seconds 60

Each simulated dealer sends one action a second to its table over HTTP (a real dealer's POST through
the tablet view, alternating between the daphne processes). Player sockets are spread over the tables
and over both processes. For every action, the latency is the time from the dealer's request until that
version arrives at each socket of that table. At the end every socket must show the server's final
version (no update lost). It prints p50/p95/p99, throughput and the CPU of the daphne processes.

Each dealer keeps its HTTP connection to each process alive, as a tablet's browser does (``--close``:
a new connection per tap). ``--app floor`` measures the same stack with no game (bench/floor_app.py):
the least any pit costs on this machine, the yardstick for the casino's figures.

It creates its own database content (a fresh pit of tables) in the database named by DATABASE_URL:
use a bench database, not the casino's.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import http.cookies
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VERSION = re.compile(r'id="player-view"[^>]*data-version="(\d+)"|data-version="(\d+)"[^>]*id="player-view"')


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc (seconds)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_cpu() -> tuple[int, int]:
    parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def ensure_database(url: str) -> None:
    """Create the bench database on a fresh machine (connecting to the server's ``postgres`` database)."""
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created the database {name}")


def setup_django(env: dict) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()


def prepare(n_tables: int, prefix: str):
    """A pit per four tables, a dealer per table (the script opens them)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino.roles import ensure_role_groups
    from tables.models import Pit, Table

    ensure_role_groups()
    User = get_user_model()
    dealer_group, boss_group = Group.objects.get(name="dealer"), Group.objects.get(name="pit_boss")
    tables = []
    for t in range(n_tables):
        if t % 4 == 0:
            boss = User.objects.create_user(f"{prefix}boss{t // 4}", password="bench-pass-2026")
            boss.groups.add(boss_group)
            pit = Pit.objects.create(name=f"{prefix}pit{t // 4}", pit_boss=boss)
        dealer = User.objects.create_user(f"{prefix}dealer{t}", password="bench-pass-2026")
        dealer.groups.add(dealer_group)
        table = Table.objects.create(pit=pit, name=f"{prefix}T{t}", min_ante=5, max_ante=100, dealer=dealer)
        table.ensure_boxes()
        tables.append((table, dealer, boss))
    return tables


def player_sessions(tables, n_sockets: int) -> list[tuple[int, str]]:
    """A phone's session per socket, holding its box's QR link, spread over the boxes of the open tables
    (a link belongs to a table's live session; the floor's tables have none, and its phones no link)."""
    from django.contrib.sessions.backends.db import SessionStore

    from casino import player_links
    from casino.rules.errors import RuleViolation
    from tables import sessions

    sockets = []
    # One link per box: a new link for a box ends the one before (issue #16), so with more phones than
    # boxes the phones of one box share its link, as two phones of one player would.
    links = {}
    for s in range(n_sockets):
        table, dealer, _boss = tables[s % len(tables)]
        session = SessionStore()
        box = 1 + (s // len(tables)) % 7
        try:
            if (table.pk, box) not in links:
                links[table.pk, box] = sessions.issue_box_link(table=table, number=box, by=dealer)
            session[player_links.SESSION_KEY] = str(links[table.pk, box].pk)
        except RuleViolation:
            pass
        session.create()
        sockets.append((table.pk, session.session_key))
    return sockets


# A few dealers log in at a time, so the measured minute starts sooner (each login hashes a password
# on purpose). BENCH_LOGINS=50 logs them all in at once, as at a shift change: before request threads
# were bounded (HTTP_THREADS) the last ones failed with HTTP 500 after the database pool's timeout.
LOGINS = threading.Semaphore(int(os.environ.get("BENCH_LOGINS", "4")))


class Dealer(threading.Thread):
    """One simulated dealer: logs in, then sends one action a second through the tablet's views."""

    def __init__(self, table_id: int, username: str, base_urls: list[str], rate: float, script, close_each=False):
        super().__init__(daemon=True)
        self.table_id, self.username = table_id, username
        self.base_urls, self.rate, self.script = base_urls, rate, script
        self.stop_at = 0.0
        # Logging in hashes a password (PBKDF2, about half a second of CPU by design): all the
        # dealers log in before the clock starts, or the first seconds would measure the logins.
        self.logged_in = threading.Event()
        self.go = threading.Event()
        self.sent: dict[int, float] = {}  # version -> time the request that produced it was sent
        self.request_seconds: list[float] = []  # how long each tap took to answer
        self.errors: list[str] = []
        self.finished = False  # set by the script when this dealer's table is gone (a tournament's broken table)
        self.connections: dict[str, http.client.HTTPConnection] = {}
        self.cookies: dict[str, str] = {}
        self.close_each = close_each
        #: each wait between taps drawn between half and one and a half times 1/rate (the same mean): a
        #: dealer's pace varies, and tables that start their hands together drift apart (a tournament's bench)
        self.uneven = False

    def request(self, base: str, path: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, str]:
        """One request on this dealer's kept-alive connection to ``base`` (as a tablet's browser keeps
        one), or on a new connection per request with ``--close``. Cookies kept as a browser would."""
        body = urllib.parse.urlencode(data) if data is not None else None
        headers = {**(headers or {})}
        if body is not None:
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        if self.cookies:
            headers["Cookie"] = self.cookie_header()
        for attempt in (1, 2):
            connection = self.connections.get(base)
            if connection is None:
                connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=15)
                self.connections[base] = connection
            try:
                connection.request("POST" if body is not None else "GET", path, body=body, headers=headers)
                response = connection.getresponse()
                text = response.read().decode()
            except (http.client.HTTPException, ConnectionError):
                # The server closed a kept-alive connection between two taps: open another, once.
                connection.close()
                self.connections.pop(base, None)
                if attempt == 2:
                    raise
                continue
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in http.cookies.SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            if self.close_each or response.will_close:
                connection.close()
                self.connections.pop(base, None)
            return response.status, text
        raise AssertionError("unreachable")

    def cookie_header(self) -> str:
        """The cookies this dealer's browser would send (its session's among them)."""
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def base_for(self, step: int) -> str:
        """The process this dealer's tap number ``step`` goes to. Each dealer's taps alternate between the
        processes (its next tap may land on the other one: what a process keeps must hold across both),
        starting from its table's own: half the tables on each process at any moment, as a balancer spreads
        them. All starting on the first, every dealer's k-th tap went to the same process within the same
        1/rate seconds (the tables tap at one pace): one process took every tap for five seconds, then the
        other, each loaded twice over in turn (seen at 100 tournament tables, 2026-11-26)."""
        return self.base_urls[(step + self.table_id) % len(self.base_urls)]

    def run(self) -> None:
        try:
            with LOGINS:
                self.script.login(self)
            self.logged_in.set()
            self.go.wait()
            # Real tables are not in lockstep: each dealer starts at a random point of the second,
            # or every table's tap would land in the same instant and measure a burst, not a pit.
            time.sleep(random.random() / self.rate)  # noqa: S311 - timing jitter, not a game
            step = 0
            while time.time() < self.stop_at and not self.finished:
                started = time.time()
                base = self.base_for(step)
                try:
                    version = self.script.act(self, base, started)
                except TimeoutError as error:  # no answer in 15 s: counted, and the dealer taps again
                    self.errors.append(repr(error))
                    version = None
                self.request_seconds.append(time.time() - started)
                if version is not None:
                    self.sent.setdefault(version, started)
                step += 1
                pause = (0.5 + random.random()) / self.rate if self.uneven else 1 / self.rate  # noqa: S311
                time.sleep(max(0.0, pause - (time.time() - started)))
        except Exception as error:  # noqa: BLE001 - report, don't hide, in the summary
            self.errors.append(repr(error))
            self.logged_in.set()


async def player_socket(
    ws_url: str,
    origin: str,
    session_key: str,
    arrivals: list,
    stop: asyncio.Event,
    connected: asyncio.Event | None = None,
):
    from websockets.asyncio.client import connect

    async with connect(
        ws_url,
        origin=origin,
        additional_headers={"Cookie": f"sessionid={session_key}"},
        max_size=2**22,
        open_timeout=30,
    ) as socket:
        if connected:
            connected.set()

        async def listen() -> None:
            # One plain recv per message: a timeout around each (to notice ``stop``) cost the load
            # generator a timer and a task per message, CPU taken from the server it measures.
            async for message in socket:
                match = VERSION.search(message, 0, 600)
                if match:
                    arrivals.append((int(match.group(1) or match.group(2)), time.time()))

        listening = asyncio.create_task(listen())
        await stop.wait()
        listening.cancel()


def stop_servers(servers: list[tuple[subprocess.Popen, int]]) -> None:
    """Stop the daphne processes a bench started (killed if still draining after 10 s: the figures are in).
    A bench stopped by a signal skips this and leaves them on ports 8900..: stop them before the next run."""
    for proc, _port in servers:
        proc.terminate()
    for proc, _port in servers:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def start_servers(count: int, env: dict, app: str = "casino.asgi:application", port_base: int = 8900,
                  root: Path = ROOT, launcher: tuple[str, ...] = ("-m", "daphne"),
                  ) -> list[tuple[subprocess.Popen, int]]:
    """``count`` daphne processes on ports ``port_base``.. serving the tree ``root`` (another checkout of the
    project: a before/after comparison in one series); ``launcher``: what ``python`` runs instead of
    ``-m daphne`` (a profiling wrapper taking daphne's arguments)."""
    servers = []
    for i in range(count):
        port = port_base + i
        proc = subprocess.Popen(
            [sys.executable, *launcher, "-b", "127.0.0.1", "-p", str(port), app],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(f"/tmp/bench-daphne-{port}.log", "w"),
        )
        servers.append((proc, port))
    for proc, port in servers:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)  # noqa: S310
                break
            except OSError:
                if proc.poll() is not None:
                    raise SystemExit(f"daphne on {port} exited: see /tmp/bench-daphne-{port}.log") from None
                time.sleep(0.2)
    return servers


def production_on_loopback(without_postgres: str) -> dict:
    """Production settings (DEBUG off: cached templates, no debug bookkeeping) on plain HTTP, for the
    daphne processes a bench starts; the bench database created and migrated, Django set up in this
    process. ``without_postgres``: what to say if DATABASE_URL is not PostgreSQL."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "AUDIT_KEY": "bench-only-audit-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "AUDIT_ANCHOR_PATH": os.devnull,  # the bench's database is thrown away: so are its anchors
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "STATIC_MANIFEST": "0",
    }
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_bench")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/2")
    if not env["DATABASE_URL"].startswith("postgres"):
        raise SystemExit(without_postgres)
    ensure_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    setup_django(env)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=1.0, help="dealer actions per second per table")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument(
        "--app",
        choices=["casino", "floor", "floor-ws"],
        default="casino",
        help="floor: the same stack with no game (bench/floor_app.py), the least any pit must do; "
        "floor-ws: the same with the dealers' taps over their websockets instead of HTTP",
    )
    parser.add_argument(
        "--close",
        action="store_true",
        help="a new HTTP connection per tap (the first four sessions' figures) instead of a kept-alive one",
    )
    args = parser.parse_args()

    env = production_on_loopback("bench_pit_load measures PostgreSQL + Redis: set DATABASE_URL and REDIS_URL")
    if args.app in ("floor", "floor-ws"):
        from bench.floor_app import FloorScript, FloorSocketScript

        Script = FloorScript if args.app == "floor" else FloorSocketScript

        env["DJANGO_SETTINGS_MODULE"] = "bench.floor_settings"
        app = "bench.floor_app:application"
    else:
        from bench.pit_script import DealerScript as Script  # the tablet's actions, beside the views they call

        app = "casino.asgi:application"

    prefix = f"b{int(time.time())}_"
    tables = prepare(args.tables, prefix)
    script = Script()
    for table, dealer, boss in tables:
        script.open_table(table, dealer, boss)
    sockets = player_sessions(tables, args.sockets)

    servers = start_servers(args.servers, env, app)
    bases = [f"http://127.0.0.1:{port}" for _proc, port in servers]
    try:
        asyncio.run(run_load(args, tables, sockets, servers, bases, script))
    finally:
        stop_servers(servers)


async def run_load(args, tables, sockets, servers, bases, script) -> None:
    from asgiref.sync import sync_to_async

    from tables.models import Table

    stop = asyncio.Event()
    arrivals: dict[int, list] = {i: [] for i in range(len(sockets))}
    tasks = []
    for i, (table_id, key) in enumerate(sockets):
        _proc, port = servers[i % len(servers)]
        connected = asyncio.Event()
        tasks.append(
            asyncio.create_task(
                player_socket(
                    f"ws://127.0.0.1:{port}{script.socket_path(table_id)}",
                    f"http://127.0.0.1:{port}",
                    key,
                    arrivals[i],
                    stop,
                    connected,
                )
            )
        )
        await asyncio.wait_for(connected.wait(), 30)
    print(f"{len(sockets)} player sockets connected over {len(servers)} daphne processes")

    dealers = [
        Dealer(table.pk, dealer.username, bases, args.rate, script, close_each=args.close)
        for table, dealer, _b in tables
    ]
    for dealer in dealers:
        dealer.start()
    while not all(d.logged_in.is_set() for d in dealers):
        await asyncio.sleep(0.2)
    print(f"{len(dealers)} dealers logged in")
    await asyncio.sleep(2)  # let the logins' work drain before measuring
    cpu_before = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_before = cpu_seconds(os.getpid())
    machine_before, wall_before = machine_cpu(), time.time()
    for dealer in dealers:
        dealer.stop_at = wall_before + args.seconds
        dealer.go.set()
    while any(d.is_alive() for d in dealers):
        await asyncio.sleep(0.5)
    wall = time.time() - wall_before
    cpu_after = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_cpu = cpu_seconds(os.getpid()) - own_before
    machine_after = machine_cpu()
    # Let the backlog drain: wait until no socket has received anything for 2 s (at most 30 s),
    # so that "behind the final version" means lost, not late.
    drained_at = time.time() + 30
    while time.time() < drained_at:
        latest = max((a[-1][1] for a in arrivals.values() if a), default=0)
        if time.time() - latest > 2:
            break
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)

    final = await sync_to_async(
        lambda: dict(Table.objects.filter(pk__in=[t.pk for t, _d, _b in tables]).values_list("pk", "version"))
    )()
    sent_by_table = {d.table_id: d.sent for d in dealers}
    latencies, behind, missed = [], 0, 0
    for i, (table_id, _key) in enumerate(sockets):
        seen = dict(arrivals[i])  # version -> arrival (first)
        for version, arrived in arrivals[i]:
            seen.setdefault(version, arrived)
        for version, sent in sent_by_table[table_id].items():
            if version in seen:
                latencies.append(seen[version] - sent)
            else:
                missed += 1
        if max(seen, default=0) != final[table_id]:
            behind += 1
    actions = sum(len(d.sent) for d in dealers)
    errors = [e for d in dealers for e in d.errors]
    busy = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1])
    report = {
        "app": args.app,
        "http_connections": "new per tap" if args.close else "kept alive",
        "tables": args.tables,
        "sockets": len(sockets),
        "daphne_processes": len(servers),
        "seconds": round(wall, 1),
        "dealer_actions": actions,
        "actions_per_second": round(actions / wall, 1),
        "deliveries": len(latencies),
        "latency_ms": {
            p: round(percentile(latencies, q) * 1000, 1) for p, q in (("p50", 50), ("p95", 95), ("p99", 99))
        },
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "dealer_request_ms": {
            p: round(percentile([t for d in dealers for t in d.request_seconds], q) * 1000, 1)
            for p, q in (("p50", 50), ("p95", 95))
        },
        "versions_not_seen": missed,
        "sockets_behind_final_version": behind,
        "daphne_cpu_percent": {
            str(pid): round(100 * (cpu_after[pid] - cpu_before[pid]) / wall, 1) for pid in cpu_after
        },
        "machine_cpu_percent_of_2_cores": round(100 * busy, 1),
        "load_generator_cpu_percent": round(100 * own_cpu / wall, 1),
        "dealer_errors": errors[:5],
        "dealer_error_count": len(errors),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
