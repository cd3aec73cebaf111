"""Make the audit log append-only in the database itself (PostgreSQL).

A trigger refuses every UPDATE and DELETE on casino_auditevent, whoever
connects: the application cannot rewrite history even through a bug or a
stolen connection. (TRUNCATE needs the table owner; run the app as a role
that does not own its tables in production, see docs/audit.md.) SQLite, the
embedded laptop default, has no such trigger; verify_audit still detects
any edit there.
"""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("casino", "0001_initial")]
    operations = [append_only("casino_auditevent", "the audit log is")]
