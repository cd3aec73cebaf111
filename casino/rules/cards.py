"""Cards, decks and deck integrity (THB-03, TDA-35-E).

A card is written rank + suit: ranks ``23456789TJQKA`` (``10`` is accepted
for ten on input), suits ``cdhs``. ``Card`` is a small frozen value that
sorts by rank then suit and keeps an integer ``id`` 0..51 (``rank_index * 4
+ suit_index``), the encoding the evaluator library uses too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from casino.rules.errors import N_, RuleViolation

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise RuleViolation(N_("%(rank)s%(suit)s is not a card"), "THB-03", rank=self.rank, suit=self.suit)

    @property
    def rank_index(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return RANKS.index(self.rank)

    @property
    def id(self) -> int:
        return self.rank_index * 4 + SUITS.index(self.suit)

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        return _BY_ID[card_id]

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id


def parse_card(text: object) -> Card:
    """Read one card such as ``"Ah"``, ``"Td"`` or ``"10d"``; refuse anything else.

    The message names the bad input so a dealer or an inspector can find it.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise RuleViolation(N_("%(text)r is not a card: write rank and suit, such as Ah or 10d"), "THB-03", text=text)
    raw = text.strip()
    rank, suit = raw[:-1], raw[-1:].lower()
    rank = "T" if rank == "10" else rank.upper()
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise RuleViolation(N_("%(text)r is not a card: ranks are 2-9, T (or 10), J, Q, K, A and suits c, d, h, s"),
                            "THB-03", text=raw)
    return _BY_TEXT[rank + suit]


def parse_cards(texts: Iterable[object]) -> tuple[Card, ...]:
    if isinstance(texts, str):
        # "AhKd" or "Ah Kd": accept a compact string too.
        parts = texts.split() if " " in texts.strip() else [texts[i : i + 2] for i in range(0, len(texts), 2)]
        texts = parts
    return tuple(parse_card(t) for t in texts)


def full_deck() -> tuple[Card, ...]:
    """The 52-card French deck (THB-03), in id order."""
    return _DECK


def check_no_duplicates(cards: Iterable[Card], where: str = "these cards", clause: str = "THB-03") -> None:
    """Refuse a card seen twice: there is one of each in a single deck."""
    counts = Counter(cards)
    dupes = sorted(c for c, n in counts.items() if n > 1)
    if dupes:
        listed = ", ".join(str(c) for c in dupes)
        raise RuleViolation(f"{listed} appears more than once in {where}: a single deck has one of each card", clause)


@dataclass(frozen=True, slots=True)
class DeckReport:
    """What a deck count found (THB-16, THB-21/22, TDA-35-E)."""

    duplicates: tuple[Card, ...]
    missing: tuple[Card, ...]
    extra: tuple[str, ...]

    @property
    def is_complete(self) -> bool:
        return not (self.duplicates or self.missing or self.extra)

    def describe(self) -> str:
        if self.is_complete:
            return "The deck is complete: 52 different cards."
        parts = []
        if self.duplicates:
            parts.append("duplicated: " + ", ".join(map(str, self.duplicates)))
        if self.missing:
            parts.append("missing: " + ", ".join(map(str, self.missing)))
        if self.extra:
            parts.append("not cards of this deck: " + ", ".join(self.extra))
        return "Defective deck (" + "; ".join(parts) + ")."


def check_deck(cards: Iterable[object]) -> DeckReport:
    """Count a deck as the dealer does when its size is in doubt (THB-16).

    Finds duplicated, missing and extra (unreadable or foreign) cards; a deck
    with any of them is defective (THB-22, TDA-35-E).
    """
    seen: Counter[Card] = Counter()
    extra: list[str] = []
    for item in cards:
        try:
            seen[parse_card(item)] += 1
        except RuleViolation:
            extra.append(str(item))
    duplicates = tuple(sorted(c for c, n in seen.items() if n > 1))
    missing = tuple(c for c in _DECK if c not in seen)
    return DeckReport(duplicates=duplicates, missing=missing, extra=tuple(extra))


_DECK = tuple(Card(r, s) for r in RANKS for s in SUITS)
_BY_ID = {c.id: c for c in _DECK}
_BY_TEXT = {str(c): c for c in _DECK}
