"""The simulated hand: blinds and antes where the dead button puts them, pots drawn, chips conserved."""

from __future__ import annotations

import random

import pytest

from casino.rules.tournament import seating
from casino.rules.tournament.hand_simulator import play_hand, split_pots
from casino.rules.tournament.structure import Level

LEVEL = Level(small_blind=100, big_blind=200, ante=200)


def table_of(stacks_by_seat: dict[int, int], *, button: int = 1, seats: int = 9):
    players = tuple(sorted((seat, 100 + seat) for seat in stacks_by_seat))
    table = seating.TableSeats(table=4, seats=seats, players=players, button=button, button_is_next=True)
    return table, {100 + seat: chips for seat, chips in stacks_by_seat.items()}


@pytest.mark.parametrize("seed", range(200))
def test_a_simulated_hand_conserves_chips_and_busts_only_players_left_with_none(seed):
    rng = random.Random(seed)
    stacks = {seat: rng.choice([150, 900, 5_000, 12_345]) for seat in rng.sample(range(1, 10), rng.randint(2, 9))}
    table, by_entry = table_of(stacks, button=min(stacks))
    hand = play_hand(table, by_entry, LEVEL, ante_mode=rng.choice(["button", "big_blind", "none"]), rng=rng,
                     all_in_chance=0.5)
    assert sum(hand.stacks_at_end.values()) == sum(hand.stacks_at_start.values()) == sum(stacks.values())
    assert hand.stacks_at_start == stacks
    assert all(chips >= 0 for chips in hand.stacks_at_end.values())
    assert set(hand.busted) == {seat for seat, chips in hand.stacks_at_end.items() if chips == 0}
    assert sum(p.amount for p in hand.pots) <= sum(stacks.values())


def test_tda32_the_blinds_are_where_the_dead_button_rule_puts_them():
    table, by_entry = table_of({2: 5_000, 5: 5_000, 7: 5_000}, button=2)
    hand = play_hand(table, by_entry, LEVEL, ante_mode="none", rng=random.Random(1))
    where = seating.next_hand(table)
    assert (hand.button, hand.small_blind, hand.big_blind) == (where.button, where.small_blind, where.big_blind)
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 5, 7)


def test_side_pots_for_unequal_all_ins_each_go_to_a_player_eligible_for_it():
    # seat 1 all-in for 100, seat 2 for 300, seat 3 for 1,000: the main pot 300, a side pot 400, 700 back
    pots, returned = split_pots({1: 100, 2: 300, 3: 1_000}, live={1, 2, 3})
    assert pots == [(300, (1, 2, 3)), (400, (2, 3))]
    assert returned == {3: 700}


def test_a_folded_blind_stays_in_the_pot_and_is_not_returned():
    pots, returned = split_pots({1: 50, 2: 100, 3: 200, 4: 200}, live={3, 4})
    assert returned == {}
    assert sum(amount for amount, _ in pots) == 550
    assert all(set(eligible) <= {3, 4} for _, eligible in pots)


def test_cc51_the_button_ante_is_halved_to_the_small_blind_at_six_or_fewer():
    table, by_entry = table_of({1: 5_000, 2: 5_000, 3: 5_000}, button=1)
    hand = play_hand(table, by_entry, LEVEL, ante_mode="button", rng=random.Random(3))
    assert hand.ante == LEVEL.small_blind
    full = table_of({s: 5_000 for s in range(1, 10)}, button=1)
    assert play_hand(*full, LEVEL, ante_mode="button", rng=random.Random(3)).ante == LEVEL.big_blind


def test_a_short_stack_all_in_busts_when_it_loses():
    busted = 0
    for seed in range(100):
        table, by_entry = table_of({1: 50, 2: 10_000, 3: 10_000}, button=3)  # seat 1 posts the small blind
        hand = play_hand(table, by_entry, LEVEL, ante_mode="none", rng=random.Random(seed), all_in_chance=1.0)
        if 1 in hand.busted:
            busted += 1
            assert hand.stacks_at_end[1] == 0
        else:
            assert hand.stacks_at_end[1] > 0
    assert 0 < busted < 100


def test_the_same_seed_plays_the_same_hand():
    table, by_entry = table_of({1: 3_000, 4: 7_000, 6: 2_500, 9: 800})
    one = play_hand(table, by_entry, LEVEL, ante_mode="big_blind", rng=random.Random(42), all_in_chance=0.7)
    two = play_hand(table, by_entry, LEVEL, ante_mode="big_blind", rng=random.Random(42), all_in_chance=0.7)
    assert one == two


def test_fewer_than_two_players_play_no_hand():
    table, by_entry = table_of({3: 1_000})
    assert play_hand(table, by_entry, LEVEL, ante_mode="none", rng=random.Random(0)) is None


def test_a_player_moved_onto_the_button_sits_the_hand_out_and_posts_nothing_CC_53():
    table, by_entry = table_of({1: 5_000, 3: 5_000, 5: 5_000, 7: 5_000}, button=1)
    for seed in range(30):
        hand = play_hand(table, by_entry, LEVEL, ante_mode="button", rng=random.Random(seed), all_in_chance=0.5,
                         sitting_out=[1])
        assert hand.button == 1 and 1 not in hand.stacks_at_start and 1 not in hand.stacks_at_end
        assert 1 not in hand.busted and all(1 not in pot.eligible for pot in hand.pots)
        assert hand.ante == 0  # the button sits out: a hand without a button ante, as at a dealt table (CC-53)
        assert sum(hand.stacks_at_end.values()) == 15_000


def test_a_player_moved_between_the_button_and_the_small_blind_is_not_dealt_in_CC_57():
    players = ((1, 101), (2, 102), (4, 104), (6, 106))
    table = seating.TableSeats(table=4, seats=9, players=players, button=1, small_blind=4, button_is_next=True)
    by_entry = {101: 5_000, 102: 5_000, 104: 5_000, 106: 5_000}
    hand = play_hand(table, by_entry, LEVEL, ante_mode="none", rng=random.Random(2), sitting_out=[2])
    assert (hand.button, hand.small_blind, hand.big_blind) == (1, 4, 6)
    assert sorted(hand.stacks_at_start) == [1, 4, 6]


def test_a_seat_due_a_blind_cannot_sit_the_hand_out_CC_53():
    from casino.rules.errors import RuleViolation

    table, by_entry = table_of({1: 5_000, 3: 5_000, 5: 5_000}, button=1)  # blinds: seats 3 and 5
    for blind in (3, 5):
        with pytest.raises(RuleViolation) as refused:
            play_hand(table, by_entry, LEVEL, ante_mode="none", rng=random.Random(0), sitting_out=[blind])
        assert refused.value.clause == "CC-53"


def test_a_dead_button_makes_a_hand_without_the_button_ante_as_at_a_dealt_table_CC_52():
    from casino.rules.tournament import table_hand  # noqa: F401  the dealt tables' rule, said the same way
    # the last hand: button 1, small blind 2, big blind 4; the small blind's player has gone since
    players = ((1, 101), (4, 104), (6, 106))
    table = seating.TableSeats(table=4, seats=9, players=players, button=1, small_blind=2, big_blind=4)
    by_entry = {101: 5_000, 104: 5_000, 106: 5_000}
    where = seating.next_hand(table)
    assert where.button == 2 and where.button not in dict(players)  # the button on his empty seat: dead (CC-52)
    hand = play_hand(table, by_entry, LEVEL, ante_mode="button", rng=random.Random(4))
    assert hand.ante == 0
    big_blind_ante = play_hand(table, by_entry, LEVEL, ante_mode="big_blind", rng=random.Random(4))
    assert big_blind_ante.ante == LEVEL.ante  # the big-blind ante does not depend on the button (RP-11)
