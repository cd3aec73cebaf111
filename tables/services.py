"""The commands of a live Texas Hold'em Bonus table, and the reads the screens use.

Every write is ``fn(*, table, by, key, expected_version, ...) -> ActionResult`` and runs through
the casino's one write path (``casino.writes.write``, with ``TABLES`` saying what is a table's) in
one transaction, in this order (docs/tables.md):

1. lock the table row (``select_for_update``): writes at one table queue up, one at a time,
   while other tables go on undisturbed;
2. idempotency: a key already used at this table answers the stored result
   (``duplicate=True``) and applies nothing again (double tap, retry after a network drop);
3. version: the tablet acted on ``expected_version``; if the table has moved on since, raise
   ``StaleVersion`` instead of silently overwriting what the other screen did;
4. role and object: the dealer on duty at this table, the pit boss of its pit, the approver of
   the house option (never the dealer who asked, C-30);
5. the rules engine: the hand is rebuilt by replaying its stored records, the new record is
   checked, then applied (a refusal raises ``RuleViolation`` naming the clause, and the
   transaction rolls back: nothing is half-recorded);
6. save the frozen action rows, bump ``table.version``;
7. audit events in the table's stream, in the same transaction;
8. announce the new version to the table's group and the pit's group, after commit.

No game logic lives here beyond asking the engine: which records a dealer may send, what may
be undone, and who may approve are procedure, not rules of the game.
"""

from __future__ import annotations

import copy
import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import Max, Min, Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from casino.audit import record_event, stream_for
from casino.memo import BoundedCache
from casino.models import PlayerLink
from casino.player_links import end_links, issue_player_link
from casino.roles import APPROVE_PAYOUT, SUPERVISE_PIT, Role, can, has_role
from casino.rules.errors import N_, Note, RuleViolation
from casino.rules.holdem_bonus import (
    Action,
    ApproveBonus,
    DenyBonus,
    HandState,
    LoadShoe,
    Phase,
    PlaceAnte,
    PlaceBonus,
    TableRules,
    action_from_dict,
    replay,
)
from casino.rules.holdem_bonus.record import record_from_state
from casino.rules.shuffle import Shoe
from casino.writes import Aggregate, NotAllowed, StaleVersion, Write, write
from tables.access import is_dealer_at, supervises
from tables.models import (
    BOX_NUMBERS,
    Alert,
    Box,
    Hand,
    HandAction,
    Pit,
    Seating,
    Table,
    TableRequest,
    TableSession,
    pit_group,
)
from tables.refusals import alert_notes

log = logging.getLogger(__name__)

__all__ = [
    "ActionResult", "NotAllowed", "PendingAward", "StaleVersion", "acknowledge_alert", "award_approver_role",
    "award_decision_refusal",
    "confirm_closing",
    "confirm_deck_check", "current_hand", "decide_award", "end_seatings", "hand_history_record", "hand_state",
    "issue_box_link", "live_session", "seat_new_player",
    "open_alerts", "pending_approvals", "pit_group", "recent_hands", "record_action", "repeat_last_bets",
    "report_irregularity", "request_closing", "request_opening", "session_result", "start_hand", "table_rules",
    "undo_last_action",
]

# --- What a dealer may send, and what an undo may take back ---------------------------------------

#: Bets and decisions: the dealer records them box by box, in the current phase.
BETS_AND_DECISIONS = frozenset({
    "place-ante", "place-bonus", "withdraw-bets", "bet-flop", "fold", "bet-turn", "pass-turn", "bet-river",
    "pass-river",
})
#: Steps of the procedure that move the hand on: "no va más", the deal, the streets, the showdown.
PROCEDURE_STEPS = frozenset({
    "close-bets", "deal-initial", "deal-flop", "deal-turn", "deal-river", "reveal-dealer", "reveal-box",
})
#: The dealer's own records through ``record_action``.
DEALER_KINDS = BETS_AND_DECISIONS | PROCEDURE_STEPS
#: Irregularities from the manual's cases (THB-24, THB-73..76), through ``report_irregularity``.
IRREGULARITY_KINDS = frozenset({
    "report-dealer-card-exposed", "report-face-up-card", "report-box-wrong-card-count",
    "report-dealer-wrong-card-count", "void-hand",
})
#: Card entries a dealer may correct right after typing them (recorded mode only): the entry is
#: the last thing done, so nothing was decided on the wrong card yet.
CORRECTABLE_CARD_ENTRIES = frozenset({"deal-flop", "deal-turn", "deal-river", "reveal-dealer", "reveal-box"})

#: One French deck (THB-03): what a deck count must find (THB-16).
DECK_SIZE = 52

#: Who may approve a held Bonus award (C-30): a table's house option, else ``settings.AWARD_APPROVER_ROLE``.
APPROVER_ROLES = (Role.PIT_BOSS, Role.GAMES_DIRECTOR)
RECENT_HANDS = 10  # game recall: the current game and at least nine before it (design notes, AGCO 13.1.1)


# --- Answers and refusals -------------------------------------------------------------------------


@dataclass
class ActionResult:
    table_version: int
    hand_id: int | None
    duplicate: bool = False
    alerts: list[str] = field(default_factory=list)


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


# --- Reads (no lock) --------------------------------------------------------------------------------


def table_rules(table: Table) -> TableRules:
    """The engine's configuration from the table's limits, paytable and house options."""
    house = table.house_options or {}
    options = {}
    if "ante_pays_from" in house:
        options["ante_pays_from"] = house["ante_pays_from"]
    if "approval_awards" in house:
        options["approval_awards"] = frozenset(house["approval_awards"])
    if house.get("approval_above") is not None:
        options["approval_above"] = house["approval_above"]
    return TableRules(
        min_ante=table.min_ante,
        max_ante=table.max_ante,
        min_bonus=table.bonus_min,
        max_bonus=table.bonus_max,
        paytable=table.paytable,
        **options,
    )


def _effective_rows(rows: Iterable[HandAction]) -> list[HandAction]:
    """The rows a replay uses: undo rows and the rows they undid are left out."""
    rows = list(rows)
    undone = {r.undoes_id for r in rows if r.undoes_id is not None}
    return [r for r in rows if r.undoes_id is None and r.pk not in undone]


def _rules_of(hand: Hand) -> TableRules:
    return TableRules.from_dict(hand.rules)


# The latest replayed state of each hand, per process: ``(hand id, start) -> (last seq, state)``.
# Rows are append-only, so a hand's committed rows up to a given seq never change and neither does
# their replay: every screen that re-renders after a push (the tablet, the console, each phone)
# shares one replay, and a screen that finds the hand moved on applies only the rows it has not
# seen (usually one). Only states whose rows are all committed are stored: read outside a write,
# or put by the write itself once it has committed, so a row later rolled back is never remembered.
_states: BoundedCache[tuple[int, HandState]] = BoundedCache(1024)


def _remember_state(key: tuple, seq: int, state: HandState) -> None:
    def put() -> None:
        known = _states.get(key)
        if known is None or known[0] < seq:  # two screens may race: keep the later one (either is right)
            _states.put(key, (seq, state))

    if connection.in_atomic_block:
        transaction.on_commit(put)
    else:
        put()


def _state_key(hand: Hand) -> tuple:
    return (hand.pk, hand.started_at)  # the start time too: a test database may reuse a flushed id


def hand_state(hand: Hand) -> HandState:
    """The hand as the engine sees it: its stored records replayed in order under its own rules.

    One query: the rows after the last one this process has replayed. New rows are applied to the
    remembered state (the same ``apply`` a full replay makes, in the same order); an undo among them
    changes which earlier rows count, so then the hand is replayed from its first row.
    """
    key = _state_key(hand)
    known = _states.get(key)
    since, state = known if known is not None else (0, None)
    rows = list(hand.actions.filter(seq__gt=since).order_by("seq"))
    if state is not None and not rows:
        hand._last_seq = since
        return state
    if state is not None and all(r.kind != HandAction.UNDO for r in rows):
        state = replay(_rules_of(hand), [r.record for r in rows], start=state)
    else:
        if since:
            rows = list(hand.actions.order_by("seq"))
        state = replay(_rules_of(hand), [r.record for r in _effective_rows(rows)])
    last = rows[-1].seq if rows else since
    # Inside a write the rows read are committed (the table lock keeps other writers out) but the
    # write may still fail: remember the state only once it has committed.
    _remember_state(key, last, state)
    hand._last_seq = last  # the write path numbers its next row from here (_next_seq)
    return state


@dataclass(frozen=True)
class Snapshot:
    """A table as its screens show it at one version: the row, its live session, latest hand and state."""

    table: Table
    session: TableSession | None
    hand: Hand | None
    state: HandState | None

    @property
    def version(self) -> int:
        return self.table.version


# Snapshots by (table id, its creation stamp, version), per process. Every write bumps the table's
# version (``_write``), so what a version shows never changes: the tablet, the console and every
# phone of a table that re-render after one push share one read. The write that made a version puts
# its snapshot here once it has committed.
_snapshots: BoundedCache[Snapshot] = BoundedCache(512)


def _snapshot_key(table_id: int, created_at, version: int) -> tuple:
    return (table_id, created_at, version)


# The same snapshots, shared between the casino's daphne processes through Redis (the ``default``
# cache, pickled by Django). A write leaves its version's snapshot there at commit, before it announces
# the version, so another process's screens (and its next write at that table: a tablet's taps may land
# on either process) take it from there instead of reading the row, the hand and its new actions and
# replaying them. A version's content never changes, so an entry is right or absent; it only has to live
# while its version is news. Without Redis (one process, ``make run``) there is no one to share with.
SHARED_SNAPSHOT_SECONDS = 30


def _shared_cache():
    return caches["default"] if settings.SHARE_SNAPSHOTS else None


def _shared_snapshot_name(key: tuple) -> str:
    table_id, created_at, version = key
    return f"tables.snapshot:{table_id}:{created_at.timestamp()}:{version}"


def _share_snapshot(key: tuple, snapshot: Snapshot) -> None:
    """Leave a committed version's snapshot for the other processes; a Redis failure only costs them a read."""
    cache = _shared_cache()
    if cache is None:
        return
    try:
        cache.set(_shared_snapshot_name(key), snapshot, SHARED_SNAPSHOT_SECONDS)
    except Exception:  # noqa: BLE001 - the screens read the database instead; say so in the log
        log.warning("could not share the snapshot %r", key, exc_info=True)


def _shared_snapshot(key: tuple) -> Snapshot | None:
    """The snapshot another process left for ``key``, now held in this process too; None if absent."""
    cache = _shared_cache()
    if cache is None:
        return None
    try:
        found = cache.get(_shared_snapshot_name(key))
    except Exception:  # noqa: BLE001 - read the database instead
        log.warning("could not read the shared snapshot %r", key, exc_info=True)
        return None
    if not isinstance(found, Snapshot) or found.version != key[2]:
        return None
    _snapshots.put(key, found)
    if found.hand is not None and found.state is not None and getattr(found.hand, "_last_seq", None) is not None:
        # This process's replays of the hand go on from here (hand_state) instead of from its first row.
        _remember_state(_state_key(found.hand), found.hand._last_seq, found.state)
    return found


def table_snapshot(table: Table) -> Snapshot:
    """The table at the version of ``table`` (a row just read): its live session, latest hand, state."""
    key = _snapshot_key(table.pk, table.created_at, table.version)
    found = _snapshots.get(key)
    if found is not None:
        return found
    session, hand = _live_session_and_hand(table)
    snapshot = Snapshot(table, session, hand, hand_state(hand) if hand else None)
    if not connection.in_atomic_block:  # inside a write, what it read may still roll back
        _snapshots.put(key, snapshot)
    return snapshot


def snapshot_at(table: Table, version: int | None = None) -> Snapshot:
    """``table`` (any row of it: only its id and creation stamp count) at ``version`` if this process
    has it, else as it is now (one read of the row); without ``version``, as it is now.

    A push names the version it announces: the screens that follow it ask for that version, and
    only the first of them in each process reads the database.
    """
    def read_now() -> Snapshot:
        return table_snapshot(Table.objects.get(pk=table.pk))

    if version is None:
        return read_now()

    def shared_or_read() -> Snapshot:
        return _shared_snapshot(_snapshot_key(table.pk, table.created_at, version)) or read_now()

    # Kept under the version asked for too (its content may be a later version's, which says so):
    # the other screens that follow the same push then find it.
    return _snapshots.get_or_make(_snapshot_key(table.pk, table.created_at, version), shared_or_read, alone=True)


def remembered_snapshot(table: Table, version: int) -> Snapshot | None:
    """What ``snapshot_at(table, version)`` would answer, if this process already holds it; never reads.

    Safe on the event loop: the phones' pushes render from it there (casino.consumers)."""
    return _snapshots.get(_snapshot_key(table.pk, table.created_at, version))


def held_snapshot(table: Table, version: int) -> Snapshot | None:
    """The snapshot of exactly ``version`` if this process holds it or another process left it in Redis;
    never reads the database (a write under the row lock builds on it, ``_hand_and_state_in_play``)."""
    key = _snapshot_key(table.pk, table.created_at, version)
    found = _snapshots.get(key)
    if found is not None and found.version == version:
        return found
    return _shared_snapshot(key)


# The player links that may watch a table's boxes, per table version and process:
# ``(table id, creation stamp, version) -> {link id: expires_at}``. Read once per version after the
# version's announcement, so a revocation committed before that read is in it; the revocation's own
# push (on the link's group) closes the phone even sooner. A phone checks its link here instead of
# reading its row on every push (casino.consumers.PlayerConsumer).
_watching_links: BoundedCache[dict] = BoundedCache(512)


def watching_links(table: Table, version: int) -> dict:
    """``{link id: expires_at}`` of the unrevoked, unexpired player links of the table's open seatings,
    read once per version in this process (one query). A seating's links are revoked in the write that
    ends it (``end_seatings``), so a version read after that write's commit never lists them."""

    def read() -> dict:
        # The box ids as values, not a subquery: PostgreSQL then finds the open seatings by their
        # partial unique index and the links by the (seat type, seat id) index.
        seat_type, box_ids, now = ContentType.objects.get_for_model(Seating).pk, _box_ids(table), timezone.now()
        if connection.vendor == "postgresql":
            # Once per table version and process: as plain SQL it costs a third of the ORM's query
            # building (docs/benchmarks.md). The same filter as below, which SQLite keeps.
            with connection.cursor() as cursor:
                cursor.execute(_WATCHING_LINKS_SQL, [seat_type, list(box_ids), now])
                return dict(cursor.fetchall())
        seatings = Seating.objects.filter(box_id__in=box_ids, ended_at__isnull=True).values("pk")
        links = PlayerLink.objects.filter(
            seat_type_id=seat_type, seat_id__in=seatings, revoked_at__isnull=True, expires_at__gt=now,
        )
        return dict(links.values_list("pk", "expires_at"))

    return _watching_links.get_or_make(_snapshot_key(table.pk, table.created_at, version), read, alone=True)


_WATCHING_LINKS_SQL = (
    'SELECT l."id", l."expires_at" FROM "casino_playerlink" l JOIN "tables_seating" s ON s."id" = l."seat_id"'
    ' WHERE l."seat_type_id" = %s AND s."box_id" = ANY(%s) AND s."ended_at" IS NULL'
    ' AND l."revoked_at" IS NULL AND l."expires_at" > %s'
)


# A table's seven boxes are made with it and never change: their ids, per table.
_boxes: BoundedCache[tuple[int, ...]] = BoundedCache(1024)


def _box_ids(table: Table) -> tuple[int, ...]:
    key = (table.pk, table.created_at)
    found = _boxes.get(key)
    if found is None:
        found = tuple(Box.objects.filter(table_id=table.pk).values_list("pk", flat=True))
        if len(found) == len(BOX_NUMBERS):  # kept once all seven exist (Table.ensure_boxes)
            _boxes.put(key, found)
    return found


def remembered_links(table: Table, version: int) -> dict | None:
    """``watching_links(table, version)`` if this process holds it; never reads."""
    return _watching_links.get(_snapshot_key(table.pk, table.created_at, version))


def _live_session_and_hand(table: Table) -> tuple[TableSession | None, Hand | None]:
    """The live session and its latest hand: one query while a hand exists (the usual case)."""
    hand = _latest_live_hand(table)
    if hand is not None:
        return hand.session, hand
    return live_session(table), None


def _latest_live_hand(table: Table) -> Hand | None:
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


# --- The write path: casino.writes, with what is a table's ---------------------------------------------


def _table_groups(table: Table) -> list[str]:
    # The table's screens (the tablet, the phones) and the pit's consoles.
    return [table.group_name, pit_group(table.pit_id)]


TABLES = Aggregate(
    model=Table, requests=TableRequest, owner="table", version_field="table_version",
    stream=lambda pk: stream_for(Table(pk=pk)), groups=_table_groups, answer_ids=("hand",),
    saved_fields=("status",),
)


@dataclass
class _Write(Write):
    """A write at a table: the locked table, and the hand, session and state the write produced."""

    hand: Hand | None = None
    # The live session's latest hand and its state after the write, when the write knows them:
    # its snapshot is then cached at commit, and the screens re-render without reading it back.
    session: TableSession | None = None
    state: HandState | None = None

    @property
    def table(self) -> Table:
        return self.row

    def tell_only_the_pit(self) -> None:
        """Only the pit's consoles hear of this write, not the table's screens (a discreet alert, THB-17)."""
        self.groups = [pit_group(self.table.pit_id)]

    def answer_ids(self) -> dict[str, int | None]:
        return {"hand": self.hand.pk if self.hand is not None else None}

    def before_announce(self) -> None:
        if self.state is not None and self.session is not None and self.hand is not None:
            table = self.table
            snapshot = Snapshot(table, self.session, self.hand, self.state)
            key = _snapshot_key(table.pk, table.created_at, table.version)
            # At commit, before the announcement (registered after this): the screens that follow it,
            # in this process or another, find the version's snapshot waiting.
            transaction.on_commit(lambda: (_snapshots.put(key, snapshot), _share_snapshot(key, snapshot)))


def _write(*, table, by, key: str, expected_version: int, action: str, work: Callable[[_Write], None]) -> ActionResult:
    """One command at a table through the one write path (``casino.writes.write``)."""
    table_id = table.pk if isinstance(table, Table) else int(table)
    done = write(TABLES, pk=table_id, by=by, key=key, expected_version=expected_version, action=action, work=work,
                 write_class=_Write)
    return ActionResult(done.version, done.ids.get("hand"), duplicate=done.duplicate, alerts=done.alerts)


# --- Who may act -------------------------------------------------------------------------------------


def _require_dealer(w: _Write) -> None:
    if not is_dealer_at(w.by, w.table):
        raise NotAllowed(N_("Only the dealer on duty at %(table)s can do this."), table=w.table.name)


def _require_supervisor(w: _Write) -> None:
    if not (supervises(w.by, w.table) and can(w.by, SUPERVISE_PIT)):
        raise NotAllowed(N_("Only the pit boss of %(table)s's pit can do this."), table=w.table.name)


def award_approver_role(table: Table) -> str:
    """The role that approves held Bonus awards at this table (house option, C-30)."""
    role = (table.house_options or {}).get("award_approver_role") or settings.AWARD_APPROVER_ROLE
    return role if role in APPROVER_ROLES else Role.PIT_BOSS


def award_decision_refusal(by, hand: Hand, table: Table) -> NotAllowed | None:
    """Why ``by`` may not approve or deny ``hand``'s held award (C-30), or None if they may.

    The one answer both ``decide_award`` (which raises it) and the pit console (which shows it in
    place of the buttons) use. The approver is the table's approver role with ``approve_payout``:
    with the pit boss as the house's approver, the pit boss of that table's pit or a games director
    (THB-54 names the games direction itself, who ranks above); with the games director, only a
    games director. Never whoever recorded the hand's bets, cards or decisions, nor the table's
    dealer on duty: they asked for the award (a pit boss who only reported an irregularity did not).
    """
    approver = award_approver_role(table)
    may = can(by, APPROVE_PAYOUT) and (
        has_role(by, Role.GAMES_DIRECTOR)
        or (approver == Role.PIT_BOSS and has_role(by, Role.PIT_BOSS) and table.pit.pit_boss_id == by.pk)
    )
    if not may:
        return NotAllowed(N_("Only the %(role)s can approve this award (C-30)."), role=Role(approver).label)
    if table.dealer_id == by.pk or hand.actions.filter(actor=by, kind__in=DEALER_KINDS).exists():
        return NotAllowed(N_("The dealer who asked for the award can never approve it (C-30)."))
    return None


# --- Table sessions (THB-21, THB-22) -----------------------------------------------------------------


def _live_session_locked(table: Table) -> TableSession | None:
    return table.sessions.select_for_update().filter(status__in=TableSession.LIVE).order_by("-requested_at").first()


def request_opening(*, table, by, key: str, expected_version: int) -> ActionResult:
    """The dealer asks to open the table; it waits for the pit boss's deck check (THB-21)."""

    def work(w: _Write) -> None:
        _require_dealer(w)
        if w.table.status != Table.Status.CLOSED:
            raise RuleViolation(N_("The table is already open or waiting for the pit boss."), "THB-21")
        session = TableSession.objects.create(table=w.table, requested_by=w.by, requested_at=w.now)
        w.table.status = Table.Status.OPENING
        w.event = "opening-requested"
        w.audit("table.opening_requested", session=session.pk)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="request_opening", work=work)


def confirm_deck_check(*, table, by, key: str, expected_version: int, approve: bool = True,
                       note: str = "") -> ActionResult:
    """The pit boss confirms the deck check in their presence and the table opens (THB-21);
    or refuses a missing or flawed deck, which alerts for the Subdirector and keeps it closed (THB-22)."""

    def work(w: _Write) -> None:
        _require_supervisor(w)
        session = _live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.DECK_CHECK:
            raise RuleViolation(N_("No deck check is waiting at this table."), "THB-21")
        if session.requested_by_id == w.by.pk:
            raise NotAllowed(N_("The deck check is confirmed by the pit boss, not by whoever asked to open."))
        session.deck_checked_by, session.deck_checked_at = w.by, w.now
        if approve:
            session.status, session.opened_at = TableSession.Status.OPEN, w.now
            w.table.status = Table.Status.OPEN
            w.event = "opened"
            w.audit("table.deck_check_confirmed", session=session.pk, note=note)
        else:
            session.status, session.closed_by, session.closed_at = TableSession.Status.DECK_REFUSED, w.by, w.now
            w.table.status = Table.Status.CLOSED
            w.event = "deck-refused"
            _raise_alert(w, Alert.Kind.DECK, gettext_noop(
                "%(table)s: the deck was refused at the opening check; report it to the Subdirector (THB-22)."
            ), {"table": w.table.name, "note": note})
            w.audit("table.deck_check_refused", session=session.pk, note=note)
        session.save()

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="confirm_deck_check",
                  work=work)


def request_closing(*, table, by, key: str, expected_version: int) -> ActionResult:
    """The dealer asks to close the table, once its last hand is finished; the pit boss confirms."""

    def work(w: _Write) -> None:
        _require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("Only an open table can be closed."))
        session = _live_session_locked(w.table)
        if _unfinished_hand(session.hands) is not None:
            raise RuleViolation(N_("Finish the hand in play before closing the table."))
        session.status = TableSession.Status.CLOSING
        session.closing_requested_by, session.closing_requested_at = w.by, w.now
        session.save()
        w.table.status = Table.Status.CLOSING
        w.event = "closing-requested"
        w.audit("table.closing_requested", session=session.pk)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="request_closing", work=work)


def confirm_closing(*, table, by, key: str, expected_version: int, approve: bool = True) -> ActionResult:
    """The pit boss confirms the closing (or sends the table back to play)."""

    def work(w: _Write) -> None:
        _require_supervisor(w)
        session = _live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.CLOSING:
            raise RuleViolation(N_("No closing is waiting at this table."))
        if session.closing_requested_by_id == w.by.pk:
            raise NotAllowed(N_("The closing is confirmed by the pit boss, not by whoever asked for it."))
        if approve:
            session.status, session.closed_by, session.closed_at = TableSession.Status.CLOSED, w.by, w.now
            w.table.status = Table.Status.CLOSED
            w.event = "closed"
            w.audit("table.closed", session=session.pk, house_net=session.hands.aggregate(t=Sum("house_net"))["t"] or 0)
            # Every player's link dies with the session: the next session's player at a box must never
            # be seen through a link issued to someone before (issue #12).
            end_seatings(w, session.seatings.filter(ended_at__isnull=True), Seating.EndReason.SESSION_CLOSED)
        else:
            session.status = TableSession.Status.OPEN
            w.table.status = Table.Status.OPEN
            w.event = "closing-refused"
            w.audit("table.closing_refused", session=session.pk)
        session.save()

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="confirm_closing", work=work)


# --- Players at the boxes: seatings and their QR links (issue #12) ----------------------------------------


def _box_in_hand(state: HandState | None, number: int) -> bool:
    return state is not None and state.box(number) is not None


def _next_hand_number(table: Table) -> int:
    """The number the table's next hand takes: hand numbers run per table, across sessions."""
    return (table.hands.aggregate(m=Max("number"))["m"] or 0) + 1


def _first_hand_of(session: TableSession) -> int:
    """The number of the session's first hand, or of the hand that will be its first."""
    first = session.hands.aggregate(m=Min("number"))["m"]
    return first if first is not None else _next_hand_number(session.table)


def end_seatings(w: _Write, seatings, reason: str) -> list[Seating]:
    """End ``seatings`` in write ``w`` and revoke their links in the same transaction: after commit,
    every phone open on them, on every process, is told and shut (casino.player_links.end_links)."""
    ended = list(seatings.select_for_update().select_related("box"))
    if not ended:
        return ended
    links = list(PlayerLink.objects.select_for_update().filter(
        seat_type=ContentType.objects.get_for_model(Seating), seat_id__in=[s.pk for s in ended],
        revoked_at__isnull=True,
    ))
    for seating in ended:
        seating.ended_at, seating.ended_by, seating.end_reason = w.now, w.by, reason
        seating.save(update_fields=["ended_at", "ended_by", "end_reason"])
        w.audit("table.seating_ended", obj=seating, box=seating.box.number, first_hand=seating.first_hand,
                reason=reason)
    end_links(links, by=w.by, now=w.now)
    for link in links:
        w.audit("player_link.revoked", obj=link, reason=reason)
    return ended


def seat_new_player(*, table, by, key: str, expected_version: int, box: int) -> ActionResult:
    """The dealer says a new player took box ``box``: the player before loses their link at once, and
    the new player's phone will show the hands from now on, never the ones before (issue #12).

    Refused while the box has a bet in the hand in play, or an award waiting for approval: until that
    hand is finished the box and its result belong to the player who bet.
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        if box not in BOX_NUMBERS:
            raise ValueError(f"a box is numbered 1 to 7, not {box!r}")
        session = _live_session_locked(w.table)
        if session is None:
            raise RuleViolation(N_("The table is closed: there is no player at its boxes."))
        hand = _unfinished_hand(session.hands)
        if hand is not None:
            if _box_in_hand(hand_state(hand), box):
                raise RuleViolation(N_("Box %(box)d has bets in hand %(hand)d: mark the new player once that "
                                       "hand is finished."), None, box=box, hand=hand.number)
            first_hand = hand.number  # no bet of the player before in it: the new player may bet in it
        else:
            first_hand = _next_hand_number(w.table)
        place = Box.objects.get(table=w.table, number=box)
        end_seatings(w, place.seatings.filter(ended_at__isnull=True), Seating.EndReason.NEW_PLAYER)
        seating = Seating.objects.create(box=place, session=session, first_hand=first_hand, started_at=w.now,
                                         started_by=w.by)
        w.event = "new-player"
        w.alerts.append(gettext("Box %(box)d: new player. Their phone needs a new QR link.") % {"box": box})
        w.audit("table.new_player", obj=seating, box=box, first_hand=first_hand)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="seat_new_player",
                  work=work)


def issue_box_link(*, table, number: int, by) -> PlayerLink:
    """A new QR link for the player at box ``number``, bound to their seating in the table's live session.

    A second link for the same seating is a second phone, or a lost one, of the same player. No link
    is issued at a closed table: a link belongs to one session (issue #12).
    """
    with transaction.atomic():
        # The table's row lock: a link is never issued into a session that a concurrent closing is ending.
        locked = Table.objects.select_for_update().get(pk=table.pk if isinstance(table, Table) else table)
        place = Box.objects.get(table=locked, number=number)  # no such box: Box.DoesNotExist
        session = _live_session_locked(locked)
        if session is None:
            raise RuleViolation(N_("The table is closed: open it first, a player's link lasts one session."))
        seating = place.seatings.filter(ended_at__isnull=True).first()
        if seating is None:
            # The box's first player this session sees the session's hands at this box so far.
            seating = Seating.objects.create(box=place, session=session, first_hand=_first_hand_of(session),
                                             started_at=timezone.now(), started_by=by)
            record_event(action="table.seating_started", actor=by, obj=seating, stream=stream_for(locked),
                         details={"box": number, "first_hand": seating.first_hand})
        # The link's label and the QR page name the box and its table: both are in hand, no read needed.
        seating.box, place.table = place, locked
        return issue_player_link(seat=seating, by=by, label=str(place), stream=stream_for(locked))


# --- Hands ------------------------------------------------------------------------------------------------


def _hand_and_state_in_play(w: _Write) -> tuple[Hand, HandState]:
    """The hand every dealer action goes to, with its state, as ``_hand_in_play`` and ``hand_state``.

    Without reading, when this process holds the snapshot of the version the table row is locked at, or
    the process that made that version left it in Redis: every write bumps the version under this lock,
    so a snapshot of the locked version is exactly what the database holds.
    """
    known = held_snapshot(w.table, w.table.version)
    if known is not None and known.hand is not None and (
        known.session is not None and getattr(known.hand, "_last_seq", None) is not None
    ):
        # The snapshot's hand is shared with the screens rendering it: this write changes a copy.
        hand = copy.copy(known.hand)
        w.hand, w.session = hand, known.session
        return hand, known.state
    hand = _hand_in_play(w)
    return hand, hand_state(hand)


def _hand_in_play(w: _Write) -> Hand:
    """The latest hand of the table's session: the one every dealer action goes to."""
    # One read for the session and its latest hand. The table's row lock, held by this write, already
    # keeps every other write (session changes included) out until commit.
    hand = _latest_live_hand(w.table)
    if hand is None:
        raise RuleViolation(N_("No hand is in play: start a hand first."))
    w.hand, w.session = hand, hand.session
    return hand


def _next_seq(hand: Hand) -> int:
    """The seq of the hand's next row. Under the table lock, ``hand_state`` has just read the last one."""
    last = getattr(hand, "_last_seq", None)
    if last is None:
        last = hand.actions.aggregate(m=Max("seq"))["m"] or 0
    hand._last_seq = last + 1
    return last + 1


def _audit_details(record: dict) -> dict:
    """The record as audited; a shoe's order is kept only as its hash (the audit log is read by staff
    while the hand is live, and the order is what a cheat would want)."""
    if record.get("action") == LoadShoe.kind:
        order = " ".join(record["cards"])
        return {"action": LoadShoe.kind, "sha256": hashlib.sha256(order.encode()).hexdigest()}
    return dict(record)


def _append(w: _Write, hand: Hand, state: HandState, action: Action) -> HandState:
    """Engine check, then apply, then the frozen row and its audit event."""
    state.verify(action)
    after = state.apply(action)
    record = action.to_dict()
    row = HandAction.objects.create(
        hand=hand, seq=_next_seq(hand), kind=action.kind, record=record, actor=w.by, role=w.role, at=w.now, key=w.key,
    )
    w.audit("hand.action", obj=hand, hand=hand.number, seq=row.seq, record=_audit_details(record))
    # The screens that re-render after this write find the new state without replaying it.
    _remember_state(_state_key(hand), row.seq, after)
    return after


def _raise_alert(w: _Write, kind: str, message: str, params: dict, hand: Hand | None = None) -> Alert:
    alert = Alert.objects.create(table=w.table, hand=hand, kind=kind, message=message, params=params,
                                 raised_by=w.by, created_at=w.now)
    w.alerts.append(alert.text)
    return alert


def _is_over(state: HandState) -> bool:
    return state.phase in (Phase.SETTLED, Phase.VOID)


def replayed_columns(state: HandState) -> dict:
    """The hand's console columns as its replay says (``_sync_hand`` keeps them; verify_audit checks them)."""
    pending = state.settlement.pending_approvals if state.settlement else ()
    return {
        "phase": state.phase.value,
        "pending_approvals": len(pending),
        "house_net": state.settlement.house_net if (_is_over(state) and not pending) else None,
    }


def _sync_hand(w: _Write, hand: Hand, before: HandState, after: HandState) -> None:
    """Keep the hand's console columns equal to the replay, and alert for awards newly held (THB-54)."""
    pending = after.settlement.pending_approvals if after.settlement else ()
    held_before = set(before.settlement.pending_approvals) if before.settlement else set()
    for number in pending:
        if number not in held_before:
            bonus = after.settlement.box(number).bonus
            _raise_alert(w, Alert.Kind.APPROVAL, gettext_noop(
                "%(table)s, hand %(hand)d: box %(box)d's Bonus award (%(award)s, %(payout)d) waits for approval."
            ), {"table": w.table.name, "hand": hand.number, "box": number, "award": bonus.award,
                "payout": bonus.wager.net}, hand=hand)
    # An award no longer held (decided, or its card entry undone) no longer needs the console's eye.
    # Approval alerts are open only while the hand's column counts held awards: none, nothing to close.
    if hand.pending_approvals or held_before:
        for alert in hand.alerts.filter(kind=Alert.Kind.APPROVAL, acknowledged_at__isnull=True):
            if alert.params.get("box") not in pending:
                alert.acknowledged_at = w.now
                alert.acknowledged_by = w.by if w.action == "decide_award" else None
                alert.save(update_fields=["acknowledged_at", "acknowledged_by"])
    columns = {**replayed_columns(after), "settled_at": (hand.settled_at or w.now) if _is_over(after) else None}
    changed = [name for name, value in columns.items() if getattr(hand, name) != value]
    for name in changed:
        setattr(hand, name, columns[name])
    if changed:  # most actions leave the phase and the result as they were: no UPDATE for them
        hand.save(update_fields=changed)
    w.state = after


# --- The deck and the cards between the pit boss and the dealer (THB-16, THB-17) ---------------------


def _unfinished_hand(hands) -> Hand | None:
    """The latest of ``hands`` (a table's or a session's) while it is not finished, else None."""
    last = hands.order_by("-number").first()
    return last if last is not None and not last.is_finished else None


def deck_count_pending(table: Table) -> bool:
    """A deck counted wrong that the pit boss has not yet acknowledged: no hand starts (THB-16, THB-22)."""
    return Alert.objects.filter(table=table, kind=Alert.Kind.DECK_COUNT, acknowledged_at__isnull=True).exists()


def record_deck_count(*, table, by, key: str, expected_version: int, cards: int, note: str = "") -> ActionResult:
    """The dealer counted the whole deck because its size was in doubt (THB-16), between hands.

    52 cards: logged, nothing else. Any other count: the pit boss is alerted and no hand starts until
    they have replaced the deck and acknowledged the alert (a defective deck is not played, THB-22).
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("The deck is counted at an open table."), "THB-16")
        if _unfinished_hand(w.table.hands) is not None:
            raise RuleViolation(N_("Count the deck between hands, once the cards are collected."), "THB-16")
        if not isinstance(cards, int) or isinstance(cards, bool) or not 0 <= cards <= 520:
            raise ValueError(f"a deck count is a number of cards from 0 to 520, not {cards!r}")
        complete = cards == DECK_SIZE
        w.event = "deck-counted"
        if complete:
            w.alerts.append(gettext("52 cards: the deck is complete (THB-16)."))
        else:
            message = gettext_noop(
                "%(table)s: the dealer counted %(cards)d cards instead of 52 (THB-16). Replace the deck and check "
                "it (THB-22); the next hand starts once this alert is acknowledged."
            ) if not note else gettext_noop(
                "%(table)s: the dealer counted %(cards)d cards instead of 52 (THB-16): “%(note)s”. Replace the deck "
                "and check it (THB-22); the next hand starts once this alert is acknowledged."
            )
            _raise_alert(w, Alert.Kind.DECK_COUNT, message, {"table": w.table.name, "cards": cards, "note": note})
        w.audit("table.deck_counted", cards=cards, complete=complete, note=note)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="record_deck_count",
                  work=work)


def report_suspect_cards(*, table, by, key: str, expected_version: int, note: str = "") -> ActionResult:
    """The dealer discreetly tells the pit boss that cards look marked or flawed (THB-17).

    At any moment of an open table, a hand in play included; the hand goes on as it was. Only the
    pit's consoles are told: the table's screens, the players' phones among them, hear nothing.
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("Cards are reported at an open table."), "THB-17")
        hand = _unfinished_hand(w.table.hands)
        params = {"table": w.table.name, "note": note}
        message = gettext_noop(
            "%(table)s: the dealer suspects marked or flawed cards (THB-17). Go to the table discreetly."
        ) if not note else gettext_noop(
            "%(table)s: the dealer suspects marked or flawed cards (THB-17): “%(note)s”. Go to the table discreetly."
        )
        _raise_alert(w, Alert.Kind.SUSPECT_CARDS, message, params, hand=hand)
        # The dealer's tablet says only that it was done: the alert's words are for the pit boss.
        w.alerts[-1] = gettext("The pit boss has been told discreetly (THB-17).")
        w.tell_only_the_pit()
        w.event = "cards-suspected"
        w.audit("table.cards_suspected", hand=hand.number if hand else None, note=note)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="report_suspect_cards",
                  work=work)


def start_hand(*, table, by, key: str, expected_version: int, mode: str = Hand.Mode.RECORDED) -> ActionResult:
    """"Hagan sus apuestas": a new hand with bets open (THB-30), under the table's rules of now.

    Dealt mode loads a freshly shuffled shoe through the engine; its order is stored as the hand's
    first record, so the hand replays exactly (THB-32, ``casino.rules.shuffle``).
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        if mode not in Hand.Mode.values:
            raise ValueError(f"mode is one of {', '.join(Hand.Mode.values)}, not {mode!r}")
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("The table is not open: the pit boss confirms the deck check first."), "THB-21")
        session = _live_session_locked(w.table)
        last = _unfinished_hand(session.hands)
        if last is not None:
            if last.is_over:
                raise RuleViolation(N_("The last hand's Bonus award waits for approval: the next hand starts "
                                      "once it is decided."), "THB-54")
            raise RuleViolation(N_("The hand in play is not finished."))
        if deck_count_pending(w.table):
            raise RuleViolation(N_("The last deck count was wrong: the pit boss replaces the deck and acknowledges "
                                  "the alert before the next hand."), "THB-16")
        rules = table_rules(w.table)
        number = _next_hand_number(w.table)
        hand = Hand.objects.create(table=w.table, session=session, number=number, mode=mode, rules=rules.to_dict(),
                                   started_by=w.by, started_at=w.now)
        hand._last_seq = 0  # no row yet (_next_seq)
        w.hand, w.session, w.state = hand, session, HandState(rules=rules)
        w.event = "hand-started"
        w.audit("hand.started", obj=hand, hand=number, mode=mode, rules=rules.to_dict())
        if mode == Hand.Mode.DEALT:
            state = HandState(rules=rules)
            after = _append(w, hand, state, LoadShoe(Shoe.shuffled().cards))
            _sync_hand(w, hand, state, after)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="start_hand", work=work)


def _read_record(record: dict) -> Action:
    if isinstance(record, Action):
        return record
    return action_from_dict(record)


def record_action(*, table, by, key: str, expected_version: int, record: dict) -> ActionResult:
    """Any dealer action of the hand in play, as its engine record (``action.to_dict()``).

    Bets, "no va más", the deal, each box's decision, the community cards, the dealer's and the
    boxes' cards. Awards are decided with ``decide_award``, irregularities reported with
    ``report_irregularity``; the shoe is loaded by ``start_hand``.
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        action = _read_record(record)
        if action.kind in (ApproveBonus.kind, DenyBonus.kind):
            raise NotAllowed(N_("A held Bonus award is approved or denied from the pit boss's console (C-30)."))
        if action.kind in IRREGULARITY_KINDS:
            raise RuleViolation(N_("Report an irregularity from the irregularity menu."))
        if action.kind not in DEALER_KINDS:
            raise RuleViolation(N_("The shoe is loaded when a dealt hand starts."), "THB-32")
        hand, before = _hand_and_state_in_play(w)
        after = _append(w, hand, before, action)
        _sync_hand(w, hand, before, after)
        w.event = "hand-action"

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="record_action", work=work)


def _previous_hand(hand: Hand) -> Hand | None:
    return hand.session.hands.filter(number__lt=hand.number).order_by("-number").first()


def repeat_last_bets(*, table, by, key: str, expected_version: int) -> ActionResult:
    """One tap: the last hand's antes and Bonus bets placed again in their boxes, those the limits
    allow (THB-19, THB-20, THB-26) and only in boxes with no bet yet; the others are listed."""

    def work(w: _Write) -> None:
        _require_dealer(w)
        hand, before = _hand_and_state_in_play(w)
        state = before
        if state.phase is not Phase.BETS_OPEN:
            raise RuleViolation(N_("Bets are closed ('no va más'): they can no longer be placed."), "THB-31")
        previous = _previous_hand(hand)
        if previous is None:
            raise RuleViolation(N_("There is no previous hand in this session to repeat."), "THB-30")
        placed = 0
        for box in hand_state(previous).boxes:
            if state.box(box.number) is not None:
                continue  # the dealer has already taken this box's bet for this hand
            bets = [PlaceAnte(box.number, box.ante)] + ([PlaceBonus(box.number, box.bonus)] if box.bonus else [])
            for bet in bets:
                try:
                    state = _append(w, hand, state, bet)
                    placed += 1
                except RuleViolation as refused:
                    w.alerts.append(str(refused))
                    break  # no Bonus without its ante (THB-52)
        if not placed:
            raise RuleViolation(
                N_("No bet of the last hand could be repeated: %(why)s"), "THB-30", why=" ".join(w.alerts)
            )
        _sync_hand(w, hand, before, state)
        w.event = "hand-action"

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="repeat_last_bets",
                  work=work)


def undo_last_action(*, table, by, key: str, expected_version: int, reason: str) -> ActionResult:
    """Take back the hand's last action before the hand moves on, with the reason (append-only).

    What may be undone: a bet or a box's decision, while no step of the procedure ("no va más",
    a deal, a card, a reveal, an irregularity) has come after it; or, in recorded mode, a card
    entry that is the very last thing done (a mistyped card, before anyone decided on it). Never
    once the hand is settled or void. The undo is a new row pointing at the undone one; replay
    skips both.
    """

    def work(w: _Write) -> None:
        _require_dealer(w)
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation(N_("Say why the action is undone."))
        hand = _hand_in_play(w)
        if hand.is_over:
            # Once settled the amounts are paid out and final (a recorded payout is never altered
            # afterwards); a dispute is a reconstruction with the pit boss (THB-71), not an undo.
            raise RuleViolation(N_("The hand is over: its record is final and can no longer be undone."), "THB-64")
        rows = list(hand.actions.order_by("seq"))
        effective = _effective_rows(rows)
        if not effective:
            raise RuleViolation(N_("There is nothing to undo in this hand."))
        target = effective[-1]
        moved_on = [r for r in rows if r.seq > target.seq and r.kind != HandAction.UNDO and r.kind not in
                    BETS_AND_DECISIONS]
        correctable = target.kind in CORRECTABLE_CARD_ENTRIES and hand.mode == Hand.Mode.RECORDED
        if moved_on or not (target.kind in BETS_AND_DECISIONS or correctable):
            raise RuleViolation(N_("The hand has moved on since that action: it can no longer be undone. "
                                  "Report an irregularity instead."))
        before = replay(_rules_of(hand), [r.record for r in effective])
        after = replay(_rules_of(hand), [r.record for r in effective[:-1]])
        HandAction.objects.create(
            hand=hand, seq=_next_seq(hand), kind=HandAction.UNDO, record={"action": HandAction.UNDO, "seq": target.seq},
            actor=w.by, role=w.role, at=w.now, key=w.key, undoes=target, reason=reason.strip(),
        )
        _sync_hand(w, hand, before, after)
        w.event = "undo"
        w.audit("hand.action_undone", obj=hand, hand=hand.number, seq=target.seq, record=_audit_details(target.record),
                reason=reason.strip())

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="undo_last_action",
                  work=work)


def report_irregularity(*, table, by, key: str, expected_version: int, record: dict) -> ActionResult:
    """One of the manual's irregularities (THB-24, THB-73..76): the engine's outcome applied (a void
    hand returns every stake) and the pit boss alerted. The dealer on duty or the pit boss reports."""

    def work(w: _Write) -> None:
        if not is_dealer_at(w.by, w.table):
            _require_supervisor(w)
        action = _read_record(record)
        if action.kind not in IRREGULARITY_KINDS:
            raise RuleViolation(N_("That is not one of the irregularities of the manual."), "THB-24")
        hand, before = _hand_and_state_in_play(w)
        after = _append(w, hand, before, action)
        params = {"table": w.table.name, "hand": hand.number}
        if after.phase is Phase.VOID:
            # The engine's reason is a Note: kept as template and values too, for each viewer's language.
            reason = after.void_reason
            if isinstance(reason, Note):
                params.update(alert_notes({"reason": Note(reason.template, after.void_clause, **reason.params)}))
            else:  # what the pit boss typed (THB-24, C-35), shown as typed: no note of the engine in it
                params.update(reason=f"{reason} ({after.void_clause})", notes={})
            _raise_alert(w, Alert.Kind.VOID, gettext_noop(
                "%(table)s, hand %(hand)d is void: %(reason)s. Every stake is returned."), params, hand=hand)
        else:
            params.update(alert_notes({"note": after.irregularities[-1]}))
            _raise_alert(w, Alert.Kind.IRREGULARITY, gettext_noop("%(table)s, hand %(hand)d: %(note)s"), params,
                         hand=hand)
        _sync_hand(w, hand, before, after)
        w.event = "irregularity"
        w.audit("hand.irregularity", obj=hand, hand=hand.number, record=action.to_dict(), phase=after.phase.value)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="report_irregularity",
                  work=work)


def decide_award(*, table, by, key: str, expected_version: int, hand_id: int, box: int, approve: bool,
                 reason: str = "") -> ActionResult:
    """Approve or deny a held Bonus award (THB-54): by the house option's role (C-30), never by the
    dealer who asked; approver, role, time and decision go to the audit log."""

    def work(w: _Write) -> None:
        hand = Hand.objects.filter(pk=hand_id, table=w.table).first()
        if hand is None:
            raise NotAllowed(N_("That hand is not at this table."))
        w.hand = hand
        refusal = award_decision_refusal(w.by, hand, w.table)
        if refusal is not None:
            raise refusal
        before = hand_state(hand)
        approver = w.by.get_username()
        decision = ApproveBonus(box, approver) if approve else DenyBonus(box, approver, reason)
        after = _append(w, hand, before, decision)
        _sync_hand(w, hand, before, after)
        bonus = before.settlement.box(box).bonus
        w.event = "award-decided"
        w.audit("hand.award_approved" if approve else "hand.award_denied", obj=hand, hand=hand.number, box=box,
                decision="approved" if approve else "denied", approver=approver, role=w.role,
                at=w.now.isoformat(), award=bonus.award, stake=bonus.wager.stake, payout=bonus.wager.net,
                reason=reason)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="decide_award", work=work)


def acknowledge_alert(*, table, by, key: str, expected_version: int, alert_id: int) -> ActionResult:
    """The pit boss has seen an alert of one of their tables."""

    def work(w: _Write) -> None:
        _require_supervisor(w)
        alert = Alert.objects.select_for_update().filter(pk=alert_id, table=w.table).first()
        if alert is None:
            raise NotAllowed(N_("That alert is not of this table."))
        if alert.acknowledged_at is not None:
            raise RuleViolation(N_("That alert was already acknowledged."))
        alert.acknowledged_by, alert.acknowledged_at = w.by, w.now
        alert.save(update_fields=["acknowledged_by", "acknowledged_at"])
        w.hand = alert.hand
        w.event = "alert-acknowledged"
        w.audit("alert.acknowledged", obj=alert, kind=alert.kind, message=alert.message, params=alert.params)

    return _write(table=table, by=by, key=key, expected_version=expected_version, action="acknowledge_alert",
                  work=work)

