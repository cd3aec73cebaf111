"""The house options a tournament runs under (rules-checklist section 5), with the defaults it names.

TDA-00: the house's regulations prevail over the TDA, so the Casino Club reading (CC) is the default and
the TDA reading the alternative.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from casino.rules.decks import DEFAULT_CHANGE_ON, verify_change_on
from casino.rules.errors import N_, RuleViolation

ANTE_MODES = ("none", "button", "big_blind")
#: C-05: what happens when the clock runs out on a player not facing a bet.
CLOCK_EXPIRY = ("dead", "check")
#: C-07: face-up cards found in the deck (the engine's ``HouseRules.boxed_cards``).
BOXED_CARDS = ("CC-100", "TDA-35-A")
#: C-08: an act out of turn when the action changed before the player's turn.
OOT_AFTER_CHANGE = ("call_or_fold", "all_options")
#: A day (or a series) that ends at the break where the structure colours up (TDA-24, CC-68/69): the chip race is
#: run before the chips are bagged (the default) or at each redrawn table before the next day's first hand.
DAY_END_CHIP_RACE = ("before_bagging", "next_day")


@dataclass(frozen=True, slots=True)
class HouseOptions:
    #: C-01: the final table forms when this many players remain (CC-61: 10; RP-09: 9 or 7).
    final_table_size: int = 10
    #: C-02: "button" (CC-50/51, halved at ``ante_halve_at_or_below``), "big_blind" (RP-11) or "none".
    ante_mode: str = "button"
    ante_halve_at_or_below: int = 6
    #: C-03: a relocated player drawing the button's seat sits that hand out (CC-53).
    relocated_on_button_sits_out: bool = True
    #: C-18: play halts at a table down to this many players, final table excepted (CC-59)...
    halt_if_table_players_le: int = 3
    #: ... and the TDA's reading, a warning only: a table this many short of the fullest (TDA-11-D).
    halt_if_short_by_ge: int = 3
    #: C-19 / RP-08-B: seconds each hand-for-hand hand takes off the level.
    hand_for_hand_seconds: int = 120
    #: C-32 / CC-26: one entry per player per event unless the event allows re-entry.
    reentry_allowed: bool = False
    #: Prizes are rounded to this unit, the remainder going to the higher place.
    prize_unit: int = 1
    #: CC-23: the minimum age to play.
    minimum_age: int = 18
    #: A hand mucked at the showdown: lost for good (CC-146, the house's reading, TDA-00), or still live
    #: while identified, to be tabled where the TD so rules (TDA-14, TDA-65-B). Dealt hands (issue #15).
    mucked_hand_recoverable: bool = False
    #: C-04: the time to act, the seconds the player in turn has for any action (CC-114: 60, the house's
    #: default), counted on the tablet from the moment the action reached him; 0: no base shot clock (TDA-29).
    action_seconds: int = 60
    #: C-04: the clock called on a player: CC-115's 30 seconds with the last 10 counted aloud (the
    #: house's default), or TDA-29's 25 + 5 (``clock_seconds=30, clock_countdown_seconds=5``).
    clock_seconds: int = 30
    clock_countdown_seconds: int = 10
    #: C-05: the clock runs out on a player not facing a bet: his hand is dead (CC-115, the default) or he
    #: checks (TDA-29). Facing a bet, his hand is dead in both.
    clock_expiry_unfaced: str = "dead"
    #: C-22: the longest suspension, in rounds (CC-46: 1 to 4 hands for each player at the table).
    max_penalty_rounds: int = 4
    #: C-07: face-up cards found in the deck during the deal: CC-100 (the house's: scrap paper, a misdeal only
    #: when a face-down card already went to the next player) or TDA-35-A (two or more: a misdeal).
    boxed_cards: str = "CC-100"
    #: C-08: an act out of turn, and the action changed before the player's turn: he must call or fold
    #: (CC-134, the default), or every option is his, the chips returned (TDA-53-A, ``"all_options"``).
    oot_after_change: str = "call_or_fold"
    #: CC-133: "repeated and/or deliberate out-of-turn action is penalised" (TDA-53-A: it "may be"), without
    #: saying after how many: the tablet calls the floor when a player's acts out of turn in the event reach this
    #: many (2: the first repeat, as "repeated" reads), and again each as many more after a penalty for them; the
    #: floor rules the penalty as any other (TDA-71, infraction "out_of_turn"). 0: the tablet never counts them.
    oot_repeats_call_floor: int = 2
    #: C-17: when the deck changes: at the level's end, at a dealer change, when the director says (TDA-26,
    #: CC-71); the house's default is CC-71's "level + director".
    deck_change_on: tuple[str, ...] = DEFAULT_CHANGE_ON
    #: CC-09: a qualifier who checks in to the Final Stage without his chip-count receipt is penalised but plays:
    #: the house's penalty, 0 a warning, else this many hands sat out (TDA-71)
    missing_receipt_penalty_hands: int = 0
    #: A day that ends at the break where the structure removes a denomination (TDA-24-A, CC-68/69): the odd chips
    #: are raced at each table before its chips are bagged ("before_bagging", the default: TDA-24-A's scheduled
    #: colour-up runs at its break, with the players at their own table and chips; the bags and receipts then
    #: hold only chips still in play, what the next day carries, CC-09/CC-10), or at each redrawn table before
    #: the next day's first hand ("next_day": CC-68 changes the chips once the next level no longer needs them).
    #: The documents do not say which (docs/tournaments.md, "The colour-up between days").
    day_end_chip_race: str = "before_bagging"

    def __post_init__(self) -> None:
        if not isinstance(self.deck_change_on, tuple):  # stored as a JSON list
            object.__setattr__(self, "deck_change_on", tuple(self.deck_change_on or ()))
        verify_change_on(self.deck_change_on)
        if self.ante_mode not in ANTE_MODES:
            raise RuleViolation(N_("Unknown ante mode %(mode)s"), "C-02", mode=self.ante_mode)
        if not 2 <= self.final_table_size <= 10:
            raise RuleViolation(N_("A final table seats 2 to 10 players, not %(size)s"), "C-01",
                                size=self.final_table_size)
        if self.prize_unit < 1 or self.hand_for_hand_seconds < 0 or self.minimum_age < 0:
            raise RuleViolation(N_("A house option is out of range"), "C-19")
        if not 5 <= self.clock_seconds <= 600 or not 0 <= self.clock_countdown_seconds <= self.clock_seconds:
            raise RuleViolation(N_("The clock on a player is 5 to 600 seconds, its countdown within it"), "C-04")
        if not 0 <= self.action_seconds <= 600:
            raise RuleViolation(N_("The time to act is 0 (none) to 600 seconds"), "C-04")
        if not 0 <= self.missing_receipt_penalty_hands <= 60:
            raise RuleViolation(N_("The penalty for a missing chip-count receipt is 0 (a warning) to 60 hands"),
                                "CC-09")
        if not 1 <= self.max_penalty_rounds <= 20:
            raise RuleViolation(N_("The longest suspension is 1 to 20 rounds"), "C-22")
        if self.boxed_cards not in BOXED_CARDS:
            raise RuleViolation(N_("Face-up cards found in the deck follow CC-100 or TDA-35-A"), "C-07")
        if self.clock_expiry_unfaced not in CLOCK_EXPIRY:
            raise RuleViolation(N_("When the clock runs out on a player not facing a bet, his hand is dead or he "
                                   "checks"), "C-05")
        if self.day_end_chip_race not in DAY_END_CHIP_RACE:
            raise RuleViolation(N_("A day ending at a colour-up races its odd chips before bagging or at the next "
                                   "day's tables"), "TDA-24-A")
        if self.oot_repeats_call_floor == 1 or not 0 <= self.oot_repeats_call_floor <= 20:  # one is not repeated
            raise RuleViolation(N_("Repeated acts out of turn call the floor after 2 to 20 of them, or never (0)"),
                                "CC-133")
        if self.oot_after_change not in OOT_AFTER_CHANGE:
            raise RuleViolation(N_("When the action changes after an act out of turn, the player calls or folds, "
                                   "or has every option"), "C-08")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> HouseOptions:
        """The options stored with an event; unknown keys are ignored, missing ones take the default."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (values or {}).items() if k in known})
