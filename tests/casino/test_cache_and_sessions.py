"""One Redis pool per process, and sessions read from the cache but kept in the database."""

from __future__ import annotations

import contextvars
from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.sessions import STALE_COPY, SessionStore, stale_copies

REDIS = "casino.cache.ProcessRedisCache"
IN_MEMORY = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions"}}


def _session_in_the_cache_and_the_database(settings, **data) -> SessionStore:
    settings.CACHES = IN_MEMORY
    store = SessionStore()
    store.update(data)
    store.create()
    return store


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


def test_each_call_to_the_cache_uses_the_same_redis_client(settings):
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:6379/3"}}
    client = _backend_in_a_fresh_context()._cache
    assert client.get_client() is client.get_client(write=True)  # Django's built a redis.Redis per call
    cache = _backend_in_a_fresh_context()
    cache.set("casino-test-one-client", 1, 5)
    assert cache.get("casino-test-one-client") == 1
    cache.delete("casino-test-one-client")


def test_a_key_is_not_checked_for_memcached_which_this_cache_never_is(settings):
    import warnings

    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:6379/3"}}
    cache = _backend_in_a_fresh_context()
    key = "casino test " + "k" * 300  # a space and 312 characters: memcached refuses both, Redis takes them
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Django's check warns (CacheKeyWarning); none is raised here
        cache.set(key, 1, 5)
        assert cache.get(key) == 1
    cache.delete(key)


@pytest.mark.redis
def test_a_cache_under_a_key_prefix_clears_only_its_own_keys(settings):
    """Two casinos, or the suite's two workers (tests/conftest.py), on one Redis database: clearing one's cache
    deletes its keys and leaves the other's, where Django's FLUSHDB took the whole database."""
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": settings.REDIS_URL, "KEY_PREFIX": "casino_t_ours"}}
    ours = _backend_in_a_fresh_context()
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": settings.REDIS_URL, "KEY_PREFIX": "casino_t_theirs"}}
    theirs = _backend_in_a_fresh_context()
    ours.set_many({f"session-{n}": n for n in range(1500)}, 30)  # more than one batch of deletes
    theirs.set("session-1", "theirs", 30)
    try:
        assert ours.clear() is True
        assert ours.get_many([f"session-{n}" for n in range(1500)]) == {}
        assert theirs.get("session-1") == "theirs"
    finally:
        ours.clear()
        theirs.clear()


@pytest.mark.django_db
def test_a_session_is_read_from_the_cache_and_kept_in_the_database(settings):
    store = _session_in_the_cache_and_the_database(settings, player_link="abc")
    assert SessionStore(store.session_key)["player_link"] == "abc"  # may read the logged-out notes (below)
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(store.session_key)["player_link"] == "abc"
    assert queries.captured_queries == []  # the notes at most once a second, the session from the cache
    assert DatabaseSessionStore(store.session_key)["player_link"] == "abc"  # the record
    store.flush()  # logging out removes it from both
    assert SessionStore(store.session_key).get("player_link") is None
    caches["default"].clear()


@pytest.mark.django_db
def test_without_redis_a_session_is_read_from_the_database_and_the_request_goes_on(settings, caplog):
    from casino.redis_outage import REDIS as outage

    outage.reset()  # the outage is logged once (casino.redis_outage): this test's is its first
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": "redis://127.0.0.1:9/0"}}  # nothing listens
    kept = DatabaseSessionStore()
    kept["_auth_user_id"] = "7"
    kept.create()
    assert SessionStore(kept.session_key)["_auth_user_id"] == "7"
    assert "Redis is not answering (session cache unavailable" in caplog.text
    outage.reset()
    assert SessionStore("no-such-session-key-0123456789abcdef").get("_auth_user_id") is None


@pytest.mark.django_db
def test_a_logout_redis_missed_is_noted_and_its_copy_refused_then_deleted_once_redis_answers(settings):
    dana = _session_in_the_cache_and_the_database(settings, _auth_user_id="7")
    key, cache = dana.session_key, caches["default"]
    copy_name = dana.cache_key

    with mock.patch.object(type(cache), "delete", side_effect=ConnectionError("Redis is down")):
        dana.flush()  # Dana logs out: the row goes, the copy stays (Redis did not answer)

    assert cache.get(copy_name) == {"_auth_user_id": "7"}
    assert Session.objects.filter(session_key=STALE_COPY + key).exists()  # the note every process reads
    stale_copies.forget()  # another process: it has not seen the note yet
    assert SessionStore(key).get("_auth_user_id") is None  # the copy is refused...
    assert cache.get(copy_name) is None  # ...and deleted, now that the cache answers
    assert not Session.objects.filter(session_key__startswith=STALE_COPY).exists()
    caches["default"].clear()


@pytest.mark.django_db
def test_no_cookie_can_name_a_logged_out_note():
    Session.objects.create(session_key=STALE_COPY + "a" * 32, session_data="", expire_date=timezone.now())
    assert SessionStore(STALE_COPY + "a" * 32).session_key is None


@pytest.mark.redis
def test_the_process_counts_each_new_connection_to_redis_as_after_a_restart_but_not_a_reused_one(settings):
    from casino.cache import connections_made

    settings.CACHES = {"default": {**settings.CACHES["default"], "OPTIONS": {"socket_timeout": 0.4}}}  # own pool
    cache = caches["default"]
    before = connections_made()
    cache.get("counted")
    assert connections_made() == before + 1
    cache.get("counted")
    assert connections_made() == before + 1  # the pooled connection again
    cache._cache.get_client().connection_pool.disconnect()  # what a Redis restart does to the pool
    cache.get("counted")
    assert connections_made() == before + 2
