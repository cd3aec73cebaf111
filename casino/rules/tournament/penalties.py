"""Penalties (TDA-70/71, CC-39, CC-45/46): what the director (or a floor supervisor for him) gives, and
how a suspension is served.

* A **warning** is recorded and serves nothing: it is what the next penalty escalates from (TDA-71-A,
  CC-45: a first violation is warned unless the rule says otherwise).
* A suspension of **hands**, or of **rounds**: a round is one hand for each player at the offender's
  table when the penalty is given, the offender included (TDA-71-A, CC-46), up to the house's
  ``max_penalty_rounds`` (C-22: 4, CC-46). The record keeps the hands it comes to, so a replay never
  counts the table again.
* While suspended the player's seat is dealt in, his blinds and antes are posted, and his hand is killed
  at the end of the deal (TDA-71-D, CC-46): a dealt table kills it itself (``tournaments.services.dealing``) and
  marks the hand's player ``"penalty": true`` in the event's record; each such hand serves one. A
  penalty given during a hand is served from the next hand (TDA-68). Several penalties are served one
  after the other. The director ends one early (CC-46: "until the TD ends the penalty"), which is also
  how a table whose hands the floor does not report ends it.
* A disqualification (TDA-71-E, CC-47) is its own record event (``disqualification``), not a penalty.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.rules.errors import N_, RuleViolation

#: What a penalty is: a warning, a number of hands, or a number of rounds (TDA-71-A).
PENALTY_KINDS = ("warning", "hands", "rounds")

#: The infractions a penalty names (CC-39's catalogue, with the TDA's clauses); "other" for the rest
#: (CC-39: the list is not exhaustive), the reason then saying what.
INFRACTIONS: dict[str, str] = {
    "etiquette": "TDA-70",            # abuse, excessive chatter, poor hygiene, celebrating, arguing
    "delay": "TDA-70",                # needlessly delaying one's action
    "out_of_turn": "TDA-70",          # repeated action out of turn
    "exposing_cards": "TDA-68",       # exposing cards with action pending
    "one_player_to_a_hand": "TDA-67",  # discussing, advising, showing a hand
    "throwing_cards": "TDA-71-B",     # cards thrown off the table or at a player or the dealer
    "touching_chips": "TDA-70",       # another's cards or chips, the deck, the pot
    "miscalling": "CC-39",            # miscalling or misdescribing one's hand
    "communication_device": "CC-41",  # a phone or any device at the table
    "forced_bets_dodged": "CC-60",    # avoiding the blinds when moved from a broken table
    "leaving_with_action_pending": "CC-119",
    "soft_play": "TDA-69",
    "other": "CC-39",
}


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty as the record gives it (``seq`` is its event's): its hands, how many are served, and
    whether the director ended it."""

    seq: int
    entry: int
    kind: str
    hands: int = 0
    rounds: int = 0
    infraction: str = "other"
    reason: str = ""
    served: int = 0
    ended: bool = False

    @property
    def hands_left(self) -> int:
        return 0 if self.ended or self.kind == "warning" else max(0, self.hands - self.served)

    @property
    def in_force(self) -> bool:
        return self.hands_left > 0


def verify_penalty(kind: str, count: int, infraction: str, *, players_at_table: int, max_rounds: int) -> int:
    """The hands a penalty of ``count`` hands or rounds comes to (0 for a warning), or the refusal: a
    round is a hand per player at the table, offender included (TDA-71-A, CC-46), at most ``max_rounds``
    rounds (C-22) of them."""
    if kind not in PENALTY_KINDS:
        raise RuleViolation(N_("A penalty is a warning, a number of hands or a number of rounds"), "TDA-71-A")
    if infraction not in INFRACTIONS:
        raise RuleViolation(N_("Unknown infraction %(infraction)s"), "CC-39", infraction=infraction)
    if kind == "warning":
        return 0
    most_hands = max_rounds * max(players_at_table, 1)
    if kind == "rounds":
        if not 1 <= count <= max_rounds:
            raise RuleViolation(N_("A suspension is 1 to %(most)s rounds"), "CC-46", most=max_rounds)
        if players_at_table < 1:
            raise RuleViolation(N_("A round is a hand for each player at the table: the player is at no table"),
                                "TDA-71-A")
        return count * players_at_table
    if not 1 <= count <= most_hands:
        raise RuleViolation(N_("A suspension is 1 to %(most)s hands (%(rounds)s rounds at this table)"), "CC-46",
                            most=most_hands, rounds=max_rounds)
    return count


def hands_left(penalties: tuple[Penalty, ...], entry: int) -> int:
    """The hands the entry still sits out, over all its penalties in force (served one after the other)."""
    return sum(p.hands_left for p in penalties if p.entry == entry)
