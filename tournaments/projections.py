"""What one viewer may see of a hand (C-33): the phones at a dealt table get the hand's public summary
(``table_for_phones``: the street, the pot, the stacks by seat, whose turn, the clock called on a seat, the time to
act, the acts out of turn and their rulings), never a card and never an entry's name or number; each phone draws
its own seat's part of it."""

from __future__ import annotations

from datetime import datetime, timedelta


def epoch_ms(at: datetime | None) -> int | None:
    return None if at is None else round(at.timestamp() * 1000)


def entry_number(entry) -> int:
    """The number an entry is known by on its phone and receipts (its id before it has one)."""
    return getattr(entry, "number", None) or entry.pk


def table_for_phones(table: int, version: int, summary: dict | None, action_seconds: int = 60) -> dict:
    """What every phone at a dealt table may see of its latest hand (C-33), the same for all of them: the
    street, the pot, the stacks by seat, the seats dealt in, whose turn and the clock called on a seat
    (C-04), the seat in turn's time to act (CC-114: ``action_seconds`` from when the action reached it; none at
    0, TDA-29, or while the clock is called), the acts out of turn waiting at their seats and what the rules or
    the director leave the seat in turn (TDA-53, CC-134, CC-135, C-08: all said aloud at the table). No card
    (dealer-driven hands record none) and no entry: each phone draws its own seat's part, and only its own
    (``static/js/tournament_phone_hand.js``). ``summary``: the table's (``hand_reads.summary_of``), None before
    its first hand."""
    hand = None
    if summary is not None:
        clock = summary.get("clock")
        since = summary.get("acting_since")
        timed = None
        if since is not None and clock is None and summary["to_act"] is not None and action_seconds > 0:
            timed = {"seat": summary["to_act"], "seconds": action_seconds,
                     "ends_ms": epoch_ms(datetime.fromisoformat(since) + timedelta(seconds=action_seconds))}
        hand = {
            "hand": summary["hand"], "in_play": summary["in_play"], "street": summary["street"],
            "pot": summary["pot"], "to_act": summary["to_act"],
            "stacks": {str(seat): stack for seat, stack in sorted(summary["stacks"].items())},
            "dealt": sorted(int(seat) for seat in summary.get("entries", {})),
            "clock": None if clock is None else {
                "seat": clock["seat"], "ends_ms": epoch_ms(datetime.fromisoformat(clock["ends_at"])),
                "seconds": clock["seconds"], "countdown": clock["countdown"]},
            "time_to_act": timed,
            "out_of_turn": [{"seat": o["seat"], "act": o["act"], "to": o["to"]}
                            for o in summary.get("out_of_turn", ())],
            "binding": summary.get("binding"),
            "skipped": summary.get("skipped"),
        }
    return {"table": table, "version": version, "hand": hand}
