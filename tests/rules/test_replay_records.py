"""Replaying recorded hands end to end: the hand-history format (docs/hand-history.md)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from casino.rules.replay import replay_lines, replay_record

GOLDEN = [json.loads(line) for line in (Path(__file__).parent / "data" / "thb_golden.jsonl").open()]
BOARD = ["2c", "7d", "9h", "Js", "Kc"]


def hand(*boxes, **extra):
    record = {"game": "texas-holdem-bonus", "dealer": ["3h", "4s"], "board": BOARD, "boxes": list(boxes)}
    record.update(extra)
    return record


def playing(number=1, ante=10, cards=("Tc", "8d"), **extra):
    entry = {"box": number, "ante": ante, "cards": list(cards), "flop": "bet", "turn": "check", "river": "check"}
    entry.update(extra)
    return entry


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["title"] for g in GOLDEN])
def test_golden_hands_replay_to_their_hand_computed_answers(golden):
    assert replay_record(golden["record"]) == golden["answer"]


def test_the_issues_example_answers_exactly_as_the_issue_prints_it():
    example = GOLDEN[0]
    answer = replay_record(example["record"])
    assert json.dumps(answer) == (
        '{"game": "texas-holdem-bonus", "dealer": {"category": "one-pair"}, "boxes": [{"box": 1, "category": '
        '"one-pair", "outcome": "push", "ante": 0, "flop": 0, "turn": 0, "river": 0, "bonus": 5000, "bonus_award": '
        '"aa-vs-dealer-aa", "needs_approval": true, "net": 5000}, {"box": 3, "outcome": "fold", "ante": -20, '
        '"flop": 0, "turn": 0, "river": 0, "bonus": 0, "net": -20}]}'
    )


@pytest.mark.parametrize(("record", "error"), [
    (hand(playing(1, cards=("3h", "Ac"))),
     "3h in box 1's cards is already in the dealer's cards: a single deck has one of each card (THB-03)"),
    (hand(playing(1, cards=("Tc",))), "Box 1's cards must be 2 cards, not 1 (THB-40)"),
    (hand(playing(2, ante=200), limits={"min_ante": 5, "max_ante": 100}),
     "Box 2's ante of 200 is above the table maximum of 100 (THB-18)"),
    (hand(playing(2, ante=4), limits={"min_ante": 5}), "Box 2's ante of 4 is below the table minimum of 5 (THB-26)"),
    (hand({"box": 3, "bonus": 5, "cards": ["Tc", "8d"], "flop": "fold"}),
     "Box 3 has no ante: every box plays with an ante (THB-26)"),
    (hand(playing(1, river="raise")),
     "Box 1's river decision is bet or check, not 'raise' (THB-44)"),
    (hand(playing(1, flop="fold")), "Box 1 folded and has no turn decision (THB-55)"),
    (hand({"box": 1, "ante": 10, "cards": ["Tc", "8d"], "flop": "bet", "river": "bet"}),
     "Box 1 made its flop bet and needs a turn decision: bet or check (THB-43)"),
    (hand(playing(1), playing(1, cards=("Ac", "Ad"))),
     "Box 1 appears twice: one box per player, one entry per box (THB-12)"),
    (hand(playing(8)), "There is no box 8: boxes are numbered 1 to 7 (C-28)"),
    (hand(playing(1, ante=10.5)), "Box 1's ante must be a whole amount, not 10.5 (THB-26)"),
    (hand(playing(1, colour="red")), "box 1 has an unknown key 'colour'"),
    (hand(playing(1), seat=3), "A Texas Hold'em Bonus hand has an unknown key 'seat'"),
    (hand(playing(1), paytable="vegas"), "There is no paytable named 'vegas'; known paytables: manual (THB-53)"),
    (hand(playing(1), board=["2c", "7d", "9h", "Js"]), "The board must be 5 cards, not 4 (THB-45)"),
    (hand(playing(1), dealer=None), "The dealer's cards are missing: boxes played against the dealer (THB-61)"),
    (hand(playing(1, cards=("Tc", "Xx"))), "Box 1's cards: 'Xx' is not a card"),
    ({"game": "texas-holdem-bonus", "boxes": [{"box": 1, "ante": 10, "bonus": 5, "flop": "fold"}]},
     "Box 1 has a Bonus and its cards are missing: the Bonus is settled on them even after a fold (C-31)"),
    ({"game": "texas-holdem-bonus", "boxes": [{"box": 1, "ante": 10, "bonus": 5, "cards": ["Ah", "As"],
                                               "flop": "fold"}]},
     "The hand is incomplete: it still needs the dealer's cards, for the A-A Bonus (C-31)"),
    ({"game": "texas-holdem-bonus", "board": BOARD, "boxes": [{"box": 1, "ante": 10, "flop": "fold"}]},
     "Every box folded, so no board is dealt; the record has one (THB-69)"),
    ({"game": "texas-holdem-bonus", "boxes": []}, "boxes must be a list of at least one box: a hand needs a player"),
    ({"game": "blackjack"}, "'blackjack' is not a game this system replays"),
    ({"boxes": []}, "The hand does not say its game"),
    ([1, 2], "A hand must be a JSON object, not list"),
])
def test_a_hand_that_breaks_a_rule_answers_an_error_naming_the_box_and_the_clause(record, error):
    answer = replay_record(record)
    assert list(answer) == ["error"]
    assert error in answer["error"]


def test_every_line_gets_an_answer_in_order_and_bad_json_is_an_error_line():
    lines = [json.dumps(GOLDEN[1]["record"]), "", "{not json", json.dumps(GOLDEN[2]["record"]),
             '{"game": "texas-holdem-bonus", "game": "holdem"}', '{"game": NaN}']
    answers = list(replay_lines(lines))
    assert len(answers) == 5
    assert answers[0] == GOLDEN[1]["answer"] and answers[2] == GOLDEN[2]["answer"]
    assert answers[1]["error"].startswith("Line 3 is not a JSON hand")
    assert "appears twice" in answers[3]["error"]
    assert "NaN" in answers[4]["error"]


def test_holdem_hands_go_to_the_holdem_replayer(monkeypatch):
    module = types.ModuleType("casino.rules.holdem.replay")
    module.replay_holdem_hand = lambda record: {"game": "holdem", "seen": record["hand"]}
    monkeypatch.setitem(sys.modules, "casino.rules.holdem.replay", module)
    assert replay_record({"game": "holdem", "hand": 7}) == {"game": "holdem", "seen": 7}


def test_a_holdem_replayer_that_fails_still_answers_an_error_line(monkeypatch):
    module = types.ModuleType("casino.rules.holdem.replay")

    def broken(record):
        raise KeyError("pot")

    module.replay_holdem_hand = broken
    monkeypatch.setitem(sys.modules, "casino.rules.holdem.replay", module)
    assert replay_record({"game": "holdem"}) == {"error": "The hand could not be replayed: KeyError: 'pot'"}


def test_without_a_holdem_replayer_a_holdem_hand_is_an_error_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "casino.rules.holdem.replay", None)
    answer = replay_record({"game": "holdem"})
    assert list(answer) == ["error"] and "Hold'em hands cannot be replayed" in answer["error"]
