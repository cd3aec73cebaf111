"""Repeated acts out of turn (issue #38's edges, item 4; CC-133: "repeated and/or deliberate out-of-turn action is
penalised"; TDA-53-A: it "may be"). Neither says after how many, so the house says (``oot_repeats_call_floor``, 2 by
default: the first repeat): the tablet counts a player's acts out of turn in the whole event (not those undone) and,
at the house's count, asks the dealer to call the floor; the floor rules the penalty as any other (TDA-71, infraction
"out_of_turn"), after which the count starts again."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from casino.rules.errors import RuleViolation
from casino.rules.tournament.options import HouseOptions
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services
from tournaments.reads import hands as hand_reads
from tournaments.rendering.tablet import tablet_fragment
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def later_seat(table) -> int:
    """The seat in turn after the one in turn now (the player who most often acts out of turn)."""
    return hand_reads.hand_state(hand_in_play(table)).call(to_act(table)).to_act


def out_of_turn(table, dealer) -> int:
    """A new hand (after a misdeal of the one in play, if any) and a call out of turn by the next player: his seat."""
    if hand_in_play(table) is not None and hand_in_play(table).phase not in ("misdeal", "complete"):
        at(table, dealing.act, dealer, record={"action": "misdeal"})
    at(table, dealing.start_hand, dealer)
    seat = later_seat(table)
    at(table, dealing.act, dealer, record={"action": "out-of-turn", "seat": seat, "act": "call"})
    return seat


def floor_called(table) -> list[str]:
    table.refresh_from_db()
    return re.findall(r'data-oot-repeated="(\d+)"', tablet_fragment(table))


def test_a_players_second_act_out_of_turn_in_the_event_asks_the_dealer_to_call_the_floor_CC_133(
    event_in_play, first_table, dealer_dana_here
):
    seat = out_of_turn(first_table, dealer_dana_here)
    assert floor_called(first_table) == []  # once is not repeated
    assert out_of_turn(first_table, dealer_dana_here) == seat  # a misdeal: the same button, the same player
    assert floor_called(first_table) == [str(seat)]
    with translation.override("en"):
        shown = tablet_fragment(first_table)
    assert f"Seat {seat} has acted out of turn 2 times in this event: call the floor" in shown


def test_an_act_out_of_turn_undone_is_not_counted_CC_133(event_in_play, first_table, dealer_dana_here):
    out_of_turn(first_table, dealer_dana_here)
    at(first_table, dealing.undo_last, dealer_dana_here, reason="wrong seat")
    out_of_turn(first_table, dealer_dana_here)
    assert floor_called(first_table) == []


def test_after_the_floors_penalty_for_it_the_count_starts_again_TDA_71_CC_133(
    event_in_play, first_table, dealer_dana_here, floor_fede
):
    seat = out_of_turn(first_table, dealer_dana_here)
    out_of_turn(first_table, dealer_dana_here)
    entry = hand_in_play(first_table).entries[str(seat)]
    act(services.give_penalty, event_in_play, floor_fede, entry=entry, kind="warning", infraction="out_of_turn")
    out_of_turn(first_table, dealer_dana_here)
    assert floor_called(first_table) == []  # the third: one since the penalty
    out_of_turn(first_table, dealer_dana_here)
    assert floor_called(first_table) == [str(seat)]  # the fourth: two since


def test_where_the_house_counts_none_the_tablet_never_calls_the_floor_for_them_CC_133(
    event_in_play, first_table, dealer_dana_here, director_dora
):
    act(services.change_setup, event_in_play, director_dora, reason="CC-133", options={"oot_repeats_call_floor": 0})
    out_of_turn(first_table, dealer_dana_here)
    out_of_turn(first_table, dealer_dana_here)
    assert floor_called(first_table) == []


@pytest.mark.parametrize("count", [1, -1, 21])
def test_the_houses_count_is_two_to_twenty_or_none_CC_133(count):
    with pytest.raises(RuleViolation) as refused:
        HouseOptions(oot_repeats_call_floor=count)
    assert refused.value.clause == "CC-133"
    assert HouseOptions().oot_repeats_call_floor == 2
