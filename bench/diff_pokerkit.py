"""Thousands of random hands through our Hold'em engine and pokerkit 0.7.7, compared at every step.

The suite runs a few hundred (tests/rules/holdem/test_differential_pokerkit.py);
this runs as many as asked and prints how many hands and turns were compared
and which of the known pokerkit departures from the TDA were met. Any other
difference stops it with the hand that shows it.

    .venv/bin/python bench/diff_pokerkit.py [--hands 5000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.rules.holdem.differential import KNOWN_DEPARTURES, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    tally = run(args.hands, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{tally.hands:,} random hands compared with pokerkit 0.7.7 (seed {args.seed}) in {elapsed:.1f} s:"
          f" {tally.steps:,} turns, {tally.completed:,} hands compared to the last chip")
    print("departures from the TDA met (pokerkit's side):")
    for name in KNOWN_DEPARTURES:
        note = "  (its own test: pokerkit runs here in cash-game mode)" if name == "tournament-fold-when-check" else ""
        print(f"  {name:28} {tally.departures.get(name, 0):6,}{note}")


if __name__ == "__main__":
    main()
