"""The time to act on the dealer's tablet (issue #38 item 4; CC-114, house option C-04): the seat in turn's
seconds, from the moment the action reached it as the hand's record says (so a reload or a second tablet
reads the same end), restarted for the next seat, none where the house follows TDA-29, and not the called
clock (CC-115), which replaces it while it runs."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from casino.writes import simulated_time
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import forms, services
from tournaments.forms import BadInput
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import tablet
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def timed_now(table):
    """The time to act the hand's record gives now, read afresh (as a reload or another tablet would)."""
    hand = hand_in_play(table)
    rows = hand_reads.effective_rows(hand)
    last = hand.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
    options = event_reads.tournament_state(table.tournament).setup.options
    return hand_reads.time_to_act(hand, hand_reads.hand_state(hand, rows), rows, last, options)


def seat_timers(table):
    """The seats whose row shows a time to act on the tablet, and the end each shows (epoch ms)."""
    table.refresh_from_db()
    html = tablet.tablet_fragment(table)
    return {int(seat): int(ends) for ends, seat in re.findall(r'data-act-ends="(\d+)" data-act-seat="(\d+)"', html)}


def ms(moment) -> int:
    return round(moment.timestamp() * 1000)


def test_the_seat_in_turn_has_sixty_seconds_from_the_deal_and_the_next_seat_from_the_act_before_CC_114(
    first_table, dealer_dana_here
):
    t0 = timezone.now().replace(microsecond=0) + timedelta(minutes=5)
    with simulated_time(t0):
        at(first_table, dealing.start_hand, dealer_dana_here)
    first = to_act(first_table)
    timed = timed_now(first_table)
    assert (timed.seat, timed.since, timed.ends_at) == (first, t0, t0 + timedelta(seconds=60))
    assert seat_timers(first_table) == {first: ms(t0 + timedelta(seconds=60))}
    with simulated_time(t0 + timedelta(seconds=25)):
        at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": first})
    second = to_act(first_table)
    assert second != first
    timed = timed_now(first_table)
    assert (timed.seat, timed.since) == (second, t0 + timedelta(seconds=25))  # restarted for the next seat
    assert seat_timers(first_table) == {second: ms(t0 + timedelta(seconds=85))}


def test_an_undone_act_gives_the_seat_its_time_again_from_the_undo_CC_114_CC_43(first_table, dealer_dana_here):
    t0 = timezone.now().replace(microsecond=0) + timedelta(minutes=5)
    with simulated_time(t0):
        at(first_table, dealing.start_hand, dealer_dana_here)
    first = to_act(first_table)
    with simulated_time(t0 + timedelta(seconds=10)):
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": first})
    with simulated_time(t0 + timedelta(seconds=40)):
        at(first_table, dealing.undo_last, dealer_dana_here, reason="wrong seat tapped")
    timed = timed_now(first_table)
    assert (timed.seat, timed.since) == (first, t0 + timedelta(seconds=40))
    assert seat_timers(first_table) == {first: ms(t0 + timedelta(seconds=100))}


class TwoMinutesLater:
    """The tablet's render two minutes after now (the hand was dealt now)."""

    @staticmethod
    def now():
        return timezone.now() + timedelta(minutes=2)


def test_a_time_to_act_that_ran_out_asks_the_dealer_for_the_clock_and_kills_nothing_CC_114_CC_115(
    first_table, dealer_dana_here, monkeypatch
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    monkeypatch.setattr(tablet, "timezone", TwoMinutesLater)
    first_table.refresh_from_db()
    view = tablet.tablet_context(first_table)
    assert view["time_to_act"]["seat"] == seat and view["time_to_act"]["left"] == 0
    html = tablet.tablet_fragment(first_table)
    prompt = re.search(r'<p class="notice act-time-up"[^>]*data-act-time-up="(\d+)"([^>]*)>', html)
    assert prompt and int(prompt.group(1)) == seat and "hidden" not in prompt.group(2)
    assert 'data-action="call-clock"' in html
    engine = hand_reads.hand_state(hand_in_play(first_table))
    assert engine.to_act == seat and not any(engine.folded)  # nothing recorded for it


def test_a_running_time_to_act_keeps_the_prompt_hidden_CC_114(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    html = tablet.tablet_fragment(first_table)
    assert re.search(r'data-act-time-up="\d+" hidden', html)


def test_the_called_clock_replaces_the_time_to_act_while_it_runs_CC_115_C_04(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    at(first_table, dealing.call_clock, dealer_dana_here)
    assert timed_now(first_table) is None and seat_timers(first_table) == {}
    first_table.refresh_from_db()
    assert tablet.tablet_context(first_table)["clock"]["seat"] == seat
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": seat})
    assert set(seat_timers(first_table)) == {to_act(first_table)}  # the next seat's time to act


def test_where_the_house_follows_the_tda_the_tablet_shows_no_time_to_act_TDA_29_C_04(
    first_table, dealer_dana_here, event_in_play, director_dora
):
    act(services.change_setup, event_in_play, director_dora, reason="no shot clock", options={"action_seconds": 0})
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert timed_now(first_table) is None and seat_timers(first_table) == {}
    html = tablet.tablet_fragment(first_table)
    assert "data-act-time-up" not in html and 'data-action="call-clock"' in html  # the clock is still called


def test_the_house_sets_other_seconds_for_the_time_to_act_C_04(
    first_table, dealer_dana_here, event_in_play, director_dora
):
    act(services.change_setup, event_in_play, director_dora, reason="a faster game", options={"action_seconds": 30})
    t0 = timezone.now().replace(microsecond=0) + timedelta(minutes=1)
    with simulated_time(t0):
        at(first_table, dealing.start_hand, dealer_dana_here)
    assert seat_timers(first_table) == {to_act(first_table): ms(t0 + timedelta(seconds=30))}


def test_a_paused_table_shows_no_time_to_act_TDA_01(first_table, dealer_dana_here, director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.pause_table, director_dora, reason="a dispute at seat 2")
    assert seat_timers(first_table) == {}


def test_the_setup_form_takes_the_time_to_act_and_refuses_it_out_of_range_C_04():
    post = {"buy_in": "100", "starting_stack": "10000", "seats_per_table": "9", "structure": "100/200 20",
            "action_seconds": "45"}
    assert forms.event_setup(post, editing=True)["options"]["action_seconds"] == 45
    without = {k: v for k, v in post.items() if k != "action_seconds"}
    assert forms.event_setup(without, editing=True)["options"]["action_seconds"] == 60
    with pytest.raises(BadInput):
        forms.event_setup({**post, "action_seconds": "-5"}, editing=True)
