"""A tournament table's next hand for the Hold'em engine (issue #15, part 2 of the tournaments).

The event knows the table (``seating.TableSeats``: who sits where, the last hand's button and blinds),
each entry's chips and the clock's level; the engine (``casino.rules.holdem``) deals a hand from a
``TableSetup``. ``next_hand_setup`` is the one bridge between them, so that a dealer's tablet, the
simulator and the tests start a hand the same way:

* the button and blinds where the dead button puts them (C-25, TDA-32, CC-78..81), heads-up with the
  button on the small blind (TDA-34): ``seating.next_hand``;
* the blinds of the level in play when the hand starts (TDA-23, C-24: a level change applies from the
  next hand, so the caller passes the level at the hand's start);
* the ante as the house's ante mode says (C-02): the button ante (CC-50), which the engine halves with
  six or fewer at the table (CC-51) and does not take when the button is dead (CC-52); the big-blind
  ante, taken before the big blind and never reduced (RP-11); or none;
* a player moved onto the button's seat by a break sits that hand out when the house says so (C-03,
  CC-53): he is not dealt in, so the button is dead and the hand has no ante;
* with two players left in the event a fixed-limit hand has no raise cap (TDA-48).

Nothing here reads or writes anything: it answers with the setup and the house rules for the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem.config import Ante, AnteKind, Betting, HouseRules, Mode, OutOfTurnAfterChange, TableSetup
from casino.rules.holdem.hand import HoldemHand
from casino.rules.tournament import seating
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.structure import Level

#: The house's defaults (rules-checklist section 5).
DEFAULT_OPTIONS = HouseOptions()
#: The tournament's ante mode (C-02, ``HouseOptions.ante_mode``) as the engine's ante kind.
ANTE_KINDS = {"none": AnteKind.NONE, "button": AnteKind.BUTTON, "big_blind": AnteKind.BIG_BLIND}


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """What the engine needs for one tournament hand, and which entry sits in each seat dealt in."""

    where: seating.NextHand
    setup: TableSetup
    rules: HouseRules
    entries: Mapping[int, int]  # seat -> entry, the players dealt in
    sitting_out: tuple[int, ...] = ()  # seats with a player who is not dealt this hand (CC-53)


def house_rules_for(options: HouseOptions) -> HouseRules:
    """The engine's house rules for a tournament under these options (C-02's halving, TDA-48's cap, a
    mucked hand: CC-146 or TDA-14; a changed action after an act out of turn: C-08; face-up cards found in the
    deck: C-07)."""
    halve_at = options.ante_halve_at_or_below if options.ante_mode == "button" else None
    return HouseRules(mode=Mode.TOURNAMENT, button_ante_halved_at_or_below=halve_at,
                      mucked_hand_recoverable=options.mucked_hand_recoverable,
                      oot_after_change=OutOfTurnAfterChange(options.oot_after_change),
                      boxed_cards=options.boxed_cards)


def next_hand_setup(table: seating.TableSeats, chips: Mapping[int, int], level: Level, *,
                    options: HouseOptions = DEFAULT_OPTIONS, betting: Betting = Betting.NO_LIMIT,
                    chip_unit: int = 1, players_in_event: int | None = None,
                    sitting_out: Iterable[int] = ()) -> TournamentHand | None:
    """The next hand at ``table``: ``chips`` maps each entry to its chips, ``level`` is the level in play
    at the hand's start, ``sitting_out`` the seats whose players are not dealt in this hand (a player
    moved onto the button's seat, CC-53). None with fewer than two players to deal in."""
    if not isinstance(level, Level):
        raise RuleViolation(N_("A hand is dealt at a level of blinds, not during a break"), "TDA-23")
    where = seating.next_hand(table)
    if where is None:
        return None
    out = tuple(sorted(set(sitting_out)))
    seated = table.occupied()
    stacks: dict[int, int] = {}
    for seat, entry in sorted(seated.items()):
        if seat in out:
            continue
        stack = chips.get(entry, 0)
        if stack <= 0:
            raise RuleViolation(N_("Seat %(seat)s has no chips: a player out of chips is out of the event"),
                                "CC-18", seat=seat)
        stacks[seat] = stack
    if len(stacks) < 2:
        return None
    for seat in (where.big_blind, where.small_blind):
        if seat is not None and seat in out:
            raise RuleViolation(N_("Seat %(seat)s is due a blind this hand and cannot sit it out"), "CC-53",
                                seat=seat)
    ante_kind = ANTE_KINDS[options.ante_mode]
    ante = Ante(ante_kind, level.ante) if ante_kind is not AnteKind.NONE and level.ante > 0 else Ante()
    setup = TableSetup(
        stacks=stacks, button=where.button, small_blind=level.small_blind, big_blind=level.big_blind,
        betting=betting, ante=ante, small_blind_seat=where.small_blind, big_blind_seat=where.big_blind,
        chip_unit=chip_unit, heads_up_in_tournament=players_in_event == 2,
    )
    entries = {seat: seated[seat] for seat in stacks}
    return TournamentHand(where=where, setup=setup, rules=house_rules_for(options), entries=entries,
                          sitting_out=out)


def clock_expiry_record(engine: HoldemHand, options: HouseOptions = DEFAULT_OPTIONS) -> dict:
    """What is recorded when the clock called on the player in turn runs out (C-05): facing a bet his hand
    is dead (a fold); not facing one it is dead too by the house's default (CC-115), or he checks (TDA-29)."""
    legal = engine.legal()
    if legal is None:
        raise RuleViolation(N_("Nobody is to act: the clock runs on the player in turn"), "C-04")
    if legal.check and options.clock_expiry_unfaced == "check":
        return {"action": "check", "seat": legal.seat}
    return {"action": "fold", "seat": legal.seat}
