"""One Redis pool per process, and sessions read from the cache but kept in the database."""

from __future__ import annotations

import contextvars

import pytest
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.sessions import SessionStore

REDIS = "casino.cache.ProcessRedisCache"


def _backend_in_a_fresh_context():
    # What a request (or a websocket's worker-thread call) under ASGI gets: a context of its own.
    return contextvars.Context().run(lambda: caches["default"])


def test_every_request_context_gets_its_own_backend_but_the_process_one_redis_pool(settings):
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:6379/3"}}
    first, second = _backend_in_a_fresh_context(), _backend_in_a_fresh_context()
    assert first is not second  # Django's doing: a backend object per context
    assert first._cache is second._cache  # ours: one client, so one connection pool
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:6379/4"}}
    assert _backend_in_a_fresh_context()._cache is not first._cache  # another Redis, another pool


@pytest.mark.django_db
def test_a_session_is_read_from_the_cache_and_kept_in_the_database(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "s"}}
    store = SessionStore()
    store["player_link"] = "abc"
    store.create()
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(store.session_key)["player_link"] == "abc"
    assert queries.captured_queries == []
    assert DatabaseSessionStore(store.session_key)["player_link"] == "abc"  # the record
    store.flush()  # logging out removes it from both
    assert SessionStore(store.session_key).get("player_link") is None
    caches["default"].clear()


@pytest.mark.django_db
def test_without_redis_a_session_is_read_from_the_database_and_the_request_goes_on(settings, caplog):
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:9/0"}}  # nothing listens
    kept = DatabaseSessionStore()
    kept["_auth_user_id"] = "7"
    kept.create()
    assert SessionStore(kept.session_key)["_auth_user_id"] == "7"
    assert "session cache unavailable" in caplog.text and "could not cache the session" in caplog.text
    assert SessionStore("no-such-session-key-0123456789abcdef").get("_auth_user_id") is None
