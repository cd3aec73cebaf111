"""The Texas Hold'em Bonus hand as a state machine (THB-01..76).

``HandState`` is a frozen value. Every action is a trio of methods:

* ``verify_<action>(...)`` raises ``RuleViolation`` with a sentence a dealer
  can read, naming the clause, when the action is not allowed now;
* ``can_<action>(...)`` says the same as a bool;
* ``<action>(...)`` returns the next state, with the action's record
  appended to ``actions``.

The generic forms take a record: ``verify(action)``, ``can(action)``,
``apply(action)``; ``replay(rules, records)`` rebuilds a state from stored
records (dicts or ``Action`` objects), in order.

Phases follow the manual; each is the last stage the hand has entered:

=================== ==================================================================
``bets-open``       "Hagan sus apuestas": antes and Bonus bets (THB-26, THB-30, THB-52)
``no-more-bets``    "No va más": bets locked, the cards are dealt next (THB-31)
``initial-deal``    two cards to each box and two to the dealer, face down (THB-40)
``flop-decisions``  boxes decide in turn: flop bet (2 x ante) or fold (THB-41)
``flop``            three community cards dealt after a burn (THB-42)
``turn-decisions``  boxes that played bet the ante or check (THB-43)
``turn``            the fourth card (THB-44)
``river-decisions`` bet the ante or check (THB-44)
``river``           the fifth card (THB-45)
``showdown``        dealer first, then boxes 7 down to 1 (THB-15, THB-46, THB-62)
``settled``         every bet settled; some Bonus awards may wait for approval (THB-54)
``void``            "mano nula": every stake returned (THB-24, THB-73, THB-74, THB-76)
=================== ==================================================================

Cards arrive in one of two ways, same engine. Recorded mode (the default):
the dealer enters the physical cards as they are seen: the flop, turn and
river as dealt, the dealer's and each box's two cards at the showdown (or a
folded box's as it is fanned, THB-56). Dealt mode: a ``load-shoe`` record
holds a shuffled deck (``casino.rules.shuffle``) and the engine deals from
it in the manual's order; cards given with a dealt-mode action must match.

One module of about 1,150 lines, on purpose (issue #13): it is one cohesive thing, the frozen
``HandState`` and its action trios, each phase's checks reading the same fields the next phase's
actions write. The parts that stand alone are already apart (``actions``, ``record``,
``settlement``, ``paytable``, ``table_rules``, ``house_edge``); splitting the state machine itself
would scatter one phase's rules over several files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from casino.rules.cards import Card, parse_card
from casino.rules.errors import N_, Note, Phrase, RuleViolation
from casino.rules.evaluator import HandValue, evaluate
from casino.rules.holdem_bonus import actions as act
from casino.rules.holdem_bonus.settlement import (
    Approval,
    HandSettlement,
    settle_hand,
    void_hand_settlement,
)
from casino.rules.holdem_bonus.table_rules import TableRules
from casino.rules.shuffle import Shoe


class Phase(Enum):
    BETS_OPEN = "bets-open"
    NO_MORE_BETS = "no-more-bets"
    INITIAL_DEAL = "initial-deal"
    FLOP_DECISIONS = "flop-decisions"
    FLOP = "flop"
    TURN_DECISIONS = "turn-decisions"
    TURN = "turn"
    RIVER_DECISIONS = "river-decisions"
    RIVER = "river"
    SHOWDOWN = "showdown"
    SETTLED = "settled"
    VOID = "void"


class Mode(Enum):
    RECORDED = "recorded"
    DEALT = "dealt"


class Decision(Enum):
    BET = "bet"
    FOLD = "fold"
    CHECK = "check"


STREETS = ("flop", "turn", "river")
# The phases in which each street's decisions are taken: from the deal before it until the next deal.
_DECISION_PHASES = {
    "flop": (Phase.INITIAL_DEAL, Phase.FLOP_DECISIONS),
    "turn": (Phase.FLOP, Phase.TURN_DECISIONS),
    "river": (Phase.TURN, Phase.RIVER_DECISIONS),
}
_STREET_OF_PHASE = {phase: street for street, phases in _DECISION_PHASES.items() for phase in phases}
# While any of these, cards are still being dealt (THB-74 "durante el reparto").
_DEALING_PHASES = frozenset({
    Phase.NO_MORE_BETS, Phase.INITIAL_DEAL, Phase.FLOP_DECISIONS, Phase.FLOP,
    Phase.TURN_DECISIONS, Phase.TURN, Phase.RIVER_DECISIONS,
})
_CARDS_OUT_PHASES = frozenset(Phase) - {Phase.BETS_OPEN, Phase.NO_MORE_BETS, Phase.SETTLED, Phase.VOID}
_OVER = frozenset({Phase.SETTLED, Phase.VOID})

# Refusals are N_ templates with named values (docs/rules-engine.md, "Refusal messages and
# translation"). A sentence that changes with the street is written out once per street, so a
# translator sees whole sentences; places where cards are, which combine with many sentences, are
# Phrases translated on their own.
_TOO_EARLY_TO_DECIDE = {
    "flop": N_("Box %(box)s cannot make its flop decision yet: it comes after the initial deal"),
    "turn": N_("Box %(box)s cannot make its turn decision yet: it comes after the flop"),
    "river": N_("Box %(box)s cannot make its river decision yet: it comes after the turn"),
}
_DECISIONS_OVER = {
    "flop": N_("The flop decisions are over"),
    "turn": N_("The turn decisions are over"),
    "river": N_("The river decisions are over"),
}
_ALREADY_DECIDED = {
    "flop": N_("Box %(box)s has already decided on the flop"),
    "turn": N_("Box %(box)s has already decided on the turn"),
    "river": N_("Box %(box)s has already decided on the river"),
}
_TOO_EARLY_TO_DEAL = {
    "flop": N_("The flop cannot be dealt yet"),
    "turn": N_("The turn cannot be dealt yet"),
    "river": N_("The river cannot be dealt yet"),
}
_ALREADY_DEALT = {
    "flop": N_("The flop is already dealt"),
    "turn": N_("The turn is already dealt"),
    "river": N_("The river is already dealt"),
}
_STILL_TO_DECIDE = {
    "flop": N_("Box %(box)s has still to make its flop decision: every player decides before the flop is dealt"),
    "turn": N_("Box %(box)s has still to make its turn decision: every player decides before the turn is dealt"),
    "river": N_("Box %(box)s has still to make its river decision: every player decides before the river is "
                "dealt"),
}

# Places where cards are, inside a refusal ("... is already in the board"); _PLACES gives each
# one at the start of a sentence ("The flop must be 3 cards, not 2"). A box's cards: _box_cards(n).
# Translators: a place where cards are, inside a longer sentence.
_FLOP = N_("the flop")
# Translators: a place where cards are, inside a longer sentence.
_TURN = N_("the turn")
# Translators: a place where cards are, inside a longer sentence.
_RIVER = N_("the river")
# Translators: a place where cards are, inside a longer sentence.
_DEALER_CARDS = N_("the dealer's cards")
# Translators: a place where cards are, inside a longer sentence.
_BOX_CARDS = N_("box %(box)s's cards")
# Translators: a place where cards are, inside a longer sentence.
_FACE_UP_CARD = N_("the face-up card")
# Translators: a place where cards are, inside a longer sentence.
_BOARD = N_("the board")
# Translators: a place where cards are, inside a longer sentence.
_DISCARDS = N_("the discards")
_PLACES = {
    _FLOP: N_("The flop"),
    _TURN: N_("The turn"),
    _RIVER: N_("The river"),
    _DEALER_CARDS: N_("The dealer's cards"),
    _BOX_CARDS: N_("Box %(box)s's cards"),
    _FACE_UP_CARD: N_("The face-up card"),
    _BOARD: N_("The board"),
    _DISCARDS: N_("The discards"),
}


@dataclass(frozen=True, slots=True)
class Box:
    """One player's box and its bets (THB-05). Money in whole units."""

    number: int
    ante: int
    bonus: int = 0
    flop: int = 0
    turn: int = 0
    river: int = 0
    decisions: tuple[Decision | None, Decision | None, Decision | None] = (None, None, None)
    cards: tuple[Card, ...] | None = None
    revealed: bool = False
    void: bool = False
    #: THB-66: the player said his hand loses and his cards were not turned.
    conceded: bool = False

    def decision(self, street: str) -> Decision | None:
        return self.decisions[STREETS.index(street)]

    @property
    def live(self) -> bool:
        return not self.void

    @property
    def folded(self) -> bool:
        return not self.void and self.decisions[0] is Decision.FOLD

    @property
    def plays(self) -> bool:
        """The box made its flop bet ("va") and plays against the dealer."""
        return not self.void and self.decisions[0] is Decision.BET

    @property
    def staked(self) -> int:
        return self.ante + self.bonus + self.flop + self.turn + self.river

    def must_decide(self, street: str) -> bool:
        return (self.live if street == "flop" else self.plays) and self.decision(street) is None

    def with_decision(self, street: str, decision: Decision, **bets: int) -> Box:
        decisions = list(self.decisions)
        decisions[STREETS.index(street)] = decision
        return replace(self, decisions=tuple(decisions), **bets)


class ReplayError(RuleViolation):
    """A stored record that the rules refuse, with its position in the hand."""

    def __init__(self, index: int, action: act.Action | Mapping | None, violation: RuleViolation) -> None:
        self.index = index
        self.action = action
        self.violation = violation
        refusal = Phrase(violation.template, **violation.params)  # translated with the record's sentence
        super().__init__(N_("record %(record)s: %(refusal)s"), violation.clause, record=index + 1, refusal=refusal)


def _as_cards(cards: Iterable[Card | str] | str | None) -> tuple[Card, ...] | None:
    """Cards given to a ``verify_`` method as text or ``Card`` (``None`` stays ``None``)."""
    return None if cards is None else act.RevealDealer(cards).cards


def _as_card(card: Card | str | None) -> Card | None:
    return None if card is None else parse_card(card)


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _box_cards(number: int) -> Phrase:
    """``box 3's cards``, as a place inside a refusal."""
    return Phrase(_BOX_CARDS, box=number)


def _place(what: str) -> Phrase | str:
    """A place where cards are (``_FLOP``...) as a translatable phrase; other text stays as it is."""
    return what if isinstance(what, Phrase) or what not in _PLACES else Phrase(what)


def _at_start(what: str) -> Phrase | str:
    """The same place at the start of a sentence: "The flop", "Box 3's cards"."""
    if isinstance(what, Phrase) and what.template in _PLACES:
        return Phrase(_PLACES[what.template], **what.params)
    return what.capitalize()


@dataclass(frozen=True, slots=True)
class HandState:
    """One Texas Hold'em Bonus hand. Build it with ``new_hand`` or ``replay``; never mutate it."""

    rules: TableRules
    phase: Phase = Phase.BETS_OPEN
    mode: Mode = Mode.RECORDED
    boxes: tuple[Box, ...] = ()
    dealer_cards: tuple[Card, ...] | None = None
    dealer_revealed: bool = False
    board: tuple[Card, ...] = ()
    shoe: Shoe | None = None
    discards: tuple[Card, ...] = ()
    irregularities: tuple[Note, ...] = ()  # each a str too: the English sentence
    void_reason: Note | str | None = None  # a Note, or what the pit boss typed (THB-24, C-35)
    void_clause: str | None = None
    needs_reshuffle: bool = False
    approvals: tuple[tuple[int, Approval, str], ...] = ()
    settlement: HandSettlement | None = None
    actions: tuple[act.Action, ...] = ()

    # ------------------------------------------------------------------ reading the state

    def box(self, number: int) -> Box | None:
        return next((b for b in self.boxes if b.number == number), None)

    @property
    def street(self) -> str | None:
        """The street whose decisions are being taken now, if any."""
        return _STREET_OF_PHASE.get(self.phase)

    def deciders(self, street: str) -> tuple[Box, ...]:
        """Boxes that still have to decide on a street, in turn order (box 1 first, THB-41)."""
        return tuple(b for b in self.boxes if b.must_decide(street))

    @property
    def to_act(self) -> int | None:
        """The box whose decision the dealer asks for next, clockwise from his left (THB-41, THB-43)."""
        street = self.street
        if street is None:
            return None
        waiting = self.deciders(street)
        return waiting[0].number if waiting else None

    @property
    def decisions_remain(self) -> bool:
        """True while any player still has a flop, turn or river decision to make (THB-73)."""
        return any(b.must_decide(s) for b in self.boxes for s in STREETS)

    @property
    def is_finished(self) -> bool:
        """Void, or settled with no Bonus award waiting for approval."""
        if self.phase is Phase.VOID:
            return True
        return self.phase is Phase.SETTLED and not self.settlement.pending_approvals

    @property
    def awaiting(self) -> str:
        """What the hand waits for next, in the dealer's words (for screens and error messages)."""
        if self.phase is Phase.BETS_OPEN:
            return "bets, then 'no va más'"
        if self.phase is Phase.NO_MORE_BETS:
            return "the initial deal"
        if self.phase is Phase.VOID:
            return "nothing: the hand is void"
        if self.phase is Phase.SETTLED:
            pending = self.settlement.pending_approvals
            if pending:
                return "approval of the Bonus award of box " + ", ".join(map(str, pending))
            return "nothing: the hand is settled"
        street = self.street
        if street is not None and self.to_act is not None:
            return f"box {self.to_act}'s {street} decision"
        if self.phase in (Phase.INITIAL_DEAL, Phase.FLOP_DECISIONS):
            return "the flop"
        if self.phase in (Phase.FLOP, Phase.TURN_DECISIONS):
            return "the turn"
        if self.phase in (Phase.TURN, Phase.RIVER_DECISIONS):
            return "the river"
        missing = self._missing_for_settlement()
        return missing[0] if missing else "settlement"

    @property
    def showdown_order(self) -> tuple[tuple[str, int | None], ...]:
        """The cards the showdown still needs, in the order the dealer shows them: ``("dealer", None)``
        or ``("box", number)`` (THB-15, THB-62, C-31).

        With boxes playing against the bank: the dealer's cards first, then boxes 7 down to 1, a
        folded box whose Bonus still needs its cards in its place (its cards stay on the table until
        the Bonus is settled). With nobody playing: the Bonus boxes' cards, then the dealer's only if
        an A-A Bonus needs them. The hand settles by itself once this is empty (and the board is
        complete where anyone plays); the dealer's tablet asks for its first entry.
        """
        playing = any(b.plays for b in self.boxes)
        order: list[tuple[str, int | None]] = []
        if playing and not self.dealer_revealed:
            order.append(("dealer", None))
        for b in sorted(self.boxes, key=lambda b: -b.number):
            if b.live and not b.revealed and not b.conceded and (b.plays or (b.bonus and b.cards is None)):
                order.append(("box", b.number))
        if not playing and self.dealer_cards is None and any(
            b.live and b.bonus and b.cards and self.rules.paytable.needs_dealer_cards(b.cards) for b in self.boxes
        ):
            order.append(("dealer", None))
        return tuple(order)

    def hand_value(self, number: int) -> HandValue | None:
        """A box's best five cards and category, once its cards and the board are known (THB-46, THB-60)."""
        box = self.box(number)
        if box is None or box.cards is None or len(self.board) < 3:
            return None
        return evaluate(box.cards + self.board)

    def dealer_hand_value(self) -> HandValue | None:
        """The dealer's best five cards, once shown (THB-46, THB-61)."""
        if not self.dealer_revealed or len(self.board) < 3:
            return None
        return evaluate(self.dealer_cards + self.board)

    # ------------------------------------------------------------------ generic trio

    def verify(self, action: act.Action) -> None:
        """Raise ``RuleViolation`` if the action is not allowed now."""
        getattr(self, "verify_" + action.method)(**action.arguments())

    def can(self, action: act.Action) -> bool:
        try:
            self.verify(action)
        except RuleViolation:
            return False
        return True

    def apply(self, action: act.Action | Mapping[str, Any]) -> HandState:
        """Check an action, then return the state after it (with its record appended)."""
        if not isinstance(action, act.Action):
            action = act.action_from_dict(action)
        self.verify(action)
        after = getattr(self, "_do_" + action.method)(**action.arguments())
        return replace(after._settle_if_ready(), actions=self.actions + (action,))

    def _can_do(self, kind: type[act.Action], *args: Any) -> bool:
        """``can_<action>``: builds the record too, so that a bad card name answers False as well."""
        try:
            self.verify(kind(*args))
        except RuleViolation:
            return False
        return True

    # ------------------------------------------------------------------ shared checks

    def _fail(self, message: str, clause: str, **params: Any) -> None:
        """Refuse: ``message`` is an ``N_`` template, ``params`` its values (never an f-string)."""
        raise RuleViolation(message, clause, **params)

    def _check_not_over(self) -> None:
        if self.phase is Phase.VOID:
            self._fail(N_("The hand is void: nothing more can happen in it"), "THB-24")
        if self.phase is Phase.SETTLED:
            self._fail(N_("The hand is settled: nothing more can happen in it"), "THB-64")

    def _check_box_number(self, number: object) -> int:
        if isinstance(number, bool) or not isinstance(number, int):
            self._fail(N_("%(box)r is not a box: boxes are numbered 1 to %(boxes)s"), "C-28",
                       box=number, boxes=self.rules.boxes)
        if not 1 <= number <= self.rules.boxes:
            self._fail(N_("There is no box %(box)s: boxes are numbered 1 to %(boxes)s"), "C-28",
                       box=number, boxes=self.rules.boxes)
        return number

    def _check_amount(self, what: Phrase, amount: object, clause: str) -> int:
        """``what`` is the amount's name at the start of a sentence ("Box 3's ante")."""
        if isinstance(amount, bool) or not isinstance(amount, int):
            self._fail(N_("%(what)s must be a whole amount, not %(amount)r"), clause, what=what, amount=amount)
        if amount <= 0:
            self._fail(N_("%(what)s must be more than zero, not %(amount)s"), clause, what=what, amount=amount)
        return amount

    def _box_in_hand(self, number: object) -> Box:
        number = self._check_box_number(number)
        box = self.box(number)
        if box is None:
            self._fail(N_("Box %(box)s has no ante in this hand"), "THB-26", box=number)
        return box

    def _live_box(self, number: object) -> Box:
        box = self._box_in_hand(number)
        if box.void:
            self._fail(N_("Box %(box)s's hand is void: its bets were returned"), "THB-76", box=box.number)
        return box

    def _check_decision(self, number: object, street: str) -> Box:
        """Common checks for a flop, turn or river decision (THB-41, THB-43, THB-44, THB-55)."""
        self._check_not_over()
        box = self._live_box(number)
        phases = _DECISION_PHASES[street]
        if self.phase not in phases:
            order = list(Phase)
            if order.index(self.phase) < order.index(phases[0]):
                clause = {"flop": "THB-41", "turn": "THB-43", "river": "THB-44"}[street]
                self._fail(_TOO_EARLY_TO_DECIDE[street], clause, box=box.number)
            clause = {"flop": "THB-42", "turn": "THB-44", "river": "THB-45"}[street]
            self._fail(_DECISIONS_OVER[street], clause)
        if street != "flop" and box.folded:
            self._fail(N_("Box %(box)s folded (no va) and has no more decisions"), "THB-55", box=box.number)
        if box.decision(street) is not None:
            self._fail(_ALREADY_DECIDED[street], "THB-41", box=box.number)
        to_act = self.to_act
        if to_act != box.number:
            self._fail(N_("It is box %(to_act)s's turn to decide, not box %(box)s's: the dealer asks each box "
                          "in turn from his left"), "THB-41", to_act=to_act, box=box.number)
        return box

    def _known_cards(self) -> dict[Card, Phrase]:
        """Every card already seen or recorded, and where (to refuse a card seen twice, THB-03)."""
        known: dict[Card, Phrase] = {}
        for box in self.boxes:
            for card in box.cards or ():
                known[card] = _box_cards(box.number)
        if self.dealer_cards and (self.mode is Mode.RECORDED or self.dealer_revealed):
            for card in self.dealer_cards:
                known[card] = Phrase(_DEALER_CARDS)
        for card in self.board:
            known[card] = Phrase(_BOARD)
        for card in self.discards:
            known[card] = Phrase(_DISCARDS)
        return known

    def _check_new_cards(self, cards: tuple[Card, ...] | None, count: int, what: str, clause: str) -> None:
        """Recorded mode: the dealer's entry must be ``count`` cards not already seen (THB-03).

        ``what`` is a place (``_FLOP``, ``_box_cards(3)``...); plain English text is taken as the place it names.
        """
        what = _place(what)
        if cards is None:
            self._fail(N_("Enter %(what)s: this hand's cards are recorded by the dealer"), clause, what=what)
        if len(cards) != count:
            if count == 1:
                self._fail(N_("%(what)s must be 1 card, not %(given)s"), clause, what=_at_start(what),
                           given=len(cards))
            self._fail(N_("%(what)s must be %(count)s cards, not %(given)s"), clause, what=_at_start(what),
                       count=count, given=len(cards))
        seen_here: set[Card] = set()
        known = self._known_cards()
        for card in cards:
            if card in seen_here:
                self._fail(N_("%(card)s is entered twice in %(what)s: a single deck has one of each card"), "THB-03",
                           card=str(card), what=what)
            if card in known:
                self._fail(N_("%(card)s in %(what)s is already in %(where)s: a single deck has one of each card"),
                           "THB-03", card=str(card), what=what, where=known[card])
            seen_here.add(card)

    def _check_matches(self, given: tuple[Card, ...] | None, actual: tuple[Card, ...], what: str, clause: str) -> None:
        """Dealt mode: cards the dealer enters must be the ones the engine dealt."""
        if given is not None and sorted(given) != sorted(actual):
            self._fail(N_("%(what)s dealt from the shoe are %(dealt)s, not %(given)s"), clause,
                       what=_at_start(_place(what)), dealt=_cards_text(actual), given=_cards_text(given))

    def _peek_street(self, count: int) -> tuple[Card, ...]:
        """Dealt mode: the cards a street would get after its burn."""
        if self.shoe is None or len(self.shoe) < count + 1:
            self._fail(N_("The shoe has run out of cards"), "THB-03")
        return self.shoe.cards[1 : count + 1]

    # ------------------------------------------------------------------ bets

    def verify_place_ante(self, box: int, amount: int) -> None:
        """The ante: within the table's limits, before the cards, one per box (THB-12, THB-18, THB-19, THB-26)."""
        if self.phase is not Phase.BETS_OPEN:
            self._check_not_over()
            self._fail(N_("Bets are closed ('no va más'): the ante is placed before the cards are dealt"), "THB-31")
        number = self._check_box_number(box)
        amount = self._check_amount(Phrase(N_("Box %(box)s's ante"), box=number), amount, "THB-26")
        existing = self.box(number)
        if existing is not None:
            self._fail(N_("Box %(box)s already has an ante of %(ante)s: withdraw it to change it"), "THB-12",
                       box=number, ante=existing.ante)
        if amount < self.rules.min_ante:
            self._fail(N_("Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"), "THB-26",
                       box=number, amount=amount, minimum=self.rules.min_ante)
        if amount > self.rules.max_ante:
            self._fail(N_("Box %(box)s's ante of %(amount)s is above the table maximum of %(maximum)s"), "THB-18",
                       box=number, amount=amount, maximum=self.rules.max_ante)

    def can_place_ante(self, box: int, amount: int) -> bool:
        return self._can_do(act.PlaceAnte, box, amount)

    def place_ante(self, box: int, amount: int) -> HandState:
        return self.apply(act.PlaceAnte(box, amount))

    def _do_place_ante(self, box: int, amount: int) -> HandState:
        boxes = tuple(sorted(self.boxes + (Box(number=box, ante=amount),), key=lambda b: b.number))
        return replace(self, boxes=boxes)

    def verify_place_bonus(self, box: int, amount: int) -> None:
        """The Bonus: only with an ante and before the cards, within its own limits (THB-20, THB-52)."""
        if self.phase is not Phase.BETS_OPEN:
            self._check_not_over()
            self._fail(N_("Bets are closed ('no va más'): the Bonus is placed only before the cards are dealt"),
                       "THB-52")
        number = self._check_box_number(box)
        amount = self._check_amount(Phrase(N_("Box %(box)s's Bonus"), box=number), amount, "THB-20")
        existing = self.box(number)
        if existing is None:
            self._fail(N_("Box %(box)s has no ante: the Bonus is only for a player who has placed the ante"),
                       "THB-52", box=number)
        if existing.bonus:
            self._fail(N_("Box %(box)s already has a Bonus of %(bonus)s: withdraw the bets to change it"),
                       "THB-52", box=number, bonus=existing.bonus)
        if amount < self.rules.min_bonus:
            self._fail(N_("Box %(box)s's Bonus of %(amount)s is below the Bonus minimum of %(minimum)s"), "THB-20",
                       box=number, amount=amount, minimum=self.rules.min_bonus)
        if amount > self.rules.max_bonus:
            self._fail(N_("Box %(box)s's Bonus of %(amount)s is above the Bonus maximum of %(maximum)s"), "THB-20",
                       box=number, amount=amount, maximum=self.rules.max_bonus)

    def can_place_bonus(self, box: int, amount: int) -> bool:
        return self._can_do(act.PlaceBonus, box, amount)

    def place_bonus(self, box: int, amount: int) -> HandState:
        return self.apply(act.PlaceBonus(box, amount))

    def _do_place_bonus(self, box: int, amount: int) -> HandState:
        return self._with_box(replace(self.box(box), bonus=amount))

    def verify_withdraw_bets(self, box: int) -> None:
        """A box's ante and Bonus can be taken back only while bets are open (THB-30, THB-31)."""
        if self.phase is not Phase.BETS_OPEN:
            self._check_not_over()
            self._fail(N_("Bets are closed ('no va más'): they can no longer be withdrawn"), "THB-31")
        self._box_in_hand(box)

    def can_withdraw_bets(self, box: int) -> bool:
        return self._can_do(act.WithdrawBets, box)

    def withdraw_bets(self, box: int) -> HandState:
        return self.apply(act.WithdrawBets(box))

    def _do_withdraw_bets(self, box: int) -> HandState:
        return replace(self, boxes=tuple(b for b in self.boxes if b.number != box))

    def verify_close_bets(self) -> None:
        """'No va más' closes betting; a hand needs at least one box with an ante (THB-12, THB-31)."""
        if self.phase is not Phase.BETS_OPEN:
            self._check_not_over()
            self._fail(N_("Bets are already closed"), "THB-31")
        if not self.boxes:
            self._fail(N_("No box has an ante: a hand needs at least one player"), "THB-12")

    def can_close_bets(self) -> bool:
        return self._can_do(act.CloseBets)

    def close_bets(self) -> HandState:
        return self.apply(act.CloseBets())

    def _do_close_bets(self) -> HandState:
        return replace(self, phase=Phase.NO_MORE_BETS)

    # ------------------------------------------------------------------ cards

    def verify_load_shoe(self, cards: tuple[Card, ...]) -> None:
        """Dealt mode: a complete, shuffled deck, loaded once before the initial deal (THB-03, THB-32)."""
        if self.phase not in (Phase.BETS_OPEN, Phase.NO_MORE_BETS):
            self._check_not_over()
            self._fail(N_("The shoe is loaded before the cards are dealt"), "THB-32")
        if self.shoe is not None:
            self._fail(N_("This hand's shoe is already loaded"), "THB-32")
        if self.discards:
            self._fail(N_("Cards were already recorded in this hand: it is a recorded hand, not a dealt one"), "THB-32")
        Shoe.from_cards(cards)

    def can_load_shoe(self, cards: tuple[Card, ...]) -> bool:
        return self._can_do(act.LoadShoe, cards)

    def load_shoe(self, cards: Iterable[Card | str] | Shoe) -> HandState:
        if isinstance(cards, Shoe):
            cards = cards.cards
        return self.apply(act.LoadShoe(tuple(cards)))

    def _do_load_shoe(self, cards: tuple[Card, ...]) -> HandState:
        return replace(self, shoe=Shoe(cards), mode=Mode.DEALT)

    def verify_deal_initial(self) -> None:
        """The initial deal comes after 'no va más' (THB-31, THB-40)."""
        if self.phase is not Phase.NO_MORE_BETS:
            self._check_not_over()
            if self.phase is Phase.BETS_OPEN:
                self._fail(N_("Announce 'no va más' before dealing"), "THB-31")
            self._fail(N_("The initial deal is already done"), "THB-40")
        if self.mode is Mode.DEALT and len(self.shoe) < 2 * len(self.boxes) + 2:
            self._fail(N_("The shoe has run out of cards"), "THB-03")

    def can_deal_initial(self) -> bool:
        return self._can_do(act.DealInitial)

    def deal_initial(self) -> HandState:
        return self.apply(act.DealInitial())

    def _do_deal_initial(self) -> HandState:
        if self.mode is Mode.RECORDED:
            return replace(self, phase=Phase.INITIAL_DEAL)
        # One card at a time clockwise from the dealer's left: P1..Pn, dealer, P1..Pn, dealer (THB-40).
        n = len(self.boxes)
        order, shoe = self.shoe.deal(2 * n + 2)
        first, dealer_first, second, dealer_second = order[:n], order[n], order[n + 1 : 2 * n + 1], order[2 * n + 1]
        boxes = tuple(replace(b, cards=(a, c)) for b, a, c in zip(self.boxes, first, second))
        return replace(self, phase=Phase.INITIAL_DEAL, boxes=boxes, dealer_cards=(dealer_first, dealer_second),
                       shoe=shoe)

    def _check_street_deal(self, street: str, clause: str) -> None:
        """Common checks for dealing the flop, turn or river: in order, after every decision (THB-42..45)."""
        self._check_not_over()
        phases = _DECISION_PHASES[street]
        if self.phase not in phases:
            order = list(Phase)
            if order.index(self.phase) < order.index(phases[0]):
                self._fail(_TOO_EARLY_TO_DEAL[street], clause)
            if not any(b.plays for b in self.boxes):
                self._fail(N_("Nobody plays against the dealer: no community cards are dealt"), "THB-69")
            self._fail(_ALREADY_DEALT[street], clause)
        to_act = self.to_act
        if to_act is not None:
            # The decisions being taken are this street's: the phase is one of its decision phases.
            self._fail(_STILL_TO_DECIDE[street], clause, box=to_act)

    def verify_deal_flop(self, cards: tuple[Card, ...] | None = None) -> None:
        """Once every box has decided: burn one, then three cards face up (THB-42)."""
        cards = _as_cards(cards)
        self._check_street_deal("flop", "THB-42")
        if self.mode is Mode.RECORDED:
            self._check_new_cards(cards, 3, _FLOP, "THB-42")
        else:
            self._check_matches(cards, self._peek_street(3), _FLOP, "THB-42")

    def can_deal_flop(self, cards: Iterable[Card | str] | None = None) -> bool:
        return self._can_do(act.DealFlop, cards)

    def deal_flop(self, cards: Iterable[Card | str] | None = None) -> HandState:
        return self.apply(act.DealFlop(cards))

    def _do_deal_flop(self, cards: tuple[Card, ...] | None = None) -> HandState:
        return self._deal_street(cards, 3, Phase.FLOP)

    def verify_deal_turn(self, card: Card | None = None) -> None:
        """Once every player has bet or checked: burn one, then the turn card (THB-44)."""
        card = _as_card(card)
        self._check_street_deal("turn", "THB-44")
        cards = (card,) if card is not None else None
        if self.mode is Mode.RECORDED:
            self._check_new_cards(cards, 1, _TURN, "THB-44")
        else:
            self._check_matches(cards, self._peek_street(1), _TURN, "THB-44")

    def can_deal_turn(self, card: Card | str | None = None) -> bool:
        return self._can_do(act.DealTurn, card)

    def deal_turn(self, card: Card | str | None = None) -> HandState:
        return self.apply(act.DealTurn(card))

    def _do_deal_turn(self, card: Card | None = None) -> HandState:
        return self._deal_street((card,) if card is not None else None, 1, Phase.TURN)

    def verify_deal_river(self, card: Card | None = None) -> None:
        """Once every player has bet or checked: burn one, then the river card (THB-45)."""
        card = _as_card(card)
        self._check_street_deal("river", "THB-45")
        cards = (card,) if card is not None else None
        if self.mode is Mode.RECORDED:
            self._check_new_cards(cards, 1, _RIVER, "THB-45")
        else:
            self._check_matches(cards, self._peek_street(1), _RIVER, "THB-45")

    def can_deal_river(self, card: Card | str | None = None) -> bool:
        return self._can_do(act.DealRiver, card)

    def deal_river(self, card: Card | str | None = None) -> HandState:
        return self.apply(act.DealRiver(card))

    def _do_deal_river(self, card: Card | None = None) -> HandState:
        return self._deal_street((card,) if card is not None else None, 1, Phase.RIVER)

    def _deal_street(self, cards: tuple[Card, ...] | None, count: int, phase: Phase) -> HandState:
        if self.mode is Mode.RECORDED:
            return replace(self, board=self.board + cards, phase=phase)
        burn, shoe = self.shoe.burn()  # THB-42, THB-44, THB-45: burn one face down first
        dealt, shoe = shoe.deal(count)
        return replace(self, board=self.board + dealt, shoe=shoe, discards=self.discards + (burn,), phase=phase)

    # ------------------------------------------------------------------ decisions

    def verify_bet_flop(self, box: int, amount: int) -> None:
        """'Va': exactly twice the ante in the FLOP spot, in turn (THB-27, THB-41, THB-57)."""
        found = self._check_decision(box, "flop")
        amount = self._check_amount(Phrase(N_("Box %(box)s's flop bet"), box=found.number), amount, "THB-57")
        if amount != 2 * found.ante:
            self._fail(N_("The flop bet must be exactly twice the ante: box %(box)s bets %(bet)s, not %(amount)s"),
                       "THB-57", box=found.number, bet=2 * found.ante, amount=amount)

    def can_bet_flop(self, box: int, amount: int) -> bool:
        return self._can_do(act.BetFlop, box, amount)

    def bet_flop(self, box: int, amount: int | None = None) -> HandState:
        """The flop bet; ``amount`` defaults to twice the box's ante."""
        if amount is None:
            found = self.box(box)
            amount = 2 * found.ante if found else 0
        return self.apply(act.BetFlop(box, amount))

    def _do_bet_flop(self, box: int, amount: int) -> HandState:
        return self._with_box(self.box(box).with_decision("flop", Decision.BET, flop=amount), Phase.FLOP_DECISIONS)

    def verify_fold(self, box: int, cards: tuple[Card, ...] | None = None) -> None:
        """'No va': the player gives up the ante; only instead of the flop bet (THB-41, THB-43, THB-55, THB-56)."""
        cards = _as_cards(cards)
        self._check_not_over()
        found = self._live_box(box)
        if self.phase not in _DECISION_PHASES["flop"] and found.plays:
            self._fail(N_("Box %(box)s made its flop bet: after the flop a player bets or checks, and cannot fold"),
                       "THB-43", box=found.number)
        self._check_decision(box, "flop")
        if cards is not None:
            if self.mode is Mode.RECORDED:
                self._check_new_cards(cards, 2, _box_cards(found.number), "THB-56")
            else:
                self._check_matches(cards, found.cards, _box_cards(found.number), "THB-56")

    def can_fold(self, box: int, cards: Iterable[Card | str] | None = None) -> bool:
        return self._can_do(act.Fold, box, cards)

    def fold(self, box: int, cards: Iterable[Card | str] | None = None) -> HandState:
        return self.apply(act.Fold(box, cards))

    def _do_fold(self, box: int, cards: tuple[Card, ...] | None = None) -> HandState:
        found = self.box(box).with_decision("flop", Decision.FOLD)
        if cards is not None:
            found = replace(found, cards=found.cards or cards, revealed=True)
        return self._with_box(found, Phase.FLOP_DECISIONS)

    def verify_bet_turn(self, box: int, amount: int) -> None:
        """The optional turn bet: exactly the ante, before the turn card (THB-28, THB-43, THB-58)."""
        found = self._check_decision(box, "turn")
        amount = self._check_amount(Phrase(N_("Box %(box)s's turn bet"), box=found.number), amount, "THB-28")
        if amount != found.ante:
            self._fail(N_("The turn bet must equal the ante: box %(box)s bets %(bet)s, not %(amount)s"), "THB-28",
                       box=found.number, bet=found.ante, amount=amount)

    def can_bet_turn(self, box: int, amount: int) -> bool:
        return self._can_do(act.BetTurn, box, amount)

    def bet_turn(self, box: int, amount: int | None = None) -> HandState:
        """The turn bet; ``amount`` defaults to the box's ante."""
        if amount is None:
            found = self.box(box)
            amount = found.ante if found else 0
        return self.apply(act.BetTurn(box, amount))

    def _do_bet_turn(self, box: int, amount: int) -> HandState:
        return self._with_box(self.box(box).with_decision("turn", Decision.BET, turn=amount), Phase.TURN_DECISIONS)

    def verify_pass_turn(self, box: int) -> None:
        """Checking ('pasar') on the turn keeps the player in without a turn bet (THB-43)."""
        self._check_decision(box, "turn")

    def can_pass_turn(self, box: int) -> bool:
        return self._can_do(act.PassTurn, box)

    def pass_turn(self, box: int) -> HandState:
        return self.apply(act.PassTurn(box))

    def _do_pass_turn(self, box: int) -> HandState:
        return self._with_box(self.box(box).with_decision("turn", Decision.CHECK), Phase.TURN_DECISIONS)

    def verify_bet_river(self, box: int, amount: int) -> None:
        """The optional river bet: exactly the ante, allowed after a turn check (THB-29, THB-44, THB-59)."""
        found = self._check_decision(box, "river")
        amount = self._check_amount(Phrase(N_("Box %(box)s's river bet"), box=found.number), amount, "THB-29")
        if amount != found.ante:
            self._fail(N_("The river bet must equal the ante: box %(box)s bets %(bet)s, not %(amount)s"), "THB-29",
                       box=found.number, bet=found.ante, amount=amount)

    def can_bet_river(self, box: int, amount: int) -> bool:
        return self._can_do(act.BetRiver, box, amount)

    def bet_river(self, box: int, amount: int | None = None) -> HandState:
        """The river bet; ``amount`` defaults to the box's ante."""
        if amount is None:
            found = self.box(box)
            amount = found.ante if found else 0
        return self.apply(act.BetRiver(box, amount))

    def _do_bet_river(self, box: int, amount: int) -> HandState:
        return self._with_box(self.box(box).with_decision("river", Decision.BET, river=amount),
                              Phase.RIVER_DECISIONS)

    def verify_pass_river(self, box: int) -> None:
        """Checking on the river keeps the player in without a river bet (THB-44)."""
        self._check_decision(box, "river")

    def can_pass_river(self, box: int) -> bool:
        return self._can_do(act.PassRiver, box)

    def pass_river(self, box: int) -> HandState:
        return self.apply(act.PassRiver(box))

    def _do_pass_river(self, box: int) -> HandState:
        return self._with_box(self.box(box).with_decision("river", Decision.CHECK), Phase.RIVER_DECISIONS)

    # ------------------------------------------------------------------ showdown

    def verify_reveal_dealer(self, cards: tuple[Card, ...] | None = None) -> None:
        """The dealer shows his two cards after the river, before any box (THB-15, THB-46, THB-61)."""
        cards = _as_cards(cards)
        self._check_not_over()
        if self.dealer_revealed:
            self._fail(N_("The dealer's cards are already shown"), "THB-61")
        if self.phase not in (Phase.RIVER, Phase.SHOWDOWN):
            if self.phase in (Phase.BETS_OPEN, Phase.NO_MORE_BETS):
                self._fail(N_("The dealer has no cards yet"), "THB-40")
            self._fail(N_("The dealer shows his cards only once the river is dealt and every player has decided"),
                       "THB-73")
        if self.mode is Mode.RECORDED:
            self._check_new_cards(cards, 2, _DEALER_CARDS, "THB-61")
        else:
            self._check_matches(cards, self.dealer_cards, _DEALER_CARDS, "THB-61")

    def can_reveal_dealer(self, cards: Iterable[Card | str] | None = None) -> bool:
        return self._can_do(act.RevealDealer, cards)

    def reveal_dealer(self, cards: Iterable[Card | str] | None = None) -> HandState:
        return self.apply(act.RevealDealer(cards))

    def _do_reveal_dealer(self, cards: tuple[Card, ...] | None = None) -> HandState:
        return replace(self, dealer_cards=self.dealer_cards or cards, dealer_revealed=True, phase=Phase.SHOWDOWN)

    def verify_reveal_box(self, box: int, cards: tuple[Card, ...] | None = None) -> None:
        """A box's cards are shown: boxes that play after the dealer, 7 down to 1 (THB-15, THB-62);
        a folded box's whenever they are recorded, for its Bonus (C-31)."""
        cards = _as_cards(cards)
        self._check_not_over()
        found = self._live_box(box)
        if found.revealed:
            self._fail(N_("Box %(box)s's cards are already shown"), "THB-62", box=found.number)
        if found.plays:
            if self.phase is not Phase.SHOWDOWN:
                if self.phase is Phase.RIVER:
                    self._fail(N_("The dealer's hand is shown first, then boxes 7 to 1"), "THB-15")
                self._fail(N_("Box %(box)s's cards are shown at the showdown, after the river"), "THB-46",
                           box=found.number)
            earlier = [b.number for b in self.boxes if b.plays and not b.revealed and b.number > found.number]
            if earlier:
                self._fail(N_("Box %(first)s is shown before box %(box)s: boxes are shown from 7 down to 1"),
                           "THB-15", first=max(earlier), box=found.number)
        elif not found.folded:
            self._fail(N_("Box %(box)s's cards are shown after its decision"), "THB-62", box=found.number)
        what = _box_cards(found.number)
        if self.mode is Mode.RECORDED:
            self._check_new_cards(cards, 2, what, "THB-62")
        else:
            self._check_matches(cards, found.cards, what, "THB-62")

    def can_reveal_box(self, box: int, cards: Iterable[Card | str] | None = None) -> bool:
        return self._can_do(act.RevealBox, box, cards)

    def reveal_box(self, box: int, cards: Iterable[Card | str] | None = None) -> HandState:
        return self.apply(act.RevealBox(box, cards))

    def _do_reveal_box(self, box: int, cards: tuple[Card, ...] | None = None) -> HandState:
        found = self.box(box)
        return self._with_box(replace(found, cards=found.cards or cards, revealed=True))

    def verify_concede_box(self, box: int) -> None:
        """THB-66: a player who clearly says his hand loses need not turn his cards; not with a Bonus bet,
        which is settled on the cards (THB-66, inferred; C-31). At the showdown, once the dealer's hand is
        shown, in the boxes' turn or out of it: the box loses its ante, flop, turn and river."""
        self._check_not_over()
        found = self._live_box(box)
        if not found.plays:
            self._fail(N_("Box %(box)s did not play against the dealer: there is nothing to concede"), "THB-66",
                       box=found.number)
        if self.phase is not Phase.SHOWDOWN:
            self._fail(N_("A player concedes at the showdown, once the dealer's hand is shown"), "THB-66")
        if found.revealed or found.conceded:
            self._fail(N_("Box %(box)s's hand is already settled at the showdown"), "THB-66", box=found.number)
        if found.bonus:
            self._fail(N_("Box %(box)s has a Bonus bet: its cards are turned so the Bonus can be settled"), "THB-66",
                       box=found.number)

    def can_concede_box(self, box: int) -> bool:
        return self._can_do(act.ConcedeBox, box)

    def concede_box(self, box: int) -> HandState:
        return self.apply(act.ConcedeBox(box))

    def _do_concede_box(self, box: int) -> HandState:
        return self._with_box(replace(self.box(box), conceded=True))

    # ------------------------------------------------------------------ approval (THB-54, C-30)

    def _check_pending(self, box: int) -> None:
        if self.phase is not Phase.SETTLED:
            self._fail(N_("Bonus awards are approved once the hand is settled"), "THB-54")
        number = self._check_box_number(box)
        if number not in self.settlement.pending_approvals:
            self._fail(N_("Box %(box)s has no Bonus award waiting for approval"), "THB-54", box=number)

    def verify_approve_bonus(self, box: int, approver: str = "") -> None:
        """An award that needs approval is paid only once approved (THB-54; approver per C-30)."""
        self._check_pending(box)

    def can_approve_bonus(self, box: int, approver: str = "") -> bool:
        return self._can_do(act.ApproveBonus, box, approver)

    def approve_bonus(self, box: int, approver: str = "") -> HandState:
        return self.apply(act.ApproveBonus(box, approver))

    def _do_approve_bonus(self, box: int, approver: str = "") -> HandState:
        return self._with_approval(box, Approval.APPROVED, approver)

    def verify_deny_bonus(self, box: int, approver: str = "", reason: str = "") -> None:
        """The approver may refuse the award: it is not paid and the Bonus stake is returned (THB-54)."""
        self._check_pending(box)

    def can_deny_bonus(self, box: int, approver: str = "", reason: str = "") -> bool:
        return self._can_do(act.DenyBonus, box, approver, reason)

    def deny_bonus(self, box: int, approver: str = "", reason: str = "") -> HandState:
        return self.apply(act.DenyBonus(box, approver, reason))

    def _do_deny_bonus(self, box: int, approver: str = "", reason: str = "") -> HandState:
        return self._with_approval(box, Approval.DENIED, approver)

    def _with_approval(self, box: int, status: Approval, approver: str) -> HandState:
        approvals = self.approvals + ((box, status, approver),)
        state = replace(self, approvals=approvals)
        return replace(state, settlement=state._settle())

    # ------------------------------------------------------------------ irregularities

    def verify_report_dealer_card_exposed(self) -> None:
        """A dealer's card shown before every player decided voids the round (THB-73)."""
        self._check_not_over()
        if self.phase is Phase.BETS_OPEN:
            self._fail(N_("No card is dealt yet"), "THB-73")
        if self.dealer_revealed:
            self._fail(N_("The dealer's cards are already shown"), "THB-73")

    def can_report_dealer_card_exposed(self) -> bool:
        return self._can_do(act.ReportDealerCardExposed)

    def report_dealer_card_exposed(self) -> HandState:
        return self.apply(act.ReportDealerCardExposed())

    def _do_report_dealer_card_exposed(self) -> HandState:
        if self.decisions_remain:
            return self._voided(Note(N_("A dealer's card was shown before every player had decided")), "THB-73")
        return self._noted(Note(N_("A dealer's card was shown after every player had decided: no effect"), "THB-73"))

    def verify_report_face_up_card(self, count: int = 1, card: Card | None = None) -> None:
        """Face-up cards in the deck during the deal: one is burned, more void the round (THB-74)."""
        card = _as_card(card)
        self._check_not_over()
        if self.phase not in _DEALING_PHASES:
            if self.phase is Phase.BETS_OPEN:
                self._fail(N_("No card is being dealt yet"), "THB-74")
            self._fail(N_("Every card of the hand is dealt"), "THB-74")
        count = self._check_amount(Phrase(N_("The number of face-up cards")), count, "THB-74")
        if count == 1 and card is not None:
            if self.mode is Mode.RECORDED:
                self._check_new_cards((card,), 1, _FACE_UP_CARD, "THB-74")
            elif card not in self.shoe.cards:
                self._fail(N_("%(card)s is not among the undealt cards"), "THB-74", card=str(card))
        if count == 1 and self.mode is Mode.DEALT and not len(self.shoe):
            self._fail(N_("The shoe has run out of cards"), "THB-03")

    def can_report_face_up_card(self, count: int = 1, card: Card | str | None = None) -> bool:
        return self._can_do(act.ReportFaceUpCard, count, card)

    def report_face_up_card(self, count: int = 1, card: Card | str | None = None) -> HandState:
        return self.apply(act.ReportFaceUpCard(count, card))

    def _do_report_face_up_card(self, count: int = 1, card: Card | None = None) -> HandState:
        if count > 1:
            state = self._voided(Note(N_("%(n)s cards were found face up in the deck during the deal"), n=count),
                                 "THB-74")
            return replace(state, needs_reshuffle=True)
        shoe = self.shoe
        if self.mode is Mode.DEALT:
            if card is None:
                card, shoe = shoe.burn()
            else:
                shoe = shoe.remove(card)
        discards = self.discards + ((card,) if card is not None else ())
        if card is not None:
            note = Note(N_("A card (%(card)s) found face up in the deck is not used this hand"), "THB-74",
                        card=str(card))
        else:
            note = Note(N_("A card found face up in the deck is not used this hand"), "THB-74")
        noted = self._noted(note)
        return replace(noted, shoe=shoe, discards=discards)

    def verify_report_box_wrong_card_count(self, box: int, cards_dealt: int) -> None:
        """A box dealt other than two cards: that box's hand is void (THB-76)."""
        self._check_not_over()
        if self.phase not in _CARDS_OUT_PHASES:
            self._fail(N_("The boxes have no cards yet"), "THB-76")
        found = self._live_box(box)
        if isinstance(cards_dealt, bool) or not isinstance(cards_dealt, int) or cards_dealt < 0:
            self._fail(N_("%(cards_dealt)r is not a number of cards"), "THB-76", cards_dealt=cards_dealt)
        if cards_dealt == 2:
            self._fail(N_("Two cards is the right number for a box"), "THB-76")
        if found.revealed:
            self._fail(N_("Box %(box)s's two cards are already shown"), "THB-76", box=found.number)

    def can_report_box_wrong_card_count(self, box: int, cards_dealt: int) -> bool:
        return self._can_do(act.ReportBoxWrongCardCount, box, cards_dealt)

    def report_box_wrong_card_count(self, box: int, cards_dealt: int) -> HandState:
        return self.apply(act.ReportBoxWrongCardCount(box, cards_dealt))

    def _do_report_box_wrong_card_count(self, box: int, cards_dealt: int) -> HandState:
        noted = self._noted(Note(N_("Box %(box)s was dealt %(n)s cards: its hand is void and its bets returned"),
                                 "THB-76", box=box, n=cards_dealt))
        return noted._with_box(replace(noted.box(box), void=True))

    def verify_report_dealer_wrong_card_count(self, cards_dealt: int, correctable: bool = False) -> None:
        """The dealer dealt other than two cards: void unless correctable in sequence, face down (THB-76)."""
        self._check_not_over()
        if self.phase not in _CARDS_OUT_PHASES:
            self._fail(N_("The dealer has no cards yet"), "THB-76")
        if self.dealer_revealed:
            self._fail(N_("The dealer's two cards are already shown"), "THB-76")
        if isinstance(cards_dealt, bool) or not isinstance(cards_dealt, int) or cards_dealt < 0:
            self._fail(N_("%(cards_dealt)r is not a number of cards"), "THB-76", cards_dealt=cards_dealt)
        if cards_dealt == 2:
            self._fail(N_("Two cards is the right number for the dealer"), "THB-76")
        if not isinstance(correctable, bool):
            self._fail(N_("correctable must be true or false, not %(correctable)r"), "THB-76", correctable=correctable)

    def can_report_dealer_wrong_card_count(self, cards_dealt: int, correctable: bool = False) -> bool:
        return self._can_do(act.ReportDealerWrongCardCount, cards_dealt, correctable)

    def report_dealer_wrong_card_count(self, cards_dealt: int, correctable: bool = False) -> HandState:
        return self.apply(act.ReportDealerWrongCardCount(cards_dealt, correctable))

    def _do_report_dealer_wrong_card_count(self, cards_dealt: int, correctable: bool = False) -> HandState:
        if correctable:
            return self._noted(Note(N_("The dealer was dealt %(n)s cards and it was corrected in sequence, face down"),
                                    "THB-76", n=cards_dealt))
        return self._voided(Note(N_("The dealer was dealt %(n)s cards"), n=cards_dealt), "THB-76")

    def verify_void_hand(self, reason: str, clause: str = "THB-24") -> None:
        """The pit boss voids the round for a dealing error (THB-24) or a defective deck (C-35)."""
        self._check_not_over()
        if not isinstance(reason, str) or not reason.strip():
            self._fail(N_("Say why the hand is void"), "THB-24")

    def can_void_hand(self, reason: str, clause: str = "THB-24") -> bool:
        return self._can_do(act.VoidHand, reason, clause)

    def void_hand(self, reason: str, clause: str = "THB-24") -> HandState:
        return self.apply(act.VoidHand(reason, clause))

    def _do_void_hand(self, reason: str, clause: str = "THB-24") -> HandState:
        return self._voided(reason, clause)

    # ------------------------------------------------------------------ transitions

    def _with_box(self, box: Box, phase: Phase | None = None) -> HandState:
        boxes = tuple(box if b.number == box.number else b for b in self.boxes)
        return replace(self, boxes=boxes, phase=phase or self.phase)

    def _noted(self, note: Note) -> HandState:
        """``note``: a ``Note`` (an ``N_`` template, its values, its clause), never an English sentence."""
        if not isinstance(note, Note):
            raise TypeError(f"an engine note is a Note, not {note!r}")
        return replace(self, irregularities=self.irregularities + (note,))

    def _voided(self, reason: Note | str, clause: str) -> HandState:
        """``reason``: a ``Note`` without clause, or the text the pit boss typed (THB-24, C-35)."""
        noted = self._noted(Note(N_("Hand void: %(reason)s"), clause, reason=reason))
        return replace(noted, phase=Phase.VOID, void_reason=reason, void_clause=clause,
                       settlement=void_hand_settlement(self.boxes))

    def _missing_for_settlement(self) -> list[str]:
        """What the hand still needs before it can be settled, in the order the dealer gets it."""
        playing = any(b.plays for b in self.boxes)
        missing: list[str] = ["the rest of the board"] if playing and len(self.board) < 5 else []
        for who, number in self.showdown_order:
            if who == "dealer":
                missing.append("the dealer's cards (shown first, THB-15)" if playing
                               else "the dealer's cards, for the A-A Bonus (C-31)")
            elif self.box(number).plays:
                missing.append(f"box {number}'s cards (THB-15)")
            else:
                missing.append(f"box {number}'s cards, for its Bonus (C-31)")
        return missing

    def _settle(self) -> HandSettlement:
        approvals = {box: status for box, status, _ in self.approvals}
        return settle_hand(self.rules, self.boxes, self.dealer_cards, self.board, approvals)

    def _settle_if_ready(self) -> HandState:
        """Move on by itself where the manual does: no live box, nobody playing, everything known."""
        if self.phase in _OVER or self.phase in (Phase.BETS_OPEN, Phase.NO_MORE_BETS):
            return self
        if not any(b.live for b in self.boxes):
            return self._voided(Note(N_("Every box's hand is void")), "THB-76")
        state = self
        if not self.deciders("flop") and not any(b.plays for b in self.boxes) and self.phase is not Phase.SHOWDOWN:
            # Nobody plays against the dealer: no more cards; only Bonus bets remain (THB-69, C-31).
            state = replace(state, phase=Phase.SHOWDOWN)
        if state.phase is Phase.SHOWDOWN and not state._missing_for_settlement():
            return replace(state, phase=Phase.SETTLED, settlement=state._settle())
        return state


def new_hand(rules: TableRules | None = None) -> HandState:
    """A hand with bets open ('hagan sus apuestas', THB-30)."""
    return HandState(rules=rules or TableRules())


def replay(
    rules: TableRules | None, records: Iterable[act.Action | Mapping[str, Any]], *, start: HandState | None = None
) -> HandState:
    """Rebuild a hand from its records, in order; a refused record raises ``ReplayError`` naming it.

    ``start``: a state already rebuilt from the hand's earlier records, to go on from (states are
    frozen, so this is the same result as replaying every record from the first).
    """
    state = start if start is not None else new_hand(rules)
    for index, record in enumerate(records):
        try:
            state = state.apply(record)
        except RuleViolation as violation:
            raise ReplayError(index, record, violation) from violation
    return state
