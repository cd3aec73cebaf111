"""How long a write holds its aggregate's lock (issue #37): ``casino.writes`` logs each lock a write took, from
the row locked to the transaction's commit, on ``casino.writes.lock_hold`` at DEBUG. A dealt table's award holds
its table's lock and, for the report into the event at its end, the event's: both are measured, each to the one
commit (docs/reliability.md, "How long a write holds its lock"). bench/bench_event_reports.py reads these lines."""

from __future__ import annotations

import json
import logging
import uuid

import pytest

from casino.models import label_of
from casino.rules.errors import RuleViolation
from tournaments.models import DealtTable, Tournament
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def _at(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _to_act(table):
    return hand_reads.hand_state(hand_reads.latest_hand(table)).to_act


def _holds(caplog) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "casino.writes.lock_hold"]


def test_an_award_logs_how_long_it_held_its_tables_lock_and_the_events_lock_to_the_commit(
    first_table, dealer_dana_here, event_in_play, caplog
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    while _to_act(first_table) is not None:
        _at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": _to_act(first_table)})
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="casino.writes.lock_hold"):
        _at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})

    table_lock, event_lock = _holds(caplog)  # one transaction: the table's lock first, the event's last
    assert table_lock["aggregate"] == label_of(DealtTable, first_table.pk)
    assert table_lock["action"].startswith("award-pots:")
    assert event_lock["aggregate"] == label_of(Tournament, event_in_play.pk) and event_lock["action"] == "hand"
    assert {table_lock["ended"], event_lock["ended"]} == {"commit"}
    # both end at the one commit; the event's lock was taken last (the write's last step), so held the least
    assert 0 < event_lock["held_ms"] < table_lock["held_ms"]
    assert event_lock["taken_at"] > table_lock["taken_at"]
    assert event_lock["waited_ms"] >= 0


def test_a_refused_tap_logs_its_lock_held_until_the_rollback(first_table, dealer_dana_here, caplog):
    # no hand in play: the engine refuses (TDA-23), and the table's lock was held until the rollback
    with caplog.at_level(logging.DEBUG, logger="casino.writes.lock_hold"), pytest.raises(RuleViolation):
        _at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})

    (held,) = _holds(caplog)
    assert held["aggregate"] == label_of(DealtTable, first_table.pk) and held["ended"] == "rollback"
    assert held["held_ms"] > 0


def test_nothing_is_logged_unless_the_logger_is_on_at_debug(first_table, dealer_dana_here, caplog):
    with caplog.at_level(logging.INFO, logger="casino.writes.lock_hold"):
        _at(first_table, dealing.start_hand, dealer_dana_here)

    assert _holds(caplog) == []
