"""Fault drill: kill a daphne process, then Redis, then PostgreSQL, mid-hand, on a live pit.

    .venv/bin/python bench/fault_drill.py            # a table of figures per fault
    .venv/bin/python bench/fault_drill.py --json     # the same, machine-readable

It never touches the casino's services: it starts its OWN PostgreSQL cluster (initdb into a temp dir,
as the ``postgres`` user, on a free loopback port) and its own Redis (no persistence), migrates and
seeds a small Texas Hold'em Bonus pit there, and runs two daphne processes with production settings
(``DEBUG=0``) on them. Dealers tap through their hands over HTTP (one tap a second per table, each tap
with its idempotency key, retried under the SAME key after an error or no answer, as a dealer taps
again on the tablet); half the dealers alternate between the processes, half are pinned to one.
Every table's phones and its tablet stay connected by websocket to both processes and reconnect on a
drop as the browser does (htmx's ws extension: full-jitter back-off; static/js/live.js: ask for the
current state after a reconnect or a skipped version). Meanwhile a pit boss logs in or a player opens
a QR link every other second, and a load balancer's probe asks each process's ``/healthz``.

Each fault: SIGKILL mid-hand, load kept running for ``--fault-seconds``, the server started again,
then it measures how long until every screen (connected, and showing the table's current version)
has caught up. For each fault it prints:

* taps, logins and QR links answered 5xx, and of those how many after the repair; requests with no
  answer (refused, reset, timed out);
* taps lost or applied twice, from PostgreSQL's own rows (``tables_tablerequest`` and
  ``tables_handaction``) against the answers the dealers got: both must be 0;
* the seconds from the repair until every screen shows the server's version, and until every screen
  shows a version written after the repair (the whole path works again).

Bounded: a few minutes at most (``--recovery-timeout`` per fault), loopback only; everything it
started is stopped at the end, on an error or on Ctrl-C. docs/reliability.md records its figures.

One script of about 1,000 lines, on purpose (issue #13): a single drill read top to bottom (its own
servers, the load, each fault, the figures), run by hand and imported by nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
# The version a screen shows: its fragment's root element carries it (casino.consumers.SHOWN_VERSION).
SHOWN_VERSION = re.compile(r'data-version="(\d+)"')
# htmx's ws extension reconnects only after these close codes (an abnormal drop, a server error, a
# restart, try again later); any other close leaves the screen closed, as the browser would.
RECONNECT_CODES = (1006, 1011, 1012, 1013)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(ready, timeout: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return True
        time.sleep(step)
    return False


def port_open(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


# --------------------------------------------------------------------------- the private servers


class PrivateRedis:
    """A Redis of the drill's own on a free loopback port, with nothing kept on disk: a restart
    starts empty, as a crashed Redis with the casino's settings (no persistence) would."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_until(self.answers, 10):
            raise RuntimeError(f"redis-server on {self.port} did not answer")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: a crash, not a shutdown."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        self.kill()


class PrivatePostgres:
    """A PostgreSQL cluster of the drill's own: initdb into a temp dir as the ``postgres`` user
    (PostgreSQL refuses to run as root), a free loopback port, its socket in that dir, fsync off."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="fault-drill-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/casino_drill"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.proc: subprocess.Popen | None = None

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        subprocess.run(
            [*self.as_postgres, str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
             "--auth=trust", "--no-sync", "-E", "UTF8"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip

    def start(self) -> None:
        """The postmaster in the foreground, our child (through runuser): killed, it is reaped at once,
        and its lock file is free for the next start (pg_ctl's daemon would be left to init to reap)."""
        self.proc = subprocess.Popen(
            [*self.as_postgres, str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.dir}",
             # fsync off: a killed server loses nothing the kernel holds, and the drill kills no kernel.
             # synchronous_commit stays on: off, a SIGKILL loses commits already answered to the dealer.
             "-c", "fsync=off"],
            stdout=subprocess.DEVNULL, stderr=self.log.open("a"),
        )  # fmt: skip
        if not wait_until(self.answers, 60, 0.2):
            raise RuntimeError(f"PostgreSQL on {self.port} did not start: {self.log.read_text()[-2000:]}")

    def answers(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"PostgreSQL on {self.port} exited: {self.log.read_text()[-2000:]}")
        ready = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-t", "1"], check=False
        )
        return ready.returncode == 0

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend: the server is gone at once, as in a crash."""
        if self.proc is None or self.proc.poll() is not None:
            return
        pid = self.postmaster_pid() or self.proc.pid
        family = [pid, *children_of(pid)]
        for member in family:
            with contextlib.suppress(ProcessLookupError):
                os.kill(member, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        wait_until(lambda: not any(_running(m) for m in family), 10)
        # PostgreSQL takes a dead postmaster's lock file over only once its pid is gone for good.
        if Path(f"/proc/{pid}").exists():
            (self.data / "postmaster.pid").unlink(missing_ok=True)

    def create_database(self) -> None:
        subprocess.run(
            [*self.as_postgres, str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "postgres", "casino_drill"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip

    def stop(self) -> None:
        """Kill it and remove its files."""
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed process not reaped yet holds nothing but its pid)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Daphne:
    """One daphne process of the pit, on its own port, started again on the same port after a kill."""

    def __init__(self, env: dict, log_dir: Path):
        self.env, self.port = env, free_port()
        self.log = log_dir / f"daphne-{self.port}.log"
        self.proc: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "casino.asgi:application"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=self.log.open("a"),
        )  # fmt: skip

    def listening(self, timeout: float = 60) -> bool:
        def up() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne on {self.port} exited: {self.log.read_text()[-2000:]}")
            return port_open(self.port)

        return wait_until(up, timeout)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# --------------------------------------------------------------------------- what the dealers saw


@dataclasses.dataclass
class Attempt:
    at: float
    base: str
    status: int | None  # None: no answer (refused, reset, timed out)
    error: str = ""
    took: float = 0.0  # seconds until the answer (or the error)


@dataclasses.dataclass
class Tap:
    """One tap on a tablet, under one idempotency key, with every attempt to send it."""

    table_id: int
    key: str
    action: str
    attempts: list[Attempt] = dataclasses.field(default_factory=list)
    applied_version: int | None = None  # the version a 2xx answer said this tap made
    refused: int | None = None  # the 4xx that settled it (409: the table moved; the dealer taps afresh)

    @property
    def first_sent(self) -> float:
        return self.attempts[0].at if self.attempts else 0.0

    @property
    def waited(self) -> float:
        """Seconds from the first tap until the answer that settled it (the last attempt's)."""
        return self.attempts[-1].at + self.attempts[-1].took - self.first_sent if self.attempts else 0.0

    @property
    def answered(self) -> bool:
        return self.applied_version is not None or self.refused is not None


def account_taps(taps: list[Tap], requests: list[tuple], actions: list[tuple], versions: dict) -> dict:
    """What PostgreSQL holds against what the dealers were told.

    ``requests``: ``(table_id, key, table_version)`` rows of ``tables_tablerequest``; ``actions``:
    ``(table_id, key, kind, record)`` rows of ``tables_handaction``; ``versions``: ``table_id ->
    (version before the drill, version after)``. Only writes after the drill began are counted.

    * lost: a tap answered 2xx with no request row under its key, or whose row holds another version
      than the answer said (the dealer was told it happened; the record says otherwise);
    * applied twice: a key recorded more than once, a request row no tap sent, a version made by no
      request row, a hand action under a key with no request row, or the same action twice in one
      request (a retry that wrote its rows again).
    """
    since = {table: before for table, (before, _after) in versions.items()}
    recorded = collections.Counter()
    recorded_version = {}
    for table, key, version in requests:
        if table in since and version > since[table]:
            recorded[(table, key)] += 1
            recorded_version[(table, key)] = version
    sent = {(tap.table_id, tap.key) for tap in taps}
    lost = [
        f"{tap.key} ({tap.action}): answered version {tap.applied_version}, "
        f"recorded {recorded_version.get((tap.table_id, tap.key))}, attempts {[a.status for a in tap.attempts]}"
        for tap in taps
        if tap.applied_version is not None and recorded_version.get((tap.table_id, tap.key)) != tap.applied_version
    ]
    twice = [f"{key}: recorded {n} times" for (_t, key), n in recorded.items() if n > 1]
    twice += [f"{key}: recorded, never sent" for (t, key) in recorded if (t, key) not in sent]
    for table, (before, after) in versions.items():
        made = sorted(v for (t, _k), v in recorded_version.items() if t == table)
        if made != list(range(before + 1, after + 1)):
            twice.append(f"table {table}: versions {before + 1}..{after} made by {len(made)} recorded requests")
    rows = collections.Counter((t, key, kind, json.dumps(record, sort_keys=True)) for t, key, kind, record in actions)
    for (table, key, kind, _record), n in rows.items():
        if (table, key) not in recorded and (table, key) in sent:
            twice.append(f"{key}: a {kind} row with no request row")
        elif n > 1 and (table, key) in recorded:
            twice.append(f"{key}: the same {kind} written {n} times")
    unanswered = [tap for tap in taps if not tap.answered]
    return {
        "taps": len(taps),
        "answered_2xx": sum(tap.applied_version is not None for tap in taps),
        "retried": sum(len(tap.attempts) > 1 for tap in taps),
        "lost": lost,
        "applied_twice": twice,
        # Never answered (the drill ended first): applied or not, the record says which.
        "unanswered": len(unanswered),
        "unanswered_but_applied": sum((tap.table_id, tap.key) in recorded for tap in unanswered),
    }


# --------------------------------------------------------------------------- the dealers


class RetryingDealer:
    """A dealer whose taps survive a fault: the same key again after an error or no answer.

    Built on bench_pit_load's Dealer (its kept-alive connections and cookies) and pit_script's hand.
    """

    def __init__(self, table_id: int, username: str, bases: list[str], pinned: int | None, rate: float, script):
        from bench.bench_pit_load import Dealer

        self.http = Dealer(table_id, username, bases, rate, script)
        self.table_id, self.bases, self.pinned, self.rate, self.script = table_id, bases, pinned, rate, script
        self.taps: list[Tap] = []
        self.stop_at = float("inf")
        self.give_up_at = float("inf")  # the drill's end: a tap still failing then stays unanswered
        self.turn = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.crashed = ""

    def login(self) -> None:
        self.script.login(self.http)

    def next_base(self) -> str:
        self.turn += 1
        return self.bases[self.pinned if self.pinned is not None else self.turn % len(self.bases)]

    def tap(self) -> Tap:
        from bench.pit_script import FRAGMENT_VERSION, HAND

        script, table_id = self.script, self.table_id
        action, fields = HAND[script.steps[table_id] % len(HAND)]
        tap = Tap(table_id, str(uuid.uuid4()), action)
        data = {**fields, "version": script.versions[table_id], "key": tap.key}
        headers = {"HX-Request": "true", "X-CSRFToken": script.csrf[table_id]}
        self.taps.append(tap)
        answered = self.send_until_answered(tap, f"/tables/{table_id}/act/{action}/", data, headers)
        if answered is not None:
            _base, status, page = answered
            match = FRAGMENT_VERSION.search(page)
            if match:
                script.versions[table_id] = int(match.group(1))
            if status == 200:
                tap.applied_version = script.versions[table_id]
                script.steps[table_id] += 1
            else:
                # 409: another screen moved the table and the fragment says its version: the same step
                # again under a new key. Anything else: a refusal the drill's hand should never meet.
                tap.refused = status
                if status != 409:
                    script.steps[table_id] += 1
        return tap

    def send_until_answered(self, tap: Tap, path: str, data: dict, headers: dict) -> tuple[str, int, str] | None:
        """``tap`` sent, and sent again under its same key after a 5xx or no answer, alternating between the
        processes, until it is answered below 500 (the base, status and page) or the dealer gives up (None)."""
        while time.time() < self.give_up_at:
            base = self.next_base()
            attempt = Attempt(time.time(), base, None)
            tap.attempts.append(attempt)
            try:
                status, page = self.http.request(base, path, data, headers)
            except (OSError, http.client.HTTPException) as error:
                attempt.error, attempt.took = type(error).__name__, time.time() - attempt.at
                time.sleep(1 / self.rate)  # the dealer taps again a moment later
                continue
            attempt.status, attempt.took = status, time.time() - attempt.at
            if status >= 500:
                time.sleep(1 / self.rate)
                continue
            return base, status, page
        return None

    def run(self) -> None:
        try:
            time.sleep(random.random() / self.rate)  # noqa: S311 - tables are not in lockstep
            while time.time() < self.stop_at:
                started = time.time()
                self.tap()
                time.sleep(max(0.0, 1 / self.rate - (time.time() - started)))
        except Exception as error:  # noqa: BLE001 - reported in the summary, not hidden
            self.crashed = repr(error)

    def mid_hand(self) -> bool:
        from bench.pit_script import HAND

        return 1 < self.script.steps[self.table_id] % len(HAND) < len(HAND) - 1


# --------------------------------------------------------------------------- the screens


class Screen:
    """A phone or a tablet on a websocket, as the browser keeps it: reconnect with htmx's full-jitter
    back-off after an abnormal close, ask for the current state after a reconnect or a skipped version
    (live.js), and show the newest version it was sent."""

    def __init__(self, kind: str, table_id: int, daphne: Daphne, path: str, cookie: str):
        self.kind, self.table_id, self.daphne, self.path, self.cookie = kind, table_id, daphne, path, cookie
        self.shown = 0
        self.connected = False
        self.opened_at = 0.0
        self.connects = 0
        self.handshake_statuses: collections.Counter = collections.Counter()
        self.closes: list[tuple[float, int]] = []  # when an open socket closed, and its close code
        self.closed_for_good: int | None = None  # a close code after which the browser stops too

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        retries, was_closed = 0, False
        while not stop.is_set():
            code = 1006
            try:
                async with connect(
                    f"ws://127.0.0.1:{self.daphne.port}{self.path}",
                    origin=f"http://127.0.0.1:{self.daphne.port}",
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=10,
                    max_size=2**22,
                ) as ws:
                    self.connected, retries = True, 0
                    self.connects += 1
                    self.opened_at = time.time()
                    if was_closed:
                        await ws.send(json.dumps({"refresh": True}))
                    listening = asyncio.ensure_future(self.listen(ws))
                    stopping = asyncio.ensure_future(stop.wait())
                    await asyncio.wait([listening, stopping], return_when=asyncio.FIRST_COMPLETED)
                    stopping.cancel()
                    if not listening.done():
                        listening.cancel()
                        return
                    with contextlib.suppress(ConnectionClosed):
                        listening.result()
                    code = ws.close_code or 1006
                    self.closes.append((time.time(), code))
            except InvalidStatus as refused:
                self.handshake_statuses[refused.response.status_code] += 1
            except Exception as error:  # noqa: BLE001 - refused, reset, timed out: the browser retries
                self.handshake_statuses[type(error).__name__] += 1
            self.connected, was_closed = False, True
            if code not in RECONNECT_CODES:
                self.closed_for_good = code
                return
            delay = random.random() * 2 ** min(retries, 6)  # noqa: S311 - htmx's full jitter, in seconds
            retries += 1
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)

    async def listen(self, ws) -> None:
        async for message in ws:
            match = SHOWN_VERSION.search(message, 0, 600)
            if not match:
                continue
            got = int(match.group(1))
            if got > self.shown + 1 and self.shown > 0:
                await ws.send(json.dumps({"refresh": True}))  # a push was lost: ask for the current state
            self.shown = max(self.shown, got)


# --------------------------------------------------------------------------- the drill


class Drill:
    def __init__(self, args):
        self.args = args
        self.stack = contextlib.ExitStack()
        self.work = Path(tempfile.mkdtemp(prefix="fault-drill-"))
        self.stack.callback(self.clean_up)  # first in, so last out: after every server has stopped
        self.postgres: PrivatePostgres | None = None
        self.faults: list[dict] = []

    def clean_up(self) -> None:
        if self.args.keep_logs:
            keep = Path(self.args.keep_logs)
            keep.mkdir(parents=True, exist_ok=True)
            logs = [*self.work.glob("*.log"), *([self.postgres.log] if self.postgres else [])]
            for log in logs:
                with contextlib.suppress(OSError):
                    shutil.copy(log, keep / log.name)
        shutil.rmtree(self.work, ignore_errors=True)
        if self.postgres:
            self.postgres.stop()

    def log(self, text: str) -> None:
        if not self.args.json:
            print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {text}", flush=True)

    # ---- set-up

    def start_services(self) -> None:
        self.redis = PrivateRedis()
        self.redis.start()
        self.stack.callback(self.redis.stop)
        self.postgres = PrivatePostgres()
        self.stack.callback(self.postgres.kill)
        self.postgres.init()
        self.postgres.start()
        self.postgres.create_database()
        self.log(f"own PostgreSQL on {self.postgres.port}, own Redis on {self.redis.port}")
        self.env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": "fault-drill-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "AUDIT_KEY": "fault-drill-only-audit-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "AUDIT_ANCHOR_PATH": os.devnull,  # the drill's database is thrown away: so are its anchors
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "STATIC_MANIFEST": "0",
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": self.redis.url,
            "CHANNEL_PREFIX": "casino_drill",
        }
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=self.env,
                       check=True)  # fmt: skip
        # The drill's own reads must not keep pooled connections across the PostgreSQL kill.
        os.environ.update({**self.env, "DATABASE_POOL": "0", "DJANGO_SETTINGS_MODULE": "casino.settings"})
        import django

        django.setup()

    def seed(self) -> None:
        from django.db import connections

        from bench.bench_pit_load import player_sessions, prepare
        from bench.pit_script import DealerScript
        from casino import player_links
        from tables import sessions

        tables = prepare(self.args.tables, "drill_")
        self.script = DealerScript()
        for table, dealer, boss in tables:
            self.script.open_table(table, dealer, boss)
        phones = player_sessions(tables, self.args.tables * self.args.phones_per_table)
        self.tables, self.phone_sessions = tables, phones
        _table, dealer, boss = tables[0]
        self.boss = boss.username
        self.link_token = player_links.token_for(sessions.issue_box_link(table=_table, number=7, by=dealer))
        connections.close_all()

    def start_daphnes(self) -> None:
        self.daphnes = [Daphne(self.env, self.work) for _ in range(2)]
        for daphne in self.daphnes:
            self.stack.callback(daphne.stop)
            daphne.start()
        for daphne in self.daphnes:
            if not daphne.listening():
                raise RuntimeError(f"daphne on {daphne.port} did not start")
        self.bases = [d.base for d in self.daphnes]
        self.log(f"two daphne processes on {', '.join(str(d.port) for d in self.daphnes)}")

    def start_dealers(self) -> None:
        self.dealers = []
        for i, (table, dealer, _boss) in enumerate(self.tables):
            # Even tables alternate between the processes; odd ones are pinned, spread over both.
            pinned = None if i % 2 == 0 else (i // 2) % 2
            self.dealers.append(
                RetryingDealer(table.pk, dealer.username, self.bases, pinned, self.args.rate, self.script)
            )
        for dealer in self.dealers:
            dealer.login()
        self.log(f"{len(self.dealers)} dealers logged in")

    def screens(self) -> list[Screen]:
        screens = []
        for i, (table_id, session_key) in enumerate(self.phone_sessions):
            screens.append(Screen("phone", table_id, self.daphnes[i % 2], "/ws/player/", f"sessionid={session_key}"))
        for i, dealer in enumerate(self.dealers):
            screens.append(
                Screen("tablet", dealer.table_id, self.daphnes[(i + 1) % 2], f"/ws/tables/{dealer.table_id}/dealer/",
                       dealer.http.cookie_header())
            )  # fmt: skip
        return screens

    # ---- reading the record

    def db_versions(self) -> dict[int, int] | None:
        import psycopg

        try:
            with psycopg.connect(self.postgres.url, connect_timeout=2, autocommit=True) as connection:
                rows = connection.execute(
                    "SELECT id, version FROM tables_table WHERE id = ANY(%s)", [[t.pk for t, _d, _b in self.tables]]
                ).fetchall()
            return dict(rows)
        except psycopg.Error:
            return None

    def read_record(self) -> tuple[list, list]:
        import psycopg

        ids = [t.pk for t, _d, _b in self.tables]
        with psycopg.connect(self.postgres.url, connect_timeout=5, autocommit=True) as connection:
            requests = connection.execute(
                "SELECT table_id, key, table_version FROM tables_tablerequest WHERE table_id = ANY(%s)", [ids]
            ).fetchall()
            actions = connection.execute(
                "SELECT h.table_id, a.key, a.kind, a.record FROM tables_handaction a "
                "JOIN tables_hand h ON h.id = a.hand_id WHERE h.table_id = ANY(%s)",
                [ids],
            ).fetchall()
        return requests, actions

    async def caught_up(
        self, screens: list[Screen], since: float, timeout: float, newer_than: dict[int, int] | None = None
    ) -> tuple[float | None, list[Screen]]:
        """Seconds from ``since`` until every screen, connected, has shown its table's current version
        (each on its own: the dealers keep tapping), and the screens still behind after ``timeout``.

        ``newer_than``: a table's version at the repair; a screen counts only once it shows a later one,
        a write made after the repair: the whole path (tap, record, announcement, push) works again.
        """
        caught: dict[int, float] = {}
        deadline = since + timeout
        while time.time() < deadline:
            versions = await asyncio.to_thread(self.db_versions)
            now = time.time()
            for i, screen in enumerate(screens):
                if i in caught or not versions or not screen.connected:
                    continue
                current = versions[screen.table_id]
                if screen.shown >= current and (newer_than is None or current > newer_than[screen.table_id]):
                    caught[i] = now
            if len(caught) == len(screens):
                return round(max(caught.values()) - since, 2), []
            await asyncio.sleep(0.2)
        return None, [s for i, s in enumerate(screens) if i not in caught]

    # ---- the faults

    async def fault(self, name: str, down: float, screens: list[Screen], kill, repair, ready) -> dict:
        await asyncio.to_thread(wait_until, lambda: all(d.mid_hand() for d in self.dealers), 15)
        steady, _behind = await self.caught_up(screens, time.time(), 20)
        connects = sum(screen.connects for screen in screens)
        killed = time.time()
        kill()
        self.log(f"{name}: killed (SIGKILL) mid-hand")
        await asyncio.sleep(down)
        repair()
        await asyncio.to_thread(ready)
        repaired = time.time()
        at_repair = await asyncio.to_thread(self.db_versions)
        self.log(f"{name}: back after {repaired - killed:.1f} s; waiting for every screen")
        timeout = self.args.recovery_timeout
        (current, behind), (live, _) = await asyncio.gather(
            self.caught_up(screens, repaired, timeout), self.caught_up(screens, repaired, timeout, at_repair)
        )
        if current is None:
            self.log(f"{name}: {len(behind)} screens not caught up in {timeout:g} s")
        else:
            self.log(f"{name}: every screen current after {current} s, showing a later write after {live} s")
        await asyncio.sleep(2)
        return {
            "fault": name if down == self.args.fault_seconds else f"{name}:{down:g}",
            "steady_before": steady is not None,
            "killed_at": killed,
            "repaired_at": repaired,
            "repaired_after_s": round(repaired - killed, 2),
            "screens_current_s": current,
            "screens_live_s": live,
            "screens_behind": [
                f"{s.kind} of table {s.table_id} on :{s.daphne.port}, shows {s.shown}, "
                + (f"open since {s.opened_at - killed:+.1f} s from the kill" if s.connected else "closed")
                for s in behind
            ],
            "screens_reconnected": sum(screen.connects for screen in screens) - connects,
            "sockets_closed": dict(collections.Counter(
                str(code) for screen in screens for at, code in screen.closes if at >= killed
            )),  # fmt: skip
        }

    def kill_daphne(self) -> None:
        self.daphnes[0].kill()

    def restart_daphne(self) -> None:
        self.daphnes[0].start()

    def daphne_ready(self) -> None:
        self.daphnes[0].listening()

    def postgres_ready(self) -> None:
        wait_until(lambda: self.db_versions() is not None, 60, 0.2)

    async def run_faults(self) -> None:
        stop = asyncio.Event()
        screens = self.screens()
        tasks = [asyncio.create_task(screen.run(stop)) for screen in screens]
        self.health = HealthProbe(self.daphnes)
        self.health.start()
        self.arrivals = Arrivals(self.bases, self.boss, self.link_token)
        self.arrivals.start()
        for dealer in self.dealers:
            dealer.thread.start()
        self.log(f"{len(screens)} screens ({self.args.tables * self.args.phones_per_table} phones, "
                 f"{len(self.dealers)} tablets) over both processes; dealers tapping")  # fmt: skip
        await asyncio.sleep(self.args.warm_up)
        faults = {
            "daphne": (self.kill_daphne, self.restart_daphne, self.daphne_ready),
            "redis": (self.redis.kill, self.redis.start, lambda: wait_until(self.redis.answers, 30)),
            "postgres": (self.postgres.kill, self.postgres.start, self.postgres_ready),
        }
        try:
            for name, down in self.args.faults:
                self.faults.append(await self.fault(name, down, screens, *faults[name]))
        except BaseException:
            # Ctrl-C, SIGTERM or an error: no more taps, no waiting; the ExitStack stops the servers.
            for dealer in self.dealers:
                dealer.stop_at = dealer.give_up_at = 0
            stop.set()
            raise
        # The drill's end: a tap in flight may still go through (the servers are all back by now).
        ended = time.time()
        for dealer in self.dealers:
            dealer.stop_at = ended
            dealer.give_up_at = ended + self.args.recovery_timeout
        await asyncio.to_thread(lambda: [d.thread.join() for d in self.dealers])
        self.final_catch_up, _behind = await self.caught_up(screens, time.time(), 20)
        self.screens_at_end = screens
        self.health.stop()
        self.arrivals.stop()
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- the report

    def report(self, versions_before: dict[int, int]) -> dict:
        requests, actions = self.read_record()
        versions_after = self.db_versions() or {}
        versions = {t: (versions_before[t], versions_after.get(t, versions_before[t])) for t in versions_before}
        taps = [tap for dealer in self.dealers for tap in dealer.taps]
        overall = account_taps(taps, requests, actions, versions)
        faults = []
        # Each fault's window: from its kill to the next one's (the last one's to the drill's end), so
        # that every tap from the first kill on belongs to one fault.
        ends = [f["killed_at"] for f in self.faults[1:]] + [time.time()]
        for fault, end in zip(self.faults, ends, strict=True):
            start, repaired = fault.pop("killed_at"), fault.pop("repaired_at")
            in_window = [tap for tap in taps if start <= tap.first_sent < end]
            keys = {tap.key for tap in in_window}
            # An answer counts where it came: a request sent just before a kill may be answered by the fault.
            attempts = [a for tap in taps for a in tap.attempts if start <= a.at + a.took < end]
            statuses = collections.Counter(a.status for a in attempts if a.status is not None)
            fault.update({
                "taps": len(in_window),
                "retried": sum(len(tap.attempts) > 1 for tap in in_window),
                "http_5xx": sum(n for s, n in statuses.items() if s >= 500),
                # Of those, answered once the server was back (a dead pooled connection, a lost session).
                "http_5xx_after_repair": sum(
                    a.status is not None and a.status >= 500 and a.at + a.took >= repaired for a in attempts
                ),
                "no_answer": sum(a.status is None for a in attempts),
                "slowest_answer_s": round(max((a.took for a in attempts), default=0), 2),
                "longest_tap_s": round(max((tap.waited for tap in in_window), default=0), 2),
                "statuses": {str(s): n for s, n in sorted(statuses.items())},
                "lost": sum(any(key in item for key in keys) for item in overall["lost"]),
                "applied_twice": sum(any(key in item for key in keys) for item in overall["applied_twice"]),
                "healthz": self.health.between(start, end),
                "arrivals": self.arrivals.between(start, end),
                "arrivals_5xx": sum(a[2] is not None and a[2] >= 500 for a in self.arrivals.answers
                                    if start <= a[0] < end),
                "arrivals_5xx_after_repair": sum(a[2] is not None and a[2] >= 500 for a in self.arrivals.answers
                                                 if repaired <= a[0] < end),
            })  # fmt: skip
            faults.append(fault)
        return {
            "recovery_timeout": self.args.recovery_timeout,
            "tables": len(self.tables),
            "screens": len(self.screens_at_end),
            "faults": faults,
            "overall": {
                **{k: v for k, v in overall.items() if k not in ("lost", "applied_twice")},
                "lost": len(overall["lost"]),
                "applied_twice": len(overall["applied_twice"]),
                "lost_detail": overall["lost"][:10],
                "applied_twice_detail": overall["applied_twice"][:10],
                "refused": dict(collections.Counter(str(t.refused) for t in taps if t.refused is not None)),
                "every_screen_current_at_end": self.final_catch_up is not None,
                "screens_closed_for_good": sum(s.closed_for_good is not None for s in self.screens_at_end),
                "ws_handshake_failures": dict(
                    sum((s.handshake_statuses for s in self.screens_at_end), collections.Counter())
                ),
                "dealer_crashes": [d.crashed for d in self.dealers if d.crashed],
            },
        }

    def start(self) -> None:
        """Its own PostgreSQL and Redis, the casino seeded, the daphne processes up, the dealers tapping."""
        self.start_services()
        self.seed()
        self.start_daphnes()
        self.start_dealers()

    def main(self) -> dict:
        with self.stack:
            self.start()
            versions_before = self.db_versions()
            asyncio.run(self.run_faults())
            return self.report(versions_before)


class Arrivals(threading.Thread):
    """People arriving during a fault: every other second a pit boss logs in or a player opens a QR
    link, on each process in turn, each with a browser of their own (its own cookies)."""

    def __init__(self, bases: list[str], boss: str, link_token: str):
        super().__init__(daemon=True)
        self.bases, self.boss, self.link_token = bases, boss, link_token
        self.answers: list[tuple[float, str, int | None]] = []
        self.halt = threading.Event()

    def browser(self, base: str):
        from bench.bench_pit_load import Dealer

        return Dealer(0, self.boss, [base], 1.0, None)

    def log_in(self, base: str) -> int:
        from bench.pit_script import TOKEN

        browser = self.browser(base)
        status, page = browser.request(base, "/login/")
        token = TOKEN.search(page)
        if status != 200 or token is None:
            return status
        data = {"username": self.boss, "password": "bench-pass-2026", "csrfmiddlewaretoken": token.group(1)}
        status, _page = browser.request(base, "/login/", data)
        return status if status != 302 else 200  # a login that worked redirects

    def open_link(self, base: str) -> int:
        browser = self.browser(base)
        status, _page = browser.request(base, f"/p/{self.link_token}/")
        if status != 302:
            return status
        status, _page = browser.request(base, "/p/")
        return status

    def run(self) -> None:
        turn = 0
        while not self.halt.is_set():
            base = self.bases[turn % len(self.bases)]
            kind, visit = (("login", self.log_in), ("qr link", self.open_link))[turn // len(self.bases) % 2]
            at = time.time()
            try:
                status = visit(base)
            except (OSError, http.client.HTTPException):
                status = None
            self.answers.append((time.time(), kind, status))  # when it was answered
            turn += 1
            self.halt.wait(max(0.0, 2 - (time.time() - at)))

    def between(self, start: float, end: float) -> dict:
        return dict(collections.Counter(
            f"{kind} {status or 'no answer'}" for at, kind, status in self.answers if start <= at < end
        ))  # fmt: skip

    def stop(self) -> None:
        self.halt.set()
        self.join(20)


class HealthProbe(threading.Thread):
    """A load balancer's probe: ``/healthz`` of each process once a second, with a 2 s timeout."""

    def __init__(self, daphnes: list[Daphne]):
        super().__init__(daemon=True)
        self.daphnes = daphnes
        self.answers: list[tuple[float, str]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            for daphne in self.daphnes:
                at = time.time()
                try:
                    with urllib.request.urlopen(f"{daphne.base}/healthz", timeout=2) as response:  # noqa: S310
                        answer = str(response.status)
                except urllib.error.HTTPError as error:
                    answer = str(error.code)
                except OSError:
                    answer = "no answer"
                self.answers.append((at, answer))
            self.halt.wait(1)

    def between(self, start: float, end: float) -> dict:
        return dict(collections.Counter(answer for at, answer in self.answers if start <= at < end))

    def stop(self) -> None:
        self.halt.set()
        self.join(5)


def print_table(report: dict) -> None:
    columns = ["fault", "back after s", "taps", "retried", "taps 5xx (after)", "no answer", "arrivals 5xx (after)",
               "lost", "applied twice", "screens current s", "screens live s"]  # fmt: skip
    never = f"> {report['recovery_timeout']:g}"
    rows = [
        [f["fault"], f["repaired_after_s"], f["taps"], f["retried"], f"{f['http_5xx']} ({f['http_5xx_after_repair']})",
         f["no_answer"], f"{f['arrivals_5xx']} ({f['arrivals_5xx_after_repair']})", f["lost"], f["applied_twice"],
         never if f["screens_current_s"] is None else f["screens_current_s"],
         never if f["screens_live_s"] is None else f["screens_live_s"]]
        for f in report["faults"]
    ]  # fmt: skip
    widths = [max(len(str(x)) for x in column) for column in zip(columns, *rows, strict=True)]
    for row in [columns, *rows]:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))
    for f in report["faults"]:
        print(f"{f['fault']}: taps {f['statuses']}, slowest answer {f['slowest_answer_s']} s, longest tap "
              f"{f['longest_tap_s']} s; arrivals {f['arrivals']}; /healthz {f['healthz']}; "
              f"sockets closed {f['sockets_closed']}, {f['screens_reconnected']} reconnects"
              + (f", behind: {f['screens_behind']}" if f["screens_behind"] else ""))  # fmt: skip
    print("overall: " + json.dumps(report["overall"]))


FAULTS = ("daphne", "redis", "postgres")


def parse_faults(text: str, seconds: float, known: tuple[str, ...] = FAULTS,
                 defaults: dict[str, float] | None = None) -> list[tuple[str, float]]:
    """``daphne,redis,postgres:0`` -> ``[("daphne", seconds), ("redis", seconds), ("postgres", 0.0)]``: each of
    the ``known`` faults dead for the seconds after its colon, else its ``defaults`` or ``seconds``."""
    faults = []
    for item in text.split(","):
        name, _colon, down = item.strip().partition(":")
        if name not in known:
            raise ValueError(f"unknown fault {name!r}: choose from {', '.join(known)}")
        try:
            faults.append((name, float(down) if down else (defaults or {}).get(name, seconds)))
        except ValueError:
            raise ValueError(f"{item!r}: the seconds after the colon must be a number") from None
    return faults


def interrupted(_signum, _frame) -> None:
    raise KeyboardInterrupt


def drill_options(parser: argparse.ArgumentParser) -> None:
    """The options every drill takes after its tables and faults: the waits and what it prints and keeps."""
    parser.add_argument("--recovery-timeout", type=float, default=60, help="give up waiting for the screens")
    parser.add_argument("--warm-up", type=float, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the daphne and PostgreSQL logs there at the end")


def run_drill(drill: Drill) -> dict:
    """The drill run and its figures printed (as JSON with ``--json``)."""
    # Ctrl-C or a SIGTERM: the ExitStack stops every server the drill started.
    signal.signal(signal.SIGTERM, interrupted)
    report = drill.main()
    if drill.args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--phones-per-table", type=int, default=3)
    parser.add_argument("--rate", type=float, default=1.0, help="taps per second per table")
    parser.add_argument("--faults", default="daphne,redis,postgres",
                        help="which to kill, in order, each NAME or NAME:SECONDS dead (default: daphne,redis,postgres;"
                             " postgres:0 is a crash and an immediate restart)")  # fmt: skip
    parser.add_argument("--fault-seconds", type=float, default=5, help="how long each server stays dead")
    drill_options(parser)
    args = parser.parse_args()
    try:
        args.faults = parse_faults(args.faults, args.fault_seconds)
    except ValueError as bad:
        parser.error(str(bad))
    run_drill(Drill(args))


if __name__ == "__main__":
    main()
