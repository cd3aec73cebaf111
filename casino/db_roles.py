"""Two PostgreSQL roles: the owner migrates, the application only reads and appends history.

The application connects as a role that owns nothing (``DATABASE_URL``): it may SELECT and INSERT the
append-only tables (the audit log, a hand's actions) but not UPDATE, DELETE or TRUNCATE them, and since
it owns no table it cannot DROP their triggers or ALTER them either. Migrations run as the owner
(``DATABASE_OWNER_URL``, the ``owner`` database alias; ``manage.py migrate`` uses it when set) and,
after every migrate, grant the application exactly that on every table there is, so a table added
by a later migration is covered at once. The append-only tables are found by their trigger
(casino.append_only), so a new one needs no list kept here.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, transaction

OWNER_ALIAS = "owner"


def app_role() -> str | None:
    """The application's role, when migrations run as another (the owner); None otherwise."""
    if OWNER_ALIAS not in settings.DATABASES:
        return None
    app, owner = settings.DATABASES["default"].get("USER"), settings.DATABASES[OWNER_ALIAS].get("USER")
    return app if app and app != owner else None


def append_only_tables(cursor) -> list[str]:
    """The tables of the current schema that carry casino.append_only's trigger."""
    cursor.execute(
        "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
        "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace "
        "AND t.tgname = c.relname || '_append_only' ORDER BY 1"
    )
    return [name for (name,) in cursor.fetchall()]


def grant_app_role(role: str, using: str = OWNER_ALIAS) -> list[str]:
    """As the owner (``using``): give ``role`` ordinary rights on every table and sequence of the schema,
    and only SELECT and INSERT on the append-only ones. Returns the append-only tables."""
    connection = connections[using]
    quote = connection.ops.quote_name
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner "
            "WHERE r.rolname = %s AND c.relnamespace = current_schema()::regnamespace ORDER BY 1",
            [role],
        )
        owned = [name for (name,) in cursor.fetchall()]
        cursor.execute("SELECT rolsuper OR pg_has_role(rolname, current_user, 'MEMBER') FROM pg_roles "
                       "WHERE rolname = %s", [role])
        found = cursor.fetchone()
        if found is None:
            raise ImproperlyConfigured(f"The application's role {role} does not exist: create it first "
                                       "(docs/audit.md).")
        if found[0]:
            raise ImproperlyConfigured(
                f"The application's role {role} is a superuser or a member of the owner's role: it could do "
                "whatever the owner can. Give the application a role of its own (docs/audit.md)."
            )
        if owned:
            # The owner of a table may drop its trigger and truncate it: the very thing to prevent.
            raise ImproperlyConfigured(
                f"The application's role {role} owns {', '.join(owned[:5])}{'...' if len(owned) > 5 else ''}: "
                f"it could drop the append-only triggers. Give them to the owner (as a superuser: "
                f"REASSIGN OWNED BY {role} TO <owner>) and migrate again."
            )
        cursor.execute("SELECT current_schema()")
        schema, role_name = quote(cursor.fetchone()[0]), quote(role)
        tables = append_only_tables(cursor)
        for statement in [
            f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role_name}",
            f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role_name}",
            f"GRANT USAGE ON SCHEMA {schema} TO {role_name}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role_name}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role_name}",
            *(f"REVOKE UPDATE, DELETE ON {quote(table)} FROM {role_name}" for table in tables),
        ]:
            cursor.execute(statement)
    return tables


def grant_after_migrate(sender, using=None, verbosity=1, **kwargs) -> None:
    """post_migrate: a migrate run as the owner leaves the application's rights right."""
    role = app_role()
    if using != OWNER_ALIAS or role is None:
        return
    tables = grant_app_role(role, using)
    if verbosity:
        print(f"Granted {role} its rights; append-only for it: {', '.join(tables)}.")  # noqa: T201
