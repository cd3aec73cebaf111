"""Writes thb_lines_before_extension.jsonl: Texas Hold'em Bonus lines and their answers, frozen.

The lines are made up here (a fixed seed, so the same lines every time): whole hands of one to
seven boxes with random bets, decisions, cards and house options, many of them then broken in
one place (a card seen twice, a missing or unknown key, a wrong word, an amount out of limits,
a decision out of order...), so that both answers and error lines are covered.

The answers were written by the replay code as it stood before the hand-history format gained
``approvals`` and ``void`` (commit a5dc4d9 of casino/rules/holdem_bonus/record.py):
tests/rules/test_replay_extensions.py checks that every one of these lines still gets that same
answer. Run again only to add lines, with the old code: ``python tests/rules/data/thb_lines_before_extension.py``.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "thb_lines_before_extension.jsonl"
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]


def random_hand(rng: random.Random, index: int) -> dict:
    deck = DECK[:]
    rng.shuffle(deck)
    if rng.random() < 0.15:  # aces for the dealer and a box: the 1000 to 1 award
        for card in ("Ah", "Ad", "As", "Ac"):
            deck.remove(card)
        deck = ["Ah", "Ad", "As", "Ac"] + deck
    record: dict = {"game": "texas-holdem-bonus"}
    if rng.random() < 0.5:
        record["hand"] = rng.choice([f"THB-{rng.randint(1, 9)}#{index}", index])
    limits = rng.choice([None, {"min_ante": 5}, {"min_ante": 5, "max_ante": 100},
                         {"min_ante": 10, "max_ante": 200, "min_bonus": 1, "max_bonus": 50}])
    if limits:
        record["limits"] = limits
    if rng.random() < 0.2:
        record["paytable"] = "manual"
    house: dict = {}
    if rng.random() < 0.25:
        house["ante_pays_from"] = rng.choice(["straight", "flush"])
    if rng.random() < 0.2:
        house["approval_above"] = rng.choice([50, 100, 300])
    if rng.random() < 0.1:
        house["approval_awards"] = rng.choice([[], ["aa-vs-dealer-aa", "aa"]])
    if house:
        record["house"] = house
    dealer = [deck.pop(0), deck.pop(0)]
    numbers = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
    if rng.random() < 0.3:  # boxes not in box order: answered in the record's order
        rng.shuffle(numbers)
    low = (limits or {}).get("min_ante", 5)
    boxes = []
    for number in numbers:
        entry: dict = {"box": number, "ante": rng.choice([low, low, 2 * low, 5 * low, 10 * low])}
        if rng.random() < 0.5:
            entry["bonus"] = rng.choice([1, 2, 5, 10])
        cards = [deck.pop(0), deck.pop(0)]
        if rng.random() < 0.7:
            entry["cards"] = cards
            entry["flop"] = "bet"
            entry["turn"] = rng.choice(["bet", "check"])
            entry["river"] = rng.choice(["bet", "check"])
        else:
            entry["flop"] = "fold"
            if entry.get("bonus") or rng.random() < 0.5:
                entry["cards"] = cards
        boxes.append(entry)
    record["boxes"] = boxes
    if any(b["flop"] == "bet" for b in boxes):
        record["dealer"] = dealer
        record["board"] = [deck.pop(0) for _ in range(5)]
    elif rng.random() < 0.5:
        record["dealer"] = dealer
    return record


def broken(rng: random.Random, record: dict) -> dict:
    """The hand with one thing wrong (or, now and then, something odd that is still fine)."""
    record = copy.deepcopy(record)
    box = rng.choice(record["boxes"])
    how = rng.randrange(24)
    if how == 0:
        box.pop("ante")
    elif how == 1:
        box["ante"] = 10.5
    elif how == 2:
        box["ante"] = 100000
    elif how == 3:
        box["flop"] = "raise"
    elif how == 4:
        box.pop("flop")
    elif how == 5:
        box["turn"] = "fold"
    elif how == 6:
        box.pop("turn", None)
    elif how == 7:
        box["river"] = "check"
    elif how == 8:
        box.pop("cards", None)
    elif how == 9:
        box["cards"] = list(record.get("board", ["2c", "3c"])[:2]) if record.get("board") else ["Xx", "2c"]
    elif how == 10:
        box["cards"] = box.get("cards", ["2c", "3c"])[:1]
    elif how == 11:
        box["colour"] = "red"
    elif how == 12:
        record["seat"] = 3
    elif how == 13:
        record.pop("board", None)
    elif how == 14:
        record["board"] = (record.get("board") or ["2c", "3d", "4h", "5s", "6c"])[:4]
    elif how == 15:
        record.pop("dealer", None)
    elif how == 16:
        record["boxes"].append(copy.deepcopy(box))
    elif how == 17:
        box["box"] = rng.choice([0, 8, "1", True])
    elif how == 18:
        record["paytable"] = rng.choice(["vegas", 7])
    elif how == 19:
        record["house"] = {"ante_pays_from": rng.choice(["pair", "flush"]), "colour": 1}
    elif how == 20:
        record["limits"] = {"min_ante": rng.choice([5, "5", -1]), "max_ante": rng.choice([4, 100, 1000])}
    elif how == 21:
        box["bonus"] = rng.choice([0, None, -5, 1000, 2.5])
    elif how == 22:
        record["game"] = rng.choice(["holdem-bonus", None])
    else:
        record["boxes"] = rng.choice([[], {}, [1]])
    return record


def lines(count: int = 120, seed: int = 20261122) -> list[dict]:
    rng = random.Random(seed)
    golden = [json.loads(line)["record"] for line in (HERE / "thb_golden.jsonl").open()]
    records = [copy.deepcopy(r) for r in golden]
    for index in range(count):
        hand = random_hand(rng, index)
        records.append(hand)
        records.append(broken(rng, hand))
    for hand in golden:
        for _ in range(4):
            records.append(broken(rng, hand))
    return records


def main() -> None:
    sys.path.insert(0, str(HERE.parents[2]))
    from casino.rules.replay import replay_record

    with OUT.open("w", encoding="utf-8") as out:
        for record in lines():
            line = {"record": record, "answer": replay_record(record)}
            out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
