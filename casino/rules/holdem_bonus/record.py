"""The hand-history format of a Texas Hold'em Bonus hand, replayed through the engine.

One hand is one JSON object (docs/hand-history.md)::

    {"game": "texas-holdem-bonus", "limits": {"min_ante": 5, "max_ante": 100},
     "dealer": ["Ah", "Ad"], "board": ["2c", "7d", "9h", "Js", "Kc"],
     "boxes": [{"box": 1, "ante": 10, "bonus": 5, "cards": ["As", "Ac"],
                "flop": "bet", "turn": "bet", "river": "check"},
               {"box": 3, "ante": 20, "cards": ["5h", "6h"], "flop": "fold"}]}

``replay_thb_record`` turns it into the engine's records in the order a
dealer takes them (bets, "no va más", the deal, decisions box 1 upwards,
streets, the dealer's cards, boxes 7 down to 1) and applies them one by one,
so every rule the engine enforces is enforced on the record too. It returns
the answer dict or raises ``RuleViolation`` whose message names the box and
the clause.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.cards import Card, parse_cards
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import actions as act
from casino.rules.holdem_bonus.paytable import get_paytable
from casino.rules.holdem_bonus.state import HandState, Phase, new_hand
from casino.rules.holdem_bonus.table_rules import TableRules

GAME = "texas-holdem-bonus"
#: Stands for "no limit stated" when a record carries no ``limits``: amounts are then not checked against limits.
UNSTATED_LIMIT = 10**15

_RECORD_KEYS = ("game", "hand", "limits", "paytable", "house", "dealer", "board", "boxes")
_LIMIT_KEYS = ("min_ante", "max_ante", "min_bonus", "max_bonus")
_HOUSE_KEYS = ("ante_pays_from", "approval_awards", "approval_above")
_BOX_KEYS = ("box", "ante", "bonus", "cards", "flop", "turn", "river")
_DECISION_WORDS = {"flop": ("bet", "fold"), "turn": ("bet", "check"), "river": ("bet", "check")}
_DECISION_CLAUSE = {"flop": "THB-41", "turn": "THB-43", "river": "THB-44"}


def _check_keys(data: Mapping, allowed: tuple[str, ...], where: str, clause: str | None = None) -> None:
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise RuleViolation(
            f"{where} has an unknown key {unknown[0]!r}; its keys are {', '.join(allowed)}", clause
        )


def _whole(value: object, what: str, clause: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"{what} must be a whole amount, not {value!r}", clause)
    return value


def _read_cards(value: object, where: str, count: int, clause: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RuleViolation(f"{where} must be a list of {count} cards such as [\"Ah\", \"Kd\"], not {value!r}", clause)
    try:
        cards = parse_cards(value)
    except RuleViolation as bad:
        raise RuleViolation(f"{where}: {bad.message}", bad.clause) from None
    if len(cards) != count:
        raise RuleViolation(f"{where} must be {count} cards, not {len(cards)}", clause)
    return cards


def table_rules_from_record(record: Mapping[str, Any]) -> TableRules:
    """The table's limits, paytable and house options as the record states them (defaults otherwise)."""
    limits = record.get("limits", {})
    if not isinstance(limits, Mapping):
        raise RuleViolation(f"limits must be an object such as {{\"min_ante\": 5, \"max_ante\": 100}}, not {limits!r}",
                            "THB-19")
    _check_keys(limits, _LIMIT_KEYS, "limits", "THB-19")
    values: dict[str, Any] = {}
    for key in _LIMIT_KEYS:
        if key in limits:
            values[key] = _whole(limits[key], f"limits.{key}", "THB-20" if "bonus" in key else "THB-19")
    if "min_ante" not in values:
        values["min_ante"] = 1
        values.setdefault("max_ante", UNSTATED_LIMIT)  # no limits stated: none checked
    if "max_bonus" not in values and "max_ante" not in limits and "min_ante" not in limits:
        values["max_bonus"] = UNSTATED_LIMIT
    if "paytable" in record:
        name = record["paytable"]
        if not isinstance(name, str):
            raise RuleViolation(f"paytable must be a paytable's name, not {name!r}", "THB-53")
        values["paytable"] = get_paytable(name)
    house = record.get("house", {})
    if not isinstance(house, Mapping):
        raise RuleViolation(f"house must be an object of house options, not {house!r}", "C-29")
    _check_keys(house, _HOUSE_KEYS, "house", "C-29")
    if "ante_pays_from" in house:
        if house["ante_pays_from"] not in ("straight", "flush"):
            raise RuleViolation(
                f"house.ante_pays_from is 'straight' or 'flush', not {house['ante_pays_from']!r}", "THB-50"
            )
        values["ante_pays_from"] = house["ante_pays_from"]
    if "approval_awards" in house:
        awards = house["approval_awards"]
        if not isinstance(awards, list) or not all(isinstance(a, str) for a in awards):
            raise RuleViolation(f"house.approval_awards must be a list of award names, not {awards!r}", "THB-54")
        values["approval_awards"] = frozenset(awards)
    if "approval_above" in house and house["approval_above"] is not None:
        values["approval_above"] = _whole(house["approval_above"], "house.approval_above", "THB-54")
    return TableRules(**values)


def _read_box(entry: object, index: int) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise RuleViolation(f"boxes[{index}] must be an object such as {{\"box\": 1, \"ante\": 10, ...}}", "THB-05")
    number = entry.get("box")
    if isinstance(number, bool) or not isinstance(number, int):
        raise RuleViolation(f"boxes[{index}] needs its box number, 1 to 7, not {number!r}", "C-28")
    where = f"box {number}"
    _check_keys(entry, _BOX_KEYS, where, "THB-05")
    if not 1 <= number <= 7:
        raise RuleViolation(f"There is no box {number}: boxes are numbered 1 to 7", "C-28")
    if "ante" not in entry:
        raise RuleViolation(f"Box {number} has no ante: every box plays with an ante", "THB-26")
    ante = _whole(entry["ante"], f"Box {number}'s ante", "THB-26")
    bonus = entry.get("bonus", 0)
    bonus = 0 if bonus is None else _whole(bonus, f"Box {number}'s Bonus", "THB-20")
    decisions: dict[str, str] = {}
    for street in ("flop", "turn", "river"):
        if street not in entry:
            continue
        word = entry[street]
        if word not in _DECISION_WORDS[street]:
            allowed = " or ".join(_DECISION_WORDS[street])
            raise RuleViolation(f"Box {number}'s {street} decision is {allowed}, not {word!r}",
                                _DECISION_CLAUSE[street])
        decisions[street] = word
    if "flop" not in decisions:
        raise RuleViolation(f"Box {number} has no flop decision: a player bets the flop or folds", "THB-41")
    if decisions["flop"] == "fold":
        later = [s for s in ("turn", "river") if s in decisions]
        if later:
            raise RuleViolation(f"Box {number} folded and has no {later[0]} decision", "THB-55")
    else:
        for street in ("turn", "river"):
            if street not in decisions:
                raise RuleViolation(f"Box {number} made its flop bet and needs a {street} decision: bet or check",
                                    _DECISION_CLAUSE[street])
    cards = None
    if "cards" in entry:
        cards = _read_cards(entry["cards"], f"Box {number}'s cards", 2, "THB-40")
    elif decisions["flop"] == "bet":
        raise RuleViolation(f"Box {number} played against the dealer and its cards are missing", "THB-62")
    elif bonus:
        raise RuleViolation(f"Box {number} has a Bonus and its cards are missing: the Bonus is settled on them "
                            f"even after a fold", "C-31")
    return {"box": number, "ante": ante, "bonus": bonus, "cards": cards, "decisions": decisions}


def record_actions(record: Mapping[str, Any], rules: TableRules) -> list[act.Action]:
    """The engine records for a hand-history record, in the order the dealer takes them."""
    del rules  # the order does not depend on the table's settings
    boxes_data = record.get("boxes")
    if not isinstance(boxes_data, list) or not boxes_data:
        raise RuleViolation("boxes must be a list of at least one box: a hand needs a player", "THB-12")
    boxes = [_read_box(entry, i) for i, entry in enumerate(boxes_data)]
    seen: set[int] = set()
    for box in boxes:
        if box["box"] in seen:
            raise RuleViolation(f"Box {box['box']} appears twice: one box per player, one entry per box", "THB-12")
        seen.add(box["box"])
    ordered = sorted(boxes, key=lambda b: b["box"])
    playing = [b for b in ordered if b["decisions"]["flop"] == "bet"]

    dealer = None
    if record.get("dealer") is not None:
        dealer = _read_cards(record["dealer"], "The dealer's cards", 2, "THB-40")
    elif playing:
        raise RuleViolation("The dealer's cards are missing: boxes played against the dealer", "THB-61")
    board = ()
    if record.get("board") is not None:
        if not isinstance(record["board"], list):
            raise RuleViolation(f"The board must be a list of five cards, not {record['board']!r}", "THB-42")
        if playing:
            board = _read_cards(record["board"], "The board", 5, "THB-45")
        elif record["board"]:
            raise RuleViolation("Every box folded, so no board is dealt; the record has one", "THB-69")
    elif playing:
        raise RuleViolation("The board is missing: boxes played, so five community cards were dealt", "THB-42")

    actions: list[act.Action] = [act.PlaceAnte(b["box"], b["ante"]) for b in ordered]
    actions += [act.PlaceBonus(b["box"], b["bonus"]) for b in ordered if b["bonus"]]
    actions += [act.CloseBets(), act.DealInitial()]
    for b in ordered:
        if b["decisions"]["flop"] == "bet":
            actions.append(act.BetFlop(b["box"], 2 * b["ante"]))
        else:
            actions.append(act.Fold(b["box"], b["cards"]))
    if playing:
        actions.append(act.DealFlop(board[:3]))
        for street, deal in (("turn", act.DealTurn(board[3])), ("river", act.DealRiver(board[4]))):
            for b in playing:
                bet = b["decisions"][street] == "bet"
                kind = {"turn": (act.BetTurn, act.PassTurn), "river": (act.BetRiver, act.PassRiver)}[street]
                actions.append(kind[0](b["box"], b["ante"]) if bet else kind[1](b["box"]))
            actions.append(deal)
    if dealer is not None:
        actions.append(act.RevealDealer(dealer))
    actions += [act.RevealBox(b["box"], b["cards"]) for b in reversed(playing)]
    return actions


def hand_from_record(record: Mapping[str, Any], rules: TableRules | None = None) -> HandState:
    """The engine's state after replaying a hand-history record (``RuleViolation`` if a rule is broken)."""
    rules = rules or table_rules_from_record(record)
    state = new_hand(rules)
    for action in record_actions(record, rules):
        if isinstance(action, act.RevealDealer) and state.phase is Phase.SETTLED:
            # Everyone folded and no A-A Bonus needs them: the dealer mucks unseen (THB-69), but the
            # recorded cards must still be cards nobody else holds.
            state._check_new_cards(action.cards, 2, "the dealer's cards", "THB-69")
            continue
        state = state.apply(action)
    return state


def replay_thb_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one Texas Hold'em Bonus hand record; the answer dict, or ``RuleViolation``."""
    if not isinstance(record, Mapping):
        raise RuleViolation("A hand must be a JSON object")
    _check_keys(record, _RECORD_KEYS, "A Texas Hold'em Bonus hand")
    if record.get("game") != GAME:
        raise RuleViolation(f"This is not a {GAME} hand: game is {record.get('game')!r}")
    hand_id = record.get("hand")
    if hand_id is not None and (isinstance(hand_id, bool) or not isinstance(hand_id, str | int)):
        raise RuleViolation(f"hand must be the hand's id (text or a number), not {hand_id!r}")
    state = hand_from_record(record)
    if state.phase is not Phase.SETTLED:
        raise RuleViolation(f"The hand is incomplete: it still needs {state.awaiting}")
    return thb_answer(state, record)


def thb_answer(state: HandState, record: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A settled hand as the ``replay_hand`` answer: boxes in the record's order (box order otherwise)."""
    settlement = state.settlement
    answer: dict[str, Any] = {"game": GAME}
    if record is not None and record.get("hand") is not None:
        answer["hand"] = record["hand"]
    answer["dealer"] = {"category": settlement.dealer_category.value} if settlement.dealer_category else {}
    order = [b.box for b in settlement.boxes]
    if record is not None:
        order = [entry["box"] for entry in record["boxes"]]
    answer["boxes"] = [settlement.box(n).to_answer() for n in order]
    return answer
