"""The shoe: a shuffled deck and dealing from it (THB-03, THB-32, THB-40..45).

The shuffle draws from the operating system's CSPRNG through
``secrets.SystemRandom`` and never from the ``random`` module's functions,
whose Mersenne Twister can be predicted from its output (a software shuffle
must be unpredictable and pass statistical tests at 99% confidence:
25 CFR 547.14, UK Gambling Commission RTS; see ``shared/design-notes.md``).

``Shoe`` is a small frozen value: dealing returns the cards and a new shoe, so
a hand state that holds a shoe can be replayed from its records. Randomness
happens once, in ``Shoe.shuffled()``; the resulting order is what a hand
records (the ``load-shoe`` action), which makes a dealt hand replayable.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from casino.rules.cards import Card, check_deck, full_deck, parse_card
from casino.rules.errors import RuleViolation

#: The one source of randomness for shuffles: the OS CSPRNG (never seeded, never ``random.shuffle``).
SYSTEM_RANDOM = secrets.SystemRandom()


def shuffled_deck(rng: secrets.SystemRandom | None = None) -> tuple[Card, ...]:
    """A complete 52-card deck in a uniformly random order (Fisher-Yates over the OS CSPRNG)."""
    cards = list(full_deck())
    (rng or SYSTEM_RANDOM).shuffle(cards)
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Shoe:
    """The undealt cards, top of the shoe first."""

    cards: tuple[Card, ...]

    @classmethod
    def shuffled(cls, rng: secrets.SystemRandom | None = None) -> Shoe:
        """A freshly shuffled complete deck (THB-32: every hand is dealt from a shuffled, complete deck)."""
        return cls(shuffled_deck(rng))

    @classmethod
    def from_cards(cls, cards: Iterable[object]) -> Shoe:
        """A shoe in a recorded order; refuses a defective deck (THB-16, THB-22, TDA-35-E)."""
        cards = tuple(cards)
        report = check_deck(cards)
        if not report.is_complete:
            raise RuleViolation(f"The shoe must hold one complete deck. {report.describe()}", "THB-03")
        return cls(tuple(parse_card(c) for c in cards))

    def __len__(self) -> int:
        return len(self.cards)

    def deal(self, count: int = 1) -> tuple[tuple[Card, ...], Shoe]:
        """The next ``count`` cards from the top, and the shoe that is left."""
        if count > len(self.cards):
            raise RuleViolation(f"The shoe has {len(self.cards)} cards left, not {count}", "THB-03")
        return self.cards[:count], Shoe(self.cards[count:])

    def burn(self) -> tuple[Card, Shoe]:
        """Burn the top card face down before a street (THB-42, THB-44, THB-45)."""
        (card,), rest = self.deal(1)
        return card, rest

    def remove(self, card: Card) -> Shoe:
        """Take one named card out of the undealt cards (a card found face up in the deck, THB-74)."""
        if card not in self.cards:
            raise RuleViolation(f"{card} is not among the undealt cards", "THB-74")
        return Shoe(tuple(c for c in self.cards if c != card))
