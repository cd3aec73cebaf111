"""The dealer's tablet at a tournament table (issue #15): each hand dealt through the Hold'em engine.

A tournament table (``DealtTable``) is an aggregate of its own, written through the one write path
(``casino.writes.write``): its row is locked, the engine (``casino.rules.holdem``) decides, the hand's
records are appended, the version is bumped and the table's screens hear of it after commit. A hundred
tables deal at once, each on its own lock; only the end of a hand writes into the tournament's record
(``services.report_hand``, in the same transaction): its button and blinds, each seat's stack at the
start and the end, and the busts, which the event ranks (CC-19) and balances (the plan the floor
confirms). The floor enters nothing by hand.

* ``start_hand``: the next hand where the dead button puts it (C-25), at the level in play when it
  starts (TDA-23), with the blinds and the ante the house's ante mode takes (C-02, CC-50..53, RP-11):
  ``casino.rules.tournament.table_hand.next_hand_setup``. The engine posts them and deals.
* ``act``: each action in turn with the TDA's verbs (TDA-03) or the dealer's own steps (the board's
  cards, the hands shown or mucked at the showdown, the pots awarded, a misdeal); the engine refuses
  what the rules refuse, naming the clause.
* ``undo_last``: the last action, before the next one, with its reason (audited); the hand's start is
  not undone (a misdeal is declared instead); the last hand's award until the next deal starts (its
  report leaves the event's record), unless a player busted in it: that is the director's (TDA-01).
* ``back_up_hand``: the director's ruling (TDA-01): the hand in play goes back to before any of its
  actions, with his reason (audited).
* ``call_clock`` / ``clock_ran_out``: the clock on the player in turn (C-04) and the house's outcome
  when it runs out (C-05).
* ``release_board``: the director lets a hand-for-hand all-in's board be dealt (RP-08-F); each
  hand-for-hand deal waits for his release (CC-11, in ``start_hand``).
* ``pause_table`` / ``resume_table``: the director stops play at a table with his reason (TDA-01).
* ``assign_dealer``: the floor puts a dealer on duty at a table; only that dealer deals there
  (``may_deal_at``), besides the floor and the director.

Each write on a hand audits the rows it appended and digests of the hand's entries, level, setup and
rules (``_audit_hand``); each dealer assigned is audited with his id: ``verify_audit`` checks both.
* ``hand_line``: the hand in the ``replay_hand`` format (docs/hand-history.md, "Hold'em hands").

Every refusal is a ``RuleViolation`` (or ``NotAllowed``) a dealer can read; nothing is half-recorded.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from casino import reads, writes
from casino.memo import BoundedCache
from casino.models import label_of
from casino.roles import DEAL, DIRECT_TOURNAMENTS, Role, can, has_role
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem import HoldemHand, HouseRules, Phase, TableSetup, action_from_dict
from casino.rules.holdem.actions import BETTING_KINDS
from casino.rules.holdem.hand import ENDED
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import chip_race, clock
from casino.rules.tournament.structure import Structure
from casino.rules.tournament.table_hand import clock_expiry_record, next_hand_setup
from casino.writes import Aggregate, NotAllowed, Write, asked_for, write
from tournaments import access, services
from tournaments.digests import action_row, hand_digests
from tournaments.models import (
    DealtTable,
    TableHand,
    TableHandAction,
    TableRequest,
    Tournament,
    TournamentEvent,
    table_phones_group,
)

#: What the dealer enters besides the players' acts: the board, the showdown, the pots, a misdeal.
DEALER_KINDS = frozenset({"deal-flop", "deal-turn", "deal-river", "show", "muck", "award-pots", "misdeal",
                          "defective-deck", "kill-hand"})
#: The dealer's steps that deal the board.
BOARD_KINDS = frozenset({"deal-flop", "deal-turn", "deal-river"})
#: The steps the engine takes at a hand's start: never undone (a misdeal is declared instead).
START_KINDS = frozenset({"post-antes", "post-blinds", "deal-hole-cards"})


def part_of_the_deal(row: TableHandAction, hand: TableHand) -> bool:
    """A row of the hand's start, which no undo or ruling takes back (a misdeal is declared instead): the
    engine's posts and deal, and the dead hand of a player serving a penalty (TDA-71-D)."""
    action = row.record.get("action")
    penalised = hand.level.get("penalised", ())
    return action in START_KINDS or (action == "kill-hand" and row.record.get("seat") in penalised)


def tables_group(tournament_id: int) -> str:
    """The group that hears of every tap at an event's dealt tables: the director's console follows it."""
    return f"{label_of(Tournament, tournament_id)}.tables"


#: What the director (or the floor for him) does at a table whatever its state: pausing, resuming, releasing,
#: putting a dealer on duty, ruling on the hand (a paused table is where he rules).
DIRECTOR_ACTIONS = frozenset({"pause", "resume", "release_board", "assign_dealer", "back_up"})


TABLES = Aggregate(
    model=DealtTable, requests=TableRequest, owner="table", version_field="table_version",
    stream=lambda pk: label_of(DealtTable, pk), groups=lambda t: [t.group_name, tables_group(t.tournament_id)],
    answer_ids=("hand",), saved_fields=("paused_reason", "dealer"),
)


@dataclass
class TableResult(writes.Written):
    @property
    def hand(self) -> int | None:  # the TableHand's id
        return self.ids.get("hand")


@dataclass(frozen=True)
class KnownAtCommit:
    """What a write at a table knew when it committed: the table's row at the version it made, the hand, its
    effective rows and the engine's state after them. Kept in this process only (deploy/Caddyfile sends a
    table's taps and its tablet's socket to one process): the table's next write and the render of that
    version start from it instead of reading the hand again."""

    table: DealtTable
    hand: TableHand
    rows: tuple[TableHandAction, ...]
    engine: HoldemHand
    last: int  # the number of the hand's last row (an undo row included)


#: The last committed write's knowledge per table in this process; good only at exactly its version.
_WRITTEN: BoundedCache[KnownAtCommit] = BoundedCache(256)


def written_at(table: DealtTable, version: int) -> KnownAtCommit | None:
    """What the write that made ``version`` of ``table`` knew, if this process made it and no write came since
    (the version says so); None: read the record."""
    written = _WRITTEN.get(reads.identity(table))
    return written if written is not None and written.table.version == version else None


def _hand_in_play(w: _TableWrite) -> tuple[TableHand | None, HoldemHand | None, list[TableHandAction], int]:
    """Inside a write: the table's latest hand, its engine state, its effective rows and its last row's
    number: from what this process's write of the locked version knew, else read and replayed. The hand's
    row is a copy: a write that rolls back must not leave its changes in what the next one starts from."""
    written = written_at(w.table, w.table.version)
    if written is not None:
        return copy.copy(written.hand), written.engine, list(written.rows), written.last
    hand = latest_hand(w.table)
    if hand is None:
        return None, None, [], 0
    engine, rows, last = _read_hand(hand)
    return hand, engine, rows, last


@dataclass
class _TableWrite(Write):
    hand: TableHand | None = None
    #: the hand's effective rows and the engine's state after this write, where the write has them
    seen: tuple[list[TableHandAction], HoldemHand, int] | None = None
    #: the hand's rows this write appended and has not audited yet (``_audit_hand``)
    appended: list[TableHandAction] = field(default_factory=list)

    @property
    def table(self) -> DealtTable:
        return self.row

    def answer_ids(self) -> dict[str, int | None]:
        return {"hand": self.hand.pk if self.hand is not None else None}

    def before_announce(self) -> None:
        # at the commit: what this write knew, and the summary of its version for the console and the phones
        key = reads.identity(self.table)
        if self.hand is not None and self.seen is not None:
            rows, engine, last = self.seen
            written = KnownAtCommit(self.table, self.hand, tuple(rows), engine, last)
            reads.at_commit(lambda: _WRITTEN.put(key, written))
            SUMMARIES.leave(self.table, SummaryAt(self.table.version, _summary(self.table, self.hand, engine)))
        else:  # what an earlier write left is no longer the table as it stands
            reads.at_commit(lambda: _WRITTEN.pop(key))


def runs_the_floor(user, table: DealtTable) -> bool:
    """The event's director, or the floor for him: who pauses a table, releases its board, assigns its dealer
    (``tournaments.access.works_floor``: a director of another event does not). The floor staff first: that
    reads no row, and a tablet's push asks it at every tap."""
    # a dealer's push asks this too: no director, no read of the table's event
    return access.floor_staff(user) or (can(user, DIRECT_TOURNAMENTS) and access.directs(user, table.tournament))


def may_deal_at(user, table: DealtTable) -> bool:
    """Who records a tournament table's hands: its dealer on duty (whom the floor assigns,
    ``assign_dealer``), the floor and the director (at any table of his own events)."""
    if table.dealer_id is not None and table.dealer_id == getattr(user, "pk", None) and can(user, DEAL):
        return True
    return runs_the_floor(user, table)


def _write_at(table: DealtTable, *, by, key: str, expected_version: int, action: str,
              work: Callable[[_TableWrite], None]) -> TableResult:
    def run(w: _TableWrite) -> None:
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
                 write_class=_TableWrite)
    return TableResult(done.version, done.ids, duplicate=done.duplicate, alerts=done.alerts)


# --- Reads -------------------------------------------------------------------------------------------


def dealt_table(tournament: Tournament, number: int) -> DealtTable:
    """The tablet's table: the event's table ``number`` (refused when it is not in play, TDA-07)."""
    services.tournament_state(tournament).table(number)
    table, _ = DealtTable.objects.get_or_create(tournament=tournament, number=number)
    return table


def latest_hand(table: DealtTable) -> TableHand | None:
    return table.hands.order_by("-number").first()


def effective_rows(hand: TableHand) -> list[TableHandAction]:
    """The hand's records a replay uses (an undo row and the row it undid left out: ``casino.reads``)."""
    return reads.effective_rows(hand.actions.order_by("seq"))


#: The latest replay of each hand in this process (``casino.reads.ReplayedStates``, as the pit's hands): the
#: engine's state and the effective rows after the hand's rows up to a number. deploy/Caddyfile sends a
#: table's taps and its tablet's socket to one process, so the next tap and the render go on from it.
STATES: reads.ReplayedStates[tuple[HoldemHand, tuple[TableHandAction, ...]]] = reads.ReplayedStates(1024)


def replayed(hand: TableHand) -> tuple[HoldemHand, list[TableHandAction], int]:
    """The hand as its records replay, its effective rows, and its last row's number. One query: the rows
    after those this process replayed last; new rows are applied to that state (the same ``apply`` a full
    replay makes), and an undo among them replays the hand from its first row."""
    key = (hand.pk, hand.started_at)
    known = STATES.latest(key)
    since, kept = known if known is not None else (0, None)
    rows = list(hand.actions.filter(seq__gt=since).order_by("seq"))
    if kept is not None and all(r.undoes_id is None for r in rows):
        engine = kept[0]
        for row in rows:
            engine = engine.apply(row.record)
        effective = [*kept[1], *rows]
    else:
        if since:
            rows = list(hand.actions.order_by("seq"))
        effective = reads.effective_rows(rows)
        engine = hand_state(hand, effective)
    last = rows[-1].seq if rows else since
    # inside a write, kept only once it commits (``ReplayedStates.remember``)
    STATES.remember(key, last, (engine, tuple(effective)))
    return engine, effective, last


def _read_hand(hand: TableHand) -> tuple[HoldemHand, list[TableHandAction], int]:
    """Inside a write: the hand as its records replay, its effective rows, and its last row's number."""
    return replayed(hand)


def engine_rules(hand: TableHand) -> HouseRules:
    return HouseRules.from_dict(hand.rules)


def hand_state(hand: TableHand, rows: list[TableHandAction] | None = None) -> HoldemHand:
    """The hand as its records replay (``HoldemHand.replay``); ``rows``: its effective rows, if read already."""
    rules = engine_rules(hand)
    rows = effective_rows(hand) if rows is None else rows
    return HoldemHand.replay(TableSetup.from_dict(hand.setup, rules), [r.record for r in rows], rules)


@dataclass(frozen=True)
class SummaryAt:
    """A table's summary (``table_summary``) at the version it was made at; None before its first hand."""

    version: int
    summary: dict[str, Any] | None


def _summary(table: DealtTable, hand: TableHand, engine: HoldemHand) -> dict[str, Any]:
    in_play = engine.phase not in ENDED
    return {
        "number": table.number, "hand": hand.number, "phase": engine.phase.value,
        "paused": table.paused_reason,
        "street": engine.street.value, "pot": engine.pot_total, "in_play": in_play,
        "all_in": [s for s, c in engine.stacks.items() if c == 0 and not engine.folded[engine.seats.index(s)]]
        if in_play else [],
        "stacks": dict(engine.stacks), "to_act": engine.to_act,
        "board_held": in_play and engine.phase is Phase.BOARD and engine.cards_up
        and not hand.level.get("board_released"),
        # for the players' phones: who sits where in this hand, and the clock called on a player (C-04)
        "entries": {int(seat): entry for seat, entry in hand.entries.items()},
        "clock": hand.level.get("clock") if in_play else None,
    }


def _read_summary(table: DealtTable) -> SummaryAt:
    hand = latest_hand(table)
    if hand is None:
        return SummaryAt(table.version, None)
    return SummaryAt(table.version, _summary(table, hand, replayed(hand)[0]))


#: The tables' summaries per version: the write that made a version leaves its summary at its commit, in
#: this process and in Redis (``_TableWrite.before_announce``), so the other process's phones and
#: consoles take it from there instead of reading and replaying the hand again.
SUMMARIES: reads.VersionedReads[SummaryAt] = reads.VersionedReads(
    "tournaments.dealttable.summary", read=_read_summary, fetch=lambda table: DealtTable.objects.get(pk=table.pk),
    size=1024)


def table_summary(table: DealtTable) -> dict[str, Any] | None:
    """What the director's console shows of a dealt table's latest hand (None before its first), and the
    players' phones of their part of it: once per table version in this process (a console re-renders at
    every tap at any table), from what the write that made the version left where this process did not
    make it."""
    return SUMMARIES.snapshot_anywhere(table, table.version).summary


# --- Writes ------------------------------------------------------------------------------------------


def _append(w: _TableWrite, hand: TableHand, records: list[dict], *, last: int | None = None,
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


def _audit_hand(w: _TableWrite, action: str, on: TableHand, **details: Any) -> None:
    """Audit a write on the hand ``on`` with the rows it appended and the digests of the hand's deciding fields
    after it: ``verify_audit`` finds a row no event lists, or a hand's entries or level changed behind the
    services' back (issue #34; tournaments.audit_check)."""
    rows, w.appended = w.appended, []
    w.audit(action, obj=on, **details, rows=[action_row(r) for r in rows], hand_fields=hand_digests(on))


def _sitting_out(table: DealtTable, last: TableHand | None) -> list[int]:
    """Seats whose players were moved here onto the button's seat, or between the button and the small
    blind, since this table's last hand was reported: they sit the next hand out (C-03, CC-53, CC-57)."""
    events = TournamentEvent.objects.filter(tournament_id=table.tournament_id, type="seated",
                                            data__table=table.number, data__sits_out=True)
    if last is not None and last.reported_seq is not None:
        events = events.filter(seq__gt=last.reported_seq)
    return sorted({seat for seat in events.values_list("data__seat", flat=True)})


def start_hand(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """New hand (TDA-23, C-24: the hand's start, from which a level change applies): the engine posts the
    blinds and antes of the level in play and deals, where the dead button says (C-25)."""

    def work(w: _TableWrite) -> None:
        last = latest_hand(w.table)
        if last is not None and Phase(last.phase) not in ENDED:
            raise RuleViolation(N_("The hand in play is not finished."), "CC-43")
        tournament = Tournament.objects.get(pk=w.table.tournament_id)
        state = services.tournament_state(tournament)
        if state.finished or state.setup is None:
            raise RuleViolation(N_("The tournament is not in play."), "CC-04")
        seats = state.table(w.table.number)
        if w.table.number in state.halted:
            raise RuleViolation(N_("Table %(table)s is halted until the floor balances it."), "CC-59",
                                table=w.table.number)
        if state.pending_plan is not None and _plan_touches(state.pending_plan[1], w.table.number):
            raise RuleViolation(N_("Players are to move at table %(table)s: the floor confirms the moves first."),
                                "TDA-11", table=w.table.number)
        release = None
        if state.hand_for_hand and len(tables_playing(state)) > 1:
            # CC-11, RP-08: each hand-for-hand deal starts at every table together, when the director
            # releases it (the clock's "hand_for_hand_hand", which also takes the hand's time off the level).
            # A table that has played its hand of this deal waits; a misdeal is dealt again.
            release = hand_for_hand_release(state)
            played = w.table.hands.filter(phase=Phase.COMPLETE.value).order_by("-number").first()
            if release is None or (played is not None and played.level.get("hand_for_hand_release") == release):
                raise RuleViolation(N_("Hand-for-hand: every table finishes its hand and waits; the next deal starts "
                                       "at every table together, when the director releases it."), "CC-11")
        setup = state.setup
        structure = Structure.from_dict(setup.structure)
        events = list(state.clock_events)
        reading = clock.clock_at(structure, events, w.now, hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        if not reading.started or reading.paused or reading.finished:
            raise RuleViolation(N_("The clock is not running: no hand is dealt."), "TDA-23")
        if reading.on_break:
            raise RuleViolation(N_("The tournament is on a break: the next hand is dealt when it ends."), "TDA-23")
        if any(due.table == w.table.number for due in chip_race.races_due(state, w.now)):
            # issue #36: the stacks left off the smallest chip in play are raced first, in one tap
            raise RuleViolation(N_("Table %(table)s races its odd chips first: the colour-up (TDA-24-A)."),
                                "TDA-24-A", table=w.table.number)
        level = clock.level_for_hand(structure, events, w.now,
                                     hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        chips = {e.entry: e.stack for e in state.in_play}
        unit = min(structure.denominations_at(reading.step), default=1)
        plan = next_hand_setup(seats, chips, level, options=setup.options, chip_unit=unit,
                               players_in_event=state.players_left, sitting_out=_sitting_out(w.table, last))
        if plan is None:
            raise RuleViolation(N_("A hand needs at least two players dealt in"), "CC-77")
        hand = TableHand.objects.create(
            table=w.table, number=(last.number + 1) if last else 1, setup=plan.setup.to_dict(),
            rules=plan.rules.to_dict(), entries={str(s): e for s, e in plan.entries.items()},
            level={"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante,
                   "level_number": reading.level_number,
                   # where the dead button put the hand (C-25), as the event's record keeps it
                   "where": {"button": plan.where.button, "small_blind": plan.where.small_blind,
                             "small_blind_position": plan.where.small_blind_position,
                             "big_blind": plan.where.big_blind},
                   "sitting_out": list(plan.sitting_out), "hand_for_hand_release": release},
            phase=Phase.ANTES.value, started_at=w.now)
        # The engine posts and deals (cards unknown: the dealer records them only at the showdown).
        dealt = HoldemHand(plan.setup, plan.rules)
        if dealt.can_post_antes():
            dealt = dealt.post_antes()
        dealt = dealt.post_blinds().deal_hole_cards()
        # TDA-71-D, CC-46: a player serving a penalty is dealt in and posted, and his hand is killed at the
        # end of the deal (the last live hand is never killed: it takes the pot).
        penalised = []
        for seat, entry in sorted(plan.entries.items()):
            if state.penalty_hands_left(entry) and dealt.can_kill_hand(seat):
                dealt = dealt.kill_hand(seat)
                penalised.append(seat)
        made = _append(w, hand, [a.to_dict() for a in dealt.actions], last=0)
        w.seen = (made, dealt, made[-1].seq)
        hand.phase = dealt.phase.value
        fields = ["phase"]
        if penalised:
            hand.level = {**hand.level, "penalised": penalised}
            fields.append("level")
        hand.save(update_fields=fields)
        w.hand = hand
        w.event = "hand-started"
        _audit_hand(w, "tournament.table_hand_started", hand, table=w.table.number, hand=hand.number,
                level=hand.level, stacks=plan.setup.to_dict()["stacks"])

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="start_hand", work=work)


def hand_for_hand_release(state) -> int | None:
    """The deal the hand-for-hand hands now wait for: the place in the clock's events of the director's
    last release ("hand_for_hand_hand") since hand-for-hand was turned on; None before the first."""
    events = state.clock_events
    on = max((i for i, e in enumerate(events) if e.kind == "hand_for_hand_on"), default=-1)
    return max((i for i, e in enumerate(events) if e.kind == "hand_for_hand_hand" and i > on), default=None)


def _board_held(w: _TableWrite, hand: TableHand, before: HoldemHand, action) -> bool:
    """RP-08-F: during hand-for-hand, after an all-in and a call (every hand tabled, no more betting) no
    card is dealt until the director says so (``release_board``)."""
    if action.kind not in BOARD_KINDS or not before.cards_up or hand.level.get("board_released"):
        return False
    tournament = Tournament.objects.get(pk=w.table.tournament_id)
    state = services.tournament_state(tournament)
    # issue #36: the board waits only for another table's hand of this deal (CC-11); alone, nothing to wait for
    return state.hand_for_hand and another_hand_still_running(state, w.table)


def tables_playing(state) -> list[int]:
    """The tables with a hand to play (two players or more): hand-for-hand synchronises several (CC-11)."""
    return [t.table for t in state.tables if t.count >= 2]


def another_hand_still_running(state, table: DealtTable) -> bool:
    """RP-08-F, CC-11: whether a table other than ``table`` has yet to finish its hand of this hand-for-hand
    deal: one whose hand is in play, or which has not played this deal yet. A table whose hands no tablet
    records (the floor reports them) is taken as still running: the director releases its board."""
    others = [n for n in tables_playing(state) if n != table.number]
    if not others:
        return False
    release = hand_for_hand_release(state)
    dealt = {t.number: t for t in DealtTable.objects.filter(tournament_id=table.tournament_id, number__in=others)}
    for number in others:
        last = latest_hand(dealt[number]) if number in dealt else None
        if last is None or Phase(last.phase) not in ENDED or last.level.get("hand_for_hand_release") != release:
            return True
    return False


def _plan_touches(plan, number: int) -> bool:
    return (number in plan.broken or number in plan.halted or bool(plan.redraw)
            or any(number in (m.to_table, m.from_table) for m in plan.moves))


def act(*, table: DealtTable, by, key: str, expected_version: int, record: dict,
        rng=SYSTEM_RANDOM) -> TableResult:
    """One action of the hand in play, as the tablet sends it: a player's act in turn (``{"action":
    "raise", "seat": 4, "to": 1000}``, TDA-03) or the dealer's step (``{"action": "deal-flop", "cards":
    [...]}``). The engine verifies it (TDA-40..62 for amounts); the hand's end goes into the event, with
    the plan that follows a bust drawn with ``rng`` (the simulator's seeded one; the system's otherwise)."""
    if not isinstance(record, dict) or record.get("action") not in BETTING_KINDS | DEALER_KINDS:
        raise RuleViolation(N_("%(action)r is not something the tablet records"), "TDA-03",
                            action=record.get("action") if isinstance(record, dict) else record)
    action = action_from_dict(record)

    def work(w: _TableWrite) -> None:
        hand, before, rows, last = _hand_in_play(w)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: start the next hand."), "TDA-23")
        if _board_held(w, hand, before, action):
            raise RuleViolation(N_("Hand-for-hand: after an all-in and a call no card is dealt until the director "
                                   "releases the board."), "RP-08-F")
        _apply(w, hand, before, action, rng, last=last, rows=rows)
        _audit_hand(w, "tournament.table_action", hand, table=w.table.number, hand=hand.number,
                    record=action.to_dict())

    # each tap is one record: a key sent again with another record is not its retry (issue #34)
    return _write_at(table, by=by, key=key, expected_version=expected_version,
                     action=asked_for(str(record["action"]), record), work=work)


def _apply(w: _TableWrite, hand: TableHand, before: HoldemHand, action, rng, *, last: int,
           rows: list[TableHandAction]) -> HoldemHand:
    """The engine applies ``action``; its records are appended after row ``last`` (the hand's effective
    rows were ``rows``), the hand saved, its end reported. A clock called on the player in turn stops: he
    has acted (or his time ran out)."""
    after = before.apply(action)
    made = _append(w, hand, [a.to_dict() for a in after.actions[len(before.actions):]], last=last)
    w.seen = ([*rows, *made], after, made[-1].seq if made else last)
    # most actions leave the phase as it was (a check, a call): the row is written only when it changes
    fields = ["phase"] if hand.phase != after.phase.value else []
    hand.phase = after.phase.value
    if "clock" in hand.level:
        hand.level = {k: v for k, v in hand.level.items() if k != "clock"}
        fields.append("level")
    if after.phase in ENDED:
        hand.ended_at = w.now
        fields.append("ended_at")
    w.hand = hand
    if after.phase is Phase.COMPLETE:
        # The hand's end goes into the event as the write's last step: the event's lock, which every table's
        # hand's end takes, is then held for the report and the commit only, not for the rest of this table's write
        # too (hands that end together queue on it: docs/decisions/2026-11-27-event-lock-last.md).
        def report_the_hand() -> None:
            hand.reported_seq = _report(w, hand, after, rng, award=made[-1].seq)
            hand.save(update_fields=[*fields, "reported_seq"])

        w.at_the_end(report_the_hand)
    elif fields:
        hand.save(update_fields=fields)
    return after


def _report(w: _TableWrite, hand: TableHand, state: HoldemHand, rng, *, award: int) -> int | None:
    """The hand's end into the tournament's record, in this transaction: its button and blinds, the stacks
    at its start and end, and the busts (CC-19 ranks them by the stacks at the start). ``award``: the
    award's row, in the report's key (a hand whose award was undone is reported again).

    On the event as it is at its lock, not at a version read before it: the table's own version was checked,
    and at a large event another table's hand often ends in the same moment. Read before the lock, the
    event's version would be stale whenever one did, and the dealer's award would be refused as a conflict
    (docs/decisions/2026-11-26-report-at-the-locked-version.md); ``report_hand`` checks the report against
    the event it locked."""
    starts = dict(state.setup.stacks)
    ends = dict(state.stacks)
    where = hand.level["where"]
    result = services.report_hand(
        tournament=w.table.tournament_id, by=w.by, key=f"dealt-hand-{hand.pk}-{award}", expected_version=None,
        table=w.table.number, hand=hand.number, button=where["button"],
        small_blind_seat=where["small_blind_position"], big_blind_seat=where["big_blind"],
        stacks_at_start=starts, stacks_at_end=ends, busts=[s for s, c in sorted(ends.items()) if c == 0],
        penalised=hand.level.get("penalised", ()), who="table", rng=rng,
        started_at=hand.started_at, level=hand.level.get("level_number"))
    return result.seqs[0] if result.seqs else None


def undo_last(*, table: DealtTable, by, key: str, expected_version: int, reason: str) -> TableResult:
    """Undo the hand's last action before the next one (CC-43), with its reason, audited. The last hand's
    award is undone too until the next deal starts (C-15): its report leaves the event's record
    (``services.withdraw_hand``), unless a player busted in it (the director corrects that)."""
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation(N_("Say why the action is undone."), "CC-43")

    def work(w: _TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None:
            raise RuleViolation(N_("There is nothing to undo."), "CC-43")
        rows = effective_rows(hand)
        if not rows or rows[-1].record.get("action") in START_KINDS:
            raise RuleViolation(N_("The hand's start is not undone: declare a misdeal instead."), "CC-43")
        if part_of_the_deal(rows[-1], hand):  # what is left of the deal: a penalty's dead hand
            raise RuleViolation(N_("Seat %(seat)s is serving a penalty: the hand stays dead (the director ends "
                                   "the penalty)."), "TDA-71-D", seat=rows[-1].record["seat"])
        if hand.reported_seq is not None:
            # The award of the table's last hand, before the next deal (CC-43, C-15): its report leaves the
            # event's record too, in this transaction (refused for a hand with a bust: the director's).
            # on the event as it is at its lock, as the report was (``_report``)
            services.withdraw_hand(tournament=w.table.tournament_id, by=w.by, key=f"undo-{w.key}"[:100],
                                   expected_version=None, seq=hand.reported_seq, reason=reason)
            hand.reported_seq = None
        undone = rows[-1]
        _append(w, hand, [{"action": "undo"}], undoes=undone, reason=reason[:200])
        hand.phase = hand_state(hand).phase.value
        hand.ended_at = None
        hand.save(update_fields=["phase", "ended_at", "reported_seq"])
        w.hand = hand
        _audit_hand(w, "tournament.table_action_undone", hand, table=w.table.number, hand=hand.number,
                undone=undone.record, reason=reason[:200])

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="undo", work=work)


def back_up_hand(*, table: DealtTable, by, key: str, expected_version: int, to_seq: int,
                 reason: str) -> TableResult:
    """The director's ruling on the hand in play (TDA-01: fairness before a technical rule; C-15, CC-43: a
    hand is corrected until the next deal starts): the hand goes back to just before its action ``to_seq``
    (a row of its record), every action from there on undone, newest first, each an ``undo`` row with the
    reason (the record keeps what was undone). The dealer then enters the hand again from there. The hand's
    start (posts, the deal, a penalty's dead hand) is never undone: a misdeal is declared instead. Only the
    director or the floor for him rules (``runs_the_floor``); audited."""
    reason = (reason or "").strip()[:200]
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor rules on a hand."))
    if not reason:
        raise RuleViolation(N_("Say why the hand goes back."), "TDA-01")

    def work(w: _TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: a hand already in the tournament's record is corrected "
                                   "there."), "CC-43")
        rows = effective_rows(hand)
        undone = [r for r in rows if r.seq >= to_seq]
        if not undone or undone[0].seq != to_seq:
            raise RuleViolation(N_("That action is not in the hand in play."), "TDA-01")
        if any(part_of_the_deal(r, hand) for r in undone):
            raise RuleViolation(N_("The hand's start is not undone: declare a misdeal instead."), "CC-43")
        last = hand.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
        w.appended += TableHandAction.objects.bulk_create([
            TableHandAction(hand=hand, seq=last + i, record={"action": "undo"}, undoes=row, reason=reason,
                            by=w.by, at=w.now)
            for i, row in enumerate(reversed(undone), start=1)
        ])
        hand.phase = hand_state(hand).phase.value
        hand.ended_at = None
        hand.level = {k: v for k, v in hand.level.items() if k != "clock"}  # the clock was on the action undone
        hand.save(update_fields=["phase", "ended_at", "level"])
        w.hand = hand
        _audit_hand(w, "tournament.table_hand_backed_up", hand, table=w.table.number, hand=hand.number,
                undone=[r.record for r in undone], reason=reason)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="back_up", work=work)


def release_board(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """The director (or the floor for him) lets the dealer deal the board of a hand-for-hand all-in that
    was called (RP-08-F), audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor releases the board."))

    def work(w: _TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: start the next hand."), "TDA-23")
        hand.level = {**hand.level, "board_released": True}
        hand.save(update_fields=["level"])
        w.hand = hand
        _audit_hand(w, "tournament.table_board_released", hand, table=w.table.number, hand=hand.number)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="release_board", work=work)


def _options(table: DealtTable):
    tournament = Tournament.objects.get(pk=table.tournament_id)
    return services.tournament_state(tournament).setup.options


def call_clock(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """The clock called on the player in turn (C-04: by the director, the floor, or the dealer when a player
    at the table asks, CC-115): the house's seconds (30, the last 10 counted aloud; or TDA-29's 25 + 5),
    on the tablet; when they run out the dealer records it (``clock_ran_out``). Audited."""

    def work(w: _TableWrite) -> None:
        hand = latest_hand(w.table)
        engine = hand_state(hand) if hand is not None else None
        if engine is None or engine.to_act is None:
            raise RuleViolation(N_("Nobody is to act: the clock runs on the player in turn"), "C-04")
        if "clock" in hand.level:
            raise RuleViolation(N_("The clock is already running on seat %(seat)s"), "C-04",
                                seat=hand.level["clock"]["seat"])
        options = _options(w.table)
        ends_at = w.now + timedelta(seconds=options.clock_seconds)
        hand.level = {**hand.level, "clock": {"seat": engine.to_act, "ends_at": ends_at.isoformat(),
                                              "seconds": options.clock_seconds,
                                              "countdown": options.clock_countdown_seconds}}
        hand.save(update_fields=["level"])
        w.hand = hand
        _audit_hand(w, "tournament.table_clock_called", hand, table=w.table.number, hand=hand.number,
                seat=engine.to_act, seconds=options.clock_seconds)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="call_clock", work=work)


def clock_ran_out(*, table: DealtTable, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TableResult:
    """The clock called on the player in turn has run out (the server checks the time): the engine applies
    the house's outcome (C-05): his hand is dead, or, not facing a bet where the house follows TDA-29, he
    checks. Audited."""

    def work(w: _TableWrite) -> None:
        hand = latest_hand(w.table)
        called = hand.level.get("clock") if hand is not None else None
        if called is None:
            raise RuleViolation(N_("No clock is running at this table."), "C-04")
        left = (datetime.fromisoformat(called["ends_at"]) - w.now).total_seconds()
        if left > 0:
            raise RuleViolation(N_("The clock still has %(seconds)s seconds to run."), "C-04",
                                seconds=int(left) + (left % 1 > 0))
        before, rows, last = _read_hand(hand)
        record = clock_expiry_record(before, _options(w.table))
        _apply(w, hand, before, action_from_dict(record), rng, last=last, rows=rows)
        _audit_hand(w, "tournament.table_clock_ran_out", hand, table=w.table.number, hand=hand.number,
                seat=called["seat"], record=record)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="clock_ran_out", work=work)


def pause_table(*, table: DealtTable, by, key: str, expected_version: int, reason: str) -> TableResult:
    """The director (or the floor for him) stops play at a table, with the reason, until he resumes it
    (TDA-01): the tablet records nothing meanwhile. Audited."""
    reason = (reason or "").strip()[:200]
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor pauses a table."))
    if not reason:
        raise RuleViolation(N_("Say why play stops at this table."), "TDA-01")

    def work(w: _TableWrite) -> None:
        w.table.paused_reason = reason
        w.audit("tournament.table_paused", table=w.table.number, reason=reason)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="pause", work=work)


def assign_dealer(*, table: DealtTable, by, key: str, expected_version: int, dealer) -> TableResult:
    """The floor (or the director) puts a dealer on duty at a table, or takes the one there off (``dealer``
    None): from then on only that dealer, the floor and the director deal there. A dealer rotating to the
    next table is put on duty there before the next dealer takes this one, so a dealer may be on duty at
    two tables for that moment. Audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor assigns the dealers."))
    if dealer is not None and not (dealer.is_active and has_role(dealer, Role.DEALER)):
        raise RuleViolation(N_("%(name)s is not one of the casino's active dealers."), None,
                            name=dealer.get_full_name() or dealer.get_username())

    def work(w: _TableWrite) -> None:
        w.table.dealer = dealer
        # dealer_id: verify_audit compares the table's dealer on duty with the last one assigned (issue #34).
        w.audit("tournament.table_dealer_assigned", table=w.table.number,
                dealer=dealer.get_username() if dealer is not None else None,
                dealer_id=dealer.pk if dealer is not None else None)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="assign_dealer", work=work)


def resume_table(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """Play goes on at a paused table (TDA-01). Audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor resumes a table."))

    def work(w: _TableWrite) -> None:
        if not w.table.paused_reason:
            raise RuleViolation(N_("Play is not paused at this table."), "TDA-01")
        w.table.paused_reason = ""
        w.audit("tournament.table_resumed", table=w.table.number)

    return _write_at(table, by=by, key=key, expected_version=expected_version, action="resume", work=work)


# --- The hand as a hand line ---------------------------------------------------------------------------


def hand_line(hand: TableHand, rows: list[TableHandAction] | None = None) -> dict[str, Any]:
    """The hand in the ``replay_hand`` format (docs/hand-history.md, "Hold'em hands"): its table, the
    players' acts in order, the cards shown and the board; replayed, it gives the hand's stacks.
    ``rows``: its effective rows, if read already."""
    line: dict[str, Any] = {"game": "holdem", "hand": f"t{hand.table.tournament_id}-{hand.table.number}-{hand.number}",
                            **hand.setup, "rules": hand.rules, "mode": hand.rules.get("mode", "tournament")}
    # issue #36: when the hand started and at which level (TDA-23), for the inspector; the replay ignores them
    if hand.started_at is not None:
        line["started_at"] = hand.started_at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if hand.level.get("level_number") is not None:
        line["level"] = hand.level["level_number"]
    acts: list[dict[str, Any]] = []
    cards: dict[str, list[str]] = {}
    board: list[str] = []
    for row in effective_rows(hand) if rows is None else rows:
        record = row.record
        kind = record["action"]
        if kind in BETTING_KINDS:
            act_ = {"seat": record["seat"], "act": kind}
            if "to" in record:
                act_["to"] = record["to"]
            if "chips" in record:
                act_["chips"] = record["chips"]
            acts.append(act_)
        elif kind in ("misdeal", "defective-deck"):
            acts.append({"act": kind})
        elif kind == "kill-hand":
            acts.append({"seat": record["seat"], "act": kind})
        elif kind in BOARD_KINDS:
            dealt = record.get("cards") or ([record["card"]] if record.get("card") else [])
            board.extend(dealt)
        elif kind == "show" and record.get("cards"):
            cards[str(record["seat"])] = list(record["cards"])
    line["actions"] = acts
    if cards:
        line["cards"] = cards
    if board:
        line["board"] = board
    return line


#: The phases of a hand that is over: only those are exported (a hand in play is not a record yet).
OVER = tuple(phase.value for phase in ENDED)


def hand_lines_text(tournament: Tournament, *, table: int | None = None):
    """Every hand over at the event's dealt tables (or at ``table``), table by table and in order, one
    JSON line each in the ``replay_hand`` format: what an inspector downloads and replays (the hands'
    rows read a few hundred hands at a time, never the whole event's at once)."""
    import json

    from django.db.models import Prefetch

    hands = (TableHand.objects.filter(table__tournament=tournament, phase__in=OVER)
             .select_related("table").order_by("table__number", "number")
             .prefetch_related(Prefetch("actions", queryset=TableHandAction.objects.order_by("seq"))))
    if table is not None:
        hands = hands.filter(table__number=table)
    for hand in hands.iterator(chunk_size=200):
        line = hand_line(hand, reads.effective_rows(hand.actions.all()))
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
