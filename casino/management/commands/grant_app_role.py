from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from casino.db_roles import OWNER_ALIAS, app_role, grant_app_role


class Command(BaseCommand):
    help = ("As the tables' owner, grant the application's PostgreSQL role its rights: ordinary ones on every "
            "table, only SELECT and INSERT on the append-only ones. `migrate` does it after every run when "
            "DATABASE_OWNER_URL is set.")

    def add_arguments(self, parser):
        parser.add_argument("--role", help="the application's role (default: DATABASE_URL's user)")
        parser.add_argument("--database", default=OWNER_ALIAS, help="the owner's database alias")

    def handle(self, *args, role=None, database=OWNER_ALIAS, **options):
        role = role or app_role()
        if not role:
            raise CommandError("Set DATABASE_OWNER_URL (the owner) and DATABASE_URL (the application's role), "
                               "or name the role with --role.")
        try:
            tables = grant_app_role(role, database)
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Granted {role} its rights; append-only for it: {', '.join(tables) or 'none'}.")
