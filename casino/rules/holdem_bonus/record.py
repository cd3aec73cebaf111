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

Optional keys, added later without changing any answer given before:

* ``"approvals": {"1": "approved", "4": "denied"}``: the pit boss's decision on
  awards that needed approval (THB-54), replayed through ``approve_bonus`` /
  ``deny_bonus`` once the hand is settled;
* ``"void": {"clause": "THB-73", "reason": "..."}``: the hand was void. Its
  boxes, decisions and board go as far as the hand went; the engine voids it
  there (``void_hand``, after checking that the clause's irregularity could
  void it at that point) and every stake is returned;
* a box's ``"void": true`` (or ``{"clause": "THB-76"}``): that box was dealt
  the wrong number of cards (THB-76); its decisions go as far as it made them,
  it is reported to the engine as late as the hand allows (before it would be
  asked to decide, or before the hand ends), and the others play on.

``record_from_state`` writes a settled or void hand back in this format (the
live table's export), so that replaying it answers ``thb_answer(state)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.cards import Card, parse_cards
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import actions as act
from casino.rules.holdem_bonus.paytable import paytable_from_record
from casino.rules.holdem_bonus.settlement import Approval
from casino.rules.holdem_bonus.state import HandState, Phase, new_hand
from casino.rules.holdem_bonus.table_rules import TableRules

GAME = "texas-holdem-bonus"
#: Stands for "no limit stated" when a record carries no ``limits``: amounts are then not checked against limits.
UNSTATED_LIMIT = 10**15

_RECORD_KEYS = ("game", "hand", "limits", "paytable", "house", "dealer", "board", "boxes", "approvals", "void")
_LIMIT_KEYS = ("min_ante", "max_ante", "min_bonus", "max_bonus")
_HOUSE_KEYS = ("ante_pays_from", "approval_awards", "approval_above", "release_every_bonus")
_BOX_KEYS = ("box", "ante", "bonus", "cards", "flop", "turn", "river", "void", "concede")
_DECISION_WORDS = {"flop": ("bet", "fold"), "turn": ("bet", "check"), "river": ("bet", "check")}
_DECISION_CLAUSE = {"flop": "THB-41", "turn": "THB-43", "river": "THB-44"}
_STREETS = ("flop", "turn", "river")
#: The clauses for which a whole hand is void and every stake returned: a dealing error (THB-24), a
#: dealer's card shown before the decisions (THB-73), more than one card face up in the deck
#: (THB-74), the dealer dealt the wrong number of cards (THB-76, or every box's hand void), a
#: defective deck (C-35).
HAND_VOID_CLAUSES = ("THB-24", "THB-73", "THB-74", "THB-76", "C-35")
#: The clause for which one box is void and the others play on: dealt the wrong number of cards.
BOX_VOID_CLAUSES = ("THB-76",)
_VOID_KEYS = ("clause", "reason")
_APPROVAL_WORDS = {"approved": act.ApproveBonus, "denied": act.DenyBonus}
#: How many cards a replayed box void reports: the record does not say how many were dealt, and
#: the count changes nothing in the settlement (every stake of the box is returned).
_WRONG_COUNT = 3


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
        # A registered paytable's name, or the object a casino's own (versioned) paytable is written as.
        paytable = record["paytable"]
        if not isinstance(paytable, (str, Mapping)):
            raise RuleViolation(f"paytable must be a paytable's name, not {paytable!r}", "THB-53")
        values["paytable"] = paytable_from_record(paytable)
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
    if "release_every_bonus" in house:
        if not isinstance(house["release_every_bonus"], bool):
            raise RuleViolation(f"house.release_every_bonus is true or false, not {house['release_every_bonus']!r}",
                                "THB-67")
        values["release_every_bonus"] = house["release_every_bonus"]
    else:
        # A record says it only when true (``record_from_state``): records kept before THB-67 became the
        # engine's default read as they were played.
        values["release_every_bonus"] = False
    # A record states the limits its hand was played at; THB-18's multiple is checked where a table is set up.
    values["max_ante_multiple"] = None
    return TableRules(**values)


def _read_box_void(value: object, number: int) -> bool:
    """A box's ``void``: ``true`` (THB-76), ``{"clause": "THB-76"}``, or ``false`` (not void)."""
    where = f"Box {number}'s void"
    if isinstance(value, bool):
        return value
    if not isinstance(value, Mapping):
        raise RuleViolation(f"{where} is true or {{\"clause\": \"THB-76\"}}, not {value!r}", "THB-76")
    _check_keys(value, ("clause",), f"box {number}'s void", "THB-76")
    clause = value.get("clause")
    if clause not in BOX_VOID_CLAUSES:
        raise RuleViolation(f"{where} has clause {clause!r}: a box alone is void only when it is dealt the wrong "
                            f"number of cards, {' or '.join(BOX_VOID_CLAUSES)}", "THB-76")
    return True


def _read_box(entry: object, index: int, hand_void: bool = False) -> dict[str, Any]:
    """One box of the record. In a void hand, or for a void box, the decisions go only as far as they
    were made (``hand_void``; the box's own ``void``); otherwise the box played its hand to the end."""
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
    void = _read_box_void(entry["void"], number) if "void" in entry else False
    concede = entry.get("concede", False)
    if not isinstance(concede, bool):
        raise RuleViolation(f"Box {number}'s concede is true or false, not {concede!r}", "THB-66")
    decisions: dict[str, str] = {}
    for street in _STREETS:
        if street not in entry:
            continue
        word = entry[street]
        if word not in _DECISION_WORDS[street]:
            allowed = " or ".join(_DECISION_WORDS[street])
            raise RuleViolation(f"Box {number}'s {street} decision is {allowed}, not {word!r}",
                                _DECISION_CLAUSE[street])
        decisions[street] = word
    if hand_void or void:
        _check_decisions_so_far(number, decisions)
    elif "flop" not in decisions:
        raise RuleViolation(f"Box {number} has no flop decision: a player bets the flop or folds", "THB-41")
    elif decisions["flop"] == "fold":
        later = [s for s in ("turn", "river") if s in decisions]
        if later:
            raise RuleViolation(f"Box {number} folded and has no {later[0]} decision", "THB-55")
    else:
        for street in ("turn", "river"):
            if street not in decisions:
                raise RuleViolation(f"Box {number} made its flop bet and needs a {street} decision: bet or check",
                                    _DECISION_CLAUSE[street])
    if concede and (void or hand_void or decisions.get("flop") != "bet" or "cards" in entry or bonus):
        raise RuleViolation(f"Box {number} concedes without turning its cards only when it played against the "
                            f"dealer, has no cards recorded and no Bonus bet", "THB-66")
    cards = None
    if concede:
        pass  # THB-66: its cards were never turned
    elif "cards" in entry:
        if void:
            raise RuleViolation(f"Box {number}'s hand is void and its cards are never shown: the record has none",
                                "THB-76")
        if "flop" not in decisions:
            raise RuleViolation(f"Box {number}'s cards are recorded only once shown, at its fold or at the "
                                f"showdown, and it has no flop decision", "THB-62")
        cards = _read_cards(entry["cards"], f"Box {number}'s cards", 2, "THB-40")
    elif hand_void or void:
        pass  # the hand (or the box) was void before its cards were shown
    elif decisions["flop"] == "bet":
        raise RuleViolation(f"Box {number} played against the dealer and its cards are missing", "THB-62")
    elif bonus:
        raise RuleViolation(f"Box {number} has a Bonus and its cards are missing: the Bonus is settled on them "
                            f"even after a fold", "C-31")
    return {"box": number, "ante": ante, "bonus": bonus, "cards": cards, "decisions": decisions, "void": void,
            "concede": concede}


def _check_decisions_so_far(number: int, decisions: Mapping[str, str]) -> None:
    """A box whose hand stopped (void): its decisions, in order, as far as it made them."""
    if "flop" not in decisions:
        later = [s for s in ("turn", "river") if s in decisions]
        if later:
            raise RuleViolation(f"Box {number} has a {later[0]} decision and no flop decision: the flop decision "
                                f"comes first", "THB-41")
    elif decisions["flop"] == "fold":
        later = [s for s in ("turn", "river") if s in decisions]
        if later:
            raise RuleViolation(f"Box {number} folded and has no {later[0]} decision", "THB-55")
    elif "river" in decisions and "turn" not in decisions:
        raise RuleViolation(f"Box {number} has a river decision and no turn decision: the turn decision comes "
                            f"first", "THB-43")


def _read_hand_void(value: object) -> tuple[str, str]:
    """The record's top-level ``void``: the clause and the reason the hand was void."""
    example = '{"clause": "THB-73", "reason": "dealer\'s card exposed"}'
    if not isinstance(value, Mapping):
        raise RuleViolation(f"void must be an object such as {example}, not {value!r}", "THB-24")
    _check_keys(value, _VOID_KEYS, "void", "THB-24")
    clause = value.get("clause")
    if clause not in HAND_VOID_CLAUSES:
        raise RuleViolation(f"void.clause is the clause the hand was void for, one of "
                            f"{', '.join(HAND_VOID_CLAUSES)}; not {clause!r}", "THB-24")
    reason = value.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise RuleViolation(f"void.reason says in words why the hand was void, not {reason!r}", clause)
    return clause, reason


def _read_approvals(value: object) -> list[tuple[int, str]]:
    """The record's ``approvals``: ``{"<box>": "approved" | "denied"}``, in box order."""
    if not isinstance(value, Mapping):
        raise RuleViolation(f"approvals must be an object such as {{\"1\": \"approved\"}}, not {value!r}",
                            "THB-54")
    decided = []
    for key, word in value.items():
        if not (isinstance(key, str) and key.isdecimal() and key == str(int(key))):
            raise RuleViolation(f"approvals are given by box number, such as \"1\", not {key!r}", "C-28")
        number = int(key)
        if not 1 <= number <= 7:
            raise RuleViolation(f"There is no box {number}: boxes are numbered 1 to 7", "C-28")
        if word not in _APPROVAL_WORDS:
            raise RuleViolation(f"Box {number}'s Bonus award is approved or denied, not {word!r}", "THB-54")
        decided.append((number, word))
    return sorted(decided)


def _read_partial_board(value: object) -> tuple[Card, ...]:
    """The board of a hand that stopped: the flop, turn and river as far as they were dealt."""
    if not isinstance(value, list):
        raise RuleViolation(f"The board must be a list of cards, not {value!r}", "THB-42")
    try:
        cards = parse_cards(value)
    except RuleViolation as bad:
        raise RuleViolation(f"The board: {bad.message}", bad.clause) from None
    if len(cards) not in (0, 3, 4, 5):
        raise RuleViolation(f"The board must be the flop, turn and river as far as they were dealt: 0, 3, 4 or 5 "
                            f"cards, not {len(cards)}", "THB-42")
    return cards


def record_actions(record: Mapping[str, Any], rules: TableRules) -> list[act.Action]:
    """The engine records for a hand-history record, in the order the dealer takes them.

    A void hand ends with its ``void-hand`` record, a settled one with the awards' approvals.
    """
    del rules  # the order does not depend on the table's settings
    hand_void = _read_hand_void(record["void"]) if "void" in record else None
    approvals = _read_approvals(record["approvals"]) if "approvals" in record else []
    if hand_void is not None and approvals:
        raise RuleViolation("The hand is void: no Bonus was settled, so no award was approved or denied", "THB-54")
    boxes_data = record.get("boxes")
    if not isinstance(boxes_data, list) or not (boxes_data or hand_void):
        raise RuleViolation("boxes must be a list of at least one box: a hand needs a player", "THB-12")
    boxes = [_read_box(entry, i, hand_void is not None) for i, entry in enumerate(boxes_data)]
    seen: set[int] = set()
    for box in boxes:
        if box["box"] in seen:
            raise RuleViolation(f"Box {box['box']} appears twice: one box per player, one entry per box", "THB-12")
        seen.add(box["box"])
    ordered = sorted(boxes, key=lambda b: b["box"])
    playing = [b for b in ordered if b["decisions"].get("flop") == "bet" and not b["void"]]
    # A void box that had made its flop bet may have seen the flop dealt before it was void.
    partial_board = hand_void is not None or any(b["void"] and b["decisions"].get("flop") == "bet" for b in boxes)

    dealer = None
    if record.get("dealer") is not None:
        dealer = _read_cards(record["dealer"], "The dealer's cards", 2, "THB-40")
    elif playing and hand_void is None:
        raise RuleViolation("The dealer's cards are missing: boxes played against the dealer", "THB-61")
    board = ()
    if record.get("board") is not None:
        if not isinstance(record["board"], list):
            what = "cards" if partial_board and not (playing and hand_void is None) else "five cards"
            raise RuleViolation(f"The board must be a list of {what}, not {record['board']!r}", "THB-42")
        if playing and hand_void is None:
            board = _read_cards(record["board"], "The board", 5, "THB-45")
        elif partial_board:
            board = _read_partial_board(record["board"])
        elif record["board"]:
            raise RuleViolation("Every box folded, so no board is dealt; the record has one", "THB-69")
    elif playing and hand_void is None:
        raise RuleViolation("The board is missing: boxes played, so five community cards were dealt", "THB-42")

    actions: list[act.Action] = [act.PlaceAnte(b["box"], b["ante"]) for b in ordered]
    actions += [act.PlaceBonus(b["box"], b["bonus"]) for b in ordered if b["bonus"]]
    if ordered:
        actions += [act.CloseBets(), act.DealInitial()]
    # The streets dealt: the flop, then the turn and the river, as far as the board goes.
    deals: list[act.Action] = [act.DealFlop(board[:3])] if len(board) >= 3 else []
    deals += [act.DealTurn(board[3])] if len(board) >= 4 else []
    deals += [act.DealRiver(board[4])] if len(board) == 5 else []
    voided: set[int] = set()

    def void_box(b: dict) -> None:
        actions.append(act.ReportBoxWrongCardCount(b["box"], _WRONG_COUNT))
        voided.add(b["box"])

    for index, street in enumerate(_STREETS):
        # Each box in turn from box 1 (THB-41, THB-43); a void box's report goes where its decision would be
        # due (hand_from_record holds it back until the hand needs it).
        for b in ordered:
            word = b["decisions"].get(street)
            if word is not None:
                actions.append(_decision(street, word, b))
                if b["void"] and word == "fold":
                    void_box(b)
            elif b["void"] and b["box"] not in voided and _due(b["decisions"], street):
                void_box(b)
        if index >= len(deals):
            break
        actions.append(deals[index])
    for b in ordered:
        if b["void"] and b["box"] not in voided:
            void_box(b)  # every decision made: void before the showdown
    if dealer is not None:
        actions.append(act.RevealDealer(dealer))
    for b in reversed(playing):
        if b["cards"] is not None:
            actions.append(act.RevealBox(b["box"], b["cards"]))
        elif b["concede"]:
            actions.append(act.ConcedeBox(b["box"]))
    if hand_void is not None:
        clause, reason = hand_void
        actions.append(act.VoidHand(reason, clause))
    actions += [_APPROVAL_WORDS[word](number) for number, word in approvals]
    return actions


def _due(decisions: Mapping[str, str], street: str) -> bool:
    """Whether a box that has not decided on ``street`` would be asked to now."""
    if street == "flop":
        return True
    if decisions.get("flop") != "bet":
        return False
    return street == "turn" or "turn" in decisions


def _decision(street: str, word: str, box: Mapping[str, Any]) -> act.Action:
    number, ante = box["box"], box["ante"]
    if street == "flop":
        return act.BetFlop(number, 2 * ante) if word == "bet" else act.Fold(number, box["cards"])
    if street == "turn":
        return act.BetTurn(number, ante) if word == "bet" else act.PassTurn(number)
    return act.BetRiver(number, ante) if word == "bet" else act.PassRiver(number)


def _void_hand(state: HandState, action: act.VoidHand) -> HandState:
    """The record's void, through the engine: only where the clause's irregularity voids the hand."""
    clause, reason = action.clause, action.reason
    if state.phase is Phase.VOID:
        # Every box's hand was void, so the engine voided the hand by itself (THB-76).
        if (clause, reason) != (state.void_clause, state.void_reason):
            raise RuleViolation(f"The hand was void as soon as every box's hand was: its void is "
                                f"{{\"clause\": \"{state.void_clause}\", \"reason\": \"{state.void_reason}\"}}",
                                state.void_clause)
        return state
    try:
        if clause == "THB-73":
            state.verify(act.ReportDealerCardExposed())
            if not state.decisions_remain:
                raise RuleViolation("A dealer's card shown once every player has decided changes nothing", "THB-73")
        elif clause == "THB-74":
            state.verify(act.ReportFaceUpCard(count=2))
        elif clause == "THB-76":
            state.verify(act.ReportDealerWrongCardCount(cards_dealt=_WRONG_COUNT))
        state.verify(action)
    except RuleViolation as bad:
        raise RuleViolation(f"The hand cannot be void for {clause} where the record stops: {bad.message}",
                            bad.clause) from None
    return state.apply(action)


def hand_from_record(record: Mapping[str, Any], rules: TableRules | None = None) -> HandState:
    """The engine's state after replaying a hand-history record (``RuleViolation`` if a rule is broken).

    A void box is reported to the engine as late as the hand allows: the record does not say when
    the wrong count was found, so its report waits until the next record needs it (the box would be
    asked to decide) or would end the hand. Approvals are replayed only on a settled hand: an
    unfinished one stops before them.
    """
    rules = rules or table_rules_from_record(record)
    state = new_hand(rules)
    waiting: list[act.Action] = []  # void boxes not reported yet

    def report_void_boxes() -> None:
        # One that leaves the hand going first: voiding the box the hand waits for could settle it
        # while the others are still to be reported.
        nonlocal state
        while waiting:
            report = next((r for r in waiting if not _refused_or_ends_the_hand(state, r)), waiting[0])
            waiting.remove(report)
            state = state.apply(report)

    for action in record_actions(record, rules):
        if isinstance(action, act.ReportBoxWrongCardCount):
            waiting.append(action)
            continue
        if waiting and (isinstance(action, act.VoidHand | act.ApproveBonus | act.DenyBonus)
                        or _refused_or_ends_the_hand(state, action)):
            report_void_boxes()
        if isinstance(action, act.RevealDealer) and state.phase is Phase.SETTLED:
            # Everyone folded and no A-A Bonus needs them: the dealer mucks unseen (THB-69), but the
            # recorded cards must still be cards nobody else holds.
            state._check_new_cards(action.cards, 2, "the dealer's cards", "THB-69")
            continue
        if isinstance(action, act.VoidHand):
            state = _void_hand(state, action)
            continue
        if isinstance(action, act.ApproveBonus | act.DenyBonus) and state.phase is not Phase.SETTLED:
            break
        state = state.apply(action)
    report_void_boxes()
    return state


def _refused_or_ends_the_hand(state: HandState, action: act.Action) -> bool:
    """Whether ``action`` is refused now, or would end the hand. Before such a record the void boxes
    are reported: the dealer may be waiting for a void box, and a hand that is over takes no report."""
    try:
        after = state.apply(action)
    except RuleViolation:
        return True
    return after.phase in (Phase.SETTLED, Phase.VOID)


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
    if state.phase is Phase.VOID and "void" not in record:
        raise RuleViolation(f"Every box's hand is void, so the hand is void: the record says so with \"void\": "
                            f"{{\"clause\": \"{state.void_clause}\", \"reason\": \"{state.void_reason}\"}}",
                            state.void_clause)
    if state.phase not in (Phase.SETTLED, Phase.VOID):
        raise RuleViolation(f"The hand is incomplete: it still needs {state.awaiting}")
    return thb_answer(state, record)


def thb_answer(state: HandState, record: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A settled or void hand as the ``replay_hand`` answer: boxes in the record's order (box order otherwise).

    A void hand answers ``"void": {"clause": ..., "reason": ...}`` as the engine voided it.
    """
    settlement = state.settlement
    answer: dict[str, Any] = {"game": GAME}
    if record is not None and record.get("hand") is not None:
        answer["hand"] = record["hand"]
    if state.phase is Phase.VOID:
        answer["void"] = {"clause": state.void_clause, "reason": state.void_reason}
    answer["dealer"] = {"category": settlement.dealer_category.value} if settlement.dealer_category else {}
    order = [b.box for b in settlement.boxes]
    if record is not None:
        order = [entry["box"] for entry in record["boxes"]]
    answer["boxes"] = [settlement.box(n).to_answer() for n in order]
    return answer


def record_from_state(state: HandState, hand: str | int | None = None) -> dict[str, Any]:
    """A settled or void hand written back in this format, so that replaying it gives ``thb_answer(state)``.

    The table's limits, paytable and house options as the hand was played; the decisions each box
    made; the cards as they were recorded (a folded box's, a box that played once shown at the
    showdown, in a settled hand also a folded box's cards as dealt; a void box's never); for a void
    hand the board as far as it was dealt and the dealer's cards only if he showed them; its
    ``void`` as the engine voided it, each void box's ``"void": true``, and the awards decided.
    """
    if state.phase not in (Phase.SETTLED, Phase.VOID):
        raise RuleViolation(f"The hand is not settled yet: it still needs {state.awaiting}")
    rules = state.rules
    record: dict[str, Any] = {"game": GAME}
    if hand is not None:
        record["hand"] = hand
    record["limits"] = {"min_ante": rules.min_ante, "max_ante": rules.max_ante, "min_bonus": rules.min_bonus,
                        "max_bonus": rules.max_bonus}
    record["paytable"] = rules.paytable.to_record()
    record["house"] = {"ante_pays_from": rules.ante_pays_from.value,
                       "approval_awards": rules.to_dict()["approval_awards"]}
    if rules.approval_above is not None:
        record["house"]["approval_above"] = rules.approval_above
    if rules.release_every_bonus:
        record["house"]["release_every_bonus"] = True
    void = state.phase is Phase.VOID
    if void:
        record["void"] = {"clause": state.void_clause, "reason": state.void_reason}
    if state.dealer_cards is not None and (state.dealer_revealed or not void):
        record["dealer"] = [str(c) for c in state.dealer_cards]
    record["board"] = [str(c) for c in state.board]
    boxes = []
    for box in state.boxes:
        entry: dict[str, Any] = {"box": box.number, "ante": box.ante}
        if box.bonus:
            entry["bonus"] = box.bonus
        shown = box.revealed or (box.folded and not void)
        if box.cards is not None and shown and not box.void:
            entry["cards"] = [str(c) for c in box.cards]
        for street in _STREETS:
            decision = box.decision(street)
            if decision is not None:
                entry[street] = decision.value
        if box.void:
            entry["void"] = True
        if box.conceded:
            entry["concede"] = True
        boxes.append(entry)
    record["boxes"] = boxes
    decided = {box: status.value for box, status, _approver in state.approvals if status is not Approval.PENDING}
    if decided:
        record["approvals"] = {str(box): decided[box] for box in sorted(decided)}
    return record
