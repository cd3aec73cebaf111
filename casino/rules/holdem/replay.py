"""Replay a recorded Hold'em hand line and answer with the state after its last action.

The line format (``docs/hand-history.md``, "Hold'em hands")::

    {"game": "holdem", "betting": "no-limit", "blinds": {"small": 100, "big": 200},
     "ante": {"kind": "big-blind", "amount": 200}, "button": 4,
     "stacks": {"1": 20000, "2": 20000, "3": 20000, "4": 20000},
     "actions": [{"seat": 3, "act": "call"}, {"seat": 4, "act": "raise", "to": 1000}, {"seat": 1, "act": "fold"}],
     "cards": {"3": ["As", "Kd"], "4": ["Qh", "Qc"]}, "board": ["2c", "7d", "9h", "Js", "Kc"]}

The answer, after the three actions above::

    {"street": "preflop", "to_act": 2, "legal": {"fold": true, "check": false, "call": 800,
     "min_to": 1800, "max_to": 19800}, "pot_total": 1700, "pots": [{"amount": 1700, "eligible": [2, 3, 4]}],
     "stacks": {"1": 19900, "2": 19600, "3": 19800, "4": 19000}}

and when the hand is over ``to_act`` and ``legal`` are null and ``payouts``
maps each seat to what it collects. A refused action or bad input gives
``{"error": "<why (CLAUSE)>", "action": <index or null>}``; this function
never raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.cards import Card, parse_cards
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem.actions import DEALING_ERROR_KINDS, action_from_dict
from casino.rules.holdem.config import FORMAT, HouseRules, Mode, TableSetup
from casino.rules.holdem.hand import HoldemHand, Phase

KNOWN_KEYS = frozenset({
    "game", "hand", "betting", "blinds", "ante", "button", "stacks", "actions", "cards", "board", "chip_unit",
    "small_blind_seat", "big_blind_seat",
    # Extensions: the house options and the tournament's heads-up flag (docs/holdem-engine.md).
    "mode", "rules", "heads_up_in_tournament",
    # A tournament hand's start and level (issue #36): what the inspector reads, not what the replay settles.
    "started_at", "level",
    # The burns of each street when a burn error changed them (CC-105): checked against the acts' outcome.
    "burns",
    # The deck it was dealt with (issue #39): what the inspector reads, not what the replay settles.
    "deck",
})
SEAT_ACTS = ("fold", "check", "call", "bet", "raise", "all-in", "chips", "kill-hand")
TABLE_ACTS = ("misdeal", "defective-deck")
#: The dealing errors (issue #38 item 2), written as their records with "act" for "action".
ERROR_ACTS = tuple(sorted(DEALING_ERROR_KINDS))
#: Those that take the place of a street's deal: the board is not dealt from ``board`` before them.
DEALT_BY_ERROR = ("four-card-flop",)
#: The director's ruling on a skipped hand (TDA-53-B): ``{"seat": 4, "act": "skipped-hand", "ruling": "dead"}``.
RULING_ACT = "skipped-hand"


class _ActionRefused(Exception):
    def __init__(self, index: int, violation: RuleViolation | str) -> None:
        super().__init__(str(violation))
        self.index = index


def replay_holdem_hand(record: dict) -> dict:
    """Replay one Hold'em hand line (a parsed JSON object); never raises."""
    try:
        return _replay(record)
    except _ActionRefused as refused:
        return {"error": str(refused), "action": refused.index}
    except RuleViolation as violation:
        return {"error": str(violation), "action": None}
    except Exception as exc:  # noqa: BLE001 - the contract is an answer, never a traceback
        return {"error": f"Unreadable hand: {exc.__class__.__name__}: {exc} ({FORMAT})", "action": None}


def _read_rules(record: Mapping[str, Any]) -> HouseRules:
    rules_data = record.get("rules") or {}
    if not isinstance(rules_data, Mapping):
        raise RuleViolation(N_("rules must be an object of house options"), FORMAT)
    data = dict(rules_data)
    if "mode" in record:
        data["mode"] = record["mode"]
    try:
        return HouseRules.from_dict(data)
    except ValueError as exc:
        modes = ", ".join(m.value for m in Mode)
        raise RuleViolation(N_("Unknown house option value (%(problem)s); mode is one of %(modes)s"), "C-21",
                            problem=str(exc), modes=modes) from None


def _read_cards(record: Mapping[str, Any], setup: TableSetup) -> tuple[dict[int, tuple[Card, ...]], list[Card]]:
    raw_cards = record.get("cards") or {}
    if not isinstance(raw_cards, Mapping):
        raise RuleViolation(N_("cards must map seats to two cards, such as {\"3\": [\"As\", \"Kd\"]}"), FORMAT)
    hole: dict[int, tuple[Card, ...]] = {}
    for key, value in raw_cards.items():
        seat = int(key) if isinstance(key, str) and key.strip().isdigit() else key
        if seat not in setup.stacks:
            raise RuleViolation(N_("cards are given for seat %(seat)s, which is not dealt in"), "TDA-35-A", seat=key)
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise RuleViolation(N_("Seat %(seat)s's cards must be a list such as [\"As\", \"Kd\"]"), FORMAT, seat=seat)
        cards = parse_cards(value)
        if len(cards) != 2:
            raise RuleViolation(N_("Seat %(seat)s must have exactly two hole cards, not %(count)s"), "TDA-35-A",
                                seat=seat, count=len(cards))
        hole[seat] = cards
    raw_board = record.get("board") or []
    if isinstance(raw_board, str) or not isinstance(raw_board, list | tuple):
        raise RuleViolation(N_("board must be a list of up to five cards"), FORMAT)
    board = list(parse_cards(raw_board))
    if len(board) > 5:
        raise RuleViolation(N_("The board has five cards, not %(count)s"), "CC-103", count=len(board))
    seen: set[Card] = set()
    for card in [c for cards in hole.values() for c in cards] + board:
        if card in seen:
            raise RuleViolation(N_("%(card)s appears twice in the hand: one deck has one of each card (a defective"
                                   " deck stops the hand)"), "TDA-35-E", card=str(card))
        seen.add(card)
    return hole, board


def _replay(record: Any) -> dict:
    if not isinstance(record, Mapping):
        raise RuleViolation(N_("A hand line must be a JSON object"), FORMAT)
    unknown = sorted(set(record) - KNOWN_KEYS)
    if unknown:
        raise RuleViolation(N_("Unknown key in a Hold'em hand line: %(keys)s"), FORMAT, keys=", ".join(unknown))
    if record.get("game", "holdem") != "holdem":
        raise RuleViolation(N_("This replays Hold'em hands, not %(game)r"), FORMAT, game=record.get("game"))
    hand_id = record.get("hand")
    if hand_id is not None and (isinstance(hand_id, bool) or not isinstance(hand_id, str | int)):
        raise RuleViolation(N_("hand must be the hand's id (text or a whole number), not %(hand)r"), FORMAT,
                            hand=hand_id)
    rules = _read_rules(record)
    setup = TableSetup.from_dict(record, rules)
    hole, board = _read_cards(record, setup)
    actions = record.get("actions") or []
    if isinstance(actions, str) or not isinstance(actions, list | tuple):
        raise RuleViolation(N_("actions must be a list such as [{\"seat\": 3, \"act\": \"call\"}]"), FORMAT)

    hand = HoldemHand(setup, rules)._batch()  # nobody sees the states in between: one draft for all steps
    if hand.phase is Phase.ANTES:
        hand = hand.post_antes()
    hand = hand.post_blinds().deal_hole_cards(hole)
    hand = _deal_what_is_due(hand, board, _upcoming(actions, 0))
    for index, action in enumerate(actions):
        try:
            hand = _apply(hand, action)
        except RuleViolation as violation:
            raise _ActionRefused(index, violation) from None
        hand = _deal_what_is_due(hand, board, _upcoming(actions, index + 1))
    hand = _settle_if_possible(hand)._done()
    _check_burns(record.get("burns"), hand)
    answer = _answer(hand)
    if hand_id is not None:
        answer = {"hand": hand_id, **answer}
    return answer


def _apply(hand: HoldemHand, action: Any) -> HoldemHand:
    """The next state after one act of the line (written with ``"act"``, as the format says)."""
    if not isinstance(action, Mapping):
        raise RuleViolation(N_("An action must be an object such as {\"seat\": 3, \"act\": \"call\"}, not"
                               " %(action)r"), FORMAT, action=action)
    act = action.get("act")
    if act in ERROR_ACTS:
        return hand.apply(action_from_dict({"action": act, **{k: v for k, v in action.items() if k != "act"}}))
    if act in TABLE_ACTS:
        if act == "misdeal":
            return hand.declare_misdeal()
        return hand.declare_defective_deck()
    if act not in SEAT_ACTS and act != RULING_ACT:
        raise RuleViolation(N_("%(act)r is not an act: use one of %(acts)s"), FORMAT, act=act,
                            acts=", ".join(SEAT_ACTS + TABLE_ACTS + (RULING_ACT,) + ERROR_ACTS))
    allowed = {"seat", "act"} | ({"to"} if act in ("bet", "raise") else {"chips"} if act == "chips" else set())
    # An act out of turn (TDA-53-A), recorded at its seat: {"seat": 6, "act": "raise", "to": 800, "out_of_turn": true}
    out_of_turn = action.get("out_of_turn", False)
    if out_of_turn is not False:
        allowed |= {"out_of_turn"}
        if out_of_turn is not True:
            raise RuleViolation(N_("out_of_turn is true or absent"), FORMAT)
    if act == RULING_ACT:
        allowed |= {"ruling"}
    extra = sorted(set(action) - allowed)
    if extra:
        raise RuleViolation(N_("A %(act)s action has no %(keys)s"), FORMAT, act=act, keys=", ".join(extra))
    seat = action.get("seat")
    if isinstance(seat, str) and seat.strip().isdigit():
        seat = int(seat)
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RuleViolation(N_("A %(act)s action needs the seat number that acts"), FORMAT, act=act)
    if hand.phase is not Phase.BETTING:
        if hand.phase in (Phase.SHOWDOWN, Phase.AWARD) or hand.is_over:
            raise RuleViolation(N_("The betting is over: seat %(seat)s cannot %(act)s any more"), "CC-113", seat=seat,
                                act=act)
    if act == RULING_ACT:
        return hand.rule_skipped_hand(seat, action.get("ruling"))
    if out_of_turn:
        to = action.get("to")
        if act in ("bet", "raise") and (isinstance(to, bool) or not isinstance(to, int)):
            raise RuleViolation(N_("A %(act)s needs \"to\": the player's total for the round, in whole chips"),
                                "TDA-43-B", act=act)
        return hand.act_out_of_turn(seat, act, to)
    if act == "fold":
        return hand.fold(seat)
    if act == "kill-hand":  # the dealer kills a dead hand at the end of the deal (TDA-30, CC-29, TDA-71-D)
        return hand.kill_hand(seat)
    if act == "check":
        return hand.check(seat)
    if act == "call":
        return hand.call(seat)
    if act in ("bet", "raise"):
        to = action.get("to")
        if isinstance(to, bool) or not isinstance(to, int):
            raise RuleViolation(N_("A %(act)s needs \"to\": the player's total for the round, in whole chips"),
                                "TDA-43-B", act=act)
        if act == "bet":
            return hand.bet(seat, to)
        return hand.raise_to(seat, to)
    if act == "all-in":
        return hand.all_in(seat)
    chips = action.get("chips")
    if isinstance(chips, str) or not isinstance(chips, list | tuple):
        raise RuleViolation(N_("A chips action needs \"chips\": each chip's value, such as [1000, 500]"),
                            "TDA-45")
    return hand.push_chips(seat, list(chips))


def _check_burns(said: Any, hand: HoldemHand) -> None:
    """A line's ``burns`` (``{"flop": 1, "turn": 2}``: the burn cards before each street, written when a burn
    error changed them) must be what its acts make them: two after a missed burn, none after an extra one
    (CC-105)."""
    if said is None:
        return
    if not isinstance(said, Mapping) or any(
            street not in STREET_NAMES or isinstance(n, bool) or not isinstance(n, int) for street, n in said.items()):
        raise RuleViolation(N_("burns gives each street's burn cards as a number, such as {\"flop\": 1, "
                               "\"turn\": 2}"), FORMAT)
    made = dict(zip(STREET_NAMES, hand.burn_counts, strict=False))
    for street, n in said.items():
        if made.get(street) != n:
            raise RuleViolation(N_("The line says the %(street)s was dealt after %(said)s burns; its acts make it "
                                   "%(made)s"), "CC-105", street=street, said=n, made=made.get(street, 0))


#: The streets of the board, in order, as a line names them.
STREET_NAMES = ("flop", "turn", "river")


def _upcoming(actions: list | tuple, index: int) -> Any:
    """The line's act at ``index``, if any (a four-card flop deals the flop itself)."""
    return actions[index] if index < len(actions) else None


def _deal_what_is_due(hand: HoldemHand, board: list[Card], upcoming: Any = None) -> HoldemHand:
    """Deal the next streets from the recorded board (unrecorded cards stay unknown); not when the next act
    is a dealing error that takes the place of the deal (a four-card flop)."""
    if isinstance(upcoming, Mapping) and upcoming.get("act") in DEALT_BY_ERROR and hand.phase is Phase.BOARD:
        return hand
    while hand.phase is Phase.BOARD:
        dealt = len(hand.board)
        count = 3 if dealt == 0 else 1
        cards = board[dealt:dealt + count]
        hand = hand.deal_next_street(cards if len(cards) == count else None)
    return hand


def _settle_if_possible(hand: HoldemHand) -> HoldemHand:
    if hand.phase is Phase.SHOWDOWN:
        # Every live hand is shown, in the TDA-17 order; without their cards the pots cannot be read.
        if all(hand.can_show_hand(seat) for seat in hand.showdown_order()):
            for seat in hand.showdown_order():
                hand = hand.show_hand(seat)
    if hand.phase is Phase.AWARD and hand.can_award_pots():
        hand = hand.award_pots()
    return hand


def _answer(hand: HoldemHand) -> dict:
    phase = hand.phase
    if phase is Phase.MISDEAL:
        street = "misdeal"
    elif phase is Phase.VOID:
        street = "void"
    elif phase in (Phase.SHOWDOWN, Phase.AWARD, Phase.COMPLETE) and len(hand.in_hand) > 1:
        street = "showdown"
    else:
        street = hand.street.value
    legal = hand.legal()
    answer: dict[str, Any] = {
        "street": street,
        "to_act": hand.to_act,
        "legal": None if legal is None else legal.to_dict(),
        "pot_total": hand.pot_total,
        "pots": [pot.to_dict() for pot in hand.pots()],
        "stacks": {str(seat): chips for seat, chips in sorted(hand.stacks.items())},
    }
    if phase is not Phase.BETTING:
        payouts = hand.payouts
        answer["payouts"] = None if payouts is None else {str(s): c for s, c in sorted(payouts.items())}
    return answer
