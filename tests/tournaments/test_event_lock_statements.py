"""What a hand's end runs under the event's lock (issue #37 item 2): every table's award reports its hand into the
one event under that lock, so each statement between the lock and the commit is a wait for every other table.
A plain hand's end runs seven: the lock (which brings the record's last row and the audit stream's tail with it),
the record's event, the entries' stacks (not read first), the two audit events (one statement), the event's
version, its request row, and the table's hand row; then the commit. No savepoint: a refusal inside rolls the
whole award back (docs/decisions/2026-11-28-event-lock-statements.md)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from casino.audit import record_event, verify_chain
from casino.models import AuditEvent, label_of
from casino.rules.errors import RuleViolation
from tests.tournaments.conftest import act
from tournaments import services, writing
from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing, play

pytestmark = pytest.mark.django_db(transaction=True)


def _at(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _to_act(table):
    return hand_reads.hand_state(hand_reads.latest_hand(table)).to_act


def _fold_to_the_award(table, dealer):
    _at(table, dealing.start_hand, dealer)
    while _to_act(table) is not None:
        _at(table, dealing.act, dealer, record={"action": "fold", "seat": _to_act(table)})


def _kind(sql: str) -> str:
    """A statement named by what it does and to which table."""
    words = sql.split()
    verb = words[0]
    if verb in ("SAVEPOINT", "RELEASE", "ROLLBACK", "COMMIT"):
        return verb
    if verb == "SELECT":
        table = sql.rsplit(" FROM ", 1)[1].split()[0]  # the outer FROM: the subqueries come before it
        return f"SELECT {table.strip(chr(34))}" + (" FOR UPDATE" if "FOR UPDATE" in sql else "")
    table = words[2] if verb == "INSERT" else words[1]  # INSERT INTO t ..., UPDATE t ...
    return f"{verb} {table.strip(chr(34))}"


def test_a_plain_hands_end_runs_seven_statements_under_the_events_lock_and_no_savepoint_issue_37(
    first_table, dealer_dana_here, event_in_play
):
    _fold_to_the_award(first_table, dealer_dana_here)
    state = event_reads.tournament_state(event_in_play)  # the replay this process follows, as the tablets' screens
    assert state.players_left > 0

    with CaptureQueriesContext(connection) as queries:
        _at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})

    statements = [q["sql"] for q in queries.captured_queries]
    locked = next(i for i, sql in enumerate(statements)
                  if 'FROM "tournaments_tournament"' in sql and "FOR UPDATE" in sql)
    assert [_kind(sql) for sql in statements[locked:]] == [
        "SELECT tournaments_tournament FOR UPDATE",  # with the record's last row and the audit stream's tail
        "INSERT tournaments_tournamentevent",
        "UPDATE tournaments_entry",  # the hand's players' stacks, not read first
        "INSERT casino_auditevent",  # tournament.hand and tournament.record, together
        "UPDATE tournaments_tournament",  # its version
        "INSERT tournaments_tournamentrequest",
        "UPDATE tournaments_tablehand",  # reported_seq
        "COMMIT",
    ]
    assert not any(sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT")) for sql in statements[locked:])
    # and what it wrote is the record's: the hand, its audit events in the chain, the entries' stacks
    hand = hand_reads.latest_hand(first_table)
    reported = event_reads.tournament_record(event_in_play)[hand.reported_seq - 1]
    assert reported["type"] == "hand"
    stream = label_of(Tournament, event_in_play.pk)
    assert list(AuditEvent.objects.filter(stream=stream).order_by("-seq").values_list("action", flat=True)[:2]) == [
        "tournament.record", "tournament.hand"]
    assert verify_chain(stream)[1] is None
    after = event_reads.tournament_state(event_in_play)
    rows = dict(event_in_play.entries.values_list("number", "chips"))
    assert all(rows[p["entry"]] == after.entry(p["entry"]).stack == p["end"] for p in reported["players"])


def test_a_hand_refused_inside_the_award_rolls_the_whole_award_back_and_its_caller_cannot_go_on(
    first_table, dealer_dana_here, event_in_play
):
    """A write inside another's has no savepoint of its own: its refusal leaves the outer transaction to roll
    back, and a caller that caught it and went on would not commit anything (Django refuses its next statement)."""
    _fold_to_the_award(first_table, dealer_dana_here)
    first_table.refresh_from_db()
    version, record = first_table.version, len(event_reads.tournament_record(event_in_play))

    def work(w):
        try:
            play.report_hand(tournament=event_in_play.pk, by=w.by, key=uuid.uuid4().hex, expected_version=None,
                             table=first_table.number, hand=99, button=1, small_blind_seat=None,
                             big_blind_seat=None, stacks_at_start={42: 1}, stacks_at_end={42: 1}, who="table")
        except RuleViolation:
            pass  # a caller that would go on regardless

    with pytest.raises(TransactionManagementError):
        writing.write_at_table(first_table, by=dealer_dana_here, key=uuid.uuid4().hex, expected_version=version,
                               action="pause", work=work)
    first_table.refresh_from_db()
    assert first_table.version == version
    assert len(event_reads.tournament_record(event_in_play)) == record


def test_a_write_follows_an_audit_event_committed_while_its_lock_statement_waited_for_the_stream(
    event_in_play, director_dora
):
    """The lock's statement reads the audit stream's tail after taking the stream's lock, not as the statement
    saw the stream when it began: an event another transaction appended to the stream meanwhile (an
    administrator's edit takes the stream's lock only) is the one the write's first event follows."""
    stream = label_of(Tournament, event_in_play.pk)
    holding, release = threading.Event(), threading.Event()

    def an_administrators_edit():
        try:
            with transaction.atomic():
                record_event(action="admin.tournament_changed", obj=event_in_play, stream=stream, details={})
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    other = threading.Thread(target=an_administrators_edit)
    other.start()
    assert holding.wait(10)
    threading.Timer(0.3, release.set).start()  # commits while the write's lock statement waits for the stream
    act(services.clock_command, event_in_play, director_dora, kind="pause")
    other.join(10)

    last = list(AuditEvent.objects.filter(stream=stream).order_by("-seq").values_list("action", flat=True)[:3])
    assert last == ["tournament.record", "tournament.clock", "admin.tournament_changed"]
    assert verify_chain(stream)[1] is None


def test_a_kept_replay_is_trusted_on_the_record_row_the_lock_brought_and_checked_again_when_that_was_older(
    event_in_play, director_dora
):
    """``_replayer_for`` checks the kept replay against the record's last row that came with the lock, with no
    statement of its own; when the lock's statement saw an older record (it waited for another write: its
    subqueries keep the snapshot it began with), the row is asked again, and the kept replay still used."""
    act(services.clock_command, event_in_play, director_dora, kind="pause")  # this process keeps its replay
    row = Tournament.objects.annotate(**writing._last_row_with_the_lock()).get(pk=event_in_play.pk)
    kept = event_reads.REPLAYS.kept[(row.pk, row.version)]

    with CaptureQueriesContext(connection) as queries:
        assert writing._replayer_for(row) is kept[1]
    assert queries.captured_queries == []

    event_reads.REPLAYS.put((row.pk, row.version), kept)
    row.record_last_seq -= 1  # as a lock statement that waited would have seen the record: one event short
    with CaptureQueriesContext(connection) as queries:
        assert writing._replayer_for(row) is kept[1]
    assert len(queries.captured_queries) == 1  # the record's last row, asked again
