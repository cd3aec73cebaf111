"""The event's end (issue #36 item 8; TDA-23, CC-14): "Record the final results" with one player left stops the
clock for good, and the console, the room's display and the phones show the final standings; the winner is
shown as the winner, not as "Seated"."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone, translation

from casino.rules.tournament import clock
from casino.rules.tournament.structure import Structure
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.rendering import clock as clock_screen
from tournaments.rendering import phone as phone_screen

pytestmark = pytest.mark.django_db(transaction=True)


def state(t):
    t.refresh_from_db()
    return event_reads.tournament_state(t)


@pytest.fixture
def one_player_left(event_in_play, director_dora, floor_fede):
    """The four players of ``event_in_play``: three bust, entry 4 is the last one standing."""
    act(services.close_registration, event_in_play, director_dora)
    for number in (1, 2, 3):
        e = state(event_in_play).entry(number)
        act(services.record_bust, event_in_play, floor_fede, table=e.table, seat=e.seat, hand=number)
    assert state(event_in_play).players_left == 1
    return event_in_play


def reading(tournament):
    s = state(tournament)
    return clock.clock_at(Structure.from_dict(s.setup.structure), list(s.clock_events), timezone.now(),
                          hand_for_hand_seconds=s.setup.options.hand_for_hand_seconds)


def test_tda23_the_final_results_stop_the_clock_for_good(one_player_left, director_dora):
    assert reading(one_player_left).running
    act(services.record_results, one_player_left, director_dora)
    kinds = [(e["type"], e.get("kind")) for e in event_reads.tournament_record(one_player_left)[-3:]]
    assert kinds == [("results", None), ("clock", "finish"), ("finished", None)]
    assert reading(one_player_left).finished and not reading(one_player_left).running
    assert one_player_left.status == "finished"


def test_the_ranking_so_far_leaves_the_clock_running(event_in_play, director_dora):
    act(services.close_registration, event_in_play, director_dora)
    act(services.record_results, event_in_play, director_dora)
    assert reading(event_in_play).running


def test_the_console_shows_the_final_standings_and_no_clock_running(client, one_player_left, director_dora):
    act(services.record_results, one_player_left, director_dora)
    client.force_login(director_dora)
    page = client.get(f"/tournaments/{one_player_left.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    standings = page[page.index('data-role="final-standings"'):]
    standings = standings[:standings.index("</section>")]
    rows = standings.split('<tr data-entry="')[1:]
    assert [row.split('"')[0] for row in rows] == ["4", "3", "2", "1"]  # place 1 first
    assert "Tina Toledo" not in standings and "Sergio Sosa" in rows[0]
    assert "data-countdown-to" not in page[:page.index('data-role="final-standings"')]
    assert "The tournament is over" in page


def test_the_winner_reads_as_the_winner_on_the_desk_list_and_the_entry_page(client, one_player_left, director_dora):
    act(services.record_results, one_player_left, director_dora)
    client.force_login(director_dora)
    entry = client.get(f"/tournaments/{one_player_left.pk}/entries/4/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Winner" in entry.content.decode() and "Seated" not in entry.content.decode()


def test_the_rooms_display_and_the_phones_show_the_final_standings(one_player_left, director_dora):
    act(services.record_results, one_player_left, director_dora)
    board = event_reads.board_at(one_player_left)
    tv = clock_screen.clock_display_fragment(board)
    assert 'data-state="finished"' in tv and 'data-role="final-standings"' in tv and 'data-place="1"' in tv
    assert "data-countdown-to" not in tv
    assert "Sergio Sosa" not in tv  # the room's display names no one
    with translation.override("en"):  # the phone is drawn in its viewer's language
        phone = phone_screen.phone_view(board, 4)
    assert "You won the tournament!" in phone and 'data-role="final-standings"' in phone
    assert 'data-role="final-standings"' in phone_screen.phone_view(board, 2)


def test_no_key_reuse_needed_the_end_is_one_write(one_player_left, director_dora):
    one_player_left.refresh_from_db()
    before = one_player_left.version
    services.record_results(tournament=one_player_left, by=director_dora, key=uuid.uuid4().hex,
                            expected_version=before)
    one_player_left.refresh_from_db()
    assert one_player_left.version == before + 1
