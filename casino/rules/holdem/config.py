"""What a Hold'em hand is played with: the table's setup for one hand and the house options.

``TableSetup`` is one hand's facts (seats and stacks, button, blinds, ante,
betting structure, the smallest chip in play). ``HouseRules`` holds the
choices the rules documents leave to the house or disagree on (checklist
section 5), each defaulting to the setting the checklist names.

Seats are numbered 1 to 10 and play goes clockwise, from a seat to the next
higher number and from 10 back to 1 (CC-77).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from casino.rules.errors import N_, Phrase, RuleViolation

MAX_SEATS = 10
FORMAT = "hand-history format"


class Betting(Enum):
    """Betting structures (TDA-48, TDA-54)."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class AnteKind(Enum):
    """Who pays the ante (C-02)."""

    NONE = "none"
    BIG_BLIND = "big-blind"  # RP-11: the big blind pays it, before the blind
    BUTTON = "button"  # CC-50: the button pays it
    EVERY_PLAYER = "every-player"


class Mode(Enum):
    """Tournament or ring (cash) game: decides C-21 (when the limit raise cap is lifted)."""

    TOURNAMENT = "tournament"
    RING = "ring"


#: C-07's readings of face-up cards found in the deck (HouseRules.boxed_cards).
BOXED_CARDS = ("CC-100", "TDA-35-A")
#: A four-card flop's readings (HouseRules.four_card_flop).
FOUR_CARD_FLOP = ("CC-103", "TDA-39")


class MisdealCutoff(Enum):
    """Until when a misdeal may still be declared (C-06)."""

    TDA_SUBSTANTIAL_ACTION = "TDA_AS"  # TDA-35-D, TDA-36
    CC_TWO_ACTIONS = "CC_two_actions"  # CC-99


class OutOfTurnAfterChange(Enum):
    """What a player who acted out of turn may do when the action changed before his turn (C-08)."""

    CALL_OR_FOLD = "call_or_fold"  # CC-134: he must call, may not raise, or he folds
    ALL_OPTIONS = "all_options"  # TDA-53-A: not binding, chips returned, every option (call, raise, fold)


class CapLift(Enum):
    """When the fixed-limit raise cap stops applying (C-21)."""

    HEADS_UP_IN_HAND = "heads_up_in_hand"  # DEAL-15: two players left in the hand
    HEADS_UP_IN_TOURNAMENT = "heads_up_in_tournament"  # TDA-48: two players left in the event
    NEVER = "never"


def _whole(value: object, what: Phrase, clause: str = FORMAT, minimum: int = 0) -> int:
    # Chips are whole numbers: refuse floats and booleans rather than round them.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(N_("%(what)s must be a whole number of chips, not %(value)r"), clause, what=what,
                            value=value)
    if value < minimum:
        raise RuleViolation(N_("%(what)s must be at least %(minimum)s, not %(value)s"), clause, what=what,
                            minimum=minimum, value=value)
    return value


_THE_ANTE = Phrase(N_("The ante"))
_THE_SMALL_BLIND = Phrase(N_("The small blind"))
_THE_BIG_BLIND = Phrase(N_("The big blind"))


@dataclass(frozen=True, slots=True)
class Ante:
    """The ante: its kind and amount (C-02, RP-11, CC-50, CC-51)."""

    kind: AnteKind = AnteKind.NONE
    amount: int = 0

    def __post_init__(self) -> None:
        _whole(self.amount, _THE_ANTE)
        if self.kind is AnteKind.NONE and self.amount:
            raise RuleViolation(N_("An ante amount needs an ante kind: big-blind, button or every-player"), "C-02")
        if self.kind is not AnteKind.NONE and not self.amount:
            object.__setattr__(self, "kind", AnteKind.NONE)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, default_kind: AnteKind = AnteKind.BUTTON) -> Ante:
        if not data:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleViolation(N_("ante must be an object such as {\"kind\": \"button\", \"amount\": 200}"), FORMAT)
        kind_text = data.get("kind")
        try:
            kind = default_kind if kind_text is None else AnteKind(kind_text)
        except ValueError:
            names = ", ".join(k.value for k in AnteKind)
            raise RuleViolation(N_("%(kind)r is not an ante kind: use one of %(kinds)s"), "C-02", kind=kind_text,
                                kinds=names) from None
        return cls(kind, _whole(data.get("amount", 0), _THE_ANTE))


@dataclass(frozen=True, slots=True)
class HouseRules:
    """House options where the documents are silent or disagree, with the checklist's defaults.

    - ``mode``: tournament or ring; only changes C-21 below.
    - ``misdeal_cutoff`` (C-06): CC-99 by default, a misdeal while no more than
      two players have acted; or TDA-35-D/36, until substantial action.
    - ``default_ante_kind`` (C-02): the button ante of CC-50 when a structure
      names an ante amount but not who pays it.
    - ``button_ante_halved_at_or_below`` (C-02, CC-51): the button ante is
      halved (to the small blind when it equals the big blind) with six or
      fewer players at the table; ``None`` never halves (RP-11: antes are
      never reduced).
    - ``limit_raise_cap`` (TDA-48, DEAL-15): bets and raises allowed in one
      fixed-limit round, the big blind counting as the bet before the flop;
      4 means a bet and three raises.
    - ``limit_cap_lifted_when`` (C-21): ``None`` follows the mode, the cap
      lifted heads-up in the hand in ring games (DEAL-15) and only when two
      players remain in the tournament in tournaments (TDA-48).
    - ``boxed_cards`` (C-07): face-up cards found in the deck, CC-100 by default
      (scrap paper) or TDA-35-A (two or more are a misdeal).
    - ``four_card_flop``: CC-103 by default (the flop redealt) or TDA-39 (the
      director's random pick is the next burn).
    """

    mode: Mode = Mode.TOURNAMENT
    misdeal_cutoff: MisdealCutoff = MisdealCutoff.CC_TWO_ACTIONS
    default_ante_kind: AnteKind = AnteKind.BUTTON
    button_ante_halved_at_or_below: int | None = 6
    limit_raise_cap: int = 4
    limit_cap_lifted_when: CapLift | None = None
    #: A hand mucked at the showdown: lost for good by default (CC-146, the house's reading, TDA-00); with
    #: True, still live while it is identified and tabled (TDA-14, TDA-65-B), where the TD so rules.
    mucked_hand_recoverable: bool = False
    #: C-07: face-up cards found in the deck during the deal: CC-100 (the house's, by default: scrap
    #: paper, a misdeal only when a face-down card already went to the next player) or TDA-35-A (two or
    #: more boxed cards are a misdeal).
    boxed_cards: str = "CC-100"
    #: A four-card flop: CC-103 (the house's, by default: the board is redealt, CC-107) or TDA-39 (the
    #: director is called and picks one of the four at random as the next burn; the other three are the flop).
    four_card_flop: str = "CC-103"
    #: C-08: an out-of-turn act when the action changed before the player's turn: call or fold (CC-134, the
    #: default) or every option (TDA-53-A).
    oot_after_change: OutOfTurnAfterChange = OutOfTurnAfterChange.CALL_OR_FOLD

    def __post_init__(self) -> None:
        if self.boxed_cards not in BOXED_CARDS:
            raise RuleViolation(N_("boxed_cards is one of %(choices)s"), "C-07", choices=", ".join(BOXED_CARDS))
        if self.four_card_flop not in FOUR_CARD_FLOP:
            raise RuleViolation(N_("four_card_flop is one of %(choices)s"), "TDA-39",
                                choices=", ".join(FOUR_CARD_FLOP))
        if isinstance(self.limit_raise_cap, bool) or not isinstance(self.limit_raise_cap, int) \
                or self.limit_raise_cap < 1:
            raise RuleViolation(N_("The fixed-limit cap is a whole number of bets and raises, at least 1 (the bet)"),
                                "TDA-48")
        if not isinstance(self.mucked_hand_recoverable, bool):
            raise RuleViolation(N_("mucked_hand_recoverable is true or false"), "CC-146")
        halve_at = self.button_ante_halved_at_or_below
        if halve_at is not None and (isinstance(halve_at, bool) or not isinstance(halve_at, int)):
            raise RuleViolation(N_("button_ante_halved_at_or_below is a number of players, or null to never halve"),
                                "C-02")

    @property
    def cap_lift(self) -> CapLift:
        if self.limit_cap_lifted_when is not None:
            return self.limit_cap_lifted_when
        return CapLift.HEADS_UP_IN_TOURNAMENT if self.mode is Mode.TOURNAMENT else CapLift.HEADS_UP_IN_HAND

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode.value,
            "misdeal_cutoff": self.misdeal_cutoff.value,
            "default_ante_kind": self.default_ante_kind.value,
            "button_ante_halved_at_or_below": self.button_ante_halved_at_or_below,
            "limit_raise_cap": self.limit_raise_cap,
            "limit_cap_lifted_when": None if self.limit_cap_lifted_when is None else self.limit_cap_lifted_when.value,
            # Written only when chosen: the rules of the hands recorded before the option keep their JSON.
            **({"mucked_hand_recoverable": True} if self.mucked_hand_recoverable else {}),
            **({"boxed_cards": self.boxed_cards} if self.boxed_cards != "CC-100" else {}),
            **({"four_card_flop": self.four_card_flop} if self.four_card_flop != "CC-103" else {}),
            **({"oot_after_change": self.oot_after_change.value}
               if self.oot_after_change is not OutOfTurnAfterChange.CALL_OR_FOLD else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        unknown = sorted(set(data) - {f for f in cls.__dataclass_fields__})
        if unknown:
            raise RuleViolation(N_("Unknown house option: %(options)s"), FORMAT, options=", ".join(unknown))
        lifted = data.get("limit_cap_lifted_when")
        return cls(
            mode=Mode(data.get("mode", Mode.TOURNAMENT.value)),
            misdeal_cutoff=MisdealCutoff(data.get("misdeal_cutoff", MisdealCutoff.CC_TWO_ACTIONS.value)),
            default_ante_kind=AnteKind(data.get("default_ante_kind", AnteKind.BUTTON.value)),
            button_ante_halved_at_or_below=data.get("button_ante_halved_at_or_below", 6),
            limit_raise_cap=data.get("limit_raise_cap", 4),
            limit_cap_lifted_when=None if lifted is None else CapLift(lifted),
            mucked_hand_recoverable=data.get("mucked_hand_recoverable", False),
            boxed_cards=data.get("boxed_cards", "CC-100"),
            four_card_flop=data.get("four_card_flop", "CC-103"),
            oot_after_change=OutOfTurnAfterChange(data.get("oot_after_change",
                                                           OutOfTurnAfterChange.CALL_OR_FOLD.value)),
        )


DEFAULT_RULES = HouseRules()

# Marks "work the blind seat out from the button" in TableSetup.
DERIVE = "derive"


def next_seat(seat: int) -> int:
    return seat % MAX_SEATS + 1


@dataclass(frozen=True, slots=True)
class TableSetup:
    """One hand's table: who is dealt in with what, where the button and blinds are, the stakes.

    ``stacks`` maps seat (1..10) to chips before the hand. ``button`` may be
    an empty seat (a dead button, TDA-32). Blind seats are derived from the
    button unless given: the small blind is the first player left of the
    button and the big blind the next, or heads-up the button posts the small
    blind (TDA-34). ``small_blind_seat=None`` is a dead small blind: no small
    blind that hand (CC-80, CC-81); a given ``big_blind_seat`` is then needed.

    ``heads_up_in_tournament`` tells a fixed-limit tournament hand that only
    two players remain in the event, which lifts the cap (TDA-48).
    """

    stacks: Mapping[int, int]
    button: int
    small_blind: int
    big_blind: int
    betting: Betting = Betting.NO_LIMIT
    ante: Ante = field(default_factory=Ante)
    small_blind_seat: int | None | str = DERIVE
    big_blind_seat: int | str = DERIVE
    chip_unit: int = 1
    heads_up_in_tournament: bool = False
    # Worked out in __post_init__.
    order: tuple[int, ...] = field(init=False, repr=False, compare=False)
    sb_seat: int | None = field(init=False, repr=False, compare=False)
    bb_seat: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.stacks, Mapping):
            raise RuleViolation(N_("stacks must map each seat to its chips"), FORMAT)
        stacks: dict[int, int] = {}
        for seat, chips in self.stacks.items():
            seat_no = _seat_number(seat)
            if seat_no in stacks:
                raise RuleViolation(N_("Seat %(seat)s is listed twice in stacks"), FORMAT, seat=seat_no)
            stacks[seat_no] = _whole(chips, Phrase(N_("Seat %(seat)s's stack"), seat=seat_no), minimum=1)
        if len(stacks) < 2:
            raise RuleViolation(N_("A hand needs at least two players dealt in"), "CC-77")
        object.__setattr__(self, "stacks", dict(sorted(stacks.items())))
        object.__setattr__(self, "button", _seat_number(self.button, Phrase(N_("the button"))))
        _whole(self.small_blind, _THE_SMALL_BLIND)
        _whole(self.big_blind, _THE_BIG_BLIND, minimum=1)
        if self.small_blind > self.big_blind:
            raise RuleViolation(N_("The small blind %(small)s is above the big blind %(big)s"), "DEAL-07",
                                small=self.small_blind, big=self.big_blind)
        _whole(self.chip_unit, Phrase(N_("The smallest chip (chip_unit)")), "TDA-20", minimum=1)
        seat_stacks = ((Phrase(N_("Seat %(seat)s's stack"), seat=s), c) for s, c in stacks.items())
        amounts = ((_THE_SMALL_BLIND, self.small_blind), (_THE_BIG_BLIND, self.big_blind),
                   (_THE_ANTE, self.ante.amount), *seat_stacks)
        for what, amount in amounts:
            if amount % self.chip_unit:
                raise RuleViolation(N_("%(what)s of %(amount)s is not a whole number of the smallest chip in play"
                                       " (%(unit)s)"), "TDA-20", what=what, amount=amount, unit=self.chip_unit)

        # Deal and betting order: clockwise starting left of the button (CC-77).
        start = next_seat(self.button)
        order = []
        seat = start
        for _ in range(MAX_SEATS):
            if seat in stacks:
                order.append(seat)
            seat = next_seat(seat)
        object.__setattr__(self, "order", tuple(order))
        sb, bb = self._blind_seats(stacks, tuple(order))
        object.__setattr__(self, "sb_seat", sb)
        object.__setattr__(self, "bb_seat", bb)

    def _blind_seats(self, stacks: dict[int, int], order: tuple[int, ...]) -> tuple[int | None, int]:
        sb_given, bb_given = self.small_blind_seat, self.big_blind_seat
        if bb_given == DERIVE:
            if sb_given is None:
                raise RuleViolation(N_("With a dead small blind, say which seat posts the big blind"), "CC-80")
            if sb_given == DERIVE:
                if len(order) == 2:
                    # Heads-up the button posts the small blind (TDA-34); with a dead button
                    # the player first to its left does.
                    sb = self.button if self.button in stacks else order[0]
                else:
                    sb = order[0]
            else:
                sb = _seat_number(sb_given, Phrase(N_("the small blind seat")))
            bb = _next_player(sb, stacks)
        else:
            bb = _seat_number(bb_given, Phrase(N_("the big blind seat")))
            if sb_given == DERIVE:
                if len(order) == 2:
                    sb = self.button if self.button in stacks else order[0]
                else:
                    sb = order[0]
            else:
                sb = None if sb_given is None else _seat_number(sb_given, Phrase(N_("the small blind seat")))
        if bb not in stacks:
            raise RuleViolation(N_("The big blind seat %(seat)s has no player dealt in"), "TDA-32", seat=bb)
        if len(order) == 2 and self.button not in stacks:
            raise RuleViolation(N_("Heads-up the button is on a player, who posts the small blind: move it there"),
                                "TDA-34")
        if sb is not None:
            if sb not in stacks:
                raise RuleViolation(N_("The small blind seat %(seat)s has no player dealt in"), "TDA-32", seat=sb)
            if sb == bb:
                raise RuleViolation(N_("Seat %(seat)s cannot post both blinds"), "TDA-34", seat=sb)
        return sb, bb

    @property
    def player_count(self) -> int:
        return len(self.order)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "betting": self.betting.value,
            "blinds": {"small": self.small_blind, "big": self.big_blind},
            "button": self.button,
            "stacks": {str(s): c for s, c in self.stacks.items()},
            "small_blind_seat": self.sb_seat,
            "big_blind_seat": self.bb_seat,
            "chip_unit": self.chip_unit,
        }
        if self.ante.kind is not AnteKind.NONE:
            data["ante"] = self.ante.to_dict()
        if self.heads_up_in_tournament:
            data["heads_up_in_tournament"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: HouseRules = DEFAULT_RULES) -> TableSetup:
        """Read the table part of a hand line (keys as in ``docs/hand-history.md``)."""
        if not isinstance(data, Mapping):
            raise RuleViolation(N_("A hand must be a JSON object"), FORMAT)
        betting_text = data.get("betting", Betting.NO_LIMIT.value)
        try:
            betting = Betting(betting_text)
        except ValueError:
            raise RuleViolation(N_("%(betting)r is not a betting structure: use no-limit, pot-limit or fixed-limit"),
                                "TDA-48", betting=betting_text) from None
        blinds = data.get("blinds")
        if not isinstance(blinds, Mapping) or "big" not in blinds:
            raise RuleViolation(N_("blinds must be an object such as {\"small\": 100, \"big\": 200}"), FORMAT)
        if "button" not in data:
            raise RuleViolation(N_("The hand needs a button seat"), "DEAL-01")
        stacks = data.get("stacks")
        if not isinstance(stacks, Mapping):
            raise RuleViolation(N_("stacks must be an object such as {\"1\": 20000, \"2\": 20000}"), FORMAT)
        kwargs: dict[str, Any] = {}
        if "small_blind_seat" in data:
            kwargs["small_blind_seat"] = data["small_blind_seat"]
        if data.get("big_blind_seat") is not None:
            kwargs["big_blind_seat"] = data["big_blind_seat"]
        return cls(
            stacks=stacks,
            button=data["button"],
            small_blind=blinds.get("small", 0),
            big_blind=blinds["big"],
            betting=betting,
            ante=Ante.from_dict(data.get("ante"), rules.default_ante_kind),
            chip_unit=data.get("chip_unit", 1) if data.get("chip_unit") is not None else 1,
            heads_up_in_tournament=bool(data.get("heads_up_in_tournament", False)),
            **kwargs,
        )


def _seat_number(value: object, what: Phrase | None = None) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise RuleViolation(N_("%(value)r is not a seat number for %(what)s: seats are numbered 1 to %(seats)s"),
                            FORMAT, value=value, what=what or Phrase(N_("a seat")), seats=MAX_SEATS)
    return value


def _next_player(seat: int, stacks: Mapping[int, int]) -> int:
    nxt = next_seat(seat)
    while nxt not in stacks:
        nxt = next_seat(nxt)
    return nxt
