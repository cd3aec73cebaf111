"""What the screens read of the hands dealt at the tablets (issue #15): a table's latest hand, its rows and the
engine's state replayed from them, the table's summary the phones and the console show (``SUMMARIES``, left by
each write at its commit), what the process's last write at a table knew (``KNOWN``: ``KnownAtCommit``), and the
hands as exported (``hand_line``, the ``replay_hand`` format: docs/hand-history.md, "Hold'em hands")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from casino import reads
from casino.memo import BoundedCache
from casino.rules.holdem import HoldemHand, HouseRules, Phase, TableSetup
from casino.rules.holdem.actions import BETTING_KINDS, DEALING_ERROR_KINDS
from casino.rules.holdem.hand import ENDED
from casino.rules.tournament import time_to_act as acting
from casino.rules.tournament.options import HouseOptions
from tournaments.models import (
    DealtTable,
    TableHand,
    TableHandAction,
    Tournament,
)
from tournaments.reads import event as event_reads

#: What the dealer enters besides the players' acts: the board, the showdown, the pots, a misdeal.
DEALER_KINDS = frozenset({"deal-flop", "deal-turn", "deal-river", "show", "muck", "award-pots", "misdeal",
                          "defective-deck", "kill-hand", "out-of-turn"}) | DEALING_ERROR_KINDS


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


#: What each committed write of this process knew, by (table, the version it made): a later version never
#: finds an earlier write's, so nothing here is ever taken back (casino.reads, "The one invalidation rule").
KNOWN: BoundedCache[KnownAtCommit] = BoundedCache(1024)


def written_at(table: DealtTable, version: int) -> KnownAtCommit | None:
    """What the write that made ``version`` of ``table`` knew, if this process made it and no write came since
    (the version says so); None: read the record."""
    return KNOWN.get((reads.identity(table), version))


def dealt_table(tournament: Tournament, number: int) -> DealtTable:
    """The tablet's table: the event's table ``number`` (refused when it is not in play, TDA-07)."""
    event_reads.tournament_state(tournament).table(number)
    table, _ = DealtTable.objects.get_or_create(tournament=tournament, number=number)
    return table


def hand_for_hand_release(state) -> int | None:
    """The deal the hand-for-hand hands now wait for: the place in the clock's events of the director's
    last release ("hand_for_hand_hand") since hand-for-hand was turned on; None before the first."""
    events = state.clock_events
    on = max((i for i, e in enumerate(events) if e.kind == "hand_for_hand_on"), default=-1)
    return max((i for i, e in enumerate(events) if e.kind == "hand_for_hand_hand" and i > on), default=None)


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


def last_record_at(hand: TableHand, rows: list[TableHandAction] | tuple[TableHandAction, ...], last: int) -> datetime:
    """When the hand's last record (row ``last``, an undo row included) was written; its start before any.
    ``rows``: its effective rows, read already: a query only when the last row is an undo (not among them)."""
    if rows and rows[-1].seq == last:
        return rows[-1].at
    at = hand.actions.filter(seq=last).values_list("at", flat=True).first() if last else None
    return at or hand.started_at


def time_to_act(hand: TableHand, engine: HoldemHand, rows: list[TableHandAction] | tuple[TableHandAction, ...],
                last: int, options: HouseOptions) -> acting.TimeToAct | None:
    """The time to act of the seat in turn (CC-114, C-04), from the moment the action reached it (the hand's
    last record), the same on every tablet and after a reload; None when nobody is to act, the house runs no
    base shot clock (TDA-29), or the clock is called on the seat (its own countdown then runs, CC-115)."""
    since = acting_since(hand, engine, rows, last)
    return None if since is None else acting.time_to_act(engine.to_act, since, options)


def acting_since(hand: TableHand, engine: HoldemHand, rows: list[TableHandAction] | tuple[TableHandAction, ...],
                 last: int) -> datetime | None:
    """When the action reached the seat in turn (CC-114): the hand's last record, an act out of turn aside; None
    when nobody is to act or the clock is called on the seat (its own countdown runs, CC-115)."""
    if engine.phase in ENDED or engine.to_act is None or "clock" in hand.level:
        return None
    if rows and rows[-1].seq == last and rows[-1].record.get("action") == "out-of-turn":
        # TDA-53-A: an act out of turn leaves the turn where it was: the time runs from the record before it
        before = [r for r in rows if r.record.get("action") != "out-of-turn"]
        rows, last = before, before[-1].seq if before else 0
    return acting.reached_at(hand.started_at, [last_record_at(hand, rows, last)])


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


def summary_of(table: DealtTable, hand: TableHand, engine: HoldemHand,
               rows: list[TableHandAction] | tuple[TableHandAction, ...], last: int) -> dict[str, Any]:
    """The table's latest hand as the console and the phones show it (``rows``, ``last``: its effective rows and
    its last record's number, for when the action reached the seat in turn)."""
    in_play = engine.phase not in ENDED
    since = acting_since(hand, engine, rows, last) if in_play and not table.paused_reason else None
    status = engine.out_of_turn_status(engine.to_act) if in_play and engine.to_act is not None else None
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
        # issue #38 item 2: the dealing errors whose clause calls the director (TDA-39, CC-95), for the console
        "director_called": list(engine.director_calls),
        # TDA-53: the acts out of turn waiting at their seats, and the skipped hand the director rules on
        "out_of_turn": [{"seat": o.seat, "act": o.act, "to": o.to} for o in engine.out_of_turn] if in_play else [],
        "skipped": engine.skipped_ruling if in_play else None,
        # CC-114: when the action reached the seat in turn (its time to act runs from there); and TDA-53, CC-134,
        # CC-135, C-08: what an act out of turn, or the director's ruling, leaves that seat, as the tablet says it
        "acting_since": None if since is None else since.isoformat(),
        "binding": None if status is None else {
            "seat": engine.to_act, "clause": status.clause, "changed": status.changed,
            "every_option": status.acts is None, "ruling": status.pending is None,
            "act": None if status.pending is None else status.pending.act,
            "to": None if status.pending is None else status.pending.to},
    }


def _read_summary(table: DealtTable) -> SummaryAt:
    hand = latest_hand(table)
    if hand is None:
        return SummaryAt(table.version, None)
    engine, rows, last = replayed(hand)
    return SummaryAt(table.version, summary_of(table, hand, engine, rows, last))


#: The tables' summaries per version: the write that made a version leaves its summary at its commit, in
#: this process and in Redis (``TableWrite.before_announce``), so the other process's phones and
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
    # issue #39: the deck it was dealt with, so a deck later found marked names its hands; read, not replayed
    if hand.deck_id is not None:
        line["deck"] = hand.deck.serial
    acts: list[dict[str, Any]] = []
    cards: dict[str, list[str]] = {}
    board: list[str] = []
    errors = False
    rows = effective_rows(hand) if rows is None else rows
    for row in rows:
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
        elif kind in DEALING_ERROR_KINDS:
            # issue #38 item 2: the dealing error as its record, "act" for "action" (docs/hand-history.md)
            acts.append({"act": kind, **{k: v for k, v in record.items() if k != "action"}})
            errors = True
        elif kind == "out-of-turn":  # TDA-53-A: recorded at its seat, bound (or not) at its turn
            acts.append({"seat": record["seat"], "act": record["act"], **({"to": record["to"]} if "to" in record
                                                                          else {}), "out_of_turn": True})
        elif kind == "skipped-hand":  # TDA-53-B: the director's ruling on the skipped hand
            acts.append({"seat": record["seat"], "act": kind, "ruling": record["ruling"]})
        elif kind in BOARD_KINDS:
            dealt = record.get("cards") or ([record["card"]] if record.get("card") else [])
            board.extend(dealt)
        elif kind == "show" and record.get("cards"):
            cards[str(record["seat"])] = list(record["cards"])
    line["actions"] = acts
    if errors:
        # a street taken back (CC-104) or a flop picked from four (TDA-39): the board as the hand ended
        engine = hand_state(hand, rows)
        board = [str(c) for c in engine.board if c is not None]
        if any(n != 1 for n in engine.burn_counts):
            # a burn error made up for (CC-105): the next street burnt twice, or not at all
            line["burns"] = dict(zip(("flop", "turn", "river"), engine.burn_counts, strict=False))
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
             .select_related("table", "deck").order_by("table__number", "number")
             .prefetch_related(Prefetch("actions", queryset=TableHandAction.objects.order_by("seq"))))
    if table is not None:
        hands = hands.filter(table__number=table)
    for hand in hands.iterator(chunk_size=200):
        line = hand_line(hand, reads.effective_rows(hand.actions.all()))
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- The inspector's question (issue #39): which hands were played with a deck -----------------------------


def hands_with_deck(deck) -> list[TableHand]:
    """Every hand dealt with ``deck`` at any event's tables, with its event, table and start: one query."""
    return list(TableHand.objects.filter(deck=deck).select_related("table__tournament", "deck")
                .order_by("started_at", "table__number", "number"))


def hand_lines_with_deck(deck):
    """The hands dealt with ``deck`` that are over, one JSON line each in the ``replay_hand`` format (a deck
    later found marked: the inspector replays its hands)."""
    import json

    from django.db.models import Prefetch

    hands = (TableHand.objects.filter(deck=deck, phase__in=OVER).select_related("table", "deck")
             .order_by("started_at", "table__number", "number")
             .prefetch_related(Prefetch("actions", queryset=TableHandAction.objects.order_by("seq"))))
    for hand in hands.iterator(chunk_size=200):
        line = hand_line(hand, reads.effective_rows(hand.actions.all()))
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


def out_of_turn_acts(tournament_id: int, entries) -> dict[int, int]:
    """How many acts out of turn each of ``entries`` made in the event's dealt hands, at any table (CC-133): the
    rows recorded "out-of-turn" and not undone. One query, only of those rows and the undos among the same hands."""
    entries = set(entries)
    rows = list(TableHandAction.objects.filter(hand__table__tournament_id=tournament_id, record__action="out-of-turn")
                .values_list("pk", "hand_id", "record__seat"))
    if not rows or not entries:
        return {}
    undone = set(TableHandAction.objects.filter(hand_id__in={hand for _pk, hand, _seat in rows}, undoes__isnull=False)
                 .values_list("undoes_id", flat=True))
    seated = dict(TableHand.objects.filter(pk__in={hand for _pk, hand, _seat in rows}).values_list("pk", "entries"))
    counts: dict[int, int] = {}
    for pk, hand, seat in rows:
        entry = seated.get(hand, {}).get(str(seat))
        if pk not in undone and entry in entries:
            counts[entry] = counts.get(entry, 0) + 1
    return counts
