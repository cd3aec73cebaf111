"""What a tournament's live screens show: the room's clock display and a player's phone (issue #14).

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

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino import player_links
from casino.memo import BoundedCache
from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import prizes
from casino.rules.tournament.clock import ClockEvent, ClockReading, clock_at
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.record import (
    Setup,
    TournamentState,
    compute_results,
    effective_events,
    parse_at,
    payout_shares,
)
from casino.rules.tournament.structure import Break, Level, Structure
from tournaments.models import Tournament

#: A player's link lives until the event ends, and this long after, to read their place and prize.
LINK_GRACE = timedelta(hours=12)
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
    entries: int = 0  # entries taken in the event, re-entries included
    players_left: int = 0
    chips_in_play: int = 0
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

    @property
    def average_stack(self) -> int | None:
        return self.chips_in_play // self.players_left if self.players_left else None

    @property
    def money_stage(self) -> str:
        """RP-08-A: "outside", "bubble" or "in_the_money" while the event runs with its pool fixed, else "".
        Read from the same version as the players left, so the bust that makes the bubble shows it."""
        if self.status != "running" or not self.prize_pool_fixed:
            return ""
        return prizes.money_stage(self.players_left, len(self.prizes)) or ""


# --- Reading the board once per version --------------------------------------------------------------

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
    yet: ``services.record_as_read``)."""
    from tournaments.services import record_as_read

    events, state = record_as_read(tournament.pk)
    setup = state.setup
    options = setup.options if setup is not None else HouseOptions.from_dict(tournament.house_options)
    entries = len(state.entries)
    fixed = state.prize_pool is not None
    return Board(
        tournament_id=tournament.pk,
        version=tournament.version,
        name=tournament.name,
        status=tournament.status,
        status_label=str(tournament.get_status_display()),
        structure=_structure(setup.structure if setup is not None else tournament.structure),
        clock_events=tuple(state.clock_events),
        hand_for_hand_seconds=options.hand_for_hand_seconds,
        ante_mode=options.ante_mode,
        entries=entries,
        players_left=state.players_left,
        chips_in_play=state.chips_in_play,
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
    )


def record_of(tournament: Tournament) -> list[dict]:
    """The tournament's record, every event as the export has it (read once per process, then only what
    is new: ``services.record_as_read``)."""
    from tournaments.services import record_as_read

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


# --- The clock at "now" --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock as a screen shows it: the pure reading, and the instants its countdowns end."""

    reading: ClockReading | None
    now: datetime
    step_ends_at: datetime | None = None  # while the wall clock runs the step
    break_at: datetime | None = None  # while it runs, before the next break
    ended_at: datetime | None = None  # the last level's time ran out then (it keeps its level: TDA-23)
    next_step: Level | Break | None = None

    @property
    def key(self) -> tuple:
        """What the rendered HTML depends on besides the board: a step and its end, not the instant."""
        r = self.reading
        if r is None:
            return ("no-clock",)
        return (r.step, r.running, r.paused, r.on_break, r.started, r.hand_for_hand, r.finished,
                r.structure_ended, _ms(self.step_ends_at) if self.step_ends_at else r.seconds_left,
                _ms(self.break_at), None if self.ended_at is None else _ms(self.ended_at) // 1000)


def _ms(at: datetime | None) -> int | None:
    return None if at is None else round(at.timestamp() * 1000)


def _reading(board: Board, now: datetime) -> ClockReading | None:
    if board.structure is None or not board.structure.steps:
        return None
    return clock_at(board.structure, list(board.clock_events), now, hand_for_hand_seconds=board.hand_for_hand_seconds)


def clock_view(board: Board, now: datetime | None = None) -> ClockView:
    """The clock at ``now``. The pure clock gives the exact instant the running step ends
    (``step_ends_at``, to the microsecond): the screens count down to it, never from whole seconds."""
    now = now or timezone.now()
    reading = _reading(board, now)
    if reading is None:
        return ClockView(None, now)
    steps = board.structure.steps
    next_step = steps[reading.step + 1] if reading.step + 1 < len(steps) else None
    break_at = ended_at = None
    if reading.step_ends_at is not None and reading.seconds_to_break is not None and not reading.on_break:
        # The levels before the break are whole seconds: the break comes exactly that much later.
        break_at = reading.step_ends_at + timedelta(seconds=reading.seconds_to_break - reading.seconds_left)
    if reading.structure_ended and reading.running:
        ended_at = now - timedelta(seconds=reading.seconds_past_end)
    return ClockView(reading, now, step_ends_at=reading.step_ends_at, break_at=break_at, ended_at=ended_at,
                     next_step=next_step)


# --- The room's clock display ---------------------------------------------------------------------------

NOW_MARK = "data-server-now=\"0\""
_clock_html: BoundedCache[str] = BoundedCache(256)


def clock_display_fragment(board: Board, now: datetime | None = None) -> str:
    """The TV's fragment (``#clock-display``): rendered once per board, clock step and language in this
    process, then stamped with the server's "now" for each screen (the offset is measured from it)."""
    view = clock_view(board, now)
    key = (board.tournament_id, board.version, view.key, translation.get_language())
    html = _clock_html.get(key)
    if html is None:
        html = _clock_html.put(key, render_to_string("tournaments/_clock_display.html", clock_context(board, view)))
    return _stamped(html)


def _stamped(html: str) -> str:
    """A cached fragment with the server's "now" of this send (the screen measures its offset from it).
    The HTML is safe (rendered by a template); stamping a number into it keeps it so."""
    return mark_safe(html.replace(NOW_MARK, f'data-server-now="{_ms(timezone.now())}"', 1))  # noqa: S308


def final_standings(board: Board) -> list[dict]:
    """Issue #36: the final standings as the room's screens show them once the event is over: each place
    (a shared one once) and its prize, place 1 first, the places paid and at least the first
    ``LADDER_PLACES``. No name, entry or seat (what the room's display may show)."""
    if board.status != "finished":
        return []
    rows = {finish.places: finish.prize for finish in board.finishes.values()}
    return [{"first": places[0], "last": places[-1], "prize": prize}
            for places, prize in sorted(rows.items()) if prize or places[0] <= LADDER_PLACES]


def clock_context(board: Board, view: ClockView) -> dict:
    reading = view.reading
    ladder = [{"place": place, "prize": prize} for place, prize in enumerate(board.prizes[:LADDER_PLACES], 1)]
    return {
        "board": board,
        "clock": view,
        "reading": reading,
        "state": _clock_state(view),
        "level_number": reading.level_number if reading else None,
        "next_level": reading.next_level if reading else None,
        "next_is_break": isinstance(view.next_step, Break),
        "step_ends_ms": _ms(view.step_ends_at),
        "ended_ms": _ms(view.ended_at),
        "break_at_ms": _ms(view.break_at),
        "ladder": ladder,
        "more_places": max(0, len(board.prizes) - LADDER_PLACES),
        "announcements": board.announcements[-ANNOUNCEMENTS:][::-1],
        "ante_label": _ante_label(board.ante_mode),
        "standings": final_standings(board),
    }


def _clock_state(view: ClockView) -> str:
    """One word for the screen's look: not-started, running, paused, break, finished (a pause is never
    shown as a break: another clock's bug)."""
    r = view.reading
    if r is None or not r.started:
        return "not-started"
    if r.paused:
        return "paused"
    if r.finished:
        return "finished"
    return "break" if r.on_break else "running"


def _ante_label(mode: str):
    return {"button": _("Button ante"), "big_blind": _("Big blind ante")}.get(mode, _("Ante"))


# --- A player's phone (registered in tournaments.apps) --------------------------------------------------


def player_groups(entry) -> list[str]:
    """In a worker thread: the event's group (the clock, the seat, the results) and, while the entry has a
    seat, its table's phones' group, which the table announces each tap of its hands to (``dealing``)."""
    return phone_groups(board_at(Tournament(pk=entry.tournament_id)), entry_number(entry))


def phone_groups(board: Board, number: int) -> list[str]:
    from tournaments.models import event_screens_group, table_phones_group

    seat = board.seats.get(number)
    event = event_screens_group(board.tournament_id)
    return [event] if seat is None else [event, table_phones_group(board.tournament_id, seat.table)]


def phone_groups_now(entry, shown: int) -> list[str] | None:
    """On the event loop, after a push: the phone's groups as the board it shows (or a newer one) has them
    (its player moved, busted or was seated), or None if this process holds neither."""
    board = board_since(entry.tournament_id, shown)
    return None if board is None else phone_groups(board, entry_number(entry))


def versioned_groups(entry) -> list[str]:
    """The event's announcements carry the version the phone shows; its table's do not."""
    from tournaments.models import event_screens_group

    return [event_screens_group(entry.tournament_id)]


#: The phone's part of the hand its player is dealt in (C-33: read-only, their own): the street, the pot,
#: their stack, whose turn, the clock called on them (C-04). No card: dealer-driven hands record none.
@dataclass(frozen=True, slots=True)
class HandAtSeat:
    table: int
    hand: int
    in_play: bool
    street: str
    pot: int
    seat: int
    stack: int
    to_act: int | None
    clock_ends_ms: int | None = None  # the clock called on this player: when it runs out
    clock_seconds: int | None = None
    clock_countdown: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.in_play and self.to_act == self.seat


_STREETS = {"preflop": _("Pre-flop"), "flop": _("Flop"), "turn": _("Turn"), "river": _("River")}


def street_label(street: str):
    return _STREETS.get(street, street)


def hand_at_seat(board: Board, number: int) -> HandAtSeat | None:
    """In a worker thread: the hand at the entry's table as its phone shows it (the table's summary, read
    once per table version in the process: ``dealing.table_summary``); None when the entry is not seated,
    its table is not dealt from a tablet, or it is not dealt in."""
    from tournaments import dealing
    from tournaments.models import DealtTable

    seat = board.seats.get(number)
    # unordered: one row at most (as the tablet's read, tablet._table)
    table = DealtTable.objects.filter(tournament_id=board.tournament_id, number=seat.table).order_by().first() \
        if seat is not None else None
    hand = _hands_in(dealing.table_summary(table) if table is not None else None).get(number)
    _remember_hand(board.tournament_id, number, table, hand)
    return hand


def _hands_in(summary: dict | None) -> dict[int, HandAtSeat]:
    """Each entry dealt in at a table's latest hand (its summary): that entry's part of it."""
    if summary is None:
        return {}
    clock = summary.get("clock")
    hands = {}
    for seat, entry in summary.get("entries", {}).items():
        on_me = clock is not None and clock["seat"] == seat
        hands[entry] = HandAtSeat(
            table=summary["number"], hand=summary["hand"], in_play=summary["in_play"], street=summary["street"],
            pot=summary["pot"], seat=seat, stack=summary["stacks"].get(seat, 0), to_act=summary["to_act"],
            clock_ends_ms=_ms(datetime.fromisoformat(clock["ends_at"])) if on_me else None,
            clock_seconds=clock["seconds"] if on_me else None, clock_countdown=clock["countdown"] if on_me else None)
    return hands


# The hand each entry's phone last showed in this process (its socket's), with the table and the table's
# version it was read at: a push of the event rendered from memory keeps showing it; a tap at the entry's
# table brings the new one (the entry's group), never an older one than the phone already showed.
_hands_shown: BoundedCache[tuple[tuple[int, int] | None, HandAtSeat | None]] = BoundedCache(4096)


def _remember_hand(tournament_id: int, number: int, table, hand: HandAtSeat | None) -> bool:
    """Keep ``hand`` as the entry's (read at ``table``'s version); False if a later read of that table
    is kept already (a tap's news that arrived after a fresher read)."""
    read_at = (table.pk, table.version) if table is not None else None
    kept = _hands_shown.get((tournament_id, number))
    kept_at = kept[0] if kept is not None else None
    if read_at and kept_at and kept_at[0] == read_at[0] and kept_at[1] > read_at[1]:
        return False  # the same table, read at a later version
    _hands_shown.put((tournament_id, number), (read_at, hand))
    return True


def _hand_shown(tournament_id: int, number: int) -> HandAtSeat | None:
    kept = _hands_shown.get((tournament_id, number))
    return kept[1] if kept is not None else None


def entry_number(entry) -> int:
    return getattr(entry, "number", None) or entry.pk


def player_fragment(entry, link, *, version: int | None = None) -> str:
    """In a worker thread (a connection, a revocation, a tap at the entry's table, a push the memory could
    not serve): read now, the hand at the entry's table included."""
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    board = board_at(tournament, version)
    number = entry_number(entry)
    return phone_view(board, number, hand=hand_at_seat(board, number))


_watching: BoundedCache[dict] = BoundedCache(64)
_phone_html: BoundedCache[str] = BoundedCache(4096)
_phone_own: BoundedCache[str] = BoundedCache(4096)  # a phone's own part (phone_view)
_phone_shared: BoundedCache[str] = BoundedCache(64)  # what every phone of an event shows alike


#: Each event's entries by number, as this process last read them: (id, player's name). An entry keeps its
#: number, id and name for good (a registration corrected away keeps its row).
_entries: BoundedCache[dict[int, tuple[int, str]]] = BoundedCache(16)


def entries_by_number(tournament_id: int, numbers: Iterable[int] | None) -> dict[int, tuple[int, str]]:
    """The event's entries ``numbers`` (all of them: None) as (id, player's name), read again only for a
    number this process has not seen (a late registration)."""
    from tournaments.models import Entry

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
    from tournaments.models import Entry

    return player_links.usable_links(Entry, _ids_of_entries(tournament_id, numbers))


def phone_shared_read(entry, version: int):
    """One read per version and process for every phone of the event: the board and the usable links."""
    tournament_id = entry.tournament_id

    def read() -> None:
        board_at(Tournament(pk=tournament_id, version=version), version)
        _watching.get_or_make((tournament_id, version), lambda: watching_links(tournament_id), alone=True)

    return ("tournament-phones", tournament_id, version), read


def phone_from_memory(entry, link, version: int) -> str | None:
    """The phone at ``version`` from this process's memory (on the event loop, no database), the link
    checked against the version's usable links; None: the worker-thread path reads and checks."""
    board = board_since(entry.tournament_id, version)
    links = _watching.get((entry.tournament_id, version))
    if board is None or links is None:
        return None
    expires_at = links.get(link.pk)
    if expires_at is None or expires_at <= timezone.now():
        return None
    number = entry_number(entry)
    return phone_view(board, number, hand=_hand_shown(entry.tournament_id, number))


#: What a tap at a dealt table tells the phones of the entries dealt in there: each one's part of the hand,
#: and which of their links are usable (link id -> expiry), read once per table version and process.
@dataclass(frozen=True)
class TapAtTable:
    table: object  # the DealtTable as read (its pk and version)
    hands: dict[int, HandAtSeat]
    links: dict[int, datetime]


_taps: BoundedCache[TapAtTable] = BoundedCache(1024)


#: Each dealt table's fixed facts (its event, number and creation stamp), by id, as this process read them.
_tables: BoundedCache[tuple[int, int, datetime]] = BoundedCache(1024)


def _table_at(tournament_id: int, table_pk: int, version: int):
    """The dealt table ``table_pk`` of the event as an unsaved row at ``version`` (what a snapshot's key
    needs: its id and creation stamp), its fixed facts read once per process; None if it is not there."""
    from tournaments.models import DealtTable

    facts = _tables.get(table_pk)
    if facts is None:
        row = DealtTable.objects.filter(pk=table_pk).values_list("tournament_id", "number", "created_at").first()
        if row is None:
            return None
        facts = _tables.put(table_pk, row)
    event, number, created_at = facts
    if event != tournament_id:
        return None
    return DealtTable(pk=table_pk, tournament_id=event, number=number, created_at=created_at, version=version)


def read_tap(tournament_id: int, table_pk: int, version: int) -> TapAtTable | None:
    """In a worker thread: the table at the version its tap announced (its summary, ``dealing.table_summary``,
    as the tap's write left it, or read now) and the usable links of the entries dealt in or seated there
    (their phones hear its taps); None if the table is not the event's. The table's row is not read: the
    announcement says its version already."""
    from tournaments import dealing

    table = _table_at(tournament_id, table_pk, version)
    if table is None:
        return None
    at_version = dealing.SUMMARIES.snapshot_anywhere(table, version)
    table.version = at_version.version  # read now, it may be a later version: it says which
    hands = _hands_in(at_version.summary)
    # The players seated there but not dealt in, from the newest board this process holds: every change of
    # a seat is announced to the phones, whose shared read of it made that board, and a phone follows a
    # table only once the board it shows seats its player there. Read only when the process holds none:
    # the event's version moves with every hand's end at any table, and each new one was a board to build.
    board = board_since(tournament_id, 0) or board_at(Tournament(pk=tournament_id))
    at_table = {*hands, *(number for number, seat in board.seats.items() if seat.table == table.number)}
    return TapAtTable(table, hands, watching_links(tournament_id, at_table))


def phone_news(entry, link, event: dict, shown: int):
    """A tap at the entry's table (its phones' group: the table's pk and version, no state):
    one read of the table per version and process (``read_tap``), then every phone dealt in there renders on
    the event loop, on top of the board version it shows, its link checked against that read. A revocation
    committed before the read is in it; the revocation's own push reads the link's row and says goodbye."""
    table_pk, version = event.get("table"), event.get("version")
    if table_pk is None or version is None:
        return None
    tournament_id, number = entry.tournament_id, entry_number(entry)
    key = ("tournament-tap", table_pk, version)

    def read() -> None:
        tap = read_tap(tournament_id, table_pk, version)
        if tap is not None:
            _taps.put(key, tap)

    def render() -> str | None:
        # the board the phone shows or a newer one (the tap's read reads the current board): the version a
        # phone shows may be long past, as the event's plain hands are not announced to it
        tap, board = _taps.get(key), board_since(tournament_id, shown)
        if tap is None or board is None:
            return None
        expires_at = tap.links.get(link.pk)
        if expires_at is None or expires_at <= timezone.now():
            return None
        hand = tap.hands.get(number)
        if not _remember_hand(tournament_id, number, tap.table, hand):
            hand = _hand_shown(tournament_id, number)
        return phone_view(board, number, hand=hand)

    return key, read, render


_VERSION_SHOWN = re.compile(r'data-version="\d+"')
HAND_SLOT = mark_safe("<!--phone-hand-->")  # noqa: S308 - a constant
_phone_hands: BoundedCache[str] = BoundedCache(4096)
_facts: BoundedCache[tuple] = BoundedCache(64)


def _board_facts(board: Board) -> tuple:
    """What every phone of the event shows of the board besides its own entry and the clock's step: once
    per board and process."""
    return _facts.get_or_make((board.tournament_id, board.version), lambda: (
        board.tournament_id, board.name, board.status, board.entries, board.players_left, board.chips_in_play,
        board.prize_pool, board.prize_pool_fixed, board.prizes, board.announcements[-ANNOUNCEMENTS:],
        board.ante_mode, board.structure))


def _phone_hand(hand: HandAtSeat) -> str:
    return render_to_string("tournaments/_phone_hand.html", {"hand": hand, "street": street_label(hand.street)})


def phone_view(board: Board, number: int, now: datetime | None = None, hand: HandAtSeat | None = None) -> str:
    """The phone of entry ``number``: its own seat, move, result, the clock, and its part of the hand at its
    table (``hand``); never another entry's."""
    if board.entry_numbers and number not in board.entry_numbers:
        # The entry was corrected away: whoever holds its link sees nothing of the event any more.
        return render_to_string("casino/fragments/access_ended.html")
    now = now or timezone.now()
    view = clock_view(board, now)
    move = board.moves.get(number)
    if move is not None and now - move.at > MOVE_NOTICE:
        move = None
    # Keyed by what this phone shows, not by the version: a version that leaves it as it was (a hand's end
    # at a table without a bust, a tap at a dealt table) is the same render, stamped with the new version.
    seat = board.seats.get(number)
    if hand is not None and (seat is None or hand.table != seat.table):
        hand = None  # a hand at the table the entry has left is not shown
    # Three parts, each rendered when what it shows changes: the phone's own (its seat, move, result,
    # penalty), what every phone of the event shows alike (the clock, the counts, the money: a bust anywhere
    # changes it for a thousand phones at once, rendered once for all of them), and its part of the hand
    # at its table (at every tap there), put in its slot.
    language = translation.get_language()
    finish, leaving, penalty_hands = board.finishes.get(number), board.leaving.get(number), board.penalties.get(number)
    own_key = (board.tournament_id, board.name, number, move, seat, finish, leaving, penalty_hands, hand is not None,
               language)
    shared_key = (_board_facts(board), view.key, finish is None, language)

    def whole() -> str:
        own = _phone_own.get_or_make(own_key, lambda: render_to_string("tournaments/_phone_own.html", {
            "board": board, "number": number, "seat": seat, "move": move, "finish": finish, "leaving": leaving,
            "penalty_hands": penalty_hands, "won": finish is not None and 1 in finish.places, "hand": hand,
            "hand_section": HAND_SLOT}))
        shared = _phone_shared.get_or_make(shared_key, lambda: render_to_string(
            "tournaments/_phone_shared.html", {**clock_context(board, view), "money": finish is None}))
        return render_to_string("tournaments/player_fragment.html", {
            "board": board, "state": _clock_state(view), "own": own, "shared": shared})

    html = _phone_html.get_or_make((own_key, shared_key), whole)
    if hand is not None:
        html = html.replace(HAND_SLOT, _phone_hands.get_or_make((hand, language), lambda: _phone_hand(hand)), 1)
    return _stamped(_VERSION_SHOWN.sub(f'data-version="{board.version}"', html, count=1))


def link_expiry(tournament: Tournament) -> datetime:
    """When a player's link of this event stops working: the event's end (or a day after its start,
    if it has none) and ``LINK_GRACE`` after, and never before the pit's link lifetime from now."""
    ends = getattr(tournament, "ends_at", None) or tournament.starts_at + timedelta(days=1)
    return max(ends + LINK_GRACE, timezone.now() + timedelta(hours=settings.PLAYER_LINK_HOURS))


def issue_entry_link(entry, *, by, stream: str | None = None):
    """A player's QR link for ``entry`` (the accreditation receipt prints it): bound to that one entry,
    audited, working until ``link_expiry`` of its event. A second link is a second or lost phone of the
    same player; every one of them is revoked by ``revoke_entry_links`` when the entry is corrected away, or
    by the director (``services.revoke_player_links``). None is issued for an entry out of the event (busted,
    withdrawn, disqualified): the links it has keep showing its final place until they expire."""
    from casino.player_links import issue_player_link
    from casino.rules.tournament.record import IN_PLAY

    if entry.status not in IN_PLAY:
        raise RuleViolation(N_("Entry %(entry)s is out of the event: no new link is issued for it (the links it "
                               "has show its final place until they expire)."), None, entry=entry_number(entry))

    hours = math.ceil((link_expiry(entry.tournament) - timezone.now()).total_seconds() / 3600)
    return issue_player_link(seat=entry, by=by, label=gettext("Entry %(number)s") % {"number": entry_number(entry)},
                             hours=max(1, hours), stream=stream)


def revoke_entry_links(entry, *, by, now=None) -> list:
    """Revoke every usable link of ``entry`` in the caller's transaction (a registration corrected away,
    a player who must not follow the event any more); after commit their phones say goodbye and close."""
    from django.contrib.contenttypes.models import ContentType

    from casino.models import PlayerLink
    from casino.player_links import end_links

    links = list(PlayerLink.objects.select_for_update().filter(
        seat_type=ContentType.objects.get_for_model(type(entry)), seat_id=entry.pk, revoked_at__isnull=True))
    end_links(links, by=by, now=now or timezone.now())
    return links
