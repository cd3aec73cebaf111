"""Time to settle a full seven-box Texas Hold'em Bonus hand (issue 3 target: median under 1 ms).

"Settle" is ``settle_hand``: all seven boxes against the dealer, every Bonus,
from the final cards and bets. For context it also times the whole hand
through the state machine (about 50 records: bets, deal, decisions, streets,
showdown) and the replay of its stored JSON records.

    .venv/bin/python bench/bench_thb_settle.py
"""

from __future__ import annotations

import statistics
import time

from casino.rules.holdem_bonus import TableRules, replay
from casino.rules.holdem_bonus.record import hand_from_record
from casino.rules.holdem_bonus.settlement import settle_hand

RUNS = 2_000
RECORD = {
    "game": "texas-holdem-bonus",
    "dealer": ["Qc", "Qd"],
    "board": ["2c", "7d", "9h", "Js", "Kc"],
    "boxes": [
        {"box": 1, "ante": 10, "bonus": 5, "cards": ["As", "Ac"], "flop": "bet", "turn": "bet", "river": "check"},
        {"box": 2, "ante": 20, "bonus": 5, "cards": ["Tc", "8d"], "flop": "bet", "turn": "check", "river": "bet"},
        {"box": 3, "ante": 5, "cards": ["3h", "4s"], "flop": "bet", "turn": "check", "river": "check"},
        {"box": 4, "ante": 50, "bonus": 10, "cards": ["Ah", "Kh"], "flop": "bet", "turn": "bet", "river": "bet"},
        {"box": 5, "ante": 15, "bonus": 2, "cards": ["6c", "6d"], "flop": "fold"},
        {"box": 6, "ante": 100, "cards": ["Kd", "9c"], "flop": "bet", "turn": "bet", "river": "bet"},
        {"box": 7, "ante": 25, "bonus": 25, "cards": ["Jd", "Jh"], "flop": "bet", "turn": "check", "river": "check"},
    ],
}


def median_ms(run) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    rules = TableRules(min_ante=5)
    hand = hand_from_record(RECORD, rules)
    assert hand.settlement is not None and len(hand.settlement.boxes) == 7
    records = [a.to_dict() for a in hand.actions]
    settle = median_ms(lambda: settle_hand(rules, hand.boxes, hand.dealer_cards, hand.board))
    play = median_ms(lambda: hand_from_record(RECORD, rules))
    again = median_ms(lambda: replay(rules, records))
    print(f"settle a seven-box hand (settle_hand), median       {settle:7.3f} ms  (target < 1 ms)")
    print(f"play a seven-box hand through the state machine     {play:7.3f} ms  ({len(records)} records)")
    print(f"replay its stored JSON records                      {again:7.3f} ms")


if __name__ == "__main__":
    main()
