from django.core.management.base import BaseCommand, CommandError

from casino.audit import verify_chain


class Command(BaseCommand):
    help = "Walk the audit log's hash chains and report the first broken link."

    def add_arguments(self, parser):
        parser.add_argument("--stream", help="check one stream only, e.g. tables.table.3")

    def handle(self, *args, stream=None, **options):
        checked, broken = verify_chain(stream)
        if broken:
            raise CommandError(f"Audit log broken after {checked} events checked: {broken}")
        self.stdout.write(self.style.SUCCESS(f"Audit log intact: {checked} events checked."))
