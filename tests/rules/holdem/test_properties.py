"""Properties of any hand, checked on random hands with hypothesis.

Chips are conserved at every step (stacks plus the pot never change), the
pots add up to the pot, payouts add up to the pot awarded, and the legal
actions are always consistent with the stacks. A state is a frozen value:
no step, allowed or refused, changes the state it was taken from.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.errors import RuleViolation
from casino.rules.holdem import Betting, HoldemHand, Phase
from tests.rules.holdem.differential import play_ours
from tests.rules.holdem.helpers import new_hand


def check_invariants(hand: HoldemHand) -> None:
    start = sum(hand.starting_stacks)
    if hand.phase in (Phase.MISDEAL, Phase.VOID):
        assert list(hand.stack) == list(hand.starting_stacks)
        return
    if hand.phase is Phase.COMPLETE:
        assert sum(hand.stack) == start
        assert sum(hand.payouts.values()) == hand.pot_total == sum(p.amount for p in hand.pots())
        assert all(chips >= 0 for chips in hand.payouts.values())
        return
    assert sum(hand.stack) + hand.pot_total == start
    assert sum(p.amount for p in hand.pots()) == hand.pot_total
    assert all(chips >= 0 for chips in hand.stack)
    for pot in hand.pots():
        assert pot.eligible and all(seat in hand.in_hand for seat in pot.eligible)
    legal = hand.legal()
    if legal is not None:
        p = hand.to_act_pos
        assert hand.stack[p] > 0 and not hand.folded[p]
        assert 0 <= legal.call <= hand.stack[p]
        assert legal.check == (legal.call == 0)
        assert hand._may_raise(p) == (hand._raise_refusal(p) is None)
        if legal.min_to is not None:
            assert hand.current_bet < legal.min_to <= legal.max_to <= hand.bets[p] + hand.stack[p]
            if hand.setup.betting is Betting.FIXED_LIMIT:
                assert legal.min_to == legal.max_to


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_chips_are_conserved_at_every_step_and_payouts_sum_to_the_pot(seed):
    hand = play_ours(random.Random(seed), check_invariants)
    assert hand.phase is Phase.COMPLETE


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 30), st.booleans())
def test_a_misdeal_or_defective_deck_at_any_point_gives_every_chip_back(seed, steps, defective):
    rng = random.Random(seed)
    hand = play_ours(rng)
    records = hand.actions[:steps]
    again = HoldemHand.replay(hand.setup, records, hand.rules)
    if again.is_over:
        return
    put_in = {seat: again.starting_stacks[i] - again.stack[i] for i, seat in enumerate(again.seats)}
    if defective:
        again = again.declare_defective_deck()
    elif again.can_declare_misdeal():
        again = again.declare_misdeal()
    else:
        return
    check_invariants(again)
    assert again.payouts == put_in
    assert again.stacks == dict(hand.setup.stacks)


def assert_nothing_changeable(value: object, where: str) -> None:
    """No list, set or dict anywhere in a state's fields: a reader could change it in place."""
    assert not isinstance(value, list | set | dict), f"{where} is a {type(value).__name__}"
    if isinstance(value, tuple | frozenset):
        for item in value:
            assert_nothing_changeable(item, where)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 11))
def test_a_step_never_changes_the_state_it_was_taken_from(seed, stranger):
    # A table's cache keeps one state per version: the next step, allowed or refused, must leave it as it was.
    hand = play_ours(random.Random(seed))
    state = HoldemHand(hand.setup, hand.rules)
    for record in hand.actions:
        before = copy.deepcopy(state)
        with contextlib.suppress(RuleViolation):
            state.fold(stranger)  # mostly refused: out of turn, not dealt in, or no betting now
        assert state == before
        following = state.apply(record)
        assert state == before and following != state
        for f in dataclasses.fields(following):
            if f.name not in ("_pos", "actions"):  # the seat index is shared and never changed; records below
                assert_nothing_changeable(getattr(following, f.name), f.name)
        assert isinstance(following.actions, tuple)
        state = following
    assert state == hand


def test_a_state_cannot_be_changed_in_place():
    hand = new_hand([10_000] * 3, button=3)
    # A replay takes its steps on one private draft; what it gives back is as frozen as any state.
    replayed = HoldemHand.replay(hand.setup, hand.actions, hand.rules)
    for state in (hand, replayed, replayed.call(3)):
        assert type(state) is HoldemHand
        with pytest.raises(dataclasses.FrozenInstanceError):
            state.phase = Phase.COMPLETE
        with pytest.raises(TypeError):
            state.stack[0] = 0


def test_two_readers_of_one_state_go_their_own_ways():
    hand = new_hand([10_000] * 3, button=3)
    folded, called = hand.fold(3), hand.call(3)
    assert (folded.in_hand, called.in_hand, hand.in_hand) == ([1, 2], [1, 2, 3], [1, 2, 3])
    assert (folded.to_act, called.to_act, hand.to_act) == (1, 1, 3)
