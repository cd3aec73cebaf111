"""Make the tournament's record append-only in the database itself (PostgreSQL).

The record is replayed to know the event and exported as its history (docs/tournament-record.md):
a trigger refuses every UPDATE and DELETE on tournaments_tournamentevent, whoever connects, and
casino.db_roles grants the application's role only SELECT and INSERT on it (found by the trigger).
A mistake is corrected by appending a ``correction`` event.
"""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_event_record")]
    operations = [append_only("tournaments_tournamentevent", "the tournament record is")]
