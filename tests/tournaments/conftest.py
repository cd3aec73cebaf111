"""People and a tournament for the service tests: director_dora, floor_fede, players at the desk."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest

from tests.conftest import _staff
from tournaments import services
from tournaments.reads import event as event_reads


@pytest.fixture
def director_dora(django_user_model, quick_passwords):
    return _staff(django_user_model, "dora", "tournament_director", "Dora")


@pytest.fixture
def floor_fede(django_user_model, quick_passwords):
    return _staff(django_user_model, "fede", "tournament_floor", "Fede")


@pytest.fixture
def dealer_dana_here(django_user_model, quick_passwords):
    return _staff(django_user_model, "dana", "dealer", "Dana")


@pytest.fixture
def quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def english_client(user):
    """A test client logged in as ``user`` that reads the pages in English."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def form_guard(tournament) -> dict:
    """What a form posts besides its fields: the event's version as the page shows it now, and a fresh key."""
    import uuid

    tournament.refresh_from_db()
    return {"version": str(tournament.version), "key": uuid.uuid4().hex}


def act(fn, tournament, by, **kwargs):
    """One request as a screen sends it: a fresh key and the version the screen shows."""
    tournament.refresh_from_db()
    return fn(tournament=tournament, by=by, key=uuid.uuid4().hex, expected_version=tournament.version, **kwargs)


@pytest.fixture
def sunday_event(director_dora):
    """A 9-handed event, buy-in 100 + 10, 10,000 chips, the house's default structure."""
    tournament, _result = services.create_tournament(
        by=director_dora, key=uuid.uuid4().hex, name="Sunday Deepstack",
        starts_at=datetime(2026, 11, 29, 18, 0, tzinfo=UTC), buy_in=100, fee=10, starting_stack=10_000,
        seats_per_table=9)
    return tournament


#: Players at the desk: (name, id_type, id_number, birth date)
PLAYERS = [
    ("Pia Paz", "dni", "30.111.222", date(1985, 4, 2)),
    ("Quique Quiroga", "dni", "28.333.444", date(1979, 7, 9)),
    ("Rita Rey", "passport", "AB123456", date(1992, 1, 15)),
    ("Sergio Sosa", "dni", "35.555.666", date(1990, 12, 1)),
    ("Tina Toledo", "dni", "40.777.888", date(1998, 3, 30)),
]


def register(tournament, by, index: int):
    name, id_type, id_number, birth = PLAYERS[index]
    return act(services.register, tournament, by, name=name, id_type=id_type, id_number=id_number, birth_date=birth)


@pytest.fixture
def registering(sunday_event, director_dora):
    act(services.open_registration, sunday_event, director_dora)
    return sunday_event


@pytest.fixture(autouse=True)
def a_fresh_connection_pool():
    """Each test starts with a database pool of its own. Late in the whole suite (never alone, nor with any
    one other directory) the pool (32) ran dry and this directory's sockets waited their 5 s for a
    connection and failed. The likeliest cause, not proven: each test's event loop is torn down with its
    worker threads, and a pooled connection such a thread still held is never given back; a daphne
    process keeps its threads. Open question, noted in docs/tournament-screens.md."""
    from django.db import connections

    close_pool = getattr(connections["default"], "close_pool", None)  # None when DATABASE_POOL=0
    if close_pool is not None:
        close_pool()
    yield


@pytest.fixture
def event_in_play(registering, director_dora, floor_fede):
    """Four players drawn at one table, the clock started at level 1 (25/50, no ante): dealt from a tablet."""
    for i in range(4):
        register(registering, floor_fede, i)
    act(services.start_tournament, registering, director_dora)
    act(services.clock_command, registering, director_dora, kind="start")
    registering.refresh_from_db()
    return registering


@pytest.fixture
def first_table(event_in_play, dealer_dana_here, director_dora):
    """The event's one table, as its dealer's tablet drives it (tournaments.services.dealing), Dana on duty there."""
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    (seats,) = event_reads.tournament_state(event_in_play).tables
    table = hand_reads.dealt_table(event_in_play, seats.table)
    dealing.assign_dealer(table=table, by=director_dora, key=uuid.uuid4().hex, expected_version=table.version,
                          dealer=dealer_dana_here)
    table.refresh_from_db()
    return table


def register_numbered(tournament, by, number: int):
    """A player at the desk beyond ``PLAYERS``: "Player <number>", an ID of his own."""
    return act(services.register, tournament, by, name=f"Player {number}", id_type="dni",
               id_number=f"50.{number:03d}.321", birth_date=date(1980, 1, 1 + number % 28))


@pytest.fixture
def two_tables_in_play(registering, director_dora, floor_fede):
    """Ten players drawn at two 9-seat tables (five each), the clock started: hand-for-hand has two tables to
    synchronise (CC-11)."""
    for i in range(len(PLAYERS)):
        register(registering, floor_fede, i)
    for number in range(len(PLAYERS) + 1, 11):
        register_numbered(registering, floor_fede, number)
    act(services.start_tournament, registering, director_dora)
    act(services.clock_command, registering, director_dora, kind="start")
    registering.refresh_from_db()
    return registering


@pytest.fixture
def two_dealt_tables(two_tables_in_play, dealer_dana_here, director_dora):
    """Both tables of ``two_tables_in_play`` as their tablets drive them, Dana on duty at each."""
    from tournaments.reads import hands as hand_reads
    from tournaments.services import dealing

    tables = []
    for seats in event_reads.tournament_state(two_tables_in_play).tables:
        table = hand_reads.dealt_table(two_tables_in_play, seats.table)
        dealing.assign_dealer(table=table, by=director_dora, key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=dealer_dana_here)
        table.refresh_from_db()
        tables.append(table)
    return tables
