"""The tables' sockets through the whole ASGI stack: who may connect, and what a player's phone receives.

THE PRIVACY CAPTURE: a player's socket stays connected through whole hands
played through the services (recorded and dealt), every message it receives
is kept, and none may hold another box's cards, the dealer's cards before he
turns them, or anything of the shoe.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from casino.asgi import application
from casino.consumers import CLOSE_REVOKED
from casino.models import PlayerLink
from casino.rules.cards import full_deck
from tables import reads, services, sessions
from tables.models import Table
from tests.conftest import issue_box_link, player_session

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    flop,
    fold,
    open_for_play,
    pass_river,
    pass_turn,
    play,
    reveal_box,
    reveal_dealer,
    river,
    turn,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_passwords")]

VERSION = re.compile(r'data-version="(\d+)"')


def _staff_session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _socket(path: str, session_key: str | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _connects(path: str, session_key: str | None) -> tuple[bool, WebsocketCommunicator]:
    socket = _socket(path, session_key)
    connected, _code = await socket.connect(timeout=5)
    return connected, socket


# --------------------------------------------------------------------------- who may connect


async def test_the_dealer_on_duty_gets_the_tablet_and_another_tables_dealer_is_refused(
    table_one, table_two, dealer_dana, dealer_diego
):
    dana = await database_sync_to_async(_staff_session)(dealer_dana)
    diego = await database_sync_to_async(_staff_session)(dealer_diego)
    path = f"/ws/tables/{table_one.pk}/dealer/"
    connected, socket = await _connects(path, dana)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="dealer-table"' in first and "THB-1" in first
    await socket.disconnect()
    refused, _ = await _connects(path, diego)
    assert not refused


async def test_a_pit_boss_and_an_anonymous_visitor_cannot_open_a_dealers_tablet(table_one, pit_boss_pat):
    pat = await database_sync_to_async(_staff_session)(pit_boss_pat)
    path = f"/ws/tables/{table_one.pk}/dealer/"
    assert not (await _connects(path, pat))[0]
    assert not (await _connects(path, None))[0]
    assert not (await _connects("/ws/tables/999999/dealer/", pat))[0]


async def test_a_dealer_relieved_from_the_table_is_cut_off_at_the_next_change(
    table_one, dealer_dana, dealer_diego, pit_boss_pat
):
    dana = await database_sync_to_async(_staff_session)(dealer_dana)
    connected, socket = await _connects(f"/ws/tables/{table_one.pk}/dealer/", dana)
    assert connected
    await socket.receive_from(timeout=5)

    def relieve():
        Table.objects.filter(pk=table_one.pk).update(dealer=dealer_diego)
        table = Table.objects.get(pk=table_one.pk)
        act(sessions.request_opening, table, dealer_diego)

    await database_sync_to_async(relieve)()
    goodbye = await socket.receive_from(timeout=5)
    assert "THB-1" not in goodbye
    # It replaces the tablet itself, and live.js shows it whatever version the tablet showed.
    assert 'id="dealer-table"' in goodbye and "data-access-ended" in goodbye
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}


async def test_the_pit_console_is_for_its_own_pit_boss_and_the_directors(
    table_one, pit_boss_pat, pit_boss_paula, games_director_gloria, dealer_dana
):
    path = f"/ws/tables/pit/{table_one.pit_id}/"
    for person, allowed in ((pit_boss_pat, True), (games_director_gloria, True), (pit_boss_paula, False),
                            (dealer_dana, False)):
        key = await database_sync_to_async(_staff_session)(person)
        connected, socket = await _connects(path, key)
        assert connected is allowed, person.username
        if connected:
            first = await socket.receive_from(timeout=5)
            assert f'id="pit-{table_one.pit_id}"' in first and "THB-1" in first
            await socket.disconnect()


async def test_the_pit_console_hears_every_change_at_its_tables(table_one, dealer_dana, pit_boss_pat):
    pat = await database_sync_to_async(_staff_session)(pit_boss_pat)
    connected, socket = await _connects(f"/ws/tables/pit/{table_one.pit_id}/", pat)
    assert connected
    await socket.receive_from(timeout=5)
    await database_sync_to_async(act)(sessions.request_opening, table_one, dealer_dana)
    pushed = await socket.receive_from(timeout=5)
    assert 'data-action="deck-ok"' in pushed


async def test_an_expired_player_link_is_refused(table_one, dealer_dana):
    def expired_link():
        link = issue_box_link(table_one, 2, dealer_dana)
        PlayerLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
        return player_session(link)

    key = await database_sync_to_async(expired_link)()
    assert not (await _connects("/ws/player/", key))[0]


async def test_a_player_link_shows_its_own_box_and_hears_nothing_of_another_table(
    table_one, table_two, dealer_dana, dealer_diego
):
    def link_for(table, number, dealer):
        return player_session(issue_box_link(table, number, dealer))

    key = await database_sync_to_async(link_for)(table_two, 3, dealer_diego)
    connected, socket = await _connects("/ws/player/", key)
    assert connected
    first = await socket.receive_from(timeout=5)
    assert "THB-2" in first and "Casilla 3" in first and "THB-1" not in first
    # A change at another table is not this box's business: nothing arrives.
    await database_sync_to_async(act)(sessions.request_opening, table_one, dealer_dana)
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_player_socket_is_closed_when_its_link_expires_during_the_session(
    table_one, dealer_dana, pit_boss_pat
):
    def link():
        made = issue_box_link(table_one, 2, dealer_dana)
        return made, player_session(made)

    made, key = await database_sync_to_async(link)()
    connected, socket = await _connects("/ws/player/", key)
    assert connected
    await socket.receive_from(timeout=5)

    def expire_then_change():
        PlayerLink.objects.filter(pk=made.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        act(sessions.confirm_deck_check, Table.objects.get(pk=table_one.pk), pit_boss_pat)

    await database_sync_to_async(expire_then_change)()
    goodbye = await socket.receive_from(timeout=5)
    assert "THB-1" not in goodbye
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}


# --------------------------------------------------------------------------- the privacy capture


def _cards_in(message: str) -> set[str]:
    """Every card a message shows, however it shows it: a data attribute, a code, or rank and suit drawn."""
    found = set(re.findall(r'data-card="([2-9TJQKA][cdhs])"', message))
    suits = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    for card in full_deck():
        code = str(card)
        rank = "10" if code[0] == "T" else code[0]
        drawn = (f'{rank}</span><span class="pc-suit">{suits[code[1]]}', f"{rank}{suits[code[1]]}",
                 f"{rank}<b>{suits[code[1]]}</b>")
        if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", message) or any(d in message for d in drawn):
            found.add(code)
    return found


class Capture:
    """A player's socket kept open through a hand; every message it receives, in order."""

    def __init__(self, socket):
        self.socket = socket
        self.messages: list[str] = []

    async def drain(self):
        while not await self.socket.receive_nothing(timeout=0.3):
            self.messages.append(await self.socket.receive_from(timeout=5))


async def _player_capture(table, number, dealer) -> Capture:
    def link():
        return player_session(issue_box_link(table, number, dealer))

    key = await database_sync_to_async(link)()
    connected, socket = await _connects("/ws/player/", key)
    assert connected
    capture = Capture(socket)
    await capture.drain()
    return capture


def _version(message: str) -> int:
    return int(VERSION.search(message).group(1))


async def test_privacy_capture_a_recorded_hand_box_1s_phone_never_receives_another_box_or_the_dealer_early(
    table_one, dealer_dana, pit_boss_pat
):
    await database_sync_to_async(open_for_play)(table_one, dealer_dana, pit_boss_pat)
    capture = await _player_capture(table_one, 1, dealer_dana)
    step = database_sync_to_async

    def fresh():
        return Table.objects.get(pk=table_one.pk)

    await step(act)(services.start_hand, await step(fresh)(), dealer_dana)
    reveal_at = None
    steps = [
        (ante(1, 10), bonus(1, 5), ante(3, 20), ante(5, 5), bonus(5, 2), CLOSE_BETS, DEAL),
        (bet_flop(1, 20), bet_flop(3, 40), fold(5, "3d 4d")),
        (flop("2c 7d 9h"), pass_turn(1), pass_turn(3), turn("Js"), pass_river(1), pass_river(3), river("Kc")),
        (reveal_dealer("Ah Ad"),),
        (reveal_box(3, "8s Ts"), reveal_box(1, "As Ac")),
    ]
    for records in steps:
        for record in records:
            await step(play)(await step(fresh)(), dealer_dana, record)
            await capture.drain()
        if records[0]["action"] == "reveal-dealer":
            reveal_at = (await step(fresh)()).version
    hand, state = await step(reads.current_hand)(await step(fresh)())
    assert state.settlement.box(1).bonus.award == "aa-vs-dealer-aa"  # the hand really went to the end

    others = {"8s", "Ts", "3d", "4d"}
    dealer = {"Ah", "Ad"}
    assert len(capture.messages) >= 20
    for message in capture.messages:
        cards = _cards_in(message)
        assert not cards & others, f"another box's cards reached box 1: {cards & others}"
        if _version(message) < reveal_at:
            assert not cards & dealer, "the dealer's cards reached box 1 before he turned them"
        assert cards <= {"As", "Ac", "2c", "7d", "9h", "Js", "Kc"} | dealer
    last = capture.messages[-1]
    assert {"As", "Ac", "Ah", "Ad"} <= _cards_in(last)  # its own cards and the dealer's once shown


async def test_privacy_capture_a_dealt_hand_gives_box_2_its_own_hole_cards_and_nothing_of_the_shoe(
    table_one, dealer_dana, pit_boss_pat
):
    await database_sync_to_async(open_for_play)(table_one, dealer_dana, pit_boss_pat)
    mine = await _player_capture(table_one, 2, dealer_dana)
    theirs = await _player_capture(table_one, 4, dealer_dana)
    step = database_sync_to_async

    def fresh():
        return Table.objects.get(pk=table_one.pk)

    await step(act)(services.start_hand, await step(fresh)(), dealer_dana, mode="dealt")
    records = [ante(2, 10), ante(4, 10), CLOSE_BETS, DEAL, bet_flop(2, 20), bet_flop(4, 20), flop(), pass_turn(2),
               pass_turn(4), turn(), pass_river(2), pass_river(4), river()]
    for record in records:
        await step(play)(await step(fresh)(), dealer_dana, record)
        await mine.drain()
        await theirs.drain()
    before_reveal = (await step(fresh)()).version
    for record in (reveal_dealer(), reveal_box(4), reveal_box(2)):
        await step(play)(await step(fresh)(), dealer_dana, record)
        await mine.drain()
        await theirs.drain()
    hand, state = await step(reads.current_hand)(await step(fresh)())
    first = await step(lambda: hand.actions.order_by("seq").first().record)()
    shoe_order = first["cards"]
    box_2 = {str(c) for c in state.box(2).cards}
    box_4 = {str(c) for c in state.box(4).cards}
    dealer = {str(c) for c in state.dealer_cards}
    board = {str(c) for c in state.board}
    undealt = set(shoe_order) - box_2 - box_4 - dealer - board

    for capture, own, other in ((mine, box_2, box_4), (theirs, box_4, box_2)):
        assert capture.messages
        for message in capture.messages:
            cards = _cards_in(message)
            assert not cards & other, "another box's hole cards reached a phone"
            assert not cards & undealt, "an undealt card of the shoe reached a phone"
            if _version(message) <= before_reveal:
                assert not cards & dealer, "the dealer's cards reached a phone before he turned them"
            assert " ".join(shoe_order[:6]) not in message
        # In dealt mode each phone gets its own hole cards as soon as they are dealt.
        dealt = [m for m in capture.messages if own <= _cards_in(m)]
        assert dealt and _version(dealt[0]) <= before_reveal


# --------------------------------------------------------------------------- what a push costs


async def test_the_phones_of_a_table_render_a_push_on_the_event_loop_after_one_shared_read(
    table_one, dealer_dana, pit_boss_pat, monkeypatch, caplog
):
    """Every phone of the process hears the version; one worker-thread read serves them all, and the
    renders that follow touch no database (Django would refuse it on the event loop, and we log that)."""
    from tables import rendering

    await database_sync_to_async(open_for_play)(table_one, dealer_dana, pit_boss_pat)
    phones = [await _player_capture(table_one, number, dealer_dana) for number in (1, 2, 3, 4)]
    reads, thread_renders = [], []
    real = rendering.prepare_phones
    monkeypatch.setattr(rendering, "prepare_phones",
                        lambda table, version: (reads.append(version), real(table, version)))
    from casino.consumers import PlayerConsumer

    real_render = PlayerConsumer.render_fragment
    monkeypatch.setattr(PlayerConsumer, "render_fragment",
                        lambda self, version=None: (thread_renders.append(version), real_render(self, version))[1])

    def tap():
        return act(services.start_hand, Table.objects.get(pk=table_one.pk), dealer_dana).table_version

    version = await database_sync_to_async(tap)()
    for phone in phones:
        await phone.drain()
        assert _version(phone.messages[-1]) == version
    assert reads == [version] and thread_renders == []
    assert "read the database" not in caplog.text and "shared read" not in caplog.text


async def test_a_push_does_not_queue_on_channels_one_thread_to_close_stale_connections(
    table_one, dealer_dana, pit_boss_pat, monkeypatch
):
    import channels.consumer

    await database_sync_to_async(open_for_play)(table_one, dealer_dana, pit_boss_pat)
    phone = await _player_capture(table_one, 1, dealer_dana)
    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    version = await database_sync_to_async(
        lambda: act(services.start_hand, Table.objects.get(pk=table_one.pk), dealer_dana).table_version
    )()
    await phone.drain()
    assert _version(phone.messages[-1]) == version
    assert hops == []
