"""The Bonus bet: awards on the player's two cards and the paytables that price them (THB-51..54, C-31).

An award is named by a key (the same keys the hand-history JSON uses):

=================== ==============================================
``aa-vs-dealer-aa``  player A-A and dealer A-A
``aa``               player A-A
``ak-suited``        A-K of one suit
``aq-aj-suited``     A-Q or A-J of one suit
``ak-offsuit``       A-K of two suits
``kk-qq-jj``         a pair of kings, queens or jacks
``aq-aj-offsuit``    A-Q or A-J of two suits
``pair-2-10``        a pair of twos through tens
=================== ==============================================

A ``Paytable`` is data: a name and "N to 1" odds for some of those keys.
The manual's table (THB-53) is registered as ``"manual"`` and is the
default; a casino registers its own with ``register_paytable``, or keeps
it as versioned data (the pit's ``tables.PaytableVersion``: the engine
sees a ``Paytable`` with its ``version``). Holding two awards at once (A-A
with the dealer's A-A also qualifies as A-A) pays only the better paid one
in the table.

A hand's record names its paytable (``to_record``): by name when it is the
registered one of that name, otherwise as the object ``{"name", "version",
"pays"}``, so that a hand played under a casino's own paytable, or an
earlier version of it, replays with what it was played under
(``paytable_from_record``) and the manual's hands keep their short form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from casino.rules.cards import Card
from casino.rules.errors import N_, RuleViolation

AA_VS_DEALER_AA = "aa-vs-dealer-aa"
AA = "aa"
AK_SUITED = "ak-suited"
AQ_AJ_SUITED = "aq-aj-suited"
AK_OFFSUIT = "ak-offsuit"
KK_QQ_JJ = "kk-qq-jj"
AQ_AJ_OFFSUIT = "aq-aj-offsuit"
PAIR_2_10 = "pair-2-10"

#: Every award key, in the manual's order (best first).
AWARD_KEYS: tuple[str, ...] = (
    AA_VS_DEALER_AA, AA, AK_SUITED, AQ_AJ_SUITED, AK_OFFSUIT, KK_QQ_JJ, AQ_AJ_OFFSUIT, PAIR_2_10,
)

#: Awards that depend on the dealer's cards too: the dealer's cards must be known to settle them (C-31).
DEALER_DEPENDENT_AWARDS = frozenset({AA_VS_DEALER_AA})

AWARD_DESCRIPTIONS = MappingProxyType({
    AA_VS_DEALER_AA: "A-A with the dealer's A-A",
    AA: "A-A",
    AK_SUITED: "A-K suited",
    AQ_AJ_SUITED: "A-Q or A-J suited",
    AK_OFFSUIT: "A-K offsuit",
    KK_QQ_JJ: "K-K, Q-Q or J-J",
    AQ_AJ_OFFSUIT: "A-Q or A-J offsuit",
    PAIR_2_10: "a pair of 2s to 10s",
})


def qualifying_awards(hole: Iterable[Card], dealer: Iterable[Card] | None = None) -> tuple[str, ...]:
    """Every award key the two hole cards qualify for, best first (THB-51, THB-53).

    The Bonus looks at the player's two cards alone, never at the board
    (THB-51); only ``aa-vs-dealer-aa`` also looks at the dealer's two cards.
    With ``dealer`` unknown (``None``) that award is left out.
    """
    first, second = tuple(hole)
    high, low = sorted((first.rank, second.rank), key="23456789TJQKA".index, reverse=True)
    suited = first.suit == second.suit
    if high == low:
        if high == "A":
            dealer_aces = dealer is not None and all(c.rank == "A" for c in dealer)
            return (AA_VS_DEALER_AA, AA) if dealer_aces else (AA,)
        return (KK_QQ_JJ,) if high in "KQJ" else (PAIR_2_10,)
    if high == "A" and low == "K":
        return (AK_SUITED,) if suited else (AK_OFFSUIT,)
    if high == "A" and low in "QJ":
        return (AQ_AJ_SUITED,) if suited else (AQ_AJ_OFFSUIT,)
    return ()


def classify_hole_cards(hole: Iterable[Card], dealer: Iterable[Card] | None = None) -> str | None:
    """The best award key of the manual's order for these two cards, or ``None`` (the Bonus loses)."""
    awards = qualifying_awards(hole, dealer)
    return awards[0] if awards else None


@dataclass(frozen=True, slots=True)
class Paytable:
    """A Bonus paytable: award key -> "N to 1" (whole numbers). Keys it omits do not pay."""

    name: str
    pays: Mapping[str, int] = field(default_factory=dict)
    description: str = ""
    #: The version of a casino's own paytable kept as data (1, 2, ...); ``None`` for one registered in code.
    version: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise RuleViolation(N_("A paytable needs a name, not %(name)r"), "THB-53", name=self.name)
        if self.version is not None and (isinstance(self.version, bool) or not isinstance(self.version, int)
                                         or self.version < 1):
            raise RuleViolation(N_("Paytable %(name)r: a version is a whole number from 1, not %(version)r"),
                                "THB-53", name=self.name, version=self.version)
        unknown = sorted(set(self.pays) - set(AWARD_KEYS))
        if unknown:
            raise RuleViolation(N_("Paytable %(name)r: %(unknown)s is not an award; awards are %(awards)s"), "THB-53",
                                name=self.name, unknown=", ".join(unknown), awards=", ".join(AWARD_KEYS))
        for key, odds in self.pays.items():
            if isinstance(odds, bool) or not isinstance(odds, int) or odds <= 0:
                raise RuleViolation(N_("Paytable %(name)r: %(award)s must pay a whole number to 1, not %(odds)r"),
                                    "THB-53", name=self.name, award=key, odds=odds)
        # Keep the manual's order and freeze the mapping: a paytable is shared, read-only data.
        ordered = {k: self.pays[k] for k in AWARD_KEYS if k in self.pays}
        object.__setattr__(self, "pays", MappingProxyType(ordered))

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.pays.items()), self.description, self.version))

    def __reduce__(self):
        # A mapping proxy does not pickle; rebuild from a plain dict (hand states get cached and sent).
        return (Paytable, (self.name, dict(self.pays), self.description, self.version))

    @property
    def label(self) -> str:
        """The name a screen shows: ``"house-special v2"`` for a versioned paytable, the name otherwise."""
        return self.name if self.version is None else f"{self.name} v{self.version}"

    def to_record(self) -> str | dict:
        """How a hand's record names this paytable: the name when it is the one registered under it,
        otherwise ``{"name", "version", "pays"}`` (what the hand was played under, whatever the registry
        or the casino's paytables hold later)."""
        if _REGISTRY.get(self.name) == self:
            return self.name
        record: dict = {"name": self.name}
        if self.version is not None:
            record["version"] = self.version
        record["pays"] = dict(self.pays)
        return record

    def award_for(self, hole: Iterable[Card], dealer: Iterable[Card] | None = None) -> str | None:
        """The award this table pays for these cards: the best paid one they qualify for, or ``None``."""
        paid = [k for k in qualifying_awards(hole, dealer) if k in self.pays]
        return max(paid, key=lambda k: self.pays[k]) if paid else None

    def needs_dealer_cards(self, hole: Iterable[Card]) -> bool:
        """True when the award for these cards could depend on the dealer's cards (C-31)."""
        hole = tuple(hole)
        if not any(k in self.pays for k in DEALER_DEPENDENT_AWARDS):
            return False
        return all(c.rank == "A" for c in hole)


#: The manual's table (THB-53).
MANUAL_PAYTABLE = Paytable(
    name="manual",
    pays={
        AA_VS_DEALER_AA: 1000,
        AA: 30,
        AK_SUITED: 25,
        AQ_AJ_SUITED: 20,
        AK_OFFSUIT: 15,
        KK_QQ_JJ: 10,
        AQ_AJ_OFFSUIT: 5,
        PAIR_2_10: 3,
    },
    description="Texas Hold'em Bonus manual, THB-53",
)

_REGISTRY: dict[str, Paytable] = {MANUAL_PAYTABLE.name: MANUAL_PAYTABLE}
DEFAULT_PAYTABLE = MANUAL_PAYTABLE.name


def register_paytable(paytable: Paytable, *, replace: bool = False) -> Paytable:
    """Add a casino's own paytable to the registry under its name."""
    if paytable.name in _REGISTRY and not replace and _REGISTRY[paytable.name] != paytable:
        raise RuleViolation(N_("A paytable named %(name)r is already registered"), "THB-53", name=paytable.name)
    _REGISTRY[paytable.name] = paytable
    return paytable


def get_paytable(name: str | Paytable = DEFAULT_PAYTABLE) -> Paytable:
    """The registered paytable of that name (a ``Paytable`` is returned as is)."""
    if isinstance(name, Paytable):
        return name
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise RuleViolation(N_("There is no paytable named %(name)r; known paytables: %(known)s"), "THB-53",
                            name=name, known=known) from None


def paytable_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def is_registered(name: str) -> bool:
    """True when ``name`` is a paytable registered in code (a casino's own may not take it)."""
    return name in _REGISTRY


_RECORD_KEYS = ("name", "version", "pays")


def paytable_from_record(value: object) -> Paytable:
    """The paytable a hand's record names: a registered name, or ``{"name", "version", "pays"}`` (THB-53)."""
    if isinstance(value, Paytable):
        return value
    if isinstance(value, str):
        return get_paytable(value)
    if not isinstance(value, Mapping):
        raise RuleViolation(N_("A paytable is a paytable's name or an object with its name, version and pays, "
                               "not %(value)r"), "THB-53", value=value)
    unknown = sorted(set(value) - set(_RECORD_KEYS))
    if unknown:
        raise RuleViolation(N_("A paytable's record has %(unknown)s; its keys are %(known)s"), "THB-53",
                            unknown=", ".join(map(str, unknown)), known=", ".join(_RECORD_KEYS))
    pays = value.get("pays")
    if not isinstance(pays, Mapping) or not pays:
        raise RuleViolation(N_("A paytable's record needs its pays, such as {\"aa\": 30}, not %(pays)r"), "THB-53",
                            pays=pays)
    return Paytable(name=value.get("name"), pays=dict(pays), version=value.get("version"))
