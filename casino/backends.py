"""Staff authentication: Django's ModelBackend, with the user's roles and permissions read in the same query."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from casino.roles import ACCESS_FIELDS, remember_access


class StaffBackend(ModelBackend):
    """Every staff request loads its user, then its groups for the role check, then its permissions (its
    own and its groups') for each capability checked: four round trips to PostgreSQL before the view starts
    its work. Here one query reads them all (one row per group and permission), kept for the request where
    ``casino.roles.roles_of`` and ModelBackend look (``remember_access``). They are still read on every
    request, so a role or a permission taken away takes effect on the next one."""

    def get_user(self, user_id):
        User = get_user_model()
        fields = [f.attname for f in User._meta.concrete_fields]
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        rows = list(User._default_manager.filter(pk=pk).values_list(*fields, *ACCESS_FIELDS))
        if not rows:
            return None
        user = User.from_db(User._default_manager.db, fields, rows[0][: len(fields)])
        if not self.user_can_authenticate(user):
            return None
        remember_access(user, rows)
        return user
