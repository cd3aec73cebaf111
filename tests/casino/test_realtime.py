"""Announcements after commit, player sockets, origin checks, and two daphne processes on one Redis."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import transaction

from casino import player_links
from casino.asgi import application
from casino.consumers import CLOSE_REVOKED
from casino.realtime import announce_change
from tables import sessions
from tests.conftest import issue_box_link, player_session
from tests.tables.helpers import act, open_for_play


@pytest.mark.django_db
def test_a_change_is_announced_only_after_its_transaction_commits(django_capture_on_commit_callbacks):
    layer = get_channel_layer()

    async def listen():
        channel = await layer.new_channel()
        await layer.group_add("tables.table.77", channel)
        return channel

    from asgiref.sync import async_to_sync

    channel = async_to_sync(listen)()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            announce_change("tables.table.77", version=12, table=77)
            assert callbacks == []  # nothing leaves before commit
    message = async_to_sync(layer.receive)(channel)
    # Ids and a version only: never state, never cards.
    assert message == {
        "type": "state.changed",
        "group": "tables.table.77",
        "version": 12,
        "event": "changed",
        "table": 77,
    }


@pytest.mark.django_db
def test_nothing_is_announced_when_the_change_rolls_back(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ValueError), transaction.atomic():
            announce_change("tables.table.77", version=13)
            raise ValueError
    assert callbacks == []


def _phone_on(server, session_key):
    """A phone's socket to a real daphne process, with the session its QR link opened."""
    from websockets.asyncio.client import connect

    return connect(f"{server.ws_url}/ws/player/", origin=f"http://127.0.0.1:{server.port}",
                   additional_headers={"Cookie": f"sessionid={session_key}"})


def _socket(session_key=None, origin=b"http://localhost"):
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, "/ws/player/", headers=headers)


@pytest.mark.django_db(transaction=True)
async def test_a_player_socket_gets_its_box_at_once_and_is_closed_when_the_link_is_revoked(table_one, dealer_dana):
    box = await database_sync_to_async(table_one.boxes.get)(number=2)
    link = await database_sync_to_async(issue_box_link)(table_one, box.number, dealer_dana)
    key = await database_sync_to_async(player_session)(link)
    socket = _socket(key)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="player-view"' in first and "THB-1" in first
    await database_sync_to_async(player_links.revoke_player_link)(link, by=dealer_dana)
    goodbye = await socket.receive_from(timeout=5)
    assert 'id="player-view"' in goodbye and "THB-1" not in goodbye
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_a_player_link_is_refused():
    socket = _socket(None)
    connected, _ = await socket.connect()
    assert not connected


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_a_foreign_origin_is_refused_even_with_a_valid_link(table_one, dealer_dana):
    box = await database_sync_to_async(table_one.boxes.get)(number=2)
    link = await database_sync_to_async(issue_box_link)(table_one, box.number, dealer_dana)
    key = await database_sync_to_async(player_session)(link)
    socket = _socket(key, origin=b"https://evil.example.com")
    connected, _ = await socket.connect()
    assert not connected


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_change_made_through_one_daphne_reaches_a_socket_on_another(daphne_servers, table_one, dealer_dana):
    """Two daphne processes share the Redis layer: revoke through A, the socket on B hears it."""

    from tests.http import LiveSession

    server_a, server_b = daphne_servers(2)
    link = issue_box_link(table_one, 4, dealer_dana)
    player_key = player_session(link)

    dealer = LiveSession(server_a.url)
    dealer.login("dana", dealer_dana.raw_password)

    async def scenario():
        async with _phone_on(server_b, player_key) as socket:
            first = await asyncio.wait_for(socket.recv(), 10)
            status, _page = await asyncio.to_thread(
                dealer.post, f"/tables/links/{link.pk}/revoke", {}, token_from=f"/tables/links/{link.pk}/"
            )
            assert status == 200
            second = await asyncio.wait_for(socket.recv(), 10)
            return first, second

    first, second = asyncio.run(scenario())
    assert "THB-1" in first
    assert "THB-1" not in second and 'id="player-view"' in second
    link.refresh_from_db()
    assert link.revoked_at is not None


@pytest.mark.django_db(transaction=True)
async def test_a_screen_renders_once_for_versions_it_already_shows_and_again_for_a_newer_one(table_one, dealer_dana):
    from django.db.models import F

    from tables.models import Table

    box = await database_sync_to_async(table_one.boxes.get)(number=2)
    link = await database_sync_to_async(issue_box_link)(table_one, box.number, dealer_dana)
    key = await database_sync_to_async(player_session)(link)
    socket = _socket(key)
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=5)
    shown = table_one.version
    assert f'data-version="{shown}"' in first
    layer = get_channel_layer()
    group = table_one.group_name
    for stale in (shown - 1, shown):  # a backlog of announcements this screen already reflects
        await layer.group_send(group, {"type": "state.changed", "group": group, "version": stale})
    assert await socket.receive_nothing(timeout=0.5)
    await database_sync_to_async(Table.objects.filter(pk=table_one.pk).update)(version=F("version") + 1)
    await layer.group_send(group, {"type": "state.changed", "group": group, "version": shown + 1})
    newer = await socket.receive_from(timeout=5)
    assert f'data-version="{shown + 1}"' in newer
    await socket.disconnect()


@pytest.mark.redis
def test_an_idle_socket_outlives_the_channel_layers_five_second_wait_on_redis():
    """channels-redis waits 5 s per receive (BZPOPMIN); redis-py 8 reads with a 5 s timeout by default.

    Without the longer read timeout of casino.settings, a phone with nothing to hear for 5 s loses
    its consumer to "Timeout reading from Redis". Here the wait simply goes on until we stop it.
    """
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def wait_quietly():
        channel = await layer.new_channel()
        with pytest.raises(TimeoutError) as stopped:
            await asyncio.wait_for(layer.receive(channel), timeout=6.5)
        return stopped.value

    stopped = asyncio.run(wait_quietly())
    assert type(stopped) is TimeoutError  # our own deadline, not redis.exceptions.TimeoutError


async def test_a_single_flight_runs_once_for_the_callers_that_wait_on_it_together():
    from casino.memo import single_flight

    runs = []

    async def read():
        runs.append(1)
        await asyncio.sleep(0.05)
        return "snapshot"

    results = await asyncio.gather(*(single_flight("table 1 v7", read) for _ in range(5)))
    assert results == ["snapshot"] * 5 and runs == [1]
    await single_flight("table 1 v7", read)  # the flight has landed: a later caller runs it again
    assert runs == [1, 1]


async def test_a_single_flight_goes_on_when_one_caller_leaves_and_shares_its_failure():
    from casino.memo import single_flight

    async def read():
        await asyncio.sleep(0.05)
        return "snapshot"

    leaving = asyncio.ensure_future(single_flight("k", read))
    staying = asyncio.ensure_future(single_flight("k", read))
    await asyncio.sleep(0)
    leaving.cancel()
    assert await staying == "snapshot"

    async def broken():
        await asyncio.sleep(0.01)
        raise LookupError("no such table")

    outcomes = await asyncio.gather(single_flight("b", broken), single_flight("b", broken), return_exceptions=True)
    assert all(isinstance(o, LookupError) for o in outcomes)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_closing_through_one_daphne_shuts_the_phone_open_on_another(daphne_servers, table_one, dealer_dana,
                                                                    pit_boss_pat):
    from websockets.exceptions import ConnectionClosed

    from tests.http import LiveSession

    server_a, server_b = daphne_servers(2)
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    player_key = player_session(issue_box_link(table_one, 4, dealer_dana))
    act(sessions.request_closing, table_one, dealer_dana)
    table_one.refresh_from_db()
    boss = LiveSession(server_a.url)
    boss.login("pat", pit_boss_pat.raw_password)

    async def scenario():
        async with _phone_on(server_b, player_key) as socket:
            first = await asyncio.wait_for(socket.recv(), 10)
            status, _page = await asyncio.to_thread(
                boss.post, f"/tables/{table_one.pk}/pit/closing/",
                {"approve": "1", "key": "close-1", "version": str(table_one.version)},
                token_from=f"/tables/pit/{table_one.pit_id}/",
            )
            assert status == 200
            received = []
            try:
                while True:
                    received.append(await asyncio.wait_for(socket.recv(), 10))
            except ConnectionClosed as closed:
                return first, received, closed.rcvd.code if closed.rcvd else None

    first, received, code = asyncio.run(scenario())
    assert "THB-1" in first
    assert received and "THB-1" not in received[-1]
    assert code == CLOSE_REVOKED


async def _first_push_with(table, dealer, extra_headers):
    box = await database_sync_to_async(table.boxes.get)(number=2)
    link = await database_sync_to_async(issue_box_link)(table, box.number, dealer)
    key = await database_sync_to_async(player_session)(link)
    socket = WebsocketCommunicator(application, "/ws/player/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"),
        (b"cookie", f"sessionid={key}".encode()), *extra_headers])
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=5)
    await socket.disconnect()
    return first


@pytest.mark.django_db(transaction=True)
async def test_a_live_view_speaks_the_language_the_browser_asks_for(table_one, dealer_dana):
    """Issue #16: a phone asking for English got its live part in Spanish."""
    assert "Box 2" in await _first_push_with(table_one, dealer_dana, [(b"accept-language", b"en-US,en;q=0.9")])


@pytest.mark.parametrize(("headers", "cookies", "language"), [
    ([], "", "es"),  # the casino's default
    ([(b"accept-language", b"en-US,en;q=0.9")], "", "en"),  # the browser's language
    ([(b"accept-language", b"fr-FR,fr;q=0.9,en;q=0.5")], "", "en"),  # the first language the casino speaks
    ([(b"accept-language", b"de-DE")], "", "es"),  # none it speaks: the default
    ([(b"accept-language", b"en-US")], "es", "es"),  # the language cookie wins, as on the page
    ([(b"accept-language", b"x" * 5000)], "", "es"),  # a header no browser sends: the default, no error
])
def test_a_socket_chooses_its_language_as_the_page_did(headers, cookies, language):
    from casino.consumers import _language_of

    scope = {"headers": headers, "cookies": {"django_language": cookies} if cookies else {}, "session": None}
    assert _language_of(scope) == language
