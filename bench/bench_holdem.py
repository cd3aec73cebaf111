"""How fast the Hold'em engine plays and replays hands.

1. Random complete six-handed no-limit hands through ``HoldemHand`` (posting,
   dealing, random legal acts, showdown, award), hands per second; the same
   kind of hands through pokerkit for comparison when it is installed.
2. The replay of 10,000 recorded hands (JSON lines, as ``replay_hand`` reads
   them) through ``replay_holdem_hand``, checking that each one ends with the
   stacks it was recorded with.

    .venv/bin/python bench/bench_holdem.py [--hands 3000] [--replays 10000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino.rules.cards import full_deck  # noqa: E402
from casino.rules.holdem import HoldemHand, Phase, TableSetup  # noqa: E402
from casino.rules.holdem.replay import replay_holdem_hand  # noqa: E402

CARDS = full_deck()
SEATS = 6


def random_setup(rng: random.Random) -> TableSetup:
    seats = sorted(rng.sample(range(1, 11), SEATS))
    stacks = {seat: rng.randint(10, 300) * 100 for seat in seats}
    return TableSetup(stacks=stacks, button=rng.choice(seats), small_blind=50, big_blind=100)


def play_random_hand(rng: random.Random, setup: TableSetup) -> HoldemHand:
    """One complete hand with random legal acts; the dealer shows every live hand at the showdown."""
    hand = HoldemHand(setup)
    deck = rng.sample(CARDS, 2 * SEATS + 8)
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards({seat: deck[2 * i:2 * i + 2] for i, seat in enumerate(setup.order)})
    board = iter(((deck[-7], deck[-6], deck[-5]), (deck[-3],), (deck[-1],)))
    rand = rng.random
    while True:
        phase = hand.phase
        if phase is Phase.BETTING:
            legal = hand.legal()
            seat = legal.seat
            roll = rand()
            if legal.call and roll < 0.25:
                hand = hand.fold(seat)
            elif legal.min_to is not None and roll > 0.75:
                hand = hand.raise_to(seat, legal.min_to if roll < 0.93 else legal.max_to)
            elif legal.call:
                hand = hand.call(seat)
            else:
                hand = hand.check(seat)
        elif phase is Phase.BOARD:
            hand = hand.deal_next_street(next(board))
        elif phase is Phase.SHOWDOWN:
            for seat in hand.showdown_order():
                hand = hand.show_hand(seat)
        elif phase is Phase.AWARD:
            hand = hand.award_pots()
            return hand


def hand_line(hand: HoldemHand) -> dict:
    """The recorded line of a finished hand (docs/hand-history.md, Hold'em hands)."""
    setup = hand.setup
    cards = {}
    acts = []
    board = [str(c) for c in hand.board]
    for action in hand.actions:
        data = action.to_dict()
        if action.kind == "deal-hole-cards":
            cards = data["cards"]
        elif "seat" in data and action.kind not in ("show", "muck"):
            # A record says {"action": kind, ...}; a hand line's act says {"act": kind, ...}.
            data["act"] = data.pop("action")
            acts.append(data)
    return {"game": "holdem", "betting": setup.betting.value,
            "blinds": {"small": setup.small_blind, "big": setup.big_blind}, "button": setup.button,
            "stacks": {str(s): c for s, c in setup.stacks.items()}, "actions": acts, "cards": cards, "board": board}


def bench_engine(hands: int, seed: int) -> tuple[float, list[tuple[str, dict]]]:
    rng = random.Random(seed)
    setups = [random_setup(rng) for _ in range(hands)]
    start = time.perf_counter()
    played = [play_random_hand(rng, setup) for setup in setups]
    elapsed = time.perf_counter() - start
    return hands / elapsed, [(json.dumps(hand_line(h)), {str(s): c for s, c in h.stacks.items()}) for h in played]


def bench_pokerkit(hands: int, seed: int) -> float | None:
    try:
        import pokerkit as pk
    except ImportError:
        return None
    rng = random.Random(seed)
    automations = tuple(a for a in pk.Automation)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            stacks = [rng.randint(10, 300) * 100 for _ in range(SEATS)]
            state = pk.NoLimitTexasHoldem.create_state(automations, True, 0, (50, 100), 100, stacks, SEATS,
                                                       mode=pk.Mode.CASH_GAME)
            while state.status:
                roll = rng.random()
                call = state.checking_or_calling_amount
                low = state.min_completion_betting_or_raising_to_amount
                if call and roll < 0.25:
                    state.fold()
                elif low is not None and roll > 0.75:
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(low if roll < 0.93 else high)
                else:
                    state.check_or_call()
    return hands / (time.perf_counter() - start)


def bench_replay(lines: list[tuple[str, dict]]) -> float:
    start = time.perf_counter()
    for text, stacks in lines:
        answer = replay_holdem_hand(json.loads(text))
        if answer.get("stacks") != stacks:
            raise SystemExit(f"replay differs from the recorded hand: {text}\n{answer}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000, help="random hands through the engine")
    parser.add_argument("--pokerkit-hands", type=int, default=300, help="random hands through pokerkit")
    parser.add_argument("--replays", type=int, default=10_000, help="recorded hands to replay")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    print(f"python {platform.python_version()} on {platform.machine()}, {SEATS}-handed no-limit hold'em")
    rate, _ = bench_engine(args.hands, args.seed)
    print(f"engine:  {rate:,.0f} random complete hands/s ({args.hands:,} hands)")
    pk_rate = bench_pokerkit(args.pokerkit_hands, args.seed)
    if pk_rate is not None:
        print(f"pokerkit: {pk_rate:,.0f} random complete hands/s ({args.pokerkit_hands:,} hands),"
              f" engine x{rate / pk_rate:.1f}")
    _, lines = bench_engine(args.replays, args.seed + 1)
    seconds = bench_replay(lines)
    print(f"replay:  {args.replays:,} recorded hands in {seconds:.2f} s ({args.replays / seconds:,.0f} hands/s),"
          " each ending on its recorded stacks")


if __name__ == "__main__":
    main()
