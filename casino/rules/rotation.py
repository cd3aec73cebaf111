"""The dealers' rotation (issue #38 item 5; RP-07): who deals at which table, and when the dealers change.

A pure function of the rotation's setup and the times play stops or changes level, so every screen that asks at
the same moment gets the same answer and nothing keeps time of its own:

* The dealers stand in a fixed order (``RotationSetup.dealers``), the tables in theirs (``tables``). At the
  start (change 0) the first dealers deal at the tables in order and the rest rest (on their break). At each
  change every dealer moves one place on: the dealer of a table goes to the next table, the last table's
  dealer goes on his break, and the dealer who has rested longest comes to the first table. With as many
  dealers as tables nobody rests; with more, each dealer rests in turn (a "push" rotation).
* A change is due every ``down_minutes`` (the "down") after the change before it, except in the quiet windows
  RP-07 sets: "stop dealer changes 90 s before a break or a level change". A change that would land in the
  90 s before a level change waits for the level change itself (a new level begins with the next hand, TDA-23,
  and the deck changes then anyway, TDA-26); one that would land in the 90 s before a break, or during the
  break, waits for the break's end. The next down is counted from the change as it was made.
* Where the level changes and breaks come from is the caller's: a tournament's from its clock
  (``casino.rules.tournament.clock.dealer_change_stops``), the pit's from the rotation's own breaks
  (``RotationSetup.breaks``: the pit has no levels).

The engine says when a change is due; the table follows it between hands (the service: never mid-hand).
Checks are a verify / can / do trio: ``verify_setup`` / ``verify_change_at`` refuse with the clause
(``RuleViolation``), ``can_change_at`` asks, ``schedule`` answers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from casino.rules.errors import N_, RuleViolation

#: RP-07: dealer changes stop this many seconds before a break or a level change.
QUIET_SECONDS_BEFORE = 90
#: The longest down a setup takes (a dealer's shift at one table is far shorter; this bounds the arithmetic).
LONGEST_DOWN_MINUTES = 240
#: How many changes a schedule looks ahead at most (a screen shows a few).
MOST_AHEAD = 50
#: A schedule walks at most this many changes from the start (a rotation of a 30-minute down runs for 20 days).
MOST_CHANGES = 1000


@dataclass(frozen=True, slots=True)
class Stop:
    """A moment the dealers do not change around: a level change (``ends`` == ``at``) or a break from ``at``
    to ``ends``."""

    at: datetime
    ends: datetime

    @property
    def is_break(self) -> bool:
        return self.ends > self.at


@dataclass(frozen=True, slots=True)
class QuietWindow:
    """[start, end): no dealer change lands in it (RP-07); a change due in it is made at ``end``."""

    start: datetime
    end: datetime


def quiet_windows(stops: Iterable[Stop]) -> tuple[QuietWindow, ...]:
    """RP-07's windows: the 90 s before each level change, and from 90 s before each break to its end."""
    before = timedelta(seconds=QUIET_SECONDS_BEFORE)
    return tuple(sorted((QuietWindow(stop.at - before, stop.ends) for stop in stops),
                        key=lambda w: (w.start, w.end)))


def _inside(at: datetime, windows: Sequence[QuietWindow]) -> QuietWindow | None:
    for window in windows:
        if window.start <= at < window.end:
            return window
    return None


def can_change_at(at: datetime, windows: Sequence[QuietWindow]) -> bool:
    """Whether the dealers may change at ``at`` (RP-07)."""
    return _inside(at, windows) is None


def verify_change_at(at: datetime, windows: Sequence[QuietWindow]) -> None:
    """Refuse a dealer change in the 90 s before a break or a level change, or during a break (RP-07)."""
    window = _inside(at, windows)
    if window is not None:
        raise RuleViolation(N_("No dealer change in the 90 seconds before a break or a level change, nor during a "
                               "break: the next change is at %(until)s"), "RP-07",
                            until=window.end.strftime("%H:%M:%S"))


def first_allowed(earliest: datetime, windows: Sequence[QuietWindow]) -> datetime:
    """The first moment at or after ``earliest`` outside every quiet window (a window's end is allowed: the
    level has changed, the break is over)."""
    at = earliest
    for _ in range(len(windows) + 1):
        window = _inside(at, windows)
        if window is None:
            return at
        at = window.end
    return at


@dataclass(frozen=True, slots=True)
class RotationSetup:
    """What the floor sets: the dealers in their order, the tables in theirs, the down and the start. ``breaks``:
    the rotation's own stops, (start, end) each (the pit's; a tournament's come from its clock)."""

    dealers: tuple[Hashable, ...]
    tables: tuple[Hashable, ...]
    down_minutes: int
    starts_at: datetime
    breaks: tuple[tuple[datetime, datetime], ...] = ()

    def stops(self) -> tuple[Stop, ...]:
        return tuple(Stop(start, end) for start, end in self.breaks)


def verify_setup(setup: RotationSetup) -> None:
    """A rotation the tables can follow: a dealer for every table (one croupier per table, THB-72), each dealer
    and table once, a whole down of 1 to 240 minutes, an aware start, breaks that end after they start."""
    if not setup.tables:
        raise RuleViolation(N_("The rotation needs at least one table"), "RP-07")
    if len(set(setup.tables)) != len(setup.tables):
        raise RuleViolation(N_("A table is in the rotation twice"), "RP-07")
    if len(set(setup.dealers)) != len(setup.dealers):
        raise RuleViolation(N_("A dealer is in the rotation twice"), "RP-07")
    if len(setup.dealers) < len(setup.tables):
        raise RuleViolation(N_("The rotation needs a dealer for every table: %(tables)s tables, %(dealers)s "
                               "dealers"), "THB-72", tables=len(setup.tables), dealers=len(setup.dealers))
    down = setup.down_minutes
    if isinstance(down, bool) or not isinstance(down, int) or not 1 <= down <= LONGEST_DOWN_MINUTES:
        raise RuleViolation(N_("The down is a whole number of minutes from 1 to %(most)s, not %(down)r"), "RP-07",
                            most=LONGEST_DOWN_MINUTES, down=down)
    if setup.starts_at.tzinfo is None:
        raise RuleViolation(N_("The rotation's start must be an aware (UTC) time"), "RP-07")
    for start, end in setup.breaks:
        if start.tzinfo is None or end.tzinfo is None or not end > start:
            raise RuleViolation(N_("A break ends after it starts"), "RP-07")


def can_set_up(setup: RotationSetup) -> bool:
    try:
        verify_setup(setup)
    except RuleViolation:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Assignment:
    """Who deals where after a change: table -> dealer, and the dealers resting, longest-resting first."""

    index: int
    tables: dict = field(hash=False)
    resting: tuple[Hashable, ...]

    def table_of(self, dealer: Hashable) -> Hashable | None:
        for table, on_duty in self.tables.items():
            if on_duty == dealer:
                return table
        return None


def assignment(setup: RotationSetup, index: int) -> Assignment:
    """Who deals where after change ``index`` (0: the start): dealer i stands at place (i + index) mod D; the
    places 0..T-1 are the tables in order, the rest are the break, longest-resting first."""
    count = len(setup.dealers)
    places: list[Hashable] = [None] * count
    for i, dealer in enumerate(setup.dealers):
        places[(i + index) % count] = dealer
    tables = dict(zip(setup.tables, places[:len(setup.tables)], strict=True))
    resting = tuple(reversed(places[len(setup.tables):]))
    return Assignment(index, tables, resting)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The rotation at a moment: the change in force (``current``, made at ``since``), and the changes ahead with
    their times (``ahead``: (at, Assignment), the first is the next change)."""

    current: Assignment
    since: datetime
    ahead: tuple[tuple[datetime, Assignment], ...]

    @property
    def next_at(self) -> datetime | None:
        return self.ahead[0][0] if self.ahead else None

    def next_for(self, dealer: Hashable) -> tuple[datetime, Hashable | None] | None:
        """When the dealer's place next changes, and where he goes (None: to his break)."""
        here = self.current.table_of(dealer)
        for at, after in self.ahead:
            there = after.table_of(dealer)
            if there != here:
                return at, there
        return None


def schedule(setup: RotationSetup, now: datetime, *, stops: Iterable[Stop] = (), ahead: int = 3) -> Schedule:
    """The rotation as it stands at ``now``: each change a down after the one before, moved out of RP-07's quiet
    windows (``stops``: the level changes and breaks, with the setup's own breaks added)."""
    verify_setup(setup)
    windows = quiet_windows([*setup.stops(), *stops])
    down = timedelta(minutes=setup.down_minutes)
    ahead = max(0, min(int(ahead), MOST_AHEAD))
    index, since = 0, setup.starts_at
    upcoming: list[tuple[datetime, Assignment]] = []
    at = since
    for _ in range(MOST_CHANGES + ahead):
        at = first_allowed(at + down, windows)
        if at <= now and not upcoming:
            index, since = index + 1, at
            continue
        if len(upcoming) >= ahead:
            break
        upcoming.append((at, assignment(setup, index + len(upcoming) + 1)))
    return Schedule(assignment(setup, index), since, tuple(upcoming))
