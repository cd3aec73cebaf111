"""The event's record, and the tournament's state rebuilt by replaying it.

The record is the export contract of issue #14 (docs/tournament-record.md): a list of events, each a
JSON-able dict ``{"seq", "at", "type", ...fields}``, in ``seq`` order. It holds everything needed to
recompute the ranking, the prizes and every seat change from the record alone: what was drawn at
random is recorded (a replay never draws), and the entries are opaque numbers (no name, no ID
number: those stay in the casino's rows).

Mistakes are corrected, not erased (issue #14): a ``correction`` event voids an earlier event by its
``seq`` with a ``reason`` and, where it makes sense, ``replaces`` it with the corrected event (the
right player busted, the right seat). The replay skips the voided event, applies the replacement in
its place and recomputes everything after it (ranking, prizes, seats); the record keeps both. A
correction may itself be voided by a later one (the mistake stands again).

Clauses: CC-14 (the pool fixed at the close of registration), CC-18/19 (elimination order, stacks at
the start of the hand), CC-30/31 (absent stacks removed, unless held), CC-34 (withdrawal), CC-47
(disqualification), TDA-07/CC-48 (seat draws), RP-08 (hand-for-hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import flights, random_draw
from casino.rules.tournament.clock import CLOCK_KINDS, ClockEvent
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.penalties import PENALTY_KINDS, Penalty, hands_left
from casino.rules.tournament.prizes import Elimination, Result
from casino.rules.tournament.seating import WHY, Move, Plan, TableSeats, with_drawn_button

#: Every event type of the record, with the fields it carries besides seq, at and type
#: (docs/tournament-record.md describes each).
EVENT_TYPES: dict[str, tuple[str, ...]] = {
    "setup": ("buy_in", "fee", "starting_stack", "seats_per_table", "structure", "payout_table",
              "break_order", "options", "late_registration_level"),
    "setup_changed": ("changes", "reason"),
    "structure_changed": ("structure", "reason"),
    "registration_opened": (),
    "registered": ("entry", "reentry_of", "late_override"),
    "refused": ("reason", "clause"),
    "id_checked": ("entry", "checkpoint"),
    "registration_closed": ("entries", "prize_pool"),
    "seated": ("entry", "table", "seat", "chips", "why", "button", "occupied", "from_table", "from_seat",
               "sits_out", "plan", "table_seats", "reason"),
    "hand": ("table", "hand", "button", "small_blind", "big_blind", "players", "hand_for_hand_hand", "started_at",
             "level"),
    "bust": ("entry", "table", "hand", "hand_for_hand_hand", "stack_at_start"),
    "withdrawal": ("entry", "chips_removed"),
    "disqualification": ("entry", "chips_removed", "reason"),
    "chips_removed": ("entry", "chips", "reason"),
    "stack_held": ("entry", "held"),
    "chip_count": ("entry", "chips"),
    "button": ("table", "seat", "plan"),
    "clock": ("kind", "seconds", "step"),
    "plan_proposed": ("plan",),
    "plan_confirmed": ("proposed",),
    "table_broken": ("table", "plan"),
    "table_halted": ("table", "plan"),
    "table_resumed": ("table", "plan"),
    "colour_up": ("table", "removed", "into", "odd_chips", "cards", "won", "rescued", "stacks"),
    "prize_paid": ("entry", "amount"),
    "results": ("places",),
    "finished": (),
    "correction": ("voids", "reason", "replaces"),
    "penalty": ("entry", "kind", "hands", "rounds", "infraction", "reason"),
    "penalty_ended": ("entry", "penalty", "reason"),
    "random_draw": ("reason", "choices", "seed", "drawn"),
    # the qualifying series (flights), the day's end and the Final Stage (CC-05..CC-10, casino.rules.tournament.flights)
    "series_set": ("series", "end_level", "qualifiers", "choice"),
    "series_changed": ("series", "end_level", "qualifiers", "reason"),
    "series_assigned": ("entries", "how", "seed", "among"),
    "series_started": ("series",),
    "day_ended": ("day", "series", "level", "why", "bags", "digest"),
    "stage_started": ("day", "level", "step", "end_level"),
    "checked_in": ("entry", "shown", "receipt"),
}

#: Events that change who sits where: a plan proposed before one of them no longer applies.
SEAT_CHANGES = ("seated", "bust", "withdrawal", "disqualification", "table_broken", "registered", "button")
#: An entry's status.
STATUSES = ("registered", "seated", "busted", "withdrawn", "disqualified", "bagged")
#: The statuses of a player still in the event (``bagged``: his chips bagged at a day's end, CC-09).
IN_PLAY = ("registered", "seated", "bagged")
#: The statuses of the players in who hold chips: seated, or bagged between days. One registered for a qualifying
#: series still to play is in the event but has no chips yet (CC-05).
HOLDING_CHIPS = ("seated", "bagged")
#: What a ``seated`` event with these reasons gives: a full starting stack (CC-32: no chips for empty seats).
NEW_STACK_WHYS = ("draw", "late", "reentry")


# --- The state --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    buy_in: int = 0
    fee: int = 0
    starting_stack: int = 0
    seats_per_table: int = 9
    structure: dict = field(default_factory=dict)  # structure.Structure.as_dict()
    #: the payout table: ((most entries, shares in basis points place 1 first), ...), smallest first;
    #: empty means the house default (``prizes.default_payout_shares``)
    payout_table: tuple[tuple[int, tuple[int, ...]], ...] = ()
    break_order: tuple[int, ...] = ()  # CC-55: the announced order in which tables break
    options: HouseOptions = field(default_factory=HouseOptions)
    late_registration_level: int | None = None


@dataclass(frozen=True, slots=True)
class EntryState:
    entry: int
    status: str = "registered"
    stack: int = 0
    table: int | None = None
    seat: int | None = None
    held: bool = False  # CC-31: the absent player's stack is kept
    reentry_of: int | None = None
    checks: tuple[str, ...] = ()  # the ID checkpoints passed (entry, accreditation, seating, payout)
    paid: int = 0


@dataclass(frozen=True, slots=True)
class TournamentState:
    setup: Setup | None = None
    registration: str = "not_open"  # not_open, open, closed
    entries: tuple[EntryState, ...] = ()
    tables: tuple[TableSeats, ...] = ()
    halted: tuple[int, ...] = ()
    broken: tuple[int, ...] = ()
    clock_events: tuple[ClockEvent, ...] = ()
    hand_for_hand: bool = False
    hand_for_hand_hands: int = 0  # hand-for-hand hands reported since it was turned on (RP-08)
    eliminations: tuple[Elimination, ...] = ()
    prize_pool: int | None = None  # CC-14: fixed when registration closes
    refusals: int = 0
    pending_plan: tuple[int, Plan] | None = None  # (seq of the proposal, the plan) not yet confirmed
    results: tuple[Result, ...] = ()
    finished: bool = False
    last_seq: int = 0
    voided: tuple[int, ...] = ()  # seqs the corrections voided
    penalties: tuple[Penalty, ...] = ()  # TDA-71, CC-46: every penalty given, in the record's order
    #: (entry, table): players moved onto the button or between the button and the small blind since their
    #: table's last hand, who sit its next hand out (``seated`` with ``sits_out``: C-03, CC-53, CC-57, TDA-10)
    sitting_out: tuple[tuple[int, int], ...] = ()
    #: (seq of the hand, table, hand, entry): a hand reported dealing a player who had to sit it out (issue #38)
    dealt_sitting_out: tuple[tuple[int, int, int, int], ...] = ()
    #: the qualifying series and the Final Stage (CC-05..CC-10); None for an event without series
    qualifying: flights.Qualifying | None = None
    #: what the replay counted as it went (issue #37): (players still in, their chips, those of them holding chips),
    #: and the tables by number. None for a state built by hand: then they are counted from ``entries`` and
    #: ``tables`` when asked. Not part of the state's identity (they only say again what ``entries`` and ``tables``
    #: say).
    counted: tuple[int, int, int] | None = field(default=None, compare=False, repr=False)
    tables_by_number: Mapping[int, TableSeats] | None = field(default=None, compare=False, repr=False)
    #: each table's last chip race (its ``colour_up`` event as it stands after the corrections), kept by the replay
    #: so that a table's screen finds it without reading the whole record (issue #37); None for a state built by
    #: hand. Not part of the state's identity (the record says it again).
    last_races: Mapping[int, dict[str, Any]] | None = field(default=None, compare=False, repr=False)

    def sitting_out_seats(self, table: int) -> tuple[int, ...]:
        """The seats at ``table`` whose players sit its next hand out (C-03, CC-53, CC-57, TDA-10)."""
        at = self.table_in_play(table)
        if at is None:
            return ()
        seats = (at.seat_of(entry) for entry, where in self.sitting_out if where == table)
        return tuple(sorted(seat for seat in seats if seat is not None))

    def penalty_hands_left(self, entry: int) -> int:
        """The hands the entry still sits out for its penalties (TDA-71-D)."""
        return hands_left(self.penalties, entry)

    def entry(self, number: int) -> EntryState:
        # The entries are in the order of their numbers, which run 1, 2, 3... (``_Replay.freeze``): entry n is
        # almost always the n-th. A screen asks for a table's nine at every tap, of a thousand entries.
        guess = self.entries[number - 1] if isinstance(number, int) and 0 < number <= len(self.entries) else None
        if guess is not None and guess.entry == number:
            return guess
        for e in self.entries:
            if e.entry == number:
                return e
        raise RuleViolation(N_("There is no entry %(entry)s in this event"), "CC-26", entry=number)

    def table(self, number: int) -> TableSeats:
        found = self.table_in_play(number)
        if found is None:
            raise RuleViolation(N_("There is no table %(table)s in play"), "TDA-07", table=number)
        return found

    def table_in_play(self, number: int) -> TableSeats | None:
        """Table ``number``'s seats, or None when it is not in play (``table`` refuses instead). A replayed
        state looks it up by number: a tap asks for its table, of 1,112 at 10,000 entries (issue #37)."""
        if self.tables_by_number is not None:
            return self.tables_by_number.get(number)
        return next((t for t in self.tables if t.table == number), None)

    @property
    def in_play(self) -> tuple[EntryState, ...]:
        return tuple(e for e in self.entries if e.status in IN_PLAY)

    @property
    def players_left(self) -> int:
        # counted by the replay as it applied each event: every write asks, and the field is 10,000 (issue #37)
        return self.counted[0] if self.counted is not None else len(self.in_play)

    @property
    def chips_in_play(self) -> int:
        return self.counted[1] if self.counted is not None else sum(e.stack for e in self.in_play)

    @property
    def players_holding_chips(self) -> int:
        """The players in who hold chips (seated, or bagged): what the average stack divides by. During qualifying
        series the players of a series still to play are in (``players_left``) but hold none yet."""
        if self.counted is not None:
            return self.counted[2]
        return sum(1 for e in self.entries if e.status in HOLDING_CHIPS)

    def survivors(self) -> tuple[int, ...]:
        """Entries still in, the biggest stack first."""
        return tuple(e.entry for e in sorted(self.in_play, key=lambda e: (-e.stack, e.entry)))


# --- Plans as records -----------------------------------------------------------------------------


def move_to_dict(move: Move) -> dict[str, Any]:
    return {f.name: getattr(move, f.name) for f in fields(Move)}


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """A plan as the record keeps it (every field of ``seating.Plan``; tuples as lists)."""
    out: dict[str, Any] = {}
    for f in fields(Plan):
        value = getattr(plan, f.name)
        if f.name == "moves":
            value = [move_to_dict(m) for m in value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[f.name] = value
    return out


def plan_from_dict(data: dict[str, Any]) -> Plan:
    values: dict[str, Any] = {}
    for f in fields(Plan):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "moves":
            value = tuple(Move(**m) for m in value)
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        values[f.name] = value
    return Plan(**values)


def setup_from_event(event: dict[str, Any]) -> Setup:
    return Setup(
        buy_in=int(event.get("buy_in", 0)), fee=int(event.get("fee", 0)),
        starting_stack=int(event.get("starting_stack", 0)), seats_per_table=int(event.get("seats_per_table", 9)),
        structure=dict(event.get("structure") or {}),
        payout_table=tuple((int(n), tuple(int(s) for s in shares)) for n, shares in event.get("payout_table") or ()),
        break_order=tuple(int(t) for t in event.get("break_order") or ()),
        options=HouseOptions.from_dict(event.get("options")),
        late_registration_level=event.get("late_registration_level"),
    )


def payout_shares(setup: Setup, entries: int) -> tuple[int, ...] | None:
    """The shares the payout table gives for this many entries; None: the house default applies."""
    for most, shares in setup.payout_table:
        if entries <= most:
            return shares
    return setup.payout_table[-1][1] if setup.payout_table else None


# --- Replay ---------------------------------------------------------------------------------------


def parse_at(at: str | datetime) -> datetime:
    return at if isinstance(at, datetime) else datetime.fromisoformat(at.replace("Z", "+00:00"))


#: What confirming a plan records after its ``plan_confirmed``, each naming the plan (``plan``: its proposal).
CONFIRMED_TYPES = ("seated", "table_broken", "table_halted", "table_resumed", "button")


def confirmed_with(events: list[dict[str, Any]], seq: int) -> list[int]:
    """The seqs the ``plan_confirmed`` at ``seq`` recorded with it: the events that follow it at once and name
    its proposal (the moves, the broken and halted tables, the buttons; its write records nothing else)."""
    ordered = sorted(events, key=lambda e: e["seq"])
    at = next((i for i, e in enumerate(ordered) if e["seq"] == seq), None)
    if at is None or ordered[at]["type"] != "plan_confirmed":
        return []
    proposed = ordered[at].get("proposed")
    out = []
    for event in ordered[at + 1:]:
        if event["type"] not in CONFIRMED_TYPES or event.get("plan") != proposed:
            break
        out.append(int(event["seq"]))
    return out


def voided_seqs(events: list[dict[str, Any]]) -> set[int]:
    """The seqs voided by corrections that stand (a correction voided later does not void). A confirmation of
    a plan voided takes with it what it recorded (``confirmed_with``): voided alone, it re-opened the plan
    with its moves still made, and confirming it again made them twice (issue #34)."""
    voided: set[int] = set()
    for event in sorted((e for e in events if e["type"] == "correction"), key=lambda e: e["seq"], reverse=True):
        if event["seq"] not in voided:
            voided.add(int(event["voids"]))
    confirmations = {e["seq"] for e in events if e["type"] == "plan_confirmed"} & voided
    for seq in confirmations:
        voided.update(confirmed_with(events, seq))
    return voided


def plain_hand(event: dict[str, Any]) -> bool:
    """Whether a record event is a hand's end that served no one's penalty (TDA-71-D): it moves chips between
    the players of one table and nothing else the event's screens show. What a write that reports it announces
    (``tournaments.writing.only_its_table_sees``) and what a process's board goes on from
    (``tournaments.reads.event.read_board``) both ask."""
    return event["type"] == "hand" and not any(p.get("penalty") for p in event.get("players") or ())


def effective_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as they stand after the corrections: voided ones left out, replacements in their place
    (with the voided event's seq and time), corrections themselves left out."""
    ordered = sorted(events, key=lambda e: e["seq"])
    voided = voided_seqs(ordered)
    replacements: dict[int, dict[str, Any]] = {}
    for event in ordered:
        if event["type"] == "correction" and event["seq"] not in voided and event.get("replaces"):
            replacements[int(event["voids"])] = event["replaces"]
    # A registration voided without a replacement (a player registered by mistake) takes its entry's
    # later events with it (its ID check at the desk, an accreditation): the entry never was.
    never_entered = {event.get("entry") for event in ordered
                     if event["type"] == "registered" and event["seq"] in voided and event["seq"] not in replacements}
    out = []
    for event in ordered:
        if event["type"] == "correction":
            continue
        if event["seq"] in voided:
            replacement = replacements.get(event["seq"])
            if replacement:
                out.append({**replacement, "seq": event["seq"], "at": event["at"], "corrected": True})
            continue
        if never_entered and event.get("entry") in never_entered:
            continue
        out.append(event)
    return out


class _Replay:
    """The mutable working state of one replay; ``freeze`` gives the ``TournamentState``."""

    def __init__(self) -> None:
        self.setup: Setup | None = None
        self.registration = "not_open"
        self.entries: dict[int, EntryState] = {}
        self.tables: dict[int, TableSeats] = {}
        self.halted: list[int] = []
        self.broken: list[int] = []
        self.clock: list[ClockEvent] = []
        self.hand_for_hand = False
        self.hfh_hands = 0
        self.eliminations: list[Elimination] = []
        self.prize_pool: int | None = None
        self.refusals = 0
        self.pending: tuple[int, Plan] | None = None
        self.results: tuple[Result, ...] = ()
        self.finished = False
        self.last_seq = 0
        # the last hand reported at each table: {entry: stack at its start} (CC-19's stacks)
        self.last_hand: dict[int, tuple[int, dict[int, int]]] = {}
        # the moves of the plan being confirmed that are still to be recorded
        self.pending_moves: dict[int, Move] = {}
        self.penalties: list[Penalty] = []
        # entry -> table: the player sits that table's next hand out (C-03, CC-53, CC-57)
        self.sitting_out: dict[int, int] = {}
        self.dealt_sitting_out: list[tuple[int, int, int, int]] = []
        self.qualifying: flights.Qualifying | None = None  # frozen: replaced at each change
        # issue #37: what every write asks of the state, kept as each event is applied instead of counted over
        # the field at each freeze: the players still in and their chips, and whether ``entries`` and ``tables``
        # are in number order (they almost always are: entries are numbered as they register, the draw opens
        # tables 1, 2, 3...), so that freezing them is one copy of their values, not a sort
        self.players_in = 0
        self.chips_in = 0
        self.holding = 0  # of the players in, those holding chips (``HOLDING_CHIPS``)
        self.entries_in_order = True
        self.tables_in_order = True
        # table -> its last chip race (the effective ``colour_up`` event): what the dealer's tablet shows until the
        # table's next hand (TDA-24-A), found without a scan of the record at each render
        self.last_races: dict[int, dict[str, Any]] = {}

    def copy(self) -> _Replay:
        """A replay of its own at the same point: each container copied, not what it holds (entries, tables,
        moves, penalties: frozen, replaced whenever they change, never changed in place)."""
        twin = _Replay.__new__(_Replay)
        for name, value in vars(self).items():
            setattr(twin, name, type(value)(value) if isinstance(value, (dict, list, set)) else value)
        return twin

    # helpers
    def entry(self, number: int) -> EntryState:
        if number not in self.entries:
            raise RuleViolation(N_("There is no entry %(entry)s in this event"), "CC-26", entry=number)
        return self.entries[number]

    def update(self, number: int, **changes: Any) -> EntryState:
        old = self.entry(number)
        values = {f: getattr(old, f) for f in EntryState.__slots__}
        values.update(changes)
        new = self.entries[number] = EntryState(**values)
        self._count(old, -1)
        self._count(new, 1)
        return new

    def _count(self, e: EntryState, sign: int) -> None:
        if e.status in IN_PLAY:
            self.players_in += sign
            self.chips_in += sign * e.stack
        if e.status in HOLDING_CHIPS:
            self.holding += sign

    def add_entry(self, e: EntryState) -> None:
        if self.entries and e.entry < next(reversed(self.entries)):
            self.entries_in_order = False
        self.entries[e.entry] = e
        self._count(e, 1)

    def put_table(self, t: TableSeats) -> None:
        """Table ``t`` in play: a table new to the replay is added after the others."""
        if t.table not in self.tables and self.tables and t.table < next(reversed(self.tables)):
            self.tables_in_order = False
        self.tables[t.table] = t

    def unseat(self, number: int) -> None:
        e = self.entry(number)
        if e.table is not None and e.table in self.tables:
            t = self.tables[e.table]
            self.tables[e.table] = _replace_table(t, players=tuple(p for p in t.players if p[1] != number))

    def leave(self, number: int, how: str, seq: int, status: str, **extra: Any) -> None:
        e = self.entry(number)
        if e.status not in IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "CC-18", entry=number)
        self.unseat(number)
        self.sitting_out.pop(number, None)
        self.update(number, status=status, stack=0, table=None, seat=None)
        self.eliminations.append(Elimination(entry=number, order=seq, how=how, **extra))

    def freeze(self, voided: tuple[int, ...] = ()) -> TournamentState:
        """The state as it stands. Its containers are copies of the replay's (a tuple of 10,000 entries is one
        copy of references, the entries themselves shared: frozen, replaced when they change, never changed in
        place); the dicts were put back in number order first if something was added out of order."""
        if not self.entries_in_order:
            self.entries = dict(sorted(self.entries.items()))
            self.entries_in_order = True
        if not self.tables_in_order:
            self.tables = dict(sorted(self.tables.items()))
            self.tables_in_order = True
        tables = tuple(self.tables.values())
        return TournamentState(
            setup=self.setup, registration=self.registration,
            entries=tuple(self.entries.values()),
            tables=tables,
            halted=tuple(self.halted), broken=tuple(self.broken), clock_events=tuple(self.clock),
            hand_for_hand=self.hand_for_hand, hand_for_hand_hands=self.hfh_hands,
            eliminations=tuple(self.eliminations), prize_pool=self.prize_pool, refusals=self.refusals,
            pending_plan=self.pending, results=self.results, finished=self.finished, last_seq=self.last_seq,
            penalties=tuple(self.penalties), sitting_out=tuple(sorted(self.sitting_out.items())),
            dealt_sitting_out=tuple(self.dealt_sitting_out), qualifying=self.qualifying, voided=voided,
            counted=(self.players_in, self.chips_in, self.holding), tables_by_number={t.table: t for t in tables},
            last_races=dict(self.last_races),
        )

    # the events
    def apply(self, ev: dict[str, Any]) -> None:
        kind = ev["type"]
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            raise RuleViolation(N_("Unknown record event %(type)s"), "CC-04", type=kind)
        handler(ev)
        if kind in SEAT_CHANGES and not ev.get("plan"):
            # the tables the plan was proposed for have changed: it must be proposed again
            self.pending = None

    def on_setup(self, ev):
        self.setup = setup_from_event(ev)

    def on_setup_changed(self, ev):
        base = self.setup or Setup()
        merged = {**_setup_as_event(base), **(ev.get("changes") or {})}
        self.setup = setup_from_event(merged)

    def on_structure_changed(self, ev):
        base = self.setup or Setup()
        self.setup = setup_from_event({**_setup_as_event(base), "structure": ev["structure"]})

    def on_registration_opened(self, ev):
        self.registration = "open"

    def on_registered(self, ev):
        number = int(ev["entry"])
        if number in self.entries:
            raise RuleViolation(N_("Entry %(entry)s is registered already"), "CC-26", entry=number)
        self.add_entry(EntryState(entry=number, reentry_of=ev.get("reentry_of")))

    def on_refused(self, ev):
        self.refusals += 1

    def on_id_checked(self, ev):
        e = self.entry(int(ev["entry"]))
        self.update(e.entry, checks=(*e.checks, ev["checkpoint"]))

    def on_registration_closed(self, ev):
        self.registration = "closed"
        self.prize_pool = int(ev["prize_pool"])

    def on_seated(self, ev):
        number, table, seat = int(ev["entry"]), int(ev["table"]), int(ev["seat"])
        if ev.get("why") not in WHY:
            raise RuleViolation(N_("Unknown reason for a seat: %(why)s"), "TDA-07", why=ev.get("why"))
        e = self.entry(number)
        if e.status not in IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-07", entry=number)
        self.unseat(number)
        seats = int(ev.get("table_seats") or (self.setup.seats_per_table if self.setup else 10))
        t = self.tables.get(table) or TableSeats(table=table, seats=seats, players=())
        if ev.get("table_seats") and t.seats != seats:
            # the plan sets this table's seats: the final table at the house's size (C-01, RP-09)
            t = _replace_table(t, seats=seats)
        if ev.get("why") == "final_table" and not t.final:
            t = _replace_table(t, final=True)
        if ev.get("why") not in ("draw", "redraw", "final_table"):
            t = _first_blinds_fixed(t)
        if not 1 <= seat <= t.seats:
            raise RuleViolation(N_("Table %(table)s has no seat %(seat)s"), "TDA-07", table=table, seat=seat)
        taken = dict(t.players)
        if seat in taken and taken[seat] != number and ev.get("plan") and self.pending_moves.get(taken[seat]):
            # a redraw or a break confirmed at once: the seat's player moves on in the same plan
            t = _replace_table(t, players=tuple(p for p in t.players if p[0] != seat))
            self.update(taken[seat], table=None, seat=None)
            taken.pop(seat)
        if seat in taken and taken[seat] != number:
            raise RuleViolation(N_("Seat %(seat)s at table %(table)s is taken by entry %(other)s"), "TDA-07",
                                seat=seat, table=table, other=taken[seat])
        players = tuple(sorted((*((s, n) for s, n in t.players if n != number), (seat, number))))
        changes: dict[str, Any] = {"players": players}
        if ev.get("why") in ("draw", "redraw", "final_table") and ev.get("button") is not None:
            # CC-82: the button drawn with the seats is where the next hand's button is
            changes.update(button=int(ev["button"]), button_is_next=True, small_blind=None, big_blind=None)
        self.put_table(_replace_table(t, **changes))
        if table in self.broken:
            self.broken.remove(table)
        self.update(number, status="seated", stack=int(ev.get("chips", e.stack)), table=table, seat=seat)
        self.pending_moves.pop(number, None)
        # C-03, CC-53, CC-57, TDA-10: moved onto the button or between the button and the small blind, he sits
        # the table's next hand out (a later seat, or his leaving, ends it)
        self.sitting_out.pop(number, None)
        if ev.get("sits_out"):
            self.sitting_out[number] = table

    def on_hand(self, ev):
        table = int(ev["table"])
        t = self.tables.get(table)
        if t is None:
            raise RuleViolation(N_("There is no table %(table)s in play"), "TDA-07", table=table)
        starts: dict[int, int] = {}
        for p in ev.get("players") or ():
            number = int(p["entry"])
            if p.get("penalty"):
                self.serve_penalty(number)
            if p.get("start") is not None:
                starts[number] = int(p["start"])
            if p.get("end") is not None and self.entries.get(number) and self.entries[number].status in IN_PLAY:
                self.update(number, stack=int(p["end"]))
        self.last_hand[table] = (int(ev["hand"]), starts)
        # the players who had to sit this hand out have sat it out; one the hand dealt in is an irregular record
        # (issue #38: the verifier says so, the replay goes on: older records still read)
        waiting = [n for n, where in self.sitting_out.items() if where == table]
        for p in ev.get("players") or ():
            if int(p["entry"]) in waiting:
                self.dealt_sitting_out.append((int(ev["seq"]), table, int(ev["hand"]), int(p["entry"])))
        for number in waiting:
            del self.sitting_out[number]
        if ev.get("button") is not None:
            # the seats of the last hand reported (seating reads the next hand's from them)
            self.tables[table] = _replace_table(t, button=int(ev["button"]), small_blind=ev.get("small_blind"),
                                                big_blind=ev.get("big_blind"), button_is_next=False)

    def on_bust(self, ev):
        number = int(ev["entry"])
        e = self.entry(number)
        table = ev.get("table", e.table)
        hand = ev.get("hand")
        stack = ev.get("stack_at_start")
        if stack is None and table is not None and table in self.last_hand:
            last_hand, starts = self.last_hand[table]
            if hand is None or hand == last_hand:
                stack = starts.get(number)
        # ``at``: busts in hands at different tables recorded at one instant share their places (CC-20)
        self.leave(number, "bust", int(ev["seq"]), "busted", table=table, hand=hand,
                   hand_for_hand_hand=ev.get("hand_for_hand_hand"), stack_at_start=stack,
                   at=parse_at(ev["at"]) if ev.get("at") else None)

    def on_withdrawal(self, ev):
        number = int(ev["entry"])
        e = self.entry(number)
        self.leave(number, "withdrawal", int(ev["seq"]), "withdrawn", table=e.table)

    def on_disqualification(self, ev):
        number = int(ev["entry"])
        e = self.entry(number)
        self.leave(number, "disqualification", int(ev["seq"]), "disqualified", table=e.table)

    def serve_penalty(self, number: int) -> None:
        """A hand whose player's hand was dead for his penalty (TDA-71-D) serves one hand of the first
        penalty in force. The director may have ended it while that hand was played: it serves nothing
        then (the hand was dead all the same)."""
        for i, p in enumerate(self.penalties):
            if p.entry == number and p.in_force:
                self.penalties[i] = _replace_penalty(p, served=p.served + 1)
                return

    def on_penalty(self, ev):
        e = self.entry(int(ev["entry"]))
        if e.status not in IN_PLAY:
            raise RuleViolation(N_("Entry %(entry)s is no longer in the event"), "TDA-71-A", entry=e.entry)
        if ev.get("kind") not in PENALTY_KINDS:
            raise RuleViolation(N_("A penalty is a warning, a number of hands or a number of rounds"), "TDA-71-A")
        self.penalties.append(Penalty(seq=int(ev["seq"]), entry=e.entry, kind=ev["kind"],
                                      hands=int(ev.get("hands") or 0), rounds=int(ev.get("rounds") or 0),
                                      infraction=ev.get("infraction") or "other", reason=ev.get("reason") or ""))

    def on_penalty_ended(self, ev):
        """The director ends a suspension before its hands are served (CC-46); ``penalty`` names its seq."""
        seq = int(ev["penalty"])
        for i, p in enumerate(self.penalties):
            if p.seq == seq and p.entry == int(ev["entry"]):
                if not p.in_force:
                    raise RuleViolation(N_("Entry %(entry)s's penalty is not in force"), "CC-46", entry=p.entry)
                self.penalties[i] = _replace_penalty(p, ended=True)
                return
        raise RuleViolation(N_("Entry %(entry)s has no penalty %(seq)s"), "CC-46", entry=ev["entry"], seq=seq)

    def on_chips_removed(self, ev):
        e = self.entry(int(ev["entry"]))
        self.update(e.entry, stack=max(0, e.stack - int(ev["chips"])))
        if ev.get("reason") == "absent" and self.entries[e.entry].stack == 0 and e.status in IN_PLAY:
            # CC-30: a player whose whole stack was removed is out, ranked in the order of the removal
            self.leave(e.entry, "bust", int(ev["seq"]), "busted", table=e.table)

    def on_random_draw(self, ev):
        """RP-14: the director's draw changes nothing in play; its choice must be the one its seed draws."""
        if random_draw.drawn(ev["choices"], int(ev["seed"])) != int(ev["drawn"]):
            raise RuleViolation(N_("The draw at line %(seq)s is not the one its seed draws"), "RP-14", seq=ev["seq"])

    def on_stack_held(self, ev):
        self.update(int(ev["entry"]), held=bool(ev.get("held", True)))

    def on_chip_count(self, ev):
        self.update(int(ev["entry"]), stack=int(ev["chips"]))

    def on_button(self, ev):
        table = int(ev["table"])
        t = self.tables.get(table)
        if t is None:
            raise RuleViolation(N_("There is no table %(table)s in play"), "TDA-07", table=table)
        # the floor enters where the next hand's button is
        self.tables[table] = _replace_table(t, button=int(ev["seat"]), button_is_next=True, small_blind=None,
                                            big_blind=None)

    def on_clock(self, ev):
        kind = ev["kind"]
        if kind not in CLOCK_KINDS:
            raise RuleViolation(N_("Unknown clock command %(kind)s"), "TDA-23", kind=kind)
        self.clock.append(ClockEvent(kind=kind, at=parse_at(ev["at"]), seconds=int(ev.get("seconds") or 0),
                                     step=int(ev.get("step") or 0)))
        if kind == "hand_for_hand_on":
            self.hand_for_hand, self.hfh_hands = True, 0
        elif kind == "hand_for_hand_off":
            self.hand_for_hand = False
        elif kind == "hand_for_hand_hand":
            self.hfh_hands += 1

    def on_plan_proposed(self, ev):
        self.pending = (int(ev["seq"]), plan_from_dict(ev["plan"]))

    def on_plan_confirmed(self, ev):
        if self.pending is not None:
            self.pending_moves = {m.entry: m for m in self.pending[1].moves}
        self.pending = None

    def on_table_broken(self, ev):
        table = int(ev["table"])
        t = self.tables.pop(table, None)
        if t is not None and t.players:
            raise RuleViolation(N_("Table %(table)s still has players: move them before breaking it"), "CC-55",
                                table=table)
        if table in self.halted:
            self.halted.remove(table)
        self.broken.append(table)

    def on_table_halted(self, ev):
        if int(ev["table"]) not in self.halted:
            self.halted.append(int(ev["table"]))

    def on_table_resumed(self, ev):
        if int(ev["table"]) in self.halted:
            self.halted.remove(int(ev["table"]))

    def on_colour_up(self, ev):
        self.last_races[int(ev["table"])] = ev
        for number, stack in ev.get("stacks") or ():
            if int(number) in self.entries and self.entries[int(number)].status in IN_PLAY:
                self.update(int(number), stack=int(stack))

    def on_prize_paid(self, ev):
        e = self.entry(int(ev["entry"]))
        self.update(e.entry, paid=e.paid + int(ev["amount"]))

    def on_results(self, ev):
        self.results = results_from_dicts(ev["places"])

    def on_finished(self, ev):
        self.finished = True

    # the qualifying series and the Final Stage (CC-05..CC-10; the rules in ``flights``)
    def on_series_set(self, ev):
        self.qualifying = flights.on_series_set(self.qualifying, ev)

    def on_series_changed(self, ev):
        self.qualifying = flights.on_series_changed(self.qualifying, ev)

    def on_series_assigned(self, ev):
        self.qualifying = flights.on_series_assigned(self.qualifying, ev, set(self.entries))

    def _new_clock(self) -> None:
        """A series, or a day of the Final Stage, runs a clock of its own (CC-05, CC-08)."""
        self.clock = []
        self.hand_for_hand, self.hfh_hands = False, 0

    def on_series_started(self, ev):
        self.qualifying = flights.on_series_started(self.qualifying, ev)
        self._new_clock()

    def on_day_ended(self, ev):
        """Every player still at a table bags his chips (CC-09): he leaves his seat with them, and the tables
        close. A player at a table left out of the bags is refused: no one is left playing."""
        bags = flights.bags_from_event(ev)
        stacks = {}
        for b in bags:
            e = self.entry(b.entry)
            if e.status != "seated" or e.table != b.table or e.seat != b.seat:
                raise RuleViolation(N_("Entry %(entry)s does not sit at table %(table)s, seat %(seat)s"), "CC-09",
                                    entry=b.entry, table=b.table, seat=b.seat)
            stacks[b.entry] = e.stack
        self.qualifying = flights.on_day_ended(self.qualifying, ev, stacks)
        left = [e.entry for e in self.entries.values() if e.status == "seated" and e.entry not in stacks]
        if left:
            raise RuleViolation(N_("Entry %(entry)s is still at a table: every player bags at the day's end"),
                                "CC-09", entry=min(left))
        for b in bags:
            self.unseat(b.entry)
            self.sitting_out.pop(b.entry, None)
            self.update(b.entry, status="bagged", stack=b.chips, table=None, seat=None)
        for number in sorted(self.tables):
            self.tables.pop(number)
            self.halted = [t for t in self.halted if t != number]
            self.broken.append(number)
        self.last_hand.clear()
        self.pending = None

    def on_stage_started(self, ev):
        self.qualifying = flights.on_stage_started(self.qualifying, ev)
        self._new_clock()

    def on_checked_in(self, ev):
        self.qualifying = flights.on_checked_in(self.qualifying, ev)


def _replace_table(t: TableSeats, **changes: Any) -> TableSeats:
    """``t`` with ``changes``; a change to a field this version of ``TableSeats`` lacks is left out."""
    values = {f.name: getattr(t, f.name) for f in fields(TableSeats)}
    values.update({k: v for k, v in changes.items() if k in values})
    return TableSeats(**values)


def _first_blinds_fixed(t: TableSeats) -> TableSeats:
    """A table waiting for its first hand, its blinds still read from its drawn button, has them fixed where
    they are before a player arrives (as ``seating.plan`` and ``seating.apply`` read it, ``_blinds_fixed``):
    the newcomer finds them there instead of pushing them along, and sits out between the button and the
    small blind as the plan said (CC-57; issue #38: read live, the newcomer was due the small blind the plan
    had him sit out)."""
    if t.button_is_next and t.small_blind is None and t.button is not None and t.count >= 2:
        return with_drawn_button(t, t.button)
    return t


def _replace_penalty(p: Penalty, **changes: Any) -> Penalty:
    return Penalty(**{**{f.name: getattr(p, f.name) for f in fields(Penalty)}, **changes})


def _setup_as_event(setup: Setup) -> dict[str, Any]:
    return {"buy_in": setup.buy_in, "fee": setup.fee, "starting_stack": setup.starting_stack,
            "seats_per_table": setup.seats_per_table, "structure": setup.structure,
            "payout_table": [[n, list(s)] for n, s in setup.payout_table], "break_order": list(setup.break_order),
            "options": setup.options.as_dict(), "late_registration_level": setup.late_registration_level}


def setup_event_fields(setup: Setup) -> dict[str, Any]:
    """A ``setup`` event's fields for this setup."""
    return _setup_as_event(setup)


def results_to_dicts(results: tuple[Result, ...]) -> list[dict[str, Any]]:
    """The results as the record keeps them: everything ``Result.prize`` needs, so that a split's rounding
    remainder and a disqualified player's shared prize (CC-47) are paid from the record alone, and
    ``prizes`` says what each entry collects."""
    return [{"places": list(r.places), "entries": list(r.entries), "prize_each": r.prize_each,
             "remainder": r.remainder, "remainder_to": r.remainder_to, "shared_each": r.shared_each,
             "shared_remainder": r.shared_remainder, "how": r.how,
             "prizes": {str(entry): r.prize(entry) for entry in r.entries}} for r in results]


def results_from_dicts(places: list[dict[str, Any]]) -> tuple[Result, ...]:
    return tuple(Result(places=tuple(p["places"]), entries=tuple(p["entries"]), prize_each=int(p["prize_each"]),
                        remainder=int(p.get("remainder", 0)), remainder_to=p.get("remainder_to"),
                        shared_each=int(p.get("shared_each", 0)), shared_remainder=int(p.get("shared_remainder", 0)),
                        how=p.get("how", "bust"))
                 for p in places)


def replay(events: list[dict[str, Any]]) -> TournamentState:
    """The tournament as the record says it stands, corrections applied (a refusal names a record that
    cannot be: a seat taken twice, an entry busted twice...)."""
    return Replayer(events).state()


class Replayer:
    """A replay kept up to date as events are appended (a write appends a few to a long record): each new
    event is applied to the state so far, checked as it is; a correction replays the whole record again,
    since it changes what came before."""

    def __init__(self, events: list[dict[str, Any]] = ()) -> None:
        self.events: list[dict[str, Any]] = list(events)
        # the highest seq, kept as events are appended (counted over the whole record at each freeze, it cost
        # the record's length at every write: issue #37)
        self._last_seq = max((int(e["seq"]) for e in self.events), default=0)
        self._rebuild()

    def _rebuild(self) -> None:
        self._replay = _Replay()
        for ev in effective_events(self.events):
            self._replay.apply(ev)
        self._voided = tuple(sorted(voided_seqs(self.events)))
        self._state: TournamentState | None = None

    def copy(self) -> Replayer:
        """A replay of its own at the same point, for a write that appends to it and may roll back: what the
        replay holds copied (``_Replay.copy``), not the record replayed again, which grows with the record
        (docs/decisions/2026-11-26-replay-copied-under-the-lock.md)."""
        twin = Replayer.__new__(Replayer)
        twin.events = list(self.events)
        twin._replay = self._replay.copy()
        twin._voided = self._voided
        twin._state = self._state
        twin._last_seq = self._last_seq
        return twin

    def append(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self._last_seq = max(self._last_seq, int(event["seq"]))
        if event["type"] == "correction":
            self._rebuild()
        else:
            self._replay.apply(event)
            self._state = None

    def state(self) -> TournamentState:
        if self._state is None:
            self._replay.last_seq = self._last_seq
            self._state = self._replay.freeze(self._voided)
        return self._state


def check_sequence(events: list[dict[str, Any]]) -> None:
    """Refuse a record whose seqs are not 1, 2, 3... or whose events lack their type or time."""
    for expected, event in enumerate(events, start=1):
        if event.get("seq") != expected:
            raise RuleViolation(N_("Record event %(seq)s is out of order (expected %(expected)s)"), "CC-04",
                                seq=event.get("seq"), expected=expected)
        if event.get("type") not in EVENT_TYPES or not event.get("at"):
            raise RuleViolation(N_("Record event %(seq)s has no known type or no time"), "CC-04", seq=expected)
        if event["type"] == "correction" and not 1 <= int(event.get("voids") or 0) < expected:
            raise RuleViolation(N_("Correction %(seq)s voids no earlier event"), "CC-04", seq=expected)


def compute_results(state: TournamentState) -> tuple[Result, ...]:
    """The ranking and prizes recomputed from the eliminations and the fixed pool (CC-14..21)."""
    from casino.rules.tournament import prizes

    total = len(state.entries)
    pool = state.prize_pool or 0
    setup = state.setup or Setup()
    shares = payout_shares(setup, total) or prizes.default_payout_shares(total)
    unit = setup.options.prize_unit
    return prizes.results(total, list(state.eliminations), state.survivors(),
                          prizes.place_prizes(pool, shares, unit), unit=unit)


@dataclass(frozen=True, slots=True)
class Verification:
    """What replaying a record alone found: the state, the results recomputed, and what does not agree."""

    state: TournamentState
    results: tuple[Result, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_record(events: list[dict[str, Any]]) -> Verification:
    """Replay an exported record alone and check it is enough: the sequence runs 1, 2, 3..., every seat
    change replays (no seat taken twice, no one seated after leaving), the prize pool is the buy-ins of
    the entries (CC-14), no hand deals a player who had to sit it out (moved onto the button or between
    the button and the small blind: C-03, CC-53, CC-57, TDA-10), a redraw's seats carry the button drawn
    for their table's next hand (CC-82), and the ranking and prizes recomputed
    from the eliminations are the recorded ``results``. A record that cannot be replayed raises
    ``RuleViolation``."""
    check_sequence(events)
    state = replay(events)
    problems: list[str] = []
    setup = state.setup
    if setup is None:
        problems.append("the record has no setup")
    if state.prize_pool is not None and setup is not None:
        entries = 0
        for e in effective_events(events):
            if e["type"] == "registration_closed":
                break
            entries += e["type"] == "registered"
        if state.prize_pool != entries * setup.buy_in:
            problems.append(f"the prize pool {state.prize_pool} is not {entries} buy-ins of {setup.buy_in}")
    recomputed: tuple[Result, ...] = ()
    if state.results:
        recomputed = compute_results(state)
        if recomputed != state.results:
            problems.append("the recorded results differ from those recomputed from the eliminations")
    problems.extend(_drawn_buttons_not_recorded(effective_events(events)))
    problems.extend(flights.problems(state.qualifying))
    for seq, table, hand, entry in state.dealt_sitting_out:
        # C-03, CC-53, CC-57, TDA-10: a player moved onto the button or between the button and the small blind
        # is not dealt the table's next hand
        problems.append(f"hand {hand} at table {table} (event {seq}) deals entry {entry}, who had to sit it out "
                        f"(CC-53, CC-57)")
    for e in state.in_play:
        if e.status == "seated" and (e.table is None or all(e.entry != n for _, n in state.table(e.table).players)):
            problems.append(f"entry {e.entry} is seated nowhere")
    return Verification(state=state, results=recomputed, problems=tuple(problems))


def _drawn_buttons_not_recorded(events: list[dict[str, Any]]) -> list[str]:
    """A redraw's and the final table's ``seated`` events whose ``button`` is not the button their plan drew
    for that table: the draw's ``button`` is the drawn button of the table's next hand (CC-82,
    docs/tournament-record.md; issue #38 item 14)."""
    drawn: dict[int, dict[int, int]] = {}  # proposal seq -> {table: drawn button}
    problems = []
    for event in events:
        if event["type"] == "plan_proposed":
            buttons = (event.get("plan") or {}).get("buttons") or ()
            drawn[int(event["seq"])] = {int(table): int(seat) for table, seat in buttons}
        elif event["type"] == "seated" and event.get("why") in ("redraw", "final_table") and event.get("plan"):
            button = drawn.get(int(event["plan"]), {}).get(int(event["table"]))
            if button is not None and event.get("button") != button:
                problems.append(f"event {event['seq']} seats entry {event['entry']} in the {event['why']} at table "
                                f"{event['table']} with button {event.get('button')}, where the draw put it at "
                                f"seat {button} (CC-82)")
    return problems
