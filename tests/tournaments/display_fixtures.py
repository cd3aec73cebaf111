"""Tournaments, entries and writes for the screens' tests (tests/tournaments/test_display_*, the TV's browser
test) and bench/bench_tournament_clock.py: every write through ``tournaments.services``, as the console's
forms send it (a fresh idempotency key and the version the screen shows)."""

from __future__ import annotations

import random
import uuid
from datetime import date, timedelta

from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.projections import entry_number
from tournaments.reads import event as event_reads
from tournaments.rendering import clock as clock_screen


def act(command, tournament, by, **kwargs):
    """One command as a screen sends it."""
    tournament.refresh_from_db()
    result = command(tournament=tournament, by=by, key=uuid.uuid4().hex, expected_version=tournament.version,
                     **kwargs)
    tournament.refresh_from_db()
    return result


def a_director(username: str):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino.roles import ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user(username=username, password=f"pw-{username}-2026")
    user.groups.add(Group.objects.get(name="tournament_director"))
    return user


def a_tournament(director, *, name: str = "Sunday Deepstack") -> Tournament:
    tournament, _result = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name=name, starts_at=timezone.now() + timedelta(minutes=5),
        ends_at=timezone.now() + timedelta(hours=10), buy_in=100, starting_stack=20000, seats_per_table=9)
    return tournament


def some_entries(tournament, by, count: int) -> list[Entry]:
    """``count`` adults registered (the ID seen at the desk), in entry order."""
    act(services.open_registration, tournament, by)
    for i in range(1, count + 1):
        result = act(services.register, tournament, by, name=f"Player Number{i}", id_type="dni",
                     id_number=f"30{i:06d}", birth_date=date(1980, 1, i % 28 + 1))
        assert result.refusal is None, result.refusal
    return list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("number"))


def start(tournament, by) -> None:
    """Registration closed (the pool fixed, CC-14) and the seats drawn (seeded: the tests read them)."""
    act(services.close_registration, tournament, by)
    act(services.start_tournament, tournament, by, rng=random.Random(14))


def seat_of(tournament, entry) -> tuple[int, int]:
    state = event_reads.tournament_state(Tournament.objects.get(pk=tournament.pk))
    at = state.entry(number(entry))
    return at.table, at.seat


def move(tournament, by, entry, table: int, seat: int) -> None:
    """The floor corrects a seat: the player moves, with a reason (TDA-07)."""
    act(services.correct_seat, tournament, by, entry=number(entry), table=table, seat=seat,
        reason="wrong seat given")


def bust(tournament, by, entry) -> None:
    table, seat = seat_of(tournament, entry)
    act(services.record_bust, tournament, by, table=table, seat=seat)


def player_name(entry) -> str:
    return entry.player_name


def number(entry) -> int:
    return entry_number(entry)


def id_numbers(entries) -> list[str]:
    return [e.player.id_number for e in entries if e.player is not None]


def entry_link(entry, by):
    return services.issue_entry_link(entry, by=by)


def a_service_write(tournament, by) -> None:
    """Any write: the clock started, or adjusted by one second (the screens only care that the version moved)."""
    if not clock_screen.clock_view(event_reads.read_board(Tournament.objects.get(pk=tournament.pk))).reading.started:
        start_the_clock(tournament, by)
    else:
        act(services.clock_command, tournament, by, kind="adjust", seconds=1)


def start_the_clock(tournament, by) -> None:
    act(services.clock_command, tournament, by, kind="start")


def pause_the_clock(tournament, by) -> None:
    act(services.clock_command, tournament, by, kind="pause")


def resume_the_clock(tournament, by) -> None:
    act(services.clock_command, tournament, by, kind="resume")


def next_level(tournament, by) -> None:
    """The director skips to the next step of the structure (a level change pushed to every screen)."""
    board = event_reads.read_board(Tournament.objects.get(pk=tournament.pk))
    act(services.clock_command, tournament, by, kind="skip", step=clock_screen.clock_view(board).reading.step + 1)
