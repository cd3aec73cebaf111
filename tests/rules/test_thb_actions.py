"""Hand records: JSON-safe, read back strictly, replayed in order."""

from __future__ import annotations

import json

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import (
    BetFlop,
    PlaceAnte,
    ReplayError,
    RevealBox,
    action_from_dict,
    action_kinds,
    replay,
)


def test_every_record_of_a_played_hand_survives_a_trip_through_json(three_boxes_at_river):
    hand = three_boxes_at_river.reveal_dealer(["Qc", "Qd"]).reveal_box(5, ["3c", "4d"])
    for action in hand.actions:
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_a_record_names_its_kind_and_writes_cards_as_text():
    assert RevealBox(3, ["Ah", "10d"]).to_dict() == {"action": "reveal-box", "box": 3, "cards": ["Ah", "Td"]}
    assert PlaceAnte(1, 10).to_dict() == {"action": "place-ante", "box": 1, "amount": 10}


def test_every_action_kind_has_a_verify_can_do_trio_on_the_hand(open_hand):
    from casino.rules.holdem_bonus.actions import _REGISTRY

    for kind in action_kinds():
        method = _REGISTRY[kind].method
        for name in (f"verify_{method}", f"can_{method}", method):
            assert callable(getattr(open_hand, name)), name
    # One verb for a validation in both engines: "check" is the poker check's word (issue #13).
    assert not [name for name in dir(open_hand) if name == "check" or name.startswith("check_")]


@pytest.mark.parametrize(("record", "message"), [
    ({"action": "raise", "box": 1}, "'raise' is not a Texas Hold'em Bonus action"),
    ({"action": "place-ante", "box": 1, "amount": 10, "colour": "red"}, "has no colour"),
    ({"action": "place-ante", "box": 1}, "needs amount"),
    ({"action": "place-ante", "box": 1, "amount": 2.5}, "must be a whole number"),
    ({"action": "place-ante", "box": "1", "amount": 5}, "must be a whole number"),
    ({"action": "reveal-box", "box": 1, "cards": "AhKd"}, "must be a list of cards"),
    ({"action": "reveal-box", "box": 1, "cards": ["Ah", "Kx"]}, "'Kx' is not a card"),
    (["place-ante"], "must be a JSON object"),
])
def test_a_record_the_engine_does_not_know_exactly_is_refused(record, message):
    with pytest.raises(RuleViolation, match=message):
        action_from_dict(record)


def test_replay_rebuilds_the_same_state_from_the_records(three_boxes_at_river):
    records = [a.to_dict() for a in three_boxes_at_river.actions]
    assert replay(three_boxes_at_river.rules, records) == three_boxes_at_river


def test_replay_names_the_record_the_rules_refuse(table_5_to_100):
    records = [PlaceAnte(1, 10).to_dict(), {"action": "close-bets"}, {"action": "deal-initial"},
               BetFlop(1, 30).to_dict()]
    with pytest.raises(ReplayError) as refused:
        replay(table_5_to_100, records)
    assert refused.value.index == 3
    assert str(refused.value) == (
        "record 4: The flop bet must be exactly twice the ante: box 1 bets 20, not 30 (THB-57)"
    )


def test_the_generic_trio_takes_records(three_boxes_dealt):
    record = BetFlop(1, 20)
    three_boxes_dealt.verify(record)
    assert three_boxes_dealt.can(record) and not three_boxes_dealt.can(BetFlop(1, 21))
    assert three_boxes_dealt.apply(record).actions[-1] == record


def test_a_hand_state_pickles_for_caches_and_worker_processes(three_boxes_at_river):
    import pickle

    assert pickle.loads(pickle.dumps(three_boxes_at_river)) == three_boxes_at_river
