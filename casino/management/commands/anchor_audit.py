from django.core.management.base import BaseCommand

from casino.audit import anchor_heads


class Command(BaseCommand):
    help = ("Sign the head of every audit stream that moved since its last anchor and append it to "
            "AUDIT_ANCHOR_PATH (and the log). Run it every minute or so (cron, a systemd timer, compose's "
            "anchor service): it bounds how long the last events of an idle stream stay unanchored.")

    def add_arguments(self, parser):
        parser.add_argument("--stream", help="anchor one stream only, e.g. tables.table.3")

    def handle(self, *args, stream=None, verbosity=1, **options):
        written = anchor_heads(stream=stream)
        if verbosity:
            self.stdout.write(f"Anchored {written} stream heads.")
