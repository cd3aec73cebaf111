"""daphne under cProfile, switched on and off by signals (bench/bench_tournament_clock.py ``--profile``).

    python bench/profiled_daphne.py -b 127.0.0.1 -p 8900 casino.asgi:application

SIGUSR1 starts the profile, SIGUSR2 stops it and writes ``daphne-<pid>.prof`` into ``BENCH_PROFILE_DIR``
(default: the current directory): the profile covers what the bench measures, not the connections.
Read it with ``python -m pstats``.
"""

import cProfile
import os
import signal
import sys

profile = cProfile.Profile()


def start(*_args) -> None:
    profile.enable()


def stop(*_args) -> None:
    profile.disable()
    profile.dump_stats(os.path.join(os.environ.get("BENCH_PROFILE_DIR", "."), f"daphne-{os.getpid()}.prof"))


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.path.insert(0, os.getcwd())  # the project daphne serves (the bench's cwd), as ``python -m daphne``
    from daphne.cli import CommandLineInterface

    sys.argv = ["daphne", *sys.argv[1:]]
    CommandLineInterface.entrypoint()
