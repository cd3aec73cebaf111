"""Colour-up and the chip race (TDA-24, CC-68/69).

When a denomination leaves play (CC-68), each player's chips of it are changed for chips of ``into``; what
does not make a whole ``into`` chip (the odd chips) is raced (TDA-24-A, CC-69), at each table:

1. Whole ``into`` chips first: a player's chips of ``removed`` worth one or more ``into`` chips are
   simply exchanged; only the rest are odd chips.
2. How many chips are raced (the seeds are silent; the common casino rule): the total value of every odd
   chip at the table divided by ``into``, rounded to the nearest chip, half a chip or more rounding up.
3. Each player gets one card per odd chip, face up, from a shuffled deck (``rng``): one card at a time
   round the table starting from seat 1 (TDA-24-A), a player who has had a card for each of his odd chips
   being skipped.
4. Each player's best card counts (rank, then suit: spades > hearts > diamonds > clubs); the best cards win
   one chip of ``into`` each, at most one per player (TDA-24-A, CC-69).
5. Every player gives up his odd chips. A player left with nothing gets one chip of ``smallest_left``
   (TDA-24-A, CC-69: no one is raced out).

TDA-24-C (chips of a removed denomination found after the race are exchanged for the smallest chip in
play, and what does not make a whole chip is removed) is ``exchange_leftover``.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from casino.rules.cards import SUITS, Card
from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import shuffled_deck

#: A deck has 52 cards: more odd chips than that at one table cannot be raced with one deck.
DECK_SIZE = 52


@dataclass(frozen=True, slots=True)
class RaceResult:
    removed: int  # the denomination raced off
    into: int  # the denomination won in the race
    cards: tuple[tuple[int, tuple[str, ...]], ...]  # (entry, cards dealt), in deal order (seat 1 first)
    won: tuple[int, ...]  # entries winning one chip of ``into``, best card first
    rescued: tuple[int, ...]  # entries left with nothing who get one chip of the smallest denomination
    stacks: tuple[tuple[int, int], ...]  # (entry, stack after the race)
    #: the value of the odd chips raced, and what leaves play: odd chips - chips won - rescue chips
    #: (negative when the rounding or a rescue puts more in play than the odd chips were worth).
    raced_value: int = 0
    removed_value: int = 0


def card_strength(card: Card) -> tuple[int, int]:
    """Rank first, then suit: clubs < diamonds < hearts < spades."""
    return card.rank_index, SUITS.index(card.suit)


def chips_to_race(odd_value: int, into: int) -> int:
    """How many ``into`` chips the odd chips are worth, to the nearest chip, half or more rounding up."""
    whole, part = divmod(odd_value, into)
    return whole + (1 if part and part * 2 >= into else 0)


def race(odd_chips: tuple[tuple[int, int, int], ...], stacks: dict[int, int], *, removed: int, into: int,
         smallest_left: int, rng: Random) -> RaceResult:
    """``odd_chips``: (seat, entry, chips of ``removed`` left over) at one table.

    ``stacks`` are the table's stacks (entry -> chips' value) before the race, odd chips included.
    """
    if removed <= 0 or into <= removed or into % removed or smallest_left <= 0:
        raise RuleViolation(N_("Cannot race chips of %(removed)s into chips of %(into)s"), "TDA-24-A",
                            removed=removed, into=into)
    seats = [seat for seat, _, _ in odd_chips]
    if len(set(seats)) != len(seats):
        raise RuleViolation(N_("A seat is listed twice in the chip race"), "TDA-24-A")
    for seat, entry, count in odd_chips:
        if count < 0 or entry not in stacks or count * removed > stacks[entry]:
            raise RuleViolation(N_("Seat %(seat)s cannot race %(count)s chips of %(removed)s"), "TDA-24-A",
                                seat=seat, count=count, removed=removed)

    # 1. whole ``into`` chips are exchanged; only the rest are odd chips.
    odd = {entry: count * removed % into // removed for _, entry, count in odd_chips}
    odd_value = {entry: count * removed for entry, count in odd.items()}
    in_race = [(seat, entry) for seat, entry, _ in sorted(odd_chips) if odd[entry] > 0]
    cards_needed = sum(odd.values())
    if cards_needed > DECK_SIZE:
        raise RuleViolation(N_("%(cards)s odd chips at one table are more than one deck can race"), "TDA-24-A",
                            cards=cards_needed)

    # 3. one card at a time round the table from seat 1.
    deck = iter(shuffled_deck(rng))
    dealt: dict[int, list[Card]] = {entry: [] for _, entry in in_race}
    for round_ in range(max(odd.values(), default=0)):
        for _, entry in in_race:
            if round_ < odd[entry]:
                dealt[entry].append(next(deck))

    # 2. and 4. the best cards win one chip each, at most one per player.
    total_odd = sum(odd_value.values())
    chips = min(chips_to_race(total_odd, into), len(in_race))
    best = sorted(dealt, key=lambda entry: card_strength(max(dealt[entry], key=card_strength)), reverse=True)
    won = tuple(best[:chips])

    # 5. odd chips given up, chips won, and nobody raced out.
    after = dict(stacks)
    for entry in dealt:
        after[entry] -= odd_value[entry]
        if entry in won:
            after[entry] += into
    rescued = tuple(entry for _, entry in in_race if after[entry] == 0)
    for entry in rescued:
        after[entry] = smallest_left
    return RaceResult(
        removed=removed, into=into,
        cards=tuple((entry, tuple(str(card) for card in dealt[entry])) for _, entry in in_race),
        won=won, rescued=rescued, stacks=tuple(sorted(after.items())), raced_value=total_odd,
        removed_value=total_odd - chips * into - len(rescued) * smallest_left,
    )


def exchange_leftover(value: int, smallest_left: int) -> tuple[int, int]:
    """TDA-24-C: chips of a removed denomination found after the race, worth ``value``.

    They are exchanged for chips of the smallest denomination in play; what does not make a whole chip is
    removed without compensation. Returns (value given back, value removed).
    """
    if value < 0 or smallest_left <= 0:
        raise RuleViolation(N_("Cannot exchange %(value)s for chips of %(smallest)s"), "TDA-24-C",
                            value=value, smallest=smallest_left)
    kept = value // smallest_left * smallest_left
    return kept, value - kept
