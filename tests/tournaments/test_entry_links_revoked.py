"""The players' links of an event (issue #34, item 7): the event's director (the games director, an
administrator) revokes an entry's links from its row and reissues one, a lost receipt's link stops at once
and the phone on it is told and closed; no link is issued for an entry out of the event."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import reverse

from casino import player_links
from casino.asgi import application
from casino.consumers import CLOSE_REVOKED
from casino.models import AuditEvent, PlayerLink
from casino.rules.errors import RuleViolation
from tests.conftest import _staff, player_session
from tests.tournaments.conftest import act, register
from tournaments import services
from tournaments.models import Entry
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db


@pytest.fixture
def administrator_ada(django_user_model, quick_passwords):
    return _staff(django_user_model, "ada", "administrator", "Ada")


@pytest.fixture
def entry_with_a_link(registering, floor_fede):
    """Entry 1 registered at the desk, its accreditation receipt printed with the player's link."""
    register(registering, floor_fede, 0)
    entry = Entry.objects.get(tournament=registering, number=1)
    return entry, services.issue_entry_link(entry, by=floor_fede)


def _client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def _post(user, tournament, action: str, entry: int):
    tournament.refresh_from_db()
    return _client(user).post(reverse("tournaments:act", args=[tournament.pk, action]),
                              {"version": str(tournament.version), "key": uuid.uuid4().hex, "entry": str(entry)})


def _usable(link: PlayerLink) -> bool:
    link.refresh_from_db()
    return link.is_usable()


def _links_of(entry: Entry):
    return PlayerLink.objects.filter(seat_type=ContentType.objects.get_for_model(Entry), seat_id=entry.pk)


def _phone(link) -> WebsocketCommunicator:
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=en; sessionid={player_session(link)}"
    return WebsocketCommunicator(application, "/ws/player/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["director_dora", "games_director_gloria", "administrator_ada"])
async def test_the_director_revokes_an_entrys_link_from_its_row_and_the_phone_on_it_is_closed_at_once(
        who, request, entry_with_a_link):
    entry, link = entry_with_a_link
    revoker = await database_sync_to_async(request.getfixturevalue)(who)
    phone = await database_sync_to_async(_phone)(link)
    connected, _code = await phone.connect(timeout=5)
    assert connected
    assert "tphone" in await phone.receive_from(timeout=5)

    response = await database_sync_to_async(_post)(revoker, entry.tournament, "revoke-links", entry.number)

    assert response.status_code == 302 and "X-Refused" not in response
    goodbye = await phone.receive_from(timeout=5)
    assert "data-access-ended" in goodbye and entry.player_name not in goodbye
    assert (await phone.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_REVOKED}
    assert not await database_sync_to_async(_usable)(link)
    audited = await database_sync_to_async(
        lambda: list(AuditEvent.objects.filter(action="player_link.revoked").values_list("actor", "object_id")))()
    assert audited == [(revoker.pk, str(link.pk))]


@pytest.mark.parametrize("who", ["floor_fede", "tournament_director_teo"])
def test_the_floor_and_a_director_of_another_event_may_not_revoke_a_players_link(who, request, entry_with_a_link):
    entry, link = entry_with_a_link
    entry.tournament.refresh_from_db()
    version = entry.tournament.version
    response = _post(request.getfixturevalue(who), entry.tournament, "revoke-links", entry.number)
    assert response.status_code == 403
    entry.tournament.refresh_from_db()
    assert _usable(link) and entry.tournament.version == version


def test_a_reissued_link_works_and_the_lost_one_is_refused(entry_with_a_link, director_dora):
    entry, lost = entry_with_a_link
    response = _post(director_dora, entry.tournament, "reissue-link", entry.number)
    assert response.status_code == 302
    new = _links_of(entry).exclude(pk=lost.pk).get()
    assert response["Location"].endswith(
        reverse("tournaments:receipt", args=[entry.tournament.pk, entry.pk, "accreditation"]) + f"?link={new.pk}")
    assert Client().get(player_links.url_for(new)).status_code == 302
    assert Client().get(player_links.url_for(lost)).status_code == 404
    assert AuditEvent.objects.filter(action="player_link.revoked", object_id=str(lost.pk)).exists()
    assert AuditEvent.objects.filter(action="player_link.issued", object_id=str(new.pk)).exists()


def test_revoking_an_entry_with_no_link_that_works_is_said_plainly(registering, floor_fede, director_dora):
    register(registering, floor_fede, 0)
    response = _post(director_dora, registering, "revoke-links", 1)
    assert response["X-Refused"] == "422"
    assert not AuditEvent.objects.filter(action="player_link.revoked").exists()


@pytest.fixture
def busted_entry(event_in_play, floor_fede):
    """Entry 1 of the event in play, with its link, busted out."""
    entry = Entry.objects.get(tournament=event_in_play, number=1)
    link = services.issue_entry_link(entry, by=floor_fede)
    seat = event_reads.tournament_state(event_in_play).entry(1)
    act(services.record_bust, event_in_play, floor_fede, table=seat.table, seat=seat.seat)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED
    return entry, link


def test_no_link_is_issued_for_a_busted_entry_and_the_one_it_has_keeps_working(busted_entry, floor_fede,
                                                                              director_dora):
    entry, link = busted_entry
    with pytest.raises(RuleViolation, match="out of the event"):
        services.issue_entry_link(entry, by=floor_fede)
    desk = _client(floor_fede).post(reverse("tournaments:issue_accreditation_link",
                                            args=[entry.tournament.pk, entry.pk]))
    assert desk["X-Refused"] == "422"
    reissue = _post(director_dora, entry.tournament, "reissue-link", entry.number)
    assert reissue["X-Refused"] == "422"
    assert list(_links_of(entry)) == [link] and _usable(link)  # nothing changed: his place is still on it
    page = _client(director_dora).get(reverse("tournaments:entry", args=[entry.tournament.pk, entry.number]))
    assert 'data-action="reissue-link"' not in page.content.decode()
    assert 'data-action="accreditation-receipt"' not in page.content.decode()


def test_the_entrys_row_at_the_desk_offers_the_new_link_to_the_director_only(entry_with_a_link, director_dora,
                                                                            floor_fede):
    entry, _link = entry_with_a_link
    url = reverse("tournaments:registration", args=[entry.tournament.pk])
    assert 'data-action="reissue-link"' in _client(director_dora).get(url).content.decode()
    assert 'data-action="reissue-link"' not in _client(floor_fede).get(url).content.decode()
