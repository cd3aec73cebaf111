"""The tournament's sockets through the whole ASGI stack: who may connect, what each push brings, and
that a player's phone receives only its own entry (issue #14).

- ``/ws/tournaments/<id>/console/``: the director's console (directors, floor staff, administrators);
- ``/ws/tournaments/<id>/clock/``: the room's clock display, public (no name, entry or seat on it);
- ``/ws/player/``: a player's phone, through the link of one entry (casino.player_links).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from casino import player_links
from casino.asgi import application
from casino.consumers import CLOSE_REVOKED
from tests.conftest import player_session
from tests.tournaments import display_fixtures as fx
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_passwords")]

VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture(autouse=True)
def console_placeholder(monkeypatch):
    """The console's socket is what these tests are about; its fragment (tournaments.rendering.console, tested in
    test_console_views) is replaced by a placeholder carrying the version, as the socket sees it."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    from tournaments import consumers
    from tournaments.rendering import console

    def placeholder(tournament, user):
        return render_to_string("tournaments/_console_placeholder.html", {"tournament": tournament})

    fake = SimpleNamespace(SCREEN_ID=console.SCREEN_ID, console_fragment=placeholder)
    monkeypatch.setattr(consumers, "console", fake)


@pytest.fixture
def quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _staff_session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _socket(path: str, session_key: str | None = None, language: str = "en") -> WebsocketCommunicator:
    # In English: the assertions read the English source strings, whatever Spanish the lead writes.
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}={language}" + (f"; sessionid={session_key}" if session_key else "")
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    return WebsocketCommunicator(application, path, headers=headers)


async def _connects(path: str, session_key: str | None) -> tuple[bool, WebsocketCommunicator]:
    socket = _socket(path, session_key)
    connected, _code = await socket.connect(timeout=5)
    return connected, socket


async def _session_of(user) -> str:
    return await database_sync_to_async(_staff_session)(user)


def _version(html: str) -> int:
    return int(VERSION.search(html).group(1))


# --------------------------------------------------------------------------- the director's console


async def test_the_console_is_for_tournament_directors_floor_staff_and_administrators(db_people, tournament):
    path = f"/ws/tournaments/{tournament.pk}/console/"
    for person, allowed in ((db_people["director"], True), (db_people["floor"], True),
                            (db_people["administrator"], True), (db_people["dealer"], False),
                            (db_people["pit_boss"], False), (None, False)):
        key = await _session_of(person) if person is not None else None
        connected, socket = await _connects(path, key)
        assert connected is allowed, getattr(person, "username", "anonymous")
        if connected:
            first = await socket.receive_from(timeout=5)
            assert f'data-version="{tournament.version}"' in first
            await socket.disconnect()


async def test_the_console_of_a_tournament_that_does_not_exist_is_refused(db_people):
    key = await _session_of(db_people["director"])
    assert not (await _connects("/ws/tournaments/999999/console/", key))[0]


async def test_the_console_hears_every_service_write(db_people, tournament):
    key = await _session_of(db_people["director"])
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/console/", key)
    assert connected
    shown = _version(await socket.receive_from(timeout=5))
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    pushed = await socket.receive_from(timeout=5)
    assert _version(pushed) > shown
    await socket.disconnect()


async def test_the_taps_at_the_dealt_tables_redraw_the_console_at_most_once_a_beat(db_people, tournament,
                                                                                  monkeypatch):
    """Twenty taps a second at a hundred tables: the console draws them together, once per beat."""
    from channels.layers import get_channel_layer

    from tournaments.consumers import TournamentConsoleConsumer
    from tournaments.models import tables_group

    monkeypatch.setattr(TournamentConsoleConsumer, "TABLES_PUSH_SECONDS", 0.3)
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/console/",
                                        await _session_of(db_people["director"]))
    assert connected
    await socket.receive_from(timeout=5)
    group = tables_group(tournament.pk)
    for version in range(1, 6):  # five taps at the tables
        await get_channel_layer().group_send(group, {"type": "state.changed", "group": group, "version": version,
                                                     "event": "changed", "table": version})
    assert _version(await socket.receive_from(timeout=5)) == tournament.version
    assert await socket.receive_nothing(timeout=0.6)  # one redraw for the five
    await socket.disconnect()


async def test_a_director_whose_role_is_removed_is_cut_off_at_the_next_write(db_people, tournament):
    director = db_people["director"]
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/console/", await _session_of(director))
    assert connected
    await socket.receive_from(timeout=5)

    def demote():
        director.groups.clear()
        fx.a_service_write(tournament, db_people["administrator"])

    await database_sync_to_async(demote)()
    goodbye = await socket.receive_from(timeout=5)
    assert "data-access-ended" in goodbye and tournament.name not in goodbye
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}


# --------------------------------------------------------------------------- the room's clock display


async def test_the_clock_display_needs_no_login_and_shows_no_player(db_people, tournament, entries):
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/clock/", None)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="clock-display"' in first and tournament.name in first
    for entry in entries:
        assert fx.player_name(entry) not in first
    assert "data-server-now=" in first
    await socket.disconnect()


async def test_the_clock_display_of_a_tournament_that_does_not_exist_is_refused():
    assert not (await _connects("/ws/tournaments/999999/clock/", None))[0]


async def test_the_clock_display_gets_the_new_version_after_a_service_write(db_people, tournament):
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/clock/", None)
    assert connected
    shown = _version(await socket.receive_from(timeout=5))
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    pushed = await socket.receive_from(timeout=5)
    assert 'id="clock-display"' in pushed and _version(pushed) > shown
    await socket.disconnect()


async def test_every_clock_display_of_a_process_hears_a_write_and_the_last_one_still_does_after_the_first_closes(
    db_people, tournament
):
    path = f"/ws/tournaments/{tournament.pk}/clock/"
    sockets = []
    for _ in range(3):
        connected, socket = await _connects(path, None)
        assert connected
        sockets.append(socket)
    for socket in sockets:
        await socket.receive_from(timeout=5)  # the screen as it is
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    versions = [_version(await socket.receive_from(timeout=5)) for socket in sockets]
    assert len(set(versions)) == 1
    # The display that joined the group for the process closes: the others are still told.
    await sockets[0].disconnect()
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    for socket in sockets[1:]:
        assert _version(await socket.receive_from(timeout=5)) > versions[0]
        await socket.disconnect()


async def test_the_clock_display_answers_a_refresh_with_a_fresh_server_now(tournament):
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/clock/", None)
    assert connected
    first = await socket.receive_from(timeout=5)
    await socket.send_json_to({"refresh": True})
    again = await socket.receive_from(timeout=5)
    now = re.compile(r'data-server-now="(\d+)"')
    assert int(now.search(again).group(1)) >= int(now.search(first).group(1)) > 0
    await socket.disconnect()


async def _clock_displays(tournament, languages) -> list[WebsocketCommunicator]:
    """Clock displays of one process, one per language given, each past its first fragment."""
    sockets = []
    for language in languages:
        socket = _socket(f"/ws/tournaments/{tournament.pk}/clock/", language=language)
        connected, _code = await socket.connect(timeout=5)
        assert connected
        await socket.receive_from(timeout=5)
        sockets.append(socket)
    return sockets


async def test_a_level_change_reaches_every_clock_display_in_its_language_rendered_once_a_language_TDA_23(
        db_people, tournament, monkeypatch):
    """Issue #37: the process renders a push once per language (the clock read and the server's "now" stamped
    once) and sends that fragment to each of its displays, each in its viewer's language."""
    from django.utils import translation

    from tournaments.rendering import clock as clock_screen

    director = db_people["director"]
    await database_sync_to_async(fx.start_the_clock)(tournament, director)
    sockets = await _clock_displays(tournament, ["en", "es", "en", "es", "en"])
    rendered, real = [], clock_screen.clock_display_fragment

    def counted(board, now=None):
        rendered.append(translation.get_language())
        return real(board, now)

    monkeypatch.setattr(clock_screen, "clock_display_fragment", counted)
    await database_sync_to_async(fx.next_level)(tournament, director)
    pushed = [await socket.receive_from(timeout=5) for socket in sockets]
    assert len({_version(html) for html in pushed}) == 1
    for language, html in zip(["en", "es", "en", "es", "en"], pushed, strict=True):
        assert ("Level 2<" if language == "en" else "Nivel 2<") in html
    assert sorted(rendered) == ["en", "es"]
    for socket in sockets:
        await socket.disconnect()


async def test_an_announcement_heard_again_is_not_pushed_again_to_the_clock_displays(db_people, tournament):
    """A display is sent a version once: the same announcement arriving again (a layer's retry, a display that
    already caught up) finds every display showing it."""
    from channels.layers import get_channel_layer

    from casino.realtime import MESSAGE_TYPE
    from tournaments.models import event_screens_group

    sockets = await _clock_displays(tournament, ["en", "en"])
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    version = {_version(await socket.receive_from(timeout=5)) for socket in sockets}.pop()
    group = event_screens_group(tournament.pk)
    await get_channel_layer().group_send(group, {"type": MESSAGE_TYPE, "group": group, "version": version,
                                                 "event": "changed"})
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()


async def test_a_clock_display_whose_send_fails_does_not_keep_the_push_from_the_others(db_people, tournament):
    from tournaments import consumers

    sockets = await _clock_displays(tournament, ["en", "en", "en"])
    displays = consumers._local_displays(tournament.pk)
    assert len(displays) == 3

    async def broken_send(*args, **kwargs):
        raise ConnectionResetError("the TV was unplugged")

    displays[1].send = broken_send
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    assert _version(await sockets[0].receive_from(timeout=5)) == _version(await sockets[2].receive_from(timeout=5))
    assert await sockets[1].receive_nothing(timeout=0.5)
    for socket in sockets:
        await socket.disconnect()


async def test_the_clock_displays_each_read_the_board_when_the_process_holds_none(db_people, tournament, monkeypatch):
    """The one render for all needs the board in the process's memory; without it (its read failed, its cache
    lost it) each display takes the worker-thread path, which reads the event itself: still pushed."""
    from tournaments.reads import event as event_reads

    sockets = await _clock_displays(tournament, ["en", "es"])
    shown = await database_sync_to_async(lambda: type(tournament).objects.get(pk=tournament.pk).version)()
    monkeypatch.setattr(event_reads, "board_since", lambda tournament_id, version: None)
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    for socket in sockets:
        assert _version(await socket.receive_from(timeout=5)) > shown
        await socket.disconnect()


@pytest.mark.redis
def test_through_daphne_each_clock_display_gets_the_level_change_in_its_language_one_frame_a_language_TDA_23(
        daphne_servers, db_people, tournament):
    """Under daphne the push's frame is made once per language and the same bytes written to each display's
    socket (autobahn's prepared message): a real daphne, displays in English and in Spanish."""
    import asyncio

    from websockets.asyncio.client import connect

    (server,) = daphne_servers(1)
    director = db_people["director"]
    fx.start_the_clock(tournament, director)
    languages = ["en", "es", "en", "es"]

    async def scenario() -> list[str]:
        url = f"{server.ws_url}/ws/tournaments/{tournament.pk}/clock/"
        sockets = [await connect(url, origin=f"http://127.0.0.1:{server.port}",
                                 additional_headers={"Cookie": f"{settings.LANGUAGE_COOKIE_NAME}={language}"})
                   for language in languages]
        for socket in sockets:
            await asyncio.wait_for(socket.recv(), 10)
        await asyncio.to_thread(fx.next_level, tournament, director)
        pushed = [await asyncio.wait_for(socket.recv(), 10) for socket in sockets]
        for socket in sockets:
            await socket.close()
        return pushed

    pushed = asyncio.run(scenario())
    assert len({_version(html) for html in pushed}) == 1
    assert "Level 2<" in pushed[0] and "Nivel 2<" in pushed[1]
    assert pushed[0] == pushed[2] and pushed[1] == pushed[3]  # one frame a language, its "now" included


# --------------------------------------------------------------------------- a player's phone


async def test_a_phone_shows_its_own_entry_and_nothing_of_the_others(db_people, tournament, entries):
    mine, other = entries[0], entries[1]
    link = await database_sync_to_async(fx.entry_link)(mine, db_people["director"])
    connected, socket = await _connects("/ws/player/", await database_sync_to_async(player_session)(link))
    assert connected
    received = [await socket.receive_from(timeout=5)]
    await database_sync_to_async(fx.a_service_write)(tournament, db_people["director"])
    received.append(await socket.receive_from(timeout=5))
    assert _version(received[-1]) > _version(received[0])
    for html in received:
        assert 'id="player-view"' in html
        assert f"Entry {fx.number(mine)}" in html
        # Another player's name, ID number or entry never reaches this phone.
        assert fx.player_name(other) not in html and fx.player_name(mine) not in html
        assert f"{fx.number(other)}<" not in html.split("tphone-entry", 1)[1][:80]
        for secret in fx.id_numbers(entries):
            assert secret not in html
    await socket.disconnect()


async def test_a_revoked_entry_link_is_closed_at_once(db_people, tournament, entries):
    link = await database_sync_to_async(fx.entry_link)(entries[0], db_people["director"])
    connected, socket = await _connects("/ws/player/", await database_sync_to_async(player_session)(link))
    assert connected
    await socket.receive_from(timeout=5)
    await database_sync_to_async(player_links.revoke_player_link)(link, by=db_people["director"])
    goodbye = await socket.receive_from(timeout=5)
    assert "data-access-ended" in goodbye and tournament.name not in goodbye
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}


async def test_an_entry_link_lasts_until_the_event_ends_and_a_grace_after(db_people, tournament, entries):


    link = await database_sync_to_async(fx.entry_link)(entries[0], db_people["director"])
    ends = getattr(tournament, "ends_at", None) or tournament.starts_at + timedelta(days=1)
    assert link.expires_at >= ends + services.LINK_GRACE - timedelta(seconds=5)
    assert link.expires_at > timezone.now()


async def test_a_phone_is_told_of_its_move_and_sees_no_other_players_seat(db_people, tournament, entries):
    director = db_people["director"]
    mine, other = entries[0], entries[1]

    def draw():
        fx.start(tournament, director)
        return fx.entry_link(mine, director), fx.seat_of(tournament, mine), fx.seat_of(tournament, other)

    link, (table, seat), others = await database_sync_to_async(draw)()
    connected, socket = await _connects("/ws/player/", await database_sync_to_async(player_session)(link))
    assert connected
    first = await socket.receive_from(timeout=5)
    assert f'<strong data-role="table">{table}</strong>' in first
    assert f'<strong data-role="seat-number">{seat}</strong>' in first and 'data-role="moved"' not in first
    free = next(s for s in range(1, 10) if s not in (seat, others[1]))
    await database_sync_to_async(fx.move)(tournament, director, mine, table, free)
    moved = await socket.receive_from(timeout=5)
    assert 'data-role="moved"' in moved
    assert f"From table {table}, seat {seat}, to table {table}, seat {free}." in moved
    assert f'<strong data-role="seat-number">{free}</strong>' in moved
    for html in (first, moved):
        assert f">{others[1]}<" not in html and fx.player_name(other) not in html
    await socket.disconnect()


async def test_a_phone_whose_player_busts_sees_its_place_and_prize(db_people, tournament, entries):
    director = db_people["director"]

    def draw():
        fx.start(tournament, director)
        return fx.entry_link(entries[0], director)

    link = await database_sync_to_async(draw)()
    connected, socket = await _connects("/ws/player/", await database_sync_to_async(player_session)(link))
    assert connected
    await socket.receive_from(timeout=5)
    await database_sync_to_async(fx.bust)(tournament, director, entries[0])
    out = await socket.receive_from(timeout=5)
    assert 'data-role="seat"' not in out and 'data-role="finish"' in out
    # Three entries: the first out finishes third (CC-18); the house's default table pays only the winner.
    assert "You finished in place 3" in out and "Your prize" not in out
    await socket.disconnect()


async def test_the_clock_display_shows_the_running_clock_and_the_next_level_when_pushed(db_people, tournament):
    director = db_people["director"]
    await database_sync_to_async(fx.start_the_clock)(tournament, director)
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/clock/", None)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'data-state="running"' in first and "data-countdown-to=" in first and "Level 1<" in first
    await database_sync_to_async(fx.next_level)(tournament, director)
    pushed = await socket.receive_from(timeout=5)
    assert "Level 2<" in pushed and _version(pushed) > _version(first)
    await socket.disconnect()


async def test_the_bust_that_makes_the_bubble_shows_it_on_the_clock_display_in_the_same_push_RP_08_A(
        db_people, tournament, entries):
    """Three entries, one place paid (the house's default table): three left is outside the money, and the
    first bust leaves two, the bubble. Clocks of other rooms showed the bubble a bust late; here the push
    that brings "2 of 3" brings the bubble with it, and the director's console says to go hand for hand."""
    director = db_people["director"]

    def started():
        fx.start(tournament, director)
        fx.start_the_clock(tournament, director)

    await database_sync_to_async(started)()
    connected, socket = await _connects(f"/ws/tournaments/{tournament.pk}/clock/", None)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert "3 of 3" in first and 'data-role="money"' not in first
    await database_sync_to_async(fx.bust)(tournament, director, entries[0])
    pushed = await socket.receive_from(timeout=5)
    assert "2 of 3" in pushed and 'data-stage="bubble"' in pushed
    assert "Bubble: the next player out wins no prize" in pushed and "RP-08-A" not in pushed  # the room's TV

    def console_html():
        from django.utils import translation

        from tournaments.models import Tournament
        from tournaments.rendering.console import console_fragment

        with translation.override("en"):
            return str(console_fragment(Tournament.objects.get(pk=tournament.pk), director))

    console = await database_sync_to_async(console_html)()
    assert 'data-stage="bubble"' in console and "announce hand for hand (RP-08-A)" in console
    await socket.disconnect()


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def db_people(django_user_model):
    from casino.roles import ensure_role_groups

    ensure_role_groups()
    people = {}
    for key, username, role in (("director", "dora", "tournament_director"), ("floor", "fede", "tournament_floor"),
                                ("administrator", "ada", "administrator"), ("dealer", "dana", "dealer"),
                                ("pit_boss", "pat", "pit_boss")):
        user = django_user_model.objects.create_user(username=username, password=f"pw-{username}")
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
        people[key] = user
    return people


@pytest.fixture
def tournament(db_people):
    return fx.a_tournament(db_people["director"])


@pytest.fixture
def entries(tournament, db_people):
    return fx.some_entries(tournament, db_people["director"], 3)
