"""Action records round-trip through JSON and rebuild the hand; the hand-line replay answers its contract."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, HouseRules, MisdealCutoff, Mode, TableSetup, action_from_dict
from casino.rules.holdem.replay import replay_holdem_hand
from tests.rules.holdem.differential import play_ours
from tests.rules.holdem.helpers import new_hand

GOLDEN = [json.loads(line) for line in (Path(__file__).parent / "golden_lines.jsonl").read_text().splitlines()]


def played_hand(seed: int) -> HoldemHand:
    """A random hand played to its end, every act chosen among the legal ones."""
    return play_ours(random.Random(seed))


@pytest.mark.parametrize("seed", range(40))
def test_a_hand_is_its_records_replayed(seed):
    hand = played_hand(seed)
    records = [a.to_dict() for a in hand.actions]
    again = HoldemHand.replay(hand.setup, json.loads(json.dumps(records)), hand.rules)
    assert again.stacks == hand.stacks and again.payouts == hand.payouts
    assert [a.to_dict() for a in again.actions] == records


@pytest.mark.parametrize("seed", range(10))
def test_a_whole_hand_round_trips_through_json(seed):
    hand = played_hand(100 + seed)
    again = HoldemHand.from_dict(json.loads(json.dumps(hand.to_dict())))
    assert again.to_dict() == hand.to_dict() and again.stacks == hand.stacks


def test_every_record_kind_has_a_verify_can_do_trio_and_check_is_only_the_poker_check():
    from casino.rules.holdem.actions import _REGISTRY

    hand = played_hand(0)
    for cls in _REGISTRY.values():
        for name in (f"verify_{cls.method}", f"can_{cls.method}", cls.method):
            assert callable(getattr(hand, name)), name
    assert [name for name in dir(hand) if name.startswith("check")] == ["check"]


def test_records_read_back_exactly():
    for data in ({"action": "raise", "seat": 4, "to": 1000}, {"action": "chips", "seat": 3, "chips": [1000, 500]},
                 {"action": "deal-flop", "cards": ["2c", "7d", "9h"], "burn": "As"},
                 {"action": "deal-turn", "card": "Kc"},
                 {"action": "deal-hole-cards", "cards": {"3": ["As", "Kd"]}}, {"action": "post-blinds"},
                 {"action": "misdeal"}, {"action": "show", "seat": 2}):
        assert action_from_dict(data).to_dict() == data


@pytest.mark.parametrize("bad", [{"action": "raise", "seat": 4}, {"action": "dance", "seat": 1},
                                 {"action": "fold", "seat": 1, "to": 3}, {"action": "raise", "seat": 4, "to": 10.5},
                                 {"action": "chips", "seat": 2, "chips": "1000"}, "fold"])
def test_bad_records_are_refused(bad):
    with pytest.raises(RuleViolation):
        action_from_dict(bad)


def test_setup_and_house_rules_round_trip():
    setup = TableSetup.from_dict({"betting": "pot-limit", "blinds": {"small": 25, "big": 50}, "button": 5,
                                  "small_blind_seat": None, "big_blind_seat": 7, "chip_unit": 25,
                                  "ante": {"kind": "every-player", "amount": 25},
                                  "stacks": {"1": 1_000, "3": 2_000, "7": 3_000}})
    again = TableSetup.from_dict(setup.to_dict())
    assert (again.sb_seat, again.bb_seat, again.order, again.ante) == (None, 7, (7, 1, 3), setup.ante)
    rules = HouseRules(mode=Mode.RING, misdeal_cutoff=MisdealCutoff.TDA_SUBSTANTIAL_ACTION)
    assert HouseRules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["name"] for g in GOLDEN])
def test_golden_hand_lines(golden):
    assert replay_holdem_hand(golden["line"]) == golden["answer"]


def test_the_issue_s_example_line_answers_as_documented():
    example = next(g for g in GOLDEN if g["name"] == "issue-example")
    answer = replay_holdem_hand(example["line"])
    assert answer["to_act"] == 2
    assert answer["legal"] == {"fold": True, "check": False, "call": 800, "min_to": 1800, "max_to": 19800}
    assert answer["pot_total"] == 1700 and answer["pots"] == [{"amount": 1700, "eligible": [2, 3, 4]}]
    assert answer["stacks"]["1"] == 19900 and "payouts" not in answer


@pytest.mark.parametrize("line, action, clause", [
    ({"actions": [{"seat": 3, "act": "raise", "to": 300}]}, 0, "(TDA-43)"),
    ({"actions": [{"seat": 4, "act": "call"}]}, 0, "(TDA-53)"),
    ({"actions": [{"seat": 3, "act": "fold"}, {"seat": 4, "act": "check"}]}, 1, "(DEAL-11)"),
    ({"actions": [{"seat": 3, "act": "bet"}]}, 0, "(TDA-43-B)"),
    ({"actions": [{"seat": 3, "act": "wink"}]}, 0, "format)"),
    ({"stacks": {"1": 100, "2": 100.5}}, None, "format)"),
    ({"stacks": {"1": 100, "11": 100}}, None, "format)"),
    ({"cards": {"1": ["As", "Kd"], "2": ["As", "Qc"]}}, None, "(TDA-35-E)"),
    ({"cards": {"1": ["As", "Xx"]}}, None, "(THB-03)"),
    ({"betting": "spread-limit"}, None, "(TDA-48)"),
    ({"colour": "red"}, None, "format)"),
    ({"game": "stud"}, None, "format)"),
])
def test_a_refused_line_names_the_action_and_the_clause(line, action, clause):
    base = {"game": "holdem", "betting": "no-limit", "blinds": {"small": 100, "big": 200}, "button": 4,
            "stacks": {"1": 5_000, "2": 5_000, "3": 5_000, "4": 5_000}}
    answer = replay_holdem_hand({**base, **line})
    assert set(answer) == {"error", "action"}
    assert answer["action"] == action and answer["error"].endswith(clause), answer


def test_actions_after_the_hand_is_over_are_refused():
    line = {"blinds": {"small": 100, "big": 200}, "button": 2, "stacks": {"1": 5_000, "2": 5_000},
            "actions": [{"seat": 2, "act": "fold"}, {"seat": 1, "act": "check"}]}
    assert replay_holdem_hand(line)["action"] == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100_000) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20,
)
line_keys = st.sampled_from(["game", "betting", "blinds", "ante", "button", "stacks", "actions", "cards", "board",
                             "chip_unit", "small_blind_seat", "big_blind_seat"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(line_keys, json_values, max_size=8))
def test_replay_never_raises_on_any_json(line):
    answer = replay_holdem_hand(line)
    assert isinstance(answer, dict) and ("error" in answer or "street" in answer)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.fixed_dictionaries({"seat": st.integers(0, 11), "act": st.sampled_from(
    ["fold", "check", "call", "bet", "raise", "all-in", "chips", "misdeal"])},
    optional={"to": st.integers(-5, 30_000), "chips": st.lists(st.sampled_from([25, 100, 500, 1_000]), max_size=4)}),
    max_size=12))
def test_replay_never_raises_on_any_sequence_of_acts(actions):
    line = {"game": "holdem", "blinds": {"small": 100, "big": 200}, "button": 3,
            "stacks": {"1": 3_000, "2": 10_000, "3": 700}, "actions": actions}
    answer = replay_holdem_hand(line)
    assert "error" in answer or sum(answer["stacks"].values()) + (
        answer["pot_total"] if answer.get("payouts") is None else 0) == 13_700


def test_unknown_board_and_cards_leave_the_payouts_unknown():
    hand = new_hand({1: 1_000, 2: 5_000}, button=2)
    hand = hand.all_in(2)
    hand = hand.call(1)
    while hand.phase.value == "deal-board":
        hand = hand.deal_next_street()
    assert hand.phase.value == "showdown" and not hand.can_show_hand(1)
