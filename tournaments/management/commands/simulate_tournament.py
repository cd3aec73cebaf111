"""Simulate a whole tournament through the real services, and export its record (issue #14).

    python manage.py simulate_tournament --entries 200 --seed 7 [--seats 9] [--out record.jsonl]
                                         [--hand-by-hand [--penalty-chance 0.01]]
                                         [--flights N [--days D] [--series-end-level L] [--qualifiers Q]]

The same seed gives the same record, byte for byte (times come from the simulated clock).
``--hand-by-hand`` deals every hand through the dealers' tablets' services with random legal actions
(issue #15) and then replays every hand's exported line, checking its stacks; before one hand in a
hundred (``--penalty-chance``) the director suspends a player for 1 to 3 hands, which the tablets serve.
``--flights N`` plays the event as N qualifying series (CC-05..CC-10): each series to ``--series-end-level`` or
its ``--qualifiers``, its chips bagged, then ``--days`` - 1 days of the Final Stage (redrawn with the bagged
stacks); the record is then verified as ``verify_tournament_record`` does.
"""

from __future__ import annotations

import sys
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from casino.rules.tournament.record import verify_record
from tournaments.dealt_simulation import verify_dealt_hands
from tournaments.simulation import simulate_tournament


class _Bar:
    """tqdm when the virtualenv has it, else a plain count on standard error."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.done, self.quiet, self.bar = total, 0, quiet, None
        if quiet:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(total=total, unit="out", file=sys.stderr, desc="players out")

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif not self.quiet:
            sys.stderr.write(f"\r{self.done}/{self.total} players out")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif not self.quiet:
            sys.stderr.write("\n")


class Command(BaseCommand):
    help = "Simulate a whole tournament through the services (seeded) and export its record as JSON Lines."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, required=True, help="players to register (2 or more)")
        parser.add_argument("--seed", type=int, required=True, help="the seed of every random draw")
        parser.add_argument("--seats", type=int, default=9, choices=(6, 8, 9, 10), help="seats per table")
        parser.add_argument("--ante-mode", default="button", choices=("button", "big_blind", "none"))
        parser.add_argument("--final-table", type=int, default=10, choices=range(2, 11), metavar="2..10",
                            help="players at the final table (CC-61's 10 by default; RP-09 says 9 or 7)")
        parser.add_argument("--out", help="write the record here (JSON Lines)")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument("--hand-by-hand", action="store_true",
                            help="deal every hand through the tablets' services with random legal actions")
        parser.add_argument("--penalty-chance", type=float, default=0.01,
                            help="with --hand-by-hand: the chance, before each hand, of a player's suspension")
        parser.add_argument("--flights", type=int, default=0,
                            help="qualifying series (flights) played one after the other, 2 or more (CC-05)")
        parser.add_argument("--days", type=int, default=2,
                            help="with --flights: the days, the flights' day 1 included (2: one day of Final Stage)")
        parser.add_argument("--series-end-level", type=int, default=4, help="with --flights: each series' last level")
        parser.add_argument("--qualifiers", type=int, default=None,
                            help="with --flights: each series stops at this many players (a quarter by default)")
        parser.add_argument("--starting-stack", type=int, default=10_000,
                            help="each entry's chips (deeper stacks play longer days)")
        parser.add_argument("--all-in-chance", type=float, default=None,
                            help="a simulated hand's chance of an all-in (0.15 by default, 0.05 hand by hand): lower "
                                 "plays longer days")
        parser.add_argument("--day-end-chip-race", default="before_bagging", choices=("before_bagging", "next_day"),
                            help="with --flights: a day ending at a colour-up races its odd chips before bagging "
                                 "(the default) or at the redrawn tables of the next day (TDA-24-A)")

    def handle(self, *args, entries, seed, seats, ante_mode, final_table=10, out=None, quiet=False,
               hand_by_hand=False, penalty_chance=0.01, flights=0, days=2, series_end_level=4, qualifiers=None,
               day_end_chip_race="before_bagging", starting_stack=10_000, all_in_chance=None, **options):
        if flights and (flights < 2 or entries < 2 * flights or days < 2):
            raise CommandError("Flights need 2 or more series, two entries a series, and 2 days or more.")
        if entries < 2:
            raise CommandError("A tournament needs at least two entries.")
        if not 25 <= starting_stack <= 10**9 or starting_stack % 25:
            raise CommandError("The starting stack is a whole number of the house structure's 25 chips, up to 10^9.")
        if all_in_chance is not None and not 0 <= all_in_chance <= 1:
            raise CommandError("The all-in chance is between 0 and 1.")
        if not 0 <= penalty_chance <= 1:
            raise CommandError("The penalty chance is between 0 and 1.")
        bar = _Bar(entries - 1, quiet)
        began = time.perf_counter()
        try:
            report = simulate_tournament(entries=entries, seed=seed, seats=seats, ante_mode=ante_mode,
                                         final_table_size=final_table, progress=bar, hand_by_hand=hand_by_hand,
                                         penalty_chance=penalty_chance if hand_by_hand else 0.0,
                                         flights=flights, days=days, series_end_level=series_end_level,
                                         qualifiers=qualifiers, day_end_chip_race=day_end_chip_race,
                                         starting_stack=starting_stack, all_in_chance=all_in_chance)
        finally:
            bar.close()
        took = time.perf_counter() - began
        t = report.tournament
        self.stderr.write(f"Tournament {t.pk}: {entries} entries, {report.hands} hands, {report.plans} plans "
                          f"confirmed, {report.colour_ups} colour-ups, {report.writes} writes in {took:.1f} s.")
        if hand_by_hand:
            problems = verify_dealt_hands(report.dealt_hands)
            if problems:
                raise CommandError("Hands that do not replay to their recorded stacks:\n" + "\n".join(problems[:20]))
            self.stderr.write(f"Every one of the {len(report.dealt_hands)} hands replays to its recorded stacks "
                              f"({report.penalties} penalties served at the tablets).")
        if flights:
            check = verify_record([event.as_record() for event in t.events.order_by("seq")])
            if not check.ok:
                raise CommandError("The record does not verify:\n" + "\n".join(check.problems[:20]))
            bags = sum(len(e.data["bags"]) for e in t.events.filter(type="day_ended"))
            self.stderr.write(f"{flights} series and {days - 1} day(s) of the Final Stage: {bags} bags counted; "
                              f"the record verifies.")
        if out:
            call_command("export_tournament", str(t.pk), "--out", out)
        self.stdout.write(str(t.pk))
