"""bench/fault_drill.py's pieces, fast: its count of lost and doubled taps against what PostgreSQL
holds, and the private servers it kills and starts again (never the shared ones). The drill itself
runs for minutes: it is a command (docs/reliability.md)."""

import shutil
import socket

import pytest

from bench.fault_drill import PG_BIN, Attempt, PrivatePostgres, PrivateRedis, Tap, account_taps, parse_faults

TABLE = 7


def _tap(key, action="bet", *, answered=None, refused=None, statuses=(200,)):
    tap = Tap(TABLE, key, action, applied_version=answered, refused=refused)
    tap.attempts = [Attempt(100.0 + i, "http://127.0.0.1:1", status) for i, status in enumerate(statuses)]
    return tap


def _bet(box):
    return {"action": "bet", "box": box, "spot": "ante", "amount": 10}


def test_a_night_where_every_answered_tap_is_recorded_once_counts_nothing_lost_or_doubled():
    taps = [
        _tap("a", answered=11),
        # No answer the first time (the process died), the same key again: the record has it once.
        _tap("b", answered=12, statuses=(None, 500, 200)),
        # The table moved on: refused, nothing recorded, the dealer tapped again under a new key.
        _tap("c", refused=409, statuses=(409,)),
        _tap("d", answered=13),
    ]
    requests = [(TABLE, "opening", 10), (TABLE, "a", 11), (TABLE, "b", 12), (TABLE, "d", 13)]
    actions = [(TABLE, "a", "bet", _bet(1)), (TABLE, "b", "bet", _bet(2)), (TABLE, "d", "bet", _bet(3))]

    counted = account_taps(taps, requests, actions, {TABLE: (10, 13)})

    assert counted["lost"] == []
    assert counted["applied_twice"] == []
    assert (counted["taps"], counted["answered_2xx"], counted["retried"], counted["unanswered"]) == (4, 3, 1, 0)


def test_a_tap_answered_200_that_the_record_does_not_hold_is_lost():
    taps = [_tap("a", answered=11), _tap("b", answered=12)]
    requests = [(TABLE, "a", 11)]  # "b" was answered, then rolled back or never written

    counted = account_taps(taps, requests, [], {TABLE: (10, 11)})

    assert len(counted["lost"]) == 1
    assert counted["lost"][0].startswith("b (bet): answered version 12, recorded None")


def test_a_tap_answered_with_a_version_the_record_gives_another_request_is_lost():
    taps = [_tap("a", answered=11)]
    requests = [(TABLE, "a", 12), (TABLE, "x", 11)]

    counted = account_taps(taps, requests, [], {TABLE: (10, 12)})

    assert len(counted["lost"]) == 1
    assert any("x: recorded, never sent" in item for item in counted["applied_twice"])


def test_a_retry_recorded_under_its_key_a_second_time_is_applied_twice():
    taps = [_tap("a", answered=11, statuses=(None, 200))]
    requests = [(TABLE, "a", 11), (TABLE, "a", 12)]  # as if the unique constraint were gone

    counted = account_taps(taps, requests, [], {TABLE: (10, 12)})

    assert any("a: recorded 2 times" in item for item in counted["applied_twice"])


def test_a_version_no_recorded_request_made_counts_as_applied_twice():
    taps = [_tap("a", answered=11)]
    requests = [(TABLE, "a", 11)]

    counted = account_taps(taps, requests, [], {TABLE: (10, 12)})  # the table went to 12: by what?

    assert counted["applied_twice"] == [f"table {TABLE}: versions 11..12 made by 1 recorded requests"]


def test_a_retry_that_wrote_its_hand_action_again_is_applied_twice():
    taps = [_tap("a", answered=11, statuses=(500, 200))]
    requests = [(TABLE, "a", 11)]
    actions = [(TABLE, "a", "bet", _bet(1)), (TABLE, "a", "bet", _bet(1))]

    counted = account_taps(taps, requests, actions, {TABLE: (10, 11)})

    assert counted["applied_twice"] == ["a: the same bet written 2 times"]


def test_a_hand_action_under_a_sent_key_with_no_request_row_is_applied_twice():
    taps = [_tap("a", refused=409, statuses=(None, 409))]
    actions = [(TABLE, "a", "bet", _bet(1))]

    counted = account_taps(taps, [], actions, {TABLE: (10, 10)})

    assert counted["applied_twice"] == ["a: a bet row with no request row"]


def test_a_tap_still_unanswered_at_the_end_is_reported_with_whether_it_was_applied():
    taps = [_tap("a", statuses=(None, None)), _tap("b", statuses=(503,))]
    requests = [(TABLE, "a", 11)]

    counted = account_taps(taps, requests, [], {TABLE: (10, 11)})

    assert (counted["unanswered"], counted["unanswered_but_applied"]) == (2, 1)
    assert counted["lost"] == [] and counted["applied_twice"] == []


def _redis_get(port, key):
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(f"GET {key}\r\n".encode())
        return s.recv(64)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (apt-get install redis-server)")
def test_the_drills_redis_is_its_own_and_comes_back_empty_on_the_same_port_after_a_kill():
    redis = PrivateRedis()
    assert redis.port != 6379
    redis.start()
    try:
        with socket.create_connection(("127.0.0.1", redis.port), timeout=2) as s:
            s.sendall(b"SET seat 3\r\n")
            assert s.recv(16).startswith(b"+OK")

        redis.kill()
        assert not redis.answers()
        redis.start()

        assert redis.answers()
        assert _redis_get(redis.port, "seat") == b"$-1\r\n"  # nothing kept on disk: it starts empty
    finally:
        redis.stop()
    assert not redis.answers()


@pytest.mark.skipif(not (PG_BIN / "initdb").exists(), reason=f"needs PostgreSQL's binaries in {PG_BIN}")
def test_the_drills_postgresql_is_its_own_and_starts_again_after_a_kill_with_its_commits():
    psycopg = pytest.importorskip("psycopg")
    postgres = PrivatePostgres()
    assert postgres.port != 5432
    try:
        postgres.init()
        postgres.start()
        postgres.create_database()
        with psycopg.connect(postgres.url, autocommit=True) as connection:
            connection.execute("CREATE TABLE taps (key text primary key)")
            connection.execute("INSERT INTO taps VALUES ('answered')")

        postgres.kill()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(postgres.url, connect_timeout=2)
        postgres.start()

        with psycopg.connect(postgres.url, autocommit=True) as connection:
            assert connection.execute("SELECT key FROM taps").fetchall() == [("answered",)]
    finally:
        postgres.stop()
    assert not postgres.dir.exists()


def test_the_faults_are_named_in_order_each_with_how_long_it_stays_dead():
    assert parse_faults("daphne,redis,postgres:0", 5) == [("daphne", 5), ("redis", 5), ("postgres", 0.0)]
    with pytest.raises(ValueError, match="unknown fault 'shared-redis'"):
        parse_faults("shared-redis", 5)
    with pytest.raises(ValueError, match="must be a number"):
        parse_faults("redis:soon", 5)
