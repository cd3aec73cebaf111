"""The clock called on a player at a dealt table (issue #15; C-04, C-05, CC-114/115, TDA-29): the house's
seconds and countdown, the outcome the engine applies when they run out, and a player who acts in time."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import simulated_time
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def later(seconds: int):
    return simulated_time(timezone.now() + timedelta(seconds=seconds))


def to_the_flop(table, dealer):
    """Everyone calls the big blind, the big blind checks, the flop is dealt: the first to act faces no bet."""
    at(table, dealing.start_hand, dealer)
    while (legal := hand_reads.hand_state(hand_in_play(table)).legal()) is not None:
        at(table, dealing.act, dealer, record={"action": "check" if legal.check else "call", "seat": legal.seat})
    at(table, dealing.act, dealer, record={"action": "deal-flop", "cards": ["2c", "7d", "9h"]})


def test_a_called_clock_gives_the_house_seconds_and_facing_a_bet_the_hand_is_dead_C_04_C_05(
    first_table, dealer_dana_here
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)  # facing the big blind
    at(first_table, dealing.call_clock, dealer_dana_here)
    clock = hand_in_play(first_table).level["clock"]
    assert (clock["seat"], clock["seconds"], clock["countdown"]) == (seat, 30, 10)  # CC-115, the house's default
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.clock_ran_out, dealer_dana_here)  # not yet
    assert refused.value.clause == "C-04"
    with later(31):
        at(first_table, dealing.clock_ran_out, dealer_dana_here)
    engine = hand_reads.hand_state(hand_in_play(first_table))
    assert engine.folded[engine.seats.index(seat)] and "clock" not in hand_in_play(first_table).level
    assert AuditEvent.objects.get(action="tournament.table_clock_ran_out").details["record"]["action"] == "fold"


@pytest.mark.parametrize(("expiry", "outcome"), [("dead", "fold"), ("check", "check")])
def test_not_facing_a_bet_the_hand_is_dead_by_the_house_or_checks_by_the_tda_C_05(
    first_table, dealer_dana_here, event_in_play, director_dora, expiry, outcome
):
    act(services.change_setup, event_in_play, director_dora, reason="the house's clock",
        options={"clock_expiry_unfaced": expiry, "clock_seconds": 30, "clock_countdown_seconds": 5})
    to_the_flop(first_table, dealer_dana_here)
    seat = to_act(first_table)
    at(first_table, dealing.call_clock, director_dora)
    assert hand_in_play(first_table).level["clock"]["countdown"] == 5  # TDA-29: 25 seconds, then 5 counted
    with later(31):
        at(first_table, dealing.clock_ran_out, dealer_dana_here)
    last = [r.record for r in hand_reads.effective_rows(hand_in_play(first_table))][-1]
    assert last == {"action": outcome, "seat": seat}


def test_a_player_who_acts_in_time_stops_the_clock(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.call_clock, dealer_dana_here)
    with pytest.raises(RuleViolation, match="already running"):
        at(first_table, dealing.call_clock, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    assert "clock" not in hand_in_play(first_table).level
    with later(60), pytest.raises(RuleViolation, match="No clock"):
        at(first_table, dealing.clock_ran_out, dealer_dana_here)


def test_the_tablet_calls_the_clock_and_shows_its_countdown(client, first_table, dealer_dana_here, event_in_play):
    client.force_login(dealer_dana_here)
    at(first_table, dealing.start_hand, dealer_dana_here)
    first_table.refresh_from_db()
    url = f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/call-clock/"
    response = client.post(url, {"version": first_table.version, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="en")
    body = response.content.decode()
    assert response.status_code == 200 and "data-clock-ends" in body and 'data-countdown="10"' in body
    assert 'data-action="clock-ran-out"' in body


def test_the_director_calls_the_clock_from_the_console_C_04(client, first_table, dealer_dana_here, director_dora,
                                                            event_in_play):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    client.force_login(director_dora)
    console = client.get(f"/tournaments/{event_in_play.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Call the clock on seat {seat} (C-04)" in console
    event_in_play.refresh_from_db()
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/call-clock/",
                         {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number},
                         HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and f"Clock called on seat {seat}" in answer.content.decode()
    assert hand_in_play(first_table).level["clock"]["seat"] == seat
    assert AuditEvent.objects.filter(action="tournament.table_clock_called", actor=director_dora).exists()
