"""Is the Hold'em engine of one checkout slower than another's? Both measured in one interleaved series.

On a machine shared with other work, two runs of ``bench_holdem.py`` minutes
apart differ by more than the change being measured. This starts one
process per checkout and has them take turns: each round plays the same
400 random six-handed hands (``bench_holdem.play_random_hand``) and replays
the same 1,500 hand lines (``replay_holdem_hand``), so both see the same
load; the best and the median round of each are compared::

    git worktree add /tmp/before <commit>      # or any copy of the old code
    .venv/bin/python bench/bench_holdem_compare.py /tmp/before . [--rounds 30]

Each checkout plays with its own ``bench/bench_holdem.py`` (the engine's API
may differ between them); the hand lines come from the second checkout.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HANDS = 400
LINES = 1_500


def worker(root: str) -> None:
    """One checkout's side: wait for a word on stdin, play and replay, answer with both times."""
    sys.path[:0] = [root, root + "/bench"]
    import bench_holdem  # noqa: PLC0415 - the checkout's own bench, on the path just set

    from casino.rules.holdem.replay import replay_holdem_hand  # noqa: PLC0415

    setups = [bench_holdem.random_setup(random.Random(7)) for _ in range(HANDS)]
    lines = [json.loads(line) for line in sys.stdin.readline().split("\x1e")]
    for _ in sys.stdin:
        rng = random.Random(11)
        start = time.perf_counter()
        for setup in setups:
            bench_holdem.play_random_hand(rng, setup)
        played = time.perf_counter() - start
        start = time.perf_counter()
        for line in lines:
            replay_holdem_hand(line)
        print(played, time.perf_counter() - start, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="the checkout measured first (e.g. the old code)")
    parser.add_argument("after", help="the checkout compared with it")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    after = str(Path(args.after).resolve())
    sys.path[:0] = [after, after + "/bench"]
    import bench_holdem  # noqa: PLC0415

    _, recorded = bench_holdem.bench_engine(LINES, 8)
    payload = "\x1e".join(text for text, _stacks in recorded) + "\n"
    sides = {}
    for name in ("before", "after"):
        root = str(Path(getattr(args, name)).resolve())
        process = subprocess.Popen([sys.executable, __file__, root, root, "--worker", root],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        process.stdin.write(payload)
        sides[name] = (process, [], [])
    for _ in range(args.rounds):
        for process, plays, replays in sides.values():
            process.stdin.write("go\n")
            process.stdin.flush()
            played, replayed = map(float, process.stdout.readline().split())
            plays.append(played)
            replays.append(replayed)
    for process, _, _ in sides.values():
        process.stdin.close()
        process.wait()
    for label, index, count in (("random hands played", 1, HANDS), ("hand lines replayed", 2, LINES)):
        for how, pick in (("best", min), ("median", statistics.median)):
            rates = {name: count / pick(side[index]) for name, side in sides.items()}
            print(f"{label}, {how} round: before {rates['before']:,.0f}/s, after {rates['after']:,.0f}/s,"
                  f" after/before {rates['after'] / rates['before']:.3f}")


if __name__ == "__main__":
    main()
