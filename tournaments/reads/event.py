"""What the event's screens read, once per version and process (issue #14): the record replayed and the board.

``tournament_state`` is the record replayed at a version (the replay this process follows, reading only the
events appended since; a write's own replay kept in ``REPLAYS``); ``record_as_read`` the record with it.

Both render from a ``Board``: what every screen of the event shows at one version (the structure and
the clock's stored events, the counts, the prize pool and ladder, the announcements, each entry's seat,
last move and result), read once per version and process (``board_at``) and then rendered for each
screen from memory. The clock itself is never kept here: each render asks the pure clock
(``casino.rules.tournament.clock.clock_at``) at "now", and the fragment carries that "now" and the
instants its countdowns end, so the browser counts down from them (static/js/tournament_clock.js)
without a timer of its own (TDA-23, CC-87, RP-07).

Privacy: the clock display is a public room screen (no login): it shows no name, no entry number and no
seat, only what the floor announces aloud. A phone shows its own entry and nothing of any other (C-33:
read-only; its link belongs to one entry, ``casino.player_links``); an entry corrected away shows the
"link no longer works" goodbye even before its link is revoked.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.db import connection
from django.utils.translation import gettext

from casino import player_links
from casino.memo import BoundedCache
from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import prizes, record
from casino.rules.tournament.clock import ClockEvent
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.record import (
    Setup,
    TournamentState,
    compute_results,
    effective_events,
    parse_at,
    payout_shares,
)
from casino.rules.tournament.structure import Structure
from tournaments.models import (
    Entry,
    Tournament,
    TournamentEvent,
)


def _events_of(tournament_id: int) -> list[dict]:
    return [e.as_record() for e in TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("seq")]


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


REPLAYS = _Replayers()


_STATES: BoundedCache[TournamentState] = BoundedCache(64)


def tournament_record(tournament) -> list[dict]:
    """The record's events in order, as exported (docs/tournament-record.md)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else int(tournament)
    return _events_of(tournament_id)


def tournament_state(tournament: Tournament) -> TournamentState:
    """The tournament as its record stands: replayed once per version per process."""
    kept = REPLAYS.state((tournament.pk, tournament.version))
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


#: A move is announced on the phone ("you were moved") for this long after it was made.
MOVE_NOTICE = timedelta(minutes=20)


#: The clock display shows this many places of the payouts ladder (a TV has room for a column).
LADDER_PLACES = 12


#: ... and the latest few announcements (CC-04).
ANNOUNCEMENTS = 3


@dataclass(frozen=True, slots=True)
class Announcement:
    """A change the room is told of (CC-04): an English template and its values, read in the viewer's
    language when shown (the board is shared by every language)."""

    at: datetime
    message: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def text(self) -> str:
        return gettext(self.message) % dict(self.params) if self.params else gettext(self.message)


@dataclass(frozen=True, slots=True)
class SeatAt:
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class MoveNotice:
    """An entry's last seat change after the first draw (a balance, a table broken, a redraw...)."""

    at: datetime
    why: str
    to_table: int
    to_seat: int
    from_table: int | None = None
    from_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """An entry's result: the places it shares (one, or several when split: CC-20/21) and its prize."""

    places: tuple[int, ...]
    prize: int


@dataclass(frozen=True, slots=True)
class BagNotice:
    """A bagged player's own figures (CC-09, CC-10): his bag's count and receipt, and when and where he plays
    next. Shown on his phone only (``rendering.phone``), from his bagging until he checks in."""

    chips: int
    day: int  # the day (or series' day) he bagged on
    series: int | None
    receipt: str  # his chip-count receipt's code, shown at check-in (CC-09)
    next_day: int  # the day he plays next: the Final Stage's
    next_level: int | None  # the level it starts at (CC-08); None while a series may still change it
    seated: bool  # the next day has begun: his seat is drawn (CC-10) and the board's ``seats`` has it


@dataclass(frozen=True, slots=True)
class Board:
    """What every screen of one tournament shows at one version (no name, no ID number)."""

    tournament_id: int
    version: int
    name: str
    status: str
    status_label: str
    structure: Structure | None = None
    clock_events: tuple[ClockEvent, ...] = ()
    hand_for_hand_seconds: int = 120
    ante_mode: str = "button"
    action_seconds: int = 60  # the time to act (CC-114, C-04; 0: no base shot clock, TDA-29), for the phones
    entries: int = 0  # entries taken in the event, re-entries included
    players_left: int = 0
    chips_in_play: int = 0
    #: of the players left, those seated or bagged (not one waiting for his series); None: as many as are left
    players_holding_chips: int | None = None
    prize_pool: int = 0
    prize_pool_fixed: bool = False  # registration closed: the pool is what it will be (CC-14)
    prizes: tuple[int, ...] = ()  # each place's prize, place 1 first
    announcements: tuple[Announcement, ...] = ()
    entry_numbers: frozenset[int] = frozenset()  # the entries that stand (one corrected away is not here)
    seats: Mapping[int, SeatAt] = field(default_factory=dict)  # entry -> seat, for the players still in
    moves: Mapping[int, MoveNotice] = field(default_factory=dict)  # entry -> last move
    finishes: Mapping[int, Finish] = field(default_factory=dict)  # entry -> result, once out or the winner
    leaving: Mapping[int, str] = field(default_factory=dict)  # entry -> "bust" / "withdrawal" / "disqualification"
    penalties: Mapping[int, int] = field(default_factory=dict)  # entry -> hands it still sits out (TDA-71-D)
    bags: Mapping[int, BagNotice] = field(default_factory=dict)  # entry -> its bag, until it checks in (CC-09)
    #: how many of the record's events it was read from (``read_board``'s plain hands' path); not what it shows
    read_to: int = field(default=0, compare=False)

    @property
    def average_stack(self) -> int | None:
        """The chips in play over the players holding them: a player registered for a qualifying series still to
        play is in the event (``players_left``) but holds no chips yet (CC-05)."""
        holding = self.players_left if self.players_holding_chips is None else self.players_holding_chips
        return self.chips_in_play // holding if holding else None

    @property
    def money_stage(self) -> str:
        """RP-08-A: "outside", "bubble" or "in_the_money" while the event runs with its pool fixed, else "".
        Read from the same version as the players left, so the bust that makes the bubble shows it."""
        if self.status != "running" or not self.prize_pool_fixed:
            return ""
        return prizes.money_stage(self.players_left, len(self.prizes)) or ""


_boards: BoundedCache[Board] = BoundedCache(64)


def board_at(tournament: Tournament, version: int | None = None) -> Board:
    """The board at the tournament's current version (``version`` is a hint: a push's, maybe older)."""
    if version is not None:
        found = _boards.get((tournament.pk, version))
        if found is not None:
            return found
    tournament.refresh_from_db()
    board = _boards.get_or_make((tournament.pk, tournament.version), lambda: read_board(tournament), alone=True)
    newest = _newest_boards.get(tournament.pk)
    if newest is None or newest.version < board.version:
        _newest_boards.put(tournament.pk, board)
    return board


#: The newest board this process read of each event. A push's shared read finds the event's current
#: version, which may be newer than the one the push announced (a hand ended meanwhile at another table):
#: its sockets render that newer board rather than each reading again in a worker thread.
_newest_boards: BoundedCache[Board] = BoundedCache(64)


def board_since(tournament_id: int, version: int) -> Board | None:
    """The board of ``version`` or a newer one this process holds (for a push that announced ``version``:
    a screen may show a later state than announced, never an earlier one); None if it holds neither."""
    found = _boards.get((tournament_id, version))
    if found is None:
        newest = _newest_boards.get(tournament_id)
        found = newest if newest is not None and newest.version >= version else None
    return found


def read_board(tournament: Tournament) -> Board:
    """The board from the tournament's row and its replayed record (the events this process had not read
    yet: ``record_as_read``). After plain hands' ends only, it is this process's newest board gone on
    (``_only_plain_hands_since``): the whole record and field are not read again at every table's hand."""
    events, state = record_as_read(tournament.pk)
    newest = _newest_boards.get(tournament.pk)
    if newest is not None and _only_plain_hands_since(newest, tournament, events):
        return replace(newest, version=tournament.version, read_to=len(events), players_left=state.players_left,
                       chips_in_play=state.chips_in_play, players_holding_chips=state.players_holding_chips)
    setup = state.setup
    options = setup.options if setup is not None else HouseOptions.from_dict(tournament.house_options)
    entries = len(state.entries)
    fixed = state.prize_pool is not None
    return Board(
        tournament_id=tournament.pk,
        version=tournament.version,
        name=tournament.name,
        status=tournament.status,
        # lazy: the board is shared by every language, the label is read in each viewer's (issue #36)
        status_label=Tournament.Status(tournament.status).label if tournament.status in Tournament.Status.values
        else tournament.status,
        structure=_structure(setup.structure if setup is not None else tournament.structure),
        clock_events=tuple(state.clock_events),
        hand_for_hand_seconds=options.hand_for_hand_seconds,
        ante_mode=options.ante_mode,
        action_seconds=options.action_seconds,
        entries=entries,
        players_left=state.players_left,
        chips_in_play=state.chips_in_play,
        players_holding_chips=state.players_holding_chips,
        # CC-14: the pool is fixed when registration closes; until then, what the entries so far make.
        prize_pool=state.prize_pool if fixed else entries * (setup.buy_in if setup else tournament.buy_in),
        prize_pool_fixed=fixed,
        prizes=_prizes(state, entries),
        announcements=_announcements(events),
        entry_numbers=frozenset(e.entry for e in state.entries),
        seats={e.entry: SeatAt(e.table, e.seat) for e in state.in_play if e.table is not None and e.seat is not None},
        moves=_moves(events),
        finishes=_finishes(state),
        leaving={e.entry: e.how for e in state.eliminations},
        penalties={p.entry: state.penalty_hands_left(p.entry) for p in state.penalties if p.in_force},
        bags=_bags(state),
        read_to=len(events),
    )


def _only_plain_hands_since(board: Board, tournament: Tournament, events: list[dict]) -> bool:
    """Whether the record has gone on from ``board`` (an older version's) by plain hands' ends only: "hand"
    events, no one's penalty served in them, the row's name and status as they were. Such a hand moves chips
    between the players of one table (the phones show each stack from the table's hand, not from the board):
    what the board shows stays as it was but the version and the field's counts, which the replay keeps
    (issue #37: read again, every hand at 1,112 tables cost each process the whole record and field)."""
    if not board.read_to or board.version >= tournament.version or len(events) <= board.read_to:
        return False
    if (board.name, board.status) != (tournament.name, tournament.status):
        return False
    return all(record.plain_hand(e) for e in events[board.read_to:])


def _bags(state: TournamentState) -> dict[int, BagNotice]:
    """Each bagged player's bag until he checks in (CC-09): waiting for the next day (``bagged``), or seated
    at its redraw (CC-10) with his receipt still to show. Nothing for an event without series."""
    q = state.qualifying
    if q is None or not q.bags:
        return {}
    known = q.qualifying_over or q.final_stage  # CC-08: the level after the last series' end
    out = {}
    for e in state.entries:
        if e.status == "bagged":
            bag = q.bag_of(e.entry)
            seated = False
        elif e.status == "seated" and q.final_stage and not q.has_checked_in(e.entry, q.day):
            bag = q.bag_of(e.entry)
            seated = True
            if bag is None or bag.day != q.day - 1:
                continue  # bagged before the day that led here: nothing to check in with today
        else:
            continue
        if bag is None:
            continue
        if seated:
            next_day, next_level = q.day, q.day_level
        else:
            next_day, next_level = bag.day + 1, q.next_stage_level if known else None
        out[e.entry] = BagNotice(chips=bag.chips, day=bag.day, series=bag.series, receipt=bag.receipt,
                                 next_day=next_day, next_level=next_level, seated=seated)
    return out


def record_of(tournament: Tournament) -> list[dict]:
    """The tournament's record, every event as the export has it (read once per process, then only what
    is new: ``record_as_read``)."""
    return record_as_read(tournament.pk)[0]


def _structure(data) -> Structure | None:
    if not data:
        return None
    try:
        structure = Structure.from_dict(data)
    except (KeyError, TypeError, ValueError, RuleViolation):
        return None
    return structure if structure.steps else None


def _prizes(state: TournamentState, entries: int) -> tuple[int, ...]:
    """Each place's prize: from the fixed pool and the payout table (CC-14..16); none before the close."""
    if state.prize_pool is None or not entries:
        return ()
    setup = state.setup or Setup()
    shares = payout_shares(setup, entries) or prizes.default_payout_shares(entries)
    return tuple(p for p in prizes.place_prizes(state.prize_pool, shares, setup.options.prize_unit) if p)


def _finishes(state: TournamentState) -> dict[int, Finish]:
    """Each finished entry's places and prize: the recorded results, else the ranking recomputed."""
    results = state.results
    if not results and state.eliminations:
        try:
            results = compute_results(state)
        except NotImplementedError:
            results = ()
    out_or_done = {e.entry for e in state.eliminations} | (
        {n for r in state.results for n in r.entries} if state.results else set())
    return {entry: Finish(tuple(r.places), r.prize(entry))
            for r in results for entry in r.entries if entry in out_or_done}


def _moves(events: list[dict]) -> dict[int, MoveNotice]:
    """Each entry's last seat change after it first sat (a balance, a table broken, a redraw...)."""
    moves: dict[int, MoveNotice] = {}
    for event in effective_events(events):
        if event["type"] == "seated" and event.get("from_table") is not None:
            moves[int(event["entry"])] = MoveNotice(
                at=parse_at(event["at"]), why=event.get("why", ""), to_table=int(event["table"]),
                to_seat=int(event["seat"]), from_table=int(event["from_table"]),
                from_seat=event.get("from_seat"))
    return moves


#: What the room is told of (CC-04): each record event that changes what players must know.
ANNOUNCED = {
    "structure_changed": N_("The structure has changed: %(reason)s"),
    "setup_changed": N_("The tournament's settings have changed: %(reason)s"),
    "registration_closed": N_("Registration is closed: %(entries)s entries, prize pool %(prize_pool)s"),
    "table_broken": N_("Table %(table)s is broken"),
    "finished": N_("The tournament is over"),
}


CLOCK_ANNOUNCED = {
    "skip": N_("The clock moved to another level"),
    "adjust": N_("The clock was adjusted by %(seconds)s seconds"),
    "hand_for_hand_on": N_("Hand for hand: every table waits for the others before each hand"),
    "hand_for_hand_off": N_("Hand for hand is over"),
}


def _announcements(events: list[dict]) -> tuple[Announcement, ...]:
    notes = []
    for event in effective_events(events):
        kind = event["type"]
        message = CLOCK_ANNOUNCED.get(event.get("kind")) if kind == "clock" else ANNOUNCED.get(kind)
        if message is None:
            continue
        params = {"reason": event.get("reason") or "", "entries": event.get("entries", ""),
                  "prize_pool": event.get("prize_pool", ""), "table": event.get("table", ""),
                  "seconds": event.get("seconds", "")}
        notes.append(Announcement(parse_at(event["at"]), message, tuple(sorted(params.items()))))
    return tuple(notes[-ANNOUNCEMENTS:])


#: Each event's entries by number, as this process last read them: (id, player's name). An entry keeps its
#: number, id and name for good (a registration corrected away keeps its row).
_entries: BoundedCache[dict[int, tuple[int, str]]] = BoundedCache(16)


def entries_by_number(tournament_id: int, numbers: Iterable[int] | None) -> dict[int, tuple[int, str]]:
    """The event's entries ``numbers`` (all of them: None) as (id, player's name), read again only for a
    number this process has not seen (a late registration)."""

    known = _entries.get(tournament_id)
    wanted = None if numbers is None else list(numbers)
    if known is None or wanted is None or any(n not in known for n in wanted):
        known = _entries.put(tournament_id, {
            number: (pk, name) for number, pk, name in
            Entry.objects.filter(tournament_id=tournament_id).values_list("number", "pk", "player_name")})
    return dict(known) if wanted is None else {n: known[n] for n in wanted if n in known}


def _ids_of_entries(tournament_id: int, numbers: Iterable[int] | None) -> list[int]:
    return sorted(pk for pk, _name in entries_by_number(tournament_id, numbers).values())


def watching_links(tournament_id: int, numbers: Iterable[int] | None = None) -> dict:
    """The usable player links of the event's entries (only those ``numbers``, if given): link id -> when
    it expires.

    The entries' ids as values, not a subquery: without fresh statistics (a burst of registrations)
    PostgreSQL may plan the subquery once per link (docs/decisions/2026-11-26-links-asked-by-entry-ids.md).
    By the ids it uses the links' (seat type, seat id) index whatever it knows of the tables.

    In SQL of its own, not through the ORM: each process reads it at every tap at every table, and building
    and compiling the queryset costs about three times the query itself.
    The same query as ``PlayerLink.objects.filter(seat_type=..., seat_id__in=..., revoked_at__isnull=True,
    expires_at__gt=now).values_list("pk", "expires_at")``, tested against it."""

    return player_links.usable_links(Entry, _ids_of_entries(tournament_id, numbers))


# --- The room's seating display (issue #36) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatingRow:
    """One player still in, as the room's seating screen lists them: name, entry, table, seat."""

    name: str
    entry: int
    table: int
    seat: int


def fold(text: str) -> str:
    """A name as a room reads and a desk searches it: letters without their accents, case ignored ("José PÉREZ"
    beside and found by "jose perez"). The seating display's order and the registration desk's search."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def seating_rows(board: Board) -> list[SeatingRow]:
    """In a worker thread: every seated player of the board, alphabetical by name (then by entry number),
    with their table and seat; the names read once per process (``entries_by_number``)."""
    names = entries_by_number(board.tournament_id, board.seats.keys())
    rows = [SeatingRow(names.get(number, (0, ""))[1], number, at.table, at.seat) for number, at in board.seats.items()]
    return sorted(rows, key=lambda row: (fold(row.name), row.entry))
