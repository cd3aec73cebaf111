"""Django's migrate, run as the tables' owner when DATABASE_OWNER_URL is set (casino.db_roles)."""

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate

from casino.db_roles import OWNER_ALIAS


class Command(DjangoMigrate):
    help = DjangoMigrate.help + " As the tables' owner when DATABASE_OWNER_URL is set."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        if OWNER_ALIAS in settings.DATABASES:
            parser.set_defaults(database=OWNER_ALIAS)
