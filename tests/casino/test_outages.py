"""What the casino does when a piece of it is down: real daphne, Redis and PostgreSQL servers.

The outages are servers of the test's own (``tests/outage_servers.py``), started on a free port and
stopped: never the shared PostgreSQL and Redis the rest of the suite uses.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.db import OperationalError

from casino import player_links
from tests.conftest import issue_box_link, player_session
from tests.outage_servers import OwnPostgres, OwnRedis


@pytest.fixture
def own_redis(tmp_path):
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_postgres():
    server = OwnPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()


def _get(url: str, timeout: float = 10) -> tuple[int, dict | str, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - loopback
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read().decode()
    elapsed = time.monotonic() - started
    try:
        return status, json.loads(body), elapsed
    except ValueError:
        return status, body, elapsed


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_healthz_answers_200_within_a_second_while_players_sockets_are_connected(
    daphne_servers, table_one, dealer_dana
):
    """A load balancer must not pull the processes that are serving the pit (issue #12, item 2)."""
    from websockets.asyncio.client import connect

    (server,) = daphne_servers(1)
    keys = [
        player_session(issue_box_link(table_one, n, dealer_dana))
        for n in (1, 2, 3)
    ]

    async def scenario():
        sockets = [
            await connect(
                f"{server.ws_url}/ws/player/",
                origin=server.url,
                additional_headers={"Cookie": f"sessionid={key}"},
            )
            for key in keys
        ]
        try:
            for socket in sockets:
                assert "THB-1" in await asyncio.wait_for(socket.recv(), 10)  # each socket is live
            return [await asyncio.to_thread(_get, f"{server.url}/healthz") for _ in range(5)]
        finally:
            for socket in sockets:
                await socket.close()

    for status, body, elapsed in asyncio.run(scenario()):
        assert (status, body) == (200, {"status": "ok", "database": True, "channel_layer": True})
        assert elapsed < 1


# --- Redis down ---------------------------------------------------------------------------------------


def _on_own_redis(daphne_servers, own_redis, count=1):
    return daphne_servers(count, REDIS_URL=own_redis.url, CHANNEL_PREFIX="casino_outage")


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_within_a_second_when_redis_is_stopped_or_hangs(daphne_servers, own_redis):
    (server,) = _on_own_redis(daphne_servers, own_redis)
    unavailable = {"status": "unavailable", "database": True, "channel_layer": False}

    own_redis.freeze()
    status, body, elapsed = _get(f"{server.url}/healthz")
    assert (status, body) == (503, unavailable)
    assert elapsed < 1

    own_redis.stop()
    status, body, elapsed = _get(f"{server.url}/healthz")
    assert (status, body) == (503, unavailable)
    assert elapsed < 1

    own_redis.start()
    assert _get(f"{server.url}/healthz")[:2] == (200, {"status": "ok", "database": True, "channel_layer": True})


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_screens_still_open_after_redis_lost_its_data_hear_the_next_change(
    daphne_servers, own_redis, table_one, dealer_dana, pit_boss_pat
):
    """A Redis that restarted without its data keeps no group: the sockets it did not close must join
    their groups again, or they never hear of a change (the fault drill's frozen screens). Flushing Redis
    loses the groups as a restart does, and closes no socket."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from tables.models import Table
    from tests.http import LiveSession
    from tests.tables.helpers import open_for_play

    (server,) = _on_own_redis(daphne_servers, own_redis)
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    keys = [player_session(issue_box_link(table_one, n, dealer_dana)) for n in (1, 2, 3, 4)]
    dealer = LiveSession(server.url)
    dealer.login("dana", dealer_dana.raw_password)

    async def version_shown(socket, shown: int, seconds: float, until: int | None = None) -> int | None:
        """The highest version the socket shows within ``seconds`` (sooner once it shows ``until``);
        None if it was closed."""
        deadline = time.monotonic() + seconds
        try:
            while (left := deadline - time.monotonic()) > 0 and (until is None or shown < until):
                try:
                    message = await asyncio.wait_for(socket.recv(), left)
                except TimeoutError:
                    break
                found = re.search(r'data-version="(\d+)"', message)
                shown = max(shown, int(found.group(1))) if found else shown
        except ConnectionClosed:
            return None
        return shown

    async def scenario():
        sockets = [
            await connect(f"{server.ws_url}/ws/player/", origin=server.url,
                          additional_headers={"Cookie": f"sessionid={key}"})
            for key in keys
        ]
        shown = await asyncio.gather(*(version_shown(socket, -1, 1) for socket in sockets))
        own_redis.flush()
        await asyncio.sleep(4)  # the process notices within LAYER_WATCH_SECONDS
        version = await asyncio.to_thread(lambda: Table.objects.get(pk=table_one.pk).version)
        status, _page = await asyncio.to_thread(
            dealer.post, f"/tables/{table_one.pk}/act/deck-count/",
            {"cards": "52", "key": "count-1", "version": str(version)},
            token_from=f"/tables/{table_one.pk}/",
        )
        assert status == 200
        expected = await asyncio.to_thread(lambda: Table.objects.get(pk=table_one.pk).version)
        after = await asyncio.gather(*(
            version_shown(socket, v, 5, until=expected) for socket, v in zip(sockets, shown, strict=True)
        ))
        for socket in sockets:
            await socket.close()
        return after

    after = asyncio.run(scenario())
    table_one.refresh_from_db()
    assert after == [table_one.version] * len(keys)


def _status_with_session(url: str, session_key: str) -> tuple[int, str]:
    """A GET with only this session cookie, redirects not followed: (status, Location)."""
    from tests.http import NoRedirect

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={session_key}"})
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_staff_log_in_and_out_and_a_player_opens_the_link_of_a_qr_code(
    daphne_servers, own_redis, table_one, dealer_dana
):
    from tests.http import LiveSession

    (server,) = _on_own_redis(daphne_servers, own_redis)
    link = issue_box_link(table_one, 2, dealer_dana)
    own_redis.stop()

    dealer = LiveSession(server.url)
    dealer.login("dana", dealer_dana.raw_password)  # raises unless the login page lets Dana in
    assert dealer.get("/tables/")[0] == 200
    status, page = dealer.post("/logout/", {}, token_from="/tables/")
    assert status == 200 and 'name="password"' in page  # back on the login page
    assert dealer.get("/tables/")[1].count('name="password"') == 1

    player = LiveSession(server.url)
    status, page = player.get(f"/p/{player_links.token_for(link)}/")
    assert status == 200 and "THB-1" in page


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_session_logged_out_while_redis_was_down_stays_logged_out_on_every_process_when_redis_is_back(
    daphne_servers, own_redis, dealer_dana
):
    """Redis comes back with its data (a restart with persistence), the logged-out session's copy in it."""
    from tests.http import LiveSession

    server_a, server_b = _on_own_redis(daphne_servers, own_redis, count=2)
    dealer = LiveSession(server_a.url)
    dealer.login("dana", dealer_dana.raw_password)
    old_key = dealer.cookie("sessionid")
    assert _status_with_session(f"{server_b.url}/tables/", old_key)[0] == 200  # the copy is in Redis

    own_redis.stop(keep_data=True)
    status, page = dealer.post("/logout/", {}, token_from="/tables/")
    assert status == 200 and 'name="password"' in page
    own_redis.start()  # with the copy of the session Dana logged out of

    for server in (server_b, server_a):
        status, location = _status_with_session(f"{server.url}/tables/", old_key)
        assert (status, location.split("?")[0]) == (302, "/login/"), server.url


# --- PostgreSQL restarted or down ---------------------------------------------------------------------


LOST = OperationalError("consuming input failed: server closed the connection unexpectedly")


@pytest.mark.django_db
def test_a_lost_database_gives_the_retry_page_with_a_503_not_a_500(client, dealer_dana):
    client.force_login(dealer_dana)
    with mock.patch("casino.views.primary_role", side_effect=LOST):
        page = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
        tap = client.get("/", HTTP_HX_REQUEST="true")
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert "Database unavailable" in page.content.decode() and 'href="/"' in page.content.decode()
    assert tap.status_code == 503 and tap["X-Database-Unavailable"] == "1"
    assert tap["Content-Type"].startswith("text/plain")  # the message alone, for the tablet's status bar


def test_a_lost_database_outside_a_view_gets_the_same_503_from_the_error_handler(rf):
    from casino.unavailable import server_error

    try:
        raise LOST
    except OperationalError:
        response = server_error(rf.post("/tables/1/ante", HTTP_REFERER="http://testserver/tables/1/"))
    assert response.status_code == 503
    assert 'href="http://testserver/tables/1/"' in response.content.decode()  # back to the form's page


def _on_own_postgres(daphne_servers, own_postgres):
    from tests.conftest import database_url_for_servers

    own_postgres.copy_database(database_url_for_servers())  # the schema, and the people of the test
    return daphne_servers(1, DATABASE_URL=own_postgres.url)


def _logged_in_dealer(server, dealer_dana):
    from tests.http import LiveSession

    dealer = LiveSession(server.url)
    dealer.login("dana", dealer_dana.raw_password)
    return dealer


def _htmx_get(url: str, cookies) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers={"HX-Request": "true"})
    request.add_header("Cookie", "; ".join(f"{cookie.name}={cookie.value}" for cookie in cookies))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def _timed(call, *args) -> tuple[float, tuple]:
    started = time.monotonic()
    answer = call(*args)
    return time.monotonic() - started, answer


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_after_a_postgresql_restart_no_request_fails(daphne_servers, own_postgres, dealer_dana):
    """Every pooled connection died with the restart: none may be lent unchecked (issue #12, item 5)."""
    (server,) = _on_own_postgres(daphne_servers, own_postgres)
    dealer = _logged_in_dealer(server, dealer_dana)
    with ThreadPoolExecutor(6) as requests:  # several at once: the pool holds several connections
        assert {status for status, _page in requests.map(dealer.get, ["/tables/"] * 12)} == {200}

    own_postgres.stop()
    own_postgres.start()

    assert [dealer.get("/tables/")[0] for _ in range(12)] == [200] * 12


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_while_postgresql_is_down_pages_say_so_with_a_503_within_seconds_and_work_again_after(
    daphne_servers, own_postgres, dealer_dana
):
    (server,) = _on_own_postgres(daphne_servers, own_postgres)
    dealer = _logged_in_dealer(server, dealer_dana)
    assert dealer.get("/tables/")[0] == 200

    own_postgres.stop()
    with ThreadPoolExecutor(3) as requests:  # at once: each waits out the pool's timeout
        health = requests.submit(_get, f"{server.url}/healthz")
        page = requests.submit(_timed, dealer.get, "/tables/")
        tap = requests.submit(_timed, _htmx_get, server.url + "/tables/", dealer.cookies)

    status, body, elapsed = health.result()
    assert (status, body) == (503, {"status": "unavailable", "database": False, "channel_layer": True})
    assert elapsed < 1

    elapsed, (status, html) = page.result()
    assert status == 503 and elapsed < 7
    assert "Traceback" not in html
    assert "database" in html.lower() or "base de datos" in html  # the page says what is wrong

    elapsed, (status, headers, text) = tap.result()  # a tablet's tap gets the message, for its status bar
    assert status == 503 and elapsed < 7
    assert headers["X-Database-Unavailable"] == "1" and headers["Retry-After"] and "<" not in text

    own_postgres.start()
    statuses = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and statuses[-1:] != [200]:
        statuses.append(dealer.get("/tables/")[0])
    assert statuses[-1] == 200 and set(statuses) <= {200, 503}, statuses


@pytest.mark.redis
@pytest.mark.slow
def test_announcing_a_change_gives_up_within_seconds_when_redis_hangs(own_redis, settings):
    """The push is only a hint: a tap must not wait 30 s for a Redis that accepts and never answers."""
    from casino.realtime import send_now

    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    settings.CHANNEL_LAYERS = {
        "default": {
            **settings.CHANNEL_LAYERS["default"],
            "CONFIG": {**config, "hosts": [{**config["hosts"][0], "address": own_redis.url}]},
        }
    }
    own_redis.freeze()
    elapsed, _nothing = _timed(send_now, ["tables.table.1"], [{"type": "state.changed", "version": 2}])
    assert elapsed < 3
