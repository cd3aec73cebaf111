"""Shared fixtures: the casino's people, its pit, and real daphne servers.

Named people read better in tests than user1/user2: dealer_dana deals at
table THB-1, pit_boss_pat runs Pit A, and so on, as in seed_demo.
"""

from __future__ import annotations

import asyncio
import asyncio.runners
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import pytest
from django.conf import settings


# --- A test's event loop always closes ---------------------------------------------------------------
# pytest-asyncio closes each test's loop with asyncio.Runner, which cancels the tasks left and waits for
# them without a limit. A socket the test left open (a refused handshake is never sent its disconnect,
# as daphne would) leaves its consumer's channel-layer receive pending, and such a task may never finish
# after its cancellation: the suite would hang in a teardown. Here the wait is bounded: what is still
# pending after 10 s is reported and left.
def _cancel_all_tasks_within_a_bound(loop):
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    if not tasks:
        return
    for task in tasks:
        task.cancel()
    done, pending = loop.run_until_complete(asyncio.wait(tasks, timeout=10))
    for task in pending:
        warnings.warn(f"a task did not finish 10 s after its cancellation: {task!r}", stacklevel=1)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler({"message": "unhandled exception during test loop shutdown",
                                         "exception": task.exception(), "task": task})


asyncio.runners._cancel_all_tasks = _cancel_all_tasks_within_a_bound


def _flush_by_deleting_rows() -> None:
    """A transactional test (``django_db(transaction=True)``) ends with Django's flush, which on
    PostgreSQL is one TRUNCATE of every table: hundreds of milliseconds even on empty tables (a new file
    for each table, index and TOAST table), and most of the suite's tests are transactional
    (docs/decisions/2026-11-27-suite-flush-by-delete.md). Here the flush deletes the rows instead, with the
    triggers off for its transaction (``session_replication_role``: the append-only tables refuse a
    DELETE, casino.append_only, and the foreign keys need no checking when every row goes). Same end:
    empty tables, sequences not reset (Django's TRUNCATE does not restart them either). Needs a
    superuser, as .ci/run's and the embedded server's are; another role keeps Django's TRUNCATE."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables or not _is_superuser(self.connection):
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET LOCAL session_replication_role = replica",
                *(f"DELETE FROM {self.quote_name(table)}" for table in tables)]

    DatabaseOperations.sql_flush = sql_flush


def _is_superuser(connection) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('is_superuser') = 'on'")
        return cursor.fetchone()[0]


def _redis_keys_of_this_worker() -> None:
    """Under pytest-xdist (``make test`` runs two workers, ``-n 2``) each worker has its own test database
    (pytest-django names it after the worker) but shares the one Redis database of ``REDIS_URL``: here each
    worker takes its own channel-layer prefix and cache key prefix (read by the daphne servers it starts, see
    ``daphne_servers``), so that one worker's groups, pushes, sessions and shared snapshots never reach the
    other's, and a test's ``caches["default"].clear()`` deletes its own worker's keys only (not FLUSHDB,
    casino.cache.ProcessRedisCache.clear). Runs when this file is imported: before any test opens the cache
    or the channel layer, which read these settings once."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker or not settings.REDIS_URL:
        return
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer["prefix"] = f"{layer['prefix']}_{worker}"
    cache = settings.CACHES["default"]
    cache["KEY_PREFIX"] = f"{cache.get('KEY_PREFIX') or 'casino'}_{worker}"

    from channels.layers import get_channel_layer
    from django.core.cache import caches

    # Loudly, if something opened them before: two workers on one set of keys fail each other's tests at random.
    assert caches["default"].key_prefix == cache["KEY_PREFIX"], "the cache was opened before its worker's prefix"
    assert get_channel_layer().prefix == layer["prefix"], "the channel layer was opened before its worker's prefix"


_redis_keys_of_this_worker()

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"

ON_REDIS = bool(settings.REDIS_URL)
HAS_CHROMIUM = Path(CHROMIUM).exists()

_flush_by_deleting_rows()

#: Why a test marked with a need is skipped where the machine lacks it, by marker.
NEEDS = {
    "redis": (ON_REDIS, "needs Redis: set REDIS_URL (.ci/run does)"),
    "browser": (HAS_CHROMIUM, f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"),
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker, (available, reason) in NEEDS.items():
            if item.get_closest_marker(marker) and not available:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter):
    # Read from the skipped tests' reports, not noted at collection: under pytest-xdist (make test's -n 2) the
    # workers collect, and this summary is the controller's.
    skipped = [str(report.longrepr) for report in terminalreporter.stats.get("skipped", [])]
    reasons = sorted({reason for _, reason in NEEDS.values() if any(reason in text for text in skipped)})
    if reasons:
        tr = terminalreporter
        tr.write_sep("!", "NOT EVERYTHING WAS TESTED", red=True, bold=True)
        for reason in reasons:
            tr.write_line(f"  skipped: {reason}", red=True, bold=True)
        tr.write_line("  Run .ci/run (or set REDIS_URL and install chromium) to test it all.", bold=True)


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """Staff passwords hashed at one PBKDF2 iteration in the test process (tests/hashers.py): the
    casino's million cost the suite minutes, and what a test checks of a login never depends on it."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["tests.hashers.QuickPBKDF2PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """Each test starts with empty per-process caches (casino.memo): a test database reuses ids."""
    from casino.memo import clear_all

    clear_all()
    yield
    clear_all()


@pytest.fixture(autouse=True)
def _the_houses_language():
    """Each test starts in the house's language (Spanish): a request in English activates English in the
    thread, and Django leaves it active after the response, so a later test would read English."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _audit_anchors_in_tmp(settings, tmp_path):
    """Each test anchors the audit log in a file of its own: test databases reuse stream names."""
    settings.AUDIT_ANCHOR_PATH = tmp_path / "audit-anchors.jsonl"


# --- People -------------------------------------------------------------------


def _staff(django_user_model, username, role, first_name):
    from django.contrib.auth.models import Group

    from casino.roles import ensure_role_groups

    ensure_role_groups()
    user = django_user_model.objects.create_user(
        username=username, password=f"pw-{username}-2026", first_name=first_name
    )
    user.groups.add(Group.objects.get(name=role))
    user.raw_password = f"pw-{username}-2026"
    return user


@pytest.fixture
def dealer_dana(django_user_model):
    return _staff(django_user_model, "dana", "dealer", "Dana")


@pytest.fixture
def dealer_diego(django_user_model):
    return _staff(django_user_model, "diego", "dealer", "Diego")


@pytest.fixture
def pit_boss_pat(django_user_model):
    return _staff(django_user_model, "pat", "pit_boss", "Pat")


@pytest.fixture
def pit_boss_paula(django_user_model):
    return _staff(django_user_model, "paula", "pit_boss", "Paula")


@pytest.fixture
def games_director_gloria(django_user_model):
    return _staff(django_user_model, "gloria", "games_director", "Gloria")


@pytest.fixture
def tournament_director_teo(django_user_model):
    return _staff(django_user_model, "teo", "tournament_director", "Teo")


@pytest.fixture
def pit_a(pit_boss_pat):
    from tables.models import Pit

    return Pit.objects.create(name="Pit A", pit_boss=pit_boss_pat)


@pytest.fixture
def table_one(pit_a, dealer_dana):
    """THB-1 at the lowest tier (THB-19: 5/100), Dana on duty."""
    from tables.models import Table

    table = Table.objects.create(pit=pit_a, name="THB-1", min_ante=5, max_ante=100, dealer=dealer_dana)
    table.ensure_boxes()
    return table


@pytest.fixture
def bonus_paid_without_release(table_one):
    """THB-1 under THB-67's house option: only THB-54's awards wait for the pit boss, any other winning Bonus
    is paid at once (the engine's default before issue #38), for the tests about something else."""
    table_one.house_options = {**table_one.house_options, "release_every_bonus": False}
    table_one.save(update_fields=["house_options"])
    return table_one


@pytest.fixture
def table_two(pit_a, dealer_diego):
    from tables.models import Table

    table = Table.objects.create(pit=pit_a, name="THB-2", min_ante=10, max_ante=200, dealer=dealer_diego)
    table.ensure_boxes()
    return table


def issue_box_link(table, number: int, by):
    """Box ``number``'s QR link as the dealer issues it (tables.sessions.issue_box_link). A link belongs
    to one table session: if the table has none live, its dealer first asks to open it (the session
    then waits for the deck check, which is enough for a link)."""
    import uuid

    from tables import reads, sessions

    table.refresh_from_db()
    if reads.live_session(table) is None:
        sessions.request_opening(table=table, by=table.dealer, key=uuid.uuid4().hex, expected_version=table.version)
        table.refresh_from_db()
    return sessions.issue_box_link(table=table, number=number, by=by)


def player_session(link) -> str:
    """The key of a browser session that opened ``link`` (its QR code), as a phone's socket sends it."""
    from django.contrib.sessions.backends.db import SessionStore

    from casino import player_links

    session = SessionStore()
    session[player_links.SESSION_KEY] = str(link.pk)
    session.create()
    return session.session_key


# --- Real servers ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url_for_servers(user: str | None = None, password: str | None = None) -> str:
    """The URL of the database the tests are using, for server subprocesses (as ``user`` if given)."""
    db = settings.DATABASES["default"]
    user = user or db.get("USER") or ""
    password = password if user != db.get("USER") else db.get("PASSWORD")
    auth = f"{user}{f':{password}' if password else ''}@" if user else ""
    if (db.get("HOST") or "").startswith("/"):  # the embedded server's unix socket (casino.embedded_db)
        return f"postgres://{auth}/{db['NAME']}?host={db['HOST']}&port={db['PORT']}"
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


class DaphneServer:
    def __init__(self, port: int, proc: subprocess.Popen, log: Path):
        self.port, self.proc, self.log = port, proc, log
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def daphne_servers(tmp_path):
    """Start real daphne processes on the test database; call with how many you want.

    Tests using it must be ``django_db(transaction=True)`` so that the servers see committed data.
    """
    started: list[DaphneServer] = []

    def start(count: int = 1, **extra_env) -> list[DaphneServer]:
        env = {
            **os.environ,
            "DATABASE_URL": database_url_for_servers(),
            "DEBUG": "1",
            "SECRET_KEY": settings.SECRET_KEY,
            "AUDIT_KEY": settings.AUDIT_KEY,
            "AUDIT_ANCHOR_PATH": str(tmp_path / "audit-anchors.jsonl"),
            "STATIC_MANIFEST": "0",
        }
        if settings.REDIS_URL:
            env["REDIS_URL"] = settings.REDIS_URL
            env["CHANNEL_PREFIX"] = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
            env["CACHE_KEY_PREFIX"] = settings.CACHES["default"].get("KEY_PREFIX", "")
        # Its settings are the casino's but for the password hashers (tests/server_settings.py).
        env["DJANGO_SETTINGS_MODULE"] = "tests.server_settings"
        env.update(extra_env)  # last: a test may point the servers at a database or a Redis of its own
        servers = []
        for _ in range(count):
            port = free_port()
            log = tmp_path / f"daphne-{port}.log"
            proc = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "casino.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
            )
            server = DaphneServer(port, proc, log)
            started.append(server)
            servers.append(server)
        for server in servers:
            _wait_healthy(server)
        return servers

    yield start
    for server in started:
        server.stop()


def _wait_healthy(server: DaphneServer, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"daphne exited: {server.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:  # noqa: S310 - loopback
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne on {server.port} did not become healthy: {server.log.read_text()[-2000:]}")
