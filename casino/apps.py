from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Casino")

    def ready(self) -> None:
        from casino import roles

        # After every migrate (and every test flush, which re-emits it), the
        # role groups and their permissions exist: no role check can find them missing.
        post_migrate.connect(roles.ensure_role_groups, sender=self)
