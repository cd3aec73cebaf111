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

from collections.abc import Iterable
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


# --- The race each table owes, from the stacks the record holds (issue #36) -------------------------------


@dataclass(frozen=True, slots=True)
class RaceDue:
    """The chip race one table still owes after a break removed a denomination (TDA-24-A, CC-68/69): the
    arguments of ``race``, computed from the stacks instead of typed by the floor."""

    table: int
    removed: int  # the smallest denomination gone: the odd chips are counted in it
    into: int  # the smallest chip in play: the one the race is won in
    smallest_left: int  # what a player raced out of everything gets (TDA-24-A)
    odd_chips: tuple[tuple[int, int, int], ...]  # (seat, entry, chips of ``removed``), seat 1 first

    @property
    def cards(self) -> int:
        """The cards the race deals: one per odd chip (CC-70: from one 52-card deck)."""
        return sum(count for _, _, count in self.odd_chips)


def odd_chips_of(stack: int, *, removed: int, into: int) -> int:
    """How many chips of ``removed`` a stack holds beyond whole chips of ``into``: the stack is assumed
    changed up as far as it goes (step 1 of the race), so its odd chips are what ``into`` cannot pay."""
    return stack % into // removed


def race_due(table: int, players: tuple[tuple[int, int], ...] | list[tuple[int, int]], stacks: dict[int, int],
             *, denominations: tuple[int, ...], in_play: tuple[int, ...]) -> RaceDue | None:
    """The race table ``table`` owes (``players``: (seat, entry); ``stacks``: entry -> chips), or None.

    A table owes one while a stack is not a whole number of the smallest chip in play and a smaller
    denomination has left play (CC-68): every player's chips beyond whole ``into`` chips are counted in
    a removed chip and raced (TDA-24-A). The system knows stacks, not the chips in them, so it counts the
    fewest odd chips it can: in the largest removed chip that makes every table's odd value whole (after
    the 25s' race, the 100s' odd chips are 100s, not four 25s each). Several denominations removed at one
    break race as one into the smallest chip left: the value raced is the same. A stack that no removed
    chip makes whole has chips the structure never had: the floor counts it (``chip_count``) instead."""
    if not in_play:
        return None
    into = in_play[0]
    rests = [stacks[entry] % into for _, entry in players if entry in stacks]
    gone = sorted((d for d in denominations if d not in in_play and d < into and into % d == 0
                   and all(rest % d == 0 for rest in rests)), reverse=True)
    if not gone:
        return None
    removed = gone[0]
    odd = tuple((seat, entry, odd_chips_of(stacks[entry], removed=removed, into=into))
                for seat, entry in sorted(players) if entry in stacks)
    odd = tuple(o for o in odd if o[2])
    if not odd:
        return None
    return RaceDue(table=table, removed=removed, into=into, smallest_left=into, odd_chips=odd)


def races_due(state, now, *, tables: Iterable[int] | None = None) -> tuple[RaceDue, ...]:
    """Every table's race still owed at ``now`` (a ``record.TournamentState``), table by table: from the break
    that removes a denomination on (the race is run during the break, TDA-24-A), until it is run. Nothing
    before the clock starts, nor once the event is over. ``tables``: only those tables' (a tablet's tap asks
    for its own, and reads only its players' stacks, not the field's: issue #37)."""
    from casino.rules.tournament.clock import clock_at
    from casino.rules.tournament.structure import Structure

    setup = state.setup
    if setup is None or state.finished or not setup.structure:
        return ()
    structure = Structure.from_dict(setup.structure)
    reading = clock_at(structure, list(state.clock_events), now,
                       hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    if not reading.started or reading.finished:
        return ()
    in_play = structure.denominations_at(reading.step)
    if len(in_play) == len(structure.denominations):
        return ()
    if tables is None:
        asked = state.tables
    else:
        asked = [t for t in (state.table_in_play(n) for n in dict.fromkeys(tables)) if t is not None]
    due = (race_due(t.table, t.players, _stacks_in_play(state, t.players),
                    denominations=tuple(structure.denominations), in_play=in_play)
           for t in asked)
    return tuple(d for d in due if d is not None)


def _stacks_in_play(state, players) -> dict[int, int]:
    """entry -> chips of the players still in among ``players`` (seat, entry)."""
    from casino.rules.tournament.record import IN_PLAY

    stacks = {}
    for _seat, number in players:
        try:
            e = state.entry(number)
        except RuleViolation:  # not an entry of the event: as a stack the field does not list
            continue
        if e.status in IN_PLAY:
            stacks[number] = e.stack
    return stacks
