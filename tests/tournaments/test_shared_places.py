"""Players out at different tables in the same hand-for-hand hand share their places (RP-08-A, CC-21; issue #38
item 11), through the services the floor and the tablets use: each table reports its own hand, at its own
moment, and only the hand-for-hand hand they were dealt in ties the busts together."""

from __future__ import annotations

import pytest

from casino.rules.tournament.record import compute_results
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db


def _hand_with_a_bust(tournament, floor, table: int, hand: int) -> int:
    """Table ``table`` reports a hand in which its lowest seat loses every chip to the next one; the entry out."""
    seats = event_reads.tournament_state(tournament).table(table).players
    (loser_seat, loser), (winner_seat, _winner) = seats[0], seats[1]
    stacks = {seat: event_reads.tournament_state(tournament).entry(entry).stack for seat, entry in seats}
    ends = {**stacks, loser_seat: 0, winner_seat: stacks[winner_seat] + stacks[loser_seat]}
    first, second = sorted(stacks)[:2]
    act(services.report_hand, tournament, floor, table=table, hand=hand, button=seats[-1][0],
        small_blind_seat=first, big_blind_seat=second, stacks_at_start=stacks, stacks_at_end=ends,
        busts=[loser_seat])
    return loser


def ranking(tournament) -> list[tuple[tuple[int, ...], set[int]]]:
    return [(r.places, set(r.entries)) for r in compute_results(event_reads.tournament_state(tournament))]


def test_players_out_at_different_tables_in_the_same_hand_for_hand_hand_share_their_places_RP_08_A(
        two_tables_in_play, director_dora, floor_fede):
    running = two_tables_in_play  # ten players at two tables
    act(services.clock_command, running, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, running, floor_fede, kind="hand_for_hand_hand")
    first = _hand_with_a_bust(running, floor_fede, table=1, hand=7)
    second = _hand_with_a_bust(running, floor_fede, table=2, hand=9)  # reported later, at another moment
    busts = [e for e in event_reads.tournament_record(running) if e["type"] == "bust"]
    assert [b["hand_for_hand_hand"] for b in busts] == [1, 1] and busts[0]["at"] != busts[1]["at"]
    assert ranking(running) == [((9, 10), {first, second})]
    # the next hand-for-hand hand is a hand of its own: its bust takes the place above, alone
    act(services.clock_command, running, floor_fede, kind="hand_for_hand_hand")
    third = _hand_with_a_bust(running, floor_fede, table=1, hand=8)
    assert ranking(running) == [((8,), {third}), ((9, 10), {first, second})]


def test_without_hand_for_hand_busts_at_two_tables_at_different_moments_keep_their_order_CC_18(
        two_tables_in_play, floor_fede):
    running = two_tables_in_play
    first = _hand_with_a_bust(running, floor_fede, table=1, hand=7)
    second = _hand_with_a_bust(running, floor_fede, table=2, hand=9)
    assert ranking(running) == [((9,), {second}), ((10,), {first})]
