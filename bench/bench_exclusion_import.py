"""The exclusion list's import (issue #34, item 9; docs/benchmarks.md): 100,000 people through the service.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench .venv/bin/python bench/bench_exclusion_import.py

Generates a register of ``--rows`` people (dni numbers, both kinds), imports it through
``services.import_exclusion_csv`` as a director would (parse, bulk insert, audit, one transaction), then
imports it again with a tenth of the dates changed (updates, the rest unchanged). Prints each import's
seconds and counts. Each run uses numbers of its own, so the list grows from run to run (the import reads
the whole list first: the rows already there are printed too); the bench database is migrated first.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pit_load import production_on_loopback  # noqa: E402


def register(rows: int, first: int, changed_every: int = 0) -> str:
    lines = ["id_type,id_number,listed_on,kind,note"]
    for n in range(rows):
        listed = "2026-02-02" if changed_every and n % changed_every == 0 else "2025-01-01"
        lines.append(f"dni,{first + n},{listed},{'self_exclusion' if n % 3 else 'exclusion'},bench")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    production_on_loopback("the import is timed on PostgreSQL: set DATABASE_URL=postgres://...")

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino.roles import ensure_role_groups
    from tournaments import services
    from tournaments.models import ExclusionListEntry

    ensure_role_groups()
    tag = random.randrange(10**6)
    director = get_user_model().objects.create_user(f"bench-exclusions-{tag}")
    director.groups.add(Group.objects.get(name="tournament_director"))
    first = 10**8 + tag * args.rows  # numbers of this run's own
    print(f"{ExclusionListEntry.objects.count():,} people already on the list")
    for label, text in (("new list", register(args.rows, first)),
                        ("again, 1 in 10 dates changed", register(args.rows, first, changed_every=10))):
        start = time.perf_counter()
        done = services.import_exclusion_csv(by=director, text=text, source="bench.csv")
        seconds = time.perf_counter() - start
        print(f"{label:<30} {seconds:6.2f} s  {args.rows:,} rows ({len(text) / 1e6:.1f} MB): {done.added:,} added, "
              f"{done.updated:,} updated, {done.unchanged:,} unchanged, {len(done.refused):,} refused")


if __name__ == "__main__":
    main()
