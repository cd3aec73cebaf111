"""Every tournament's record against what the audit log recorded for it (``manage.py verify_audit``).

The record is replayed to know the tournament and exported as its history: whoever could rewrite one
of its rows (a bust, a seat, a prize) would rewrite the event. Each write audited, in the same
transaction, a digest of the events it appended (``tournament.record``: first and last seq, sha256 of
their canonical JSON); the audit chain is keyed and anchored outside the database, so the rows must
still say what the log says, every event covered once.
"""

from __future__ import annotations

from casino.models import AuditEvent
from tournaments.models import Tournament
from tournaments.services import record_digest, tournament_record

PREFIX = "tournaments.tournament."


def _tournaments(stream: str | None):
    tournaments = Tournament.objects.order_by("pk")
    if stream is None:
        return tournaments
    if not stream.startswith(PREFIX) or not stream[len(PREFIX):].isdigit():
        return tournaments.none()
    return tournaments.filter(pk=int(stream[len(PREFIX):]))


def verify_tournaments(stream: str | None = None) -> tuple[int, list[str]]:
    """Compare each tournament's record with its ``tournament.record`` audit events.
    Returns (tournaments checked, problems)."""
    checked, problems = 0, []
    for tournament in _tournaments(stream):
        checked += 1
        events = tournament_record(tournament)
        where = f"tournament {tournament.pk} ({tournament.name})"
        covered = 0
        logged = AuditEvent.objects.filter(stream=f"{PREFIX}{tournament.pk}", action="tournament.record")
        for audit in logged.order_by("seq"):
            first, last = int(audit.details.get("first", 0)), int(audit.details.get("last", 0))
            if first != covered + 1 or last < first:
                problems.append(f"{where}: the log's events {first}..{last} do not follow {covered}")
            if record_digest(events[first - 1:last]) != audit.details.get("sha256"):
                problems.append(f"{where}: events {first}..{last} differ from what the log recorded")
            covered = max(covered, last)
        if covered != len(events):
            problems.append(f"{where}: the record has {len(events)} events, the log covers {covered}")
    return checked, problems
