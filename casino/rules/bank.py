"""The table's bank (the pit): its float, its fill and credit slips, its drop and the shift's result. Pure (no Django).

- **The float** (THB-70's *anticipo*): the chips in the tray by denomination, counted by the dealer and signed by
  the pit boss, at the opening and at the closing. A count is ``{denomination: chips}``, integers, only the
  house's denominations. A closing count must add up: the opening float, plus the fills received, minus the
  credits sent, plus the house's net of every settled hand, minus the chips sold for the drop. One that does not
  is refused until it is counted again, or signed with a reason (then the difference is the shift report's).
- **A slip** (a fill: chips from the cage to the table; a credit: chips back to the cage) is numbered, carries
  its amounts by denomination and takes four steps, each signed by a logged-in person of the step's role, and no
  one signs two steps of one slip (the house's dual control, design notes "Table games accounting facts"):

      fill:   requested (pit boss) -> issued (cage) -> carried (security) -> received (at the table)
      credit: requested (pit boss) -> released (at the table) -> carried (security) -> received (cage)

  A fill reaches the tray when it is received; a credit leaves it when it is released. A slip not used (only
  its request signed: no chip has left the cage or the tray) is voided by the pit boss with a reason, and a
  voided slip takes no more steps.
- **The shift's result** per table: win = drop + closing float - opening float + credits - fills, the hold =
  win / drop; it must equal the house's net of the hands recorded over the same sessions, to the chip.

The checklist has no clause for the bank's dual control beyond THB-70's float: the refusals cite THB-70 for
the float and the house's procedure (``HOUSE``) for the slips and the drop, as the decks cite THB-21's custody.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from casino.rules.errors import N_, Phrase, RuleViolation

#: The clause the float's refusals cite (THB-70: the float, *anticipo*, under the tray).
FLOAT = "THB-70"
#: The house's procedure (design notes, "Table games accounting facts"): slips and drop have no clause.
HOUSE = None

#: The house's chip denominations when a table's house options say none (``chip_denominations``).
DEFAULT_DENOMINATIONS = (1, 5, 25, 100, 500, 1000)


class SlipKind(StrEnum):
    FILL = "fill"
    CREDIT = "credit"


class SlipStep(StrEnum):
    REQUESTED = "requested"
    ISSUED = "issued"  # a fill: out of the cage
    RELEASED = "released"  # a credit: out of the tray
    CARRIED = "carried"
    RECEIVED = "received"
    VOIDED = "voided"  # an unused slip, by the pit boss with a reason: not a step of its chain


#: Who signs each step, in order: a step's role (a capability the people of that role hold).
PIT, CAGE, SECURITY, TABLE = "pit", "cage", "security", "table"
#: A step and a role as a refusal says them, in the reader's language (casino.i18n translates a Phrase).
STEP_PHRASES = {SlipStep.REQUESTED: Phrase(N_("requested")), SlipStep.ISSUED: Phrase(N_("issued by the cage")),
                SlipStep.RELEASED: Phrase(N_("released by the table")), SlipStep.CARRIED: Phrase(N_("carried")),
                SlipStep.RECEIVED: Phrase(N_("received")), SlipStep.VOIDED: Phrase(N_("voided"))}
ROLE_PHRASES = {PIT: Phrase(N_("pit boss")), CAGE: Phrase(N_("cage cashier")), SECURITY: Phrase(N_("security officer")),
                TABLE: Phrase(N_("table's dealer or pit boss"))}
STEPS = {
    SlipKind.FILL: ((SlipStep.REQUESTED, PIT), (SlipStep.ISSUED, CAGE), (SlipStep.CARRIED, SECURITY),
                    (SlipStep.RECEIVED, TABLE)),
    SlipKind.CREDIT: ((SlipStep.REQUESTED, PIT), (SlipStep.RELEASED, TABLE), (SlipStep.CARRIED, SECURITY),
                      (SlipStep.RECEIVED, CAGE)),
}


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def verify_chips(chips: dict, denominations: tuple[int, ...], *, clause: str | None = FLOAT) -> None:
    """A count by denomination: whole chips, none negative, only the house's denominations."""
    if not isinstance(chips, dict) or not chips:
        raise RuleViolation(N_("Count the chips by denomination"), clause)
    for denomination, count in chips.items():
        if not _is_count(denomination) or denomination not in denominations:
            raise RuleViolation(N_("%(denomination)s is not one of the house's chips (%(known)s)"), clause,
                                denomination=denomination, known=", ".join(str(d) for d in denominations))
        if not _is_count(count):
            raise RuleViolation(N_("A count is a whole number of chips, not %(count)s"), clause, count=count)


def total(chips: dict) -> int:
    """The value of a count by denomination, in chips (units of the table's currency)."""
    return sum(int(d) * int(n) for d, n in chips.items())


def parse_chips(fields: dict, denominations: tuple[int, ...]) -> dict[int, int]:
    """A screen's count (``{"25": "4", ...}``) as ``{25: 4}``; empty fields are none. Not a number:
    ValueError (the screens answer it as bad input)."""
    chips = {}
    for denomination in denominations:
        raw = fields.get(str(denomination))
        if raw in (None, ""):
            continue
        count = int(str(raw).strip())
        if count < 0:
            raise ValueError("a count is not negative")
        if count:
            chips[denomination] = count
    return chips


# --- The float (THB-70) ---------------------------------------------------------------------------


def verify_sign_float(*, counted_by: int | None, by: int | None) -> None:
    """The pit boss signs the dealer's count: a count is someone's, and the signature another person's."""
    if counted_by is None:
        raise RuleViolation(N_("The dealer counts the float before the pit boss signs it"), FLOAT)
    if by is None:
        raise RuleViolation(N_("The float is signed by a logged-in pit boss"), FLOAT)
    if by == counted_by:
        raise RuleViolation(N_("The float is counted by the dealer and signed by the pit boss: two people"), FLOAT)


def expected_closing(*, opening: int, fills: int, credits: int, hands: int, drop_chips: int) -> int:
    """What the tray must hold at the closing: the opening float, the fills received, less the credits sent,
    plus the house's net of every settled hand, less the chips sold for the drop."""
    return opening + fills - credits + hands - drop_chips


def verify_closing(counted: int, expected: int, reason: str = "") -> None:
    """A closing count that does not add up is refused, unless signed with a reason (THB-70's float)."""
    if counted != expected and not (reason or "").strip():
        raise RuleViolation(N_("The closing float counts %(counted)s but should hold %(expected)s (a difference of "
                               "%(difference)s): count it again, or sign it with a reason"), FLOAT,
                            counted=counted, expected=expected, difference=counted - expected)


def can_close(counted: int, expected: int, reason: str = "") -> bool:
    try:
        verify_closing(counted, expected, reason)
    except RuleViolation:
        return False
    return True


# --- A fill or credit slip --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slip:
    """A slip as its steps left it: its kind, its chips, and who signed each step so far (ids)."""

    kind: SlipKind
    chips: tuple[tuple[int, int], ...]
    signed: tuple[tuple[str, int], ...] = ()

    @classmethod
    def request(cls, kind: str, chips: dict, denominations: tuple[int, ...], by: int | None) -> Slip:
        if kind not in SlipKind._value2member_map_:
            raise RuleViolation(N_("A slip is a fill or a credit"), HOUSE)
        verify_chips(chips, denominations, clause=HOUSE)
        if total(chips) <= 0:
            raise RuleViolation(N_("A slip carries chips"), HOUSE)
        slip = cls(kind=SlipKind(kind), chips=tuple(sorted((int(d), int(n)) for d, n in chips.items() if n)))
        return slip.sign(SlipStep.REQUESTED, PIT, by)

    @property
    def amount(self) -> int:
        return total(dict(self.chips))

    @property
    def voided(self) -> bool:
        return any(step == SlipStep.VOIDED for step, _by in self.signed)

    @property
    def next_step(self) -> tuple[SlipStep, str] | None:
        """The step to sign next and its role; None once all are signed, or the slip voided."""
        steps = STEPS[self.kind]
        return steps[len(self.signed)] if len(self.signed) < len(steps) and not self.voided else None

    @property
    def state(self) -> str:
        return self.signed[-1][0] if self.signed else "new"

    @property
    def complete(self) -> bool:
        """Has it taken all its steps? (A voided slip has not: it stopped.)"""
        return self.next_step is None and not self.voided

    @property
    def in_tray(self) -> bool:
        """Has it moved the tray's chips? A fill once received, a credit once released."""
        moved = SlipStep.RECEIVED if self.kind is SlipKind.FILL else SlipStep.RELEASED
        return any(step == moved for step, _by in self.signed)

    def verify_sign(self, step: str, role: str, by: int | None) -> None:
        if self.voided:
            raise RuleViolation(N_("This slip is void: it takes no more steps"), HOUSE)
        upcoming = self.next_step
        if upcoming is None:
            raise RuleViolation(N_("This slip has taken all its steps"), HOUSE)
        if step != upcoming[0]:
            raise RuleViolation(N_("This slip's next step is %(next)s, not %(step)s"), HOUSE,
                                next=STEP_PHRASES[upcoming[0]], step=STEP_PHRASES.get(step, step))
        if role != upcoming[1]:
            raise RuleViolation(N_("The step %(step)s is signed by the %(role)s"), HOUSE,
                                step=STEP_PHRASES.get(step, step), role=ROLE_PHRASES[upcoming[1]])
        if by is None:
            raise RuleViolation(N_("Every step of a slip is signed by a logged-in person"), HOUSE)
        if any(signer == by for _step, signer in self.signed):
            raise RuleViolation(N_("No one signs two steps of one slip: you signed it already"), HOUSE)

    def can_sign(self, step: str, role: str, by: int | None) -> bool:
        try:
            self.verify_sign(step, role, by)
        except RuleViolation:
            return False
        return True

    def sign(self, step: str, role: str, by: int) -> Slip:
        self.verify_sign(step, role, by)
        return replace(self, signed=(*self.signed, (SlipStep(step).value, by)))

    def verify_void(self, role: str, by: int | None, reason: str) -> None:
        """An unused slip is voided by the pit boss, saying why: one whose request only is signed, so that no
        chip has left the cage (a fill) or the tray (a credit). Once its chips move, the slip runs its course."""
        if self.voided:
            raise RuleViolation(N_("This slip is void already"), HOUSE)
        if len(self.signed) != 1:
            raise RuleViolation(N_("Only a slip not yet issued or released is voided: this one is %(state)s"), HOUSE,
                                state=STEP_PHRASES[SlipStep(self.state)])
        if role != PIT:
            raise RuleViolation(N_("A slip is voided by the %(role)s"), HOUSE, role=ROLE_PHRASES[PIT])
        if by is None:
            raise RuleViolation(N_("A slip is voided by a logged-in person"), HOUSE)
        if not (reason or "").strip():
            raise RuleViolation(N_("Say why the slip is voided"), HOUSE)

    def can_void(self, role: str, by: int | None, reason: str = "-") -> bool:
        try:
            self.verify_void(role, by, reason)
        except RuleViolation:
            return False
        return True

    def void(self, role: str, by: int, reason: str) -> Slip:
        self.verify_void(role, by, reason)
        return replace(self, signed=(*self.signed, (SlipStep.VOIDED.value, by)))


# --- The drop ---------------------------------------------------------------------------------------


class DropKind(StrEnum):
    CASH = "cash"
    MARKER = "marker"


def verify_drop(kind: str, amount, *, markers_allowed: bool) -> None:
    """Cash (or a marker, where the house allows) exchanged for chips at the table: a whole positive amount."""
    if kind not in DropKind._value2member_map_:
        raise RuleViolation(N_("The drop is cash or a marker"), HOUSE)
    if kind == DropKind.MARKER and not markers_allowed:
        raise RuleViolation(N_("This house takes no markers at its tables"), HOUSE)
    if not _is_count(amount) or amount <= 0:
        raise RuleViolation(N_("The drop is a whole amount above zero"), HOUSE)


# --- The shift's result ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's shift: the counted win, the hold, the hands' result and the difference."""

    opening: int
    closing: int
    fills: int
    credits: int
    drop: int
    hands: int

    @property
    def win(self) -> int:
        return self.drop + self.closing - self.opening + self.credits - self.fills

    @property
    def hold(self) -> float | None:
        """win / drop, None without a drop."""
        return self.win / self.drop if self.drop else None

    @property
    def difference(self) -> int:
        """The counted win less the hands' result: 0 when they agree to the chip."""
        return self.win - self.hands

    def __add__(self, other: TableResult) -> TableResult:
        return TableResult(*(getattr(self, f) + getattr(other, f) for f in
                             ("opening", "closing", "fills", "credits", "drop", "hands")))

    def to_dict(self) -> dict:
        return {"opening": self.opening, "closing": self.closing, "fills": self.fills, "credits": self.credits,
                "drop": self.drop, "win": self.win, "hold": self.hold, "hands": self.hands,
                "difference": self.difference}


ZERO = TableResult(0, 0, 0, 0, 0, 0)
