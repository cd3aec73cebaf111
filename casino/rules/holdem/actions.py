"""The records of a Hold'em hand: one frozen record per thing the dealer entered.

A hand is its ``TableSetup`` plus these records replayed in order
(``HoldemHand.replay``). Each record is JSON-safe through ``to_dict()`` and
``action_from_dict()``; as in the Texas Hold'em Bonus records, the
``"action"`` key names the kind (the record's ``kind``) and the other keys
are its fields, cards written as text and empty optional fields left out::

    {"action": "post-blinds"}
    {"action": "raise", "seat": 4, "to": 1000}
    {"action": "chips", "seat": 3, "chips": [1000, 500]}
    {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}

A hand line (``docs/hand-history.md``) writes its acts with ``"act"``
instead; ``casino.rules.holdem.replay`` reads that format as it is.

Each kind names the ``HoldemHand`` trio it drives: ``verify_<method>``
(raises ``RuleViolation``), ``can_<method>`` (bool) and ``<method>``
(returns the next state), e.g. ``Raise`` -> ``verify_raise_to``,
``can_raise_to``, ``raise_to``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from casino.rules.cards import Card, parse_cards
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem.config import FORMAT

_REGISTRY: dict[str, type[Action]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every record. Subclasses set ``kind`` (the ``"action"`` value) and ``method``."""

    kind: ClassVar[str] = ""
    method: ClassVar[str] = ""
    puts_chips: ClassVar[bool] = False

    def arguments(self) -> dict[str, Any]:
        """The fields as keyword arguments for the ``HoldemHand`` trio."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"action": kind, field: value, ...}``."""
        data: dict[str, Any] = {"action": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            data[f.name] = _json_value(value)
        return data


def _json_value(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    return value


# -- betting acts, by the player in turn ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fold(Action):
    kind: ClassVar[str] = "fold"
    method: ClassVar[str] = "fold"
    seat: int


@dataclass(frozen=True, slots=True)
class Check(Action):
    kind: ClassVar[str] = "check"
    method: ClassVar[str] = "check"
    seat: int


@dataclass(frozen=True, slots=True)
class Call(Action):
    kind: ClassVar[str] = "call"
    method: ClassVar[str] = "call"
    puts_chips: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """A bet to ``to``, the player's total for the round."""

    kind: ClassVar[str] = "bet"
    method: ClassVar[str] = "bet"
    puts_chips: ClassVar[bool] = True
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """A raise to ``to``, the player's total for the round (TDA-43-B)."""

    kind: ClassVar[str] = "raise"
    method: ClassVar[str] = "raise_to"
    puts_chips: ClassVar[bool] = True
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class AllIn(Action):
    kind: ClassVar[str] = "all-in"
    method: ClassVar[str] = "all_in"
    puts_chips: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class PushChips(Action):
    """Chips put in without a word, by value (TDA-43, TDA-44, TDA-45)."""

    kind: ClassVar[str] = "chips"
    method: ClassVar[str] = "push_chips"
    puts_chips: ClassVar[bool] = True
    seat: int
    chips: tuple[int, ...]


# -- out-of-turn action (TDA-53, CC-134, CC-135, C-08) ---------------------------------------------------

#: What a player may do out of turn, as the dealer records it.
OUT_OF_TURN_ACTS = ("fold", "check", "call", "bet", "raise")
#: The director's rulings on a skipped player's hand (TDA-53-B).
SKIPPED_HAND_RULINGS = ("dead", "non-aggressive")


@dataclass(frozen=True, slots=True)
class OutOfTurn(Action):
    """An act out of turn (TDA-53-A, CC-134): recorded as pending at the seat, the turn does not move and no
    chip counts until the action reaches him; ``to`` for a bet or raise (the round total)."""

    kind: ClassVar[str] = "out-of-turn"
    method: ClassVar[str] = "act_out_of_turn"
    seat: int
    act: str
    to: int | None = None


@dataclass(frozen=True, slots=True)
class RuleSkippedHand(Action):
    """The director's ruling on the hand of a player skipped by out-of-turn action followed by substantial
    action (TDA-53-B): ``"dead"`` or ``"non-aggressive"`` (he may check, call or fold only)."""

    kind: ClassVar[str] = "skipped-hand"
    method: ClassVar[str] = "rule_skipped_hand"
    seat: int
    ruling: str


# -- the dealer's steps -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PostAntes(Action):
    kind: ClassVar[str] = "post-antes"
    method: ClassVar[str] = "post_antes"


@dataclass(frozen=True, slots=True)
class PostBlinds(Action):
    kind: ClassVar[str] = "post-blinds"
    method: ClassVar[str] = "post_blinds"


@dataclass(frozen=True, slots=True)
class DealHoleCards(Action):
    """Two cards to every player; ``cards`` holds those the dealer recorded (maybe none)."""

    kind: ClassVar[str] = "deal-hole-cards"
    method: ClassVar[str] = "deal_hole_cards"
    cards: Mapping[int, tuple[Card, ...]] | None = None


@dataclass(frozen=True, slots=True)
class DealFlop(Action):
    kind: ClassVar[str] = "deal-flop"
    method: ClassVar[str] = "deal_flop"
    cards: tuple[Card, ...] | None = None
    burn: Card | None = None
    burns: int | None = None  # burns taken when not one: 0 or 2 after a burn error (CC-105)
    second_burn: Card | None = None


@dataclass(frozen=True, slots=True)
class DealTurn(Action):
    kind: ClassVar[str] = "deal-turn"
    method: ClassVar[str] = "deal_turn"
    card: Card | None = None
    burn: Card | None = None
    burns: int | None = None  # burns taken when not one: 0 or 2 after a burn error (CC-105)
    second_burn: Card | None = None


@dataclass(frozen=True, slots=True)
class DealRiver(Action):
    kind: ClassVar[str] = "deal-river"
    method: ClassVar[str] = "deal_river"
    card: Card | None = None
    burn: Card | None = None
    burns: int | None = None  # burns taken when not one: 0 or 2 after a burn error (CC-105)
    second_burn: Card | None = None


@dataclass(frozen=True, slots=True)
class ShowHand(Action):
    kind: ClassVar[str] = "show"
    method: ClassVar[str] = "show_hand"
    seat: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class MuckHand(Action):
    kind: ClassVar[str] = "muck"
    method: ClassVar[str] = "muck_hand"
    seat: int


@dataclass(frozen=True, slots=True)
class AwardPots(Action):
    kind: ClassVar[str] = "award-pots"
    method: ClassVar[str] = "award_pots"


@dataclass(frozen=True, slots=True)
class KillHand(Action):
    """A dead hand killed by the dealer at the end of the deal: a player absent from the seat (TDA-30, CC-29)
    or under a penalty (TDA-71-D), dealt in and posted for the blinds and antes."""

    kind: ClassVar[str] = "kill-hand"
    method: ClassVar[str] = "kill_hand"
    seat: int


@dataclass(frozen=True, slots=True)
class DeclareMisdeal(Action):
    kind: ClassVar[str] = "misdeal"
    method: ClassVar[str] = "declare_misdeal"


@dataclass(frozen=True, slots=True)
class DeclareDefectiveDeck(Action):
    kind: ClassVar[str] = "defective-deck"
    method: ClassVar[str] = "declare_defective_deck"


# -- dealing errors, by the dealer (issue #38 item 2; casino.rules.holdem.dealing_errors) -------------


@dataclass(frozen=True, slots=True)
class PrematureBoard(Action):
    """Board cards dealt before the betting round was complete (RP-05-A/B/C, CC-106): the next street's
    ``cards`` (three for a flop, one for a turn or a river) and its ``burn``, as far as recorded."""

    kind: ClassVar[str] = "premature-board"
    method: ClassVar[str] = "premature_board"
    cards: tuple[Card, ...] | None = None
    burn: Card | None = None


@dataclass(frozen=True, slots=True)
class FourCardFlop(Action):
    """Four cards turned for the flop (CC-103, TDA-39); ``pick``: the card the director picked at random as
    the next burn where the house follows TDA-39."""

    kind: ClassVar[str] = "four-card-flop"
    method: ClassVar[str] = "four_card_flop"
    cards: tuple[Card, ...] | None = None
    burn: Card | None = None
    pick: Card | None = None


@dataclass(frozen=True, slots=True)
class ExposedInDeal(Action):
    """A card exposed by the dealer's error during the deal (CC-98, CC-101, TDA-35-A(5)): the ``position``-th
    card off the deck (1 for the first), dealt to ``seat``; ``replacement``: the top card given instead."""

    kind: ClassVar[str] = "exposed-in-deal"
    method: ClassVar[str] = "exposed_in_deal"
    position: int
    seat: int | None = None
    card: Card | None = None
    replacement: Card | None = None


@dataclass(frozen=True, slots=True)
class ExposedCard(Action):
    """A player's card exposed after the deal (CC-94, CC-95, CC-96): ``card`` when identified (otherwise the
    whole hand is shown), ``intentional`` when the player exposed it himself (penalised at the hand's end),
    ``seen_by``: ``"active"`` (another player in the hand: shown to everyone at once) or ``"out"`` (a player
    not in the hand: shown at the hand's end) (CC-95); absent: shown to everyone at once."""

    kind: ClassVar[str] = "exposed-card"
    method: ClassVar[str] = "exposed_card"
    seat: int
    card: Card | None = None
    intentional: bool | None = None
    seen_by: str | None = None


@dataclass(frozen=True, slots=True)
class ExtraCard(Action):
    """Extra cards dealt to the first player in the initial deal (CC-102; two or more: CC-98)."""

    kind: ClassVar[str] = "extra-card"
    method: ClassVar[str] = "extra_card"
    card: Card | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class BoxedCards(Action):
    """Face-up cards found in the deck during the deal (C-07: CC-100 or TDA-35-A(1)); ``next_dealt``: a
    face-down card had already gone to the next player."""

    kind: ClassVar[str] = "boxed-cards"
    method: ClassVar[str] = "boxed_cards"
    count: int
    cards: tuple[Card, ...] | None = None
    next_dealt: bool | None = None


@dataclass(frozen=True, slots=True)
class ButtonShortCard(Action):
    """The button says he is a card short (TDA-37): dealt the missing ``card``, or dead if he has acted."""

    kind: ClassVar[str] = "button-short"
    method: ClassVar[str] = "button_short"
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class WrongCardCount(Action):
    """A player holds ``count`` cards instead of two (CC-98, TDA-38)."""

    kind: ClassVar[str] = "wrong-card-count"
    method: ClassVar[str] = "wrong_card_count"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class StubRebuilt(Action):
    """A dropped, disordered stub rebuilt (RP-04): ``how`` is ``order`` (its order restored), ``stub`` (a new
    stub from the stub's cards only) or ``all`` (mixed with the muck and burns: everything reshuffled)."""

    kind: ClassVar[str] = "stub-rebuilt"
    method: ClassVar[str] = "stub_rebuilt"
    how: str


@dataclass(frozen=True, slots=True)
class BurnError(Action):
    """A street was dealt with ``burns`` burn cards (0 or 2) instead of one (CC-104, CC-105): the last one,
    or ``street`` (``flop``, ``turn``) found later in a hand without betting since (an all-in, CC-105)."""

    kind: ClassVar[str] = "burn-error"
    method: ClassVar[str] = "burn_error"
    burns: int
    street: str | None = None


DEALING_ERROR_CLASSES = (PrematureBoard, FourCardFlop, ExposedInDeal, ExposedCard, ExtraCard, BoxedCards,
                         ButtonShortCard, WrongCardCount, StubRebuilt, BurnError)


for _cls in (Fold, Check, Call, Bet, Raise, AllIn, PushChips, PostAntes, PostBlinds, DealHoleCards, DealFlop,
             DealTurn, DealRiver, ShowHand, MuckHand, AwardPots, KillHand, DeclareMisdeal, DeclareDefectiveDeck,
             OutOfTurn, RuleSkippedHand, *DEALING_ERROR_CLASSES):
    _REGISTRY[_cls.kind] = _cls

BETTING_KINDS = frozenset({"fold", "check", "call", "bet", "raise", "all-in", "chips"})
#: The dealer's records of a dealing error (issue #38 item 2).
DEALING_ERROR_KINDS = frozenset(cls.kind for cls in DEALING_ERROR_CLASSES)


def _int(kind: str, name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(N_("In a %(kind)s action, %(name)s must be a whole number, not %(value)r"), FORMAT,
                            kind=kind, name=name, value=value)
    return value


def _cards(kind: str, name: str, value: object) -> tuple[Card, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise RuleViolation(N_("In a %(kind)s action, %(name)s must be a list of cards such as [\"Ah\", \"Kd\"]"),
                            FORMAT, kind=kind, name=name)
    return parse_cards(value)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read one record; refuse unknown kinds, unknown or missing keys and wrong types."""
    if not isinstance(data, Mapping):
        raise RuleViolation(N_("An action must be an object such as {\"action\": \"call\", \"seat\": 3}, not"
                               " %(data)r"), FORMAT, data=data)
    kind = data.get("action")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(_REGISTRY))
        raise RuleViolation(N_("%(kind)r is not an action: use one of %(actions)s"), FORMAT, kind=kind, actions=known)
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"action"}
    if extra:
        raise RuleViolation(N_("A %(kind)s action has no %(keys)s"), FORMAT, kind=kind, keys=", ".join(sorted(extra)))
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data or data[f.name] is None:
            if f.default is not None:  # a field without a default (seat, to, chips, act, ruling) is needed
                raise RuleViolation(N_("A %(kind)s action needs %(key)r"), FORMAT, kind=kind, key=f.name)
            continue
        raw = data[f.name]
        if f.name in ("seat", "to"):
            values[f.name] = _int(kind, f.name, raw)
        elif f.name == "chips":
            if isinstance(raw, str) or not isinstance(raw, list | tuple) or not raw:
                raise RuleViolation(N_("A %(kind)s action needs the chips' values as a list, such as [1000, 500]"),
                                    FORMAT, kind=kind)
            values[f.name] = tuple(_int(kind, "each chip", v) for v in raw)
        elif f.name == "cards" and cls is DealHoleCards:
            if not isinstance(raw, Mapping):
                raise RuleViolation(N_("deal-hole-cards takes cards as {\"3\": [\"As\", \"Kd\"], ...}"), FORMAT)
            values[f.name] = {_int(kind, "seat", int(k) if str(k).isdigit() else k): _cards(kind, "cards", v)
                              for k, v in raw.items()}
        elif f.name == "cards":
            values[f.name] = _cards(kind, f.name, raw)
        elif f.name in ("act", "ruling"):
            if not isinstance(raw, str):
                raise RuleViolation(N_("In a %(kind)s action, %(name)s must be a word, not %(value)r"), FORMAT,
                                    kind=kind, name=f.name, value=raw)
            values[f.name] = raw
        elif f.name in ("card", "burn", "pick", "replacement", "second_burn"):
            values[f.name] = _cards(kind, f.name, [raw])[0]
        elif f.name in ("position", "count", "burns"):
            values[f.name] = _int(kind, f.name, raw)
        elif f.name in ("intentional", "next_dealt"):
            if not isinstance(raw, bool):
                raise RuleViolation(N_("In a %(kind)s action, %(name)s is true or false"), FORMAT, kind=kind,
                                    name=f.name)
            values[f.name] = raw
        elif f.name in ("how", "seen_by", "street"):
            if not isinstance(raw, str):
                raise RuleViolation(N_("In a %(kind)s action, %(name)s is a word"), FORMAT, kind=kind, name=f.name)
            values[f.name] = raw
    return cls(**values)
