"""Make a hand's actions append-only in the database itself (PostgreSQL).

A hand is rebuilt by replaying its actions, so rewriting one would rewrite the
game: a trigger refuses every UPDATE and DELETE on tables_handaction, whoever
connects. A mistake is corrected by appending an undo row (tables.services).
SQLite, the embedded laptop default, has no trigger; the model refuses there.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tables_handaction_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'hand actions are append-only: % refused on tables_handaction', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS tables_handaction_append_only ON tables_handaction;
CREATE TRIGGER tables_handaction_append_only
    BEFORE UPDATE OR DELETE ON tables_handaction
    FOR EACH ROW EXECUTE FUNCTION tables_handaction_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS tables_handaction_append_only ON tables_handaction;
DROP FUNCTION IF EXISTS tables_handaction_refuse_change();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_live_game")]
    operations = [migrations.RunPython(install, remove)]
