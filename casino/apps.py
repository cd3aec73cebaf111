from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    default = True
    name = "casino"
    verbose_name = _("Casino")

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from casino import database_pool, db_roles, deck_reads, lockouts, roles
        from casino.audit import RecordCheck, register_record_check

        # Migrated as the owner: the application's role gets its rights on every table there is now
        # (first: the role groups below are written through the application's connection).
        post_migrate.connect(db_roles.grant_after_migrate, sender=self)
        # After every migrate (and every test flush, which re-emits it), the
        # role groups and their permissions exist: no role check can find them missing.
        post_migrate.connect(roles.ensure_role_groups, sender=self)
        # Each staff login lock-out goes into the audit log (axes keeps the failures themselves).
        user_locked_out.connect(lockouts.record_lockout, dispatch_uid="casino.lockouts.record_lockout")
        # After a PostgreSQL restart, the pool's dead connections go at once (casino.database_pool).
        connection_created.connect(database_pool.sweep_dead_connections_at_the_first, dispatch_uid="casino.pool")
        # verify_audit compares each deck's steps with its stream (issue #39).
        register_record_check(RecordCheck("Decks: {count} checked against the steps the log recorded for them.",
                                          deck_reads.verify_deck_steps))


class CasinoAdminConfig(admin_apps.AdminConfig):
    """The admin, entered by role rather than by Django's is_staff flag (casino/admin_site.py)."""

    default = False
    default_site = "casino.admin_site.CasinoAdminSite"
