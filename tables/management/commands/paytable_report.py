"""``python manage.py paytable_report [--paytable NAME [--paytable-version N]] [--json]``: a Bonus paytable's
exact odds.

Probabilities and house edge are counted exactly (``casino.rules.holdem_bonus.house_edge``). ``NAME`` is
the engine's (``manual``) or a casino's own kept as data (the admin's paytables, ``tables.paytables``),
at its latest version unless ``--paytable-version`` names an earlier one.

``paytable_report --base-game [--ante-pays straight|flush] [--strategy] [--json]``: the base game's
house edge and element of risk under the optimal strategy, per ante option (THB-50, C-29b), from the
stored exact count; ``--recompute [--workers N]`` counts every deal again on every core (about a
minute and a quarter on 2 cores) and stores it (``casino.rules.holdem_bonus.base_game``).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus.base_game import ANTE_OPTIONS
from casino.rules.holdem_bonus.house_edge import TOTAL_DEALS, paytable_odds
from casino.rules.holdem_bonus.paytable import AWARD_DESCRIPTIONS, DEFAULT_PAYTABLE
from tables.models import resolve_paytable


class Command(BaseCommand):
    help = "Print each Bonus award's exact probability and the Bonus bet's house edge for a paytable."

    def add_arguments(self, parser):
        parser.add_argument("--paytable", default=DEFAULT_PAYTABLE, help=f"paytable name (default {DEFAULT_PAYTABLE})")
        parser.add_argument("--paytable-version", type=int, metavar="N",
                            help="with a casino's own paytable: that version instead of the latest")
        parser.add_argument("--json", action="store_true", help='print {"awards": [...], "house_edge": <float>}')
        parser.add_argument("--base-game", action="store_true",
                            help="the base game (ante, flop, turn, river) instead of the Bonus")
        parser.add_argument("--ante-pays", choices=ANTE_OPTIONS,
                            help="with --base-game: only this house option (the ante paid from a straight or a flush)")
        parser.add_argument("--strategy", action="store_true", help="with --base-game: print the optimal strategy")
        parser.add_argument("--recompute", action="store_true",
                            help="with --base-game: count every deal again (every core) and store the result")
        parser.add_argument("--workers", type=int, help="with --recompute: how many cores (default all)")

    def handle(self, *args, **options):
        if options["base_game"]:
            return self.report_base_game(options)
        try:
            odds = paytable_odds(resolve_paytable(options["paytable"], options["paytable_version"]))
        except RuleViolation as violation:
            raise CommandError(str(violation)) from None
        if options["json"]:
            self.stdout.write(json.dumps(odds.to_dict()))
            return
        self.stdout.write(f"Bonus paytable {odds.paytable.label!r}: {odds.paytable.description}")
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

    def report_base_game(self, options):
        from casino.rules.holdem_bonus import base_game

        if options["recompute"]:
            analysis = self.recompute(options["workers"])
        else:
            analysis = base_game.stored_analysis()
        chosen = [options["ante_pays"]] if options["ante_pays"] else list(ANTE_OPTIONS)
        if options["json"]:
            report = {"game": "texas-holdem-bonus base game", "deck_size": analysis.deck_size,
                      "options": {o: analysis.figures(o).to_dict() for o in chosen}}
            if options["strategy"]:
                report["strategy"] = {o: analysis.strategy(o) for o in chosen}
            self.stdout.write(json.dumps(report))
            return
        for option in chosen:
            figures = analysis.figures(option)
            edge, risk = figures.house_edge, figures.element_of_risk
            self.stdout.write(f"Ante paid from a {option} up: house edge {float(edge):.4%} of the ante "
                              f"(exactly {edge.numerator}/{edge.denominator}), element of risk "
                              f"{float(risk):.4%}, average wager {float(figures.average_wager):.4f} antes, "
                              f"plays {float(figures.play_rate):.2%} of hands")
        if options["strategy"]:
            for option in chosen:
                self.print_strategy(analysis, option)

    def print_strategy(self, analysis, option):
        index = ANTE_OPTIONS.index(option)
        folds = [c.name for c in analysis.classes if not c.plays(index)]
        self.stdout.write(f"\nOptimal strategy, ante paid from a {option} up:")
        self.stdout.write(f"  Before the flop: bet the flop with every hand except these {len(folds)}, which fold:")
        self.stdout.write("    " + " ".join(folds))
        self.stdout.write("  After the flop: bet the turn when the hand beats more of the dealer's possible "
                          "hands than it loses to, over the turn and river still to come; otherwise check.")
        self.stdout.write("  After the turn: bet the river on the same test over the river still to come.")
        self.stdout.write(f"  {'hand':<5} {'value':>9}  turn bet  river bet")
        for c in sorted(analysis.classes, key=lambda c: -c.value[index]):
            self.stdout.write(f"  {c.name:<5} {float(c.value[index]):>+9.4f}  {float(c.turn_bets):>7.1%}  "
                              f"{float(c.river_bets):>8.1%}")

    def recompute(self, workers):
        from casino.rules.holdem_bonus import base_game

        try:
            import numba
            from tqdm import tqdm
        except ImportError:
            raise CommandError("--recompute needs the analysis extra: pip install '.[analysis]'") from None
        if workers:
            numba.set_num_threads(max(1, min(workers, numba.config.NUMBA_NUM_THREADS)))
        with tqdm(total=1755, unit="flop", desc="base game", file=self.stderr) as bar:
            analysis = base_game.analyse(progress=bar.update)
        base_game.write_figures(analysis)
        return analysis
