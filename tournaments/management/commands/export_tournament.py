"""Export a tournament's record as JSON Lines (docs/tournament-record.md)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.reads.event import tournament_record


def record_lines(tournament: Tournament):
    """One JSON object a line, in order: seq, at (UTC, ISO 8601), type, then the event's fields."""
    for event in tournament_record(tournament):
        yield json.dumps(event, ensure_ascii=False, sort_keys=False, separators=(",", ":")) + "\n"


class Command(BaseCommand):
    help = "Write a tournament's whole record as JSON Lines, one event a line (docs/tournament-record.md)."

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("--out", help="the file to write (default: standard output)")

    def handle(self, *args, tournament, out=None, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        write_lines(self, record_lines(found), out, "events")


def write_lines(command: BaseCommand, lines, out: str | None, what: str) -> None:
    """The lines to the file ``out`` (saying how many ``what`` were written) or to standard output."""
    if out:
        count = 0
        with open(out, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(line)
                count += 1
        command.stderr.write(f"{count} {what} written to {out}.")
    else:
        for line in lines:
            sys.stdout.write(line)
