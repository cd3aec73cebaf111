"""The dealer's tablet socket through the whole ASGI stack (issue #15): who may open it, a tap rendered once
for its answer and its push, and a change of the event drawn only at the tables it concerns.

``/ws/tournaments/<event>/tables/<n>/deal/``: the table's dealer on duty, the floor and the director.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, date, datetime

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import translation

from casino import memo
from casino.asgi import application
from casino.memo import another_process
from tests.conftest import _staff, player_session
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import phone as phone_screen
from tournaments.rendering import tablet
from tournaments.services import dealing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_passwords")]

VERSION = re.compile(r'data-version="(\d+)"')
KEY = re.compile(r'name="key" value="[^"]*"')


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _socket(path: str, session_key: str) -> WebsocketCommunicator:
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=en; sessionid={session_key}"
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    return WebsocketCommunicator(application, path, headers=headers)


async def _open(table, user) -> tuple[bool, WebsocketCommunicator]:
    key = await database_sync_to_async(_session)(user)
    socket = _socket(f"/ws/tournaments/{table.tournament_id}/tables/{table.number}/deal/", key)
    connected, _code = await socket.connect(timeout=5)
    return connected, socket


def _tap(user, table, action: str, **fields):
    """One tap as the tablet sends it (htmx, in English), through the view."""
    client = Client()
    client.force_login(user)
    table.refresh_from_db()
    return client.post(f"/tournaments/{table.tournament_id}/tables/{table.number}/deal/{action}/",
                       {"version": table.version, "key": uuid.uuid4().hex, **fields}, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="en")


def _version(html: str) -> int:
    return int(VERSION.search(html).group(1))


async def test_only_the_dealer_on_duty_the_floor_and_the_director_open_a_tables_tablet(
    first_table, dealer_dana_here, floor_fede, director_dora, django_user_model
):
    dealer_diego = await database_sync_to_async(_staff)(django_user_model, "diego", "dealer", "Diego")
    pit_boss = await database_sync_to_async(_staff)(django_user_model, "pat", "pit_boss", "Pat")
    for person, allowed in ((dealer_dana_here, True), (floor_fede, True), (director_dora, True),
                            (dealer_diego, False), (pit_boss, False)):
        connected, socket = await _open(first_table, person)
        assert connected is allowed, person.username
        if connected:
            assert 'id="deal-table"' in await socket.receive_from(timeout=5)
            await socket.disconnect()


async def test_a_dealer_taken_off_the_table_is_cut_off_at_its_next_push(first_table, dealer_dana_here, floor_fede,
                                                                         django_user_model):
    connected, socket = await _open(first_table, dealer_dana_here)
    assert connected
    await socket.receive_from(timeout=5)

    def relieve():
        first_table.refresh_from_db()
        dealing.assign_dealer(table=first_table, by=floor_fede, key=uuid.uuid4().hex,
                              expected_version=first_table.version, dealer=None)

    await database_sync_to_async(relieve)()
    goodbye = await socket.receive_from(timeout=5)
    assert "deal-table" in goodbye and "data-access-ended" in goodbye
    await socket.disconnect()


async def _rendered_once(table, dealer, action: str, monkeypatch) -> str:
    """Tap ``action`` with the dealer's tablet open: the tap's version is rendered once in the process, when
    first asked for, and its answer and its push are that render (no notice on a tap without one: the very
    same screen). Gives the answer."""
    connected, socket = await _open(table, dealer)
    assert connected
    await socket.receive_from(timeout=5)
    renders = []
    real = tablet.tablet_context
    monkeypatch.setattr(tablet, "tablet_context", lambda *a, **k: renders.append(1) or real(*a, **k))

    answer = await database_sync_to_async(_tap)(dealer, table, action)
    pushed = await socket.receive_from(timeout=5)

    assert answer.status_code == 200
    assert len(renders) == 1
    assert _version(pushed) == _version(answer.content.decode())
    assert pushed == answer.content.decode()
    await socket.disconnect()
    return answer.content.decode()


async def test_a_tap_is_rendered_once_for_its_answer_and_its_push(first_table, dealer_dana_here, monkeypatch):
    await _rendered_once(first_table, dealer_dana_here, "new-hand", monkeypatch)


async def test_a_hands_end_is_rendered_once_for_its_answer_and_its_push_its_report_to_the_event_inside_it(
    first_table, dealer_dana_here, monkeypatch
):
    """The award writes the hand's end into the event inside its own write. That nested write reached its
    announcement first and rendered the tablet at its commit before the table's write had left what it knew:
    the render showed the version before the award, so the answer and the push each rendered again."""
    def to_the_award():
        _tap(dealer_dana_here, first_table, "new-hand")
        while (seat := hand_reads.hand_state(hand_reads.latest_hand(first_table)).to_act) is not None:
            if _tap(dealer_dana_here, first_table, "fold", seat=seat).status_code != 200:
                break  # the last one standing is not asked

    await database_sync_to_async(to_the_award)()
    answer = await _rendered_once(first_table, dealer_dana_here, "award-pots", monkeypatch)

    assert 'data-action="undo-award"' in answer  # the tablet after the award (C-15)
    assert await database_sync_to_async(lambda: hand_reads.latest_hand(first_table).reported_seq)() is not None


def test_the_other_process_renders_the_taps_version_itself_when_first_asked(first_table, dealer_dana_here):
    answer = _tap(dealer_dana_here, first_table, "new-hand").content.decode()
    first_table.refresh_from_db()
    with another_process(), translation.override("en"):
        made = tablet.fragment_at(first_table, first_table.version)
    assert made.screen_version == first_table.version + first_table.tournament.version == _version(answer)
    # the same screen, but for the per-render keys the tablet's forms carry until the browser makes them
    assert KEY.sub("", made.with_notice(None)) == KEY.sub("", answer)


def test_a_taps_push_to_the_floor_reads_only_his_rights_and_to_a_dealer_the_table_too(
    first_table, dealer_dana_here, floor_fede, django_assert_num_queries
):
    """The floor and the director may open any table's tablet: their push reads their rights again, not the
    table. A dealer's push reads the table's dealer on duty as well (issue #34: the render at the tap's
    commit said who was on duty then, not now)."""
    from tournaments.consumers import DealerTabletConsumer
    from tournaments.models import DealtTable

    _tap(dealer_dana_here, first_table, "new-hand")
    first_table.refresh_from_db()
    dana, fede = DealerTabletConsumer(), DealerTabletConsumer()
    dana.table, dana.user = DealtTable.objects.get(pk=first_table.pk), dealer_dana_here
    fede.table, fede.user = DealtTable.objects.get(pk=first_table.pk), floor_fede
    with django_assert_num_queries(1):  # the floor watching Dana's tap: his own rights read again, not the table
        assert fede.still_allowed(first_table.version) is True
    with django_assert_num_queries(2):  # Dana at her own tap: her rights and the table's dealer on duty now
        assert dana.still_allowed(first_table.version) is True
    dealing.assign_dealer(table=first_table, by=floor_fede, key=uuid.uuid4().hex,
                          expected_version=first_table.version, dealer=None)
    first_table.refresh_from_db()
    assert dana.still_allowed(first_table.version) is False  # relieved: the row read again says so
    assert dana.still_allowed() is False


def test_a_dealer_taken_off_the_table_gets_no_push_of_their_own_last_tap(
    first_table, dealer_dana_here, floor_fede, django_user_model
):
    """Issue #34: a dealer's own tap's push was shown to their tablet from its render, without reading their
    rights, on the ground that the tap's write had checked them. Taken off the table since (another dealer
    put on duty), they went on receiving it. Every push re-checks the viewer, their own tap's included."""
    from tournaments.consumers import DealerTabletConsumer
    from tournaments.models import DealtTable

    _tap(dealer_dana_here, first_table, "new-hand")
    first_table.refresh_from_db()
    tapped = first_table.version
    dana = DealerTabletConsumer()
    dana.table, dana.user = DealtTable.objects.get(pk=first_table.pk), dealer_dana_here
    dana.shown_facts, dana.language = None, "en"
    with translation.override("en"):
        made = tablet.fragment_at(first_table, tapped)  # her tap's render, the same for every viewer
        assert dana.still_allowed(tapped) is True  # still on duty: her tap is pushed to her

    diego = _staff(django_user_model, "diego", "dealer", "Diego")
    dealing.assign_dealer(table=first_table, by=floor_fede, key=uuid.uuid4().hex,
                          expected_version=first_table.version, dealer=diego)

    with translation.override("en"):
        assert dana.fragment_from_memory(tapped) is None  # never from memory, unchecked
        html, allowed, _news = dana._checked_fragment(tapped)
    assert allowed is False
    assert "data-access-ended" in html and html != made.with_notice(None)


# --- A change of the event, drawn only where it shows --------------------------------------------------


@pytest.fixture
def two_tables(director_dora, dealer_dana_here):
    """Seven players at two 6-max tables, the clock running, Dana on duty at both."""
    return _event_at_6_max(director_dora, dealer_dana_here, players=7)


@pytest.fixture
def three_tables(director_dora, dealer_dana_here):
    """Thirteen players at three 6-max tables (more than a final table seats), Dana on duty at all."""
    return _event_at_6_max(director_dora, dealer_dana_here, players=13)


def _event_at_6_max(director_dora, dealer_dana_here, players: int):
    tournament, _ = services.create_tournament(
        by=director_dora, key=uuid.uuid4().hex, name="Jueves", starts_at=datetime(2026, 12, 3, 20, tzinfo=UTC),
        buy_in=50, starting_stack=5000, seats_per_table=6)
    act(services.open_registration, tournament, director_dora)
    for i in range(1, players + 1):
        act(services.register, tournament, director_dora, name=f"Jugador {i}", id_type="dni",
            id_number=f"33.000.{i:03d}", birth_date=date(1980, 1, i))
    act(services.start_tournament, tournament, director_dora)
    act(services.clock_command, tournament, director_dora, kind="start")
    tables = []
    for seats in event_reads.tournament_state(tournament).tables:
        table = hand_reads.dealt_table(tournament, seats.table)
        dealing.assign_dealer(table=table, by=director_dora, key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=dealer_dana_here)
        table.refresh_from_db()
        tables.append(table)
    return tournament, tables


def _everyone_folds(table, dealer):
    """A hand at ``table`` to its end: all fold to the big blind, who takes the blinds (no bust)."""
    def tap(fn, **kwargs):
        table.refresh_from_db()
        return fn(table=table, by=dealer, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)

    tap(dealing.start_hand)
    while (seat := hand_reads.hand_state(hand_reads.latest_hand(table)).to_act) is not None:
        try:
            tap(dealing.act, record={"action": "fold", "seat": seat})
        except Exception:  # noqa: BLE001 - the last one standing is not asked
            break
    tap(dealing.act, record={"action": "award-pots"})


async def test_a_hands_end_at_another_table_does_not_redraw_this_tablet_but_the_clock_does(
    two_tables, dealer_dana_here, director_dora
):
    tournament, (here, there) = two_tables
    connected, socket = await _open(here, dealer_dana_here)
    assert connected
    shown = _version(await socket.receive_from(timeout=5))

    await database_sync_to_async(_everyone_folds)(there, dealer_dana_here)
    reported = await database_sync_to_async(lambda: hand_reads.latest_hand(there).reported_seq)()
    assert reported is not None  # the hand's end went into the event: the event's version moved on
    assert await socket.receive_nothing(timeout=0.5)

    await database_sync_to_async(act)(services.clock_command, tournament, director_dora, kind="pause")
    paused = await socket.receive_from(timeout=5)
    assert _version(paused) > shown and "Clock paused" in paused
    await socket.disconnect()


def test_whether_a_change_of_the_event_concerns_a_tablet_is_read_at_the_announced_version_without_a_query(
    two_tables, director_dora, django_assert_num_queries
):
    """A hundred tablets hear each of the event's changes: none asks the event's row again (else a query
    per tablet and change); the announcement names the version."""
    from tournaments.consumers import DealerTabletConsumer

    tournament, (here, _there) = two_tables
    tournament.refresh_from_db()
    consumer = DealerTabletConsumer()
    consumer.table = here
    consumer.shown_facts = tablet.event_facts(event_reads.tournament_state(tournament), here.number)
    with django_assert_num_queries(0):  # this process holds the event at that version
        assert consumer._event_concerns_this_table(tournament.version) is False
    act(services.clock_command, tournament, director_dora, kind="pause")
    tournament.refresh_from_db()
    assert consumer._event_concerns_this_table(tournament.version) is True  # the clock's events changed


# --- The players' phones during a hand -------------------------------------------------------------------


def _phone_of(tournament, director, number: int) -> str:
    from tournaments import services
    from tournaments.models import Entry

    link = services.issue_entry_link(Entry.objects.get(tournament=tournament, number=number), by=director)
    return player_session(link)


async def _phone(tournament, director, number: int) -> WebsocketCommunicator:
    key = await database_sync_to_async(_phone_of)(tournament, director, number)
    socket = _socket("/ws/player/", key)
    connected, _code = await socket.connect(timeout=5)
    assert connected
    await socket.receive_from(timeout=5)
    await _summary_after_fragment(socket)
    return socket


async def _summary_after_fragment(socket) -> None:
    """A fragment read in a worker thread is followed by its table's summary when its player sits at a dealt
    table (``phone_screen.table_now``)."""
    if not await socket.receive_nothing(timeout=0.3):
        assert '"table_summary"' in await socket.receive_from(timeout=5)


def _dealt_at(table) -> dict[int, int]:
    return {int(seat): entry for seat, entry in hand_reads.latest_hand(table).entries.items()}


async def test_each_tap_reaches_the_phones_of_the_players_dealt_in_whose_turn_and_their_own_clock_C_04(
    first_table, dealer_dana_here, director_dora, event_in_play
):
    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "new-hand")
    dealt = await database_sync_to_async(_dealt_at)(first_table)
    to_act = await database_sync_to_async(lambda: hand_reads.hand_state(hand_reads.latest_hand(first_table)).to_act)()
    phone = await _phone(event_in_play, director_dora, dealt[to_act])

    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "call-clock")
    called = _hand_sent(await phone.receive_from(timeout=5))
    assert called["to_act"] == to_act and called["clock"]["seat"] == to_act and called["clock"]["ends_ms"] > 0

    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "fold", seat=to_act)
    folded = _hand_sent(await phone.receive_from(timeout=5))
    assert folded["to_act"] not in (None, to_act) and folded["clock"] is None
    await phone.disconnect()


def _hand_sent(message: str) -> dict:
    """The hand of the table's public summary a phone was sent (its script draws its own part: the browser
    tests read what it draws)."""
    sent = json.loads(message)["table_summary"]
    assert set(sent) == {"table", "version", "hand"}
    return sent["hand"]


async def test_a_tap_at_one_table_reaches_no_phone_at_another(two_tables, dealer_dana_here, director_dora):
    tournament, (here, there) = two_tables
    seated_here = await database_sync_to_async(
        lambda: next(e for _s, e in event_reads.tournament_state(tournament).table(here.number).players))()
    phone = await _phone(tournament, director_dora, seated_here)
    await database_sync_to_async(_tap)(dealer_dana_here, there, "new-hand")
    assert await phone.receive_nothing(timeout=0.5)
    await phone.disconnect()


async def test_a_tap_reaches_every_phone_dealt_in_from_one_read_of_the_table_none_in_a_worker_thread(
    first_table, dealer_dana_here, director_dora, event_in_play, monkeypatch
):
    """A tap is pushed to the phone of every player dealt in (nine at a full table): the process reads the
    table once for all of them and sends each, from the event loop, the same message: the table's public
    summary, every seat's stack in it (issue #15's bench; issue #35: no render per phone)."""
    from casino.consumers import PlayerConsumer


    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "new-hand")
    dealt = await database_sync_to_async(_dealt_at)(first_table)
    to_act = await database_sync_to_async(lambda: hand_reads.hand_state(hand_reads.latest_hand(first_table)).to_act)()
    seats = [to_act, *[s for s in dealt if s != to_act][:2]]
    phones = [await _phone(event_in_play, director_dora, dealt[seat]) for seat in seats]

    reads, worker_renders = [], []
    read_tap = phone_screen.read_tap
    monkeypatch.setattr(phone_screen, "read_tap", lambda *a: reads.append(a) or read_tap(*a))
    checked = PlayerConsumer._checked_fragment
    monkeypatch.setattr(PlayerConsumer, "_checked_fragment",
                        lambda self, v: worker_renders.append(v) or checked(self, v))

    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "fold", seat=to_act)
    pushed = [await phone.receive_from(timeout=5) for phone in phones]
    stacks = await database_sync_to_async(lambda: hand_reads.hand_state(hand_reads.latest_hand(first_table)).stacks)()
    assert len(reads) == 1 and worker_renders == []
    assert len(set(pushed)) == 1  # the same bytes for every phone at the table
    hand = _hand_sent(pushed[0])
    assert hand["stacks"] == {str(seat): stack for seat, stack in stacks.items()} and hand["to_act"] != to_act
    for phone in phones:
        await phone.disconnect()


async def test_a_link_revoked_before_the_tap_is_read_is_not_served_from_memory_but_says_goodbye(
    first_table, dealer_dana_here, director_dora, event_in_play
):
    from django.contrib.contenttypes.models import ContentType
    from django.db import transaction

    from casino.models import PlayerLink
    from tournaments.models import Entry

    await database_sync_to_async(_tap)(dealer_dana_here, first_table, "new-hand")
    dealt = await database_sync_to_async(_dealt_at)(first_table)
    number = next(iter(dealt.values()))
    phone = await _phone(event_in_play, director_dora, number)

    def news_for(link, entry):
        table = type(first_table).objects.get(pk=first_table.pk)
        shown = type(event_in_play).objects.get(pk=event_in_play.pk).version  # the board the phone shows
        _key, read, render = phone_screen.phone_news(entry, link, {"table": table.pk, "version": table.version}, shown)
        read()
        return render()

    def revoke_and_read():
        entry = Entry.objects.get(tournament=event_in_play, number=number)
        (link,) = PlayerLink.objects.filter(seat_type=ContentType.objects.get_for_model(Entry), seat_id=entry.pk,
                                            revoked_at__isnull=True)
        served_before = news_for(link, entry)
        with transaction.atomic():
            services.revoke_entry_links(entry, by=director_dora)
        memo.clear_all()  # a tap after the revocation: read again
        return served_before, news_for(link, entry)

    served_before, served_after = await database_sync_to_async(revoke_and_read)()
    assert '"table_summary"' in served_before and "data-access-ended" not in served_before
    assert served_after is None  # the worker-thread path takes it, and reads the link's row
    assert "data-access-ended" in await phone.receive_from(timeout=5)
    assert (await phone.receive_output(timeout=5))["type"] == "websocket.close"


async def test_a_moved_players_phone_hears_the_taps_at_its_new_table_and_none_at_the_old_one(
    three_tables, dealer_dana_here, director_dora
):
    """A tap is announced once, to the group of its table's phones: a phone joins its player's new table's
    group when the move reaches it, and leaves the old one's."""
    tournament, tables = three_tables

    def seats(table):
        return event_reads.tournament_state(tournament).table(table.number).players

    # from a table of five to one of four: still balanced, so no plan holds the next hands (TDA-11)
    by_size = sorted([(len(await database_sync_to_async(seats)(t)), t.number, t) for t in tables])
    (_, _, there), (_, _, here) = by_size[0], by_size[-1]
    players_here, players_there = await database_sync_to_async(seats)(here), await database_sync_to_async(seats)(there)
    assert len(players_here) == len(players_there) + 1
    moving = players_here[0][1]
    free = min(set(range(1, 7)) - {seat for seat, _entry in players_there})
    phone = await _phone(tournament, director_dora, moving)

    await database_sync_to_async(act)(services.override_seat, tournament, director_dora, entry=moving,
                                      table=there.number, seat=free, reason="Balancing by hand")
    moved = await phone.receive_from(timeout=5)
    assert f'data-role="table">{there.number}<' in moved
    await phone.receive_from(timeout=5)  # shown once more on joining the new table's group
    await _summary_after_fragment(phone)
    assert await phone.receive_nothing(timeout=0.3)

    await database_sync_to_async(_tap)(dealer_dana_here, here, "new-hand")
    assert await phone.receive_nothing(timeout=0.5)
    await database_sync_to_async(_tap)(dealer_dana_here, there, "new-hand")
    assert _hand_sent(await phone.receive_from(timeout=5))["in_play"] is True
    await phone.disconnect()
