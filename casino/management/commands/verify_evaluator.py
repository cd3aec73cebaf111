"""``python manage.py verify_evaluator``: every seven-card hand through the evaluator, against the published counts.

A thin wrapper over ``casino.rules.evaluator_census``; ``--cards 5`` checks the 2,598,960 five-card hands instead.
"""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from casino.rules.evaluator import Category
from casino.rules.evaluator_census import PUBLISHED, take_census


class Command(BaseCommand):
    help = "Evaluate all 133,784,560 seven-card hands and compare the category counts with the published ones."

    def add_arguments(self, parser):
        parser.add_argument("--cards", type=int, choices=(5, 7), default=7, help="hand size (default 7)")
        parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, cards, processes, no_progress, **options):
        from math import comb

        with tqdm(total=comb(52, cards), unit=" hands", unit_scale=True, disable=no_progress,
                  desc=f"{cards}-card hands") as bar:
            census = take_census(cards, processes=processes, progress=bar.update)
        for category, published in PUBLISHED[cards].items():
            counted = census.categories.get(category, 0)
            mark = "ok" if counted == published else "MISMATCH"
            self.stdout.write(f"{category.value:<16} {counted:>12,} {published:>12,}  {mark}")
        flushes = census.categories.get(Category.STRAIGHT_FLUSH, 0) + census.categories.get(Category.ROYAL_FLUSH, 0)
        self.stdout.write(f"{'(straight flushes, royals included)':<16} {flushes:,}")
        self.stdout.write(f"{'all hands':<16} {census.total:>12,}   distinct ranks {census.distinct_ranks:,}")
        mismatches = census.mismatches()
        if mismatches:
            raise CommandError("The evaluator disagrees with the published counts: " + "; ".join(mismatches))
        agree = f"All {census.total:,} {cards}-card hands agree with the published counts."
        self.stdout.write(self.style.SUCCESS(agree))
