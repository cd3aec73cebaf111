from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from casino.audit import record_checks, verify_anchors, verify_chain

# The report names at most this many problems (after the first broken link); the rest are counted.
SHOWN = 20


class Command(BaseCommand):
    help = ("Walk the audit log's hash chains and report the first broken link; check the log against its "
            "anchors outside the database and every hand's stored actions against the log.")

    def add_arguments(self, parser):
        parser.add_argument("--stream", help="check one stream only, e.g. tables.table.3")
        parser.add_argument("--anchors", action="append", type=Path, metavar="FILE",
                            help="an anchor file to check (repeatable; default: AUDIT_ANCHOR_PATH), "
                                 "e.g. the rotated ones too")

    def handle(self, *args, stream=None, anchors=None, **options):
        unkeyed: list[tuple[str, int]] = []
        checked, broken = verify_chain(stream, unkeyed=unkeyed)
        paths = anchors or [settings.AUDIT_ANCHOR_PATH]
        anchored, problems = verify_anchors(paths, stream)
        # Each game's records against the log (tables: every hand's stored actions), registered by its app.
        reports = []
        for check in record_checks():
            count, found = check.run(stream)
            problems += found
            reports.append(check.report.format(count=count))
        if broken or problems:
            first = broken or problems.pop(0)
            lines = [f"Audit log broken after {checked} events checked: {first}"]
            lines += [f"  also: {problem}" for problem in problems[:SHOWN]]
            if len(problems) > SHOWN:
                lines.append(f"  and {len(problems) - SHOWN} more problems.")
            raise CommandError("\n".join(lines))
        self.stdout.write(self.style.SUCCESS(f"Audit log intact: {checked} events checked."))
        where = ", ".join(str(p) for p in paths)
        self.stdout.write(f"Anchors: {anchored} checked against the log ({where}).")
        if not anchored and checked:
            self.stderr.write(self.style.WARNING(
                f"No anchors found in {where}: a deleted tail or a chain recomputed with the key would go "
                "unnoticed. Run `manage.py anchor_audit` and keep the anchor file off the database's machine."))
        for report in reports:
            self.stdout.write(report)
        if unkeyed:
            total = sum(count for _name, count in unkeyed)
            self.stdout.write(f"Unkeyed: {total} events in {len(unkeyed)} streams date from before the audit key "
                              "(plain SHA-256): the keyed events after them and the anchors protect them.")
