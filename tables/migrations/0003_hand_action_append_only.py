"""Make a hand's actions append-only in the database itself (PostgreSQL).

A hand is rebuilt by replaying its actions, so rewriting one would rewrite the
game: a trigger refuses every UPDATE and DELETE on tables_handaction, whoever
connects. A mistake is corrected by appending an undo row (tables.services).
SQLite, the embedded laptop default, has no trigger; the model refuses there.
"""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_live_game")]
    operations = [append_only("tables_handaction", "hand actions are")]
