"""What the audit log keeps of the tournament rows that change legitimately (issue #34, item 2).

A hand's state, a player's identity and the exclusion list are rewritten by the services (a clock
called, a consent given, a new list imported), so they cannot be append-only. Each write that changes
one audits, in the same transaction, a digest of the fields that decide money, who is paid, who may
play or who deals; the audit chain is keyed and anchored outside the database, so ``verify_audit``
(tournaments.audit_check) recomputes the digests from the rows as they stand and compares.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tournaments.models import ExclusionListEntry

#: A dealt hand's fields that the replay and the report take as given: who is dealt in, the level and
#: blinds (with the clock, the penalties, the board's release), its table setup and house rules.
HAND_FIELDS = ("entries", "level", "setup", "rules")


def digest(value: Any) -> str:
    """sha256 of ``value``'s canonical JSON (dates as ISO text)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def hand_digests(hand) -> dict[str, str]:
    """One digest per deciding field of a ``TableHand``, so that ``verify_audit`` names the field changed."""
    return {name: digest(getattr(hand, name)) for name in HAND_FIELDS}


def action_row(row) -> dict[str, Any]:
    """A ``TableHandAction`` as its write's audit event lists it (``undoes``: the number of the row undone)."""
    undoes = row.undoes.seq if row.undoes_id is not None else None
    return {"seq": row.seq, "record": row.record, "undoes": undoes, "reason": row.reason}


def player_digest(player) -> str:
    """The player's identity as the ID checks and the prize payment compare it (CC-24, CC-15)."""
    return digest([player.name, player.id_type, player.id_number, player.birth_date])


def exclusion_list_digest() -> tuple[int, str]:
    """(entries, digest) of the casino's exclusion list (CC-23) as it stands, in a stable order."""
    hashed, count = hashlib.sha256(), 0
    rows = (ExclusionListEntry.objects.order_by("id_type", "id_number", "kind", "listed_on", "pk")
            .values_list("id_type", "id_number", "kind", "listed_on"))
    for id_type, id_number, kind, listed_on in rows.iterator(chunk_size=5000):
        hashed.update(json.dumps([id_type, id_number, kind, listed_on], default=str).encode() + b"\n")
        count += 1
    return count, hashed.hexdigest()


def record_digest(events: list[dict]) -> str:
    """A digest of record events (canonical JSON), as the audit log keeps it for each write."""
    text = json.dumps(events, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
