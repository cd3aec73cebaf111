"""What one viewer may see of a hand (C-33): the phones at a dealt table get the hand's public summary
(``table_for_phones``: the street, the pot, the stacks by seat, whose turn, the clock called on a seat), never a
card and never an entry's name or number; each phone draws its own seat's part of it."""

from __future__ import annotations

from datetime import datetime


def epoch_ms(at: datetime | None) -> int | None:
    return None if at is None else round(at.timestamp() * 1000)


def entry_number(entry) -> int:
    """The number an entry is known by on its phone and receipts (its id before it has one)."""
    return getattr(entry, "number", None) or entry.pk


def table_for_phones(table: int, version: int, summary: dict | None) -> dict:
    """What every phone at a dealt table may see of its latest hand (C-33), the same for all of them: the
    street, the pot, the stacks by seat, the seats dealt in, whose turn and the clock called on a seat
    (C-04). No card (dealer-driven hands record none) and no entry: each phone draws its own seat's part
    (``static/js/tournament_phone_hand.js``). ``summary``: the table's (``hand_reads.summary_of``), None
    before its first hand."""
    hand = None
    if summary is not None:
        clock = summary.get("clock")
        hand = {
            "hand": summary["hand"], "in_play": summary["in_play"], "street": summary["street"],
            "pot": summary["pot"], "to_act": summary["to_act"],
            "stacks": {str(seat): stack for seat, stack in sorted(summary["stacks"].items())},
            "dealt": sorted(int(seat) for seat in summary.get("entries", {})),
            "clock": None if clock is None else {
                "seat": clock["seat"], "ends_ms": epoch_ms(datetime.fromisoformat(clock["ends_at"])),
                "seconds": clock["seconds"], "countdown": clock["countdown"]},
        }
    return {"table": table, "version": version, "hand": hand}
