"""The records of a Texas Hold'em Bonus hand: one frozen record per thing that happened.

A hand is nothing but its records replayed in order (see ``replay`` in
``casino.rules.holdem_bonus.state``). Each record is JSON-safe through
``to_dict()`` / ``action_from_dict()``::

    {"action": "place-ante", "box": 3, "amount": 10}
    {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}
    {"action": "report-face-up-card", "count": 1}

``"action"`` is the record's kind (its class's ``kind``); the other keys are
its fields, with cards written as text and optional fields left out when
empty. Reading a record refuses unknown kinds, unknown or missing keys and
wrong types, so a stored hand can never be replayed differently from how it
was played.

Each kind names the ``HandState`` trio it drives: ``verify_<method>``
(raises ``RuleViolation``), ``can_<method>`` (bool) and ``<method>``
(returns the next state), e.g. ``PlaceAnte`` -> ``verify_place_ante``,
``can_place_ante``, ``place_ante``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from casino.rules.cards import Card, parse_card, parse_cards
from casino.rules.errors import N_, RuleViolation

_REGISTRY: dict[str, type[Action]] = {}


def _read_int(kind: str, name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(N_("In a %(kind)s record, %(name)s must be a whole number, not %(value)r"),
                            kind=kind, name=name, value=value)
    return value


def _read_bool(kind: str, name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleViolation(N_("In a %(kind)s record, %(name)s must be true or false, not %(value)r"),
                            kind=kind, name=name, value=value)
    return value


def _read_str(kind: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise RuleViolation(N_("In a %(kind)s record, %(name)s must be text, not %(value)r"),
                            kind=kind, name=name, value=value)
    return value


def _read_cards(kind: str, name: str, value: object) -> tuple[Card, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise RuleViolation(N_("In a %(kind)s record, %(name)s must be a list of cards such as [\"Ah\", \"Kd\"]"),
                            kind=kind, name=name)
    return parse_cards(value)


def _read_card(kind: str, name: str, value: object) -> Card:
    return parse_card(value)


# Field type (as written in the annotations below) -> reader of its JSON value.
_READERS = {
    "int": _read_int,
    "bool": _read_bool,
    "str": _read_str,
    "tuple[Card, ...]": _read_cards,
    "tuple[Card, ...] | None": _read_cards,
    "Card | None": _read_card,
}


@dataclass(frozen=True)
class Action:
    """Base of every hand record. Subclasses set ``kind`` and ``method``."""

    kind: ClassVar[str] = ""
    method: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            _REGISTRY[cls.kind] = cls

    def arguments(self) -> dict[str, Any]:
        """The fields as keyword arguments for the ``HandState`` trio."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"action": kind, field: value, ...}``; cards as text, empty optionals left out."""
        data: dict[str, Any] = {"action": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Card):
                value = str(value)
            elif isinstance(value, tuple):
                value = [str(c) for c in value]
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        return action_from_dict(data)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if k != "action")
        return f"{self.kind}({args})"


def _normalise_cards(record: Action, name: str, optional: bool) -> None:
    value = getattr(record, name)
    if value is None and optional:
        return
    if value is None or isinstance(value, Mapping | int):
        raise RuleViolation(N_("%(kind)s: %(name)s must be a list of cards such as [\"Ah\", \"Kd\"]"),
                            kind=record.kind, name=name)
    # Text such as "Ah Kd" or "AhKd" is read by parse_cards; any other iterable card by card.
    object.__setattr__(record, name, parse_cards(value if isinstance(value, str | list | tuple) else tuple(value)))


def _normalise_card(record: Action, name: str) -> None:
    value = getattr(record, name)
    if value is not None:
        object.__setattr__(record, name, parse_card(value))


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read one stored record back; refuses anything it does not know exactly."""
    if not isinstance(data, Mapping):
        raise RuleViolation(N_("A hand record must be a JSON object, not %(data)r"), data=data)
    kind = data.get("action")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RuleViolation(N_("%(kind)r is not a Texas Hold'em Bonus action; actions are %(actions)s"),
                            kind=kind, actions=", ".join(sorted(_REGISTRY)))
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"action"})
    if unknown:
        listed = ", ".join(fields) or "none"
        raise RuleViolation(N_("A %(kind)s record has no %(unknown)s; its fields are %(fields)s"),
                            kind=kind, unknown=", ".join(unknown), fields=listed)
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in data or data[name] is None:
            if f.default is dataclasses.MISSING:
                raise RuleViolation(N_("A %(kind)s record needs %(name)s"), kind=kind, name=name)
            continue
        values[name] = _READERS[str(f.type)](kind, name, data[name])
    return cls(**values)


# --- Bets (THB-25, THB-26, THB-52) -------------------------------------------------------------


@dataclass(frozen=True)
class PlaceAnte(Action):
    """A player puts the ante in a box's ANTE spot (THB-26, THB-38)."""

    kind: ClassVar[str] = "place-ante"
    method: ClassVar[str] = "place_ante"
    box: int
    amount: int


@dataclass(frozen=True)
class PlaceBonus(Action):
    """A player with an ante puts a Bonus bet in the BONUS spot (THB-39, THB-52)."""

    kind: ClassVar[str] = "place-bonus"
    method: ClassVar[str] = "place_bonus"
    box: int
    amount: int


@dataclass(frozen=True)
class WithdrawBets(Action):
    """The dealer hands back a box's ante and Bonus while bets are still open (THB-30 checks)."""

    kind: ClassVar[str] = "withdraw-bets"
    method: ClassVar[str] = "withdraw_bets"
    box: int


@dataclass(frozen=True)
class CloseBets(Action):
    """"No va más": betting is closed (THB-31)."""

    kind: ClassVar[str] = "close-bets"
    method: ClassVar[str] = "close_bets"


# --- Cards (THB-32, THB-40..45) ------------------------------------------------------------------


@dataclass(frozen=True)
class LoadShoe(Action):
    """Dealt mode: the engine's shuffled deck, in order, top first (see ``casino.rules.shuffle``)."""

    kind: ClassVar[str] = "load-shoe"
    method: ClassVar[str] = "load_shoe"
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _normalise_cards(self, "cards", optional=False)


@dataclass(frozen=True)
class DealInitial(Action):
    """The initial deal, face down: P1..Pn, dealer, P1..Pn, dealer (THB-40)."""

    kind: ClassVar[str] = "deal-initial"
    method: ClassVar[str] = "deal_initial"


@dataclass(frozen=True)
class DealFlop(Action):
    """Burn one, then three community cards face up (THB-42). Cards are entered in recorded mode."""

    kind: ClassVar[str] = "deal-flop"
    method: ClassVar[str] = "deal_flop"
    cards: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        _normalise_cards(self, "cards", optional=True)


@dataclass(frozen=True)
class DealTurn(Action):
    """Burn one, then the fourth community card (THB-44)."""

    kind: ClassVar[str] = "deal-turn"
    method: ClassVar[str] = "deal_turn"
    card: Card | None = None

    def __post_init__(self) -> None:
        _normalise_card(self, "card")


@dataclass(frozen=True)
class DealRiver(Action):
    """Burn one, then the fifth community card (THB-45)."""

    kind: ClassVar[str] = "deal-river"
    method: ClassVar[str] = "deal_river"
    card: Card | None = None

    def __post_init__(self) -> None:
        _normalise_card(self, "card")


# --- Decisions (THB-41, THB-43, THB-44, THB-55..59) ---------------------------------------------


@dataclass(frozen=True)
class BetFlop(Action):
    """"Va": the player puts exactly twice the ante in the FLOP spot (THB-27, THB-57)."""

    kind: ClassVar[str] = "bet-flop"
    method: ClassVar[str] = "bet_flop"
    box: int
    amount: int


@dataclass(frozen=True)
class Fold(Action):
    """"No va": the player gives up the ante (THB-55, THB-56). Cards may be recorded as they are fanned."""

    kind: ClassVar[str] = "fold"
    method: ClassVar[str] = "fold"
    box: int
    cards: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        _normalise_cards(self, "cards", optional=True)


@dataclass(frozen=True)
class BetTurn(Action):
    """The optional turn bet, equal to the ante (THB-28, THB-58)."""

    kind: ClassVar[str] = "bet-turn"
    method: ClassVar[str] = "bet_turn"
    box: int
    amount: int


@dataclass(frozen=True)
class PassTurn(Action):
    """The player checks ("pasa") on the turn and stays in (THB-43)."""

    kind: ClassVar[str] = "pass-turn"
    method: ClassVar[str] = "pass_turn"
    box: int


@dataclass(frozen=True)
class BetRiver(Action):
    """The optional river bet, equal to the ante, allowed after a turn check (THB-29, THB-59)."""

    kind: ClassVar[str] = "bet-river"
    method: ClassVar[str] = "bet_river"
    box: int
    amount: int


@dataclass(frozen=True)
class PassRiver(Action):
    """The player checks on the river and stays in (THB-44)."""

    kind: ClassVar[str] = "pass-river"
    method: ClassVar[str] = "pass_river"
    box: int


# --- Showdown and settlement (THB-15, THB-46, THB-54, THB-61, THB-62) ----------------------------


@dataclass(frozen=True)
class RevealDealer(Action):
    """The dealer turns his two cards, first of all hands (THB-15, THB-61)."""

    kind: ClassVar[str] = "reveal-dealer"
    method: ClassVar[str] = "reveal_dealer"
    cards: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        _normalise_cards(self, "cards", optional=True)


@dataclass(frozen=True)
class RevealBox(Action):
    """A box's two cards are turned: boxes that play from 7 down to 1 (THB-15, THB-62); a folded box
    with a Bonus whenever its cards are recorded (C-31)."""

    kind: ClassVar[str] = "reveal-box"
    method: ClassVar[str] = "reveal_box"
    box: int
    cards: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        _normalise_cards(self, "cards", optional=True)


@dataclass(frozen=True)
class ConcedeBox(Action):
    """The player says his hand loses and his cards are not turned (THB-66): he loses his main bets."""

    kind: ClassVar[str] = "concede-box"
    method: ClassVar[str] = "concede_box"
    box: int


@dataclass(frozen=True)
class ApproveBonus(Action):
    """The approver (pit boss or DJ, C-30) authorises a Bonus award that needs it (THB-54)."""

    kind: ClassVar[str] = "approve-bonus"
    method: ClassVar[str] = "approve_bonus"
    box: int
    approver: str = ""


@dataclass(frozen=True)
class DenyBonus(Action):
    """The approver refuses a Bonus award that needs approval: the Bonus stake is returned (THB-54)."""

    kind: ClassVar[str] = "deny-bonus"
    method: ClassVar[str] = "deny_bonus"
    box: int
    approver: str = ""
    reason: str = ""


# --- Irregularities (THB-24, THB-73..76) ----------------------------------------------------------


@dataclass(frozen=True)
class ReportDealerCardExposed(Action):
    """A dealer's card was seen (THB-73): void if any player still had a decision to make."""

    kind: ClassVar[str] = "report-dealer-card-exposed"
    method: ClassVar[str] = "report_dealer_card_exposed"


@dataclass(frozen=True)
class ReportFaceUpCard(Action):
    """Face-up cards found in the deck while dealing (THB-74): one is burned, more void the round."""

    kind: ClassVar[str] = "report-face-up-card"
    method: ClassVar[str] = "report_face_up_card"
    count: int = 1
    card: Card | None = None

    def __post_init__(self) -> None:
        _normalise_card(self, "card")


@dataclass(frozen=True)
class ReportBoxWrongCardCount(Action):
    """A box was dealt other than two cards (THB-76): that box's hand is void."""

    kind: ClassVar[str] = "report-box-wrong-card-count"
    method: ClassVar[str] = "report_box_wrong_card_count"
    box: int
    cards_dealt: int


@dataclass(frozen=True)
class ReportDealerWrongCardCount(Action):
    """The dealer was dealt other than two cards (THB-76): void unless correctable in sequence."""

    kind: ClassVar[str] = "report-dealer-wrong-card-count"
    method: ClassVar[str] = "report_dealer_wrong_card_count"
    cards_dealt: int
    correctable: bool = False


@dataclass(frozen=True)
class VoidHand(Action):
    """The round is void ("mano nula") for a dealing error the specific rules do not cover (THB-24)."""

    kind: ClassVar[str] = "void-hand"
    method: ClassVar[str] = "void_hand"
    reason: str
    clause: str = "THB-24"


def action_kinds() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))
