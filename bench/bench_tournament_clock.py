"""The room's clock display at a level change, pushed to N connected screens on real daphne (issue #14).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/bench_tournament_clock.py --screens 2000 --changes 10

It makes a tournament with a running clock, starts daphne processes (production settings on loopback,
as bench/bench_pit_load.py), connects N clock-display sockets (``/ws/tournaments/<id>/clock/``, the
public room screen) spread over the processes, then, every few seconds, the director skips to the next
level through the service (``tournaments.services``, the one write path). For each change, the latency
is the time from just before the service call until that version's fragment arrives at each socket.
At the end every socket must show the tournament's final version (no push lost). It prints p50/p95/p99,
the slowest change, and the CPU of the daphne processes.

The screens are spread over ``--clients`` load-generator processes (4 by default). One Python process
reading 2,000 sockets took each push's frames one after another, ~100 us each (the websockets client's
parse and this bench's bookkeeping): the last screens' latency included the load generator's own queue,
~200 ms of its CPU a push, and on the loaded machine its p95 was 300 to 900 ms higher than with four
processes (docs/benchmarks.md, issue #37). ``--clients 1``: one process, as before (though apart from
the process making the writes).

``--server-root DIR`` runs daphne from another checkout (``git worktree add`` or ``git archive`` of the
commit to compare), so a before/after comparison runs the same bench in one series. ``--profile DIR``
runs each daphne under cProfile during the level changes only (bench/profiled_daphne.py) and leaves
one ``.prof`` per process there.

It creates its own tournament in the database named by DATABASE_URL: use a bench database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import signal
import statistics
import sys
import time
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

VERSION = re.compile(r'id="clock-display"[^>]*data-version="(\d+)"')


def prepare(prefix: str):
    """A director and a tournament whose clock runs (the clock display then counts down)."""
    from tests.tournaments import display_fixtures as fx

    director = fx.a_director(f"{prefix}dora")
    tournament = fx.a_tournament(director)
    fx.start_the_clock(tournament, director)
    return tournament, director


def level_change(tournament, director) -> int:
    """The director skips to the next level (one service write); the version it made."""
    from tests.tournaments import display_fixtures as fx

    fx.next_level(tournament, director)
    tournament.refresh_from_db()
    return tournament.version


async def screen(url: str, origin: str, arrivals: list, stop: asyncio.Event, connected: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    for attempt in range(5):  # a handshake lost in a storm of connections is tried again, as a TV's page does
        try:
            socket = await connect(url, origin=origin, max_size=2**22, open_timeout=60)
            break
        except Exception as error:  # noqa: BLE001 - refused, reset, timed out: websockets' errors or the OS's
            if attempt == 4:  # counted as a screen that saw no version (the report's figures say so)
                print(f"a screen could not connect: {error!r}", file=sys.stderr)
                connected.set()
                return
            await asyncio.sleep(1 + attempt)
    async with socket:
        first = await socket.recv()
        match = VERSION.search(first, 0, 600)
        arrivals.append((int(match.group(1)) if match else -1, time.time()))
        connected.set()

        async def listen() -> None:
            async for message in socket:
                match = VERSION.search(message, 0, 600)
                if match:
                    arrivals.append((int(match.group(1)), time.time()))

        listening = asyncio.create_task(listen())
        await stop.wait()
        listening.cancel()


async def _screens(conn, urls: list[tuple[str, str]], batch: int) -> None:
    """One load-generator process: connect its screens a batch at a time, say so, then record arrivals
    until told to stop; answers "latest" (its last arrival) and "stop" (every arrival) on ``conn``."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    arrivals: list[list] = [[] for _ in urls]
    tasks = []
    # Screens connect a batch at a time, as TVs would not all power on in the same millisecond.
    for first in range(0, len(urls), batch):
        waits = []
        for i in range(first, min(len(urls), first + batch)):
            connected = asyncio.Event()
            waits.append(connected)
            tasks.append(asyncio.create_task(screen(*urls[i], arrivals[i], stop, connected)))
        await asyncio.wait_for(asyncio.gather(*(w.wait() for w in waits)), 120)
    conn.send("connected")
    asked: asyncio.Queue = asyncio.Queue()
    loop.add_reader(conn.fileno(), lambda: asked.put_nowait(conn.recv()))
    while await asked.get() != "stop":
        conn.send(max((a[-1][1] for a in arrivals if a), default=0))
    loop.remove_reader(conn.fileno())
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    conn.send(arrivals)


def screens_process(conn, urls: list[tuple[str, str]], batch: int) -> None:
    asyncio.run(_screens(conn, urls, batch))


def ask_all(clients, question):
    for _proc, conn in clients:
        conn.send(question)
    return [conn.recv() for _proc, conn in clients]


async def run(args, tournament, director, servers) -> dict:
    from asgiref.sync import sync_to_async

    urls = []
    for i in range(args.screens):
        _proc, port = servers[i % len(servers)]
        urls.append((f"ws://127.0.0.1:{port}/ws/tournaments/{tournament.pk}/clock/", f"http://127.0.0.1:{port}"))
    started = time.time()
    spawn = multiprocessing.get_context("spawn")  # no copy of this process's Django and connections
    clients = []
    for c in range(args.clients):
        ours, theirs = spawn.Pipe()
        # ``--batch`` screens connect at once in all, as with one load generator: each process its share.
        batch = max(1, args.batch // args.clients)
        proc = spawn.Process(target=screens_process, args=(theirs, urls[c::args.clients], batch), daemon=True)
        proc.start()
        clients.append((proc, ours))
    for proc, conn in clients:
        if not await asyncio.to_thread(conn.poll, 180) or conn.recv() != "connected":
            raise SystemExit(f"a load-generator process did not connect its screens (exit code {proc.exitcode})")
    print(f"{args.screens} clock screens connected over {len(servers)} daphne processes "
          f"from {args.clients} load-generator processes in {time.time() - started:.1f} s")
    await asyncio.sleep(2)

    if args.profile:
        for proc, _port in servers:
            os.kill(proc.pid, signal.SIGUSR1)
    cpu_before = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_before = cpu_seconds(os.getpid()) + sum(cpu_seconds(proc.pid) for proc, _conn in clients)
    machine_before, wall_before = machine_cpu(), time.time()
    sent: dict[int, float] = {}
    writes: list[float] = []  # the service call itself (the write, its commit, the announcement sent)
    for _ in range(args.changes):
        before = time.time()
        version = await sync_to_async(level_change, thread_sensitive=False)(tournament, director)
        sent[version] = before
        writes.append(time.time() - before)
        await asyncio.sleep(args.every)
    # Drain: until nothing arrived for 2 s (at most 60 s), so that "not seen" means lost, not late.
    deadline = time.time() + 60
    while time.time() < deadline:
        latest = max(await asyncio.to_thread(ask_all, clients, "latest"))
        if time.time() - latest > 2:
            break
        await asyncio.sleep(0.5)
    wall = time.time() - wall_before
    cpu_after = {proc.pid: cpu_seconds(proc.pid) for proc, _port in servers}
    own_cpu = cpu_seconds(os.getpid()) + sum(cpu_seconds(proc.pid) for proc, _conn in clients) - own_before
    machine_after = machine_cpu()
    if args.profile:
        for proc, _port in servers:
            os.kill(proc.pid, signal.SIGUSR2)
    arrivals = [a for part in await asyncio.to_thread(ask_all, clients, "stop") for a in part]
    for proc, _conn in clients:
        proc.join(10)

    final = max(sent)
    latencies, per_change, missed, behind = [], {v: [] for v in sent}, 0, 0
    for got in arrivals:
        seen: dict[int, float] = {}
        for version, at in got:
            seen.setdefault(version, at)
        for version, before in sent.items():
            if version in seen:
                latencies.append(seen[version] - before)
                per_change[version].append(seen[version] - before)
            else:
                missed += 1
        if max(seen, default=-1) < final:
            behind += 1
    busy = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1])
    return {
        "screens": args.screens,
        "daphne_processes": len(servers),
        "level_changes": len(sent),
        "deliveries": len(latencies),
        "latency_ms": {p: round(percentile(latencies, q) * 1000, 1)
                       for p, q in (("p50", 50), ("p95", 95), ("p99", 99))},
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "write_ms_median_max": [round(statistics.median(writes) * 1000, 1), round(max(writes) * 1000, 1)],
        "slowest_change_last_screen_ms": round(max((max(v) for v in per_change.values() if v), default=0) * 1000, 1),
        # From the end of the service call to the first and to the last screen of each change (medians over
        # the changes): the delivery without the write, and how long the last screen waited after the first.
        "after_the_write_first_last_ms": [
            round(statistics.median(min(v) - w for v, w in zip(per_change.values(), writes, strict=True)
                                    if v) * 1000, 1),
            round(statistics.median(max(v) - w for v, w in zip(per_change.values(), writes, strict=True)
                                    if v) * 1000, 1)],
        "versions_not_seen": missed,
        "screens_behind_final_version": behind,
        "daphne_cpu_percent": {str(pid): round(100 * (cpu_after[pid] - cpu_before[pid]) / wall, 1)
                               for pid in cpu_after},
        "load_generator_processes": args.clients,
        "load_generator_cpu_percent": round(100 * own_cpu / wall, 1),
        "machine_cpu_percent_of_2_cores": round(100 * busy, 1),
    }


def git_head(root: Path) -> str:
    import subprocess

    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
    return found.stdout.strip() or "not a git checkout"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--screens", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=10, help="level changes measured")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between two level changes")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=100, help="screens connecting at once, all clients")
    parser.add_argument("--clients", type=int, default=4, help="load-generator processes holding the screens")
    parser.add_argument("--port-base", type=int, default=8900, help="daphne listens on this port and the next")
    parser.add_argument("--server-root", type=Path, default=ROOT, help="the checkout daphne runs from")
    parser.add_argument("--profile", type=Path, help="a directory: daphne under cProfile during the changes")
    args = parser.parse_args()

    env = production_on_loopback("bench_tournament_clock measures PostgreSQL + Redis: set DATABASE_URL and REDIS_URL")
    tournament, director = prepare(f"c{int(time.time())}_")
    launcher: tuple[str, ...] = ("-m", "daphne")
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        env = {**env, "BENCH_PROFILE_DIR": str(args.profile.resolve())}
        launcher = (str(ROOT / "bench" / "profiled_daphne.py"),)
    servers = start_servers(args.servers, env, port_base=args.port_base, root=args.server_root.resolve(),
                            launcher=launcher)
    print(f"daphne from {args.server_root.resolve()}"
          f" (commit {git_head(args.server_root)})", flush=True)
    try:
        report = asyncio.run(run(args, tournament, director, servers))
    finally:
        stop_servers(servers)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    main()
