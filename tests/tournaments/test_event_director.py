"""A director directs the events assigned to him (issue #34, item 4): the director of another event may look
at this one but not act at it, through the pages, the services or a tablet; the games director (and an
administrator) assigns and reassigns an event's director and may direct any event (CC-03: Tournament
Direction rules the event; the casino says who that is)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from casino.models import AuditEvent
from casino.writes import NotAllowed
from tests.conftest import _staff
from tests.tournaments.conftest import PLAYERS, act, register
from tournaments import services
from tournaments.models import Entry, IdCheck, Player, Tournament, TournamentEvent
from tournaments.reads import event as event_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db


@pytest.fixture
def teos_event(tournament_director_teo):
    """The event Teo directs: he is a director, only not of Dora's Sunday event."""
    tournament, _result = services.create_tournament(
        by=tournament_director_teo, key=uuid.uuid4().hex, name="Teo's Monday Turbo",
        starts_at=datetime(2026, 11, 30, 18, 0, tzinfo=UTC), buy_in=50, starting_stack=5_000)
    return tournament


@pytest.fixture
def administrator_ada(django_user_model, quick_passwords):
    return _staff(django_user_model, "ada", "administrator", "Ada")


@pytest.fixture
def a_prize_won(registering, director_dora, floor_fede):
    """Dora's event down to its winner, the results recorded: entry 1 or 2 has a prize to collect."""
    for i in range(2):
        register(registering, floor_fede, i)
    act(services.close_registration, registering, director_dora)
    act(services.start_tournament, registering, director_dora)
    state = event_reads.tournament_state(registering)
    loser = state.in_play[0]
    act(services.record_bust, registering, director_dora, table=loser.table, seat=loser.seat)
    act(services.record_results, registering, director_dora)
    state = event_reads.tournament_state(registering)
    winner = next(e for e in state.entries if e.entry != loser.entry)
    assert next(r.prize(winner.entry) for r in state.results if winner.entry in r.entries) > 0
    return registering, winner.entry


def _client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def _guard(tournament: Tournament) -> dict:
    tournament.refresh_from_db()
    return {"version": str(tournament.version), "key": uuid.uuid4().hex}


def _recorded(tournament: Tournament) -> tuple:
    """What a refused action must leave as it was: the version, the record, entries, players, ID checks."""
    tournament.refresh_from_db()
    return (tournament.version, TournamentEvent.objects.filter(tournament=tournament).count(),
            Entry.objects.filter(tournament=tournament).count(), Player.objects.count(), IdCheck.objects.count())


# --------------------------------------------------------------------------- through the pages


def _setup_post(t):
    return "tournaments:setup", [t.pk], {**_guard(t), "buy_in": "500", "fee": "0", "starting_stack": "10000",
                                         "seats_per_table": "9", "reason": "mine now"}


def _registration_post(t):
    name, id_type, id_number, birth = PLAYERS[4]
    return "tournaments:registration", [t.pk], {**_guard(t), "player_name": name, "id_type": id_type,
                                                "id_number": id_number, "birth_date": birth.isoformat()}


def _pay_post(t, entry):
    _name, id_type, id_number, _birth = PLAYERS[entry - 1]  # entries are numbered as registered
    return "tournaments:act", [t.pk, "pay"], {**_guard(t), "entry": str(entry), "id_type": id_type,
                                              "id_number": id_number}


def _correct_post(t):
    return "tournaments:act", [t.pk, "correct"], {**_guard(t), "seq": "2", "reason": "not his to correct"}


def _close_registration_post(t):
    return "tournaments:act", [t.pk, "close-registration"], _guard(t)


ROUTES = {"setup": _setup_post, "registration": _registration_post, "correction": _correct_post,
          "closing registration": _close_registration_post}


@pytest.mark.parametrize("what", sorted(ROUTES))
def test_the_director_of_another_event_is_refused_at_this_one_and_nothing_is_recorded_CC_03(
        what, registering, teos_event, tournament_director_teo, floor_fede):
    for i in range(2):
        register(registering, floor_fede, i)
    before = _recorded(registering)
    name, args, data = ROUTES[what](registering)
    response = _client(tournament_director_teo).post(reverse(name, args=args), data)
    assert response.status_code == 403
    assert _recorded(registering) == before


def test_the_director_of_another_event_may_not_pay_its_prizes_CC_15(a_prize_won, teos_event, tournament_director_teo):
    event, winner = a_prize_won
    before = _recorded(event)
    name, args, data = _pay_post(event, winner)
    response = _client(tournament_director_teo).post(reverse(name, args=args), data)
    assert response.status_code == 403
    assert _recorded(event) == before


def test_the_director_of_another_event_may_not_open_its_setup(sunday_event, teos_event, tournament_director_teo):
    assert _client(tournament_director_teo).get(reverse("tournaments:setup", args=[sunday_event.pk])).status_code == 403


def test_the_director_of_another_event_sees_its_console_without_a_single_action(
        registering, teos_event, tournament_director_teo, director_dora):
    theirs = _client(tournament_director_teo).get(reverse("tournaments:console", args=[registering.pk]))
    own = _client(director_dora).get(reverse("tournaments:console", args=[registering.pk]))
    assert theirs.status_code == own.status_code == 200
    assert "close-registration" in own.content.decode()
    assert "/act/" not in theirs.content.decode()
    desk = _client(tournament_director_teo).get(reverse("tournaments:registration", args=[registering.pk]))
    assert desk.status_code == 200 and 'id="register-form"' not in desk.content.decode()


def test_the_director_of_another_event_may_not_deal_at_its_tablet(first_table, teos_event, tournament_director_teo):
    event = first_table.tournament
    url = reverse("tournaments:tablet_act", args=[event.pk, first_table.number, "new-hand"])
    response = _client(tournament_director_teo).post(url, {"version": str(first_table.version),
                                                           "key": uuid.uuid4().hex})
    assert response.status_code == 403
    assert not first_table.hands.exists()
    page = _client(tournament_director_teo).get(reverse("tournaments:tablet", args=[event.pk, first_table.number]))
    assert page.status_code == 403


@pytest.mark.django_db(transaction=True)
async def test_the_tablets_socket_refuses_the_director_of_another_event_and_lets_the_events_own_in(
        first_table, teos_event, tournament_director_teo, director_dora):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application

    async def opens(user) -> bool:
        client = await database_sync_to_async(_client)(user)
        cookie = f"{settings.LANGUAGE_COOKIE_NAME}=en; sessionid={client.cookies['sessionid'].value}"
        socket = WebsocketCommunicator(
            application, f"/ws/tournaments/{first_table.tournament_id}/tables/{first_table.number}/deal/",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())])
        connected, _code = await socket.connect(timeout=5)
        await socket.disconnect()
        return connected

    assert await opens(director_dora) is True
    assert await opens(tournament_director_teo) is False


@pytest.mark.django_db(transaction=True)
async def test_a_director_whose_event_is_reassigned_is_shown_the_goodbye_at_his_tablets_next_push(
        first_table, director_dora, tournament_director_teo, games_director_gloria, dealer_dana_here):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application

    client = await database_sync_to_async(_client)(director_dora)
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=en; sessionid={client.cookies['sessionid'].value}"
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{first_table.tournament_id}/tables/{first_table.number}/deal/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())])
    connected, _code = await socket.connect(timeout=5)
    assert connected
    await socket.receive_from(timeout=5)

    def reassign_and_deal():
        act(services.assign_director, first_table.tournament, games_director_gloria, director=tournament_director_teo)
        first_table.refresh_from_db()
        dealing.start_hand(table=first_table, by=dealer_dana_here, key=uuid.uuid4().hex,
                           expected_version=first_table.version)

    await database_sync_to_async(reassign_and_deal)()
    pushed = await socket.receive_from(timeout=5)
    while "data-access-ended" not in pushed:
        pushed = await socket.receive_from(timeout=5)
    await socket.disconnect()


# --------------------------------------------------------------------------- through the services


def _change_setup(t, by):
    return act(services.change_setup, t, by, buy_in=500, reason="mine now")


def _register(t, by):
    return register(t, by, 4)


def _correct(t, by):
    return act(services.correct, t, by, seq=2, reason="not his to correct")


def _start(t, by):
    return act(services.start_tournament, t, by)


SERVICES = {"setup": _change_setup, "registration": _register, "correction": _correct, "start": _start}


@pytest.mark.parametrize("what", sorted(SERVICES))
def test_the_services_refuse_the_director_of_another_event_whatever_the_entry_point_CC_03(
        what, registering, teos_event, tournament_director_teo, floor_fede):
    for i in range(2):
        register(registering, floor_fede, i)
    before = _recorded(registering)
    with pytest.raises(NotAllowed) as refused:
        SERVICES[what](registering, tournament_director_teo)
    assert "this event's director" in refused.value.message
    assert _recorded(registering) == before


def test_the_payout_service_refuses_the_director_of_another_event_CC_15(a_prize_won, tournament_director_teo):
    event, winner = a_prize_won
    before = _recorded(event)
    with pytest.raises(NotAllowed):
        act(services.pay_prize, event, tournament_director_teo, entry=winner, id_type=PLAYERS[winner - 1][1],
            id_number=PLAYERS[winner - 1][2])
    assert _recorded(event) == before


def test_the_dealing_service_refuses_the_director_of_another_event(first_table, tournament_director_teo):
    with pytest.raises(NotAllowed):
        dealing.start_hand(table=first_table, by=tournament_director_teo, key=uuid.uuid4().hex,
                           expected_version=first_table.version)
    with pytest.raises(NotAllowed):
        dealing.pause_table(table=first_table, by=tournament_director_teo, key=uuid.uuid4().hex,
                            expected_version=first_table.version, reason="not mine")
    first_table.refresh_from_db()
    assert not first_table.hands.exists() and not first_table.paused_reason


# --------------------------------------------------------------------------- who may

def test_the_events_own_director_and_the_games_director_and_an_administrator_direct_it(
        registering, director_dora, games_director_gloria, administrator_ada, floor_fede):
    act(services.change_setup, registering, director_dora, buy_in=120, reason="the house's price")
    act(services.change_setup, registering, games_director_gloria, buy_in=130, reason="the games director's")
    act(services.change_setup, registering, administrator_ada, buy_in=140, reason="the administrator's")
    register(registering, floor_fede, 0)  # the floor staff work every event's desk
    registering.refresh_from_db()
    assert registering.buy_in == 140 and Entry.objects.filter(tournament=registering).count() == 1
    response = _client(games_director_gloria).get(reverse("tournaments:setup", args=[registering.pk]))
    assert response.status_code == 200 and 'id="director-form"' in response.content.decode()


def test_the_games_director_reassigns_the_event_and_it_is_audited(
        registering, director_dora, tournament_director_teo, games_director_gloria):
    registering.refresh_from_db()
    before = registering.version
    act(services.assign_director, registering, games_director_gloria, director=tournament_director_teo)
    registering.refresh_from_db()
    assert registering.director == tournament_director_teo and registering.version == before + 1
    audit = AuditEvent.objects.filter(action="tournament.director_assigned").get()
    assert audit.actor == games_director_gloria
    assert audit.details["before"] == director_dora.pk and audit.details["after"] == tournament_director_teo.pk
    act(services.change_setup, registering, tournament_director_teo, buy_in=150, reason="his event now")
    with pytest.raises(NotAllowed):
        act(services.change_setup, registering, director_dora, buy_in=160, reason="not hers any more")


def test_the_games_director_reassigns_from_the_setup_page_and_a_director_may_not(
        registering, director_dora, tournament_director_teo, games_director_gloria):
    url = reverse("tournaments:act", args=[registering.pk, "assign-director"])
    refused = _client(director_dora).post(url, {**_guard(registering), "director": str(tournament_director_teo.pk)})
    assert refused.status_code == 403
    done = _client(games_director_gloria).post(url, {**_guard(registering),
                                                     "director": str(tournament_director_teo.pk)})
    assert done.status_code == 302 and done["Location"].endswith(reverse("tournaments:setup", args=[registering.pk]))
    registering.refresh_from_db()
    assert registering.director == tournament_director_teo


def test_an_event_is_assigned_only_to_a_tournament_director(registering, games_director_gloria, floor_fede):
    url = reverse("tournaments:act", args=[registering.pk, "assign-director"])
    response = _client(games_director_gloria).post(url, {**_guard(registering), "director": str(floor_fede.pk)})
    assert "X-Refused" in response and response["X-Refused"] == "422"
    registering.refresh_from_db()
    assert registering.director.username == "dora"
    assert not AuditEvent.objects.filter(action="tournament.director_assigned").exists()
