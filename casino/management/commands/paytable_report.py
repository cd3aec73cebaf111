"""``python manage.py paytable_report [--paytable NAME] [--json]``: a Bonus paytable's exact odds.

Probabilities and house edge are counted exactly (``casino.rules.holdem_bonus.house_edge``).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus.house_edge import TOTAL_DEALS, paytable_odds
from casino.rules.holdem_bonus.paytable import AWARD_DESCRIPTIONS, DEFAULT_PAYTABLE, paytable_names


class Command(BaseCommand):
    help = "Print each Bonus award's exact probability and the Bonus bet's house edge for a paytable."

    def add_arguments(self, parser):
        parser.add_argument("--paytable", default=DEFAULT_PAYTABLE, help=f"paytable name (default {DEFAULT_PAYTABLE})")
        parser.add_argument("--json", action="store_true", help='print {"awards": [...], "house_edge": <float>}')

    def handle(self, *args, **options):
        paytable = options["paytable"]
        try:
            odds = paytable_odds(paytable)
        except RuleViolation:
            raise CommandError(f"No paytable named {paytable!r}; known: {', '.join(paytable_names())}") from None
        if options["json"]:
            self.stdout.write(json.dumps(odds.to_dict()))
            return
        self.stdout.write(f"Bonus paytable {odds.paytable.name!r}: {odds.paytable.description}")
        self.stdout.write(f"{'award':<44} {'pays':>8} {'deals':>10} {'probability':>13}  exactly")
        for award in odds.awards:
            p = award.probability
            label = f"{award.award} ({AWARD_DESCRIPTIONS[award.award]})"
            self.stdout.write(
                f"{label:<44} {award.pays:>6}:1 {award.deals:>10,} {float(p):>13.8f}  {p.numerator}/{p.denominator}"
            )
        lose = odds.lose_probability
        self.stdout.write(f"{'no award (the Bonus loses)':<44} {'-':>8} {int(lose * TOTAL_DEALS):>10,} "
                          f"{float(lose):>13.8f}  {lose.numerator}/{lose.denominator}")
        edge = odds.house_edge
        exact = f"{edge.numerator}/{edge.denominator}"
        self.stdout.write(f"House edge: {float(edge):.4%} of the Bonus stake (exactly {exact})")
