"""A player moves, busts or is recounted between hands, never in one (TDA-11), issue #34 item 1: the floor's
manual forms no longer wedge a table whose hand is dealt from its tablet, and a confirmation of the plan
corrected takes its moves back with it (the record replayed stays consistent).

The dealt tables need PostgreSQL (as tests/tournaments/test_dealing.py); the corrections run anywhere.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.urls import reverse

from casino.rules.errors import RuleViolation
from casino.rules.tournament import record
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import TournamentEvent
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def _state(tournament):
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


def _at(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _to_act(table):
    return hand_reads.hand_state(hand_reads.latest_hand(table)).to_act


def _play_to_the_award(table, dealer):
    while _to_act(table) is not None:
        _at(table, dealing.act, dealer, record={"action": "fold", "seat": _to_act(table)})
    return _at(table, dealing.act, dealer, record={"action": "award-pots"})


def _consistent(tournament) -> record.TournamentState:
    """The record replayed from its events alone: every player in play sits at one seat, no seat twice, the
    tables' players and the entries agree. Gives the replayed state."""
    replayed = record.replay(event_reads.tournament_record(tournament))
    seats = [(e.table, e.seat) for e in replayed.in_play]
    assert None not in {t for t, _s in seats} and len(seats) == len(set(seats))
    at_tables = {(t.table, s): n for t in replayed.tables for s, n in t.players}
    assert at_tables == {(e.table, e.seat): e.entry for e in replayed.in_play}
    return replayed


@pytest.fixture
def full_two_tables(director_dora, floor_fede):
    """Eighteen players at two 9-seat tables, 5,000 chips each, the clock running, no hand dealt yet."""
    tournament, _ = services.create_tournament(
        by=director_dora, key=uuid.uuid4().hex, name="Jueves", starts_at=datetime(2026, 12, 3, 20, tzinfo=UTC),
        buy_in=50, starting_stack=5000, seats_per_table=9)
    act(services.open_registration, tournament, director_dora)
    for i in range(1, 19):
        act(services.register, tournament, floor_fede, name=f"Jugador {i}", id_type="dni",
            id_number=f"33.000.{i:03d}", birth_date=date(1980, 1, i))
    act(services.start_tournament, tournament, director_dora)
    act(services.clock_command, tournament, director_dora, kind="start")
    tournament.refresh_from_db()
    return tournament


def _two_busts_at_the_first_table(tournament, floor_fede) -> tuple[int, int]:
    """Two players bust at the first table (the floor's form): the plan moves one from the second to it.
    Gives (the first table, the second)."""
    first, second = (t.table for t in _state(tournament).tables)
    for seat in [s for s, _n in _state(tournament).table(first).players][:2]:
        act(services.record_bust, tournament, floor_fede, table=first, seat=seat)
    plan = _state(tournament).pending_plan[1]
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(second, first)]
    return first, second


def _a_confirmed_move(tournament, floor_fede):
    """Two busts at the first table, and the floor confirms the plan that fills it: (the plan's seq, its move,
    the confirmation's seq, the second table)."""
    _first, second = _two_busts_at_the_first_table(tournament, floor_fede)
    state = _state(tournament)
    proposed, move = state.pending_plan[0], state.pending_plan[1].moves[0]
    act(services.confirm_plan, tournament, floor_fede, proposed=proposed)
    confirmation = TournamentEvent.objects.get(tournament=tournament, type="plan_confirmed").seq
    return proposed, move, confirmation, second


# --- A hand in play at the table a move leaves (the scenario) ---------------------------------------


def test_a_plan_moving_a_player_out_of_a_hand_in_play_waits_for_its_end_and_the_award_goes_through_TDA_11(
    full_two_tables, director_dora, floor_fede, dealer_dana_here
):
    tournament = full_two_tables
    first, second = (t.table for t in _state(tournament).tables)
    dealt = hand_reads.dealt_table(tournament, second)
    dealing.assign_dealer(table=dealt, by=floor_fede, key=uuid.uuid4().hex, expected_version=dealt.version,
                          dealer=dealer_dana_here)
    _at(dealt, dealing.start_hand, dealer_dana_here)
    _two_busts_at_the_first_table(tournament, floor_fede)
    state = _state(tournament)
    proposed, move = state.pending_plan[0], state.pending_plan[1].moves[0]
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(floor_fede)

    console = client.get(reverse("tournaments:console", args=[tournament.pk])).content.decode()
    assert f"Table {second} has a hand in play: confirm the moves when it ends." in console
    refused = client.post(reverse("tournaments:act", args=[tournament.pk, "confirm-plan"]),
                          {"version": str(tournament.version), "key": uuid.uuid4().hex, "proposed": str(proposed)},
                          HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    assert "has a hand in play" in refused.content.decode() and "TDA-11" in refused.content.decode()
    assert not TournamentEvent.objects.filter(tournament=tournament, type="plan_confirmed").exists()
    assert _state(tournament).entry(move.entry).table == second  # he plays the hand out

    _play_to_the_award(dealt, dealer_dana_here)  # the hand ends: its award is taken (it was refused, TDA-07)
    hand = hand_reads.latest_hand(dealt)
    assert hand.phase == "complete" and hand.reported_seq is not None
    console = client.get(reverse("tournaments:console", args=[tournament.pk])).content.decode()
    assert "has a hand in play: confirm the moves" not in console

    tournament.refresh_from_db()
    confirmed = client.post(reverse("tournaments:act", args=[tournament.pk, "confirm-plan"]),
                            {"version": str(tournament.version), "key": uuid.uuid4().hex, "proposed": str(proposed)},
                            HTTP_HX_REQUEST="true")
    assert confirmed.status_code == 200
    moved = _state(tournament).entry(move.entry)
    assert (moved.table, moved.seat) == (move.to_table, move.to_seat)
    assert _consistent(tournament).chips_in_play == 16 * 5000


def test_the_floor_may_not_bust_a_player_in_a_hand_in_play_and_his_chips_stay_in_play_TDA_11(
    event_in_play, first_table, dealer_dana_here, floor_fede
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    before = _state(event_in_play)
    seat, entry = before.table(first_table.number).players[0]
    with pytest.raises(RuleViolation) as refused:
        act(services.record_bust, event_in_play, floor_fede, table=first_table.number, seat=seat)
    assert refused.value.clause == "TDA-11"
    after = _state(event_in_play)
    assert after.chips_in_play == before.chips_in_play == 40_000
    assert after.entry(entry).status == "seated"
    assert not TournamentEvent.objects.filter(tournament=event_in_play, type="bust").exists()


def test_between_hands_a_tablet_tables_busts_come_from_its_hands_not_the_floors_form_CC_43(
    event_in_play, first_table, dealer_dana_here, floor_fede
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    _play_to_the_award(first_table, dealer_dana_here)
    seat, entry = _state(event_in_play).table(first_table.number).players[0]
    with pytest.raises(RuleViolation) as refused:
        act(services.record_bust, event_in_play, floor_fede, table=first_table.number, seat=seat)
    assert refused.value.clause == "CC-43"
    assert _state(event_in_play).entry(entry).status == "seated"
    assert _state(event_in_play).chips_in_play == 40_000


def test_a_chip_count_in_a_hand_in_play_is_refused_and_taken_once_it_ends_TDA_11(
    event_in_play, first_table, dealer_dana_here, floor_fede
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    seat, entry = _state(event_in_play).table(first_table.number).players[0]
    with pytest.raises(RuleViolation) as refused:
        act(services.enter_chip_count, event_in_play, floor_fede, counts={entry: 12_345})
    assert refused.value.clause == "TDA-11"
    assert not TournamentEvent.objects.filter(tournament=event_in_play, type="chip_count").exists()
    _play_to_the_award(first_table, dealer_dana_here)
    after_hand = _state(event_in_play).entry(entry).stack
    act(services.enter_chip_count, event_in_play, floor_fede, counts={entry: after_hand - 100})
    assert _state(event_in_play).entry(entry).stack == after_hand - 100


def test_a_seat_is_not_corrected_in_a_hand_in_play_TDA_11(event_in_play, first_table, dealer_dana_here, floor_fede):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    state = _state(event_in_play)
    seat, entry = state.table(first_table.number).players[0]
    empty = next(s for s in range(1, 10) if s not in dict(state.table(first_table.number).players))
    with pytest.raises(RuleViolation) as refused:
        act(services.correct_seat, event_in_play, floor_fede, entry=entry, table=first_table.number, seat=empty,
            reason="sat at the wrong seat")
    assert refused.value.clause == "TDA-11"
    assert _state(event_in_play).entry(entry).seat == seat


def test_a_correction_that_unseats_a_player_of_the_hand_in_play_waits_for_its_end_TDA_11(
    event_in_play, first_table, dealer_dana_here, floor_fede
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    seat, entry = _state(event_in_play).table(first_table.number).players[0]
    drawn = TournamentEvent.objects.get(tournament=event_in_play, type="seated", data__entry=entry).seq
    with pytest.raises(RuleViolation) as refused:
        act(services.correct, event_in_play, floor_fede, seq=drawn, reason="drawn twice")
    assert refused.value.clause == "TDA-11"
    assert not TournamentEvent.objects.filter(tournament=event_in_play, type="correction").exists()
    _play_to_the_award(first_table, dealer_dana_here)
    assert hand_reads.latest_hand(first_table).reported_seq is not None  # the award found every seat


def test_a_disqualification_in_a_hand_in_play_waits_for_its_end_TDA_11(
    event_in_play, first_table, dealer_dana_here, director_dora
):
    _at(first_table, dealing.start_hand, dealer_dana_here)
    _seat, entry = _state(event_in_play).table(first_table.number).players[0]
    with pytest.raises(RuleViolation) as refused:
        act(services.disqualify, event_in_play, director_dora, entry=entry, reason="abuse of the dealer")
    assert refused.value.clause == "TDA-11"
    assert _state(event_in_play).entry(entry).status == "seated"
    _play_to_the_award(first_table, dealer_dana_here)
    act(services.disqualify, event_in_play, director_dora, entry=entry, reason="abuse of the dealer")
    assert _state(event_in_play).entry(entry).status == "disqualified"


def _disqualified(tournament, entry, director, _floor):
    act(services.disqualify, tournament, director, entry=entry, reason="abuse of the dealer")


def _recounted(tournament, entry, _director, floor):
    act(services.enter_chip_count, tournament, floor, counts={entry: _state(tournament).entry(entry).stack - 100})


@pytest.mark.parametrize("between_hands", [_disqualified, _recounted], ids=["disqualification", "chip count"])
def test_an_award_is_not_undone_once_the_floor_changed_its_table_between_hands_TDA_11(
    between_hands, event_in_play, first_table, dealer_dana_here, director_dora, floor_fede
):
    # The fuzz run's wedge (seed 34): the award undone after a disqualification at the table put the hand
    # back in play with its seat empty, and every award-pots was refused (TDA-07) from then on.
    _at(first_table, dealing.start_hand, dealer_dana_here)
    _play_to_the_award(first_table, dealer_dana_here)
    hand = hand_reads.latest_hand(first_table)
    seat, entry = _state(event_in_play).table(first_table.number).players[0]
    between_hands(event_in_play, entry, director_dora, floor_fede)
    recorded = TournamentEvent.objects.filter(tournament=event_in_play).count()
    with pytest.raises(RuleViolation) as refused:
        _at(first_table, dealing.undo_last, dealer_dana_here, reason="pushed the pot to the wrong seat")
    assert refused.value.clause == "TDA-11"
    assert TournamentEvent.objects.filter(tournament=event_in_play).count() == recorded
    hand.refresh_from_db()
    assert hand.phase == "complete" and hand.reported_seq is not None  # the hand stands in the record
    _consistent(event_in_play)
    _at(first_table, dealing.start_hand, dealer_dana_here)  # the table is not wedged: the next hand is dealt
    dealt = hand_reads.latest_hand(first_table)
    assert dealt.number == hand.number + 1
    assert (dealt.entries.get(str(seat)) == entry) == (between_hands is _recounted)


def test_a_disqualification_while_the_deal_starts_at_his_table_waits_for_the_hand_TDA_11(
    event_in_play, first_table, dealer_dana_here, director_dora, monkeypatch
):
    # The deal reads the seats before it commits its hand: a disqualification committed in between emptied a
    # seat of the hand, and its award was refused (TDA-07) from then on.
    read_the_seats = event_reads.tournament_state
    _seat, entry = _state(event_in_play).table(first_table.number).players[0]
    outcome: dict[str, object] = {}

    def disqualify_from_the_console() -> None:
        try:
            outcome["result"] = act(services.disqualify, event_in_play, director_dora, entry=entry,
                                    reason="abuse of the dealer")
        except Exception as error:  # noqa: BLE001 - the test reports what the console got
            outcome["result"] = error
        finally:
            connections.close_all()

    def the_director_acts_meanwhile(tournament):
        seats = read_the_seats(tournament)
        console = threading.Thread(target=disqualify_from_the_console)
        console.start()
        console.join(30)
        return seats

    monkeypatch.setattr(event_reads, "tournament_state", the_director_acts_meanwhile)
    _at(first_table, dealing.start_hand, dealer_dana_here)
    monkeypatch.setattr(event_reads, "tournament_state", read_the_seats)
    refused = outcome["result"]
    assert isinstance(refused, RuleViolation) and refused.clause == "TDA-11", refused
    assert _state(event_in_play).entry(entry).status == "seated"
    _play_to_the_award(first_table, dealer_dana_here)
    assert hand_reads.latest_hand(first_table).reported_seq is not None  # the award found every seat


# --- A confirmation corrected, and its correction corrected ------------------------------------------------


def _effective_moves(tournament, entry: int, proposed: int) -> int:
    return sum(1 for e in record.effective_events(event_reads.tournament_record(tournament))
               if e["type"] == "seated" and e.get("plan") == proposed and e["entry"] == entry)


def test_a_confirmation_corrected_takes_its_moves_back_and_confirming_again_moves_once(
    full_two_tables, floor_fede
):
    tournament = full_two_tables
    proposed, move, confirmation, second = _a_confirmed_move(tournament, floor_fede)

    act(services.correct, tournament, floor_fede, seq=confirmation, reason="the player had not moved yet")
    back = _consistent(tournament)
    assert (back.entry(move.entry).table, back.entry(move.entry).seat) == (move.from_table, move.from_seat)
    assert back.pending_plan is not None and back.pending_plan[0] == proposed  # to confirm again
    assert _effective_moves(tournament, move.entry, proposed) == 0

    act(services.confirm_plan, tournament, floor_fede, proposed=proposed)
    again = _consistent(tournament)
    assert (again.entry(move.entry).table, again.entry(move.entry).seat) == (move.to_table, move.to_seat)
    assert _effective_moves(tournament, move.entry, proposed) == 1
    assert again.chips_in_play == 16 * 5000
    assert Counter(e.table for e in again.in_play) == Counter({move.to_table: 8, second: 8})


def test_a_correction_of_a_confirmations_correction_brings_its_moves_back_unless_confirmed_again_CC_04(
    full_two_tables, floor_fede, director_dora
):
    tournament = full_two_tables
    proposed, move, confirmation, _second = _a_confirmed_move(tournament, floor_fede)
    act(services.correct, tournament, floor_fede, seq=confirmation, reason="not moved yet")
    undoing = TournamentEvent.objects.filter(tournament=tournament, type="correction").latest("seq").seq

    # The director takes the correction back: the confirmation stands again, with its moves, once.
    act(services.correct, tournament, director_dora, seq=undoing, reason="he had moved after all")
    restored = _consistent(tournament)
    assert (restored.entry(move.entry).table, restored.entry(move.entry).seat) == (move.to_table, move.to_seat)
    assert _effective_moves(tournament, move.entry, proposed) == 1
    assert restored.pending_plan is None and restored.chips_in_play == 16 * 5000

    # Corrected again and confirmed again: bringing the first confirmation back would move him twice.
    act(services.correct, tournament, floor_fede, seq=confirmation, reason="not moved yet, really")
    act(services.confirm_plan, tournament, floor_fede, proposed=proposed)
    second_undoing = TournamentEvent.objects.filter(tournament=tournament, type="correction").latest("seq").seq
    events = TournamentEvent.objects.filter(tournament=tournament).count()
    with pytest.raises(RuleViolation) as refused:
        act(services.correct, tournament, director_dora, seq=second_undoing, reason="back again")
    assert refused.value.clause == "CC-04"
    assert TournamentEvent.objects.filter(tournament=tournament).count() == events
    assert _effective_moves(tournament, move.entry, proposed) == 1
    _consistent(tournament)


def test_a_confirmation_is_not_corrected_once_a_later_event_rests_on_its_moves_CC_04(full_two_tables, floor_fede):
    tournament = full_two_tables
    proposed, move, confirmation, _second = _a_confirmed_move(tournament, floor_fede)
    act(services.enter_chip_count, tournament, floor_fede, counts={move.entry: 5200})  # at his new table
    with pytest.raises(RuleViolation) as refused:
        act(services.correct, tournament, floor_fede, seq=confirmation, reason="not moved yet")
    assert refused.value.clause == "CC-04"
    assert _state(tournament).entry(move.entry).table == move.to_table
