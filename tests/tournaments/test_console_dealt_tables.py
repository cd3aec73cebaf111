"""The director's console and the dealers' tablets (issue #15): every dealt table's hand live (its
stage, pot, who is all-in, the stacks), and the director's hand-for-hand releases."""

from __future__ import annotations

import uuid

import pytest

from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, to_act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def console(client, tournament) -> str:
    return client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_console_shows_each_dealt_tables_hand_as_it_is_played(client, event_in_play, first_table, dealer_dana_here,
                                                                  director_dora):
    client.force_login(director_dora)
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": to_act(first_table)})
    page = console(client, event_in_play)
    row = page[page.index(f'data-dealt-table="{first_table.number}"'):]
    row = row[:row.index("</tr>")]
    assert "Hand 1" in row and "preflop" in row and "10,075" in row  # the pot: 10,000 all-in and the blinds
    assert "All-in" in row


def test_in_hand_for_hand_the_console_releases_the_next_deal_and_a_held_board_RP_08_F(
    client, two_tables_in_play, two_dealt_tables, dealer_dana_here, director_dora
):
    # two tables: the other one's hand of the deal still runs, so the board is held (issue #36)
    event_in_play, first_table = two_tables_in_play, two_dealt_tables[0]
    client.force_login(director_dora)
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    event_in_play.refresh_from_db()
    page = console(client, event_in_play)
    assert 'data-action="hand-for-hand-deal"' in page
    response = client.post(f"/tournaments/{event_in_play.pk}/act/hand-for-hand-deal/",
                           {"version": event_in_play.version, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    page = console(client, event_in_play)
    assert 'data-action="release-board"' in page
    event_in_play.refresh_from_db()
    response = client.post(f"/tournaments/{event_in_play.pk}/act/release-board/",
                           {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="tournament-console"' in response.content.decode()
    assert hand_reads.latest_hand(first_table).level["board_released"] is True


def test_once_hand_for_hand_ends_no_table_is_shown_waiting_for_a_deal(client, two_tables_in_play, two_dealt_tables,
                                                                     dealer_dana_here, director_dora):
    event_in_play, first_table = two_tables_in_play, two_dealt_tables[0]
    client.force_login(director_dora)
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_hand")
    at(first_table, dealing.start_hand, dealer_dana_here)
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    assert "Waits for the next deal" in console(client, event_in_play)
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_off")  # the table unchanged
    assert "Waits for the next deal" not in console(client, event_in_play)


def test_at_one_table_the_console_says_hand_for_hand_is_not_needed_CC_11(client, event_in_play, first_table,
                                                                         director_dora):
    client.force_login(director_dora)
    event_in_play.refresh_from_db()
    response = client.post(f"/tournaments/{event_in_play.pk}/act/hand-for-hand/",
                           {"version": event_in_play.version, "key": uuid.uuid4().hex, "on": "1"},
                           HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422 and "CC-11" in response.content.decode()
    assert not event_reads.tournament_state(event_in_play).hand_for_hand
