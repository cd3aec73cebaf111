"""A Redis outage is logged as one: its start, a count while it lasts, its end (issue #34, item 9).

Each failed session read, shared snapshot and announcement logged a traceback of its own: some 35 a second
per process while Redis was down, which would hide a real error.
"""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from redis.exceptions import ConnectionError as RedisConnectionError

from casino import reads, realtime
from casino.redis_outage import REDIS, RedisOutage
from casino.sessions import SessionStore

NOBODY_LISTENS = {"default": {"BACKEND": "casino.cache.ProcessRedisCache", "LOCATION": "redis://127.0.0.1:9/0"}}
IN_MEMORY = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "outage-log"}}


@pytest.fixture
def logged(caplog):
    REDIS.reset()
    caplog.set_level(logging.INFO)
    yield caplog
    REDIS.reset()


def _problems(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.WARNING]


@pytest.mark.django_db
def test_sixty_session_reads_without_redis_log_one_line_then_one_when_redis_is_back(settings, logged):
    kept = DatabaseSessionStore()
    kept["_auth_user_id"] = "7"
    kept.create()
    settings.CACHES = NOBODY_LISTENS
    for _ in range(60):
        assert SessionStore(kept.session_key)["_auth_user_id"] == "7"  # the database answers meanwhile
    assert [r.getMessage()[:26] for r in _problems(logged)] == ["Redis is not answering (se"]
    assert not any(r.exc_info for r in logged.records)
    settings.CACHES = IN_MEMORY
    SessionStore(kept.session_key).load()
    assert _problems(logged)[-1].getMessage().startswith("Redis is back after ")
    assert _problems(logged)[-1].getMessage().endswith(", 120 calls failed")  # a read and a write each
    assert len(_problems(logged)) == 2


def test_while_redis_stays_down_a_count_is_logged_at_most_every_thirty_seconds(caplog):
    now = [1000.0]
    outage = RedisOutage(summary_seconds=30, clock=lambda: now[0])
    caplog.set_level(logging.INFO, logger="casino.redis")
    for _ in range(35 * 70):  # 35 failures a second for 70 s
        outage.failed("could not read the shared snapshot s", RedisConnectionError("Connection refused"))
        now[0] += 1 / 35
    outage.answered()
    outage.answered()
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == ("Redis is not answering (could not read the shared snapshot s: ConnectionError: "
                           "Connection refused); carrying on without it, failures counted every 30 s")
    assert [m.split(":")[0] for m in messages[1:3]] == ["Redis still not answering after 30 s",
                                                       "Redis still not answering after 60 s"]
    assert messages[3:] == ["Redis is back after 70 s, 2450 calls failed"]


def test_shared_snapshots_and_announcements_without_redis_count_in_the_same_outage(settings, logged):
    settings.SHARE_SNAPSHOTS = True
    settings.CACHES = NOBODY_LISTENS
    with mock.patch.object(reads, "shared_cache", return_value=mock.Mock(
            get=mock.Mock(side_effect=RedisConnectionError("refused")),
            set=mock.Mock(side_effect=RedisConnectionError("refused")))):
        for n in range(20):
            reads.share(f"snapshot-{n}", {"v": n})
            assert reads.shared(f"snapshot-{n}") is None
    layer = get_channel_layer()
    with mock.patch.object(type(layer), "group_send", side_effect=RedisConnectionError("refused")):
        for n in range(20):
            realtime.send_now(["pit.1", "table.1"], [{"type": "state.changed", "version": n}] * 2)
    realtime.send_now(["table.1"], [{"type": "state.changed", "version": 99}])
    messages = [r.getMessage() for r in _problems(logged)]
    assert len(messages) == 2 and messages[0].startswith("Redis is not answering (could not share the snapshot")
    assert messages[1].startswith("Redis is back after") and messages[1].endswith(", 80 calls failed")
    assert not any(r.exc_info for r in logged.records)


def test_a_failure_that_is_not_redis_keeps_its_traceback(logged):
    with mock.patch.object(reads, "shared_cache", return_value=mock.Mock(get=mock.Mock(side_effect=KeyError("k")))):
        assert reads.shared("snapshot") is None
    assert [r.exc_info[0] for r in _problems(logged)] == [KeyError]
    assert not REDIS.down
