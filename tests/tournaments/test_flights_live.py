"""The flights page is live (issue #37 item 3's leftovers, CC-05..CC-10, docs/tournaments.md "Flights"): its socket,
through the whole ASGI stack (origin, session, role), shows a series started, a day ended with its bags and a receipt
checked in by someone else without a reload; each viewer gets his own forms; whoever may not open the page is refused
at the handshake, and a role removed stops the pushes."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group
from django.test import Client

from casino.asgi import application
from tests.tournaments.conftest import act, register, register_numbered
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.services import flights as flight_services

pytestmark = pytest.mark.django_db(transaction=True)


def _session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def _connect(tournament, user) -> tuple[bool, WebsocketCommunicator]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        key = await database_sync_to_async(_session_of)(user)
        headers.append((b"cookie", f"sessionid={key}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tournament.pk}/flights/", headers=headers)
    connected, _code = await socket.connect(timeout=5)
    return connected, socket


async def _until(socket, text: str, tries: int = 6) -> str:
    """The first push that shows ``text`` (a write may be announced in several pushes)."""
    for _ in range(tries):
        pushed = await socket.receive_from(timeout=5)
        if text in pushed:
            return pushed
    raise AssertionError(f"no push showed {text!r}")


@pytest.fixture
def series_drawn(registering, director_dora, floor_fede):
    act(flight_services.set_series, registering, director_dora, series=2, end_level=1, qualifiers=2)
    for i in range(3):
        register(registering, floor_fede, i)
    register_numbered(registering, floor_fede, 4)
    act(flight_services.draw_series, registering, director_dora)
    return registering


def _bag_series(tournament, director, floor, series: int) -> None:
    act(flight_services.start_series, tournament, director, series=series)
    act(services.clock_command, tournament, director, kind="start")
    act(services.clock_command, tournament, director, kind="skip", step=1)
    tournament.refresh_from_db()
    s = event_reads.tournament_state(tournament)
    act(flight_services.end_day, tournament, floor,
        floor_counts={e.entry: e.stack for e in s.entries if e.status == "seated"})


async def test_the_flights_page_shows_a_series_started_and_its_day_ended_elsewhere_without_a_reload_CC_05_CC_09(
        series_drawn, director_dora, floor_fede):
    connected, socket = await _connect(series_drawn, floor_fede)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="flights-live"' in first and 'data-series="1"' in first and 'id="day-end"' not in first

    await database_sync_to_async(act)(flight_services.start_series, series_drawn, director_dora, series=1)
    pushed = await _until(socket, 'id="day-end"')
    assert 'name="count_' in pushed  # the floor's counts form for the tables the series' draw made

    def end_the_series():
        act(services.clock_command, series_drawn, director_dora, kind="start")
        act(services.clock_command, series_drawn, director_dora, kind="skip", step=1)
        series_drawn.refresh_from_db()
        s = event_reads.tournament_state(series_drawn)
        act(flight_services.end_day, series_drawn, floor_fede,
            floor_counts={e.entry: e.stack for e in s.entries if e.status == "seated"})

    await database_sync_to_async(end_the_series)()
    pushed = await _until(socket, 'id="counts"')
    assert 'id="day-end"' not in pushed  # every table bagged: no table left to count
    await socket.disconnect()


async def test_the_flights_page_shows_a_receipt_checked_in_elsewhere_CC_09(series_drawn, director_dora, floor_fede):
    def to_the_final_stage():
        _bag_series(series_drawn, director_dora, floor_fede, 1)
        _bag_series(series_drawn, director_dora, floor_fede, 2)
        act(services.close_registration, series_drawn, director_dora)
        act(flight_services.start_final_stage, series_drawn, director_dora)
        series_drawn.refresh_from_db()
        return sorted(e.entry for e in event_reads.tournament_state(series_drawn).entries if e.status == "seated")

    seated = await database_sync_to_async(to_the_final_stage)()
    connected, socket = await _connect(series_drawn, director_dora)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="check-in"' in first and 'data-checked-in="yes"' not in first

    def check_in():
        series_drawn.refresh_from_db()
        bag = event_reads.tournament_state(series_drawn).qualifying.bag_of(seated[0])
        act(flight_services.check_in, series_drawn, floor_fede, entry=seated[0], receipt=bag.receipt)

    await database_sync_to_async(check_in)()
    pushed = await _until(socket, 'data-checked-in="yes"')
    assert f'data-entry="{seated[0]}" data-checked-in="yes"' in pushed
    await socket.disconnect()


async def test_each_viewer_gets_his_own_forms_the_floor_none_of_the_directors_CC_05(series_drawn, director_dora,
                                                                                   floor_fede):
    _ok, directors = await _connect(series_drawn, director_dora)
    _ok, floors = await _connect(series_drawn, floor_fede)
    assert 'data-action="series-start"' in await directors.receive_from(timeout=5)
    assert 'data-action="series-start"' not in await floors.receive_from(timeout=5)
    await directors.disconnect()
    await floors.disconnect()


async def test_the_flights_socket_refuses_a_dealer_and_a_stranger_and_stops_when_the_role_goes(
        series_drawn, dealer_dana_here, floor_fede, director_dora):
    for person in (dealer_dana_here, None):
        connected, _socket = await _connect(series_drawn, person)
        assert not connected
    connected, socket = await _connect(series_drawn, floor_fede)
    assert connected
    await socket.receive_from(timeout=5)

    def the_role_goes_and_the_event_changes():
        floor_fede.groups.remove(Group.objects.get(name="tournament_floor"))
        act(flight_services.start_series, series_drawn, director_dora, series=1)

    await database_sync_to_async(the_role_goes_and_the_event_changes)()
    goodbye = await socket.receive_from(timeout=5)
    assert "flights-live" in goodbye and 'id="day-end"' not in goodbye
    assert (await socket.receive_output(timeout=5))["type"] == "websocket.close"
