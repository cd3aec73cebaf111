"""Demo data for a laptop: one pit, four Texas Hold'em Bonus tables, staff and a tournament."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from casino.audit import record_event
from casino.roles import Role, ensure_role_groups
from tables.models import Pit, Table
from tournaments.models import Tournament

# (username, full name, role, password). Demo only: seed_demo refuses to run in
# production unless told explicitly, and never changes an existing user's password.
DEMO_STAFF = [
    ("dana", "Dana Díaz", Role.DEALER, "demo-dana-2026"),
    ("pat", "Pat Pérez", Role.PIT_BOSS, "demo-pat-2026"),
    ("gloria", "Gloria Gómez", Role.GAMES_DIRECTOR, "demo-gloria-2026"),
    ("teo", "Teo Torres", Role.TOURNAMENT_DIRECTOR, "demo-teo-2026"),
    ("dora", "Dora Domínguez", Role.TOURNAMENT_DIRECTOR, "demo-dora-2026"),
    ("fede", "Fede Fernández", Role.TOURNAMENT_FLOOR, "demo-fede-2026"),
    ("admin", "Ada Admin", Role.ADMINISTRATOR, "demo-admin-2026"),
]
# THB-19: the manual's three limit tiers; THB-72: four tables of one game in one pit.
DEMO_TABLES = [("THB-1", 5, 100), ("THB-2", 5, 100), ("THB-3", 10, 200), ("THB-4", 20, 400)]


class Command(BaseCommand):
    help = "Create demo staff, a pit with four Texas Hold'em Bonus tables and a tournament (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--allow-production", action="store_true", help="run even with DEBUG off")
        parser.add_argument("--if-empty", action="store_true", help="only on a database with no tables yet (first run)")

    @transaction.atomic
    def handle(self, *args, allow_production=False, if_empty=False, **options):
        if if_empty and Table.objects.exists():
            self.stdout.write("Tables exist already: demo data not loaded.")
            return
        if not settings.DEBUG and not allow_production:
            raise CommandError(
                "seed_demo creates users with published passwords; with DEBUG off pass --allow-production."
            )
        ensure_role_groups()
        User = get_user_model()
        users, created_any = {}, False
        for username, full_name, role, password in DEMO_STAFF:
            first, last = full_name.split(" ", 1)
            user, created = User.objects.get_or_create(
                username=username,
                defaults={"first_name": first, "last_name": last, "is_staff": role == Role.ADMINISTRATOR},
            )
            if created:
                user.set_password(password)
                if role == Role.ADMINISTRATOR:
                    user.is_superuser = True
                user.save()
                created_any = True
            user.groups.add(Group.objects.get(name=role))
            users.setdefault(role, user)  # the first of each role runs the demo objects

        pit, _ = Pit.objects.get_or_create(name="Pit A", defaults={"pit_boss": users[Role.PIT_BOSS]})
        for i, (name, min_ante, max_ante) in enumerate(DEMO_TABLES):
            table, created = Table.objects.get_or_create(
                name=name,
                defaults={
                    "pit": pit,
                    "min_ante": min_ante,
                    "max_ante": max_ante,
                    "dealer": users[Role.DEALER] if i == 0 else None,
                },
            )
            table.ensure_boxes()
        if not Tournament.objects.filter(name="Torneo de demostración").exists():
            # through the services, so that its record starts with its setup (docs/tournament-record.md)
            from tournaments.services import create_tournament

            create_tournament(
                by=users[Role.TOURNAMENT_DIRECTOR], key="seed-demo-tournament", name="Torneo de demostración",
                starts_at=timezone.now().replace(minute=0, second=0, microsecond=0) + timedelta(days=1),
                buy_in=100, fee=10, starting_stack=20000, seats_per_table=9,
            )
        if created_any:
            record_event(action="demo.seeded", actor_label="seed_demo", details={"tables": len(DEMO_TABLES)})
        self.stdout.write(self.style.SUCCESS("Demo data ready. Staff logins (demo passwords, set when first created):"))
        for username, _full_name, role, password in DEMO_STAFF:
            self.stdout.write(f"  {Role(role).label:<22} {username:<8} {password}")
