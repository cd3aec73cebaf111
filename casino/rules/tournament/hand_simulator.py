"""One simulated hand at a tournament table, for the tournament simulator (issue #14, ``simulate_tournament``).

Not poker: chips move as they would, by a random draw. The hand is dealt where the table's dead button
says (C-25, TDA-32: ``seating.next_hand``), the blinds and the ante are posted as the level and the
house's ante mode say (C-02: the button ante, CC-50, halved to the small blind at 6 or fewer players,
CC-51; the big-blind ante, RP-11; none), then either everyone folds to one player, or a few players
go all-in and each pot (the main pot and the side pots of unequal stacks) goes to one of the players
eligible for it, drawn with the injected ``rng``. A bet nobody could call is returned. Chips are
conserved exactly: what the hand's players have at its end adds up to what they had at its start.

A dead button (an empty seat, or a player sitting the hand out) makes a hand without a button ante
(CC-52, CC-53), as at the dealt tables. Where the rules are silent for a simulation: a player who
cannot cover the blind or the ante posts what he has and is all-in. Players moved onto the button or
between the button and the small blind are not dealt in (``sitting_out``: C-03, CC-53, CC-57, TDA-10).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from random import Random

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import seating
from casino.rules.tournament.structure import Level, ante_for


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats that could win it
    winner: int  # the seat drawn to win it


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What the floor reports at the end of a hand (``services.report_hand``); seats -> chips."""

    table: int
    hand: int
    button: int
    small_blind: int | None  # the small blind's seat, None when it is dead (CC-80)
    big_blind: int
    small_blind_position: int  # where the small blind is even when dead: what the record keeps
    stacks_at_start: dict[int, int]
    stacks_at_end: dict[int, int]
    busted: tuple[int, ...]  # seats left with no chips
    pots: tuple[Pot, ...] = ()
    ante: int = 0


def _post(stacks: dict[int, int], put_in: dict[int, int], seat: int, amount: int) -> int:
    paid = min(amount, stacks[seat] - put_in[seat])
    put_in[seat] += paid
    return paid


def split_pots(put_in: dict[int, int], live: set[int]) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int]]:
    """The main pot and the side pots, smallest layer first: [(amount, eligible live seats)], and what is
    returned uncalled (seat -> chips put in beyond what any other live player matched)."""
    returned: dict[int, int] = {}
    if not live:
        return [], returned
    # the biggest bet beyond every other player's (live or folded) was not called: it goes back
    leader = max(put_in, key=lambda s: (put_in[s], s in live))
    second = max((c for s, c in put_in.items() if s != leader), default=0)
    if leader in live and put_in[leader] > second:
        returned[leader] = put_in[leader] - second
    capped = {s: put_in[s] - returned.get(s, 0) for s in put_in}
    layers = sorted({capped[s] for s in live if capped[s] > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for layer in layers:
        amount = sum(max(0, min(c, layer) - previous) for c in capped.values())
        eligible = tuple(sorted(s for s in live if capped[s] >= layer))
        if amount:
            pots.append((amount, eligible))
        previous = layer
    # folded chips above the last live layer (a folded blind bigger than every live all-in) go to the last pot
    beyond = sum(max(0, c - previous) for c in capped.values())
    if beyond:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + beyond, eligible)
        else:
            pots.append((beyond, tuple(sorted(live))))
    return pots, returned


def play_hand(table: seating.TableSeats, stacks: dict[int, int], level: Level, *, ante_mode: str, rng: Random,
              hand: int = 1, ante_halve_at_or_below: int = 6, all_in_chance: float = 0.4,
              sitting_out: Iterable[int] = ()) -> HandSummary | None:
    """Play the next hand at ``table`` (``stacks``: entry -> chips of its players); None with fewer than
    two players dealt in. ``sitting_out``: the seats whose players were moved onto the button or between the
    button and the small blind (C-03, CC-53, CC-57, TDA-10, ``TournamentState.sitting_out_seats``): not dealt
    in, they post nothing, and a button sitting out, like a dead button, makes a hand without a button ante
    (CC-52, CC-53), as the dealt tables' ``table_hand.next_hand_setup``. Every draw is made with ``rng``."""
    where = seating.next_hand(table)
    if where is None:
        return None
    out = set(sitting_out)
    for seat in (where.big_blind, where.small_blind):
        if seat is not None and seat in out:
            raise RuleViolation(N_("Seat %(seat)s is due a blind this hand and cannot sit it out"), "CC-53",
                                seat=seat)
    seat_of = {seat: entry for seat, entry in table.occupied().items() if seat not in out}
    if len(seat_of) < 2:
        return None
    start = {seat: int(stacks[entry]) for seat, entry in seat_of.items()}
    put_in = dict.fromkeys(start, 0)
    players = len(start)
    ante = ante_for(level, ante_mode, players=players, halve_at_or_below=ante_halve_at_or_below)
    if ante_mode == "button" and where.button not in start:
        ante = 0  # CC-52, CC-53: a dead button, or a button sitting the hand out, takes no ante (as table_hand)
    if ante:
        # CC-50/51: the button pays the button ante; RP-11: the big blind pays the big-blind ante
        payer = where.button if ante_mode == "button" else where.big_blind
        _post(start, put_in, payer, ante)
    if where.small_blind is not None and where.small_blind in start:
        _post(start, put_in, where.small_blind, level.small_blind)
    _post(start, put_in, where.big_blind, level.big_blind)

    seats = sorted(start)
    if rng.random() < all_in_chance:
        # a few players (two or more) put everything in; everyone else folds
        count = rng.randint(2, min(players, 4))
        live = set(rng.sample(seats, count))
        for seat in live:
            put_in[seat] = start[seat]
    else:
        # one or two players call the big blind; one of them, or the big blind, takes the pot
        callers = set(rng.sample(seats, rng.randint(0, min(2, players - 1))))
        for seat in callers:
            _post(start, put_in, seat, level.big_blind - put_in[seat])
        live = callers | {where.big_blind}
    pots, returned = split_pots(put_in, live)
    end = {seat: start[seat] - put_in[seat] + returned.get(seat, 0) for seat in start}
    drawn = []
    for amount, eligible in pots:
        winner = rng.choice(eligible)
        end[winner] += amount
        drawn.append(Pot(amount, eligible, winner))
    assert sum(end.values()) == sum(start.values()), "a simulated hand must conserve chips"
    return HandSummary(
        table=table.table, hand=hand, button=where.button, small_blind=where.small_blind,
        big_blind=where.big_blind, small_blind_position=where.small_blind_position, stacks_at_start=start,
        stacks_at_end=end, busted=tuple(s for s in seats if end[s] == 0), pots=tuple(drawn), ante=ante,
    )
