"""The prize pool, the payout table, the ranking and each place's prize.

CC-14..21, CC-34, CC-47, RP-08-A (and its example RP-08-ex1), C-20. docs/tournaments-prizes.md explains
the readings chosen where the regulations are silent.

* The payout table is a tuple of shares in basis points (place 1 first) summing to exactly 10,000 and
  never increasing down the places (``check_shares``); ``default_payout_shares`` proposes one.
* ``place_prizes`` turns the pool into whole prizes: each place rounded down to the house's unit, the whole
  units left over handed out one at a time from place 1 down, anything smaller than a unit to place 1. The
  prizes always add up to the pool.
* ``results`` ranks the players by how long they survived (CC-17/18): the first one out ranks last.
  Players out in the same hand at one table rank by their stacks at the start of the hand (CC-19); players
  out in the same hand-for-hand hand at different tables, or whose order cannot be told (busts in hands at
  different tables recorded at the same instant, ``Elimination.at``), share the prizes of the places
  involved equally (CC-20, CC-21, RP-08-A). A withdrawal ranks as an elimination at that
  moment and keeps its prize (CC-34). A disqualified player takes the place he was at but no prize; that
  place's prize is shared equally among the players still in at that moment (CC-47).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from casino.rules.errors import N_, RuleViolation

#: how a player left the event
LEAVES = ("bust", "withdrawal", "disqualification")

#: the whole pool, in basis points
WHOLE = 10_000


@dataclass(frozen=True, slots=True)
class Elimination:
    entry: int
    order: int  # the record's seq: elimination order (CC-18)
    how: str = "bust"  # LEAVES
    table: int | None = None
    hand: int | None = None  # the table's hand number
    hand_for_hand_hand: int | None = None  # the event's hand-for-hand hand, if in hand-for-hand (CC-21)
    stack_at_start: int | None = None  # CC-19
    #: when the bust was recorded (the record's ``at``): busts in hands at different tables recorded at the
    #: same instant cannot be told apart (CC-20): the simulator's round deals every table at one time
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Result:
    places: tuple[int, ...]  # the places shared (one, or several split: CC-20/21, RP-08-A)
    entries: tuple[int, ...]
    prize_each: int
    #: what a split leaves over after rounding to the unit, and who gets it (the first of ``entries``).
    remainder: int = 0
    remainder_to: int | None = None
    #: CC-47: each entry's share of the prizes of players disqualified while it was still in ...
    shared_each: int = 0
    #: ... and what those shares leave over after rounding, which goes to the winner (only on place 1).
    shared_remainder: int = 0
    #: CC-34 / CC-47: "bust", "withdrawal" or "disqualification" (a disqualified player's prize is 0).
    how: str = "bust"

    def prize(self, entry: int) -> int:
        """What ``entry`` collects at the cashier."""
        if entry not in self.entries:
            raise KeyError(entry)
        own = self.prize_each + (self.remainder if entry == self.remainder_to else 0)
        return own + self.shared_each + self.shared_remainder

    @property
    def total(self) -> int:
        """What all the entries of this result collect together."""
        return sum(self.prize(entry) for entry in self.entries)


def paid_places(entries: int) -> int:
    """How many places the default table pays: one in eight entries, rounded, at least one.

    1 paid up to 11 entries, 2 from 12, 3 from 20, 13 of 100 (about 12.5% of the field).
    """
    return max(1, (entries + 4) // 8)


class MoneyStage(StrEnum):
    """Where the players left stand against the places paid (RP-08-A)."""

    OUTSIDE = "outside"  # two or more busts from the money
    BUBBLE = "bubble"  # the next player out wins nothing: the room goes hand-for-hand (RP-08-A)
    IN_THE_MONEY = "in_the_money"  # every player left wins a prize


def money_stage(players_left: int, places_paid: int) -> MoneyStage | None:
    """RP-08-A: the bubble is one player more than the places paid; None while no place is paid yet (the
    pool is fixed when registration closes, CC-14) or no one is left.

    RP-08-ex1: with 50 places paid, 52 left is outside the money, 51 the bubble, 50 in the money. Players
    busting in the bubble's hand at different tables share the places they reach (``results``)."""
    if places_paid <= 0 or players_left <= 0:
        return None
    if players_left > places_paid + 1:
        return MoneyStage.OUTSIDE
    if players_left == places_paid + 1:
        return MoneyStage.BUBBLE
    return MoneyStage.IN_THE_MONEY


def default_payout_shares(entries: int) -> tuple[int, ...]:
    """Share of the pool per place, in basis points summing to 10,000 (place 1 first).

    The house's own table always wins (CC-14: the pool is the house's to set); this is only the proposal.
    Place ``i`` weighs ``1 / i ** 0.9`` - a smooth ladder like the usual casino tables: 2 paid 65/35,
    3 paid 52/28/20. Each share is rounded down to a basis point; the basis points left over go one each
    to places 1, 2, ... so the table stays non-increasing and sums to exactly 10,000.
    """
    if entries < 0:
        raise RuleViolation(N_("An event cannot have %(entries)s entries"), "CC-14", entries=entries)
    paid = paid_places(entries)
    weights = [1 / (place ** 0.9) for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [int(WHOLE * weight / total) for weight in weights]
    for place in range(WHOLE - sum(shares)):
        shares[place % paid] += 1
    result = tuple(shares)
    check_shares(result)
    return result


def check_shares(shares: Iterable[int]) -> tuple[int, ...]:
    """Refuse a payout table that does not sum to 10,000 basis points or pays a lower place more."""
    shares = tuple(shares)
    if not shares:
        raise RuleViolation(N_("The payout table pays no place"), "CC-14")
    for place, share in enumerate(shares, start=1):
        if not isinstance(share, int) or share < 0:
            raise RuleViolation(N_("Place %(place)s's share %(share)s is not a whole number of basis points"),
                                "CC-14", place=place, share=share)
    if sum(shares) != WHOLE:
        raise RuleViolation(N_("The payout table adds up to %(total)s basis points, not 10000"), "CC-14",
                            total=sum(shares))
    for place in range(1, len(shares)):
        if shares[place] > shares[place - 1]:
            raise RuleViolation(N_("Place %(lower)s would be paid more than place %(higher)s"), "CC-17",
                                lower=place + 1, higher=place)
    return shares


def place_prizes(pool: int, shares: tuple[int, ...], unit: int = 1) -> tuple[int, ...]:
    """Each place's prize, rounded down to ``unit``, the remainder to the higher places (place 1 first).

    Each place gets its share of the pool rounded down to a whole ``unit``. The whole units left over go one
    at a time to place 1, 2, 3... (again from place 1 after the last paid place) and whatever is smaller than
    a unit (a pool that is not a multiple of the unit) goes to place 1. The prizes add up to the pool.
    """
    shares = check_shares(shares)
    if pool < 0 or unit < 1:
        raise RuleViolation(N_("A prize pool of %(pool)s cannot be paid in units of %(unit)s"), "CC-14",
                            pool=pool, unit=unit)
    prizes = [pool * share // WHOLE // unit * unit for share in shares]
    paid = sum(1 for share in shares if share > 0)
    units_left = (pool - sum(prizes)) // unit
    for index in range(units_left):
        prizes[index % paid] += unit
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


def _same_hand(elimination: Elimination) -> tuple[tuple, ...]:
    """What ties an elimination to others of the same hand, for grouping them (none: on its own): its
    hand-for-hand hand (CC-21, RP-08-A); else its table's hand (CC-19) and the instant its bust in a hand was
    recorded, which busts in hands at other tables at that same instant share (CC-20: their order cannot be
    told)."""
    if elimination.how != "bust":
        return ()  # a withdrawal or a disqualification happens at a moment of its own (CC-34, CC-47)
    if elimination.hand_for_hand_hand is not None:
        return (("hand-for-hand", elimination.hand_for_hand_hand),)
    if elimination.table is not None and elimination.hand is not None:
        same_time = (("time", elimination.at),) if elimination.at is not None else ()
        return (("table", elimination.table, elimination.hand), *same_time)
    return ()


def _hands(eliminations: list[Elimination]) -> list[list[Elimination]]:
    """The eliminations in order (CC-18), those of one hand together (groups that an elimination ties
    together, as one table's hand and another table's bust at the same instant, become one)."""
    hands: list[list[Elimination]] = []
    keys: list[set[tuple]] = []
    for elimination in sorted(eliminations, key=lambda e: e.order):
        own = set(_same_hand(elimination))
        joined = [i for i, known in enumerate(keys) if own & known]
        if not joined:
            hands.append([elimination])
            keys.append(own)
            continue
        first = joined[0]
        for i in reversed(joined[1:]):
            hands[first].extend(hands.pop(i))
            keys[first] |= keys.pop(i)
        hands[first].append(elimination)
        keys[first] |= own
    return hands


def _ranked(hand: list[Elimination]) -> list[list[Elimination]]:
    """One hand's eliminations as groups of equal rank, the lowest rank first.

    One table with every stack known: more chips at the start of the hand ranks higher, equal stacks
    share (CC-19). Different tables, or a stack not known: the order cannot be told, all share (CC-20/21).
    """
    tables = {elimination.table for elimination in hand}
    stacks = [elimination.stack_at_start for elimination in hand]
    if len(hand) == 1 or len(tables) > 1 or None in tables or None in stacks:
        return [hand]
    groups: dict[int, list[Elimination]] = {}
    for elimination in hand:
        groups.setdefault(elimination.stack_at_start, []).append(elimination)
    return [groups[stack] for stack in sorted(groups)]


def _split(total: int, count: int, unit: int) -> tuple[int, int]:
    """Each one's share of ``total`` rounded down to ``unit``, and what is left over."""
    each = total // count // unit * unit
    return each, total - each * count


def results(total_entries: int, eliminations: list[Elimination], survivors: tuple[int, ...],
            prizes: tuple[int, ...], *, unit: int = 1) -> tuple[Result, ...]:
    """The ranking and each place's prize, from the eliminations in order and who is still in.

    ``prizes`` are the places' prizes, place 1 first (``place_prizes``); places past its end pay nothing.
    The results come best place first. While more than one entry is still in, only the eliminated entries
    are ranked (the survivors hold places 1..len(survivors), not yet decided); when one is left he is
    place 1 (CC-17). A split's remainder after rounding to ``unit`` goes to the first entry listed (the
    one eliminated last). Once the event is over, the results add up to the sum of ``prizes``.
    """
    for elimination in eliminations:
        if elimination.how not in LEAVES:
            raise RuleViolation(N_("Entry %(entry)s left the event in an unknown way: %(how)s"), "CC-17",
                                entry=elimination.entry, how=elimination.how)
    out = [elimination.entry for elimination in eliminations]
    if len(set(out)) != len(out) or set(out) & set(survivors) or len(set(survivors)) != len(survivors):
        raise RuleViolation(N_("An entry is eliminated twice, or both eliminated and still in"), "CC-17")
    if len(out) + len(survivors) != total_entries:
        raise RuleViolation(N_("%(out)s entries out and %(left)s still in do not make the %(total)s entries"),
                            "CC-17", out=len(out), left=len(survivors), total=total_entries)

    def prize(place: int) -> int:
        return prizes[place - 1] if place <= len(prizes) else 0

    # Walk the eliminations from the first: ``left`` entries are still in just before each group goes.
    groups: list[tuple[list[Elimination], tuple[int, ...], int]] = []  # (group, places, entries left after)
    left = total_entries
    for hand in _hands(eliminations):
        for group in _ranked(hand):
            places = tuple(range(left - len(group) + 1, left + 1))
            left -= len(group)
            groups.append((group, places, left))

    # CC-47: a disqualified player's place pays nothing to him; its prize - and any share he had of an
    # earlier disqualified player's prize - is shared equally by those still in at that moment.
    ranked: list[Result] = []
    shared_each = 0  # each entry still in has this much from the disqualifications so far
    forfeited_remainder = 0  # what the shares leave over after rounding: to the winner
    for group, places, after in groups:
        entries = tuple(elimination.entry for elimination in sorted(group, key=lambda e: -e.order))
        how = group[0].how
        total = sum(prize(place) for place in places)
        if how == "disqualification":
            forfeited = total + shared_each * len(entries)
            if after > 0:
                each, rest = _split(forfeited, after, unit)
                shared_each += each
                forfeited_remainder += rest
            ranked.append(Result(places=places, entries=entries, prize_each=0, how=how))
            continue
        each, rest = _split(total, len(entries), unit)
        ranked.append(Result(places=places, entries=entries, prize_each=each, remainder=rest,
                             remainder_to=entries[0] if rest else None, shared_each=shared_each, how=how))
    if len(survivors) == 1:
        ranked.append(Result(places=(1,), entries=survivors, prize_each=prize(1),
                             shared_each=shared_each, shared_remainder=forfeited_remainder))
    return tuple(reversed(ranked))
