"""Qualifying series (flights), the day's end with bagged counts, and the Final Stage (CC-05..CC-10).

The largest events start in several flights (Day 1A, 1B, ...) whose survivors bag their chips and meet again on
Day 2 at a redraw; the casino's regulations call the flights *series clasificatorias* and Day 2 the *Etapa
Final*. Here they are ONE event with ONE record (docs/tournaments.md, "Flights"): every entry, whichever flight
it plays, is an entry of the event, paid from its one prize pool and ranked in its one order of elimination; the
flights play one after the other, each from level 1 on a clock of its own (``series_started`` starts the clock
afresh), and the Final Stage starts at the level after the one qualifying ended at (CC-08).

Pure: no Django. The record's replay (``record._Replay``) applies the events below through ``apply``; the
state is the frozen ``Qualifying``, replaced at each change (a copied replay shares it safely).

The record's events (docs/tournament-record.md):

* ``series_set``: the qualifying stage: ``series`` (how many), ``end_level``, ``qualifiers`` (per series,
  CC-05), ``choice`` (the house lets a player choose his series instead of the draw).
* ``series_changed``: the direction changes a series' end level or qualifiers (CC-07), with a ``reason``.
* ``series_assigned``: entries put into series: by the logged draw (``how: "draw"``, CC-06: ``seed``, and the
  replay draws again from it and refuses a line that does not match) or chosen (``how: "chosen"``).
* ``series_started``: a series begins: its clock begins afresh at level 1 (CC-05).
* ``day_ended``: the day's (or a series') end: the bagged counts of every player still at a table
  (``bags``), counted from the tablets' stacks or by the floor, each bag's receipt code (CC-09) and the
  ``digest`` of the counts sheet (``counts_csv``).
* ``stage_started``: a day of the Final Stage begins at ``level`` (CC-08: the one after qualifying ended), the
  bagged players then redrawn with their bagged stacks (``seated``, ``why: "redraw"``, CC-10).
* ``checked_in``: a qualifier checks in, his receipt shown or not (CC-09: without it he is penalised, the
  house's penalty, but plays).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament import clock

#: How a player's bag was counted: from the stacks the tablet reported, or by the floor at a table without one.
COUNTED_BY = ("tablet", "floor")
#: Why a day ended: the level set was played out, or the announced number of qualifiers remains (CC-05).
DAY_END_WHY = ("level", "qualifiers", "director")


@dataclass(frozen=True, slots=True)
class Series:
    number: int
    end_level: int  # the last level it plays (CC-05)
    qualifiers: int  # it stops once this many remain (CC-05)
    status: str = "waiting"  # waiting, playing, ended
    ended_level: int | None = None  # the level it ended at (CC-08 reads the last)


@dataclass(frozen=True, slots=True)
class Bag:
    """One player's bag at a day's end: his chips counted, by whom, and his receipt's code (CC-09)."""

    entry: int
    day: int
    series: int | None
    table: int
    seat: int
    chips: int
    counted_by: str
    receipt: str


@dataclass(frozen=True, slots=True)
class Qualifying:
    """The qualifying stage and the Final Stage as the record has them."""

    series: tuple[Series, ...] = ()
    choice: bool = False
    #: (entry, series), in the record's order
    assigned: tuple[tuple[int, int], ...] = ()
    playing: int | None = None  # the series in play
    day: int = 1  # the day in play: 1 for the flights, 2... for the Final Stage
    final_stage: bool = False
    final_level: int | None = None  # the level the Final Stage began at (CC-08)
    day_level: int | None = None  # the level the current day of the Final Stage began at
    day_end_level: int | None = None  # the current day of the Final Stage ends after this level; None: the end
    last_level: int | None = None  # the level the last day (or series) ended at
    bags: tuple[Bag, ...] = ()  # every bag of every day
    checked_in: tuple[tuple[int, int, bool], ...] = ()  # (entry, day, receipt shown)
    #: (seq, entry, tablet's stack, count): a bag said counted from the tablet whose count is not the stack
    count_mismatches: tuple[tuple[int, int, int, int], ...] = ()
    #: the seqs of ``day_ended`` events whose ``digest`` is not the digest of their bags' counts sheet
    digest_mismatches: tuple[int, ...] = ()

    def series_of(self, entry: int) -> int | None:
        for number, series in reversed(self.assigned):
            if number == entry:
                return series
        return None

    def entries_of(self, series: int) -> tuple[int, ...]:
        found: dict[int, int] = {}
        for number, s in self.assigned:
            found[number] = s
        return tuple(sorted(n for n, s in found.items() if s == series))

    def get(self, number: int) -> Series:
        for s in self.series:
            if s.number == number:
                return s
        raise RuleViolation(N_("There is no series %(series)s"), "CC-05", series=number)

    @property
    def qualifying_over(self) -> bool:
        return bool(self.series) and all(s.status == "ended" for s in self.series)

    @property
    def next_stage_level(self) -> int:
        """The level the next day of the Final Stage begins at: the one after qualifying ended (CC-08), or after
        the last day of the Final Stage ended."""
        ended = self.last_level if self.final_stage else self.qualifying_level
        return (ended or 0) + 1

    @property
    def qualifying_level(self) -> int | None:
        """The level at which qualifying ended: the last any series ended at (CC-08)."""
        levels = [s.ended_level for s in self.series if s.ended_level is not None]
        return max(levels) if levels else None

    def last_bags(self, day: int | None = None) -> tuple[Bag, ...]:
        """The bags of ``day`` (by default the last day that ended)."""
        if not self.bags:
            return ()
        day = self.bags[-1].day if day is None else day
        return tuple(b for b in self.bags if b.day == day)

    def bag_of(self, entry: int) -> Bag | None:
        return next((b for b in reversed(self.bags) if b.entry == entry), None)

    def has_checked_in(self, entry: int, day: int) -> bool:
        return any(n == entry and d == day for n, d, _shown in self.checked_in)


# --- The draw (CC-06) ---------------------------------------------------------------------------------


def draw_series(entries: list[int], series: list[int], seed: int,
                already: dict[int, int] | None = None) -> tuple[tuple[int, int], ...]:
    """CC-06: the entries drawn into the series, as evenly as the series' players allow: the entries in an
    order drawn from ``seed``, each into the series with fewest players so far (``already``: series -> players
    assigned before), ties going to the series first in an order drawn from the same seed. The same seed gives
    the same draw: the record keeps the seed and anyone draws it again."""
    if not series:
        raise RuleViolation(N_("No series is left to draw players into"), "CC-06")
    if len(set(entries)) != len(entries):
        raise RuleViolation(N_("An entry is listed twice in the draw"), "CC-06")
    rng = random.Random(int(seed))
    order = sorted(entries)
    rng.shuffle(order)
    ties = sorted(series)
    rng.shuffle(ties)
    load = {s: (already or {}).get(s, 0) for s in ties}
    out = []
    for entry in order:
        target = min(ties, key=lambda s: (load[s], ties.index(s)))
        load[target] += 1
        out.append((entry, target))
    return tuple(sorted(out))


def seed_from(rng: random.Random | None = None) -> int:
    """A 64-bit seed: the simulator's seeded generator, else the system's (CSPRNG)."""
    return (rng or random.SystemRandom()).getrandbits(64)


# --- The day's end ------------------------------------------------------------------------------------


def level_played_out(levels_begun: int, on_break: bool, structure_ended: bool, level_number: int | None,
                     end_level: int) -> bool:
    """CC-05: whether the clock has played the day's last level out (the next level, or the break after the
    last one, has begun; or the structure ends at it and its time ran out)."""
    if levels_begun > end_level:
        return True
    if on_break and levels_begun >= end_level:
        return True
    return structure_ended and level_number is not None and level_number >= end_level


def day_end_due(state, structure, reading) -> tuple[str | None, int | None]:
    """Why the day (or the series) may end now, and the level it ends at: ``level`` once the day's last level
    is played out (CC-05), ``qualifiers`` once the series is down to its announced qualifiers; (None, None)
    while it plays on. Read by the service, the flights page and the simulator."""
    q = state.qualifying
    if q is None or not q.series or not state.tables:
        return None, None
    begun = clock.levels_begun(structure, reading)
    if q.playing is not None:
        s = q.get(q.playing)
        end_level, seated = s.end_level, sum(1 for e in state.entries if e.status == "seated")
        if seated <= s.qualifiers:
            return "qualifiers", max(1, min(begun, end_level))
    elif q.final_stage and q.day_end_level is not None:
        end_level = q.day_end_level
    else:
        return None, None
    if level_played_out(begun, reading.on_break, reading.structure_ended, reading.level_number, end_level):
        return "level", end_level
    return None, None


def counts_csv(day: int, series: int | None, bags: list[Bag] | tuple[Bag, ...]) -> str:
    """The counts sheet as CSV, table by table and seat by seat: what the floor signs (its digest is in the
    record's ``day_ended``) and exports."""
    lines = ["day,series,table,seat,entry,chips,counted_by,receipt"]
    for b in sorted(bags, key=lambda b: (b.table, b.seat)):
        lines.append(f"{day},{'' if series is None else series},{b.table},{b.seat},{b.entry},{b.chips},"
                     f"{b.counted_by},{b.receipt}")
    return "\n".join(lines) + "\n"


def counts_digest(day: int, series: int | None, bags) -> str:
    return hashlib.sha256(counts_csv(day, series, bags).encode()).hexdigest()


def receipt_code(rng: random.Random | None = None) -> str:
    """A chip-count receipt's code (CC-09): eight letters and digits, no look-alikes (0/O, 1/I)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    source = rng or random.SystemRandom()
    return "".join(source.choice(alphabet) for _ in range(8))


def bags_from_event(ev: dict) -> tuple[Bag, ...]:
    return tuple(Bag(entry=int(b["entry"]), day=int(ev.get("day") or 1), series=ev.get("series"),
                     table=int(b["table"]), seat=int(b["seat"]), chips=int(b["chips"]),
                     counted_by=b.get("counted_by") or "floor", receipt=str(b.get("receipt") or ""))
                 for b in ev.get("bags") or ())


def bag_to_dict(b: Bag) -> dict:
    return {"entry": b.entry, "table": b.table, "seat": b.seat, "chips": b.chips, "counted_by": b.counted_by,
            "receipt": b.receipt}


# --- The replay of the events -------------------------------------------------------------------------


def on_series_set(q: Qualifying | None, ev: dict) -> Qualifying:
    if q is not None and q.series:
        raise RuleViolation(N_("The qualifying series are set already: change them instead"), "CC-07")
    count, end_level, qualifiers = int(ev["series"]), int(ev["end_level"]), int(ev["qualifiers"])
    _check_terms(end_level, qualifiers)
    if not 2 <= count <= 50:
        raise RuleViolation(N_("A qualifying stage has 2 to 50 series, not %(series)s"), "CC-05", series=count)
    return Qualifying(series=tuple(Series(n, end_level, qualifiers) for n in range(1, count + 1)),
                      choice=bool(ev.get("choice")))


def _check_terms(end_level: int, qualifiers: int) -> None:
    if end_level < 1:
        raise RuleViolation(N_("A series plays to level 1 at least"), "CC-05")
    if qualifiers < 1:
        raise RuleViolation(N_("A series qualifies one player at least"), "CC-05")


def on_series_changed(q: Qualifying | None, ev: dict) -> Qualifying:
    """CC-07: the direction changes the end level and the qualifiers of a series not ended (or of all)."""
    q = _required(q)
    which = ev.get("series")
    changed = []
    for s in q.series:
        if which is not None and s.number != int(which):
            changed.append(s)
            continue
        if s.status == "ended":
            if which is not None:
                raise RuleViolation(N_("Series %(series)s has ended: its terms no longer change"), "CC-07",
                                    series=s.number)
            changed.append(s)
            continue
        end_level = int(ev.get("end_level") or s.end_level)
        qualifiers = int(ev.get("qualifiers") or s.qualifiers)
        _check_terms(end_level, qualifiers)
        changed.append(replace(s, end_level=end_level, qualifiers=qualifiers))
    if which is not None:
        q.get(int(which))  # refuses a series that does not exist
    return replace(q, series=tuple(changed))


def on_series_assigned(q: Qualifying | None, ev: dict, known: set[int]) -> Qualifying:
    q = _required(q)
    pairs = tuple((int(e), int(s)) for e, s in ev.get("entries") or ())
    for entry, series in pairs:
        if entry not in known:
            raise RuleViolation(N_("There is no entry %(entry)s in this event"), "CC-26", entry=entry)
        if q.get(series).status == "ended":
            raise RuleViolation(N_("Series %(series)s has ended"), "CC-06", series=series)
    if ev.get("how") == "draw":
        targets = sorted({int(s) for s in ev.get("among") or (s for _e, s in pairs)})
        already = {s: len(q.entries_of(s)) for s in targets}
        drawn = draw_series([e for e, _s in pairs], targets, int(ev["seed"]), already)
        if drawn != tuple(sorted(pairs)):
            raise RuleViolation(N_("The series draw at line %(seq)s is not the one its seed draws"), "CC-06",
                                seq=ev.get("seq"))
    elif ev.get("how") != "chosen":
        raise RuleViolation(N_("Players join a series by the draw or by their choice"), "CC-06")
    return replace(q, assigned=q.assigned + pairs)


def on_series_started(q: Qualifying | None, ev: dict) -> Qualifying:
    q = _required(q)
    number = int(ev["series"])
    s = q.get(number)
    if q.playing is not None:
        raise RuleViolation(N_("Series %(series)s is still playing"), "CC-05", series=q.playing)
    if s.status != "waiting":
        raise RuleViolation(N_("Series %(series)s has played already"), "CC-05", series=number)
    return replace(q, playing=number, series=tuple(replace(x, status="playing") if x.number == number else x
                                                   for x in q.series))


def on_day_ended(q: Qualifying | None, ev: dict, stacks: dict[int, int]) -> Qualifying:
    """The day's end: the bags recorded; a series' end ends it at ``level`` (CC-05, CC-08). ``stacks``: each
    bagged entry's stack as the record had it, which a count from the tablet must be."""
    q = _required(q)
    bags = bags_from_event(ev)
    for b in bags:
        if b.counted_by not in COUNTED_BY:
            raise RuleViolation(N_("A bag is counted from the tablet or by the floor"), "CC-09")
        if b.chips < 1:
            raise RuleViolation(N_("Entry %(entry)s bags no chips"), "CC-09", entry=b.entry)
    if ev.get("why") not in DAY_END_WHY:
        raise RuleViolation(N_("A day ends at its last level or with its qualifiers"), "CC-05")
    mismatches = tuple((int(ev["seq"]), b.entry, stacks.get(b.entry, 0), b.chips) for b in bags
                       if b.counted_by == "tablet" and stacks.get(b.entry) != b.chips)
    day = int(ev.get("day") or 1)
    wrong_digest = (int(ev["seq"]),) if ev.get("digest") != counts_digest(day, ev.get("series"), bags) else ()
    q = replace(q, bags=q.bags + bags, count_mismatches=q.count_mismatches + mismatches,
                digest_mismatches=q.digest_mismatches + wrong_digest, last_level=int(ev["level"]))
    if ev.get("series") is not None:
        number = int(ev["series"])
        if q.playing != number:
            raise RuleViolation(N_("Series %(series)s is not playing"), "CC-05", series=number)
        level = int(ev["level"])
        return replace(q, playing=None, series=tuple(replace(s, status="ended", ended_level=level)
                                                     if s.number == number else s for s in q.series))
    if not q.final_stage:
        raise RuleViolation(N_("Only a series or a day of the Final Stage ends with bags"), "CC-05")
    return q


def on_stage_started(q: Qualifying | None, ev: dict) -> Qualifying:
    """A day of the Final Stage begins (CC-08): the first once every series has ended, at the level after the
    one qualifying ended at."""
    q = _required(q)
    if not q.qualifying_over:
        raise RuleViolation(N_("The Final Stage starts once every series has ended"), "CC-08")
    level = int(ev["level"])
    if level != q.next_stage_level:
        raise RuleViolation(N_("The Final Stage starts at level %(level)s, the one after qualifying ended"),
                            "CC-08", level=q.next_stage_level)
    day = int(ev.get("day") or q.day + 1)
    if day <= q.day:
        raise RuleViolation(N_("Day %(day)s has begun already"), "CC-08", day=day)
    end = ev.get("end_level")
    return replace(q, final_stage=True, day=day, final_level=q.final_level or level, day_level=level,
                   day_end_level=int(end) if end is not None else None)


def on_checked_in(q: Qualifying | None, ev: dict) -> Qualifying:
    """CC-09: a qualifier checks in to the Final Stage, his receipt shown (its code matching his bag's) or not."""
    q = _required(q)
    entry = int(ev["entry"])
    bag = q.bag_of(entry)
    if bag is None or not q.final_stage:
        raise RuleViolation(N_("Entry %(entry)s bagged no chips to check in with"), "CC-09", entry=entry)
    if q.has_checked_in(entry, q.day):
        raise RuleViolation(N_("Entry %(entry)s has checked in already"), "CC-09", entry=entry)
    shown = bool(ev.get("shown"))
    if shown and str(ev.get("receipt") or "") != bag.receipt:
        raise RuleViolation(N_("That receipt is not entry %(entry)s's"), "CC-09", entry=entry)
    return replace(q, checked_in=q.checked_in + ((entry, q.day, shown),))


def _required(q: Qualifying | None) -> Qualifying:
    if q is None or not q.series:
        raise RuleViolation(N_("This event has no qualifying series"), "CC-05")
    return q


def problems(q: Qualifying | None) -> list[str]:
    """What ``record.verify_record`` reports of the qualifying: a count said from the tablet that is not the
    stack the tablets reported."""
    if q is None:
        return []
    out = [f"event {seq} bags {chips} chips for entry {entry} counted from the tablet, whose stack was {stack} "
           f"(CC-09)" for seq, entry, stack, chips in q.count_mismatches]
    out += [f"event {seq}'s digest is not the digest of its counts sheet (CC-09)" for seq in q.digest_mismatches]
    return out
