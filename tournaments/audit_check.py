"""Every tournament's record against what the audit log recorded for it (``manage.py verify_audit``).

The record is replayed to know the tournament and exported as its history: whoever could rewrite one
of its rows (a bust, a seat, a prize) would rewrite the event. Each write audited, in the same
transaction, a digest of the events it appended (``tournament.record``: first and last seq, sha256 of
their canonical JSON); the audit chain is keyed and anchored outside the database, so the rows must
still say what the log says, every event covered once.
"""

from __future__ import annotations

from casino import reads
from casino.audit import CASINO_STREAM
from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from tournaments.digests import (
    HAND_FIELDS,
    action_row,
    exclusion_list_digest,
    hand_digests,
    player_digest,
    record_digest,
)
from tournaments.models import DealtTable, Entry, TableHand, TableHandAction, Tournament, TournamentEvent
from tournaments.reads.event import tournament_record
from tournaments.reads.hands import hand_state

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


# --- The rows that decide money, who is paid, who may play and who deals (issue #34, item 2) --------------
#
# The dealt hands' actions and the ID checks are append-only (database triggers); a hand's own row, the
# dealer on duty, the players and the exclusion list change through the services, each change audited with
# what it left (tournaments.digests). Rows or events from before those digests are not checked by them.

HAND_PREFIX = "tournaments.dealttable."
HAND_STARTED = "tournament.table_hand_started"


def _table_id(stream: str | None) -> int | None:
    if stream is None or not stream.startswith(HAND_PREFIX) or not stream[len(HAND_PREFIX):].isdigit():
        return None
    return int(stream[len(HAND_PREFIX):])


def _dealt_hands(stream: str | None):
    hands = TableHand.objects.order_by("pk").select_related("table")
    if stream is None:
        return hands
    table = _table_id(stream)
    return hands.none() if table is None else hands.filter(table_id=table)


def verify_dealt_hands(stream: str | None = None, *, chunk: int = 200) -> tuple[int, list[str]]:
    """Compare every dealt tournament hand (or one table's) with its audit events: each stored action row
    must be one the log lists, with the same record, undo, reason and author; the hand's entries, level,
    setup and rules must digest to what its last event recorded; its actions must replay to its phase.
    Returns (hands checked, problems)."""
    checked, problems = 0, []
    ids = list(_dealt_hands(stream).values_list("pk", flat=True))
    for start in range(0, len(ids), chunk):
        batch = ids[start:start + chunk]
        rows: dict[int, list[TableHandAction]] = {}
        for row in TableHandAction.objects.filter(hand_id__in=batch).select_related("undoes").order_by("hand_id",
                                                                                                       "seq"):
            rows.setdefault(row.hand_id, []).append(row)
        events: dict[int, list[AuditEvent]] = {}
        for event in AuditEvent.objects.filter(object_type="tournaments.tablehand",
                                               object_id__in=[str(pk) for pk in batch]).order_by("stream", "seq"):
            events.setdefault(int(event.object_id), []).append(event)
        hands = list(_dealt_hands(stream).filter(pk__in=batch))
        reports = {(t, seq): (kind, data) for t, seq, kind, data in TournamentEvent.objects.filter(
            tournament_id__in={h.table.tournament_id for h in hands},
            seq__in={h.reported_seq for h in hands if h.reported_seq is not None},
        ).values_list("tournament_id", "seq", "type", "data")}
        for hand in hands:
            found = _compare_hand(hand, rows.get(hand.pk, []), events.get(hand.pk, []))
            if found is not None and hand.reported_seq is not None:
                found += _reported(hand, reports.get((hand.table.tournament_id, hand.reported_seq)))
            if found is not None:
                checked += 1
                problems += found
    return checked, problems


def _compare_hand(hand: TableHand, rows: list[TableHandAction], events: list[AuditEvent]) -> list[str] | None:
    """The problems of one hand; None for a hand dealt before its events listed their rows (not checked)."""
    where = f"tournament {hand.table.tournament_id}, table {hand.table.number}, hand {hand.number} (id {hand.pk})"
    started = [e for e in events if e.action == HAND_STARTED]
    if len(started) == 1 and "rows" not in started[0].details:
        return None
    problems = []
    if len(started) != 1:
        problems.append(f"{where}: the audit log has {len(started)} {HAND_STARTED} events for it, not 1")
    elif started[0].details.get("hand") != hand.number:
        problems.append(f"{where}: its number differs from the one audited when it started")
    elif started[0].details.get("deck_id") != hand.deck_id:
        # issue #39: the deck it was dealt with, as its start audited it (a deck later found marked lists it)
        problems.append(f"{where}: its deck differs from the one audited when it started")
    if any(e.stream != f"{HAND_PREFIX}{hand.table_id}" for e in events):
        problems.append(f"{where}: some of its audit events are in another table's stream")
    logged: dict[int, tuple[dict, AuditEvent]] = {}
    for event in events:
        for listed in event.details.get("rows", ()):
            logged[listed.get("seq")] = (listed, event)
    for row in rows:
        what = f"{where}, action #{row.seq} ({row.record.get('action')})"
        found = logged.pop(row.seq, None)
        if found is None:
            problems.append(f"{what}: the audit log never recorded this action")
        elif found[0] != action_row(row) or found[1].actor_id != row.by_id:
            problems.append(f"{what}: the stored action differs from the one the audit log recorded")
    for seq in sorted(logged, key=str):
        problems.append(f"{where}: the audit log recorded action #{seq}, which the stored hand lacks")
    fields = next((e.details["hand_fields"] for e in reversed(events) if "hand_fields" in e.details), None)
    if fields is not None:
        now = hand_digests(hand)
        for name in HAND_FIELDS:
            if fields.get(name) != now[name]:
                problems.append(f"{where}: the hand's {name} field is not what the audit log recorded at its last "
                                "write")
    return problems + _replayed_phase(hand, rows, where)


def _reported(hand: TableHand, report: tuple[str, dict] | None) -> list[str]:
    """The record's event a hand names as its report must be this hand's: an undo withdraws that event."""
    kind, data = report or ("", {})
    if kind != "hand" or data.get("table") != hand.table.number or data.get("hand") != hand.number:
        return [f"tournament {hand.table.tournament_id}, table {hand.table.number}, hand {hand.number} (id {hand.pk}): "
                f"event #{hand.reported_seq} of the record, which it names as its report, is not its report"]
    return []


def _replayed_phase(hand: TableHand, rows: list[TableHandAction], where: str) -> list[str]:
    try:
        phase = hand_state(hand, reads.effective_rows(rows)).phase.value
    except (RuleViolation, ValueError, KeyError, TypeError) as error:
        return [f"{where}: its stored actions no longer replay: {error}"]
    if phase != hand.phase:
        return [f"{where}: its stored phase ({hand.phase}) is not what its actions replay to ({phase})"]
    return []


def verify_dealers(stream: str | None = None) -> tuple[int, list[str]]:
    """Each dealt table's dealer on duty must be the one the log assigned it last (nobody, if none was).
    Returns (tables checked, problems)."""
    tables = DealtTable.objects.order_by("pk").select_related("dealer")
    if stream is not None:
        table = _table_id(stream)
        tables = tables.none() if table is None else tables.filter(pk=table)
    last: dict[str, dict] = {}
    assigned = AuditEvent.objects.filter(action="tournament.table_dealer_assigned", stream__startswith=HAND_PREFIX)
    for name, details in assigned.order_by("stream", "seq").values_list("stream", "details"):
        last[name] = details
    checked, problems = 0, []
    for table in tables:
        checked += 1
        details = last.get(f"{HAND_PREFIX}{table.pk}", {"dealer": None, "dealer_id": None})
        if "dealer_id" in details:
            same = details["dealer_id"] == table.dealer_id
        else:  # assigned before the id was audited: by the username
            same = details.get("dealer") == (table.dealer.get_username() if table.dealer is not None else None)
        if not same:
            on_duty = table.dealer.get_username() if table.dealer is not None else None
            problems.append(f"tournament {table.tournament_id}, table {table.number}: its dealer on duty ({on_duty}) "
                            f"is not the one the audit log assigned it last ({details.get('dealer')})")
    return checked, problems


def verify_players(stream: str | None = None) -> tuple[int, list[str]]:
    """Each entry's player must be the one the log recorded at its registration, and each player's name, ID
    document and birth date what the log recorded last for him (the ID checks at the desk and
    at the prize payment compare the document shown with these, CC-24, CC-15). Returns (entries checked,
    problems)."""
    entries = Entry.objects.order_by("pk").select_related("player")
    if stream is not None:
        tournament = _tournaments(stream).values_list("pk", flat=True).first()
        entries = entries.none() if tournament is None else entries.filter(tournament_id=tournament)
    registered: dict[int, dict] = {}
    logged = AuditEvent.objects.filter(action="tournament.registered", object_type="tournaments.entry")
    for object_id, details in logged.order_by("at", "pk").values_list("object_id", "details"):
        registered[int(object_id)] = details
    # player -> (the digest, the event) last audited for him: at a registration, or by any later write that
    # changes a player and audits ``player`` and ``player_sha256`` as registrations do
    latest: dict[int, tuple[str, str]] = {}
    identities = AuditEvent.objects.filter(details__has_key="player_sha256").order_by("at", "pk")
    for stream, seq, details in identities.values_list("stream", "seq", "details"):
        latest[details.get("player")] = (details["player_sha256"], f"event #{seq} of stream {stream}")
    checked, problems, players = 0, [], {}
    for entry in entries:
        where = f"tournament {entry.tournament_id}, entry {entry.number}"
        details = registered.get(entry.pk)
        if details is None:
            problems.append(f"{where}: the audit log never recorded its registration")
            continue
        if "player" not in details:  # registered before the player was audited
            continue
        checked += 1
        if details["player"] != entry.player_id:
            problems.append(f"{where}: its player (id {entry.player_id}) is not the one the audit log recorded at "
                            f"its registration (id {details['player']})")
        elif entry.player is not None:
            players[entry.player_id] = entry.player
    for pk, player in sorted(players.items()):
        sha256, event = latest.get(pk, ("", "none"))
        if sha256 != player_digest(player):
            problems.append(f"player {pk}: the name, ID document or birth date differ from those the audit log "
                            f"recorded last ({event})")
    return checked, problems


def verify_exclusion_list(stream: str | None = None) -> tuple[int, list[str]]:
    """The exclusion list (CC-23) must be the one its last import left, by the digest the log recorded then.
    Returns (list entries checked, problems)."""
    if stream not in (None, CASINO_STREAM):
        return 0, []
    count, sha256 = exclusion_list_digest()
    last = (AuditEvent.objects.filter(stream=CASINO_STREAM, action="tournament.exclusion_list_imported")
            .order_by("-seq").first())
    if last is None:
        return count, ([f"the exclusion list has {count} entries but the audit log recorded no import of it"]
                       if count else [])
    details = last.details
    recorded = details.get("entries", details.get("rows"))  # "rows": an import from before the digest
    if recorded is None:
        return count, [f"the exclusion list's last import (audited at {last.at:%Y-%m-%d %H:%M}) recorded neither "
                       "its entries nor their digest: the list cannot be checked"]
    if ("sha256" in details and details["sha256"] != sha256) or recorded != count:
        return count, [f"the exclusion list ({count} entries) is not the one its last import left ({recorded} "
                       f"entries, audited at {last.at:%Y-%m-%d %H:%M}): an entry was added, changed or deleted since"]
    return count, []
