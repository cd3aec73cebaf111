"""What a Texas Hold'em Bonus table's screens read: its snapshot per version, its hands replayed, its
links, its pit's approvals and alerts. No lock and no write: the commands are in ``tables.services``
(the hands) and ``tables.sessions`` (opening, closing, the players at the boxes).

The per-version machinery is the core's (``casino.reads``, which also states the one invalidation
rule of every cache here): this module says what a table's snapshot is and how PostgreSQL gives it.

- ``hand_state(hand)``: the hand as the engine sees it, its rows replayed (``casino.reads.ReplayedStates``);
- ``snapshot_from_db``, ``snapshot_in_process``, ``snapshot_from_redis``, ``snapshot_anywhere``: the
  table, its live session, latest hand and state at one version, from where each name says;
- ``watching_links(table, version)``: the player links that may watch the table's boxes at a version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext

from casino import player_links, reads
from casino.i18n import explain_note
from casino.reads import effective_rows
from casino.rules import rotation as rotation_engine
from casino.rules.errors import N_, Note, RuleViolation
from casino.rules.holdem_bonus import HandState, Phase, TableRules, replay
from casino.rules.holdem_bonus.paytable import Paytable
from casino.rules.holdem_bonus.record import record_from_state
from tables.labels import AWARD_LABELS
from tables.models import (
    BOX_NUMBERS,
    Alert,
    Box,
    Hand,
    HandAction,
    Pit,
    Seating,
    Table,
    TableSession,
    max_ante_multiple,
    resolve_paytable,
    table_rules,
)

__all__ = [
    "ENGINE_NOTE_ALERTS", "PendingAward", "RECENT_HANDS", "SNAPSHOTS", "STATES", "Snapshot", "alert_params",
    "alert_text", "current_hand", "deck_count_pending", "effective_rows", "hand_history_record", "hand_state",
    "hand_lines_with_deck", "hands_with_deck", "latest_live_hand", "live_session", "open_alerts", "pending_approvals",
    "recent_hands", "rules_of", "session_result", "snapshot_anywhere", "snapshot_from_db", "snapshot_from_redis",
    "snapshot_in_process", "state_key", "table_rules", "watching_links", "watching_links_in_process",
]

RECENT_HANDS = 10  # game recall: the current game and at least nine before it (design notes, AGCO 13.1.1)


@dataclass(frozen=True)
class PendingAward:
    """A Bonus award held until approved (THB-54): what the console shows next to the hand's cards."""

    hand: Hand
    table: Table
    box: int
    award: str
    odds: int
    stake: int
    payout: int
    state: HandState


def table_limits(table: Table) -> TableRules:
    """The table's limits as the engine reads them (THB-18..20), reading nothing else: a phone's part
    renders from them on the event loop, where a casino's own paytable (a row) may not be read."""
    return TableRules(min_ante=table.min_ante, max_ante=table.max_ante, min_bonus=table.bonus_min,
                      max_bonus=table.bonus_max, **max_ante_multiple(table))


def rules_of(hand: Hand) -> TableRules:
    return TableRules.from_dict(hand.rules)


# The latest replayed state of each hand, per process, by the hand's id and start time (the start
# time too: a test database may reuse a flushed id). Every screen that re-renders after a push (the
# tablet, the console, each phone) shares one replay; a screen that finds the hand moved on applies
# only the rows it has not seen (usually one). The write path remembers the state each row it
# appends makes (tables.services), kept at its commit.
STATES: reads.ReplayedStates[HandState] = reads.ReplayedStates(1024)


def state_key(hand: Hand) -> tuple:
    return (hand.pk, hand.started_at)


def hand_state(hand: Hand) -> HandState:
    """The hand as the engine sees it: its stored records replayed in order under its own rules.

    One query: the rows after the last one this process has replayed. New rows are applied to the
    remembered state (the same ``apply`` a full replay makes, in the same order); an undo among them
    changes which earlier rows count, so then the hand is replayed from its first row.
    """
    key = state_key(hand)
    known = STATES.latest(key)
    since, state = known if known is not None else (0, None)
    rows = list(hand.actions.filter(seq__gt=since).order_by("seq"))
    if state is not None and not rows:
        hand._last_seq = since
        return state
    if state is not None and all(r.kind != HandAction.UNDO for r in rows):
        state = replay(rules_of(hand), [r.record for r in rows], start=state)
    else:
        if since:
            rows = list(hand.actions.order_by("seq"))
        state = replay(rules_of(hand), [r.record for r in effective_rows(rows)])
    last = rows[-1].seq if rows else since
    # Inside a write the rows read are committed (the table lock keeps other writers out) but the
    # write may still fail: remember the state only once it has committed.
    STATES.remember(key, last, state)
    hand._last_seq = last  # the write path numbers its next row from here (tables.services._next_seq)
    return state


@dataclass(frozen=True)
class Snapshot:
    """A table as its screens show it at one version: the row, its live session, latest hand and state."""

    table: Table
    session: TableSession | None
    hand: Hand | None
    state: HandState | None
    #: The Bonus paytable the phones show: the latest hand's, or before any hand the table's (None if
    #: the table names none that exists). A field, so phones render it without reading a row.
    paytable: Paytable | None = None

    @property
    def version(self) -> int:
        return self.table.version


def _read_snapshot(table: Table) -> Snapshot:
    """The table at the version of ``table`` (a row just read): its live session, latest hand and state."""
    session, hand = _live_session_and_hand(table)
    state = hand_state(hand) if hand else None
    return Snapshot(table, session, hand, state, state.rules.paytable if state else _table_paytable(table))


def _table_paytable(table: Table) -> Paytable | None:
    try:
        return resolve_paytable(table.paytable)
    except RuleViolation:
        return None


def _adopt(snapshot: Snapshot) -> None:
    """A snapshot from Redis seeds this process's replays of its hand (``hand_state`` goes on from it)."""
    hand = snapshot.hand
    if hand is not None and snapshot.state is not None and getattr(hand, "_last_seq", None) is not None:
        STATES.remember(state_key(hand), hand._last_seq, snapshot.state)


#: A table's snapshots per version: in this process, in Redis (``tables.snapshot:...``), in PostgreSQL.
#: The write that made a version leaves its snapshot (``TableWrite.before_announce``).
SNAPSHOTS: reads.VersionedReads[Snapshot] = reads.VersionedReads(
    "tables", read=_read_snapshot, fetch=lambda table: Table.objects.get(pk=table.pk), adopt=_adopt,
)
snapshot_from_db = SNAPSHOTS.snapshot_from_db
snapshot_in_process = SNAPSHOTS.snapshot_in_process
snapshot_from_redis = SNAPSHOTS.snapshot_from_redis
snapshot_anywhere = SNAPSHOTS.snapshot_anywhere


def watching_links(table: Table, version: int) -> dict:
    """``{link id: expires_at}`` of the unrevoked, unexpired player links of the table's open seatings,
    read once per version in this process (one query), after the version's announcement, so a
    revocation committed before that read is in it (the revocation's own push, on the link's group,
    closes the phone even sooner). A phone checks its link here instead of reading its row on every
    push (casino.consumers.PlayerConsumer). A seating's links are revoked in the write that ends it
    (``tables.sessions.end_seatings``), so a version read after that write's commit never lists them."""

    def read() -> dict:
        # The box ids as values, not a subquery: PostgreSQL then finds the open seatings by their
        # partial unique index and the links by the (seat type, seat id) index.
        return player_links.usable_links(Seating, _box_ids(table), by="box", open_while_null="ended_at")

    return SNAPSHOTS.once_per_version("links", table, version, read)


def watching_links_in_process(table: Table, version: int) -> dict | None:
    """``watching_links(table, version)`` if this process holds it; never reads."""
    return SNAPSHOTS.held_once("links", table, version)


# A table's seven boxes are made with it and never change: their ids, per table.
_boxes = reads.immutable_cache(1024)


def _box_ids(table: Table) -> tuple[int, ...]:
    key = reads.identity(table)
    found = _boxes.get(key)
    if found is None:
        found = tuple(Box.objects.filter(table_id=table.pk).values_list("pk", flat=True))
        if len(found) == len(BOX_NUMBERS):  # kept once all seven exist (Table.ensure_boxes)
            _boxes.put(key, found)
    return found


def _live_session_and_hand(table: Table) -> tuple[TableSession | None, Hand | None]:
    """The live session and its latest hand: one query while a hand exists (the usual case)."""
    hand = latest_live_hand(table)
    if hand is not None:
        return hand.session, hand
    return live_session(table), None


def latest_live_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.select_related("session")
        .filter(session__table=table, session__status__in=TableSession.LIVE)
        .order_by("-session__requested_at", "-number")
        .first()
    )


def live_session(table: Table) -> TableSession | None:
    """The table's session that is waiting for its deck check, open or waiting to close."""
    return table.sessions.filter(status__in=TableSession.LIVE).order_by("-requested_at").first()


def current_hand(table: Table) -> tuple[Hand | None, HandState | None]:
    """The latest hand of the table's live session (finished or not), with its state, read now."""
    _session, hand = _live_session_and_hand(table)
    return (hand, hand_state(hand)) if hand else (None, None)


def recent_hands(table: Table, n: int = RECENT_HANDS) -> list[Hand]:
    """The table's last ``n`` hands, latest first, across sessions (game recall)."""
    return list(Hand.objects.filter(table=table).select_related("table").order_by("-number")[:n])


def _tables_of(where) -> Iterable | None:
    """A pit, a pit id, a table, or tables (queryset or list) -> a filter value for ``table__in``."""
    if where is None:
        return None
    if isinstance(where, Table):
        return [where.pk]
    if isinstance(where, Pit | int):
        return Table.objects.filter(pit=where).values("pk")
    return where


def pending_approvals(pit=None, *, tables=None) -> list[PendingAward]:
    """Awards waiting for approval: all, or a pit's (``pit``), or of some tables (``tables``)."""
    hands = Hand.objects.filter(pending_approvals__gt=0).select_related("table", "table__pit")
    for where in (pit, tables):
        selected = _tables_of(where)
        if selected is not None:
            hands = hands.filter(table__in=selected)
    awards = []
    for hand in hands.order_by("started_at", "pk"):
        state = hand_state(hand)
        for number in state.settlement.pending_approvals:
            bonus = state.settlement.box(number).bonus
            awards.append(PendingAward(hand, hand.table, number, bonus.award, bonus.odds, bonus.wager.stake,
                                       bonus.wager.net, state))
    return awards


def open_alerts(tables) -> list[Alert]:
    """Alerts nobody has acknowledged yet, latest first, for a table, a pit or tables."""
    selected = _tables_of(tables)
    alerts = Alert.objects.filter(acknowledged_at__isnull=True).select_related("table", "hand")
    if selected is not None:
        alerts = alerts.filter(table__in=selected)
    return list(alerts)


def session_result(table: Table) -> int:
    """The house's net over the hands of the live (else the last) session whose result is final."""
    session = live_session(table) or table.sessions.order_by("-requested_at").first()
    if session is None:
        return 0
    return session.hands.aggregate(total=Sum("house_net"))["total"] or 0


def hand_history_record(hand: Hand) -> dict:
    """The hand in the ``replay_hand`` input format (casino/rules/holdem_bonus/record.py).

    ``python manage.py replay_hand`` on it reproduces the live settlement: a void hand with its
    ``void`` (clause and reason, as the engine voided it), a void box with ``"void": true``, and
    awards the approver decided with ``approvals`` (``record_from_state``). A hand still in play
    has no record (``RuleViolation``).
    """
    state = hand_state(hand)
    if state.phase not in (Phase.SETTLED, Phase.VOID):
        raise RuleViolation(N_("The hand is not settled yet: it still needs %(what)s"), None, what=state.awaiting)
    return record_from_state(state, hand=f"{hand.table.name}#{hand.number}")


def hands_with_deck(deck) -> list[Hand]:
    """The inspector's question at the pit (issue #39): every hand dealt at a table while ``deck`` was in play
    there (its spells, ``casino.deck_reads.spells_of``), with its table, session and start, in one query."""
    from django.db.models import Q

    from casino.deck_reads import spells_of

    prefix = f"{Table._meta.label_lower}."
    when = Q()
    for place, start, end in spells_of(deck):
        if place.startswith(prefix):
            when |= Q(table_id=int(place[len(prefix):]), started_at__gte=start,
                      **({"started_at__lt": end} if end is not None else {}))
    if not when:
        return []
    return list(Hand.objects.filter(when).select_related("table", "session").order_by("started_at", "pk"))


def hand_lines_with_deck(deck):
    """The settled pit hands dealt while ``deck`` was in play, one ``replay_hand`` JSON line each."""
    import json

    for hand in hands_with_deck(deck):
        try:
            record = hand_history_record(hand)
        except RuleViolation:
            continue  # in play: not settled, nothing to replay yet
        yield json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def deck_count_pending(table: Table) -> bool:
    """A deck counted wrong that the pit boss has not yet acknowledged: no hand starts (THB-16, THB-22)."""
    return Alert.objects.filter(table=table, kind=Alert.Kind.DECK_COUNT, acknowledged_at__isnull=True).exists()


# --- Alerts in the viewer's language ----------------------------------------------------------------


#: The alerts whose ``note`` or ``reason`` is one of the engine's notes (other alerts' notes are typed).
ENGINE_NOTE_ALERTS = ("irregularity", "void")


def alert_params(alert) -> dict[str, Any]:
    """An alert's parameters with the engine's notes in the active language, ready for its message."""
    params = dict(alert.params or {})
    stored = params.pop("notes", None)
    if stored is not None:
        notes = {name: Note.from_dict(data) for name, data in stored.items()}
    elif alert.kind in ENGINE_NOTE_ALERTS:
        notes = _notes_of_an_older_alert(alert, params)
    else:
        notes = {}
    for name, note in notes.items():
        params[name] = explain_note(note)
    return params


def _notes_of_an_older_alert(alert, params: dict[str, Any]) -> dict[str, Note]:
    """An alert stored before notes were templates holds only the English sentence: the engine's own
    note of the same text is found in its hand's replayed state (irregularities are never undone)."""
    if alert.hand_id is None:
        return {}
    try:
        state = hand_state(alert.hand)
    except RuleViolation:  # pragma: no cover - a stored hand always replays (verify_audit checks it)
        return {}
    found: dict[str, Note] = {}
    note = next((n for n in state.irregularities if isinstance(n, Note) and n == params.get("note")), None)
    if note is not None:
        found["note"] = note
    reason = state.void_reason
    if isinstance(reason, Note):
        with_clause = Note(reason.template, state.void_clause, **reason.params)
        if with_clause == params.get("reason"):
            found["reason"] = with_clause
    return found


def alert_text(alert: Alert) -> str:
    """The alert's message in the active language, the engine's notes and the award's name in it too
    (``alert_params``): the dealer's tablet says "A-A against the dealer's A-A" as the console does, never
    the award's key (issue #36)."""
    params = alert_params(alert)
    if params.get("award") in AWARD_LABELS:
        params["award"] = str(AWARD_LABELS[params["award"]])
    try:
        return gettext(alert.message) % params
    except (KeyError, TypeError, ValueError):
        return alert.message


# --- The dealers' rotation of a pit (issue #38 item 5; RP-07) -------------------------------------------------


def pit_rotation_setup(row) -> rotation_engine.RotationSetup:
    from datetime import datetime

    return rotation_engine.RotationSetup(
        dealers=tuple(row.dealers), tables=tuple(row.tables), down_minutes=row.down_minutes, starts_at=row.starts_at,
        breaks=tuple((datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in row.breaks))


def pit_schedule(pit_id: int, now, *, ahead: int = 3) -> rotation_engine.Schedule | None:
    """The pit's rotation at ``now`` (its own breaks stop the changes: the pit has no levels); None without one."""
    from tables.models import PitRotation

    row = PitRotation.objects.filter(pit_id=pit_id).first()
    return None if row is None else rotation_engine.schedule(pit_rotation_setup(row), now, ahead=ahead)


def due_pit_dealer(table, now) -> tuple[bool, int | None]:
    """(whether the table is in its pit's rotation, the dealer's id the rotation puts there at ``now``)."""
    plan = pit_schedule(table.pit_id, now, ahead=0)
    if plan is None or table.pk not in plan.current.tables:
        return False, None
    return True, plan.current.tables[table.pk]


def pit_rotation_board(pit_id: int, now) -> dict | None:
    """The pit console's view of the rotation: each table's dealer now and next, who rests, the next change."""
    from django.contrib.auth import get_user_model

    from tables.models import Table

    plan = pit_schedule(pit_id, now)
    if plan is None:
        return None
    nxt = plan.ahead[0][1] if plan.ahead else None
    users = {u.pk: u.get_full_name() or u.get_username()
             for u in get_user_model().objects.filter(pk__in=[*plan.current.tables.values(), *plan.current.resting])}
    names = dict(Table.objects.filter(pk__in=list(plan.current.tables)).values_list("pk", "name"))
    return {"next_at": plan.next_at,
            "tables": [{"table": names.get(t, t), "table_id": t, "dealer": users.get(d, d),
                        "next": users.get(nxt.tables[t], nxt.tables[t]) if nxt else None}
                       for t, d in plan.current.tables.items()],
            "resting": [users.get(d, d) for d in plan.current.resting]}


def dealer_rotations(user, now) -> list[dict]:
    """Where the pits' rotations put ``user`` now and next (his home): [{"pit", "now", "next_at", "next"}] with table
    names (None: his break)."""
    from tables.models import PitRotation, Table

    found = []
    for row in PitRotation.objects.select_related("pit"):
        if user.pk not in row.dealers:
            continue
        plan = rotation_engine.schedule(pit_rotation_setup(row), now)
        names = dict(Table.objects.filter(pk__in=row.tables).values_list("pk", "name"))
        going = plan.next_for(user.pk)
        here = plan.current.table_of(user.pk)
        found.append({"pit": row.pit, "now": names.get(here) if here is not None else None,
                      "next_at": going[0] if going else None,
                      "next": names.get(going[1]) if going and going[1] is not None else None})
    return found
