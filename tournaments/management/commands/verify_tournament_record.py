"""Replay an exported tournament record alone and recompute its ranking, prizes and seats."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from casino.rules.errors import RuleViolation
from casino.rules.tournament.record import verify_record


def read_record(path: str) -> list[dict]:
    events = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError as e:
                raise CommandError(f"Line {number} is not JSON: {e.msg}.") from None
            if not isinstance(event, dict):
                raise CommandError(f"Line {number} is not a JSON object.")
            events.append(event)
    return events


class Command(BaseCommand):
    help = ("Replay an exported tournament record (JSON Lines) on its own: the seats, the ranking and the "
            "prizes are recomputed and compared with the recorded results.")

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            events = read_record(file)
        except OSError as e:
            raise CommandError(f"Cannot read {file}: {e.strerror}.") from None
        try:
            verification = verify_record(events)
        except RuleViolation as e:
            raise CommandError(f"The record cannot be replayed: {e}") from None
        state = verification.state
        self.stdout.write(f"{len(events)} events; {len(state.entries)} entries, {state.players_left} still in, "
                          f"{len(state.tables)} tables; prize pool {state.prize_pool}.")
        for result in verification.results:
            places = "-".join(str(p) for p in (result.places[0], result.places[-1])) if len(result.places) > 1 \
                else str(result.places[0])
            self.stdout.write(f"  {places}: entries {', '.join(map(str, result.entries))}, {result.prize_each} each")
        if not verification.ok:
            for problem in verification.problems:
                self.stderr.write(f"  problem: {problem}")
            raise CommandError(f"{len(verification.problems)} problem(s) in the record.")
        self.stdout.write(self.style.SUCCESS("The record replays and agrees with itself."))
