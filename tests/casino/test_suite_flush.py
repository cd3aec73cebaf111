"""The suite's own flush between transactional tests (tests/conftest.py deletes rows instead of TRUNCATE)."""

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from casino.audit import record_event
from casino.models import AuditEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_flush_empties_the_append_only_audit_log_that_refuses_a_delete(dealer_dana, django_user_model):
    with transaction.atomic():
        record_event(action="test.flush", actor=dealer_dana)
    assert AuditEvent.objects.count() == 1
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        AuditEvent.objects.all().delete()  # the trigger still refuses an ordinary delete

    call_command("flush", verbosity=0, interactive=False)

    assert AuditEvent.objects.count() == 0
    assert not django_user_model.objects.exists()
    with connection.cursor() as cursor:  # the triggers were off for the flush's transaction only
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
