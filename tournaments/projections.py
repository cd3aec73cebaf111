"""What one viewer may see of a hand (C-33): a player's phone gets its own part of the hand its player is dealt
in (``HandAtSeat``: the street, the pot, its stack, whose turn, the clock called on it), never a card and never
another seat's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext_lazy as _

from casino.memo import BoundedCache
from tournaments.models import DealtTable
from tournaments.reads import hands as hand_reads
from tournaments.reads.event import Board


def epoch_ms(at: datetime | None) -> int | None:
    return None if at is None else round(at.timestamp() * 1000)


def entry_number(entry) -> int:
    """The number an entry is known by on its phone and receipts (its id before it has one)."""
    return getattr(entry, "number", None) or entry.pk


#: The phone's part of the hand its player is dealt in (C-33: read-only, their own): the street, the pot,
#: their stack, whose turn, the clock called on them (C-04). No card: dealer-driven hands record none.
@dataclass(frozen=True, slots=True)
class HandAtSeat:
    table: int
    hand: int
    in_play: bool
    street: str
    pot: int
    seat: int
    stack: int
    to_act: int | None
    clock_ends_ms: int | None = None  # the clock called on this player: when it runs out
    clock_seconds: int | None = None
    clock_countdown: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.in_play and self.to_act == self.seat


_STREETS = {"preflop": _("Pre-flop"), "flop": _("Flop"), "turn": _("Turn"), "river": _("River")}


def street_label(street: str):
    return _STREETS.get(street, street)


def hand_at_seat(board: Board, number: int) -> HandAtSeat | None:
    """In a worker thread: the hand at the entry's table as its phone shows it (the table's summary, read
    once per table version in the process: ``hand_reads.table_summary``); None when the entry is not seated,
    its table is not dealt from a tablet, or it is not dealt in."""
    seat = board.seats.get(number)
    # unordered: one row at most (as the tablet's read, tablet._table)
    table = DealtTable.objects.filter(tournament_id=board.tournament_id, number=seat.table).order_by().first() \
        if seat is not None else None
    hand = hands_in(hand_reads.table_summary(table) if table is not None else None).get(number)
    remember_hand(board.tournament_id, number, table, hand)
    return hand


def hands_in(summary: dict | None) -> dict[int, HandAtSeat]:
    """Each entry dealt in at a table's latest hand (its summary): that entry's part of it."""
    if summary is None:
        return {}
    clock = summary.get("clock")
    hands = {}
    for seat, entry in summary.get("entries", {}).items():
        on_me = clock is not None and clock["seat"] == seat
        hands[entry] = HandAtSeat(
            table=summary["number"], hand=summary["hand"], in_play=summary["in_play"], street=summary["street"],
            pot=summary["pot"], seat=seat, stack=summary["stacks"].get(seat, 0), to_act=summary["to_act"],
            clock_ends_ms=epoch_ms(datetime.fromisoformat(clock["ends_at"])) if on_me else None,
            clock_seconds=clock["seconds"] if on_me else None, clock_countdown=clock["countdown"] if on_me else None)
    return hands


# The hand each entry's phone last showed in this process (its socket's), with the table and the table's
# version it was read at: a push of the event rendered from memory keeps showing it; a tap at the entry's
# table brings the new one (the entry's group), never an older one than the phone already showed.
_hands_shown: BoundedCache[tuple[tuple[int, int] | None, HandAtSeat | None]] = BoundedCache(4096)


def remember_hand(tournament_id: int, number: int, table, hand: HandAtSeat | None) -> bool:
    """Keep ``hand`` as the entry's (read at ``table``'s version); False if a later read of that table
    is kept already (a tap's news that arrived after a fresher read)."""
    read_at = (table.pk, table.version) if table is not None else None
    kept = _hands_shown.get((tournament_id, number))
    kept_at = kept[0] if kept is not None else None
    if read_at and kept_at and kept_at[0] == read_at[0] and kept_at[1] > read_at[1]:
        return False  # the same table, read at a later version
    _hands_shown.put((tournament_id, number), (read_at, hand))
    return True


def hand_shown(tournament_id: int, number: int) -> HandAtSeat | None:
    kept = _hands_shown.get((tournament_id, number))
    return kept[1] if kept is not None else None
