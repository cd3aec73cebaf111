"""bench/bench_event_reports.py, tiny (issue #37): an event of two tables, one daphne process, a report a second
for two seconds, so the bench cannot rot. Its figures at 1,112 tables are in docs/benchmarks.md."""

from __future__ import annotations

import pytest

from bench import bench_event_reports as bench

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tables_reports_are_awarded_through_the_tablet_and_the_events_lock_is_measured(daphne_servers, tmp_path):
    lock_log = tmp_path / "lock-hold.jsonl"
    event = bench.make_event(2 * bench.SEATS, "smoke_")
    tables = bench.tables_of(event)
    bench.log_dealers_in(tables)
    (server,) = daphne_servers(1, LOCK_HOLD_LOG=str(lock_log))
    run = bench.Run(event, tables, [server.url], str(lock_log), pids=[server.proc.pid])

    bench.drive(run, rate=2, seconds=2, warmup=1, log=lambda _line: None)
    report = bench.summary(run, rate=2)

    assert report["error_count"] == 0, report["errors"]
    assert report["tables"] == 2 and report["reports"] == 4 and report["rounds"] == 2  # a table reports once a round
    # each report's hand went into the event under its lock, measured to the award's commit
    assert report["event_lock_holds_seen"] == 4 and report["other_event_writes"] == 0
    assert 0 < report["event_lock_held_ms"]["p50"] <= report["event_lock_held_ms"]["max"]
    assert report["report_request_ms"]["p50"] > report["event_lock_held_ms"]["p50"]
    # --profile: one more report, profiled in this process from the event's lock to the commit
    profiled = bench.profile_one_report(event, tables[0], top=5)
    assert "the event's lock held for" in profiled and "writing.py" in profiled


def test_queued_counts_the_reports_that_asked_for_the_lock_while_another_held_it():
    holds = [
        {"taken_at": 10.000, "held_ms": 5, "waited_ms": 0.5},
        {"taken_at": 10.006, "held_ms": 5, "waited_ms": 4},  # asked at 10.002, while the first held it
        {"taken_at": 11.000, "held_ms": 5, "waited_ms": 0.4},  # alone
    ]
    assert bench.queued(holds) == 1


def test_the_reports_are_due_at_the_rate_asked():
    import random

    even = bench.schedule(9, rate=9, start=100.0, rng=random.Random(1), even=True)
    assert even[0] == pytest.approx(100 + 1 / 9) and even[-1] == pytest.approx(101.0)
    poisson = bench.schedule(9000, rate=9, start=0.0, rng=random.Random(1), even=False)
    assert 950 < poisson[-1] < 1050  # 9,000 reports at 9 a second: about 1,000 s
