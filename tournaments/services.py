"""The commands of a poker tournament, and the reads the screens use (issue #14).

Every command is ``fn(*, tournament, by, key, expected_version, ...) -> TournamentResult`` and runs
through the casino's one write path (``casino.writes.write``, with ``TOURNAMENTS`` saying what is a
tournament's): lock, idempotency key, version, then the command's own part:

- who may act: the event's own director (``tournaments.access.directs``; the games director and the
  administrators direct any event: setup, registration, the clock, withdrawals, disqualifications,
  overrides, payouts, results) or the floor (``access.works_floor``: registration desk, busts, hands,
  seat corrections, chip counts, buttons, confirming moves); a director of another event is refused;
- the rules engine (``casino.rules.tournament``): eligibility, the draw, the plan, the race, the prizes;
- the record: each command appends its events (``TournamentEvent``, seq increasing, ``at`` the write's
  time) and its audit events; the record is replayed once per write (``record.Replayer``) and each event
  appended is applied to it at once, so an event the record cannot take (a seat taken twice, a bust of
  someone already out) is refused and, the transaction rolling back, nothing is half-recorded;
- the version is bumped and the tournament's group hears of it after commit.

What was drawn at random is recorded (the draw's seats, the plan's moves, the race's cards), so the
record is replayed without drawing. No name or ID number goes into the record: they stay in the
``Player`` and ``IdCheck`` rows.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from casino.audit import record_event
from casino.memo import BoundedCache
from casino.models import label_of
from casino.roles import DEAL, DIRECT_TOURNAMENTS, can
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem.hand import ENDED
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import bounds, chip_race, clock, eligibility, penalties, record, seating
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.record import TournamentState, plan_to_dict
from casino.rules.tournament.structure import Structure
from casino.writes import Aggregate, NotAllowed, StaleVersion, Write, Written, write
from tournaments import access, screens
from tournaments.digests import exclusion_list_digest, player_digest
from tournaments.models import (
    DealtTable,
    Entry,
    ExclusionListEntry,
    IdCheck,
    Player,
    StructureTemplate,
    TableHand,
    Tournament,
    TournamentEvent,
    TournamentRequest,
    event_screens_group,
    normalise_id_number,
)

__all__ = [
    "TOURNAMENTS", "NotAllowed", "StaleVersion", "TournamentResult", "accredit", "change_setup", "clock_command",
    "close_registration", "colour_up", "confirm_plan", "copy_structure_template", "correct", "correct_seat",
    "create_tournament", "disqualify", "end_penalty", "enter_chip_count", "give_penalty", "hold_stack",
    "import_exclusion_csv", "race_odd_chips",
    "assign_director", "revoke_player_links",
    "open_registration", "override_seat", "pay_prize", "propose_plan", "record_bust", "record_results",
    "register", "remove_absent_stacks", "report_hand", "save_structure_template", "set_button",
    "start_tournament", "tournament_record", "tournament_state", "withdraw", "withdraw_hand",
]

#: Fields of the setup a director may change (``change_setup``), as the record's ``setup`` names them.
SETUP_FIELDS = ("buy_in", "fee", "starting_stack", "seats_per_table", "structure", "payout_table", "break_order",
                "options", "late_registration_level")
#: The record's events a floor person may correct (the director may correct any but the setup).
FLOOR_CORRECTABLE = frozenset({"bust", "seated", "hand", "chip_count", "button", "id_checked", "plan_confirmed"})
NOT_CORRECTABLE = frozenset({"setup", "correction"})


# --- The aggregate and its writes --------------------------------------------------------------------


TOURNAMENTS = Aggregate(
    model=Tournament, requests=TournamentRequest, owner="tournament", version_field="tournament_version",
    stream=lambda pk: label_of(Tournament, pk), groups=lambda t: [t.group_name, event_screens_group(t.pk)],
    saved_fields=("status",),
)


@dataclass
class TournamentResult(Written):
    entry: int | None = None  # the entry a registration made
    refusal: RuleViolation | None = None  # a registration refused (and recorded with its reason)
    seqs: list[int] = field(default_factory=list)  # the record's events this write appended
    link: Any = None  # the player link a reissue made (its id)


@dataclass
class _Write(Write):
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


def record_digest(events: list[dict]) -> str:
    """A digest of record events (canonical JSON), as the audit log keeps it for each write."""
    text = json.dumps(events, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _events_of(tournament_id: int) -> list[dict]:
    return [e.as_record() for e in TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("seq")]


def _write(*, tournament, by, key: str, expected_version: int | None, action: str, work: Callable[[_Write], None],
           who: str = "director", rng=SYSTEM_RANDOM) -> TournamentResult:
    """One command on a tournament through the one write path (``casino.writes.write``)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else int(tournament)
    box: dict[str, _Write] = {}

    def run(w: _Write) -> None:
        box["w"] = w
        w.rng = rng
        _require(w, who)
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
                 work=run, write_class=_Write)
    w = box.get("w")
    if w is not None and not done.duplicate:
        # committed: the next write on this version starts from this replay instead of replaying it all
        _REPLAYERS.put((tournament_id, done.version), (len(w.events), w.replayer, w.replayer.state()))
    if w is None:  # a duplicate: the stored answer
        return TournamentResult(done.version, duplicate=True, alerts=done.alerts)
    return TournamentResult(done.version, alerts=done.alerts, entry=w.entry, refusal=w.refusal, seqs=w.appended,
                            link=w.link)


def only_its_table_sees(w: _Write, before: TournamentState) -> bool:
    """Whether this write is a plain hand's report: one hand recorded and nothing else, no one busted or
    serving a penalty in it, not hand-for-hand, no balancing under way, the chips in play as they were.
    It changes the stacks and the button of its own table only, which the event's screens away from that
    table do not show (the players' phones show their stack from their table's hand, the clock displays
    the average stack): it is not announced to them (``models.event_screens_group``). Anything else is."""
    if len(w.appended) != 1:
        return False
    hand, after = w.events[w.appended[0] - 1], w.state
    return (hand["type"] == "hand" and not (before.hand_for_hand or after.hand_for_hand)
            and not any(p.get("penalty") for p in hand.get("players") or ())
            and before.pending_plan is None and after.pending_plan is None
            and after.chips_in_play == before.chips_in_play and after.players_left == before.players_left)


class _Replayers:
    """The replay each tournament's last committed write left, keyed by (tournament, version): a write
    takes it (once: it then appends to it) instead of replaying the whole record, which made each write
    cost the length of the record. Checked against the stored record's length before use; a write that
    fails leaves nothing behind (the one it took is gone), so the next replays from the rows."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        #: (tournament, version) -> (events, the replay, its state frozen when kept)
        self.kept: dict[tuple[int, int], tuple[int, record.Replayer, TournamentState]] = {}

    def put(self, key: tuple[int, int], value: tuple[int, record.Replayer, TournamentState]) -> None:
        self.kept.pop(key, None)
        self.kept[key] = value
        while len(self.kept) > self.size:
            self.kept.pop(next(iter(self.kept)))

    def take(self, key: tuple[int, int]) -> tuple[int, record.Replayer, TournamentState] | None:
        return self.kept.pop(key, None)

    def state(self, key: tuple[int, int]) -> TournamentState | None:
        kept = self.kept.get(key)
        return None if kept is None else kept[2]


_REPLAYERS = _Replayers()


def _replayer_for(row: Tournament) -> record.Replayer:
    """The record replayed as it stands at the locked row's version (the cached replay when it matches)."""
    kept = _REPLAYERS.take((row.pk, row.version))
    if kept is not None:
        length, replayer, _state = kept
        if length == len(replayer.events) and TournamentEvent.objects.filter(tournament_id=row.pk).count() == length:
            return replayer
    return replayer_as_read(row.pk)


# --- Who may act -------------------------------------------------------------------------------------


def _require(w: _Write, who: str) -> None:
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
        return  # a dealer's tablet reports the end of its table's hand (tournaments.dealing)
    if access.directs_another_event(w.by, w.row):
        raise NotAllowed(N_("Only this event's director can do this: it is assigned to another director."))
    if who == "table":
        raise NotAllowed(N_("Only the table's dealer, the floor or the tournament director can do this."))
    if who == "floor":
        raise NotAllowed(N_("Only the tournament floor or its director can do this."))
    raise NotAllowed(N_("Only the tournament director can do this."))


def _is_director(user) -> bool:
    """A tournament director (of some event): who creates events, keeps structure templates and the exclusion
    list. What he may do at one event is ``access.directs``."""
    return can(user, DIRECT_TOURNAMENTS)


def assign_director(*, tournament, by, key: str, expected_version: int, director) -> TournamentResult:
    """The games director (or an administrator) assigns the event to a tournament director, or reassigns it:
    from then on he directs it and the one before does not (``tournaments.access``). Audited, with both."""
    from django.contrib.auth import get_user_model

    from casino.roles import Role

    chosen = get_user_model().objects.filter(pk=getattr(director, "pk", director), is_active=True,
                                             groups__name=Role.TOURNAMENT_DIRECTOR).first()
    if chosen is None:
        raise RuleViolation(N_("Choose one of the casino's active tournament directors."), "CC-03")

    def work(w: _Write) -> None:
        before = w.row.director_id
        if before == chosen.pk:
            raise RuleViolation(N_("%(name)s directs this event already."), "CC-03",
                                name=chosen.get_full_name() or chosen.username)
        Tournament.objects.filter(pk=w.row.pk).update(director=chosen)
        w.row.director = chosen
        w.audit("tournament.director_assigned", before=before, after=chosen.pk, director=chosen.username)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="director_assigned", work=work, who="overseer")


# --- The players' links of the event -------------------------------------------------------------------


def revoke_player_links(*, tournament, by, key: str, expected_version: int, entry: int,
                        reissue: bool = False) -> TournamentResult:
    """The director ends every link of an entry that still works (a lost or stolen receipt): after commit the
    phones on them are told and closed, on every process (``screens.revoke_entry_links``). With ``reissue``,
    a new link for the same entry in the same write (``result.link``), refused for an entry out of the event
    (``screens.issue_entry_link``). Each link ended is audited (``player_link.revoked``), as the pit's are."""

    def work(w: _Write) -> None:
        row = _entry_row(w, entry)
        ended = screens.revoke_entry_links(row, by=w.by, now=w.now)
        if not ended and not reissue:
            raise RuleViolation(N_("Entry %(entry)s has no link that still works."), None, entry=entry)
        for link in ended:
            w.audit("player_link.revoked", obj=link, entry=entry, reason="reissued" if reissue else "revoked")
        if reissue:
            w.link = screens.issue_entry_link(row, by=w.by).pk

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="player_links_revoked", work=work)


# --- Reads -------------------------------------------------------------------------------------------


_STATES: BoundedCache[TournamentState] = BoundedCache(64)


def tournament_record(tournament) -> list[dict]:
    """The record's events in order, as exported (docs/tournament-record.md)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else int(tournament)
    return _events_of(tournament_id)


def tournament_state(tournament: Tournament) -> TournamentState:
    """The tournament as its record stands: replayed once per version per process."""
    kept = _REPLAYERS.state((tournament.pk, tournament.version))
    if kept is not None:  # this process made that version: its write's replay is the state
        return kept
    return _STATES.get_or_make((tournament.pk, tournament.version), lambda: record_as_read(tournament.pk)[1],
                               alone=True)


# This process's replay of each event's record as far as it has read it. The record is append-only and
# numbered 1, 2, 3... (a PostgreSQL trigger refuses any rewrite), so a read at a new version reads and
# applies only the events appended since: at a hundred dealt tables a hand ends about every second, and
# each new version read the whole record again (thousands of events) in each process, for the phones'
# board and every tablet's check. A correction replays the whole record (``record.Replayer``).
_FOLLOWED: BoundedCache[record.Replayer] = BoundedCache(16)
_FOLLOWING = threading.Lock()


def _appended_since(replayer: record.Replayer | None, tournament_id: int) -> list[dict]:
    """The record's events this process's replay has not read yet (all of them without one)."""
    known = len(replayer.events) if replayer is not None else 0
    return [e.as_record() for e in
            TournamentEvent.objects.filter(tournament_id=tournament_id, seq__gt=known).order_by("seq")]


def replayer_as_read(tournament_id: int) -> record.Replayer:
    """The record replayed as it stands now, for a write that finds no replay of its own to go on from (the
    last write was the other process's, as every other hand's end at a hundred tables): a copy of this
    process's replay (``record.Replayer.copy``) with the events appended since, read and applied; inside a
    write they may still roll back, so the process's own replay is not advanced. Replaying the whole
    record instead would hold the event's lock for as long as the record is long
    (docs/decisions/2026-11-26-replay-copied-under-the-lock.md)."""
    with _FOLLOWING:  # the process's replay is advanced in place by the reads outside a write
        replayer = _FOLLOWED.get(tournament_id)
        return _gone_on(replayer, _appended_since(replayer, tournament_id))


def _gone_on(replayer: record.Replayer | None, new: list[dict]) -> record.Replayer:
    """A replay of its own: a copy of ``replayer`` with the ``new`` events applied (a new replay of them without
    one); ``replayer`` is left as it was. Under ``_FOLLOWING``: the reads outside a write advance it in place."""
    if replayer is None:
        return record.Replayer(new)
    twin = replayer.copy()
    for event in new:
        twin.append(event)
    return twin


def record_as_read(tournament_id: int) -> tuple[list[dict], TournamentState]:
    """The record's events as they stand now (the export's form) and its replayed state, reading only
    what this process has not read yet."""
    with _FOLLOWING:  # one reader at a time: each only reads what is new
        replayer = _FOLLOWED.get(tournament_id)
        new = _appended_since(replayer, tournament_id)
        if connection.in_atomic_block:
            # Inside a write what it read may still roll back: the kept replay is not touched.
            if not new and replayer is not None:
                return list(replayer.events), replayer.state()
            twin = _gone_on(replayer, new)
            return list(twin.events), twin.state()
        if replayer is None:
            replayer = record.Replayer(new)
        else:
            for event in new:
                replayer.append(event)
        _FOLLOWED.put(tournament_id, replayer)
        return list(replayer.events), replayer.state()


def _setup(w: _Write) -> record.Setup:
    setup = w.state.setup
    if setup is None:
        raise RuleViolation(N_("The tournament has no setup yet"), "CC-04")
    return setup


def _structure(setup: record.Setup) -> Structure:
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


def _sync_entries(w: _Write) -> None:
    """Keep the entries' status and chips (what lists and searches read) as the record says."""
    by_number = {e.entry: e for e in w.state.entries}
    rows = Entry.objects.filter(tournament=w.row).only("number", "status", "chips")
    named = _named(w.events[len(w.events) - len(w.appended):])
    if named is not None:
        rows = rows.filter(number__in=named)
    changed = []
    for row in rows:
        e = by_number.get(row.number)
        if e is not None and (row.status != e.status or row.chips != e.stack):
            row.status, row.chips = e.status, e.stack
            changed.append(row)
    # one statement: a hand's end changes the stacks of up to ten entries, each an UPDATE of its own before
    Entry.objects.bulk_update(changed, ["status", "chips"], batch_size=500)


def _seated_fields(state: TournamentState, move: seating.Move, chips: int, *, plan: int | None = None,
                   table_seats: int | None = None, reason: str = "") -> dict[str, Any]:
    """A ``seated`` event's fields: the move, and the table's button and occupied seats at that moment."""
    table = state.table_in_play(move.to_table)
    fields: dict[str, Any] = {
        "entry": move.entry, "table": move.to_table, "seat": move.to_seat, "chips": chips, "why": move.why,
        "button": table.button if table else None,
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


def _entry_at(state: TournamentState, table: int, seat: int) -> int:
    for number, entry in ((e.entry, e) for e in state.in_play):
        if entry.table == table and entry.seat == seat:
            return number
    raise RuleViolation(N_("No one sits at table %(table)s, seat %(seat)s"), "TDA-07", table=table, seat=seat)


def _entry_row(w: _Write, number: int) -> Entry:
    row = Entry.objects.filter(tournament=w.row, number=number).select_related("player").first()
    if row is None:
        raise RuleViolation(N_("There is no entry %(entry)s in this event"), "CC-26", entry=number)
    return row


# --- The tables dealt from a tablet: between hands, never in one (TDA-11) -----------------------------------

_ENDED_PHASES = tuple(phase.value for phase in ENDED)


def _hands_in_play(w: _Write, tables: set[int] | None = None) -> set[int]:
    """The event's tables (of ``tables``, or any) whose tablet-dealt hand is in play: dealt and not yet awarded,
    or a tap being written there (a deal starting reads the seats before it commits its hand)."""
    if tables is None:
        tables = set(DealtTable.objects.filter(tournament_id=w.row.pk).values_list("number", flat=True))
    # locked first: a deal that commits before the lock is then seen below, one after it reads this write's seats
    held = _busy_when_locked(w, tables)
    hands = TableHand.objects.filter(table__tournament_id=w.row.pk, table__number__in=tables)
    return held | set(hands.exclude(phase__in=_ENDED_PHASES).values_list("table__number", flat=True))


def _between_hands(w: _Write, *tables: int | None) -> None:
    """TDA-11: a player moves, busts or is recounted between hands, never in one (he plays the hand out). At a
    table whose hand is in play the floor's command is refused (nothing recorded): the hand's award would no
    longer find the seats it was dealt to, and its stacks would overwrite a count."""
    busy = _hands_in_play(w, {t for t in tables if t is not None})
    if busy:
        raise RuleViolation(N_("Table %(table)s has a hand in play: do this when it ends."), "TDA-11",
                            table=min(busy))


def _as_dealt(state: TournamentState, tables: set[int]) -> dict[int, tuple]:
    """Who sits where at ``tables``, and with how many chips: what a hand in play there was dealt from."""
    out = {}
    for number in tables:
        t = state.table_in_play(number)
        players = tuple(t.players) if t else ()
        out[number] = (players, tuple(state.entry(n).stack for _s, n in players))
    return out


def _dealt_from_a_tablet(w: _Write, table: int) -> bool:
    return TableHand.objects.filter(table__tournament_id=w.row.pk, table__number=table).exists()


def plan_tables(plan: seating.Plan, tables: tuple[seating.TableSeats, ...]) -> set[int]:
    """The tables whose seats a plan changes: those its moves leave and reach, those it breaks, every table
    in play for a redraw (a halt only stops the next deal, and waits for nothing)."""
    touched = {t for m in plan.moves for t in (m.from_table, m.to_table) if t is not None} | set(plan.broken)
    if plan.redraw:
        touched |= {t.table for t in tables}
    return touched


def _busy_when_locked(w: _Write, touched: set[int]) -> set[int]:
    """Lock the event's dealt tables ``touched``, without waiting: a table a tap holds (a deal starting there,
    an award) is given back as busy. Taken after the event's lock, which an award takes after its table's,
    so waiting here could deadlock; not waiting, the deal that begins after this confirmation reads its
    seats as confirmed, and one that began before it is seen here."""
    numbers = set(DealtTable.objects.filter(tournament_id=w.row.pk, number__in=touched)
                  .values_list("number", flat=True))
    locked = set(DealtTable.objects.select_for_update(skip_locked=True)
                 .filter(tournament_id=w.row.pk, number__in=numbers).values_list("number", flat=True))
    return numbers - locked


# --- Setup (CC-04) -----------------------------------------------------------------------------------


def _setup_fields(*, buy_in: int, fee: int, starting_stack: int, seats_per_table: int, structure: dict | None,
                  payout_table, break_order, options: dict | None, late_registration_level: int | None) -> dict:
    from casino.rules.tournament import structure as structure_rules

    if seats_per_table not in (10, 9, 8, 6):
        raise RuleViolation(N_("A table seats 10, 9, 8 or 6 players, not %(seats)s"), "CC-48", seats=seats_per_table)
    if buy_in < 0 or fee < 0 or starting_stack <= 0:
        raise RuleViolation(N_("The buy-in, fee and starting stack must be positive"), "CC-14")
    if max(buy_in, fee) > bounds.MAX_MONEY or starting_stack > bounds.MAX_STARTING_STACK:
        # issue #34: past these no real event, and no 32-bit column of the event's row
        raise RuleViolation(N_("The buy-in and fee cannot be more than %(money)s, the starting stack more than "
                               "%(stack)s"), "CC-14", money=bounds.MAX_MONEY, stack=bounds.MAX_STARTING_STACK)
    house = HouseOptions.from_dict(options)
    steps = structure if structure else structure_rules.default_structure().as_dict()
    structure_rules.check_structure(Structure.from_dict(steps))
    return {"buy_in": buy_in, "fee": fee, "starting_stack": starting_stack, "seats_per_table": seats_per_table,
            "structure": steps,
            "payout_table": [[int(n), [int(s) for s in shares]] for n, shares in payout_table or ()],
            "break_order": [int(t) for t in break_order or ()], "options": house.as_dict(),
            "late_registration_level": late_registration_level}


def create_tournament(*, by, key: str, name: str, starts_at: datetime, buy_in: int, starting_stack: int, fee: int = 0,
                      seats_per_table: int = 9, structure: dict | None = None, payout_table=(), break_order=(),
                      options: dict | None = None, late_registration_level: int | None = None,
                      ends_at: datetime | None = None) -> tuple[Tournament, TournamentResult]:
    """A new event with its setup recorded (the record's first event)."""
    if not _is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    fields = _setup_fields(buy_in=buy_in, fee=fee, starting_stack=starting_stack, seats_per_table=seats_per_table,
                           structure=structure, payout_table=payout_table, break_order=break_order, options=options,
                           late_registration_level=late_registration_level)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name, starts_at=starts_at, ends_at=ends_at, buy_in=buy_in, fee=fee, starting_stack=starting_stack,
            seats_per_table=seats_per_table, structure=fields["structure"], payout_table=fields["payout_table"],
            break_order=fields["break_order"], house_options=fields["options"],
            late_registration_level=late_registration_level, director=by,
        )

        def work(w: _Write) -> None:
            w.record("setup", **fields)
            w.audit("tournament.setup", name=name, buy_in=buy_in, fee=fee, starting_stack=starting_stack)

        result = _write(tournament=tournament, by=by, key=key, expected_version=0, action="setup", work=work)
    tournament.refresh_from_db()
    return tournament, result


def change_setup(*, tournament, by, key: str, expected_version: int, reason: str = "", **changes) -> TournamentResult:
    """A change to the setup, recorded as ``setup_changed`` (``structure_changed`` for the structure alone)
    and announced to every screen (CC-04)."""
    unknown = set(changes) - set(SETUP_FIELDS)
    if unknown:
        raise ValueError(f"not a setup field: {', '.join(sorted(unknown))}")

    def work(w: _Write) -> None:
        current = record.setup_event_fields(_setup(w))
        merged = _setup_fields(**{**current, **changes})
        changed = {k: merged[k] for k in changes if merged[k] != current[k]}
        if not changed:
            raise RuleViolation(N_("Nothing in the setup changed"), "CC-04")
        if w.state.registration == "closed" and ({"buy_in", "fee"} & set(changed)):
            raise RuleViolation(N_("The buy-in and fee are fixed once registration closes"), "CC-14")
        if set(changed) == {"structure"}:
            w.record("structure_changed", structure=changed["structure"], reason=reason)
        else:
            w.record("setup_changed", changes=changed, reason=reason)
        row = w.tournament
        for name, column in (("buy_in", "buy_in"), ("fee", "fee"), ("starting_stack", "starting_stack"),
                             ("seats_per_table", "seats_per_table"), ("structure", "structure"),
                             ("payout_table", "payout_table"), ("break_order", "break_order"),
                             ("options", "house_options"), ("late_registration_level", "late_registration_level")):
            if name in changed:
                setattr(row, column, changed[name])
        row.save()
        _clock_still_replays(w)  # CC-86: a structure cut below the step the clock has reached
        w.event = "setup_changed"  # CC-04: every screen shows the change
        w.audit("tournament.setup_changed", fields=sorted(changed), reason=reason)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="setup_changed",
                  work=work)


def _clock_still_replays(w: _Write) -> None:
    """The clock replays on what this write leaves (its commands, the structure, the house options): else every
    screen showing the clock would fail to read it. The clock's own refusal rolls the write back (issue #34)."""
    setup = _setup(w)
    clock.clock_at(_structure(setup), list(w.state.clock_events), w.now,
                   hand_for_hand_seconds=setup.options.hand_for_hand_seconds)


def save_structure_template(*, by, name: str, structure: dict) -> StructureTemplate:
    """Keep a structure under a name, to copy into later events."""
    from casino.rules.tournament import structure as structure_rules

    if not _is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    structure_rules.check_structure(Structure.from_dict(structure))
    with transaction.atomic():
        template, _created = StructureTemplate.objects.update_or_create(
            name=name, defaults={"structure": structure, "created_by": by})
        record_event(action="tournament.structure_template_saved", actor=by, obj=template, details={"name": name})
    return template


def copy_structure_template(*, tournament, template: StructureTemplate, by, key: str, expected_version: int
                            ) -> TournamentResult:
    return change_setup(tournament=tournament, by=by, key=key, expected_version=expected_version,
                        reason=f"template {template.name}", structure=dict(template.structure))


# --- Registration and accreditation (CC-14, CC-23..28, CC-42) ----------------------------------------


def open_registration(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    def work(w: _Write) -> None:
        _setup(w)
        if w.state.registration != "not_open":
            raise RuleViolation(N_("Registration is open or closed already"), "CC-14")
        w.record("registration_opened")
        w.row.status = Tournament.Status.REGISTERING
        w.audit("tournament.registration_opened")

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="registration_opened", work=work)


def register(*, tournament, by, key: str, expected_version: int, name: str, id_type: str, id_number: str,
             birth_date: date | None, image_consent: bool = False, staff: bool = False,
             rng=SYSTEM_RANDOM) -> TournamentResult:
    """Register a player (CC-23..27): the ID seen at the desk is checked (the entry checkpoint), and a
    refusal is RECORDED with its reason and returned (``result.refusal``) for the desk to show. After the
    start (late registration, re-entry), the new entry is seated at once (TDA-08, CC-57)."""

    def work(w: _Write) -> None:
        setup = _setup(w)
        if w.state.registration != "open":
            raise RuleViolation(N_("Registration is not open"), "CC-14")
        typed_wrong = eligibility.desk_refusal(name=name, id_number=id_number, birth_date=birth_date)
        if typed_wrong is not None:
            raise typed_wrong  # issue #34: never stored as what normalising leaves of it
        number_seen = normalise_id_number(id_number)
        player = Player.objects.filter(id_type=id_type, id_number=number_seen).first()
        earlier = list(Entry.objects.filter(tournament=w.row, player=player)) if player else []
        applicant = eligibility.Applicant(
            id_type=id_type, id_number=number_seen, birth_date=birth_date, staff=staff,
            excluded=ExclusionListEntry.objects.filter(id_type=id_type, id_number=number_seen).exists(),
            entries_in_event=len(earlier),
        )
        today = timezone.localdate(w.now)
        refused = eligibility.refusal(applicant, on=today, options=setup.options)
        if refused is None and earlier:
            still_in = [e for e in earlier if w.state.entry(e.number).status in record.IN_PLAY]
            if still_in:
                refused = RuleViolation(N_("This player is still in the event with entry %(entry)s"), "CC-26",
                                        entry=still_in[0].number)
        if refused is not None:
            w.record("refused", reason=refused.message, clause=refused.clause)
            w.audit("tournament.registration_refused", clause=refused.clause, reason=refused.message)
            w.refusal = refused
            w.alerts.append(refused.message)
            return
        if player is None:
            player = _new_player(name=name, id_type=id_type, id_number=number_seen, birth_date=birth_date)
        if image_consent and not player.image_consent:
            player.image_consent, player.image_consent_at = True, w.now
            player.save(update_fields=["image_consent", "image_consent_at"])
        # A registration corrected away keeps its number (its row and its receipt stay, CC-04: corrected, not
        # erased): the next entry takes the next number never given, not the one after the entries standing.
        number = (Entry.objects.filter(tournament=w.row).aggregate(last=Max("number"))["last"] or 0) + 1
        reentry_of = earlier[-1].number if earlier else None
        entry = Entry.objects.create(tournament=w.row, number=number, player=player, player_name=player.name)
        w.record("registered", entry=number, reentry_of=reentry_of)
        IdCheck.objects.create(entry=entry, checkpoint=IdCheck.Checkpoint.ENTRY, id_type=id_type,
                               id_number=number_seen, by=w.by, at=w.now)
        w.record("id_checked", entry=number, checkpoint="entry")
        w.entry = number
        # The entry's player and his identity as registered: verify_audit finds either rewritten (issue #34).
        w.audit("tournament.registered", obj=entry, entry=number, reentry_of=reentry_of, player=player.pk,
                player_sha256=player_digest(player))
        if w.row.status == Tournament.Status.RUNNING:
            why = "reentry" if reentry_of else "late"
            move = seating.seat_late_entry(number, w.state.tables, w.rng, why=why)
            w.record("seated", **_seated_fields(w.state, move, setup.starting_stack))
            w.audit("tournament.seated", entry=number, table=move.to_table, seat=move.to_seat, why=why)
            _propose_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="register",
                  work=work, who="floor", rng=rng)


def _new_player(*, name: str, id_type: str, id_number: str, birth_date: date | None) -> Player:
    """The person a new ID belongs to. Two events lock only themselves, so the same new ID registered at two
    desks at once reaches this twice: the second insert waits for the first to commit, then takes that row
    (issue #34: an IntegrityError and a 500 before)."""
    try:
        with transaction.atomic():  # a savepoint: the refused insert leaves the registration's transaction usable
            return Player.objects.create(name=name, id_type=id_type, id_number=id_number, birth_date=birth_date)
    except IntegrityError:
        return Player.objects.get(id_type=id_type, id_number=id_number)


def accredit(*, tournament, by, key: str, expected_version: int, entry: int, id_type: str, id_number: str,
             checkpoint: str = "accreditation") -> TournamentResult:
    """An ID checkpoint (accreditation, seating each day): the document seen must be the entry's player's."""
    if checkpoint not in ("accreditation", "seating"):
        raise ValueError("checkpoint: accreditation or seating")

    def work(w: _Write) -> None:
        row = _entry_row(w, entry)
        _check_document(row, id_type, id_number)
        IdCheck.objects.create(entry=row, checkpoint=checkpoint, id_type=id_type,
                               id_number=normalise_id_number(id_number), by=w.by, at=w.now)
        w.record("id_checked", entry=entry, checkpoint=checkpoint)
        w.audit("tournament.id_checked", obj=row, entry=entry, checkpoint=checkpoint)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="accredit",
                  work=work, who="floor")


def _check_document(row: Entry, id_type: str, id_number: str) -> None:
    player = row.player
    if player is None or player.id_type != id_type or player.id_number != normalise_id_number(id_number):
        raise RuleViolation(N_("The document shown is not entry %(entry)s's"), "CC-24", entry=row.number)


@dataclass(frozen=True)
class ExclusionImport:
    """What an exclusion list import did: people added, entries whose date changed, rows already on the
    list as they are, and the refusal of each bad row (naming its line)."""

    added: int
    updated: int
    unchanged: int
    refused: list[RuleViolation]


#: rows an INSERT of the exclusion import carries (a few MB of parameters at most)
EXCLUSION_BATCH = 5000


def import_exclusion_csv(*, by, text: str, source: str = "") -> ExclusionImport:
    """Bring the casino's exclusion and self-exclusion list up to a CSV file's (CC-23), in one transaction.

    The whole file is read first (``eligibility.read_exclusion_csv``): a file that cannot be read changes
    nothing and its refusal names the line. Each good row adds the person to the list, or updates the date
    of their entry of that kind; a bad row is refused on its own and reported with its line, so a typo in
    one row does not keep the register's other people off the list. Nothing is deleted: someone missing
    from the file stays listed. Written in bulk (a few statements per 5,000 rows), audited as one event
    with the counts and a digest of the rows kept."""
    if not _is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    read = eligibility.read_exclusion_csv(text)
    wanted = {(id_type, number, kind): listed_on for id_type, number, listed_on, kind in read.rows}
    digest = hashlib.sha256("".join(f"{t},{n},{d.isoformat()},{k}\n" for (t, n, k), d in wanted.items())
                            .encode()).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        # One import at a time (two would both add the same people); the desks' reads go on.
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {connection.ops.quote_name(ExclusionListEntry._meta.db_table)} "
                           "IN SHARE ROW EXCLUSIVE MODE")
        existing = {}
        for pk, id_type, number, kind, listed_on in ExclusionListEntry.objects.values_list(
                "pk", "id_type", "id_number", "kind", "listed_on").iterator(chunk_size=EXCLUSION_BATCH):
            existing.setdefault((id_type, number, kind), (pk, listed_on))
        added, updated, unchanged = [], [], 0
        for (id_type, number, kind), listed_on in wanted.items():
            found = existing.get((id_type, number, kind))
            if found is None:
                added.append(ExclusionListEntry(id_type=id_type, id_number=number, kind=kind, listed_on=listed_on,
                                                imported_at=now, source=source))
            elif found[1] != listed_on:
                updated.append(ExclusionListEntry(pk=found[0], listed_on=listed_on, imported_at=now, source=source))
            else:
                unchanged += 1
        ExclusionListEntry.objects.bulk_create(added, batch_size=EXCLUSION_BATCH)
        _update_exclusion_dates(updated, now, source)
        # The list as it now stands, digested: verify_audit finds a person later deleted from it (#34).
        entries, list_sha256 = exclusion_list_digest()
        record_event(action="tournament.exclusion_list_imported", actor=by, details={
            "source": source, "added": len(added), "updated": len(updated), "unchanged": unchanged,
            "refused": len(read.refused), "rows_sha256": digest, "entries": entries, "sha256": list_sha256})
    return ExclusionImport(len(added), len(updated), unchanged, read.refused)


def _update_exclusion_dates(updated: list[ExclusionListEntry], now: datetime, source: str) -> None:
    """The new dates in one statement (two arrays joined by id): Django's bulk_update builds a CASE per
    row, several times slower for a list of thousands (docs/decisions/2026-11-27-exclusion-import-in-bulk.md)."""
    if updated:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {connection.ops.quote_name(ExclusionListEntry._meta.db_table)} AS e "  # noqa: S608
                "SET listed_on = v.listed_on, imported_at = %s, source = %s "
                "FROM unnest(%s::bigint[], %s::date[]) AS v(id, listed_on) WHERE e.id = v.id",
                [now, source, [row.pk for row in updated], [row.listed_on for row in updated]])


def close_registration(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    """Registration closes and the prize pool is fixed (CC-14): every entry's buy-in, fees excluded."""

    def work(w: _Write) -> None:
        setup = _setup(w)
        if w.state.registration != "open":
            raise RuleViolation(N_("Registration is not open"), "CC-14")
        entries = len(w.state.entries)
        w.record("registration_closed", entries=entries, prize_pool=entries * setup.buy_in)
        w.audit("tournament.registration_closed", entries=entries, prize_pool=entries * setup.buy_in)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="registration_closed", work=work)


# --- Start and seats (TDA-07..09, CC-32, CC-48, CC-49, CC-82) -----------------------------------------


def start_tournament(*, tournament, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TournamentResult:
    """Draw every registered entry's seat (TDA-07, CC-48) and the buttons (CC-82), each with a full stack;
    the draw's result is recorded, so a replay never draws."""

    def work(w: _Write) -> None:
        setup = _setup(w)
        if w.row.status == Tournament.Status.RUNNING or w.state.tables:
            raise RuleViolation(N_("The tournament has started already"), "TDA-07")
        entries = [e.entry for e in w.state.entries if e.status == "registered"]
        if len(entries) < 2:
            raise RuleViolation(N_("A tournament needs at least two entries to start"), "TDA-07")
        tables, moves = seating.draw_seats(entries, setup.seats_per_table, rng, why="draw")
        buttons = {t.table: t.button for t in tables}
        occupied = {t.table: [s for s, _ in t.players] for t in tables}
        for move in moves:
            w.record("seated", entry=move.entry, table=move.to_table, seat=move.to_seat, chips=setup.starting_stack,
                     why="draw", button=buttons.get(move.to_table), occupied=occupied.get(move.to_table, []),
                     from_table=None, from_seat=None, sits_out=False)
        w.row.status = Tournament.Status.RUNNING
        w.audit("tournament.started", entries=len(entries), tables=len(tables))

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="start",
                  work=work)


def _reseat(*, tournament, by, key, expected_version, entry: int, table: int, seat: int, reason: str, why: str,
            who: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the seat changes"), "TDA-09")

    def work(w: _Write) -> None:
        current = w.state.entry(entry)
        if current.status not in record.IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-07", entry=entry)
        _between_hands(w, current.table, table)
        move = seating.Move(entry=entry, to_table=table, to_seat=seat, why=why, from_table=current.table,
                            from_seat=current.seat)
        w.record("seated", **_seated_fields(w.state, move, current.stack, reason=reason))
        w.audit(f"tournament.seat_{why}", entry=entry, table=table, seat=seat, reason=reason,
                from_table=current.table, from_seat=current.seat)
        _propose_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action=f"seat_{why}",
                  work=work, who=who, rng=rng)


def correct_seat(*, tournament, by, key: str, expected_version: int, entry: int, table: int, seat: int,
                 reason: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor corrects a wrong seat (TDA-07), with a reason."""
    return _reseat(tournament=tournament, by=by, key=key, expected_version=expected_version, entry=entry,
                   table=table, seat=seat, reason=reason, why="correction", who="floor", rng=rng)


def override_seat(*, tournament, by, key: str, expected_version: int, entry: int, table: int, seat: int,
                  reason: str, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The director overrides a seat (TDA-09, CC-49), with a reason."""
    return _reseat(tournament=tournament, by=by, key=key, expected_version=expected_version, entry=entry,
                   table=table, seat=seat, reason=reason, why="override", who="director", rng=rng)


# --- The plan: balancing, breaking, halting, redraws (TDA-10/11, CC-54..62, C-18) ---------------------


def _propose_plan(w: _Write) -> None:
    """After a change: what the floor must do now, recorded with what was drawn; confirmed with one tap."""
    state = w.state
    if len(state.tables) < 1 or state.players_left < 2:
        return
    setup = _setup(w)
    proposed = seating.plan(state.tables, options=setup.options, break_order=setup.break_order, rng=w.rng)
    empty = not (proposed.moves or proposed.broken or proposed.redraw)
    halts_change = set(proposed.halted) != set(state.halted)
    if empty and not halts_change:
        return
    w.record("plan_proposed", plan=plan_to_dict(proposed))
    w.audit("tournament.plan_proposed", moves=len(proposed.moves), broken=list(proposed.broken),
            halted=list(proposed.halted), redraw=proposed.redraw)


def propose_plan(*, tournament, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TournamentResult:
    def work(w: _Write) -> None:
        _propose_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="plan_proposed",
                  work=work, who="floor", rng=rng)


def confirm_plan(*, tournament, by, key: str, expected_version: int, proposed: int) -> TournamentResult:
    """The floor's one tap: apply exactly the moves proposed (the version check guarantees nothing changed
    since the screen showed them): seats, broken tables, halts and drawn buttons."""

    def work(w: _Write) -> None:
        pending = w.state.pending_plan
        if pending is None or pending[0] != proposed:
            raise RuleViolation(N_("The plan changed since it was shown: look at the new one"), "TDA-11")
        plan = pending[1]
        touched = plan_tables(plan, w.state.tables)
        waits = _hands_in_play(w, touched)  # their rows locked without waiting: a tap being written counts
        if waits:
            # TDA-11: the players play the hand out; the plan stays proposed, the console says when it can go
            raise RuleViolation(N_("Table %(table)s has a hand in play: confirm the moves when it ends."),
                                "TDA-11", table=min(waits))
        w.record("plan_confirmed", proposed=proposed)
        table_seats = dict(getattr(plan, "seats", ()) or ())
        for move in plan.moves:
            stack = w.state.entry(move.entry).stack
            w.record("seated", **_seated_fields(w.state, move, stack, plan=proposed,
                                                table_seats=table_seats.get(move.to_table)))
        # each event of the confirmation names its plan: a correction of the confirmation takes them all back
        for t in w.state.tables:
            # the tables the plan breaks, and those a redraw leaves empty (CC-48, CC-61/62)
            if t.table in plan.broken or (plan.redraw and not t.players):
                w.record("table_broken", table=t.table, plan=proposed)
        for table in plan.halted:
            if table not in w.state.halted:
                w.record("table_halted", table=table, plan=proposed)
        for table in w.state.halted:
            if table not in plan.halted:
                w.record("table_resumed", table=table, plan=proposed)
        for table, seat in plan.buttons:
            w.record("button", table=table, seat=seat, plan=proposed)
        w.audit("tournament.plan_confirmed", proposed=proposed, moves=len(plan.moves), broken=list(plan.broken))
        _hand_for_hand_ends_at_one_table(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="plan_confirmed",
                  work=work, who="floor")


# --- The clock (TDA-23, CC-87, RP-07, RP-08) ---------------------------------------------------------


def clock_command(*, tournament, by, key: str, expected_version: int, kind: str, seconds: int = 0,
                  step: int = 0) -> TournamentResult:
    """start, pause, resume, adjust (seconds), skip (to step), hand_for_hand_on/off, hand_for_hand_hand, finish."""
    if kind not in clock.CLOCK_KINDS:
        raise RuleViolation(N_("Unknown clock command %(kind)s"), "TDA-23", kind=kind)

    def work(w: _Write) -> None:
        setup = _setup(w)
        if kind == "hand_for_hand_on" and _tables_playing(w.state) <= 1:
            # issue #36: one table has no other to wait for (CC-11); on, its level's clock would only move with
            # releases nobody needs (RP-08-B)
            raise RuleViolation(N_("Hand-for-hand synchronises several tables: only one table is playing."),
                                "CC-11")
        new = clock.ClockEvent(kind=kind, at=w.now, seconds=int(seconds), step=int(step))
        check = getattr(clock, "check_clock_event", None)
        if check is not None:
            check(_structure(setup), list(w.state.clock_events), new,
                  hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        w.record("clock", kind=kind, seconds=int(seconds), step=int(step))
        w.event = "clock"
        w.audit("tournament.clock", kind=kind, seconds=int(seconds), step=int(step))

    # the floor (or the simulator, a tablet) says each hand-for-hand hand has started; the rest is the director's
    who = "floor" if kind == "hand_for_hand_hand" else "director"
    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action=f"clock_{kind}",
                  work=work, who=who)


# --- At the tables -----------------------------------------------------------------------------------


def _bust(w: _Write, *, table: int, seat: int, hand: int | None, stack_at_start: int | None) -> int:
    state = w.state
    entry = _entry_at(state, table, seat)
    if stack_at_start is None and hand is not None:
        # CC-19: two or more busting in one hand at one table are ranked by their stacks at its start
        same_hand = [e for e in state.eliminations if e.table == table and e.hand == hand]
        if same_hand:
            raise RuleViolation(N_("Two players busted in hand %(hand)s at table %(table)s: enter the stacks "
                                   "each had at the start of the hand"), "CC-19", hand=hand, table=table)
    h4h = state.hand_for_hand_hands if state.hand_for_hand else None
    w.record("bust", entry=entry, table=table, hand=hand, hand_for_hand_hand=h4h, stack_at_start=stack_at_start)
    w.audit("tournament.bust", entry=entry, table=table, seat=seat, hand=hand, stack_at_start=stack_at_start)
    return entry


def record_bust(*, tournament, by, key: str, expected_version: int, table: int, seat: int, hand: int | None = None,
                stack_at_start: int | None = None, rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor records a bust (table, seat; the stack at the start of the hand when two or more bust in one
    hand at one table, CC-19); the plan that follows is proposed at once."""

    def work(w: _Write) -> None:
        _between_hands(w, table)
        if _dealt_from_a_tablet(w, table):
            # its busts come from its hands (their chips accounted); a wrong one is corrected with a reason
            raise RuleViolation(N_("Table %(table)s is dealt from its tablet: its busts come from its hands. "
                                   "Correct the record, with the reason, if one is wrong."), "CC-43", table=table)
        w.entry = _bust(w, table=table, seat=seat, hand=hand, stack_at_start=stack_at_start)
        _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="bust",
                  work=work, who="floor", rng=rng)


def report_hand(*, tournament, by, key: str, expected_version: int | None, table: int, hand: int, button: int,
                small_blind_seat: int | None, big_blind_seat: int | None, stacks_at_start: dict[int, int],
                stacks_at_end: dict[int, int], busts: list[int] = (), penalised: list[int] = (),
                rng=SYSTEM_RANDOM, who: str = "floor", started_at: datetime | None = None,
                level: int | None = None) -> TournamentResult:
    """The end of one hand at one table, as the simulator and the dealers' tablets report it
    (``tournaments.dealing``, ``who="table"``: the table's dealer may): its button and blinds, each seat's
    stack at its start and end where known, and the seats that busted (CC-19: ranked by their stacks at
    the start). Chips are conserved over the seats reported at both ends. ``penalised``: the seats whose
    hands were dead for their player's penalty (TDA-71-D): each serves one hand of it. ``started_at`` and
    ``level`` (the level number the hand was dealt at, TDA-23): when the hand started and at which level,
    recorded where known (issue #36), so an inspector checks the blinds posted against the level's."""

    def work(w: _Write) -> None:
        state = w.state
        seated = {s: n for s, n in state.table(table).players}
        starts = {int(s): int(v) for s, v in (stacks_at_start or {}).items()}
        ends = {int(s): int(v) for s, v in (stacks_at_end or {}).items()}
        for seat in {*starts, *ends, *busts}:
            if seat not in seated:
                raise RuleViolation(N_("No one sits at table %(table)s, seat %(seat)s"), "TDA-07", table=table,
                                    seat=seat)
        if starts and set(starts) == set(ends) and sum(starts.values()) != sum(ends.values()):
            raise RuleViolation(N_("The stacks at the end of hand %(hand)s do not add up to those at its start"),
                                "CC-19", hand=hand)
        for seat in busts:
            if ends.get(seat, 0) != 0:
                raise RuleViolation(N_("Seat %(seat)s busted but ends the hand with chips"), "CC-18", seat=seat)
        players = [{"entry": n, "seat": s, "start": starts.get(s), "end": ends.get(s),
                    **({"penalty": True} if s in penalised else {})}
                   for s, n in sorted(seated.items()) if s in starts or s in ends]
        w.record("hand", table=table, hand=hand, button=button, small_blind=small_blind_seat,
                 big_blind=big_blind_seat, players=players,
                 hand_for_hand_hand=state.hand_for_hand_hands if state.hand_for_hand else None,
                 **({"started_at": _iso(started_at)} if started_at is not None else {}),
                 **({"level": int(level)} if level is not None else {}))
        # the smaller stack at the start of the hand busted first (CC-19): it ranks lower
        for seat in sorted(busts, key=lambda s: (starts.get(s, 0), s)):
            _bust(w, table=table, seat=seat, hand=hand, stack_at_start=starts.get(seat))
        w.audit("tournament.hand", table=table, hand=hand, busts=list(busts))
        if busts:
            _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="hand",
                  work=work, who=who, rng=rng)


def give_penalty(*, tournament, by, key: str, expected_version: int, entry: int, kind: str, count: int = 0,
                 infraction: str = "other", reason: str = "") -> TournamentResult:
    """A penalty (TDA-71-A, CC-45/46), given by the director or a floor supervisor: a warning, or a
    suspension of ``count`` hands or rounds (a round: one hand for each player at the offender's table now,
    offender included), which the record keeps as hands. A dealt table kills the player's hands until they
    are served (TDA-71-D); one given during a hand is served from the next (TDA-68). A disqualification is
    ``disqualify``'s (CC-47). Audited."""
    reason = (reason or "").strip()[:200]
    if kind != "warning" and not reason and infraction == "other":
        raise RuleViolation(N_("Say what the player did."), "CC-39")

    def work(w: _Write) -> None:
        state = w.state
        e = state.entry(entry)
        if e.status not in record.IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-71-A", entry=entry)
        at_table = len(state.table(e.table).players) if e.table is not None else 0
        hands = penalties.verify_penalty(kind, count, infraction, players_at_table=at_table,
                                         max_rounds=state.setup.options.max_penalty_rounds)
        w.record("penalty", entry=entry, kind=kind, hands=hands, rounds=count if kind == "rounds" else 0,
                 infraction=infraction, reason=reason)
        w.audit("tournament.penalty", entry=entry, kind=kind, hands=hands, infraction=infraction, reason=reason)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="penalty",
                  work=work, who="floor")


def end_penalty(*, tournament, by, key: str, expected_version: int, entry: int, reason: str) -> TournamentResult:
    """The director (or the floor for him) ends an entry's suspension before its hands are served (CC-46:
    the player sits out "until the TD ends the penalty"): every penalty of the entry still in force ends.
    Audited."""
    reason = (reason or "").strip()[:200]
    if not reason:
        raise RuleViolation(N_("Say why the penalty ends."), "CC-46")

    def work(w: _Write) -> None:
        in_force = [p for p in w.state.penalties if p.entry == entry and p.in_force]
        if not in_force:
            raise RuleViolation(N_("Entry %(entry)s is serving no penalty."), "CC-46", entry=entry)
        for p in in_force:
            w.record("penalty_ended", entry=entry, penalty=p.seq, reason=reason)
        w.audit("tournament.penalty_ended", entry=entry, penalties=[p.seq for p in in_force], reason=reason)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="penalty_ended",
                  work=work, who="floor")


def withdraw_hand(*, tournament, by, key: str, expected_version: int | None, seq: int, reason: str) -> TournamentResult:
    """A dealt table's hand taken back out of the record before the next deal there (CC-43, C-15: a hand is
    corrected until the next deal starts): its dealer undid the award (``dealing.undo_last``). The ``hand``
    event at ``seq`` is voided by a correction with the reason (the record keeps both; the replay gives
    the players their stacks, and a penalty its hand, back). A hand with a bust is not: its bust ranked a
    player and may have moved others, which the director corrects in the record. Audited."""
    reason = (reason or "").strip()[:200]
    if not reason:
        raise RuleViolation(N_("Say why the action is undone."), "CC-43")

    def work(w: _Write) -> None:
        target = next((e for e in w.events if e["seq"] == int(seq)), None)
        if target is None or target["type"] != "hand" or int(seq) in w.state.voided:
            raise RuleViolation(N_("That hand is not in the tournament's record."), "CC-43")
        if any(e["type"] == "bust" and e.get("table") == target["table"] and e.get("hand") == target["hand"]
               and e["seq"] > int(seq) for e in w.events):
            raise RuleViolation(N_("A player busted in this hand: the director corrects it in the record."),
                                "TDA-01")
        if not _as_the_hand_left_it(w.state, target):
            raise RuleViolation(N_("Table %(table)s changed after hand %(hand)s ended: the hand stands (the "
                                   "director corrects it in the record)."), "TDA-11",
                                table=target["table"], hand=target["hand"])
        w.record("correction", voids=int(seq), reason=reason)
        w.audit("tournament.hand_withdrawn", voids=int(seq), table=target["table"], hand=target["hand"],
                reason=reason)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="correction",
                  work=work, who="table")


def _as_the_hand_left_it(state: TournamentState, hand: dict) -> bool:
    """Whether every player of the reported ``hand`` still sits at its seat with the stack it ended with.
    TDA-11: what the floor did at the table between hands (a disqualification, a recount, a colour-up...)
    would otherwise land inside the hand taken back, whose award then no longer finds its seats (issue #34)."""
    t = state.table_in_play(int(hand["table"]))
    seated = dict(t.players) if t else {}
    return all(seated.get(int(p["seat"])) == int(p["entry"])
               and (p.get("end") is None or state.entry(int(p["entry"])).stack == int(p["end"]))
               for p in hand.get("players") or ())


def _finish_or_plan(w: _Write) -> None:
    _hand_for_hand_ends_at_one_table(w)
    if w.state.players_left <= 1:
        return  # the director records the results
    _propose_plan(w)


def _tables_playing(state) -> int:
    return sum(1 for t in state.tables if t.count >= 2)


def _hand_for_hand_ends_at_one_table(w: _Write) -> None:
    """Issue #36: hand-for-hand synchronises several tables' deals (CC-11, RP-08); once one table is left to
    play it ends by itself, recorded as the clock's "off" (the level's clock runs again), audited."""
    if w.state.hand_for_hand and _tables_playing(w.state) <= 1:
        w.record("clock", kind="hand_for_hand_off", seconds=0, step=0)
        w.audit("tournament.clock", kind="hand_for_hand_off", seconds=0, step=0, why="one_table_left")


def withdraw(*, tournament, by, key: str, expected_version: int, entry: int, reason: str = "",
             rng=SYSTEM_RANDOM) -> TournamentResult:
    """A voluntary withdrawal (CC-34): all the player's chips removed; ranked as if eliminated."""

    def work(w: _Write) -> None:
        e = w.state.entry(entry)
        _between_hands(w, e.table)
        w.record("withdrawal", entry=entry, chips_removed=e.stack)
        w.audit("tournament.withdrawal", entry=entry, chips_removed=e.stack, reason=reason)
        _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="withdrawal",
                  work=work, rng=rng)


def disqualify(*, tournament, by, key: str, expected_version: int, entry: int, reason: str,
               rng=SYSTEM_RANDOM) -> TournamentResult:
    """A disqualification (CC-47): the chips leave the tournament; the prize share is redistributed."""
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the player is disqualified"), "CC-47")

    def work(w: _Write) -> None:
        e = w.state.entry(entry)
        _between_hands(w, e.table)
        w.record("disqualification", entry=entry, chips_removed=e.stack, reason=reason)
        w.audit("tournament.disqualification", entry=entry, chips_removed=e.stack, reason=reason)
        _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="disqualification", work=work, rng=rng)


def enter_chip_count(*, tournament, by, key: str, expected_version: int, counts: dict[int, int]) -> TournamentResult:
    """Chip counts (at breaks): entry -> chips. Not at a table whose dealt hand is in play (TDA-11)."""

    def work(w: _Write) -> None:
        for entry, chips in sorted(counts.items()):
            if int(chips) < 0:
                raise RuleViolation(N_("A chip count cannot be negative"), "CC-68")
            if w.state.entry(int(entry)).status not in record.IN_PLAY:
                raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "CC-18", entry=entry)
        # TDA-11: recounted between hands; the hand's end would overwrite the count
        _between_hands(w, *{w.state.entry(int(entry)).table for entry in counts})
        for entry, chips in sorted(counts.items()):
            w.record("chip_count", entry=int(entry), chips=int(chips))
        w.audit("tournament.chip_count", entries=len(counts))

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="chip_count",
                  work=work, who="floor")


def set_button(*, tournament, by, key: str, expected_version: int, table: int, seat: int,
               rng=SYSTEM_RANDOM) -> TournamentResult:
    """The floor enters where the next hand's button is at a table (when a move needs it)."""

    def work(w: _Write) -> None:
        t = w.state.table(table)
        if not 1 <= seat <= t.seats:
            raise RuleViolation(N_("Table %(table)s has no seat %(seat)s"), "TDA-07", table=table, seat=seat)
        _between_hands(w, table)
        w.record("button", table=table, seat=seat)
        w.audit("tournament.button", table=table, seat=seat)
        _propose_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="button",
                  work=work, who="floor", rng=rng)


def hold_stack(*, tournament, by, key: str, expected_version: int, entry: int, held: bool = True) -> TournamentResult:
    """CC-31: an absent player's stack is kept until he arrives (revocable by the director)."""

    def work(w: _Write) -> None:
        w.state.entry(entry)
        w.record("stack_held", entry=entry, held=bool(held))
        w.audit("tournament.stack_held", entry=entry, held=bool(held))

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="hold_stack",
                  work=work)


def remove_absent_stacks(*, tournament, by, key: str, expected_version: int, absent: list[int],
                         rng=SYSTEM_RANDOM) -> TournamentResult:
    """CC-30: the stacks of players still absent at the end of the first level are removed (those held
    under CC-31 are kept); each removal takes the player out, ranked in the order of removal."""

    def work(w: _Write) -> None:
        for entry in absent:
            e = w.state.entry(entry)
            if e.held:
                raise RuleViolation(N_("Entry %(entry)s's stack is held (CC-31)"), "CC-31", entry=entry)
            if e.status not in record.IN_PLAY:
                raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "CC-30", entry=entry)
            _between_hands(w, e.table)
            w.record("chips_removed", entry=entry, chips=e.stack, reason="absent")
        w.audit("tournament.absent_stacks_removed", entries=list(absent))
        _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="absent_removed", work=work, rng=rng)


def colour_up(*, tournament, by, key: str, expected_version: int, table: int, removed: int, into: int,
              smallest_left: int, odd_chips: dict[int, int], rng=SYSTEM_RANDOM) -> TournamentResult:
    """Colour-up and the chip race at one table (TDA-24, CC-68/69): ``odd_chips`` seat -> chips of
    ``removed`` left over; the race's cards and result are recorded."""

    def work(w: _Write) -> None:
        t = w.state.table(table)
        _between_hands(w, table)
        seated = dict(t.players)
        odd = tuple((int(s), seated[int(s)], int(c)) for s, c in sorted(odd_chips.items()) if int(s) in seated)
        if len(odd) != len(odd_chips):
            raise RuleViolation(N_("Odd chips entered for an empty seat at table %(table)s"), "TDA-24", table=table)
        _record_race(w, table, odd, removed=removed, into=into, smallest_left=smallest_left, rng=rng)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="colour_up",
                  work=work, who="floor")


def _record_race(w: _Write, table: int, odd: tuple, *, removed: int, into: int, smallest_left: int, rng,
                 computed: bool = False) -> None:
    """The race run and recorded at ``table`` (TDA-24-A): ``odd`` is (seat, entry, chips of ``removed``);
    its cards are drawn from ``rng`` (the command's, for a reproducible race)."""
    stacks = {n: w.state.entry(n).stack for _, n in w.state.table(table).players}
    result = chip_race.race(odd, stacks, removed=removed, into=into, smallest_left=smallest_left, rng=rng)
    w.record("colour_up", table=table, removed=removed, into=into, odd_chips=[list(o) for o in odd],
             cards=[[n, list(c)] for n, c in result.cards], won=list(result.won), rescued=list(result.rescued),
             stacks=[list(s) for s in result.stacks])
    w.audit("tournament.colour_up", table=table, removed=removed, into=into, won=list(result.won),
            **({"from_stacks": True} if computed else {}))


def race_odd_chips(*, tournament, by, key: str, expected_version: int | None, table: int, rng=SYSTEM_RANDOM,
                   who: str = "floor") -> TournamentResult:
    """Issue #36: the colour-up at one table in one tap (TDA-24-A, CC-68/69), the odd chips computed from the
    stacks the record holds (``chip_race.races_due``) instead of typed: the same ``colour_up`` event.
    ``who="table"``: the table's dealer runs it from the tablet (``expected_version`` None: the race is
    computed from the stacks under the event's lock, whatever version the tablet showed)."""

    def work(w: _Write) -> None:
        w.state.table(table)
        _between_hands(w, table)
        due = next((d for d in chip_race.races_due(w.state, w.now) if d.table == table), None)
        if due is None:
            raise RuleViolation(N_("Table %(table)s has no odd chips to race."), "TDA-24-A", table=table)
        _record_race(w, table, due.odd_chips, removed=due.removed, into=due.into, smallest_left=due.smallest_left,
                     rng=w.rng, computed=True)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="colour_up",
                  work=work, who=who, rng=rng)


# --- Ranking and prizes (CC-14..21, RP-08-A) ----------------------------------------------------------


def record_results(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    """The final ranking and each place's prize, recomputed from the record and recorded (``results``)."""

    def work(w: _Write) -> None:
        state = w.state
        if state.prize_pool is None:
            raise RuleViolation(N_("Registration must close (the prize pool fixed) before the results"), "CC-14")
        results = record.compute_results(state)
        w.record("results", places=record.results_to_dicts(results))
        if state.players_left <= 1:
            _the_clock_stops(w)
            w.record("finished")
            w.row.status = Tournament.Status.FINISHED
        w.audit("tournament.results", places=len(results))

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="results",
                  work=work)


def _the_clock_stops(w: _Write) -> None:
    """Issue #36: the event's end stops its clock for good (the clock's ``finish``, TDA-23): the console, the
    room's display and the phones stop counting down a level nobody plays. Recorded and audited; nothing when
    the clock never started or has finished already."""
    setup, events = w.state.setup, list(w.state.clock_events)
    if setup is None or not any(e.kind == "start" for e in events) or any(e.kind == "finish" for e in events):
        return
    finish = clock.ClockEvent(kind="finish", at=w.now, seconds=0, step=0)
    clock.check_clock_event(_structure(setup), events, finish,
                            hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    w.record("clock", kind="finish", seconds=0, step=0)
    w.audit("tournament.clock", kind="finish", seconds=0, step=0, why="results")


def pay_prize(*, tournament, by, key: str, expected_version: int, entry: int, id_type: str,
              id_number: str) -> TournamentResult:
    """Pay an entry its prize from the recorded results, after checking its player's ID (CC-15)."""

    def work(w: _Write) -> None:
        state = w.state
        prize = next((r.prize(entry) for r in state.results if entry in r.entries), 0)
        if prize <= 0:
            raise RuleViolation(N_("Entry %(entry)s has no prize to pay"), "CC-15", entry=entry)
        if state.entry(entry).paid:
            raise RuleViolation(N_("Entry %(entry)s's prize is paid already"), "CC-15", entry=entry)
        row = _entry_row(w, entry)
        _check_document(row, id_type, id_number)
        IdCheck.objects.create(entry=row, checkpoint=IdCheck.Checkpoint.PAYOUT, id_type=id_type,
                               id_number=normalise_id_number(id_number), by=w.by, at=w.now)
        w.record("id_checked", entry=entry, checkpoint="payout")
        w.record("prize_paid", entry=entry, amount=prize)
        w.audit("tournament.prize_paid", obj=row, entry=entry, amount=prize)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="prize_paid",
                  work=work)


# --- Corrections ("mistakes are corrected, not erased") ------------------------------------------------


#: The events that rest on where a player sits or how many chips he has.
_SEAT_DEPENDENT = ("hand", "bust", "seated", "chip_count", "colour_up", "withdrawal", "disqualification",
                   "chips_removed", "button", "table_broken")


def _check_confirmation_undone(w: _Write, confirmation: dict) -> None:
    """A confirmation of a plan corrected takes back its moves (``record.confirmed_with``), which only stands
    while nothing since rests on them: a hand played at a table a move reached or left, a bust, a count or
    another seat of a player it moved. Then the floor corrects those first (or moves the player back)."""
    made = set(record.confirmed_with(w.events, confirmation["seq"]))
    moves = [e for e in w.events if e["seq"] in made and e["type"] == "seated"]
    entries = {int(e["entry"]) for e in moves}
    tables = ({int(e["table"]) for e in moves} | {int(e["from_table"]) for e in moves if e.get("from_table")}
              | {int(e["table"]) for e in w.events if e["seq"] in made and e["type"] == "table_broken"})
    last = max(made, default=confirmation["seq"])
    for event in w.events:
        if event["seq"] <= last or event["seq"] in w.state.voided or event["type"] not in _SEAT_DEPENDENT:
            continue
        named = {int(p["entry"]) for p in event.get("players") or ()}
        if event.get("entry") is not None:
            named.add(int(event["entry"]))
        if named & entries or (event.get("table") is not None and int(event["table"]) in tables):
            raise RuleViolation(N_("Event %(seq)s rests on the moves this confirmation made: correct it first."),
                                "CC-04", seq=event["seq"])


def _check_confirmation_restored(w: _Write, correction: dict) -> None:
    """A correction of a confirmation's correction brings the confirmation and its moves back: not while the
    same plan stands confirmed again since (its moves would be made twice)."""
    undone = next((e for e in w.events if e["seq"] == int(correction["voids"])), None)
    if undone is None or undone["type"] != "plan_confirmed":
        return
    again = next((e for e in w.events if e["type"] == "plan_confirmed" and e["seq"] > undone["seq"]
                  and e.get("proposed") == undone.get("proposed") and e["seq"] not in w.state.voided), None)
    if again is not None:
        raise RuleViolation(N_("The plan was confirmed again at event %(seq)s: correct that confirmation instead."),
                            "CC-04", seq=again["seq"])


def correct(*, tournament, by, key: str, expected_version: int, seq: int, reason: str,
            replacement: dict | None = None, rng=SYSTEM_RANDOM) -> TournamentResult:
    """Void the record's event ``seq`` with a reason, and replace it with the corrected event where given
    (``{"type": "bust", "entry": ..., ...}``): the replay recomputes everything after it (ranking, prizes,
    seats); the record keeps both. The floor corrects the floor's events; the director, any but the setup."""
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the record is corrected"), "CC-04")

    def work(w: _Write) -> None:
        target = next((e for e in w.events if e["seq"] == int(seq)), None)
        if target is None:
            raise RuleViolation(N_("There is no event %(seq)s in the record"), "CC-04", seq=seq)
        if target["type"] in NOT_CORRECTABLE and not (target["type"] == "correction" and access.directs(w.by, w.row)):
            raise RuleViolation(N_("Event %(seq)s (%(type)s) cannot be corrected: change the setup instead"),
                                "CC-04", seq=seq, type=target["type"])
        if not access.directs(w.by, w.row) and target["type"] not in FLOOR_CORRECTABLE:
            raise NotAllowed(N_("Only the tournament director can correct this."))
        if int(seq) in w.state.voided:
            raise RuleViolation(N_("Event %(seq)s is corrected already"), "CC-04", seq=seq)
        if target["type"] == "plan_confirmed":
            _check_confirmation_undone(w, target)
        if target["type"] == "correction":
            _check_confirmation_restored(w, target)
        busy = _hands_in_play(w)
        dealt_from = _as_dealt(w.state, busy)
        fields: dict[str, Any] = {"voids": int(seq), "reason": reason}
        if replacement:
            if replacement.get("type") not in record.EVENT_TYPES or replacement.get("type") in NOT_CORRECTABLE:
                raise RuleViolation(N_("The corrected event has no known type"), "CC-04")
            fields["replaces"] = {k: v for k, v in replacement.items() if k not in ("seq", "at")}
        w.record("correction", **fields)
        changed = [t for t, dealt in dealt_from.items() if _as_dealt(w.state, {t})[t] != dealt]
        if changed:
            # TDA-11: the hand in play keeps the seats and stacks it was dealt from; corrected when it ends
            raise RuleViolation(N_("Table %(table)s has a hand in play: do this when it ends."), "TDA-11",
                                table=min(changed))
        if target["type"] == "clock":
            _clock_still_replays(w)  # RP-08-B: two hand-for-hand "on"s once the "off" between them is voided
        w.audit("tournament.correction", voids=int(seq), type=target["type"], reason=reason,
                replaced=bool(replacement))
        if target["type"] == "registered" and target["entry"] not in {e.entry for e in w.state.entries}:
            # A registration corrected away: its player's phone must not follow the event any more
            # (its links end in this transaction; after commit the phones say goodbye and close).
            screens.revoke_entry_links(_entry_row(w, target["entry"]), by=w.by, now=w.now)
        if w.state.pending_plan is None:
            _finish_or_plan(w)

    return _write(tournament=tournament, by=by, key=key, expected_version=expected_version, action="correction",
                  work=work, who="floor", rng=rng)
