"""The clock called on a player (C-04, C-05, CC-115, TDA-29): the house's defaults and what the engine records
when it runs out. Pure engine, no database: it runs in every `make test`."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.table_hand import clock_expiry_record
from tests.rules.holdem.helpers import new_hand, to_street


def on_the_flop():
    """Three players see the flop; the first to act there faces no bet."""
    return to_street(new_hand([10_000] * 3, button=3), "flop", "2c 7d 9h")


def test_the_called_clock_gives_30_seconds_the_last_10_counted_aloud_by_default_CC_115():
    options = HouseOptions()
    assert (options.clock_seconds, options.clock_countdown_seconds) == (30, 10)


def test_by_default_the_clock_running_out_kills_a_hand_not_facing_a_bet_C_05_CC_115():
    hand = on_the_flop()
    assert hand.legal().check  # he could have checked
    assert clock_expiry_record(hand) == {"action": "fold", "seat": hand.to_act}
    assert clock_expiry_record(hand, HouseOptions()) == {"action": "fold", "seat": hand.to_act}


def test_where_the_house_follows_the_tda_a_player_not_facing_a_bet_checks_when_the_clock_runs_out_TDA_29():
    hand = on_the_flop()
    assert clock_expiry_record(hand, HouseOptions(clock_expiry_unfaced="check")) == {
        "action": "check", "seat": hand.to_act}


@pytest.mark.parametrize("expiry", ["dead", "check"])
def test_facing_a_bet_the_hand_is_dead_when_the_clock_runs_out_either_way_TDA_29_C_05(expiry):
    hand = new_hand([10_000] * 3, button=3)  # the first to act faces the big blind
    assert not hand.legal().check
    assert clock_expiry_record(hand, HouseOptions(clock_expiry_unfaced=expiry)) == {
        "action": "fold", "seat": hand.to_act}


def test_the_clock_runs_only_on_a_player_in_turn_C_04():
    hand = to_street(new_hand([10_000] * 3, button=3), "flop")
    for _ in range(3):
        hand = hand.check(hand.to_act)
    assert hand.to_act is None  # the round is over: the turn card is to come
    with pytest.raises(RuleViolation) as refused:
        clock_expiry_record(hand)
    assert refused.value.clause == "C-04"
