"""A tournament table's next hand for the Hold'em engine (issue #15): the bridge from the event's seating
and clock to the engine's ``TableSetup`` (C-02, C-03, C-25, CC-50..53, CC-80, RP-11, TDA-23, TDA-34, TDA-48)."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem import Betting, HoldemHand
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.seating import TableSeats
from casino.rules.tournament.structure import Break, Level
from casino.rules.tournament.table_hand import next_hand_setup

LEVEL = Level(small_blind=100, big_blind=200, ante=200)
BUTTON_ANTE = HouseOptions(ante_mode="button")
BIG_BLIND_ANTE = HouseOptions(ante_mode="big_blind")


def table(players: int, *, button=3, small=4, big=5, seats=9) -> TableSeats:
    """Entries 101, 102... in seats 1, 2...; the last hand's button and blinds as given."""
    return TableSeats(table=1, seats=seats, players=tuple((s, 100 + s) for s in range(1, players + 1)),
                      button=button, small_blind=small, big_blind=big)


def posted(setup_of) -> dict[int, int]:
    """Each seat's chips put in by the antes and the blinds (the engine's own posting)."""
    hand = HoldemHand(setup_of.setup, setup_of.rules)
    if hand.can_post_antes():
        hand = hand.post_antes()
    hand = hand.post_blinds()
    return {seat: setup_of.setup.stacks[seat] - chips for seat, chips in hand.stacks.items()
            if setup_of.setup.stacks[seat] != chips}


def chips_for(t: TableSeats, each: int = 10_000) -> dict[int, int]:
    return {entry: each for _, entry in t.players}


def test_the_button_moves_on_and_the_button_pays_the_ante_with_seven_at_the_table_CC_50():
    t = table(7)
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=BUTTON_ANTE)
    assert (plan.where.button, plan.where.small_blind, plan.where.big_blind) == (4, 5, 6)
    assert posted(plan) == {4: 200, 5: 100, 6: 200}
    assert plan.entries == {s: 100 + s for s in range(1, 8)}


def test_the_button_ante_is_halved_to_the_small_blind_with_six_or_fewer_CC_51():
    t = table(6)
    assert posted(next_hand_setup(t, chips_for(t), LEVEL, options=BUTTON_ANTE))[4] == 100


def test_the_big_blind_ante_is_never_reduced_and_taken_before_the_blind_RP_11():
    t = table(6)
    chips = {**chips_for(t), 106: 300}  # seat 6, due the big blind, has 300: the ante first, then 100 of blind
    plan = next_hand_setup(t, chips, LEVEL, options=BIG_BLIND_ANTE)
    assert posted(plan) == {5: 100, 6: 300}
    hand = HoldemHand(plan.setup, plan.rules).post_antes()
    assert hand.dead[hand.seats.index(6)] == 200  # the ante is dead money, taken whole


def test_a_dead_button_hand_is_played_without_an_ante_CC_52():
    t = TableSeats(table=1, seats=9, players=((1, 101), (2, 102), (3, 103), (5, 105), (6, 106), (7, 107)),
                   button=3, small_blind=4, big_blind=5)  # the last small blind (seat 4) has busted
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=BUTTON_ANTE)
    assert plan.where.button == 4 and 4 not in plan.setup.stacks
    assert posted(plan) == {5: 100, 6: 200}


def test_a_dead_small_blind_leaves_only_the_big_blind_CC_80():
    t = TableSeats(table=1, seats=9, players=((1, 101), (2, 102), (3, 103), (4, 104), (6, 106), (7, 107)),
                   button=3, small_blind=4, big_blind=5)  # the last big blind (seat 5) has busted
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=HouseOptions(ante_mode="none"))
    assert plan.where.small_blind is None
    assert posted(plan) == {6: 200}


def test_heads_up_the_button_posts_the_small_blind_TDA_34():
    t = TableSeats(table=1, seats=9, players=((2, 102), (7, 107)), button=2, small_blind=2, big_blind=7)
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=HouseOptions(ante_mode="none"), players_in_event=2)
    assert (plan.where.button, plan.where.small_blind, plan.where.big_blind) == (7, 7, 2)
    assert posted(plan) == {7: 100, 2: 200}
    assert plan.setup.heads_up_in_tournament  # a fixed-limit hand has no cap now (TDA-48)


def test_a_player_moved_onto_the_buttons_seat_sits_the_hand_out_and_it_has_no_ante_CC_53():
    t = table(7)
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=BUTTON_ANTE, sitting_out=[4])
    assert 4 not in plan.setup.stacks and plan.sitting_out == (4,)
    assert posted(plan) == {5: 100, 6: 200}


def test_a_blind_cannot_sit_out_CC_53():
    t = table(7)
    with pytest.raises(RuleViolation, match="due a blind") as refused:
        next_hand_setup(t, chips_for(t), LEVEL, options=BUTTON_ANTE, sitting_out=[6])
    assert refused.value.clause == "CC-53"


def test_no_hand_is_dealt_on_a_break_and_none_with_one_player_TDA_23():
    t = table(7)
    with pytest.raises(RuleViolation) as refused:
        next_hand_setup(t, chips_for(t), Break(minutes=10))
    assert refused.value.clause == "TDA-23"
    alone = TableSeats(table=1, seats=9, players=((1, 101),), button=1)
    assert next_hand_setup(alone, {101: 500}, LEVEL) is None


def test_a_player_without_chips_is_not_dealt_in_CC_18():
    t = table(3)
    with pytest.raises(RuleViolation) as refused:
        next_hand_setup(t, {**chips_for(t), 102: 0}, LEVEL)
    assert refused.value.clause == "CC-18"


def test_the_betting_structure_and_the_smallest_chip_reach_the_engine():
    t = table(4)
    plan = next_hand_setup(t, chips_for(t), LEVEL, options=HouseOptions(ante_mode="none"),
                           betting=Betting.POT_LIMIT, chip_unit=100)
    assert plan.setup.betting is Betting.POT_LIMIT and plan.setup.chip_unit == 100
