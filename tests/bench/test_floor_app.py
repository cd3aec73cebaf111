"""bench/floor_app.py, the stack's floor for bench_pit_load --app floor: it must stay the casino's
stack (login, role check, CSRF, a row lock, an announcement after commit) with no game, or its
figures stop being the floor under the casino's."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.urls("bench.floor_app")]


def _tablet(user, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get(f"/floor/{table.pk}/").content.decode()
    return client, page.split('"X-CSRFToken": "')[1].split('"')[0]


def test_a_dealers_tap_bumps_the_version_and_answers_it(table_one, dealer_dana):
    client, token = _tablet(dealer_dana, table_one)
    before = table_one.version

    response = client.post(f"/floor/{table_one.pk}/tap/", {}, HTTP_X_CSRFTOKEN=token)

    table_one.refresh_from_db()
    assert response.status_code == 200
    assert table_one.version == before + 1
    assert f'data-version="{before + 1}"' in response.content.decode()


def test_a_tap_without_the_csrf_token_or_by_another_role_changes_nothing(table_one, dealer_dana, pit_boss_pat):
    before = table_one.version
    dealer, _token = _tablet(dealer_dana, table_one)
    boss = Client()
    boss.force_login(pit_boss_pat)

    assert dealer.post(f"/floor/{table_one.pk}/tap/").status_code == 403
    assert boss.post(f"/floor/{table_one.pk}/tap/").status_code == 403
    table_one.refresh_from_db()
    assert table_one.version == before


async def test_a_phone_socket_hears_each_announced_version(table_one):
    from asgiref.sync import sync_to_async

    from bench.floor_app import FloorPhone
    from casino.realtime import send_now

    socket = WebsocketCommunicator(FloorPhone.as_asgi(), f"/ws/floor/{table_one.pk}/")
    socket.scope["url_route"] = {"kwargs": {"table_id": table_one.pk}}
    connected, _ = await socket.connect()
    assert connected

    await sync_to_async(send_now)([f"floor.{table_one.pk}"], [{"type": "state.changed", "version": 7}])

    message = await socket.receive_from(timeout=5)
    assert message.startswith('<div id="player-view" data-version="7">')
    await socket.disconnect()


def _tablet_socket(table, user):
    from bench.floor_app import FloorTabletSocket

    socket = WebsocketCommunicator(FloorTabletSocket.as_asgi(), f"/ws/floor-tablet/{table.pk}/")
    socket.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
    socket.scope["user"] = user
    return socket


async def test_a_dealers_tap_over_the_tablets_socket_bumps_the_version_and_answers_it(table_one, dealer_dana):
    """``--app floor-ws``: the same tap, sent over the dealer's websocket."""
    from asgiref.sync import sync_to_async

    socket = _tablet_socket(table_one, dealer_dana)
    connected, _ = await socket.connect()
    assert connected
    before = table_one.version

    await socket.send_to(text_data='{"key": "tap-1"}')

    answer = await socket.receive_from(timeout=5)
    await sync_to_async(table_one.refresh_from_db)()
    assert table_one.version == before + 1
    assert f'data-version="{before + 1}"' in answer
    await socket.disconnect()


async def test_the_tablets_socket_refuses_anyone_but_a_dealer(table_one, pit_boss_pat):
    connected, _ = await _tablet_socket(table_one, pit_boss_pat).connect()
    assert not connected
