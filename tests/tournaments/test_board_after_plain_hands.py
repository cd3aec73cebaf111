"""Issue #37: a process's board goes on from its newest one after plain hands' ends (``reads.event.read_board``),
without reading the whole record and field again at every table's hand, and it is the board a full read makes."""

from __future__ import annotations

import pytest

from casino.memo import clear_all
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Tournament
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db


def board_now(t) -> event_reads.Board:
    return event_reads.board_at(Tournament.objects.get(pk=t.pk))


def board_read_afresh(t) -> event_reads.Board:
    clear_all()  # as another process, which reads the whole record
    return event_reads.read_board(Tournament.objects.get(pk=t.pk))


def hand(t, floor, *, start, end, busts=(), penalised=()):
    (table,) = event_reads.tournament_state(t).tables
    (s1, _e1), (s2, _e2) = table.players[:2]
    act(services.report_hand, t, floor, table=table.table, hand=1, button=s1, small_blind_seat=s1,
        big_blind_seat=s2, stacks_at_start={s1: start[0], s2: start[1]}, stacks_at_end={s1: end[0], s2: end[1]},
        busts=[s1] if busts else [], penalised=[s1] if penalised else [])
    return s1


def test_cc19_after_a_plain_hand_the_board_goes_on_from_the_last_and_equals_a_full_read(event_in_play, floor_fede):
    before = board_now(event_in_play)
    hand(event_in_play, floor_fede, start=(10_000, 10_000), end=(9_000, 11_000))
    after = board_now(event_in_play)
    assert after.version > before.version
    assert after.seats is before.seats and after.moves is before.moves  # gone on, not read again
    assert after.read_to == before.read_to + 1
    assert after == board_read_afresh(event_in_play)


def test_cc18_a_bust_is_read_in_full_the_player_leaves_the_board(event_in_play, floor_fede):
    before = board_now(event_in_play)
    busted_seat = hand(event_in_play, floor_fede, start=(10_000, 10_000), end=(0, 20_000), busts=True)
    after = board_now(event_in_play)
    assert after.players_left == before.players_left - 1
    assert len(after.leaving) == len(before.leaving) + 1
    assert after.seats is not before.seats and len(after.seats) == len(before.seats) - 1
    assert busted_seat not in {s.seat for s in after.seats.values()}
    assert after == board_read_afresh(event_in_play)


def test_tda71d_a_hand_that_served_a_penalty_is_read_in_full(event_in_play, floor_fede, director_dora):
    (table,) = event_reads.tournament_state(event_in_play).tables
    (_s1, offender), _ = table.players[:2]
    act(services.give_penalty, event_in_play, floor_fede, entry=offender, kind="hands", count=2,
        infraction="other", reason="abusive language")
    before = board_now(event_in_play)
    assert before.penalties == {offender: 2}
    hand(event_in_play, floor_fede, start=(10_000, 10_000), end=(10_000, 10_000), penalised=True)
    after = board_now(event_in_play)
    assert after.penalties == {offender: 1}
    assert after == board_read_afresh(event_in_play)
