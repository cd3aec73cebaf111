"""Hands played through the dealers' tablets' services with random legal actions (issue #15).

``simulate_tournament --hand-by-hand`` plays every hand of an event this way instead of drawing its
result: ``play_dealt_hand`` starts the hand on the table's tablet service (``services.dealing.start_hand``: the
blinds, antes and dead button are the engine's), then sends, one write at a time, what a dealer would
enter: each player's act in turn, chosen at random among those the engine allows (``legal()``: fold,
check, call, a bet or raise between the smallest and the largest allowed, all-in), the board's cards
from a shuffled deck, every hand at the showdown in the engine's order, and the award. Each hand thus
goes through the same writes as a tablet's, and its end into the event by itself.

Every hand at the showdown is shown (none is mucked), so that each exported hand line carries what
``replay_hand`` needs to settle it again: the simulator checks the stacks it replays to against those
recorded.
"""

from __future__ import annotations

import itertools
from random import Random
from typing import Any

from casino.rules.cards import full_deck
from casino.rules.errors import RuleViolation
from casino.rules.holdem import HoldemHand, Phase
from casino.rules.holdem.hand import ENDED
from tournaments.models import DealtTable, TableHand
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing


def random_legal_record(engine: HoldemHand, rng: Random, *, holes: dict[int, list[str]], deck: list[str],
                        all_in_chance: float = 0.05) -> dict[str, Any]:
    """What the dealer enters next in this hand, the player's choice drawn among the legal ones."""
    phase = engine.phase
    if phase is Phase.BETTING:
        legal = engine.legal()
        seat = legal.seat
        choices: list[tuple[dict[str, Any], float]] = []
        if legal.check:
            choices.append(({"action": "check", "seat": seat}, 6))
        else:
            choices.append(({"action": "fold", "seat": seat}, 4))
            choices.append(({"action": "call", "seat": seat}, 5))
        if legal.min_to is not None:
            # in whole chips of the smallest denomination in play (TDA-20), up to three times the minimum
            unit = engine.setup.chip_unit
            top = min(legal.max_to, legal.min_to * 3)
            to = legal.min_to + unit * rng.randint(0, max(0, (top - legal.min_to) // unit))
            verb = "bet" if engine.current_bet == 0 else "raise"
            choices.append(({"action": verb, "seat": seat, "to": to}, 1.5))
        if engine.can_all_in(seat):  # not when the betting is not reopened for him (TDA-47)
            choices.append(({"action": "all-in", "seat": seat}, 10 * all_in_chance))
        records, weights = zip(*choices, strict=True)
        return dict(rng.choices(records, weights=weights)[0])
    if phase is Phase.BOARD:
        dealt = len(engine.board)
        if dealt == 0:
            return {"action": "deal-flop", "cards": [deck.pop(), deck.pop(), deck.pop()]}
        return {"action": "deal-turn" if dealt == 3 else "deal-river", "card": deck.pop()}
    if phase is Phase.SHOWDOWN:
        for seat in engine.showdown_order():
            p = engine.seats.index(seat)
            if not engine.shown[p] and not engine.mucked[p]:
                return {"action": "show", "seat": seat, "cards": holes[seat]}
    if phase is Phase.AWARD:
        return {"action": "award-pots"}
    raise ValueError(f"nothing to enter in phase {phase.value}")


def play_dealt_hand(table: DealtTable, dealer, rng: Random, *, keys: itertools.count,
                    all_in_chance: float = 0.05, absent_chance: float = 0.02, director=None) -> TableHand:
    """One whole hand at ``table`` through ``tournaments.services.dealing``, each entry one write as a tablet's; now
    and then a player is away from the seat when the deal ends, and the dealer kills the hand (TDA-30).
    In hand-for-hand, a board held after an all-in and a call (RP-08-F) is released by ``director``, as a
    real one does once the other tables' hands of the deal are over: the simulator plays the tables one
    after the other, so they are, in effect (issue #36)."""

    def tap(fn, **kwargs):
        table.refresh_from_db(fields=["version"])
        return fn(table=table, by=dealer, key=f"sim-deal-{next(keys)}", expected_version=table.version, **kwargs)

    tap(dealing.start_hand)
    hand = hand_reads.latest_hand(table)
    deck = [str(c) for c in full_deck()]
    rng.shuffle(deck)
    holes = {seat: [deck.pop(), deck.pop()] for seat in sorted(int(s) for s in hand.entries)}
    for seat in sorted(holes):
        if rng.random() < absent_chance and hand_reads.hand_state(hand).can_kill_hand(seat):
            tap(dealing.act, record={"action": "kill-hand", "seat": seat}, rng=rng)
    while True:
        engine = hand_reads.hand_state(hand)
        if engine.phase in ENDED:
            return hand
        record = random_legal_record(engine, rng, holes=holes, deck=deck, all_in_chance=all_in_chance)
        try:
            tap(dealing.act, record=record, rng=rng)
        except RuleViolation as refused:
            if refused.clause != "RP-08-F" or director is None:
                raise
            table.refresh_from_db(fields=["version"])
            dealing.release_board(table=table, by=director, key=f"sim-deal-{next(keys)}",
                                  expected_version=table.version)
            tap(dealing.act, record=record, rng=rng)


def verify_dealt_hands(hand_ids: list[int]) -> list[str]:
    """Replay each hand's exported line (``replay_hand``) and compare its stacks with those the tablet
    recorded; the hands that differ, as sentences (none: every hand replays exactly)."""
    from casino.rules.holdem.replay import replay_holdem_hand

    problems = []
    for hand in TableHand.objects.filter(pk__in=hand_ids).select_related("table").order_by("pk"):
        line = hand_reads.hand_line(hand)
        answer = replay_holdem_hand(line)
        recorded = {str(seat): chips for seat, chips in sorted(hand_reads.hand_state(hand).stacks.items())}
        if answer.get("stacks") != recorded:
            problems.append(f"hand {line['hand']}: replayed {answer.get('stacks') or answer}, recorded {recorded}")
    return problems
