"""The director's console: the whole field at a glance, and what the floor must do now (issue #14).

``console_fragment(tournament, user)`` renders the console's live part; the page
(``tournaments.views.console``) shows it first and ``tournaments.consumers.TournamentConsoleConsumer``
pushes it again at each new version of the event. What it shows is read once per call by
``read_field``: the tables with their players and seats, the plan (who moves, which tables break or
halt), the clock, the counts (players left of entries, average stack, prize pool), and the field's
history for the plot. The numbers shown to the room come from t-displays' board
(``tournaments.reads.event.board_at``), so the console and the clock display never disagree.

Who sees what: the event's director (and the games director, the administrators) runs the whole event,
setup included; the floor staff see and use the table actions only; a director of another event sees it
and acts at nothing (``access.may_direct`` / ``access.may_work_floor``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_lazy

from casino.models import Deck
from casino.refusals import CHANGES_SAID, last_changes
from casino.roles import Role
from casino.rules.tournament.seating import plan_tables
from tournaments import plot, record_text
from tournaments.access import may_direct, may_work_floor
from tournaments.models import Entry, Tournament, TournamentEvent, TournamentRequest
from tournaments.projections import entry_number
from tournaments.reads import event as event_reads
from tournaments.reads import rotation as rotation_reads
from tournaments.rendering import clock as clock_screen
from tournaments.rendering.clock import epoch_ms

#: The id of the console's live element (the consumer's goodbye replaces it).
SCREEN_ID = "tournament-console"


#: The seating display and the console list the moves of this many last minutes.
RECENT_MOVES_MINUTES = 30


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    entry: int | None = None
    name: str = ""
    chips: int | None = None
    button: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    table: int
    seats: tuple[SeatView, ...]
    players: int
    halted: bool = False
    breaking: bool = False
    final: bool = False

    @property
    def occupied(self) -> tuple[SeatView, ...]:
        return tuple(s for s in self.seats if s.entry is not None)


@dataclass(frozen=True, slots=True)
class MoveView:
    entry: int
    name: str
    to_table: int
    to_seat: int
    why: str = ""
    from_table: int | None = None
    from_seat: int | None = None
    sits_out: bool = False
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlanView:
    moves: tuple[MoveView, ...] = ()
    broken: tuple[int, ...] = ()
    halted: tuple[int, ...] = ()
    warnings: tuple[str, ...] = ()
    redraw: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.moves or self.broken or self.halted or self.redraw)


@dataclass(frozen=True, slots=True)
class Field:
    """What the console shows of one event at one version."""

    board: event_reads.Board
    tables: tuple[TableView, ...] = ()
    plan: PlanView = field(default_factory=PlanView)
    names: dict[int, str] = field(default_factory=dict)  # entry number -> player's name (staff only)
    recent_moves: tuple[MoveView, ...] = ()
    points: tuple[plot.FieldPoint, ...] = ()
    proposed: int | None = None  # the record line of the plan shown (confirming names it: TDA-11)
    halted_now: tuple[int, ...] = ()

    @property
    def halted(self) -> tuple[int, ...]:
        return tuple(t.table for t in self.tables if t.halted)


def entry_names(tournament: Tournament) -> dict[int, str]:
    """Entry number -> the player's name, for the staff's screens only (never the room's)."""
    return {entry_number(e): e.player_name for e in Entry.objects.filter(tournament=tournament)}


def read_field(tournament: Tournament) -> Field:
    """The field at the tournament's current version: the room's board plus what only staff see."""
    board = event_reads.board_at(tournament)
    names = entry_names(tournament)
    state = event_reads.tournament_state(tournament)
    pending = getattr(state, "pending_plan", None)
    plan = _plan_view(pending[1] if pending else None, names)
    tables = _tables(board, state, names, plan)
    now = timezone.now()
    recent = tuple(
        MoveView(entry=e, name=names.get(e, ""), to_table=m.to_table, to_seat=m.to_seat, why=m.why,
                 from_table=m.from_table, from_seat=m.from_seat, at=m.at)
        for e, m in sorted(board.moves.items(), key=lambda item: item[1].at, reverse=True)
        if (now - m.at).total_seconds() <= RECENT_MOVES_MINUTES * 60
    )
    return Field(board=board, tables=tables, plan=plan, names=names, recent_moves=recent,
                 points=tuple(field_history(event_reads.record_of(tournament))),
                 proposed=pending[0] if pending else None,
                 halted_now=tuple(getattr(state, "halted", ()) or ()))


def _plan_view(plan, names: dict[int, str]) -> PlanView:
    if plan is None:
        return PlanView()
    return PlanView(
        moves=tuple(MoveView(entry=m.entry, name=names.get(m.entry, ""), to_table=m.to_table, to_seat=m.to_seat,
                             why=m.why, from_table=m.from_table, from_seat=m.from_seat, sits_out=m.sits_out)
                    for m in plan.moves),
        broken=tuple(plan.broken), halted=tuple(plan.halted), warnings=tuple(plan.warnings), redraw=plan.redraw,
    )


def _tables(board: event_reads.Board, state, names: dict[int, str], plan: PlanView) -> tuple[TableView, ...]:
    """Each table with every seat, occupied or empty, from the state's tables (the board's seats when
    there is no state to read)."""
    table_seats = getattr(state, "tables", None) if state is not None else None
    stacks = {e.entry: e.stack for e in getattr(state, "entries", ())}
    halted = set(plan.halted) | set(getattr(state, "halted", ()) or ())
    views = []
    if table_seats:
        for t in sorted(table_seats, key=lambda t: t.table):
            taken = dict(t.players)
            seats = tuple(SeatView(seat=s, entry=taken.get(s), name=names.get(taken.get(s), ""),
                                   chips=stacks.get(taken.get(s)), button=t.button == s)
                          for s in range(1, t.seats + 1))
            views.append(TableView(table=t.table, seats=seats, players=len(taken), halted=t.table in halted,
                                   breaking=t.table in plan.broken, final=t.final))
        return tuple(views)
    by_table: dict[int, dict[int, int]] = {}
    for entry, at in board.seats.items():
        by_table.setdefault(at.table, {})[at.seat] = entry
    for table, taken in sorted(by_table.items()):
        seats = tuple(SeatView(seat=s, entry=taken.get(s), name=names.get(taken.get(s), ""))
                      for s in range(1, max(taken) + 1))
        views.append(TableView(table=table, seats=seats, players=len(taken), halted=table in halted,
                               breaking=table in plan.broken))
    return tuple(views)


#: Record events after which the field (players left, chips in play) may have changed.
_LEAVING = ("bust", "withdrawal", "disqualification")


def field_history(events: list[dict]) -> list[plot.FieldPoint]:
    """Players left and chips in play after each change of the field, from the record as it stands after
    its corrections (``record.effective_events``): one point per seat taken with a new stack, bust,
    withdrawal, disqualification, chips removed, chip count, colour-up or hand reported."""
    from casino.rules.tournament.record import NEW_STACK_WHYS, effective_events, parse_at

    stacks: dict[int, int] = {}
    out: list[plot.FieldPoint] = []
    for event in effective_events(events):
        kind = event["type"]
        if kind == "seated":
            if event.get("why") in NEW_STACK_WHYS or int(event["entry"]) not in stacks:
                stacks[int(event["entry"])] = int(event.get("chips") or 0)
            else:
                continue  # a move: the field is the same
        elif kind in _LEAVING:
            if stacks.pop(int(event["entry"]), None) is None:
                continue
        elif kind == "chips_removed" and int(event["entry"]) in stacks:
            left = max(0, stacks[int(event["entry"])] - int(event.get("chips") or 0))
            if left == 0 and event.get("reason") == "absent":
                stacks.pop(int(event["entry"]))
            else:
                stacks[int(event["entry"])] = left
        elif kind == "chip_count" and int(event["entry"]) in stacks:
            stacks[int(event["entry"])] = int(event["chips"])
        elif kind == "colour_up":
            for number, stack in event.get("stacks") or ():
                if int(number) in stacks:
                    stacks[int(number)] = int(stack)
        elif kind == "hand":
            for p in event.get("players") or ():
                if p.get("end") is not None and int(p["entry"]) in stacks:
                    stacks[int(p["entry"])] = int(p["end"])
        else:
            continue
        point = plot.FieldPoint(at=parse_at(event["at"]), players=len(stacks), chips=sum(stacks.values()))
        if out and out[-1].at == point.at:
            out[-1] = point  # one write's events (a draw, a plan) are one moment
        else:
            out.append(point)
    return out


def dealt_tables(tournament: Tournament, hand_for_hand: bool) -> list[dict]:
    """Each dealt table's hand as it stands (issue #15): its number, stage, pot, who is all-in, the stacks,
    and what it waits for in hand-for-hand (the next deal, CC-11; the board, RP-08-F)."""
    from tournaments.reads import hands as hand_reads

    rows = []
    # issue #36: hand-for-hand synchronises several tables: alone, a table waits for no deal and no board
    state = event_reads.tournament_state(tournament) if hand_for_hand else None
    several = state is not None and len(hand_reads.tables_playing(state)) > 1
    for table in tournament.dealt_tables.order_by("number"):
        summary = hand_reads.table_summary(table)
        if summary is None:
            continue
        # The summary is shared by every render of this table version (hand_reads.table_summary): what
        # depends on the event (hand-for-hand on or off) goes on a copy, never into the shared one.
        waits = {"waits_for_deal": several and summary["phase"] == "complete",
                 "waits_for_board": several and summary["board_held"]
                 and hand_reads.another_hand_still_running(state, table)}
        rows.append({**summary, **(waits if hand_for_hand else {}), "deck_id": table.deck_id})
    # issue #39: each table's deck in play, and a defective one at once (CC-72): one query for every table
    found = {d.pk: d for d in Deck.objects.filter(pk__in=[r["deck_id"] for r in rows if r["deck_id"]])}
    for row in rows:
        row["deck"] = found.get(row.pop("deck_id"))
    return rows


def colour_ups_due(tournament: Tournament, names: dict[int, str]) -> list[dict]:
    """Issue #36: the tables still to race their odd chips after a break removed a denomination (TDA-24-A,
    CC-68/69), each with who races how many, computed from the stacks: the floor confirms each in one tap."""
    from casino.rules.tournament.chip_race import races_due

    state = event_reads.tournament_state(tournament)
    if state is None:
        return []
    return [{"table": due.table, "removed": due.removed, "into": due.into, "cards": due.cards,
             "seats": [{"seat": seat, "entry": entry, "name": names.get(entry, ""), "chips": count}
                       for seat, entry, count in due.odd_chips]}
            for due in races_due(state, timezone.now())]


def final_standings(board, names: dict[int, str]) -> list[dict]:
    """Issue #36: once the event is over, every entry's place, name and prize, place 1 first (a shared place
    lists its entries together), as the results recorded them: the console's final standings."""
    if board.status != "finished":
        return []
    rows = [{"places": finish.places, "entry": entry, "name": names.get(entry, ""), "prize": finish.prize}
            for entry, finish in board.finishes.items()]
    return sorted(rows, key=lambda row: (row["places"], row["entry"]))


def dealers_on_staff():
    """The casino's active dealers, whom the floor puts on duty at the event's tables."""
    from django.contrib.auth import get_user_model

    return (get_user_model().objects.filter(is_active=True, groups__name=Role.DEALER)
            .order_by("first_name", "username").distinct())


def tournament_directors():
    """The casino's active tournament directors, to whom the games director assigns an event."""
    from django.contrib.auth import get_user_model

    return (get_user_model().objects.filter(is_active=True, groups__name=Role.TOURNAMENT_DIRECTOR)
            .order_by("first_name", "username").distinct())


def dealers_on_duty(tournament: Tournament) -> dict[int, dict]:
    """Table number -> its dealer on duty (id and name), for the event's tables that have one."""
    return {table.number: {"id": table.dealer_id, "name": table.dealer.get_full_name() or table.dealer.username}
            for table in tournament.dealt_tables.filter(dealer__isnull=False).select_related("dealer")}


def plan_waits_for(tournament: Tournament, dealt: list[dict]) -> list[int]:
    """The tables whose hand in play the plan proposed waits for (TDA-11: confirmed when it ends), from the dealt
    tables' hands as the console shows them; the console is pushed each table's taps, the award's included."""
    state = event_reads.tournament_state(tournament)
    pending = getattr(state, "pending_plan", None)
    if pending is None:
        return []
    touched = plan_tables(pending[1], state.tables)
    return sorted(row["number"] for row in dealt if row["in_play"] and row["number"] in touched)


#: TDA-53-B: the skipped hand "may be ruled dead or limited to non-aggressive options".
SKIPPED_RULINGS = (("dead", gettext_lazy("The hand is dead")),
                   ("non-aggressive", gettext_lazy("Check, call or fold only")))


def console_context(tournament: Tournament, user, notice: dict | None = None) -> dict:
    the_field = read_field(tournament)
    board = the_field.board
    clock = clock_screen.clock_view(board)
    floor = may_work_floor(user, tournament)
    dealt = dealt_tables(tournament, bool(clock.reading and clock.reading.hand_for_hand))
    return {
        "on_duty": dealers_on_duty(tournament) if the_field.tables else {},
        # issue #38 item 5 (RP-07): who deals where, who rests, the next change
        "rotation": rotation_reads.board(rotation_reads.schedule_at(tournament, timezone.now()))
        if the_field.tables else None,
        "dealers": list(dealers_on_staff().values("pk", "first_name", "username")) if floor and the_field.tables
        else [],
        "dealt": dealt,
        # TDA-53-B: the director's rulings on a skipped hand, as the console's buttons say them
        "skipped_rulings": SKIPPED_RULINGS if any(t.get("skipped") for t in dealt) else (),
        "plan_waits_for": plan_waits_for(tournament, dealt),
        "colour_ups": colour_ups_due(tournament, the_field.names) if the_field.tables else [],
        "standings": final_standings(board, the_field.names),
        "tournament": tournament,
        "screen_id": SCREEN_ID,
        "field": the_field,
        "board": board,
        "clock": clock,
        "server_now_ms": epoch_ms(timezone.now()),
        "step_ends_ms": epoch_ms(clock.step_ends_at),
        "plot": plot.field_plot(list(the_field.points)),
        "may_direct": may_direct(user, tournament),
        "may_work_floor": floor,
        "notice": notice,
        "draws": director_draws(tournament) if may_direct(user, tournament) else [],
    }


def director_draws(tournament: Tournament, last: int = 3) -> list[dict]:
    """The director's last random draws (RP-14), newest first, as the record keeps them: the reason, the
    choices, the one drawn and the seed that draws it."""
    draws = [e for e in event_reads.record_of(tournament) if e["type"] == "random_draw"][-last:]
    return [{"seq": e["seq"], "reason": e["reason"], "choices": e["choices"], "seed": e["seed"],
             "drawn": e["choices"][e["drawn"]]} for e in reversed(draws)]


def console_fragment(tournament: Tournament, user, notice: dict | None = None) -> str:
    """The console's live part for ``user`` (its root carries ``id=SCREEN_ID`` and ``data-version``)."""
    return render_to_string("tournaments/console_fragment.html", console_context(tournament, user, notice))


# --- What the event's record got since a screen's version ---------------------------------------------------

#: A write on the event that appends nothing to its record, by the command its request is kept under.
_REQUEST_SAID = {
    "director_assigned": gettext_lazy("Another director was put in charge of the event."),
    "player_links_revoked": gettext_lazy("An entry's player links were ended."),
    "set_rotation": gettext_lazy("The dealers' rotation was set."),
    "stop_rotation": gettext_lazy("The dealers' rotation was stopped."),
}


def _as_sentence(text: str) -> str:
    # the record's sentences are lines of a list; a notice reads them one after another
    return text if not text or text[-1] in ".!?…" else f"{text}."


def what_changed(tournament: Tournament, since: int) -> list[str]:
    """What the event's record got after its version ``since``, in the active language, oldest first (the last
    few, ``casino.refusals.last_changes``): each record event as its sentence (``record_text.record_sentence``:
    "Entry 7 busted at table 2."), a write that records nothing by what it did. For the 409 of a post made on a
    page that showed ``since`` (the console, the desk, the setup, a table's or an entry's page): the floor reads
    what happened instead of a bare "the event changed". The record holds no name and no document: the same
    sentences the record's page shows every floor screen."""
    # one request a version, and each says at least one line: the last few requests say the last few lines
    requests = list(TournamentRequest.objects.filter(tournament=tournament, tournament_version__gt=since)
                    .order_by("-tournament_version").values_list("action", "key")[:CHANGES_SAID + 1])[::-1]
    more_before = len(requests) > CHANGES_SAID
    requests = requests[-CHANGES_SAID:]
    events: dict[str, list[dict]] = {}
    for key, type_, data in (TournamentEvent.objects.filter(tournament=tournament, key__in=[k for _a, k in requests])
                             .order_by("seq").values_list("key", "type", "data")):
        events.setdefault(key, []).append({**data, "type": type_})
    said: list[str] = []
    for action, key in requests:
        recorded = events.get(key)
        if recorded:
            said.extend(_as_sentence(record_text.record_sentence(event)) for event in recorded)
        else:
            said.append(str(_REQUEST_SAID.get(action.split(":", 1)[0], gettext_lazy("The event changed."))))
    return last_changes(said, more_before)
