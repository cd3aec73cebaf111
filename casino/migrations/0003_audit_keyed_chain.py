"""The audit chain becomes keyed (HMAC-SHA256 with settings.AUDIT_KEY, outside the database).

The events already written were hashed with plain SHA-256: they keep ``scheme = "sha256"`` and still
verify; every event written from now on is ``hmac-sha256``. Adding the column rewrites no row (a
constant default), so the append-only trigger is not involved. The index lets verify_audit read a
hand's events by the hand.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("casino", "0002_audit_append_only")]
    operations = [
        migrations.AddField(
            model_name="auditevent", name="scheme", field=models.CharField(default="sha256", max_length=16),
        ),
        migrations.AlterField(
            model_name="auditevent", name="scheme", field=models.CharField(default="hmac-sha256", max_length=16),
        ),
        migrations.AddIndex(
            model_name="auditevent", index=models.Index(fields=["object_type", "object_id"], name="audit_object"),
        ),
    ]
