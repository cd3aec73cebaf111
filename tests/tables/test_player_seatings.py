"""A player's QR link belongs to one table session and one player (issue #12, item 1).

A link bound to the box outlived the session: after the table closed and reopened, the old link
showed the box's new occupant their hole cards. Now a link belongs to a seating (one player at one
box in one session): closing the session, or the dealer saying a new player took the box, ends it
at once, and every phone open on it is told and shut.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import translation

from casino import player_links
from casino.asgi import application
from casino.consumers import CLOSE_REVOKED
from casino.models import AuditEvent, PlayerLink
from casino.rules.errors import RuleViolation
from tables import reads, rendering, services, sessions
from tables.models import Hand, Seating, Table
from tests.conftest import issue_box_link, player_session

from .helpers import CLOSE_BETS, DEAL, act, ante, open_for_play, play, play_to_settlement
from .screens import tablet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]

CARD = re.compile(r'data-card="([2-9TJQKA][cdhs])"')


def close_table(table, dealer, pit_boss):
    """The closing procedure: the dealer asks once the last hand is finished, the pit boss confirms."""
    act(sessions.request_closing, table, dealer)
    act(sessions.confirm_closing, table, pit_boss)
    table.refresh_from_db()
    return table


def enter(link) -> Client:
    """A phone that scanned ``link``'s QR code."""
    phone = Client()
    assert phone.get(player_links.url_for(link)).status_code == 302
    return phone


def dealt_hand_with_a_bet_at_box_1(table, dealer):
    """A hand from the electronic shoe with an ante at box 1, dealt: box 1 holds two hole cards."""
    act(services.start_hand, table, dealer, mode=Hand.Mode.DEALT)
    play(table, dealer, ante(1, 10), CLOSE_BETS, DEAL)
    _hand, state = reads.current_hand(table)
    return {str(card) for card in state.box(1).cards}


def test_closing_the_table_ends_every_players_link_at_once(open_table, dealer_dana, pit_boss_pat):
    ana, bruno = issue_box_link(open_table, 1, dealer_dana), issue_box_link(open_table, 4, dealer_dana)
    phone = enter(ana)
    close_table(open_table, dealer_dana, pit_boss_pat)
    assert PlayerLink.objects.filter(pk__in=[ana.pk, bruno.pk], revoked_at__isnull=True).count() == 0
    assert phone.get(reverse("player_home")).status_code == 403  # the browser already inside
    assert Client().get(player_links.url_for(ana)).status_code == 404  # the QR code scanned again
    assert set(Seating.objects.values_list("end_reason", flat=True)) == {Seating.EndReason.SESSION_CLOSED}


def test_an_old_link_never_shows_the_next_sessions_player_their_hole_cards(open_table, dealer_dana, pit_boss_pat):
    """The issue's reproduction: link for box 1, close, reopen, a new player at box 1 in dealt mode."""
    ana = issue_box_link(open_table, 1, dealer_dana)
    phone = enter(ana)
    close_table(open_table, dealer_dana, pit_boss_pat)
    open_for_play(open_table, dealer_dana, pit_boss_pat)
    new_players_cards = dealt_hand_with_a_bet_at_box_1(open_table, dealer_dana)

    assert Client().get(player_links.url_for(ana)).status_code == 404
    assert phone.get(reverse("player_home")).status_code == 403
    # Even rendered regardless of the revocation, the old seating sees nothing of the new session.
    ana.refresh_from_db()
    with translation.override("es"):
        page = rendering.player_fragment(ana.seat, ana)
    assert not set(CARD.findall(page)) & new_players_cards
    assert "Mano" not in page


def test_the_new_sessions_player_gets_a_link_of_their_own_that_shows_their_cards(open_table, dealer_dana,
                                                                                   pit_boss_pat):
    issue_box_link(open_table, 1, dealer_dana)
    close_table(open_table, dealer_dana, pit_boss_pat)
    open_for_play(open_table, dealer_dana, pit_boss_pat)
    carla = issue_box_link(open_table, 1, dealer_dana)
    cards = dealt_hand_with_a_bet_at_box_1(open_table, dealer_dana)
    page = enter(carla).get(reverse("player_home")).content.decode()
    assert set(CARD.findall(page)) == {str(card) for card in cards}


def test_no_link_is_issued_at_a_closed_table(table_one, dealer_dana):
    with pytest.raises(RuleViolation):
        sessions.issue_box_link(table=table_one, number=1, by=dealer_dana)
    assert not PlayerLink.objects.exists()


def test_a_second_link_for_the_same_player_joins_their_seating(open_table, dealer_dana):
    first, second = issue_box_link(open_table, 2, dealer_dana), issue_box_link(open_table, 2, dealer_dana)
    assert first.seat == second.seat
    assert Seating.objects.count() == 1


def test_a_new_link_for_a_box_ends_the_boxs_earlier_link_at_once_and_audits_it(open_table, dealer_dana):
    """Issue #16: issuing a new link did not end the old one; a lost phone kept the player's view."""
    old = issue_box_link(open_table, 2, dealer_dana)
    phone = enter(old)
    new = issue_box_link(open_table, 2, dealer_dana)
    old.refresh_from_db()
    assert old.revoked_at is not None and old.revoked_by == dealer_dana
    assert phone.get(reverse("player_home")).status_code == 403
    assert Client().get(player_links.url_for(old)).status_code == 404
    assert enter(new).get(reverse("player_home")).status_code == 200
    revoked = AuditEvent.objects.get(action="player_link.revoked", object_id=str(old.pk))
    assert revoked.details == {"reason": "replaced"}
    # Another box's link is not touched.
    other = issue_box_link(open_table, 3, dealer_dana)
    issue_box_link(open_table, 2, dealer_dana)
    other.refresh_from_db()
    assert other.revoked_at is None


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_fresh_link_never_shows_the_hands_played_at_the_box_before_it(open_table, dealer_dana):
    """Issue #16: the box's first link this session showed the session's earlier hands and total."""
    act(services.start_hand, open_table, dealer_dana)
    play_to_settlement(open_table, dealer_dana)  # hand 1 at box 1, with no link issued
    link = issue_box_link(open_table, 1, dealer_dana)
    assert link.seat.first_hand == 2
    page = enter(link).get(reverse("player_home")).content.decode()
    assert "Mano 1" not in page and 'id="player-result"' not in page
    assert not CARD.findall(page)


def test_a_link_issued_during_a_hand_shows_that_hand(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    link = issue_box_link(hand_started, 1, dealer_dana)
    hand, _state = reads.current_hand(hand_started)
    assert link.seat.first_hand == hand.number


def test_the_tablet_lists_the_boxs_links_and_the_dealer_revokes_one_there(open_table, dealer_dana, client):
    ana, bruno = issue_box_link(open_table, 1, dealer_dana), issue_box_link(open_table, 4, dealer_dana)
    client.force_login(dealer_dana)
    page = client.get(reverse("tables:dealer_table", args=[open_table.pk])).content.decode()
    assert f'data-link="{ana.pk}"' in page and f'data-link="{bruno.pk}"' in page
    response = client.post(reverse("tables:revoke_link", args=[ana.pk]), {"next": "tablet"})
    assert response.status_code == 302 and response.url == reverse("tables:dealer_table", args=[open_table.pk])
    ana.refresh_from_db()
    assert ana.revoked_at is not None
    page = client.get(reverse("tables:dealer_table", args=[open_table.pk])).content.decode()
    assert f'data-link="{ana.pk}"' not in page and f'data-link="{bruno.pk}"' in page


def test_the_pit_boss_revokes_a_link_from_the_console(open_table, dealer_dana, pit_boss_pat, client):
    ana = issue_box_link(open_table, 5, dealer_dana)
    client.force_login(pit_boss_pat)
    console = reverse("tables:pit_console", args=[open_table.pit_id])
    assert f'data-link="{ana.pk}"' in client.get(console).content.decode()
    response = client.post(reverse("tables:revoke_link", args=[ana.pk]), {"next": "console"})
    assert response.status_code == 302 and response.url == console
    ana.refresh_from_db()
    assert ana.revoked_at is not None and ana.revoked_by == pit_boss_pat


def test_a_dealer_at_another_table_cannot_revoke_a_link(open_table, dealer_dana, dealer_diego, table_two, client):
    ana = issue_box_link(open_table, 1, dealer_dana)
    client.force_login(dealer_diego)
    assert client.post(reverse("tables:revoke_link", args=[ana.pk]), {"next": "tablet"}).status_code == 403
    ana.refresh_from_db()
    assert ana.revoked_at is None


# --------------------------------------------------------------------------- a new player at a box


def test_a_new_player_at_a_box_ends_the_link_of_the_player_before(open_table, dealer_dana):
    ana = issue_box_link(open_table, 3, dealer_dana)
    phone = enter(ana)
    result = act(sessions.seat_new_player, open_table, dealer_dana, box=3)
    assert result.alerts  # the tablet says the new player's phone needs a new link
    ana.refresh_from_db()
    assert ana.revoked_at is not None and ana.revoked_by == dealer_dana
    assert phone.get(reverse("player_home")).status_code == 403
    assert Seating.objects.get(pk=ana.seat_id).end_reason == Seating.EndReason.NEW_PLAYER


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_the_new_player_sees_none_of_the_hands_of_the_player_before(open_table, dealer_dana):
    ana = issue_box_link(open_table, 1, dealer_dana)
    act(services.start_hand, open_table, dealer_dana)
    play_to_settlement(open_table, dealer_dana)  # box 1 wins with A-A; its result is Ana's
    ana_page = enter(ana).get(reverse("player_home")).content.decode()
    assert 'id="player-result"' in ana_page and "Mano 1" in ana_page

    act(sessions.seat_new_player, open_table, dealer_dana, box=1)
    diego = issue_box_link(open_table, 1, dealer_dana)
    page = enter(diego).get(reverse("player_home")).content.decode()
    assert 'id="player-result"' not in page  # not Ana's last hand
    assert "Mano 1" not in page  # nor in the history
    assert not CARD.findall(page)


def test_a_new_player_is_refused_while_the_box_has_bets_in_the_hand_in_play(hand_started, dealer_dana):
    ana = issue_box_link(hand_started, 1, dealer_dana)
    play(hand_started, dealer_dana, ante(1, 10))
    with pytest.raises(RuleViolation) as refused:
        act(sessions.seat_new_player, hand_started, dealer_dana, box=1)
    assert "1" in str(refused.value)
    ana.refresh_from_db()
    assert ana.revoked_at is None


def test_a_new_player_at_a_box_with_no_bet_plays_the_hand_in_play(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(2, 10))
    act(sessions.seat_new_player, hand_started, dealer_dana, box=5)
    eva = issue_box_link(hand_started, 5, dealer_dana)
    play(hand_started, dealer_dana, ante(5, 25))
    page = enter(eva).get(reverse("player_home")).content.decode()
    assert "Mano 1" in page and "25" in page


def test_only_the_dealer_on_duty_marks_a_new_player(open_table, dealer_diego):
    with pytest.raises(services.NotAllowed):
        act(sessions.seat_new_player, open_table, dealer_diego, box=1)


def test_ending_a_seating_is_audited_in_the_tables_stream(open_table, dealer_dana):
    ana = issue_box_link(open_table, 6, dealer_dana)
    act(sessions.seat_new_player, open_table, dealer_dana, box=6)
    actions = list(AuditEvent.objects.filter(stream=f"tables.table.{open_table.pk}").values_list("action", flat=True))
    assert actions[-3:] == ["table.seating_ended", "player_link.revoked", "table.new_player"]
    revoked = AuditEvent.objects.get(action="player_link.revoked", object_id=str(ana.pk))
    assert revoked.details["reason"] == Seating.EndReason.NEW_PLAYER


def test_the_tablet_marks_a_new_player(client, open_table, dealer_dana):
    ana = issue_box_link(open_table, 2, dealer_dana)
    pad = tablet(client, dealer_dana, open_table)
    assert 'data-action="new-player"' in pad.html
    pad.tap("new-player", box="2")
    assert "2" in pad.notice
    ana.refresh_from_db()
    assert ana.revoked_at is not None


# --------------------------------------------------------------------------- phones open on the link


@pytest.mark.django_db(transaction=True)
async def test_a_phone_open_on_the_link_is_told_and_shut_when_the_table_closes(table_one, dealer_dana, pit_boss_pat):
    def open_and_link():
        table = open_for_play(table_one, dealer_dana, pit_boss_pat)
        return player_session(issue_box_link(table, 1, dealer_dana))

    key = await database_sync_to_async(open_and_link)()
    socket = WebsocketCommunicator(application, "/ws/player/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", f"sessionid={key}".encode())])
    connected, _ = await socket.connect()
    assert connected
    assert "THB-1" in await socket.receive_from(timeout=5)

    await database_sync_to_async(close_table)(await database_sync_to_async(Table.objects.get)(pk=table_one.pk),
                                              dealer_dana, pit_boss_pat)
    # The closing's request shows as "waiting to close"; its confirmation says goodbye and shuts the socket.
    messages = []
    while (message := await socket.receive_output(timeout=5))["type"] == "websocket.send":
        messages.append(message["text"])
    assert message == {"type": "websocket.close", "code": CLOSE_REVOKED}
    assert "THB-1" not in messages[-1] and 'id="player-view"' in messages[-1]
