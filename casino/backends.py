"""Staff authentication: Django's ModelBackend, with the user's roles read in the same query."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from casino.roles import remember_roles


class StaffBackend(ModelBackend):
    """Every staff request loads its user and then, for the role check, the user's groups: two round
    trips to PostgreSQL before the view starts. Here one query reads both (one row per group), and the
    roles are kept for the request where ``casino.roles.roles_of`` looks (``remember_roles``). They are
    still read on every request, so a role taken away takes effect on the next one."""

    def get_user(self, user_id):
        User = get_user_model()
        fields = [f.attname for f in User._meta.concrete_fields]
        rows = list(User._default_manager.filter(pk=user_id).values_list(*fields, "groups__name"))
        if not rows:
            return None
        user = User.from_db(User._default_manager.db, fields, rows[0][:-1])
        if not self.user_can_authenticate(user):
            return None
        remember_roles(user, (row[-1] for row in rows if row[-1]))
        return user
