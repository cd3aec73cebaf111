"""Every hand's stored record against what the audit log recorded for it (``manage.py verify_audit``).

A hand is rebuilt by replaying its ``HandAction`` rows, so whoever could rewrite one row (a bet, a
card) would rewrite the game and its payouts. Each row was audited in the same transaction that wrote
it (``hand.action``, with the record; a shoe's order only as its hash), and the audit chain is keyed
and anchored outside the database: the rows must still say what the log says.
"""

from __future__ import annotations

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import replay
from tables.models import Hand, HandAction
from tables.reads import effective_rows, rules_of
from tables.services import audit_details, replayed_columns

HAND_EVENTS = ("hand.started", "hand.action", "hand.action_undone")


def _hands(stream: str | None):
    hands = Hand.objects.order_by("pk").select_related("table")
    if stream is None:
        return hands
    prefix = "tables.table."
    if not stream.startswith(prefix) or not stream[len(prefix):].isdigit():
        return hands.none()
    return hands.filter(table_id=int(stream[len(prefix):]))


def verify_hands(stream: str | None = None, *, chunk: int = 200) -> tuple[int, list[str]]:
    """Compare every hand (or the hands of one table's stream) with its audit events.
    Returns (hands checked, problems)."""
    checked, problems = 0, []
    ids = list(_hands(stream).values_list("pk", flat=True))
    for start in range(0, len(ids), chunk):
        batch = ids[start:start + chunk]
        hands = _hands(stream).filter(pk__in=batch)
        rows: dict[int, list[HandAction]] = {}
        for row in HandAction.objects.filter(hand_id__in=batch).select_related("undoes").order_by("hand_id", "seq"):
            rows.setdefault(row.hand_id, []).append(row)
        events: dict[int, list[AuditEvent]] = {}
        for event in AuditEvent.objects.filter(object_type="tables.hand", action__in=HAND_EVENTS,
                                               object_id__in=[str(pk) for pk in batch]).order_by("stream", "seq"):
            events.setdefault(int(event.object_id), []).append(event)
        for hand in hands:
            checked += 1
            problems += _compare(hand, rows.get(hand.pk, []), events.get(hand.pk, []))
    return checked, problems


def _compare(hand: Hand, rows: list[HandAction], events: list[AuditEvent]) -> list[str]:
    where = f"table {hand.table.name}, hand {hand.number} (id {hand.pk})"
    problems = []
    started = [e for e in events if e.action == "hand.started"]
    if len(started) != 1:
        problems.append(f"{where}: the audit log has {len(started)} hand.started events for it, not 1")
    else:
        details = started[0].details
        if details.get("hand") != hand.number or details.get("mode") != hand.mode or (
            "rules" in details and details["rules"] != hand.rules
        ):
            problems.append(f"{where}: its number, mode or rules differ from those audited when it started")
    if any(e.stream != f"tables.table.{hand.table_id}" for e in events):
        problems.append(f"{where}: some of its audit events are in another table's stream")
    actions = {e.details.get("seq"): e for e in events if e.action == "hand.action"}
    undone = {e.details.get("seq"): e for e in events if e.action == "hand.action_undone"}
    for row in rows:
        what = f"{where}, action #{row.seq} ({row.kind})"
        if row.kind == HandAction.UNDO:
            target = row.undoes.seq if row.undoes else None
            event = undone.pop(target, None)
            if event is None:
                problems.append(f"{what}: the audit log never recorded this undo")
            elif row.record != {"action": HandAction.UNDO, "seq": target} or event.details.get("reason") != row.reason:
                problems.append(f"{what}: the stored undo differs from the one the audit log recorded")
            continue
        event = actions.pop(row.seq, None)
        if event is None:
            problems.append(f"{what}: the audit log never recorded this action")
        elif (event.details.get("record") != audit_details(row.record) or row.record.get("action") != row.kind
              or event.actor_id != row.actor_id):
            problems.append(f"{what}: the stored action differs from the one the audit log recorded")
    for seq in sorted(actions, key=str):
        problems.append(f"{where}: the audit log recorded action #{seq}, which the stored hand lacks")
    for seq in sorted(undone, key=str):
        problems.append(f"{where}: the audit log recorded an undo of action #{seq}, which the stored hand lacks")
    return problems + _replayed_result(hand, rows, where)


def _replayed_result(hand: Hand, rows: list[HandAction], where: str) -> list[str]:
    """The hand's stored result (which reports add up) must be what its stored actions replay to."""
    try:
        state = replay(rules_of(hand), [row.record for row in effective_rows(rows)])
    except (RuleViolation, ValueError, KeyError, TypeError) as error:
        return [f"{where}: its stored actions no longer replay: {error}"]
    stored = {name: getattr(hand, name) for name in ("phase", "pending_approvals", "house_net")}
    replayed = replayed_columns(state)
    if stored != replayed:
        return [f"{where}: its stored result ({stored}) is not what its actions replay to ({replayed})"]
    return []
