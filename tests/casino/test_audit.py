"""The audit log: written with the change, hash-chained, append-only."""

from contextlib import contextmanager

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
        # What casino.writes.write does: the lock rides along the statement that reads its object.
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


@contextmanager
def _as_the_owner_past_the_trigger():
    """What a superuser can do that the application's role cannot: write with the triggers off."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        yield


def test_verify_audit_reports_the_first_broken_link_after_an_edit(dealer_dana):
    _three_events(dealer_dana)
    with _as_the_owner_past_the_trigger():
        AuditEvent.objects.filter(stream="tables.table.1", seq=2).update(details={"n": 99})
    checked, broken = verify_chain()
    assert broken is not None and broken.seq == 2 and "does not match its hash" in broken.problem
    with pytest.raises(CommandError, match="event #2"):
        call_command("verify_audit")


def test_verify_audit_reports_a_deleted_event(dealer_dana):
    _three_events(dealer_dana)
    with _as_the_owner_past_the_trigger():
        AuditEvent.objects.filter(stream="tables.table.1", seq=2).delete()
    _checked, broken = verify_chain()
    assert broken.seq == 2 and "missing" in broken.problem


def test_postgres_refuses_to_update_an_audit_event(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(seq=2).update(details={"n": 99})
    assert AuditEvent.objects.get(seq=2, stream="tables.table.1").details == {"n": 1}


def test_postgres_refuses_to_delete_an_audit_event(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(seq=3).delete()
    assert AuditEvent.objects.filter(stream="tables.table.1").count() == 3
    call_command("verify_audit")


def test_postgres_refuses_a_raw_sql_update_too(dealer_dana):
    _three_events(dealer_dana)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE casino_auditevent SET action = 'forged'")
    assert not AuditEvent.objects.filter(action="forged").exists()


# --- The keyed chain ---------------------------------------------------------------------------------


def test_the_chain_is_keyed_with_the_audit_key_so_another_key_cannot_recompute_it(dealer_dana, settings):
    import hashlib
    import hmac

    _three_events(dealer_dana)
    first = AuditEvent.objects.get(stream="tables.table.1", seq=1)
    assert first.scheme == "hmac-sha256"
    assert first.hash == hmac.new(settings.AUDIT_KEY.encode(), first.canonical().encode(), hashlib.sha256).hexdigest()
    settings.AUDIT_KEY = "somebody-else's-key-who-rewrote-the-log"
    _checked, broken = verify_chain()
    assert broken.seq == 1 and "does not match its hash" in broken.problem


def _unkeyed_events(dealer, count):
    """Events as written before the audit key: plain SHA-256."""
    from django.utils import timezone

    prev = GENESIS_HASH
    for seq in range(1, count + 1):
        event = AuditEvent(stream="tables.table.1", seq=seq, at=timezone.now(), actor=dealer, actor_label="dana",
                           role="dealer", action="test.old", details={"n": seq}, prev_hash=prev, scheme="sha256")
        event.hash = event.compute_hash()
        event.save(force_insert=True)
        prev = event.hash


def test_events_from_before_the_key_still_verify_and_are_reported_as_unkeyed(dealer_dana, capsys):
    _unkeyed_events(dealer_dana, 2)
    _three_events(dealer_dana)
    assert list(AuditEvent.objects.values_list("scheme", flat=True)) == ["sha256"] * 2 + ["hmac-sha256"] * 3
    call_command("verify_audit")
    out = capsys.readouterr().out
    assert "Audit log intact: 5 events checked." in out
    assert "Unkeyed: 2 events in 1 streams date from before the audit key" in out


def test_an_unkeyed_event_after_a_keyed_one_is_a_forgery(dealer_dana):
    """Someone without the key who rewrote the chain's end with plain SHA-256 (its old scheme)."""
    _three_events(dealer_dana)
    last = AuditEvent.objects.get(stream="tables.table.1", seq=3)
    forged = AuditEvent(stream="tables.table.1", seq=4, at=last.at, action="test.forged", prev_hash=last.hash,
                        scheme="sha256")
    forged.hash = forged.compute_hash()
    forged.save(force_insert=True)
    _checked, broken = verify_chain()
    assert broken.seq == 4 and "without the audit key after keyed event #1" in broken.problem


# --- Anchors outside the database --------------------------------------------------------------------


def _anchors(settings):
    import json

    path = settings.AUDIT_ANCHOR_PATH
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_every_nth_event_of_a_stream_anchors_its_head_once_the_transaction_commits(
    dealer_dana, settings, django_capture_on_commit_callbacks
):
    settings.AUDIT_ANCHOR_EVERY, settings.AUDIT_ANCHOR_SECONDS = 2, 3600
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        _three_events(dealer_dana)
    assert _anchors(settings) == []  # nothing before the commit
    for callback in waiting:
        callback()
    second = AuditEvent.objects.get(stream="tables.table.1", seq=2)
    [anchor] = _anchors(settings)
    assert (anchor["stream"], anchor["seq"], anchor["hash"]) == ("tables.table.1", 2, second.hash)


def test_a_stream_written_again_after_the_anchor_interval_is_anchored(dealer_dana, settings,
                                                                      django_capture_on_commit_callbacks):
    settings.AUDIT_ANCHOR_EVERY, settings.AUDIT_ANCHOR_SECONDS = 0, 0
    with django_capture_on_commit_callbacks(execute=True):
        _three_events(dealer_dana)
    assert [a["seq"] for a in _anchors(settings)] == [1, 2, 3]


def test_anchor_audit_signs_each_stream_head_that_moved_since_its_last_anchor(dealer_dana, settings, capsys):
    _three_events(dealer_dana)
    with transaction.atomic():
        record_event(action="test.step", actor=dealer_dana, stream="casino")
    call_command("anchor_audit")
    assert "Anchored 2 stream heads." in capsys.readouterr().out
    assert {(a["stream"], a["seq"]) for a in _anchors(settings)} == {("tables.table.1", 3), ("casino", 1)}
    call_command("anchor_audit")
    assert "Anchored 0 stream heads." in capsys.readouterr().out
    call_command("verify_audit")
    assert "Anchors: 2 checked against the log" in capsys.readouterr().out


def test_a_forged_anchor_fails_verify_audit(dealer_dana, settings):
    _three_events(dealer_dana)
    call_command("anchor_audit")
    line = settings.AUDIT_ANCHOR_PATH.read_text()
    settings.AUDIT_ANCHOR_PATH.write_text(line + line.replace('"seq":3', '"seq":9'))
    with pytest.raises(CommandError, match=r"audit-anchors.jsonl:2: its signature does not match"):
        call_command("verify_audit")


def test_verify_audit_warns_when_there_is_no_anchor(dealer_dana, capsys):
    _three_events(dealer_dana)
    call_command("verify_audit")
    assert "No anchors found" in capsys.readouterr().err
