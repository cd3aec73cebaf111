"""The admin site itself, entered by role (casino/admin.py registers what it shows).

Kept apart from the registrations: Django builds the default site lazily from
``CasinoAdminConfig.default_site``, and a module that registers models while that site is being built
would register them into a site that is then thrown away.
"""

from __future__ import annotations

from django.contrib import admin

from casino.roles import Role, has_role

#: The roles that configure the tables in the admin; administrators also manage staff and their roles.
CONFIGURERS = (Role.ADMINISTRATOR, Role.GAMES_DIRECTOR)


def configures(user) -> bool:
    return bool(user.is_active and (user.is_superuser or has_role(user, *CONFIGURERS)))


class CasinoAdminSite(admin.AdminSite):
    site_header = "Casino"

    def has_permission(self, request) -> bool:
        return configures(request.user)


