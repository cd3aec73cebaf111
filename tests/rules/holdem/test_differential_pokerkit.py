"""Our engine against pokerkit 0.7.7: random hands compared at every step, and each known departure shown.

The suite plays a few hundred hands with a fixed seed (thousands:
``bench/diff_pokerkit.py``). Each departure in ``KNOWN_DEPARTURES`` has a
test below that plays the situation in both engines and asserts that ours
follows the TDA.
"""

from __future__ import annotations

import warnings
from importlib.metadata import version

import pokerkit as pk
import pytest

from casino.rules.holdem import Ante, AnteKind, Betting, HoldemHand, HouseRules, TableSetup
from tests.rules.holdem.differential import KNOWN_DEPARTURES, pokerkit_state, run
from tests.rules.holdem.helpers import finish

SUITE_HANDS = 400


@pytest.fixture(autouse=True)
def _quiet_pokerkit():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def both(setup: TableSetup, rules: HouseRules | None = None, mode=pk.Mode.CASH_GAME):
    rules = rules or HouseRules()
    hand = HoldemHand(setup, rules)
    if hand.phase.value == "post-antes":
        hand = hand.post_antes()
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards()
    state = pokerkit_state(setup, rules, mode)
    for i in range(setup.player_count):
        state.deal_hole(2, i)
    return hand, state


def test_pokerkit_is_pinned_at_0_7_7():
    assert version("pokerkit") == "0.7.7"


def test_random_hands_agree_with_pokerkit_but_for_the_named_departures():
    tally = run(SUITE_HANDS, seed=20261122)
    assert tally.hands == SUITE_HANDS
    assert tally.steps > 10 * SUITE_HANDS
    assert tally.completed >= 0.8 * SUITE_HANDS
    assert set(tally.departures) <= set(KNOWN_DEPARTURES)
    print(f"\n{tally.hands} hands, {tally.steps} turns compared, {tally.completed} to the end;"
          f" departures met: {dict(tally.departures)}")


def test_departure_TDA_47_ex3_pokerkit_lets_the_first_raiser_raise_again():
    setup = TableSetup(stacks={1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000, 5: 7_500, 6: 100_000}, button=6,
                       small_blind=2_000, big_blind=4_000)
    hand, state = both(setup)
    for act in ("call", "fold", "all-in", "fold", "fold", "call"):
        seat = hand.to_act
        hand = getattr(hand, act.replace("-", "_"))(seat)
        state.fold() if act == "fold" else (state.complete_bet_or_raise_to(7_500) if act == "all-in"
                                            else state.check_or_call())
    assert hand.to_act == 3 and setup.order[state.actor_index] == 3
    assert state.min_completion_betting_or_raising_to_amount is not None  # pokerkit: he may re-raise
    assert hand.legal().min_to is None  # TDA-47 example 3: call or fold only


def test_departure_a_short_big_blind_pokerkit_lets_the_next_player_call_the_short_amount():
    setup = TableSetup(stacks={1: 10_000, 2: 150, 3: 10_000}, button=3, small_blind=100, big_blind=200)
    hand, state = both(setup)
    assert state.checking_or_calling_amount == 150
    assert hand.legal().call == 200  # the big blind is the full opening bet (TDA-43-ex2)


def test_departure_pot_limit_short_blind_pokerkit_measures_the_pot_as_posted():
    setup = TableSetup(stacks={1: 10_000, 2: 150, 3: 10_000}, button=3, small_blind=100, big_blind=200,
                       betting=Betting.POT_LIMIT)
    hand, state = both(setup)
    assert hand.legal().max_to == 700  # TDA-54-B: as if the blind were complete
    assert state.max_completion_betting_or_raising_to_amount != 700


def test_departure_odd_chips_pokerkit_gives_the_whole_remainder_to_one_winner():
    # Three players tie on a royal flush board; the pot of 8 leaves two odd chips.
    setup = TableSetup(stacks={1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2,
                       ante=Ante(AnteKind.BIG_BLIND, 2))
    hand, state = both(setup)
    hand2 = HoldemHand.replay(setup, [a for a in hand.actions if a.kind != "deal-hole-cards"], hand.rules)
    hand2 = hand2.deal_hole_cards({1: ["2c", "3c"], 2: ["2d", "3d"], 3: ["2h", "3h"]})
    hand2 = finish(hand2, board="AsKsQsJsTs")
    payouts = hand2.payouts
    assert payouts == {1: 3, 2: 3, 3: 2}  # TDA-20: one odd chip each from the button's left
    state = pokerkit_state(setup, HouseRules())
    for i, cards in enumerate(("2c3c", "2d3d", "2h3h")):
        state.deal_hole(cards, i)
    while state.status:
        if state.actor_index is not None:
            state.check_or_call()
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            state.deal_board({0: "AsKsQs", 3: "Js", 4: "Ts"}[len(state.board_cards)])
    assert [s - 100 for s in state.stacks] == [2, -2, 0]  # +4 to player 0: the whole remainder


def test_departure_pokerkit_refuses_a_raise_when_every_opponent_is_all_in():
    setup = TableSetup(stacks={1: 1_000, 2: 10_000}, button=2, small_blind=100, big_blind=200)
    hand, state = both(setup)
    # Heads-up: seat 2 (button, small blind) acts first; he calls, seat 1 goes all-in.
    hand = hand.call(2)
    state.check_or_call()
    hand = hand.all_in(1)
    state.complete_bet_or_raise_to(1_000)
    assert state.min_completion_betting_or_raising_to_amount is None
    assert hand.legal().min_to == 1_800  # not forbidden; the part nobody can call comes back uncalled
    hand = hand.raise_to(2, 1_800)
    assert hand.stacks[2] == 9_000


def test_departure_pokerkit_tournament_mode_refuses_a_fold_when_a_check_is_possible():
    setup = TableSetup(stacks={1: 10_000, 2: 10_000, 3: 10_000}, button=3, small_blind=100, big_blind=200)
    hand, state = both(setup, mode=pk.Mode.TOURNAMENT)
    for _ in range(2):
        hand = hand.call(hand.to_act)
        state.check_or_call()
    assert hand.to_act == 2 and hand.legal().check
    assert not state.can_fold()
    assert hand.can_fold(2)  # TDA-58: allowed, and binding


def test_departure_pokerkit_counts_a_short_limit_all_in_toward_the_cap():
    setup = TableSetup(stacks={1: 10_000, 2: 10_000, 3: 10_000, 4: 240}, button=4, small_blind=50, big_blind=100,
                       betting=Betting.FIXED_LIMIT)
    hand, state = both(setup)
    hand = hand.raise_to(3, 200)
    state.complete_bet_or_raise_to(200)
    hand = hand.all_in(4)
    state.complete_bet_or_raise_to(240)
    assert hand.legal().min_to == 300  # TDA-47-B: +40 is under half a bet, so the raise completes to 300
    assert state.min_completion_betting_or_raising_to_amount == 340


def test_departure_pokerkit_asks_a_lone_player_to_check_against_all_ins():
    setup = TableSetup(stacks={1: 10_000, 2: 10_000, 3: 1_000}, button=3, small_blind=100, big_blind=200)
    hand, state = both(setup)
    hand = hand.all_in(3)
    state.complete_bet_or_raise_to(1_000)
    for _ in range(2):
        hand = hand.call(hand.to_act)
        state.check_or_call()
    hand = hand.deal_flop()
    state.burn_card("??")
    state.deal_board(3)
    # Seat 1 folds without facing a bet (TDA-58); seat 2 is left alone against the all-in.
    hand = hand.fold(1)
    state.fold()
    assert hand.phase.value == "deal-board" and hand.cards_up  # TDA-16: nothing left to bet, deal it out
    assert setup.order[state.actor_index] == 2 and state.checking_or_calling_amount == 0


def test_departure_TDA_47_pokerkit_forgets_short_all_ins_once_they_add_up_to_a_full_raise():
    # Blinds 50-100: seat 3 raises to 300 (+200); seats 4, 5 and 6 go all-in short for 450, 600 and 700.
    setup = TableSetup(stacks={1: 10_000, 2: 10_000, 3: 10_000, 4: 450, 5: 600, 6: 700}, button=6,
                       small_blind=50, big_blind=100)
    hand, state = both(setup)
    hand = hand.raise_to(3, 300)
    state.complete_bet_or_raise_to(300)
    for seat, to in ((4, 450), (5, 600), (6, 700)):
        hand = hand.all_in(seat)
        state.complete_bet_or_raise_to(to)
    for seat in (1, 2):
        hand = hand.fold(seat)
        state.fold()
    # Seat 3 now faces 400 more, at least a full raise of 200: TDA-47 reopens the betting for him.
    assert hand.legal().seat == 3 and hand.legal().min_to == 900
    assert state.min_completion_betting_or_raising_to_amount is None
