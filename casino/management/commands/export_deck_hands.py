"""The inspector's question (issue #39): every hand dealt with one deck, at any table of either game, as JSON
Lines in the ``replay_hand`` format (docs/decks.md, docs/hand-history.md).

    python manage.py export_deck_hands DECK_ID [--out FILE]
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from casino.deck_reads import deck_hand_lines
from casino.models import Deck


class Command(BaseCommand):
    help = "Write every hand dealt with a deck as JSON Lines, one hand a line (replay_hand's format)."

    def add_arguments(self, parser):
        parser.add_argument("deck", type=int, help="the deck's id")
        parser.add_argument("--out", help="the file to write (default: standard output)")

    def handle(self, *args, deck, out=None, **options):
        found = Deck.objects.filter(pk=deck).first()
        if found is None:
            raise CommandError(f"There is no deck {deck}.")
        count = 0
        if out:
            with open(out, "w", encoding="utf-8") as file:
                for line in deck_hand_lines(found):
                    file.write(line)
                    count += 1
            self.stderr.write(f"{count} hands of deck {found.serial} written to {out}.")
            return
        for line in deck_hand_lines(found):
            self.stdout.write(line, ending="")
