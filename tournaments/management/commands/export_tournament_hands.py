"""Export the hands dealt at a tournament's tables as JSON Lines, one hand a line, in the ``replay_hand``
format (docs/hand-history.md, "Hold'em hands"; docs/tournament-tablets.md): ``replay_hand`` replays each
to the stacks the event's record keeps for it.

    python manage.py export_tournament_hands ID [--table N] [--out FILE]
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.management.commands.export_tournament import write_lines
from tournaments.models import Tournament
from tournaments.reads.hands import hand_lines_text


class Command(BaseCommand):
    help = "Write the hands dealt at a tournament's tables as JSON Lines, one hand a line (replay_hand's format)."

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("--table", type=int, help="only this table's hands")
        parser.add_argument("--out", help="the file to write (default: standard output)")

    def handle(self, *args, tournament, table=None, out=None, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        write_lines(self, hand_lines_text(found, table=table), out, "hands")
