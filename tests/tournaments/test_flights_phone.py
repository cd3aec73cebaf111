"""A bagged player's phone (issue #37 item 3's leftovers, CC-08..CC-10, docs/tournaments.md "Flights"): at the day's
end it shows that his chips are bagged, his count and his receipt's code (CC-09), when he plays next (the Final
Stage's day, from the level after qualifying ended once that is known, CC-08), then his seat at the redraw with the
receipt to show at check-in (CC-10), and nothing of it once he checked in. Only his own figures: never another
entry's count or receipt (C-33)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments.conftest import act, register, register_numbered
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.rendering.phone import phone_view
from tournaments.services import flights as flight_services

pytestmark = pytest.mark.django_db(transaction=True)


def board_of(tournament):
    tournament.refresh_from_db()
    return event_reads.board_at(tournament)


def state_of(tournament):
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


@pytest.fixture
def series_drawn(registering, director_dora, floor_fede):
    act(flight_services.set_series, registering, director_dora, series=2, end_level=1, qualifiers=2)
    for i in range(5):
        register(registering, floor_fede, i)
    for number in range(6, 9):
        register_numbered(registering, floor_fede, number)
    act(flight_services.draw_series, registering, director_dora)
    return registering


def bag_series(tournament, director, floor, series: int) -> dict[int, int]:
    """The series played to its last level and bagged, each player counted at a different figure."""
    act(flight_services.start_series, tournament, director, series=series)
    act(services.clock_command, tournament, director, kind="start")
    act(services.clock_command, tournament, director, kind="skip", step=1)
    s = state_of(tournament)
    counts = {e.entry: 10_000 + 25 * e.entry for e in s.entries if e.status == "seated"}
    act(flight_services.end_day, tournament, floor, floor_counts=counts)
    return counts


def test_a_bagged_players_phone_shows_his_count_his_receipt_and_the_day_he_plays_next_CC_09(
        series_drawn, director_dora, floor_fede):
    counts = bag_series(series_drawn, director_dora, floor_fede, 1)
    q = state_of(series_drawn).qualifying
    board = board_of(series_drawn)
    mine, other = sorted(counts)[:2]
    bag = board.bags[mine]
    assert (bag.chips, bag.receipt, bag.next_day, bag.seated) == (counts[mine], q.bag_of(mine).receipt, 2, False)
    assert bag.next_level is None  # series 2 still plays: the Final Stage's level is not known yet (CC-08)
    with translation.override("en"):
        html = phone_view(board, mine)
    assert 'data-role="bagged"' in html and "Your chips are bagged" in html
    assert q.bag_of(mine).receipt in html and f"{counts[mine]:,}" in html
    assert "You play next on day 2, the Final Stage, once every qualifying series has ended." in html
    assert 'data-role="no-seat"' not in html


def test_a_phone_never_shows_another_entrys_count_or_receipt_C_33(series_drawn, director_dora, floor_fede):
    counts = bag_series(series_drawn, director_dora, floor_fede, 1)
    q = state_of(series_drawn).qualifying
    board = board_of(series_drawn)
    mine, *others = sorted(counts)
    html = phone_view(board, mine)
    for entry in others:
        assert q.bag_of(entry).receipt not in html
        assert f"{counts[entry]:,}".replace(",", ".") not in html and f"{counts[entry]:,}" not in html
    waiting = next(e.entry for e in state_of(series_drawn).entries if e.status == "registered")
    assert waiting not in board.bags  # a player of the series still to play has no bag
    assert 'data-role="bagged"' not in phone_view(board, waiting)


def test_once_qualifying_is_over_the_phone_says_the_level_the_final_stage_starts_at_CC_08(
        series_drawn, director_dora, floor_fede):
    counts = bag_series(series_drawn, director_dora, floor_fede, 1)
    bag_series(series_drawn, director_dora, floor_fede, 2)
    board = board_of(series_drawn)
    mine = min(counts)
    assert board.bags[mine].next_level == 2  # qualifying ended at level 1
    with translation.override("en"):
        assert "You play next on day 2, the Final Stage, from level 2." in phone_view(board, mine)


def test_at_the_redraw_the_phone_shows_his_seat_and_his_receipt_until_he_checks_in_CC_10_CC_09(
        series_drawn, director_dora, floor_fede):
    counts = bag_series(series_drawn, director_dora, floor_fede, 1)
    bag_series(series_drawn, director_dora, floor_fede, 2)
    act(services.close_registration, series_drawn, director_dora)
    act(flight_services.start_final_stage, series_drawn, director_dora)
    board = board_of(series_drawn)
    mine = min(counts)
    receipt = state_of(series_drawn).qualifying.bag_of(mine).receipt
    seat = board.seats[mine]
    assert board.bags[mine].seated and board.bags[mine].next_level == 2
    with translation.override("en"):
        html = phone_view(board, mine)
    assert 'data-role="check-in"' in html and receipt in html and 'data-role="bagged"' not in html
    assert f'data-role="table">{seat.table}<' in html and f'data-role="seat-number">{seat.seat}<' in html
    assert f"You start with your bagged {counts[mine]:,} chips" in html

    act(flight_services.check_in, series_drawn, floor_fede, entry=mine, receipt=receipt)
    board = board_of(series_drawn)
    assert mine not in board.bags
    html = phone_view(board, mine)
    assert receipt not in html and 'data-role="check-in"' not in html and 'data-role="seat"' in html


def test_cc05_the_average_stack_counts_only_the_players_holding_chips_not_those_of_a_series_still_to_play(
        series_drawn, director_dora, floor_fede):
    """The screens' average stack (phones, clock displays, console) while the qualifying series run: the players of
    a series still to play are in the event but hold no chips yet, and are not counted in it."""
    act(flight_services.start_series, series_drawn, director_dora, series=1)
    s = state_of(series_drawn)
    seated = [e for e in s.entries if e.status == "seated"]
    assert 0 < len(seated) < s.players_left  # series 2 still to play
    board = board_of(series_drawn)
    assert board.players_holding_chips == len(seated)
    assert board.average_stack == sum(e.stack for e in seated) // len(seated)
    counts = bag_series_started(series_drawn, director_dora, floor_fede)
    board = board_of(series_drawn)
    assert board.average_stack == sum(counts.values()) // len(counts)  # bagged players hold their chips


def bag_series_started(tournament, director, floor) -> dict[int, int]:
    act(services.clock_command, tournament, director, kind="start")
    act(services.clock_command, tournament, director, kind="skip", step=1)
    s = state_of(tournament)
    counts = {e.entry: 10_000 + 25 * e.entry for e in s.entries if e.status == "seated"}
    act(flight_services.end_day, tournament, floor, floor_counts=counts)
    return counts
