"""The Django admin as the casino's configuration screen (issue #16, item 9; docs/roles.md).

Who may enter is a role, not Django's ``is_staff`` flag: administrators, and the games director for
the tables' configuration (pits, tables, limits, paytable names and house options). Every change
made there goes into the audit log with who made it and what changed (``AuditedAdmin``).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from casino.admin_site import configures
from casino.audit import record_event
from casino.models import object_label
from casino.roles import Role, has_role


class AuditedAdmin(admin.ModelAdmin):
    """A model the configurers edit; each save and delete is audited with the fields that changed."""

    def has_module_permission(self, request) -> bool:
        return configures(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return configures(request.user)

    def has_add_permission(self, request) -> bool:
        return configures(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return configures(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        # Rows with a history are protected by the database anyway; deleting is the administrator's.
        return request.user.is_superuser or has_role(request.user, Role.ADMINISTRATOR)

    def save_model(self, request, obj, form, change) -> None:
        before = {}
        if change and obj.pk:
            # A form may carry fields that are not columns (a paytable's pays): only columns have a "before".
            columns = {f.name for f in obj._meta.concrete_fields} & set(form.changed_data)
            old = type(obj).objects.filter(pk=obj.pk).values(*columns).first() or {}
            before = {name: old.get(name) for name in form.changed_data}
        super().save_model(request, obj, form, change)
        after = {name: form.cleaned_data.get(name) for name in form.changed_data}
        record_event(action=f"admin.{obj._meta.model_name}_{'changed' if change else 'added'}", actor=request.user,
                     obj=obj, stream=object_label(obj),
                     details={"changed": {name: {"from": _plain(before.get(name)), "to": _plain(after[name])}
                                          for name in form.changed_data}})

    def delete_model(self, request, obj) -> None:
        label = object_label(obj)
        record_event(action=f"admin.{obj._meta.model_name}_deleted", actor=request.user, obj=obj, stream=label,
                     details={"name": str(obj)})
        super().delete_model(request, obj)


def _plain(value):
    """A changed value as JSON the audit log keeps: a related row by its id, the rest as it is."""
    if hasattr(value, "pk"):
        return value.pk
    if isinstance(value, (str, int, float, bool, list, dict)) or value is None:
        return value
    return str(value)


# --- Staff and their roles: the administrator's ----------------------------------------------------------
# Roles are groups (docs/roles.md); an administrator gives and takes them here, each change audited. The
# games director sees the staff list but changes nobody: a role is a key to the casino's screens.



def administers(user) -> bool:
    return bool(user.is_active and (user.is_superuser or has_role(user, Role.ADMINISTRATOR)))


class StaffAdmin(UserAdmin):
    list_display = ("username", "first_name", "last_name", "is_active", "roles")
    list_filter = ("groups", "is_active")

    @admin.display(description="roles")
    def roles(self, user) -> str:
        return ", ".join(sorted(user.groups.values_list("name", flat=True)))

    def has_module_permission(self, request) -> bool:
        return configures(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return configures(request.user)

    def has_add_permission(self, request) -> bool:
        return administers(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return administers(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # staff leave by being made inactive: their actions stay attributed in the audit log

    def save_related(self, request, form, formsets, change) -> None:
        before = sorted(form.instance.groups.values_list("name", flat=True)) if change else []
        super().save_related(request, form, formsets, change)
        after = sorted(form.instance.groups.values_list("name", flat=True))
        record_event(action="admin.staff_roles_changed" if change else "admin.staff_added", actor=request.user,
                     obj=form.instance, stream="casino",
                     details={"username": form.instance.get_username(), "roles": {"from": before, "to": after},
                              "active": form.instance.is_active})


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, StaffAdmin)
