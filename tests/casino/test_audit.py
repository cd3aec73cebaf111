"""The audit log: written with the change, hash-chained, append-only."""

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from casino.audit import record_event, verify_chain
from casino.models import GENESIS_HASH, AuditEvent

pytestmark = pytest.mark.django_db


def _three_events(dealer):
    with transaction.atomic():
        for n in range(3):
            record_event(action="test.step", actor=dealer, stream="tables.table.1", details={"n": n})


def test_each_event_carries_the_hash_of_the_one_before(dealer_dana):
    _three_events(dealer_dana)
    events = list(AuditEvent.objects.filter(stream="tables.table.1"))
    assert [e.seq for e in events] == [1, 2, 3]
    assert events[0].prev_hash == GENESIS_HASH
    assert events[1].prev_hash == events[0].hash and events[2].prev_hash == events[1].hash
    assert events[0].role == "dealer" and events[0].actor_label == "dana"


def test_a_write_that_locked_its_stream_chains_its_events_without_reading_the_tail_again(dealer_dana):
    from django.test.utils import CaptureQueriesContext

    from casino.audit import stream_lock
    from casino.models import PlayerLink

    _three_events(dealer_dana)
    with transaction.atomic():
        # What tables.services._write does: the lock rides along the statement that reads its object.
        list(PlayerLink.objects.annotate(**stream_lock("tables.table.1")))
        with CaptureQueriesContext(connection) as queries:
            first = record_event(action="test.step", actor=dealer_dana, stream="tables.table.1", locked=True)
            second = record_event(action="test.step", actor=dealer_dana, stream="tables.table.1", locked=True,
                                  after=first)
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT", "INSERT", "INSERT"]
    assert (first.seq, second.seq, second.prev_hash) == (4, 5, first.hash)
    assert verify_chain("tables.table.1") == (5, None)


def test_an_event_follows_only_an_event_of_its_own_stream_under_its_lock(dealer_dana):
    with transaction.atomic():
        first = record_event(action="test.step", actor=dealer_dana, stream="tables.table.1")
        with pytest.raises(ValueError, match="same stream"):
            record_event(action="test.step", actor=dealer_dana, stream="tables.table.2", locked=True, after=first)
        with pytest.raises(ValueError, match="under its lock"):
            record_event(action="test.step", actor=dealer_dana, stream="tables.table.1", after=first)


@pytest.mark.django_db(transaction=True)
def test_an_event_is_written_only_inside_the_transaction_of_its_change(dealer_dana):
    with pytest.raises(RuntimeError):
        record_event(action="test.outside", actor=dealer_dana)


def test_an_event_rolls_back_with_its_change(dealer_dana):
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        record_event(action="test.doomed", actor=dealer_dana)
        1 / 0  # noqa: B018
    assert not AuditEvent.objects.filter(action="test.doomed").exists()


def test_verify_audit_passes_on_an_intact_log(dealer_dana, capsys):
    _three_events(dealer_dana)
    call_command("verify_audit")
    assert "3 events checked" in capsys.readouterr().out


@pytest.mark.skipif(connection.vendor == "postgresql", reason="PostgreSQL refuses the edit itself (next tests)")
def test_verify_audit_reports_the_first_broken_link_after_an_edit(dealer_dana):
    _three_events(dealer_dana)
    AuditEvent.objects.filter(stream="tables.table.1", seq=2).update(details={"n": 99})
    checked, broken = verify_chain()
    assert broken is not None and broken.seq == 2 and "does not match its hash" in broken.problem
    with pytest.raises(CommandError, match="event #2"):
        call_command("verify_audit")


@pytest.mark.skipif(connection.vendor == "postgresql", reason="PostgreSQL refuses the delete itself")
def test_verify_audit_reports_a_deleted_event(dealer_dana):
    _three_events(dealer_dana)
    AuditEvent.objects.filter(stream="tables.table.1", seq=2).delete()
    _checked, broken = verify_chain()
    assert broken.seq == 2 and "missing" in broken.problem


@pytest.mark.postgres
def test_postgres_refuses_to_update_an_audit_event(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(seq=2).update(details={"n": 99})
    assert AuditEvent.objects.get(seq=2, stream="tables.table.1").details == {"n": 1}


@pytest.mark.postgres
def test_postgres_refuses_to_delete_an_audit_event(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(seq=3).delete()
    assert AuditEvent.objects.filter(stream="tables.table.1").count() == 3
    call_command("verify_audit")


@pytest.mark.postgres
def test_postgres_refuses_a_raw_sql_update_too(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE casino_auditevent SET action = 'forged'")
    assert not AuditEvent.objects.filter(action="forged").exists()
