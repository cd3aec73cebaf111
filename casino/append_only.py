"""Append-only tables in the database itself (PostgreSQL), for migrations.

The audit log and a hand's actions are history: rewriting a row would rewrite what happened.
``append_only(table, what)`` is a migration operation that installs a trigger refusing every
UPDATE and DELETE on ``table``, whoever connects. The trigger's name (``<table>_append_only``) is how
casino.db_roles finds these tables to withhold UPDATE and DELETE from the application's role, which
owns nothing and so can neither drop the trigger nor TRUNCATE.
"""

from __future__ import annotations

from django.db import migrations


def _sql(table: str, what: str) -> tuple[str, str]:
    function, trigger = f"{table}_refuse_change", f"{table}_append_only"
    create = f"""
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{what} append-only: % refused on {table}', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS {trigger} ON {table};
CREATE TRIGGER {trigger}
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {function}();
"""
    drop = f"""
DROP TRIGGER IF EXISTS {trigger} ON {table};
DROP FUNCTION IF EXISTS {function}();
"""
    return create, drop


def append_only(table: str, what: str) -> migrations.RunPython:
    """``what`` starts the refusal's sentence: "the audit log is" -> "the audit log is append-only: ..."."""
    create, drop = _sql(table, what)

    def install(apps, schema_editor):
        # params=None: the SQL's own % (RAISE's placeholder) is not a query parameter.
        schema_editor.execute(create, params=None)

    def remove(apps, schema_editor):
        schema_editor.execute(drop, params=None)

    return migrations.RunPython(install, remove)
