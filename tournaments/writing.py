"""The tournament's part of the casino's one write path (``casino.writes.write``), for its two aggregates.

* The event (``TOURNAMENTS``, ``write_event``): every command of ``tournaments.services`` runs its work
  inside one ``EventWrite``: the permission check (``require``: the event's director, the floor, a table's
  dealer), the record replayed as it stands at the locked version (the replay the last write of this process
  left, ``reads.event.REPLAYS``, else the record read), the events appended through ``EventWrite.record``
  (applied at once, so an event the record cannot take is refused and nothing is half-recorded), the
  entries' rows kept as the record says (``_sync_entries``), the audit digest of what was appended, and whom
  to announce it to (``only_its_table_sees``).
* A dealt table (``TABLES``, ``write_at_table``): the dealer's taps at one table, on that table's own lock;
  what the write knew at its commit is left for the screens (``reads.hands.KNOWN``, ``SUMMARIES``).
* The helpers the commands share: the setup, the seats and entries as the record has them, and TDA-11's
  "between hands, never in one" (``between_hands``, ``hands_in_play``) for the floor's commands.

The write renders nothing and imports no screen; the reads import nothing from here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import OuterRef, Subquery

from casino import reads, writes
from casino.models import label_of
from casino.roles import DEAL, can
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem import HoldemHand
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import record, seating
from casino.rules.tournament.record import TournamentState
from casino.rules.tournament.structure import Structure
from casino.writes import Aggregate, NotAllowed, Write, Written, write
from tournaments import access
from tournaments.access import may_deal_at
from tournaments.digests import action_row, hand_digests, record_digest
from tournaments.models import (
    DealtTable,
    Entry,
    TableHand,
    TableHandAction,
    TableRequest,
    Tournament,
    TournamentEvent,
    TournamentRequest,
    event_screens_group,
    table_phones_group,
    tables_group,
)
from tournaments.reads.event import REPLAYS, replayer_as_read
from tournaments.reads.hands import (
    KNOWN,
    OVER,
    SUMMARIES,
    KnownAtCommit,
    SummaryAt,
    latest_hand,
    replayed,
    summary_of,
    tables_playing,
    written_at,
)


def _last_row_with_the_lock() -> dict:
    """The record's last row (its seq, type and time), read in the event's lock's own statement: what
    ``_replayer_for`` checks the kept replay against, without a round trip of its own under the lock."""
    last = TournamentEvent.objects.filter(tournament=OuterRef("pk")).order_by("-seq")
    return {f"record_last_{name}": Subquery(last.values(name)[:1]) for name in ("seq", "type", "at")}


TOURNAMENTS = Aggregate(
    model=Tournament, requests=TournamentRequest, owner="tournament", version_field="tournament_version",
    stream=lambda pk: label_of(Tournament, pk), groups=lambda t: [t.group_name, event_screens_group(t.pk)],
    saved_fields=("status",), read_with_the_lock=_last_row_with_the_lock,
)


@dataclass
class TournamentResult(Written):
    entry: int | None = None  # the entry a registration made
    refusal: RuleViolation | None = None  # a registration refused (and recorded with its reason)
    seqs: list[int] = field(default_factory=list)  # the record's events this write appended
    link: Any = None  # the player link a reissue made (its id)


@dataclass
class EventWrite(Write):
    """A write on a tournament: the record as it stands and the events this write appends."""

    events: list[dict] = field(default_factory=list)
    appended: list[int] = field(default_factory=list)
    replayer: record.Replayer | None = None
    rng: Any = SYSTEM_RANDOM  # what a plan or a late seat draws with (a seeded Random in the simulator)
    entry: int | None = None
    refusal: RuleViolation | None = None
    link: Any = None

    @property
    def tournament(self) -> Tournament:
        return self.row

    @property
    def state(self) -> TournamentState:
        return self.replayer.state()

    def record(self, type_: str, **fields: Any) -> int:
        """Append one event to the record (its seq follows the last; its time is the write's)."""
        if type_ not in record.EVENT_TYPES:
            raise ValueError(f"unknown record event {type_}")
        seq = len(self.events) + 1
        TournamentEvent.objects.create(tournament=self.row, seq=seq, at=self.now, type=type_, data=fields,
                                       by=self.by if getattr(self.by, "pk", None) else None, key=self.key)
        # applied at once: an event the record cannot take (a seat taken twice...) is refused here, and
        # the write rolls back
        self.replayer.append({"seq": seq, "at": _iso(self.now), "type": type_, **fields})
        self.appended.append(seq)
        return seq


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def write_event(*, tournament, by, key: str, expected_version: int | None, action: str,
                work: Callable[[EventWrite], None],
           who: str = "director", rng=SYSTEM_RANDOM) -> TournamentResult:
    """One command on a tournament through the one write path (``casino.writes.write``)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else int(tournament)
    box: dict[str, EventWrite] = {}

    def run(w: EventWrite) -> None:
        box["w"] = w
        w.rng = rng
        require(w, who)
        w.replayer = _replayer_for(w.row)
        w.events = w.replayer.events
        before = w.state  # usually frozen already: the last write kept it with the replay
        work(w)
        _sync_entries(w)
        if only_its_table_sees(w, before):
            w.groups.remove(event_screens_group(w.row.pk))
        if w.appended:
            # the log keeps a digest of the record's events this write appended (tournaments.audit_check)
            w.audit("tournament.record", first=w.appended[0], last=w.appended[-1],
                    sha256=record_digest(w.events[w.appended[0] - 1:]))

    done = write(TOURNAMENTS, pk=tournament_id, by=by, key=key, expected_version=expected_version, action=action,
                 work=run, write_class=EventWrite)
    w = box.get("w")
    if w is not None and not done.duplicate:
        # committed: the next write on this version starts from this replay instead of replaying it all
        REPLAYS.put((tournament_id, done.version), (len(w.events), w.replayer, w.replayer.state()))
    if w is None:  # a duplicate: the stored answer
        return TournamentResult(done.version, duplicate=True, alerts=done.alerts)
    return TournamentResult(done.version, alerts=done.alerts, entry=w.entry, refusal=w.refusal, seqs=w.appended,
                            link=w.link)


def only_its_table_sees(w: EventWrite, before: TournamentState) -> bool:
    """Whether this write is a plain hand's report: one hand recorded and nothing else, no one busted or
    serving a penalty in it, not hand-for-hand, no balancing under way, the chips in play as they were.
    It changes the stacks and the button of its own table only, which the event's screens away from that
    table do not show (the players' phones show their stack from their table's hand, the clock displays
    the average stack): it is not announced to them (``models.event_screens_group``). Anything else is."""
    if len(w.appended) != 1:
        return False
    hand, after = w.events[w.appended[0] - 1], w.state
    return (record.plain_hand(hand) and not (before.hand_for_hand or after.hand_for_hand)
            and before.pending_plan is None and after.pending_plan is None
            and after.chips_in_play == before.chips_in_play and after.players_left == before.players_left)


def _replayer_for(row: Tournament) -> record.Replayer:
    """The record replayed as it stands at the locked row's version (the cached replay when it matches).

    The kept replay is checked against the record's last row, which the unique (tournament, seq) index finds
    at once: the record's seqs run 1, 2, 3... and no row is ever rewritten (a PostgreSQL trigger), so a
    replay of n events whose last is the stored row n (its type and time) is the stored record. Counting the
    record's rows instead read every one under the event's lock, 100,000 at 10,000 entries (issue #37).

    The last row comes with the lock (``_last_row_with_the_lock``), as the lock's statement saw the record when
    it began: when it waited for another write, that one's rows are not in it (the locked row is the newest, the
    subqueries keep the statement's snapshot), so a kept replay that does not match is checked again against the
    record as it is now. Rows are appended only under this lock, so a match on the older snapshot cannot be
    wrong: a write committed since would have moved the version, and the kept replay with it."""
    kept = REPLAYS.take((row.pk, row.version))
    if kept is not None:
        length, replayer, _state = kept
        if length == len(replayer.events) and (_is_last(replayer.events, _last_seen_with_the_lock(row))
                                               or _is_last(replayer.events, _last_row(row.pk))):
            return replayer
    return replayer_as_read(row.pk)


def _last_seen_with_the_lock(row: Tournament) -> tuple[int, str, datetime] | None:
    seq = getattr(row, "record_last_seq", None)
    return None if seq is None else (seq, row.record_last_type, row.record_last_at)


def _last_row(tournament_id: int) -> tuple[int, str, datetime] | None:
    return (TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("-seq")
            .values_list("seq", "type", "at").first())


def _is_last(events: list[dict], last: tuple[int, str, datetime] | None) -> bool:
    """Whether the stored record's last row (its seq, type and time) is the last of ``events``."""
    if last is None or not events:
        return last is None and not events
    seq, type_, at = last
    mine = events[-1]
    return mine["seq"] == seq == len(events) and mine["type"] == type_ and mine["at"] == _iso(at)


def require(w: EventWrite, who: str) -> None:
    """The one permission check of every command on an event, whatever the entry point: its director (the
    games director and administrators for any event), the floor staff for the floor's commands
    (``tournaments.access``). A director of another event is refused, and told why."""
    if who == "overseer":
        if access.oversees_events(w.by):
            return
        raise NotAllowed(N_("Only the games director or an administrator assigns an event's director."))
    if access.directs(w.by, w.row):
        return
    if who in ("floor", "table") and access.works_floor(w.by, w.row):
        return
    if who == "table" and can(w.by, DEAL):
        return  # a dealer's tablet reports the end of its table's hand (tournaments.services.dealing)
    if access.directs_another_event(w.by, w.row):
        raise NotAllowed(N_("Only this event's director can do this: it is assigned to another director."))
    if who == "table":
        raise NotAllowed(N_("Only the table's dealer, the floor or the tournament director can do this."))
    if who == "floor":
        raise NotAllowed(N_("Only the tournament floor or its director can do this."))
    raise NotAllowed(N_("Only the tournament director can do this."))


def setup_of(w: EventWrite) -> record.Setup:
    setup = w.state.setup
    if setup is None:
        raise RuleViolation(N_("The tournament has no setup yet"), "CC-04")
    return setup


def structure_of(setup: record.Setup) -> Structure:
    return Structure.from_dict(setup.structure)


def _named(events: list[dict]) -> set[int] | None:
    """The entries these events change; None: any may have changed (a correction recomputes everything)."""
    named: set[int] = set()
    for event in events:
        if event["type"] == "correction":
            return None
        if event.get("entry") is not None:
            named.add(int(event["entry"]))
        named.update(int(p["entry"]) for p in event.get("players") or ())
        named.update(int(n) for n, _stack in event.get("stacks") or ())
    return named


def _sync_entries(w: EventWrite) -> None:
    """Keep the entries' status and chips (what lists and searches read) as the record says."""
    state = w.state
    named = _named(w.events[len(w.events) - len(w.appended):])
    if named is not None:
        _set_entries(w.row, state, named)
        return
    rows = Entry.objects.filter(tournament=w.row).only("number", "status", "chips")
    changed = []
    for row in rows:
        # each named entry looked up, never the whole field gathered (issue #37)
        e = _entry_or_none(state, row.number)
        if e is not None and (row.status != e.status or row.chips != e.stack):
            row.status, row.chips = e.status, e.stack
            changed.append(row)
    # one statement: a hand's end changes the stacks of up to ten entries, each an UPDATE of its own before
    Entry.objects.bulk_update(changed, ["status", "chips"], batch_size=500)


def _set_entries(tournament: Tournament, state: TournamentState, named: set[int]) -> None:
    """The entries the write's events name set to their status and chips in the replay, in one statement
    without reading them first: a hand's end names up to ten, under the event's lock (issue #37). An entry the
    replay does not know (a registration refused) is left as it is; nothing named, no statement.

    The statement is written out: the ORM's ``update`` with a CASE per field (what ``bulk_update`` makes) cost
    2.2 ms of Python to build for nine entries against 0.6 ms for the whole of this one (docs/benchmarks.md)."""
    known = {n: e for n in named if (e := _entry_or_none(state, n)) is not None}
    if not known:
        return
    with connection.cursor() as cursor:
        cursor.execute(_SET_ENTRIES, [list(known), [e.status for e in known.values()],
                                      [e.stack for e in known.values()], tournament.pk])


_SET_ENTRIES = ("UPDATE tournaments_entry AS e SET status = v.status, chips = v.chips "
                "FROM unnest(%s::integer[], %s::text[], %s::bigint[]) AS v(number, status, chips) "
                "WHERE e.tournament_id = %s AND e.number = v.number")


def _entry_or_none(state: TournamentState, number: int) -> record.EntryState | None:
    try:
        return state.entry(number)
    except RuleViolation:
        return None


def seated_fields(state: TournamentState, move: seating.Move, chips: int, *, plan: int | None = None,
                   table_seats: int | None = None, reason: str = "", drawn_button: int | None = None
                   ) -> dict[str, Any]:
    """A ``seated`` event's fields: the move, and the table's button and occupied seats at that moment. A
    redraw's or the final table's seat (``drawn_button``: the plan's button drawn for the table, CC-82) says
    that drawn button, the button of the table's next hand (docs/tournament-record.md), not the table's old
    one (issue #38 item 14)."""
    table = state.table_in_play(move.to_table)
    button = drawn_button if drawn_button is not None else (table.button if table else None)
    fields: dict[str, Any] = {
        "entry": move.entry, "table": move.to_table, "seat": move.to_seat, "chips": chips, "why": move.why,
        "button": button,
        "occupied": [s for s, _ in table.players] if table else [],
        "from_table": move.from_table, "from_seat": move.from_seat, "sits_out": move.sits_out,
    }
    if plan is not None:
        fields["plan"] = plan
    if table_seats:
        fields["table_seats"] = table_seats
    if reason:
        fields["reason"] = reason
    return fields


def entry_at(state: TournamentState, table: int, seat: int) -> int:
    """Who sits at ``table``, ``seat``: read from the table's seats (the replay keeps them with the entries'),
    the entry confirmed still in and seated there; never the whole field searched (issue #37)."""
    at = state.table_in_play(table)
    number = dict(at.players).get(seat) if at is not None else None
    if number is not None:
        entry = _entry_or_none(state, number)
        if entry is not None and entry.status in record.IN_PLAY and (entry.table, entry.seat) == (table, seat):
            return number
    for entry in state.in_play:  # not at the table's seats: as the field says (a refusal, rare, may search it)
        if entry.table == table and entry.seat == seat:
            return entry.entry
    raise RuleViolation(N_("No one sits at table %(table)s, seat %(seat)s"), "TDA-07", table=table, seat=seat)


def entry_row(w: EventWrite, number: int) -> Entry:
    row = Entry.objects.filter(tournament=w.row, number=number).select_related("player").first()
    if row is None:
        raise RuleViolation(N_("There is no entry %(entry)s in this event"), "CC-26", entry=number)
    return row


def hands_in_play(w: EventWrite, tables: set[int] | None = None) -> set[int]:
    """The event's tables (of ``tables``, or any) whose tablet-dealt hand is in play: dealt and not yet awarded,
    or a tap being written there (a deal starting reads the seats before it commits its hand)."""
    if tables is None:
        tables = set(DealtTable.objects.filter(tournament_id=w.row.pk).values_list("number", flat=True))
    # locked first: a deal that commits before the lock is then seen below, one after it reads this write's seats
    held = _busy_when_locked(w, tables)
    hands = TableHand.objects.filter(table__tournament_id=w.row.pk, table__number__in=tables)
    return held | set(hands.exclude(phase__in=OVER).values_list("table__number", flat=True))


def between_hands(w: EventWrite, *tables: int | None) -> None:
    """TDA-11: a player moves, busts or is recounted between hands, never in one (he plays the hand out). At a
    table whose hand is in play the floor's command is refused (nothing recorded): the hand's award would no
    longer find the seats it was dealt to, and its stacks would overwrite a count."""
    busy = hands_in_play(w, {t for t in tables if t is not None})
    if busy:
        raise RuleViolation(N_("Table %(table)s has a hand in play: do this when it ends."), "TDA-11",
                            table=min(busy))


def hand_for_hand_ends_at_one_table(w: EventWrite) -> None:
    """Issue #36: hand-for-hand synchronises several tables' deals (CC-11, RP-08); once one table is left to
    play it ends by itself, recorded as the clock's "off" (the level's clock runs again), audited."""
    if w.state.hand_for_hand and len(tables_playing(w.state)) <= 1:
        w.record("clock", kind="hand_for_hand_off", seconds=0, step=0)
        w.audit("tournament.clock", kind="hand_for_hand_off", seconds=0, step=0, why="one_table_left")


def as_dealt(state: TournamentState, tables: set[int]) -> dict[int, tuple]:
    """Who sits where at ``tables``, and with how many chips: what a hand in play there was dealt from."""
    out = {}
    for number in tables:
        t = state.table_in_play(number)
        players = tuple(t.players) if t else ()
        out[number] = (players, tuple(state.entry(n).stack for _s, n in players))
    return out


def dealt_from_a_tablet(w: EventWrite, table: int) -> bool:
    return TableHand.objects.filter(table__tournament_id=w.row.pk, table__number=table).exists()


def _busy_when_locked(w: EventWrite, touched: set[int]) -> set[int]:
    """Lock the event's dealt tables ``touched``, without waiting: a table a tap holds (a deal starting there,
    an award) is given back as busy. Taken after the event's lock, which an award takes after its table's,
    so waiting here could deadlock; not waiting, the deal that begins after this confirmation reads its
    seats as confirmed, and one that began before it is seen here."""
    numbers = set(DealtTable.objects.filter(tournament_id=w.row.pk, number__in=touched)
                  .values_list("number", flat=True))
    locked = set(DealtTable.objects.select_for_update(skip_locked=True)
                 .filter(tournament_id=w.row.pk, number__in=numbers).values_list("number", flat=True))
    return numbers - locked


#: What the director (or the floor for him) does at a table whatever its state: pausing, resuming, releasing,
#: putting a dealer on duty, ruling on the hand (a paused table is where he rules).
DIRECTOR_ACTIONS = frozenset({"pause", "resume", "release_board", "assign_dealer", "back_up", "skipped_hand"})


TABLES = Aggregate(
    model=DealtTable, requests=TableRequest, owner="table", version_field="table_version",
    stream=lambda pk: label_of(DealtTable, pk), groups=lambda t: [t.group_name, tables_group(t.tournament_id)],
    answer_ids=("hand",), saved_fields=("paused_reason", "dealer", "deck"),
)


@dataclass
class TableResult(writes.Written):
    @property
    def hand(self) -> int | None:  # the TableHand's id
        return self.ids.get("hand")


def hand_in_play(w: TableWrite) -> tuple[TableHand | None, HoldemHand | None, list[TableHandAction], int]:
    """Inside a write: the table's latest hand, its engine state, its effective rows and its last row's
    number: from what this process's write of the locked version knew, else read and replayed. The hand's
    row is a copy: a write that rolls back must not leave its changes in what the next one starts from."""
    written = written_at(w.table, w.table.version)
    if written is not None:
        return copy.copy(written.hand), written.engine, list(written.rows), written.last
    hand = latest_hand(w.table)
    if hand is None:
        return None, None, [], 0
    engine, rows, last = replayed(hand)
    return hand, engine, rows, last


@dataclass
class TableWrite(Write):
    hand: TableHand | None = None
    #: the hand's effective rows and the engine's state after this write, where the write has them
    seen: tuple[list[TableHandAction], HoldemHand, int] | None = None
    #: the hand's rows this write appended and has not audited yet (``audit_hand``)
    appended: list[TableHandAction] = field(default_factory=list)

    @property
    def table(self) -> DealtTable:
        return self.row

    def answer_ids(self) -> dict[str, int | None]:
        return {"hand": self.hand.pk if self.hand is not None else None}

    def before_announce(self) -> None:
        # at the commit: what this write knew, and the summary of its version for the console and the phones
        if self.hand is not None and self.seen is not None:
            rows, engine, last = self.seen
            written = KnownAtCommit(self.table, self.hand, tuple(rows), engine, last)
            key = (reads.identity(self.table), self.table.version)
            reads.at_commit(lambda: KNOWN.put(key, written))
            SUMMARIES.leave(self.table, SummaryAt(self.table.version,
                                                  summary_of(self.table, self.hand, engine, rows, last)))


def write_at_table(table: DealtTable, *, by, key: str, expected_version: int, action: str,
              work: Callable[[TableWrite], None]) -> TableResult:
    def run(w: TableWrite) -> None:
        if not may_deal_at(w.by, w.table):
            raise NotAllowed(N_("Only the table's dealer on duty, the floor or the tournament director can do "
                                "this."))
        if w.table.paused_reason and action not in DIRECTOR_ACTIONS:
            raise RuleViolation(N_("The director has paused play at this table: %(reason)s"), "TDA-01",
                                reason=w.table.paused_reason)
        work(w)
        if w.hand is not None:
            # The phones of the players at the table follow the hand: whose turn, their stack, their clock.
            w.groups = [*w.groups, table_phones_group(w.table.tournament_id, w.table.number)]

    done = write(TABLES, pk=table.pk, by=by, key=key, expected_version=expected_version, action=action, work=run,
                 write_class=TableWrite)
    return TableResult(done.version, done.ids, duplicate=done.duplicate, alerts=done.alerts)


def append_records(w: TableWrite, hand: TableHand, records: list[dict], *, last: int | None = None,
            **fields: Any) -> list[TableHandAction]:
    """Append ``records`` to the hand's record after its row ``last`` (read here when not known already);
    the rows made."""
    if last is None:
        last = hand.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
    made = TableHandAction.objects.bulk_create([
        TableHandAction(hand=hand, seq=last + i, record=record, by=w.by, at=w.now, **fields)
        for i, record in enumerate(records, start=1)
    ])
    w.appended += made
    return made


def audit_hand(w: TableWrite, action: str, on: TableHand, **details: Any) -> None:
    """Audit a write on the hand ``on`` with the rows it appended and the digests of the hand's deciding fields
    after it: ``verify_audit`` finds a row no event lists, or a hand's entries or level changed behind the
    services' back (issue #34; tournaments.audit_check)."""
    rows, w.appended = w.appended, []
    w.audit(action, obj=on, **details, rows=[action_row(r) for r in rows], hand_fields=hand_digests(on))
