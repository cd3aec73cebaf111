"""Properties of any hand, checked on random hands with hypothesis.

Chips are conserved at every step (stacks plus the pot never change), the
pots add up to the pot, payouts add up to the pot awarded, and the legal
actions are always consistent with the stacks.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.holdem import Betting, HoldemHand, Phase
from tests.rules.holdem.differential import play_ours


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
        again.declare_defective_deck()
    elif again.can_declare_misdeal():
        again.declare_misdeal()
    else:
        return
    check_invariants(again)
    assert again.payouts == put_in
    assert again.stacks == dict(hand.setup.stacks)
