"""``python manage.py replay_hand FILE|-``: replay recorded hands, one JSON answer per line.

A thin wrapper over ``casino.rules.replay.replay_lines`` (docs/hand-history.md). Every line is
answered, in order; the command exits non-zero if any line gave an error.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from casino.rules.replay import replay_lines


class Command(BaseCommand):
    help = "Replay recorded hands (JSON Lines, one hand per line) through the rules engine; '-' reads stdin."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON Lines file of hands, or - for standard input")

    def handle(self, *args, file, **options):
        if file == "-":
            errors = self._replay(sys.stdin)
        else:
            try:
                with open(file, encoding="utf-8") as lines:
                    errors = self._replay(lines)
            except OSError as problem:
                raise CommandError(f"Cannot read {file}: {problem.strerror or problem}") from None
        if errors:
            raise CommandError(f"{errors} hand(s) did not replay: see the error lines above")

    def _replay(self, lines):
        errors = 0
        for answer in replay_lines(lines):
            errors += "error" in answer
            self.stdout.write(json.dumps(answer, ensure_ascii=False))
        return errors
