"""Seats: the draw, late entries, balancing, breaking tables, redraws, the button draw.

TDA-07, TDA-08, TDA-10, TDA-11, CC-32, CC-48, CC-53..62, CC-82; house options C-01, C-03, C-18, C-25.

After every change (a bust, a late entry) ``plan`` says exactly what the floor must do, and ``apply``
gives the tables once it is done, so that the app and the tests can check that a plan is legal. The
readings chosen where the sources are silent (docs/tournaments-seating.md has them all):

* **The blinds between hands** (C-25, TDA-32, CC-78..81): a standard dead button. The big blind moves
  to the next player clockwise each hand; the small blind is the seat that was the big blind (dead if
  that player has gone, CC-80); the button is the seat that was the small blind, or stays where it was
  when the last hand had a dead small blind (CC-79/81). ``next_hand`` computes this.
* **The button draw** (CC-82): one seat number is drawn for every table; at a table where that seat is
  empty the button goes to the next occupied seat clockwise (the way the button always moves).
* **The worst position** (TDA-11-A, CC-58): the open seat whose player would post the big blind soonest,
  "closest to the big blind", never the small blind; among open seats equally soon, the first clockwise.
* **Which table gives a player** (TDA-11-C, a predetermined procedure): the fullest; among equally full
  tables, the one that breaks first; the short table that receives is the shortest, among equally short
  ones the one that breaks last.
* **The break order** (CC-55): the announced ``break_order`` first, then the tables it does not name,
  highest number first.
* **Breaking** (TDA-10, CC-56): the seat cards put out are the open seats that keep the other tables as
  even as possible (a seat at the shortest table first), never a table's small-blind seat while that
  table has another open seat; the cards and the players are then matched by the two-step draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from random import Random

from casino.rules.cards import Card, full_deck
from casino.rules.errors import N_, Note, RuleViolation
from casino.rules.tournament.options import HouseOptions

#: why a player takes a seat (the record's ``why``)
WHY = ("draw", "late", "reentry", "balance", "break", "redraw", "final_table", "correction", "override")


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One table as it stands between hands.

    ``button``, ``small_blind`` and ``big_blind`` are the seats of the last hand reported. The button and
    the small blind may be empty seats (dead, C-25); ``small_blind`` None: a dead small blind whose seat
    was not reported, the button then stays where it is (CC-79/81); ``big_blind`` None: the blinds were
    not reported and are read from the button as on a live button. ``button_is_next``
    says that ``button`` is where the NEXT hand's button is (just drawn, CC-82, or so entered by the
    floor): no hand has been played since; ``small_blind`` and ``big_blind`` are then the first hand's,
    fixed with the button (None: read from the button when the hand starts).
    """

    table: int
    seats: int  # seats at this table (10, 9, 8, 6)
    players: tuple[tuple[int, int], ...]  # (seat, entry), by seat
    button: int | None = None  # the button's seat for the last hand reported (may be empty: dead button)
    final: bool = False
    small_blind: int | None = None
    big_blind: int | None = None
    button_is_next: bool = False

    @property
    def count(self) -> int:
        return len(self.players)

    def occupied(self) -> dict[int, int]:
        """seat -> entry."""
        return dict(self.players)

    def open_seats(self) -> tuple[int, ...]:
        taken = {seat for seat, _ in self.players}
        return tuple(s for s in range(1, self.seats + 1) if s not in taken)

    def seat_of(self, entry: int) -> int | None:
        for seat, who in self.players:
            if who == entry:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Move:
    entry: int
    to_table: int
    to_seat: int
    why: str
    from_table: int | None = None
    from_seat: int | None = None
    sits_out: bool = False  # CC-53 / C-03 on the button, or CC-57 between the button and the SB: not dealt in


@dataclass(frozen=True, slots=True)
class Plan:
    """What the floor must do now, after a bust or any change (the floor confirms with one tap)."""

    moves: tuple[Move, ...] = ()
    broken: tuple[int, ...] = ()  # tables to break now, in the announced order (CC-55)
    halted: tuple[int, ...] = ()  # tables that halt until balanced (C-18, CC-59)
    warnings: tuple[str, ...] = ()  # TDA-11-D's "3 short of the fullest", a warning only
    redraw: str | None = None  # "redraw" (two tables, CC-48) or "final_table" (C-01, CC-61/62)
    buttons: tuple[tuple[int, int], ...] = field(default=())  # (table, button seat) drawn (CC-82)
    #: (table, seats) for a table whose seat count the plan sets: the final table (C-01, RP-09)
    seats: tuple[tuple[int, int], ...] = ()
    #: the two-step draw of a break (TDA-10-ex1): (entry, playing card dealt), highest card first
    cards: tuple[tuple[int, str], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.moves or self.broken or self.redraw)


@dataclass(frozen=True, slots=True)
class NextHand:
    """Where the next hand's button and blinds are (C-25: standard dead button)."""

    button: int  # may be an empty seat: a dead button
    small_blind: int | None  # None: a dead small blind, the hand has only a big blind (CC-80)
    big_blind: int  # always a player: the player due the big blind next
    small_blind_position: int  # the small blind's seat even when it is dead (empty)


# ---------------------------------------------------------------------------------------------- seats


def _after(seat: int, seats: int) -> int:
    return seat % seats + 1


def _clockwise_from(seat: int, seats: int) -> list[int]:
    """Every seat once, clockwise, starting just after ``seat``."""
    out, s = [], seat
    for _ in range(seats):
        s = _after(s, seats)
        out.append(s)
    return out


def _next_player(seat: int, table: TableSeats, taken: set[int]) -> int:
    for s in _clockwise_from(seat, table.seats):
        if s in taken:
            return s
    raise RuleViolation(N_("Table %(table)s has no player"), "CC-54", table=table.table)


def _previous_player(seat: int, table: TableSeats, taken: set[int]) -> int:
    for s in reversed(_clockwise_from(seat, table.seats)):
        if s in taken and s != seat:
            return s
    return seat


def _strictly_between(seat: int, start: int, end: int, seats: int) -> bool:
    """``seat`` lies clockwise after ``start`` and before ``end``."""
    return 0 < (seat - start) % seats < (end - start) % seats


def _check_seat(table: TableSeats, seat: int, clause: str) -> None:
    if not isinstance(seat, int) or not 1 <= seat <= table.seats:
        raise RuleViolation(N_("Table %(table)s has no seat %(seat)s (seats 1 to %(seats)s)"), clause,
                            table=table.table, seat=seat, seats=table.seats)


def next_hand(table: TableSeats) -> NextHand | None:
    """The next hand's button, small blind and big blind at this table; None with fewer than two players.

    C-25 (TDA-32, CC-78..81), a standard dead button: the big blind moves to the next player clockwise
    after the last big blind's seat; the small blind is that last big blind's seat, dead when its player
    has gone (CC-80); the button is the last small blind's seat (dead when its player has gone, or when
    that small blind was already dead), and stays where it was when the last hand's small blind was dead
    and its seat not reported (CC-79/81: "the button stays in the same place"; the order of play is the
    same either way). Heads-up the button posts the small blind (TDA-34) and the other player the big
    blind. A drawn button (``button_is_next``) deals the first hand with the blinds fixed when it was
    drawn; with none fixed, or no big blind reported, the blinds are read from the button as on a live
    button: the first player after it posts the small blind, the next the big blind. Refuses a table
    with players and no button: the floor enters it (the issue: "the button seat when a move needs it").
    """
    taken = {seat for seat, _ in table.players}
    if len(taken) < 2:
        return None
    if table.button is None:
        raise RuleViolation(N_("Table %(table)s: enter the button's seat, the blinds and moves depend on it"),
                            "C-25", table=table.table)
    _check_seat(table, table.button, "C-25")
    if table.button_is_next and table.small_blind is not None:
        # A drawn button whose first small blind was fixed with it: players arriving before the first
        # hand find the blinds where they were drawn, as if the last hand's big blind had been on that
        # small blind's seat and its small blind on the button's.
        last_button, last_small, last_big = table.button, table.button, table.small_blind
    elif table.button_is_next:
        button = table.button
        if len(taken) == 2:
            small = button if button in taken else _next_player(button, table, taken)
            return NextHand(button, small, _next_player(small, table, taken), small)
        small = _next_player(button, table, taken)
        return NextHand(button, small, _next_player(small, table, taken), small)
    else:
        last_button, last_small, last_big = table.button, table.small_blind, table.big_blind
    if last_big is None:
        # No blinds reported: read them from the last button as on a live button (TDA-34 heads-up).
        last_small = _next_player(last_button, table, taken)
        last_big = _next_player(last_small, table, taken)
    _check_seat(table, last_big, "C-25")
    if last_small is not None:
        _check_seat(table, last_small, "C-25")
    big = _next_player(last_big, table, taken)
    if len(taken) == 2:
        other = next(s for s in taken if s != big)
        return NextHand(other, other, big, other)
    small = last_big if last_big in taken else None
    button = last_small if last_small is not None else last_button
    # A button that would fall after the small blind's seat (players arrived since) goes back to the
    # player before that seat: the order of play is the same, the button never jumps past the blinds.
    if button in (last_big, big) or _strictly_between(button, last_big, big, table.seats):
        button = _previous_player(last_big, table, taken)
    return NextHand(button, small, big, last_big)


def due_big_blind(table: TableSeats) -> int | None:
    """The entry due the big blind next at this table (TDA-11-A, CC-58); None with fewer than two players."""
    hand = next_hand(table)
    return None if hand is None else table.occupied()[hand.big_blind]


def hand_played(table: TableSeats) -> TableSeats:
    """The table after its next hand is played and nobody busts: the hand's button and blinds reported."""
    hand = next_hand(table)
    if hand is None:
        return table
    return replace(table, button=hand.button, small_blind=hand.small_blind_position, big_blind=hand.big_blind,
                   button_is_next=False)


def _not_dealt_in(table: TableSeats, hand: NextHand | None) -> set[int]:
    """Seats a newcomer would not be dealt in from next hand: the button's seat (only an empty one can be
    taken) and those strictly between the button and the small blind (TDA-08-A, TDA-10, CC-57)."""
    if hand is None:
        return set()
    sb = hand.small_blind_position
    return {s for s in range(1, table.seats + 1)
            if s == hand.button or _strictly_between(s, hand.button, sb, table.seats)}


def _small_blind_seat(hand: NextHand | None) -> int | None:
    return None if hand is None else hand.small_blind_position


def _with(table: TableSeats, seat: int, entry: int) -> TableSeats:
    return replace(table, players=tuple(sorted((*table.players, (seat, entry)))))


def _without(table: TableSeats, entry: int) -> TableSeats:
    return replace(table, players=tuple(p for p in table.players if p[1] != entry))


def worst_position(table: TableSeats) -> int | None:
    """The open seat a player moved in to balance takes (TDA-11-A, CC-58): the one that would post the
    big blind soonest ("closest to the big blind"), even if that leaves a hand with only a big blind or
    the seat posting it twice; never the small blind (neither the next hand's small-blind seat nor a seat
    that would make him post it). None when the table has no such seat.

    Among open seats equally soon (one gap between two players), the first clockwise from the small
    blind. A table with no button yet gives its first open seat.
    """
    open_seats = table.open_seats()
    if not open_seats:
        return None
    if table.button is None:
        return open_seats[0]
    hand = next_hand(table)
    start = hand.small_blind_position if hand is not None else table.button
    best, best_wait = None, None
    # Clockwise from the small blind's position: the first seats after it come up for the big blind first.
    for seat in _clockwise_from(start, table.seats):
        if seat not in open_seats or (hand is not None and seat == hand.small_blind_position):
            continue
        trial = next_hand(_with(table, seat, -1))
        if trial is None or hand is None:
            wait = 0  # no order of play yet: the blinds are fixed when a second player sits down
        elif seat == trial.small_blind_position:
            continue
        elif seat == trial.big_blind:
            wait = 0
        else:
            order = _clockwise_from(trial.big_blind, table.seats)
            occupied = {s for s, _ in table.players} | {seat}
            wait = sum(1 for s in order[: order.index(seat)] if s in occupied) + 1
        if best_wait is None or wait < best_wait:
            best, best_wait = seat, wait
    return best


# ---------------------------------------------------------------------------------------------- the draw


def tables_needed(players: int, seats_per_table: int) -> int:
    """The fewest tables that seat ``players`` at ``seats_per_table`` (0 for no one)."""
    if not isinstance(seats_per_table, int) or not 2 <= seats_per_table <= 10:
        raise RuleViolation(N_("A table seats 2 to 10 players, not %(seats)s"), "TDA-07", seats=seats_per_table)
    if not isinstance(players, int) or players < 0:
        raise RuleViolation(N_("%(players)s is not a number of players"), "TDA-07", players=players)
    return -(-players // seats_per_table)


def _spread_seats(players: int, seats: int) -> list[int]:
    """The seats ``players`` take at a table of ``seats``, the empty ones spread around it."""
    empty = seats - players
    gaps = {(j + 1) * seats // empty for j in range(empty)} if empty else set()
    return [s for s in range(1, seats + 1) if s not in gaps]


def with_drawn_button(table: TableSeats, button: int) -> TableSeats:
    """The table with its button drawn for the next hand (CC-82), the first hand's blinds fixed with it."""
    drawn = replace(table, button=button, small_blind=None, big_blind=None, button_is_next=True)
    hand = next_hand(drawn)
    if hand is None:
        return drawn
    return replace(drawn, small_blind=hand.small_blind, big_blind=hand.big_blind)


def _blinds_fixed(table: TableSeats) -> TableSeats:
    """A table waiting for its first hand whose blinds are still read from the button (a table just opened)
    gets them fixed as soon as it has two players, so that players arriving later find them where they
    are instead of pushing them along.

    Remembered by the table's value (frozen, hashable; the answer depends on nothing else): a plan asks it of
    every table, and after the draw 1,112 tables wait for their first hand, each read again at every bust
    (issue #37)."""
    try:
        return _blinds_fixed_remembered(table)
    except TypeError:  # a table built by hand with a list for its players: not hashable, read now
        return _blinds_fixed_now(table)


@lru_cache(maxsize=4096)
def _blinds_fixed_remembered(table: TableSeats) -> TableSeats:
    return _blinds_fixed_now(table)


def _blinds_fixed_now(table: TableSeats) -> TableSeats:
    if table.button_is_next and table.small_blind is None and table.button is not None and table.count >= 2:
        return with_drawn_button(table, table.button)
    return table


def _draw_button(tables: list[TableSeats], seats: int, rng: Random) -> list[TableSeats]:
    """CC-82: one seat number drawn for every table; where it is empty, the next player clockwise."""
    number = rng.randrange(1, seats + 1)
    out = []
    for table in tables:
        taken = {s for s, _ in table.players}
        button = number if number in taken or not taken else _next_player(number, table, taken)
        out.append(with_drawn_button(table, button))
    return out


def draw_seats(entries: list[int], seats_per_table: int, rng: Random, *, tables: list[int] | None = None,
               why: str = "draw") -> tuple[tuple[TableSeats, ...], tuple[Move, ...]]:
    """A random draw over all seats (TDA-07, CC-48), tables as even as possible; no empty-seat stacks
    (CC-32). Returns the tables (buttons drawn, CC-82) and one ``Move`` per entry.

    The tables' sizes differ by one at most; which tables take the extra players is drawn too. The
    empty seats are spread around each table. ``tables``: the table numbers to use (when given, every
    one of them is filled; by default 1, 2, ... as many as needed). Also the two-table redraw
    (``why="redraw"``) and the final table's (``why="final_table"``).
    """
    if why not in WHY:
        raise RuleViolation(N_("Unknown reason for a seat: %(why)s"), "TDA-07", why=why)
    if len(set(entries)) != len(entries):
        raise RuleViolation(N_("An entry is listed twice in the draw"), "TDA-07")
    needed = tables_needed(len(entries), seats_per_table)
    numbers = list(range(1, needed + 1)) if tables is None else list(tables)
    count = len(numbers)
    if len(set(numbers)) != count:
        raise RuleViolation(N_("A table is listed twice in the draw"), "TDA-07")
    if count < needed:
        raise RuleViolation(N_("%(players)s players need %(needed)s tables of %(seats)s, only %(given)s given"),
                            "TDA-07", players=len(entries), needed=needed, seats=seats_per_table, given=count)
    if count > len(entries):
        raise RuleViolation(N_("%(given)s tables for %(players)s players: a table would stay empty"), "TDA-07",
                            players=len(entries), given=count)
    if not count:
        return (), ()
    base, extra = divmod(len(entries), count)
    bigger = set(rng.sample(range(count), extra))
    seat_cards = [(numbers[i], seat) for i in range(count)
                  for seat in _spread_seats(base + (i in bigger), seats_per_table)]
    players = list(entries)
    rng.shuffle(players)
    by_table: dict[int, list[tuple[int, int]]] = {n: [] for n in numbers}
    moves = []
    for entry, (table, seat) in zip(players, seat_cards, strict=True):
        by_table[table].append((seat, entry))
        moves.append(Move(entry, table, seat, why))
    drawn = [TableSeats(n, seats_per_table, tuple(sorted(by_table[n])), final=why == "final_table")
             for n in numbers]
    moves.sort(key=lambda m: (numbers.index(m.to_table), m.to_seat))
    return tuple(_draw_button(drawn, seats_per_table, rng)), tuple(moves)


def two_step_draw(entries: list[int], seat_cards: list[tuple[int, int]], rng: Random
                  ) -> tuple[tuple[int, Card, int, int], ...]:
    """TDA-10-ex1, the two-step random process for a broken table: (1) the seat cards are shown, shuffled
    face down and stacked; (2) each player is dealt one playing card face up, and the seat cards go out
    from the top of the stack, the highest playing card first (rank, then suit: spades, hearts,
    diamonds, clubs). Returns (entry, card, table, seat), highest card first."""
    if len(seat_cards) < len(entries):
        raise RuleViolation(N_("%(players)s players and only %(seats)s open seats"), "TDA-10",
                            players=len(entries), seats=len(seat_cards))
    stack = list(seat_cards)
    rng.shuffle(stack)
    deck = list(full_deck())
    rng.shuffle(deck)
    dealt = sorted(zip(entries, deck), key=lambda pair: pair[1], reverse=True)
    return tuple((entry, card, *stack[i]) for i, (entry, card) in enumerate(dealt))


def open_table(table: int, seats: int, tables: tuple[TableSeats, ...] = (), *, button: int = 1) -> TableSeats:
    """A new, empty table the director opens (for late entries when every table is full). Its first
    hand's button is on ``button`` (seat 1 unless the floor says otherwise): dead until someone sits
    there, the small blind then being the first player after it."""
    if any(t.table == table for t in tables):
        raise RuleViolation(N_("Table %(table)s is already in play"), "TDA-08-A", table=table)
    tables_needed(0, seats)
    new = TableSeats(table, seats, (), button=button, button_is_next=True)
    _check_seat(new, button, "CC-82")
    return new


def seat_late_entry(entry: int, tables: tuple[TableSeats, ...], rng: Random, *, why: str = "late") -> Move:
    """A late entry or re-entry: a random open seat at a short table, never between the button and the
    small blind (TDA-08-A, CC-57), and never once the final table plays (refused, TDA-08-A).

    The seat is drawn among the open seats of the tables with the fewest players that have one the
    newcomer can play from at once: never the button's seat, a seat between the button and the small
    blind, or the small blind's seat (he is dealt in the next hand, at the worst as its big blind). A
    field with no such seat is refused: the director opens a table (``open_table``).
    """
    if why not in ("late", "reentry"):
        raise RuleViolation(N_("A late entry is seated as late or reentry, not %(why)s"), "TDA-08-A", why=why)
    if any(t.seat_of(entry) is not None for t in tables):
        raise RuleViolation(N_("Entry %(entry)s already has a seat"), "TDA-08-A", entry=entry)
    if any(t.final for t in tables):
        # Nobody joins the final table: late entries and re-entries are for the field still at several tables.
        raise RuleViolation(N_("The final table is in play: no late entry or re-entry is seated at it"),
                            "TDA-08-A")
    choices: dict[int, list[tuple[int, int]]] = {}
    for table in tables:
        hand = next_hand(table)
        barred = _not_dealt_in(table, hand) | {_small_blind_seat(hand)}
        seats = [s for s in table.open_seats() if s not in barred]
        if seats:
            choices.setdefault(table.count, []).extend((table.table, s) for s in seats)
    if not choices:
        raise RuleViolation(N_("No open seat where entry %(entry)s can be dealt in: the director opens a new "
                               "table"), "TDA-08-A", entry=entry)
    table, seat = rng.choice(choices[min(choices)])
    return Move(entry, table, seat, why)


def _seated(tables: tuple[TableSeats, ...], entry: int) -> tuple[TableSeats, int]:
    for table in tables:
        seat = table.seat_of(entry)
        if seat is not None:
            return table, seat
    raise RuleViolation(N_("Entry %(entry)s has no seat"), "TDA-07", entry=entry)


def _reseat(tables: tuple[TableSeats, ...], entry: int, to_table: int, to_seat: int, why: str,
            clause: str) -> Move:
    table, seat = _seated(tables, entry)
    target = next((t for t in tables if t.table == to_table), None)
    if target is None:
        raise RuleViolation(N_("Table %(table)s is not in play"), clause, table=to_table)
    _check_seat(target, to_seat, clause)
    if to_seat not in target.open_seats():
        raise RuleViolation(N_("Seat %(seat)s at table %(table)s is taken"), clause, table=to_table, seat=to_seat)
    return Move(entry, to_table, to_seat, why, from_table=table.table, from_seat=seat)


def correct_seat(tables: tuple[TableSeats, ...], entry: int, to_table: int, to_seat: int) -> Move:
    """TDA-07: a player found in the wrong seat goes to the right one, keeping the stack he has now."""
    return _reseat(tables, entry, to_table, to_seat, "correction", "TDA-07")


def override_seat(tables: tuple[TableSeats, ...], entry: int, to_table: int, to_seat: int) -> Move:
    """TDA-09, CC-49: the director moves a player (special needs, balance); the seat must exist and be open."""
    return _reseat(tables, entry, to_table, to_seat, "override", "CC-49")


# ---------------------------------------------------------------------------------------------- the plan


def _seats_exist(table: TableSeats) -> None:
    """CC-54: every player of ``table`` sits in one of its seats; remembered by the table's value (a table a
    plan checked and nothing changed since is not checked again at the next bust: issue #37)."""
    try:
        _seats_checked(table)
    except TypeError:  # not hashable (a list for its players): checked now
        _check_seats_of(table)


@lru_cache(maxsize=4096)
def _seats_checked(table: TableSeats) -> None:
    _check_seats_of(table)


def _check_seats_of(table: TableSeats) -> None:
    for seat, _entry in table.players:
        _check_seat(table, seat, "CC-54")


def breaking_sequence(tables: tuple[TableSeats, ...], break_order: tuple[int, ...]) -> list[int]:
    """The order tables break in (CC-55): the announced order, then the others, highest number first."""
    present = {t.table for t in tables}
    named = [n for n in dict.fromkeys(break_order) if n in present]
    return named + sorted(present - set(named), reverse=True)


def _sits_out(table: TableSeats, hand: NextHand | None, seat: int, options: HouseOptions) -> bool:
    """A relocated player is not dealt in between the button and the small blind (CC-57, TDA-10), nor on
    the button's seat when the house sits him out there (C-03, CC-53)."""
    if hand is None:
        return False
    if seat == hand.button:
        return options.relocated_on_button_sits_out
    return _strictly_between(seat, hand.button, hand.small_blind_position, table.seats)


def _redraw(tables: tuple[TableSeats, ...], numbers: list[int], seats: int, why: str, rng: Random
            ) -> Plan:
    where = {entry: (t.table, seat) for t in tables for seat, entry in t.players}
    entries = sorted(where)
    drawn, moves = draw_seats(entries, seats, rng, tables=numbers, why=why)
    moves = tuple(replace(m, from_table=where[m.entry][0], from_seat=where[m.entry][1]) for m in moves)
    return Plan(moves=moves, redraw="redraw" if why == "redraw" else "final_table",
                buttons=tuple((t.table, t.button) for t in drawn), seats=tuple((t.table, t.seats) for t in drawn))


def plan(tables: tuple[TableSeats, ...], *, options: HouseOptions, break_order: tuple[int, ...],
         rng: Random) -> Plan:
    """After a change: break the next table in the announced order when its players fit the open seats
    (CC-55/56, TDA-10), else balance (the player due the big blind next moves to the worst position of
    the short table, never the small blind: TDA-11-A, CC-58), halt short tables (C-18), and redraw at
    two tables (CC-48) and at the final table (C-01, CC-61/62).

    In order: (1) the players fit the final table (C-01) and more than one table plays: everyone is
    redrawn to the table that breaks last, its button drawn (CC-61/62, CC-82); (2) they fit two tables
    and more than two play: redraw at the two tables that break last (CC-48); (3) while the next table
    in the break order can be broken (its players fit the open seats of the others), it is: its players
    are drawn into the open seats that keep the others even (TDA-10, CC-56); (4) then, while the fullest
    table has two or more players more than the shortest, the player due the big blind next at the
    fullest moves to the worst position of the shortest (TDA-11-A/C, CC-54, CC-58). ``halted``: the
    tables at or below the house's count (C-18, CC-59) while there are moves to make; ``warnings``:
    TDA-11-D's tables short of the fullest, and a short table nothing can fix.
    """
    tables = tuple(sorted((_blinds_fixed(t) for t in tables), key=lambda t: t.table))
    if len({t.table for t in tables}) != len(tables):
        raise RuleViolation(N_("A table is listed twice"), "CC-54")
    seen: set[int] = set()
    for t in tables:
        try:
            _seats_exist(t)
            wrong_seat = False
        except RuleViolation:  # refused below at its seat, in the order the table lists its players
            wrong_seat = True
        for seat, entry in t.players:
            if wrong_seat:
                _check_seat(t, seat, "CC-54")
            if entry in seen:
                raise RuleViolation(N_("Entry %(entry)s is seated twice"), "CC-54", entry=entry)
            seen.add(entry)
    players = len(seen)
    if len(tables) <= 1 or players == 0:
        return Plan()
    sequence = breaking_sequence(tables, break_order)
    by_number = {t.table: t for t in tables}
    result = _change(tables, by_number, sequence, players, options, rng)
    return replace(result, **_halts(tables, result, options))


def _change(tables, by_number, sequence, players, options, rng) -> Plan:
    # (1) The final table (C-01, CC-61, RP-09): everyone redrawn at the table that breaks last.
    if players <= options.final_table_size:
        last = by_number[sequence[-1]]
        return _redraw(tables, [last.table], max(last.seats, options.final_table_size), "final_table", rng)
    # (2) Two tables (CC-48): redrawn at the two that break last.
    last_two = [by_number[n] for n in sequence[-2:]]
    if len(tables) > 2 and players <= sum(t.seats for t in last_two):
        return _redraw(tables, sorted(t.table for t in last_two), min(t.seats for t in last_two), "redraw", rng)
    # (3) Break tables in the announced order while their players fit the others' open seats.
    remaining = list(sequence)
    broken: list[int] = []
    while len(remaining) > 2 and players <= sum(by_number[n].seats for n in remaining[1:]):
        broken.append(remaining.pop(0))
    current = {n: by_number[n] for n in remaining}
    moves: list[Move] = []
    cards: tuple[tuple[int, str], ...] = ()
    if broken:
        moves, cards = _break(by_number, broken, current, rng)
    # (4) Balance.
    moves = _balance(current, remaining, moves)
    # Who is dealt in is read from the tables as the next hand finds them, every move made: the tables the
    # moves reach, applied with those they leave and those that break (the others are as they were; applying
    # the plan to all 1,112 tables only to read the few it reaches cost the field at every bust, issue #37).
    touched = {t for m in moves for t in (m.from_table, m.to_table)} | set(broken)
    after = {t.table: t for t in apply(tuple(by_number[n] for n in sorted(touched)),
                                       Plan(moves=tuple(moves), broken=tuple(broken)))}
    moves = [replace(m, sits_out=_sits_out(after[m.to_table], next_hand(after[m.to_table]), m.to_seat, options))
             for m in moves]
    return Plan(moves=tuple(moves), broken=tuple(broken), cards=cards)


def _break(by_number, broken, current, rng):
    """TDA-10, CC-56: the broken tables' players drawn into the open seats that keep the others even."""
    leaving = [(t.table, seat, entry) for n in broken for t in [by_number[n]] for seat, entry in t.players]
    # How many each table receives: one at a time to the table with the fewest (ties drawn).
    counts = {n: t.count for n, t in current.items()}
    room = {n: len(t.open_seats()) for n, t in current.items()}
    take = dict.fromkeys(current, 0)
    for _ in leaving:
        open_tables = [n for n in current if take[n] < room[n]]
        fewest = min(counts[n] + take[n] for n in open_tables)
        chosen = rng.choice([n for n in open_tables if counts[n] + take[n] == fewest])
        take[chosen] += 1
    seat_cards: list[tuple[int, int]] = []
    for n, k in take.items():
        if not k:
            continue
        open_seats = list(current[n].open_seats())
        # the next hand read only at the tables that receive a player (issue #37: not at all 1,112)
        sb = _small_blind_seat(next_hand(current[n]))
        # Never the small blind's seat while the table has another open seat (TDA-11-A's reading).
        preferred = [s for s in open_seats if s != sb]
        rng.shuffle(preferred)
        chosen_seats = (preferred + [s for s in open_seats if s == sb])[:k]
        seat_cards.extend((n, s) for s in chosen_seats)
    origin = {entry: (table, seat) for table, seat, entry in leaving}
    drawn = two_step_draw([entry for _, _, entry in leaving], seat_cards, rng)
    moves = []
    for entry, _card, table, seat in drawn:
        moves.append(Move(entry, table, seat, "break", from_table=origin[entry][0], from_seat=origin[entry][1]))
        current[table] = _with(current[table], seat, entry)
    return moves, tuple((entry, str(card)) for entry, card, _, _ in drawn)


def _balance(current: dict[int, TableSeats], sequence: list[int], moves: list[Move]) -> list[Move]:
    """TDA-11-A/C, CC-54, CC-58: from the fullest (the one breaking first among equals) the player due the
    big blind next moves to the worst position at the shortest (the one breaking last among equals).

    A player the plan already moves (from a broken table) and who must move again keeps one move, from
    where he sits now to where he ends: the floor walks him once."""
    rank = {n: i for i, n in enumerate(sequence)}
    moves = list(moves)
    while True:
        fullest = min(sequence, key=lambda n: (-current[n].count, rank[n]))
        giver = current[fullest]
        taker, seat = None, None
        for n in sorted(sequence, key=lambda n: (current[n].count, -rank[n])):
            if giver.count - current[n].count < 2:
                break
            seat = worst_position(current[n])
            if seat is not None:
                taker = current[n]
                break
        if taker is None:
            return moves
        entry = due_big_blind(giver)
        earlier = next((i for i, m in enumerate(moves) if m.entry == entry), None)
        move = Move(entry, taker.table, seat, "balance", from_table=giver.table, from_seat=giver.seat_of(entry))
        if earlier is not None:
            first = moves.pop(earlier)
            move = replace(move, why=first.why, from_table=first.from_table, from_seat=first.from_seat)
        moves.append(move)
        current[fullest] = _without(giver, entry)
        current[taker.table] = _with(taker, seat, entry)


def _halts(tables: tuple[TableSeats, ...], result: Plan, options: HouseOptions) -> dict:
    """C-18: CC-59 halts a table at or below the house's count (never the final table) until the plan's
    moves are made; TDA-11-D's tables short of the fullest are a warning only (TDA-11-E)."""
    warnings: list[str] = []
    short = [t for t in tables if not t.final and t.count <= options.halt_if_table_players_le]
    halted: tuple[int, ...] = ()
    if not result.empty:
        halted = tuple(t.table for t in short)
    else:
        warnings.extend(Note(N_("Table %(table)s has %(players)s players and no move can help: the director "
                                "decides whether it plays on"), "CC-59", table=t.table, players=t.count)
                        for t in short)
    fullest = max(t.count for t in tables)
    for t in tables:
        if not t.final and fullest - t.count >= options.halt_if_short_by_ge:
            warnings.append(Note(N_("Table %(table)s is %(short)s players short of the fullest table: it may "
                                    "halt until balanced"), "TDA-11-D", table=t.table, short=fullest - t.count))
    return {"halted": halted, "warnings": tuple(warnings)}


# ---------------------------------------------------------------------------------------------- applying


def apply(tables: tuple[TableSeats, ...], plan: Plan) -> tuple[TableSeats, ...]:
    """The tables once the floor has made the plan's moves (all at once, as the floor does): broken tables
    and tables a redraw leaves empty removed, drawn buttons set, the final table marked. Refuses a plan
    that does not fit the tables (a seat that does not exist or is taken, a player lost or duplicated).

    A late entry, a correction or an override is applied the same way: ``apply(tables, Plan(moves=(move,)))``.
    """
    by_number = {t.table: _blinds_fixed(t) for t in tables}
    for number, seats in plan.seats:
        base = by_number.get(number, TableSeats(number, seats, ()))
        by_number[number] = replace(base, seats=seats)
    before = sorted(e for t in tables for _, e in t.players)
    # where each player sits, found once (the first table that lists him, as ``_seated`` reads them): looked
    # up for each move instead of every table searched per move (issue #37: a break at 1,112 tables)
    where: dict[int, tuple[TableSeats, int]] = {}
    for table in by_number.values():
        for seat, entry in table.players:
            where.setdefault(entry, (table, seat))
    moving: dict[int, Move] = {}
    for move in plan.moves:
        if move.entry in moving:
            raise RuleViolation(N_("Entry %(entry)s moves twice in one plan"), "CC-54", entry=move.entry)
        moving[move.entry] = move
        if move.from_table is None and move.why in ("draw", "late", "reentry") and move.entry not in where:
            before.append(move.entry)  # a newcomer: a late entry or re-entry (TDA-08-A), a draw
            continue
        if move.entry not in where:
            raise RuleViolation(N_("Entry %(entry)s has no seat"), "TDA-07", entry=move.entry)
        table, seat = where[move.entry]
        if move.from_table is not None and (table.table, seat) != (move.from_table, move.from_seat):
            raise RuleViolation(N_("Entry %(entry)s is not at table %(table)s seat %(seat)s"), "CC-54",
                                entry=move.entry, table=move.from_table, seat=move.from_seat)
    for number, table in by_number.items():
        by_number[number] = replace(table, players=tuple(p for p in table.players if p[1] not in moving))
    for move in plan.moves:
        target = by_number.get(move.to_table)
        if target is None:
            raise RuleViolation(N_("Table %(table)s is not in play"), "CC-54", table=move.to_table)
        _check_seat(target, move.to_seat, "CC-54")
        if move.to_seat not in target.open_seats():
            raise RuleViolation(N_("Seat %(seat)s at table %(table)s is taken"), "CC-54",
                                table=move.to_table, seat=move.to_seat)
        by_number[move.to_table] = _with(target, move.to_seat, move.entry)
    for number, button in plan.buttons:
        by_number[number] = with_drawn_button(replace(by_number[number], final=plan.redraw == "final_table"),
                                              button)
    out = []
    for number in sorted(by_number):
        table = by_number[number]
        if number in plan.broken or (plan.redraw and not table.players):
            if table.players:
                raise RuleViolation(N_("Table %(table)s breaks with players still seated"), "CC-56", table=number)
            continue
        out.append(_blinds_fixed(table))
    after = sorted(e for t in out for _, e in t.players)
    if after != sorted(before):
        raise RuleViolation(N_("The plan loses or duplicates a player"), "CC-54")
    return tuple(out)


def plan_tables(plan: Plan, tables: tuple[TableSeats, ...]) -> set[int]:
    """The tables whose seats a plan changes: those its moves leave and reach, those it breaks, every table
    in play for a redraw (a halt only stops the next deal, and waits for nothing)."""
    touched = {t for m in plan.moves for t in (m.from_table, m.to_table) if t is not None} | set(plan.broken)
    if plan.redraw:
        touched |= {t.table for t in tables}
    return touched
