"""Make the ID checks append-only in the database itself (PostgreSQL), issue #34.

An ID check says which document was seen at a checkpoint, the prize payment's included (CC-15, CC-24):
rewriting one would hide who was paid. A trigger refuses every UPDATE and DELETE on
tournaments_idcheck, whoever connects, and casino.db_roles grants the application's role only SELECT
and INSERT on it (found by the trigger).
"""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_dealt_table_dealer_and_stamp")]
    operations = [append_only("tournaments_idcheck", "ID checks are")]
