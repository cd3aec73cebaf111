"""A Texas Hold'em Bonus table's configuration: limits, paytable and house options.

Defaults follow the manual and the checklist's house-option defaults:

* ante limits: ``max_ante`` is 20 x ``min_ante`` (THB-18, THB-19), its default; a house that says otherwise
  sets ``max_ante_multiple`` (another multiple, or None: any maximum from the minimum up);
  the flop bet (2 x ante) and turn/river bets (1 x ante) follow from them;
* the Bonus has its own limits and may be below the table minimum (THB-20);
  the manual states no Bonus maximum, so it defaults to the table maximum;
* the ante pays 1 to 1 from a straight up (THB-50) or, as a house option,
  from a flush up; below that it pushes (C-29b);
* the 1000 to 1 ``aa-vs-dealer-aa`` needs approval (THB-54, C-30), and every
  winning Bonus waits for the pit boss's release (THB-67; ``release_every_bonus=False`` is the house
  option that holds only THB-54's, and any Bonus payout above ``approval_above``);
* boxes 1 to 7, one box per player (THB-12, C-28).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from casino.rules.errors import N_, Phrase, RuleViolation
from casino.rules.evaluator import Category
from casino.rules.holdem_bonus.paytable import (
    AA_VS_DEALER_AA,
    AWARD_KEYS,
    DEFAULT_PAYTABLE,
    Paytable,
    get_paytable,
    paytable_from_record,
)

MAX_BOXES = 7
#: THB-18: the table maximum is 20 times the minimum (5/100, 10/200, 20/400 in the manual's limits).
TABLE_MAX_MULTIPLE = 20
#: THB-72: one pit boss (jefe de mesa) covers at most four contiguous tables of one game, or two
#: tables when the games are mixed.
MAX_TABLES_ONE_GAME = 4
MAX_TABLES_MIXED = 2


def verify_pit_coverage(games: Sequence[str], places: Sequence[tuple[object, int]] | None = None) -> None:
    """Refuse a pit boss's tables beyond what one jefe de mesa may watch (THB-72).

    ``games`` holds one entry per table the pit boss would cover, the game each table plays (all
    the pits the pit boss runs together: a jefe de mesa given two pits covers both). ``places``, when
    given, holds each of those tables' (pit, place in the pit): the tables are "contiguas" when, in each
    pit, their places are consecutive numbers, no place left out between two of them (the places are the
    tables' order along the pit; two pits of one pit boss are the house's word that they adjoin).
    """
    tables = len(games)
    if len(set(games)) > 1 and tables > MAX_TABLES_MIXED:
        raise RuleViolation(N_("A pit boss covers at most %(most)s tables of different games, not %(tables)s"),
                            "THB-72", most=MAX_TABLES_MIXED, tables=tables)
    if tables > MAX_TABLES_ONE_GAME:
        raise RuleViolation(N_("A pit boss covers at most %(most)s tables of one game, not %(tables)s"),
                            "THB-72", most=MAX_TABLES_ONE_GAME, tables=tables)
    if places is not None:
        verify_contiguous(places)


def verify_contiguous(places: Sequence[tuple[object, int]]) -> None:
    """THB-72: "mesas contiguas": in each pit, the places of the tables one pit boss covers follow one another."""
    by_pit: dict[object, list[int]] = {}
    for pit, place in places:
        by_pit.setdefault(pit, []).append(place)
    for numbers in by_pit.values():
        numbers.sort()
        if len(set(numbers)) != len(numbers):
            raise RuleViolation(N_("Two tables of a pit stand at place %(place)s"), "THB-72",
                                place=next(n for n in numbers if numbers.count(n) > 1))
        for before, after in zip(numbers, numbers[1:], strict=False):
            if after != before + 1:
                raise RuleViolation(N_("A pit boss covers contiguous tables: the tables at places %(before)s and "
                                       "%(after)s of the pit are not next to each other"), "THB-72",
                                    before=before, after=after)


def can_cover(games: Sequence[str], places: Sequence[tuple[object, int]] | None = None) -> bool:
    try:
        verify_pit_coverage(games, places)
    except RuleViolation:
        return False
    return True


#: The two hands a house may choose for paying the ante (THB-50; house option C-29b).
ANTE_PAYS_FROM_CHOICES = (Category.STRAIGHT, Category.FLUSH)


def _whole(setting: Phrase, value: object, clause: str) -> int:
    """``setting`` is the setting's name at the start of a sentence ("The table minimum")."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(N_("%(setting)s must be a whole amount, not %(value)r"), clause,
                            setting=setting, value=value)
    if value <= 0:
        raise RuleViolation(N_("%(setting)s must be more than zero, not %(value)s"), clause,
                            setting=setting, value=value)
    return value


@dataclass(frozen=True, slots=True)
class TableRules:
    """Everything the engine needs to know about one table. Money is in whole units (integers)."""

    min_ante: int = 5
    max_ante: int | None = None
    min_bonus: int = 1
    max_bonus: int | None = None
    paytable: Paytable = field(default_factory=lambda: get_paytable(DEFAULT_PAYTABLE))
    ante_pays_from: Category = Category.STRAIGHT
    approval_awards: frozenset[str] = frozenset({AA_VS_DEALER_AA})
    approval_above: int | None = None
    #: THB-67: "Las jugadas ganadoras en las apuestas al Bonus permanecerán descubiertas sobre la mesa hasta que
    #: el jefe de mesa determine que sean retiradas": every Bonus award waits for the pit boss's release, as
    #: written. False is the house option that holds only THB-54's awards (and any above ``approval_above``).
    release_every_bonus: bool = True
    boxes: int = MAX_BOXES
    #: THB-18: "El máximo de la mesa es 20 veces el mínimo". A house option may name another multiple, or
    #: None for any maximum from the minimum up (the hands' records and hands played before the rule).
    max_ante_multiple: int | None = TABLE_MAX_MULTIPLE

    def __post_init__(self) -> None:
        _whole(Phrase(N_("The table minimum")), self.min_ante, "THB-19")
        multiple = self.max_ante_multiple
        if multiple is not None:
            _whole(Phrase(N_("The table maximum's multiple of the minimum")), multiple, "THB-18")
        if self.max_ante is None:
            object.__setattr__(self, "max_ante", (multiple or TABLE_MAX_MULTIPLE) * self.min_ante)  # THB-18
        _whole(Phrase(N_("The table maximum")), self.max_ante, "THB-19")
        if self.max_ante < self.min_ante:
            raise RuleViolation(N_("The table maximum %(maximum)s is below the minimum %(minimum)s"), "THB-18",
                                maximum=self.max_ante, minimum=self.min_ante)
        if multiple is not None and self.max_ante != multiple * self.min_ante:
            raise RuleViolation(N_("The table maximum is %(multiple)s times the minimum: %(expected)s, not "
                                   "%(maximum)s"), "THB-18", multiple=multiple,
                                expected=multiple * self.min_ante, maximum=self.max_ante)
        _whole(Phrase(N_("The Bonus minimum")), self.min_bonus, "THB-20")
        if self.max_bonus is None:
            object.__setattr__(self, "max_bonus", self.max_ante)
        _whole(Phrase(N_("The Bonus maximum")), self.max_bonus, "THB-20")
        if self.max_bonus < self.min_bonus:
            raise RuleViolation(N_("The Bonus maximum %(maximum)s is below the Bonus minimum %(minimum)s"), "THB-20",
                                maximum=self.max_bonus, minimum=self.min_bonus)
        if not isinstance(self.paytable, Paytable):
            object.__setattr__(self, "paytable", paytable_from_record(self.paytable))
        if isinstance(self.ante_pays_from, str):
            try:
                object.__setattr__(self, "ante_pays_from", Category(self.ante_pays_from))
            except ValueError:
                pass
        if self.ante_pays_from not in ANTE_PAYS_FROM_CHOICES:
            raise RuleViolation(N_("The ante pays from a straight or from a flush, not from %(choice)r"), "THB-50",
                                choice=self.ante_pays_from)
        awards = frozenset(self.approval_awards)
        unknown = sorted(awards - set(AWARD_KEYS))
        if unknown:
            raise RuleViolation(N_("%(awards)s is not a Bonus award"), "THB-54", awards=", ".join(unknown))
        object.__setattr__(self, "approval_awards", awards)
        if self.approval_above is not None:
            _whole(Phrase(N_("The approval threshold")), self.approval_above, "THB-54")
        if not isinstance(self.release_every_bonus, bool):
            raise RuleViolation(N_("Whether the pit boss releases every Bonus award is yes or no, not %(value)r"),
                                "THB-67", value=self.release_every_bonus)
        if self.boxes != MAX_BOXES and not (isinstance(self.boxes, int) and 1 <= self.boxes <= MAX_BOXES):
            raise RuleViolation(N_("A table has 1 to %(most)s boxes, not %(boxes)r"), "C-28", most=MAX_BOXES,
                                boxes=self.boxes)

    def award_needs_approval(self, award: str | None, payout: int) -> bool:
        """True when a Bonus payout must wait for approval (THB-54; house option: above an amount)."""
        if award is None:
            return False
        if award in self.approval_awards or self.release_every_bonus:
            return True
        return self.approval_above is not None and payout > self.approval_above

    def to_dict(self) -> dict:
        """The configuration as JSON-safe data (the paytable as a record names it: ``Paytable.to_record``)."""
        return {
            "min_ante": self.min_ante,
            "max_ante": self.max_ante,
            "min_bonus": self.min_bonus,
            "max_bonus": self.max_bonus,
            "paytable": self.paytable.to_record(),
            "ante_pays_from": self.ante_pays_from.value,
            "approval_awards": sorted(self.approval_awards, key=AWARD_KEYS.index),
            "approval_above": self.approval_above,
            # Written only when true: a hand's JSON without it (every hand before THB-67 became the default)
            # was played without it, and ``from_dict`` reads it so.
            **({"release_every_bonus": True} if self.release_every_bonus else {}),
            "boxes": self.boxes,
            # None is left out: a hand's JSON without it (every hand before THB-18 was checked) reads as None.
            **({"max_ante_multiple": self.max_ante_multiple} if self.max_ante_multiple is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> TableRules:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleViolation(N_("Unknown table setting %(unknown)s; settings are %(known)s"),
                                unknown=", ".join(unknown), known=", ".join(sorted(known)))
        values = dict(data)
        # A hand's rules as they were stored: the limits it was played at are not configured again (THB-18),
        # and a hand stored without ``release_every_bonus`` was played without it (THB-67).
        values.setdefault("max_ante_multiple", None)
        values.setdefault("release_every_bonus", False)
        if "approval_awards" in values:
            values["approval_awards"] = frozenset(values["approval_awards"])
        return cls(**values)
