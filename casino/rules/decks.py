"""A deck's life, from the pit's stock to its cancellation: a pure state machine (no Django).

The house logs each deck from the vault to the table and to its cancellation, so that a deck later found
marked or short names the hands played with it (design notes, "Decks"). Its steps:

    in stock --issue--> issued --check--> checked --put in play--> in play --retire--> retired
                                  \\                                    \\
                                   `--(fails: THB-21/22)--> defective  `--declare defective (CC-72)--> defective
    retired | defective --first signature--> cancelling --second signature, another person--> cancelled

Each step is a verify / can / do trio on the frozen ``Deck``; a refusal is a ``RuleViolation`` citing its
clause: THB-21 (the check at opening, in the pit boss's presence: complete, undamaged, unmarked), THB-16 (a
count when in doubt), CC-72 (what a defective deck is), THB-36 (a shuffler's two decks: one red, one blue).

Tournaments: when the deck changes is the house's (C-17: TDA-26's dealer change or level change, CC-71's
level end or the director's word; default "level + director"); a player may not ask for one unless the deck
is defective (CC-76). ``verify_change`` and ``change_due`` answer both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from casino.rules.errors import N_, Phrase, RuleViolation

#: A French deck (THB-03, CC-70): what a count must find (THB-16).
DECK_SIZE = 52

#: THB-36: a table with an automatic shuffler plays two decks, one of each back.
SHUFFLER_BACKS = ("blue", "red")


class DeckState(StrEnum):
    IN_STOCK = "in-stock"
    ISSUED = "issued"
    CHECKED = "checked"
    IN_PLAY = "in-play"
    RETIRED = "retired"
    DEFECTIVE = "defective"
    CANCELLING = "cancelling"  # counted and signed once: the second signature cancels it
    CANCELLED = "cancelled"


#: A state as a refusal says it, in the reader's language (casino.i18n translates a Phrase).
STATE_PHRASES = {
    DeckState.IN_STOCK: Phrase(N_("in the stock")), DeckState.ISSUED: Phrase(N_("issued to a table")),
    DeckState.CHECKED: Phrase(N_("checked, not yet in play")), DeckState.IN_PLAY: Phrase(N_("in play")),
    DeckState.RETIRED: Phrase(N_("retired")), DeckState.DEFECTIVE: Phrase(N_("defective")),
    DeckState.CANCELLING: Phrase(N_("signed once for its cancellation")),
    DeckState.CANCELLED: Phrase(N_("cancelled")),
}

class Defect(StrEnum):
    """CC-72: what makes a deck defective; THB-21's check adds damaged and marked cards."""

    DUPLICATE = "duplicate"  # two identical cards
    DIFFERENT_BACKS = "different-backs"
    MISSING = "missing"  # missing cards
    EXTRA = "extra"  # extra cards
    DAMAGED = "damaged"  # THB-21
    MARKED = "marked"  # THB-21, THB-17


#: The deck's places: where it may be issued, checked, played.
AT_A_TABLE = frozenset({DeckState.ISSUED, DeckState.CHECKED, DeckState.IN_PLAY})
OUT_OF_PLAY = frozenset({DeckState.RETIRED, DeckState.DEFECTIVE})

#: C-17: what may change a tournament table's deck (TDA-26, CC-71).
CHANGE_TRIGGERS = ("level", "dealer_change", "director")
#: C-17's default, the house's reading (CC-71): at each level's end, or when the director says.
DEFAULT_CHANGE_ON = ("level", "director")
#: How a refusal names each trigger.
CHANGE_PHRASES = {"level": Phrase(N_("level change")), "dealer_change": Phrase(N_("dealer change")),
                  "director": Phrase(N_("director's order"))}
#: Who may ask for a change besides the house's triggers: a player (CC-76), or anyone for a defective deck.
CHANGE_REASONS = (*CHANGE_TRIGGERS, "player", "defective")


@dataclass(frozen=True, slots=True)
class Deck:
    """One physical deck as its steps left it. ``place``: the table it was issued to (the core's label,
    e.g. ``tables.table.3``), None in the stock. People are ids (the logged-in person who signed)."""

    back: str
    design: str
    serial: str
    state: DeckState = DeckState.IN_STOCK
    place: str | None = None
    issued_by: int | None = None
    checked_by: int | None = None
    defect: Defect | None = None
    reason: str = ""
    counted: int | None = None
    signed_by: tuple[int, ...] = ()

    # --- received into the stock ---------------------------------------------------------------

    @staticmethod
    def verify_receive(back: str, design: str, serial: str) -> None:
        if not (back or "").strip() or not (serial or "").strip():
            raise RuleViolation(N_("A deck is received with its back's colour and its lot or serial, to be "
                                   "told from every other"), "THB-21")

    @classmethod
    def receive(cls, back: str, design: str, serial: str) -> Deck:
        cls.verify_receive(back, design, serial)
        return cls(back=back.strip().lower(), design=(design or "").strip(), serial=serial.strip())

    # --- issued to a table, the pit boss signing ------------------------------------------------

    def verify_issue(self, place: str, by: int | None) -> None:
        if self.state is not DeckState.IN_STOCK:
            raise RuleViolation(N_("Deck %(serial)s is not in the stock: it is %(state)s"), "THB-21",
                                serial=self.serial, state=STATE_PHRASES[self.state])
        if not place:
            raise RuleViolation(N_("A deck is issued to a table"), "THB-21")
        if by is None:
            raise RuleViolation(N_("The pit boss signs for the deck issued"), "THB-21")

    def can_issue(self, place: str, by: int | None) -> bool:
        return _can(self.verify_issue, place, by)

    def issue(self, place: str, by: int) -> Deck:
        self.verify_issue(place, by)
        return replace(self, state=DeckState.ISSUED, place=place, issued_by=by)

    # --- checked at the opening, in the pit boss's presence (THB-21), counted when in doubt (THB-16) ----

    def verify_check(self, by: int | None, counted: int | None = None) -> None:
        if self.state is not DeckState.ISSUED:
            raise RuleViolation(N_("Deck %(serial)s is checked once, at the table it was issued to, before play"),
                                "THB-21", serial=self.serial)
        if by is None:
            raise RuleViolation(N_("The deck is checked in the pit boss's presence, who signs"), "THB-21")
        if counted is not None and (not isinstance(counted, int) or isinstance(counted, bool) or counted < 0):
            raise RuleViolation(N_("A deck's count is a number of cards"), "THB-16")

    def can_check(self, by: int | None, counted: int | None = None) -> bool:
        return _can(self.verify_check, by, counted)

    def check(self, by: int, *, complete: bool, undamaged: bool, unmarked: bool,
              counted: int | None = None) -> Deck:
        """The deck checked: complete, undamaged, unmarked (THB-21), and counted if in doubt (THB-16). A deck
        that fails is not played: it is defective, with its reason (THB-22, CC-72)."""
        self.verify_check(by, counted)
        defect = None
        if counted is not None and counted != DECK_SIZE:
            defect = Defect.MISSING if counted < DECK_SIZE else Defect.EXTRA
        elif not complete:
            defect = Defect.MISSING
        elif not undamaged:
            defect = Defect.DAMAGED
        elif not unmarked:
            defect = Defect.MARKED
        checked = replace(self, checked_by=by, counted=counted)
        if defect is not None:
            return replace(checked, state=DeckState.DEFECTIVE, defect=defect,
                           reason=f"opening check (THB-21): {defect.value}")
        return replace(checked, state=DeckState.CHECKED)

    # --- in play at its table ----------------------------------------------------------------------

    def verify_put_in_play(self, place: str) -> None:
        if self.state is not DeckState.CHECKED:
            raise RuleViolation(N_("Deck %(serial)s is not checked: a deck is played after its check in the pit "
                                   "boss's presence"), "THB-21", serial=self.serial)
        if place != self.place:
            raise RuleViolation(N_("Deck %(serial)s was issued to another table"), "THB-21", serial=self.serial)

    def can_put_in_play(self, place: str) -> bool:
        return _can(self.verify_put_in_play, place)

    def put_in_play(self, place: str) -> Deck:
        self.verify_put_in_play(place)
        return replace(self, state=DeckState.IN_PLAY)

    # --- retired (changed, the table closed) -------------------------------------------------------

    def verify_retire(self) -> None:
        if self.state not in AT_A_TABLE:
            raise RuleViolation(N_("Deck %(serial)s is not at a table"), "THB-21", serial=self.serial)

    def can_retire(self) -> bool:
        return _can(self.verify_retire)

    def retire(self, reason: str = "") -> Deck:
        self.verify_retire()
        return replace(self, state=DeckState.RETIRED, reason=(reason or "").strip()[:200])

    # --- defective (CC-72) -------------------------------------------------------------------------

    def verify_declare_defective(self, defect: str) -> None:
        if defect not in Defect._value2member_map_:
            raise RuleViolation(N_("A defective deck has two identical cards, cards with different backs, or "
                                   "missing or extra cards (or damaged or marked ones)"), "CC-72")
        if self.state not in AT_A_TABLE and self.state is not DeckState.RETIRED:
            raise RuleViolation(N_("Deck %(serial)s is %(state)s: it is not declared defective now"), "CC-72",
                                serial=self.serial, state=STATE_PHRASES[self.state])

    def can_declare_defective(self, defect: str) -> bool:
        return _can(self.verify_declare_defective, defect)

    def declare_defective(self, defect: str, reason: str = "") -> Deck:
        """Retired as defective, with its reason (CC-72); a retired deck later found marked is too."""
        self.verify_declare_defective(defect)
        return replace(self, state=DeckState.DEFECTIVE, defect=Defect(defect), reason=(reason or "").strip()[:200])

    # --- cancelled for destruction: counted, two signatures ---------------------------------------

    def verify_sign_cancellation(self, by: int | None, counted: int | None) -> None:
        if self.state not in OUT_OF_PLAY and self.state is not DeckState.CANCELLING:
            raise RuleViolation(N_("Deck %(serial)s is cancelled after it is retired"), "THB-21", serial=self.serial)
        if by is None:
            raise RuleViolation(N_("Each signature of a deck's cancellation is a person's"), "THB-21")
        if self.state is DeckState.CANCELLING:
            if by in self.signed_by:
                raise RuleViolation(N_("A deck's cancellation takes two signatures of two different people"),
                                    "THB-21")
            return
        if not isinstance(counted, int) or isinstance(counted, bool) or counted < 0:
            raise RuleViolation(N_("The deck is counted before its cancellation"), "THB-16")
        if counted != DECK_SIZE and self.state is not DeckState.DEFECTIVE:
            raise RuleViolation(N_("Deck %(serial)s counts %(counted)s cards, not 52: declare it defective first"),
                                "CC-72", serial=self.serial, counted=counted)

    def can_sign_cancellation(self, by: int | None, counted: int | None = None) -> bool:
        return _can(self.verify_sign_cancellation, by, counted)

    def sign_cancellation(self, by: int, counted: int | None = None) -> Deck:
        """The first signature records the count; the second, another person's, cancels the deck."""
        self.verify_sign_cancellation(by, counted)
        if self.state is DeckState.CANCELLING:
            return replace(self, state=DeckState.CANCELLED, signed_by=(*self.signed_by, by))
        return replace(self, state=DeckState.CANCELLING, counted=counted, signed_by=(by,))

    def to_dict(self) -> dict:
        return {"back": self.back, "design": self.design, "serial": self.serial, "state": self.state.value,
                "place": self.place, "issued_by": self.issued_by, "checked_by": self.checked_by,
                "defect": self.defect.value if self.defect else None, "reason": self.reason,
                "counted": self.counted, "signed_by": list(self.signed_by)}


def _can(verify, *args) -> bool:
    try:
        verify(*args)
    except RuleViolation:
        return False
    return True


# --- What a count finds (CC-72) -------------------------------------------------------------------


def defect_in(cards: list[str], backs: list[str] | None = None) -> Defect | None:
    """What a deck counted card by card shows (CC-72): two identical cards, different backs, missing or
    extra cards; None for a good deck."""
    if backs is not None and len(set(backs)) > 1:
        return Defect.DIFFERENT_BACKS
    if len(set(cards)) != len(cards):
        return Defect.DUPLICATE
    if len(cards) < DECK_SIZE:
        return Defect.MISSING
    if len(cards) > DECK_SIZE:
        return Defect.EXTRA
    return None


# --- A shuffler's two decks (THB-36) --------------------------------------------------------------


def verify_shuffler_pair(backs: list[str]) -> None:
    """A table with an automatic shuffler plays two decks, one red and one blue (THB-36)."""
    if sorted(b.strip().lower() for b in backs) != list(SHUFFLER_BACKS):
        raise RuleViolation(N_("A table with a shuffler plays two decks, one red and one blue"), "THB-36")


# --- When a tournament table's deck changes (C-17, TDA-26, CC-71, CC-76) ------------------------------


def verify_change_on(change_on: tuple[str, ...]) -> None:
    """The house's setting (C-17): one or more of the level's end, a dealer change, the director's word."""
    if not change_on or any(t not in CHANGE_TRIGGERS for t in change_on):
        raise RuleViolation(N_("The deck changes at the level's end, at a dealer change or when the director "
                               "says, as the house sets"), "C-17")


def verify_change(reason: str, change_on: tuple[str, ...] = DEFAULT_CHANGE_ON) -> None:
    """May the deck change for ``reason``? A player may not ask for one unless the deck is defective
    (CC-76, TDA-26); a defective deck always changes (CC-72); otherwise as the house sets (C-17)."""
    if reason == "defective":
        return
    if reason == "player":
        raise RuleViolation(N_("Players may not ask for a deck change unless the deck is defective"), "CC-76")
    if reason not in change_on:
        raise RuleViolation(N_("This house changes the deck only %(when)s"), "C-17",
                            when=", ".join(change_on))


def can_change(reason: str, change_on: tuple[str, ...] = DEFAULT_CHANGE_ON) -> bool:
    return _can(verify_change, reason, change_on)


def change_due(change_on: tuple[str, ...], *, level_in_play: int | None, level_now: int | None,
               dealer_in_play: int | None = None, dealer_now: int | None = None) -> str | None:
    """Why the table's deck must change before the next hand, or None: the level changed since the deck went
    into play (CC-71, TDA-26), or the dealer did (TDA-26), where the house changes it then (C-17)."""
    if "level" in change_on and level_in_play is not None and level_now is not None and level_now != level_in_play:
        return "level"
    if ("dealer_change" in change_on and dealer_in_play is not None and dealer_now is not None
            and dealer_now != dealer_in_play):
        return "dealer_change"
    return None
