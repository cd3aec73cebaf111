"""Make the audit log append-only in the database itself (PostgreSQL).

A trigger refuses every UPDATE and DELETE on casino_auditevent, whoever
connects: the application cannot rewrite history even through a bug or a
stolen connection. (TRUNCATE needs the table owner; run the app as a role
that does not own its tables in production, see docs/audit.md.) SQLite, the
embedded laptop default, has no such trigger; verify_audit still detects
any edit there.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION casino_auditevent_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % refused on casino_auditevent', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS casino_auditevent_append_only ON casino_auditevent;
CREATE TRIGGER casino_auditevent_append_only
    BEFORE UPDATE OR DELETE ON casino_auditevent
    FOR EACH ROW EXECUTE FUNCTION casino_auditevent_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS casino_auditevent_append_only ON casino_auditevent;
DROP FUNCTION IF EXISTS casino_auditevent_refuse_change();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("casino", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
