"""The dealer's tablet at a tournament table (issue #15): its live fragment (its page and taps: ``views.tablet``).

Every tap is one POST through ``tournaments.services.dealing`` (the one write path); the socket
(``consumers.DealerTabletConsumer``) only tells the tablet that its table or the event changed, and the
tablet is rendered again from the record. The fragment shows the table as it stands (seats, names,
stacks, button and blinds), the level and the next from the event's clock, the hand in play with what
the player in turn may do (the engine's ``legal()``: the call, the smallest and largest bet or raise),
the dealer's next step (the board, the showdown in the engine's order, the pots), and, before the next
hand, the players the floor's plan moves to or from this table.

A version is rendered once per process and language, when first asked for (``fragment_at``): the tap's
write records and announces ids and a version and renders nothing; the tap's answer, after the write
returns, asks this cache for the version the write made and puts its notice in; the socket's push of that
version asks the same cache. The fragment is the same bytes for every viewer who may open the tablet
(its dealer on duty, the floor, the director). A change of the event redraws the tablet only when it
changes what the tablet shows of the event (``event_facts``): a hand's end at another table does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino import reads
from casino.memo import BoundedCache
from casino.models import Deck
from casino.rules import decks as deck_rules
from casino.rules.holdem import Phase
from casino.rules.holdem.hand import ENDED
from casino.rules.tournament import chip_race, clock
from casino.rules.tournament.structure import Structure
from tournaments.models import DealtTable, TableHand, TableHandAction, TableRequest, Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.reads import rotation as rotation_reads
from tournaments.rendering import tablet_cards, tablet_errors, tablet_shortcuts
from tournaments.templatetags.tournament_display import chips

SCREEN_ID = "deal-table"


TEMPLATE = "tournaments/_tablet_fragment.html"


def _event_name_and_version(pk: int) -> Tournament:
    """The event as the tablet shows it: its name and version now (the rest of the event is the replay's)."""
    return Tournament.objects.only("name", "version").get(pk=pk)


def _level_view(tournament: Tournament, state) -> dict[str, Any] | None:
    setup = state.setup
    if setup is None:
        return None
    structure = Structure.from_dict(setup.structure)
    reading = clock.clock_at(structure, list(state.clock_events), timezone.now(),
                             hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    return {"reading": reading, "level": reading.level, "next": reading.next_level}


def tablet_context(table: DealtTable, notice: dict | None = None,
                   written: hand_reads.KnownAtCommit | None = None) -> dict[str, Any]:
    """What the tablet shows: the same for every viewer who may open it (its dealer on duty, the floor, the
    director), so that one render per version serves them all (``fragment_at``). ``written``: what this
    process's write of that version knew (its hand, rows and engine state), instead of reading them again."""
    # its version now, not when the table was read; the tablet shows only its name (the rest of the event is
    # the replay's): not its structure, payouts and options, decoded from JSON at every tap's render
    tournament = _event_name_and_version(table.tournament_id)
    state = event_reads.tournament_state(tournament)
    seats = state.table_in_play(table.number)
    # The names of this table's players only (an event has a thousand entries; a tablet shows nine).
    at_table = [entry for _seat, entry in (seats.players if seats else ())]
    if state.pending_plan is not None:
        at_table += [m.entry for m in state.pending_plan[1].moves]
    names = {number: name for number, (_pk, name) in event_reads.entries_by_number(tournament.pk, at_table).items()}
    if written is not None:
        hand, records, engine, last = written.hand, list(written.rows), written.engine, written.last
    else:
        hand = hand_reads.latest_hand(table)
        engine, records, last = hand_reads.replayed(hand) if hand is not None else (None, [], 0)
    in_play = engine is not None and engine.phase not in ENDED
    acting = _time_to_act_view(table, hand, engine, records, last, state) if in_play else None
    where = hand.level["where"] if hand is not None else {}
    dead = {r.record["seat"] for r in records if r.record.get("action") == "kill-hand"}
    penalised = set(hand.level.get("penalised", ())) if hand is not None else set()
    rows = []
    for seat, entry in (seats.players if seats else ()):
        row = {"seat": seat, "entry": entry, "name": names.get(entry, ""), "stack": state.entry(entry).stack,
               "button": where.get("button") == seat, "small": where.get("small_blind") == seat,
               "big": where.get("big_blind") == seat, "dealt": False,
               # TDA-71-D: the hands the player still sits out, this one (if killed for it) included
               "penalty_hands": state.penalty_hands_left(entry)}
        if engine is not None and in_play and seat in engine.setup.stacks:
            p = engine.seats.index(seat)
            # RP-12: each seat's running bet ("In front"); RP-01: the all-in marker on the seat
            row.update(dealt=True, stack=engine.stack[p], bet=engine.bets[p], folded=engine.folded[p],
                       all_in=engine.stack[p] == 0 and not engine.folded[p], to_act=engine.to_act == seat,
                       # CC-114: the seat in turn's time to act
                       time_to_act=acting if acting is not None and acting["seat"] == seat else None,
                       # an absent player's hand, killed at the end of the deal (TDA-30, CC-29)
                       dead=seat in dead, penalised=seat in penalised, may_kill=engine.can_kill_hand(seat),
                       # TDA-53: an act out of turn waiting at the seat; the skipped hand the director rules on
                       oot=_out_of_turn_view(engine.out_of_turn_at(seat)), skipped=engine.skipped_ruling == seat)
        rows.append(row)
    view: dict[str, Any] = {"table": table, "tournament": tournament, "seats": rows, "notice": notice,
                            "event_facts": event_facts(state, table.number),
                            # The tablet follows two aggregates (its table and the event): the sum of their
                            # versions grows with either, so live.js orders its pushes by it.
                            "screen_version": table.version + tournament.version,
                            "hand": hand, "in_play": in_play, "level": _level_view(tournament, state)}
    view["deck"] = deck_view(table, state, view["level"])
    if engine is not None:
        legal = engine.legal() if in_play else None
        view.update(
            phase=engine.phase.value, street=engine.street.value, pot=engine.pot_total,
            board=[str(c) if c is not None else "?" for c in engine.board], legal=legal,
            opens=engine.current_bet == 0 if legal else False,
            # all-in is offered only where the engine takes it (not when the betting is not reopened, TDA-47)
            may_all_in=engine.can_all_in(legal.seat) if legal else False,
            to_act_name=names.get(hand.entries.get(str(legal.seat)), "") if legal else "",
            # what an act out of turn (or the director's ruling) leaves the player in turn (TDA-53, CC-134,
            # CC-135, C-08), the buttons it leaves, and the seats that may still act out of turn
            binding=_binding_view(engine, legal.seat) if legal else None,
            may_call=not legal.check and engine.can_call(legal.seat) if legal else False,
            # in the order of play from the seat after the player in turn: the one who acts out of turn is
            # most often the next player, so he is the list's first (and pre-selected) seat
            out_of_turn_seats=[s for s in _after(engine.seats, legal.seat) if engine.can_act_out_of_turn(s, "fold")]
            if legal else [],
            skipped=engine.skipped_ruling if in_play else None,
            # the hands still to be shown or mucked, in the engine's order (TDA-16, TDA-17)
            showdown=[s for s in engine.showdown_order()
                      if not engine.shown[engine.seats.index(s)] and not engine.mucked[engine.seats.index(s)]]
            if engine.phase is Phase.SHOWDOWN else [],
            board_step=("flop", "turn", "river")[min(len(engine.board) - 2, 2) if engine.board else 0]
            if engine.phase is Phase.BOARD else None,
            payouts=engine.payouts, pots=[p.to_dict() for p in engine.pots()],
            # mucked hands the director may rule live where the house follows TDA-14 / TDA-65-B
            recoverable=[s for s in engine.seats if engine.mucked[engine.seats.index(s)]]
            if in_play and engine.rules.mucked_hand_recoverable and engine.phase in (Phase.SHOWDOWN, Phase.AWARD)
            else [],
            # what the engine awards (TDA-15..21: side pots, odd chips), for the dealer to push and confirm
            awards=engine.award_pots().payouts if engine.phase is Phase.AWARD and engine.can_award_pots() else None,
            # the award as the table hears it: who collects what with which hand, and the busts (issue #36)
            results=tablet_cards.hand_results(engine, lambda: tablet_cards.names_by_seat(tournament.pk, hand)),
            # one tap for the folds around to a seat, or a street checked around (each act still its own post)
            fold_to=tablet_shortcuts.fold_to(engine) if legal else [],
            check_around=tablet_shortcuts.may_check_around(engine) if legal else False,
            # the card picker's grid, the cards already face up greyed out
            cards=tablet_cards.card_grid(tablet_cards.cards_face_up(engine)) if in_play else None,
            clock=_clock_view(hand) if in_play else None,
            # issue #38 item 2: the dealing errors the hand can take now, and the next deal's burn when one changed it
            errors=tablet_errors.dealing_errors(engine) if in_play else None,
            time_to_act=acting,
            # CC-133: the players of this hand whose acts out of turn in the event call the floor
            repeated_out_of_turn=_repeated_out_of_turn(tournament, hand, records, state) if in_play else [],
            may_undo=in_play and any(not hand_reads.part_of_the_deal(r, hand) for r in records[-1:]),
            # the last hand's award, until the next deal (C-15), where nobody busted in it (the director's)
            may_undo_award=engine.phase is Phase.COMPLETE and hand.reported_seq is not None
            and all(engine.stacks.values()),
        )
    view["rotation"] = rotation_view(table, tournament, state)
    if not in_play:
        view["race"] = race_due_view(state, table.number, names)
        view["raced"] = last_race_view(state, table.number, hand, names)
    if state.pending_plan is not None:
        plan = state.pending_plan[1]
        view["moves"] = [{"entry": m.entry, "name": names.get(m.entry, ""), "from_table": m.from_table,
                          "from_seat": m.from_seat, "to_table": m.to_table, "to_seat": m.to_seat,
                          "sits_out": m.sits_out}
                         for m in plan.moves if table.number in (m.from_table, m.to_table)]
        view["breaks"] = table.number in plan.broken
        view["redraw"] = plan.redraw  # "redraw" (the last two tables, CC-48) or "final_table" (C-01)
    return view


#: The acts a dealer records out of turn, as the tablet says them (TDA-53-A).
_OOT_ACTS = {"fold": gettext_lazy("fold"), "check": gettext_lazy("check"), "call": gettext_lazy("call"),
             "bet": gettext_lazy("bet"), "raise": gettext_lazy("raise")}


def _out_of_turn_view(pending) -> dict[str, Any] | None:
    """An act out of turn waiting at its seat (TDA-53-A): its act, said, and its amount."""
    if pending is None:
        return None
    return {"act": pending.act, "said": str(_OOT_ACTS[pending.act]), "to": pending.to, "binding": pending.binding}


def _binding_view(engine, seat: int) -> dict[str, Any] | None:
    """What the player in turn's act out of turn, or the director's ruling, leaves him (TDA-53, CC-134, CC-135,
    C-08): the act, whether the action changed, and the clause; None when nothing limits him."""
    status = engine.out_of_turn_status(seat)
    if status is None:
        return None
    return {"clause": status.clause, "changed": status.changed, "every_option": status.acts is None,
            "ruling": status.pending is None, "oot": _out_of_turn_view(status.pending)}


def _repeated_out_of_turn(tournament, hand, records, state) -> list[dict[str, Any]]:
    """CC-133 ("repeated and/or deliberate out-of-turn action is penalised"): the seats of this hand that acted out
    of turn in it and whose acts out of turn in the whole event reach the house's count
    (``HouseOptions.oot_repeats_call_floor``), or as many more after each penalty the floor gave them for it: the
    tablet asks the dealer to call the floor, who rules the penalty as any other (TDA-71, infraction "out_of_turn").
    Counted only when this hand has an act out of turn (one query then)."""
    every = state.setup.options.oot_repeats_call_floor if state.setup is not None else 0
    seats = {r.record["seat"] for r in records if r.record.get("action") == "out-of-turn"}
    if not every or not seats:
        return []
    entries = {seat: hand.entries.get(str(seat)) for seat in seats}
    made = hand_reads.out_of_turn_acts(tournament.pk, {e for e in entries.values() if e is not None})
    called = []
    for seat, entry in sorted(entries.items()):
        penalised = sum(1 for p in state.penalties if p.entry == entry and p.infraction == "out_of_turn")
        if made.get(entry, 0) >= every * (penalised + 1):
            called.append({"seat": seat, "entry": entry, "acts": made[entry]})
    return called


def race_due_view(state, number: int, names: dict[int, str]) -> dict[str, Any] | None:
    """Issue #36: the chip race table ``number`` owes (TDA-24-A, CC-68/69), computed from its stacks: who
    races how many odd chips, for the dealer to run in one tap ("colour-up"); None when it owes none."""
    due = next((d for d in chip_race.races_due(state, timezone.now(), tables=(number,)) if d.table == number), None)
    if due is None:
        return None
    return {"removed": due.removed, "into": due.into, "cards": due.cards,
            "seats": [{"seat": seat, "entry": entry, "name": names.get(entry, ""), "chips": count}
                      for seat, entry, count in due.odd_chips]}


def last_race_view(state, number: int, hand, names: dict[int, str]) -> dict[str, Any] | None:
    """Issue #36: the race just run at table ``number`` (TDA-24-A), until its next hand starts: each seat's
    cards, who wins a chip of ``into`` and who is given the smallest chip, for the dealer to change the
    chips as the record says. The replay keeps each table's last race (``TournamentState.last_races``): read
    from the whole record at each render, it cost a 10,000-entry event's tablets 60 ms a tap (issue #37)."""
    from casino.rules.tournament.record import parse_at

    race = (state.last_races or {}).get(number)
    if race is None or (hand is not None and hand.started_at >= parse_at(race["at"])):
        return None
    seats = {int(entry): int(seat) for seat, entry, _count in race.get("odd_chips") or ()}
    odd = {int(entry): int(count) for _seat, entry, count in race.get("odd_chips") or ()}
    won, rescued = {int(n) for n in race.get("won") or ()}, {int(n) for n in race.get("rescued") or ()}
    return {"removed": race["removed"], "into": race["into"],
            "seats": [{"seat": seats.get(int(entry)), "name": names.get(int(entry), ""), "cards": list(cards),
                       "odd": odd.get(int(entry), 0), "won": int(entry) in won, "rescued": int(entry) in rescued}
                      for entry, cards in race.get("cards") or ()]}


#: CC-72's defects (and THB-21's), as the tablet's form offers them.
DEFECTS = (("duplicate", gettext_lazy("two identical cards")), ("different-backs", gettext_lazy("different backs")),
           ("missing", gettext_lazy("missing cards")), ("extra", gettext_lazy("extra cards")),
           ("damaged", gettext_lazy("damaged cards")), ("marked", gettext_lazy("marked cards")))


def deck_view(table: DealtTable, state, level: dict[str, Any] | None) -> dict[str, Any]:
    """The table's deck (issue #39): the one in play, and whether it must change before the next hand: the
    level or the dealer changed since it went into play, as the house sets (C-17, CC-71, TDA-26), or it is out
    of play (found defective, CC-72). ``due``: ``"level"``, ``"dealer_change"``, ``"out"`` or None."""
    deck = Deck.objects.filter(pk=table.deck_id).first() if table.deck_id else None
    due = None
    if deck is not None and deck.state != Deck.State.IN_PLAY:
        due = "out"
    elif deck is not None and state.setup is not None:
        due = deck_rules.change_due(state.setup.options.deck_change_on, level_in_play=deck.in_play_at.get("level"),
                                    level_now=level["reading"].level_number if level else None,
                                    dealer_in_play=deck.in_play_at.get("dealer"), dealer_now=table.dealer_id)
    return {"deck": deck, "due": due, "defects": DEFECTS}
def rotation_view(table: DealtTable, tournament: Tournament, state) -> dict[str, Any] | None:
    """The dealers' rotation at this table (issue #38 item 5; RP-07): the dealer it puts here now, and the next
    change here (its time and who comes); None when the table is in no rotation."""
    plan = rotation_reads.schedule_at(tournament, timezone.now(), state=state, ahead=1)
    if plan is None or table.number not in plan.current.tables:
        return None
    due = plan.current.tables[table.number]
    coming = plan.ahead[0][1].tables[table.number] if plan.ahead else None
    names = rotation_reads.names_of([due, coming, table.dealer_id])
    on_duty = table.dealer_id
    return {"due": names.get(due, ""), "change_due": due != on_duty, "next_at": plan.next_at,
            "next": names.get(coming, "") if coming is not None else "",
            "on_duty_goes": _where(plan, on_duty) if on_duty is not None else None}


def _where(plan, dealer) -> dict[str, Any] | None:
    """Where and when the dealer goes next: {"at", "table"} (table None: his break)."""
    going = plan.next_for(dealer)
    return None if going is None else {"at": going[0], "table": going[1]}


def handed_over(table: DealtTable, user) -> str | None:
    """The relieved dealer's tablet once the rotation put another dealer at the table (issue #38 item 5): who took
    over and where the dealer goes now or next. None when the table is in no rotation."""
    tournament = Tournament.objects.get(pk=table.tournament_id)
    plan = rotation_reads.schedule_at(tournament, timezone.now(), ahead=4)
    if plan is None or table.number not in plan.current.tables:
        return None
    names = rotation_reads.names_of([table.dealer_id])
    now_at = plan.current.table_of(user.pk)
    return render_to_string("tournaments/_tablet_handed_over.html", {
        "screen_id": SCREEN_ID, "tournament": tournament, "table": table,
        "successor": names.get(table.dealer_id, ""), "now_at": now_at,
        "resting": user.pk in plan.current.resting, "next": _where(plan, user.pk)})


def event_facts(state, number: int) -> tuple:
    """What the tablet of table ``number`` shows of the event besides its own hand: its players, their chips
    and penalties, the clock (its events: a level, a pause, a break, hand-for-hand and its releases), the
    moves the floor's plan makes to or from this table, a halt, the end. A change of the event that leaves these as
    they were (a hand's end at another table) need not redraw this tablet."""
    seats = state.table_in_play(number)
    players = tuple(seats.players) if seats else ()
    plan = state.pending_plan[1] if state.pending_plan is not None else None
    return (
        state.finished, players, tuple(state.entry(entry).stack for _seat, entry in players),
        tuple(state.penalty_hands_left(entry) for _seat, entry in players),
        len(state.clock_events), state.hand_for_hand, number in state.halted,
        None if plan is None else (tuple(m for m in plan.moves if number in (m.from_table, m.to_table)),
                                   number in plan.broken, plan.redraw),
    )


def _clock_view(hand) -> dict[str, Any] | None:
    """The clock called on the player in turn (C-04): its seat, its end (for the tablet's countdown) and
    how many seconds are counted aloud."""
    called = hand.level.get("clock")
    if called is None:
        return None
    ends = datetime.fromisoformat(called["ends_at"])
    return {**called, "ends_ms": round(ends.timestamp() * 1000),
            "left": max(0, round((ends - timezone.now()).total_seconds()))}


def _time_to_act_view(table: DealtTable, hand, engine, records, last: int, state) -> dict[str, Any] | None:
    """The time to act of the seat in turn (CC-114, C-04): its seat, its seconds, its end (for the tablet's
    countdown, drawn by static/js/tablet_clock.js from this instant: no push each second) and the seconds
    left at this render. None while the clock is called on it (its own countdown), or where the house runs
    no base shot clock (TDA-29), or while the director has paused the table."""
    if state.setup is None or table.paused_reason:
        return None
    timed = hand_reads.time_to_act(hand, engine, records, last, state.setup.options)
    if timed is None:
        return None
    return {"seat": timed.seat, "seconds": timed.seconds, "ends_ms": round(timed.ends_at.timestamp() * 1000),
            "left": timed.left(timezone.now())}


def tablet_fragment(table: DealtTable, notice: dict | None = None) -> str:
    return render_to_string(TEMPLATE, tablet_context(table, notice))


NOTICE_SLOT = "<!--tablet-notice-->"


@dataclass(frozen=True)
class MadeFragment:
    """The tablet at one version of its table, in one language: the version it shows (its table's and its
    event's, summed), what it shows of the event, its HTML with the place where a tap's answer puts its
    notice."""

    screen_version: int
    event_facts: tuple
    html: str

    def with_notice(self, notice: dict | None = None) -> str:
        notice_html = render_to_string("tournaments/_tablet_notice.html", {"notice": notice}) if notice else ""
        return mark_safe(self.html.replace(NOTICE_SLOT, notice_html, 1))  # noqa: S308 - both rendered by templates


_MADE: BoundedCache[MadeFragment] = BoundedCache(512)


def _made_key(table: DealtTable, version: int) -> tuple:
    return (*reads.version_key(table, version), translation.get_language())


def render_now(table: DealtTable, version: int | None = None) -> MadeFragment:
    """The tablet as its table and event stand now (or its table at ``version``, where this process's write
    of that version left what it knew), in the active language, kept under the table's version it shows (a
    change of the event at the same table version replaces it)."""
    written = hand_reads.written_at(table, version) if version is not None else None
    if written is not None:
        table = written.table
    else:
        table.refresh_from_db()
    context = tablet_context(table, written=written)
    made = MadeFragment(context["screen_version"], context["event_facts"],
                        render_to_string(TEMPLATE, {**context, "notice_slot": True}))
    return _MADE.put(_made_key(table, table.version), made)


def fragment_at(table: DealtTable, version: int) -> MadeFragment:
    """The tablet at ``version`` of its table (or a later one, which it says), rendered on the first ask in
    this process and language: the tap's answer and the pushes of that version share it. Those asking at the
    same moment wait for the first one's render (an award is rendered once, issue #15)."""
    return _MADE.get_or_make(_made_key(table, version), lambda: render_now(table, version), alone=True)


def table_and_event(tournament_id: int, number: int) -> DealtTable | None:
    """The event's table ``number``, with its event's id and version (the rest is read if asked for); None if
    there is no such table."""
    return (DealtTable.objects.filter(tournament_id=tournament_id, number=number)
            .select_related("tournament").only(*_TABLE_FIELDS, "tournament__version").first())


_TABLE_FIELDS = [f.name for f in DealtTable._meta.concrete_fields]


#: A record of the hand as a sentence for the dealer whose tap came too late (its seat and amount put in).
_RECORD_SAID = {
    "fold": gettext_lazy("Seat %(seat)s folded."), "check": gettext_lazy("Seat %(seat)s checked."),
    "call": gettext_lazy("Seat %(seat)s called."), "bet": gettext_lazy("Seat %(seat)s bet %(to)s."),
    "raise": gettext_lazy("Seat %(seat)s raised to %(to)s."), "all-in": gettext_lazy("Seat %(seat)s went all in."),
    "kill-hand": gettext_lazy("Seat %(seat)s's hand was declared dead."),
    "out-of-turn": gettext_lazy("Seat %(seat)s acted out of turn."),
    "skipped-hand": gettext_lazy("The director ruled on seat %(seat)s's skipped hand."),
    "deal-flop": gettext_lazy("The flop was dealt."), "deal-turn": gettext_lazy("The turn was dealt."),
    "deal-river": gettext_lazy("The river was dealt."), "show": gettext_lazy("Seat %(seat)s showed."),
    "muck": gettext_lazy("Seat %(seat)s mucked."), "award-pots": gettext_lazy("The pots were awarded."),
    "misdeal": gettext_lazy("A misdeal was declared."),
    "defective-deck": gettext_lazy("A defective deck was declared."),
    # issue #38 item 2: the dealing errors
    "premature-board": gettext_lazy("Board cards were dealt too soon (RP-05)."),
    "four-card-flop": gettext_lazy("A four-card flop was recorded (CC-103)."),
    "exposed-in-deal": gettext_lazy("A card exposed in the deal was recorded."),
    "exposed-card": gettext_lazy("Seat %(seat)s's exposed card was recorded."),
    "extra-card": gettext_lazy("An extra card to the first player was recorded."),
    "boxed-cards": gettext_lazy("Face-up cards found in the deck were recorded."),
    "button-short": gettext_lazy("The button's missing card was recorded."),
    "wrong-card-count": gettext_lazy("Seat %(seat)s's wrong card count was recorded."),
    "stub-rebuilt": gettext_lazy("The stub was rebuilt."),
    "burn-error": gettext_lazy("A burn error was recorded."),
}


#: A write at the table that records nothing of a hand, by the name its request is kept under.
_REQUEST_SAID = {
    "pause": gettext_lazy("The director paused play at this table."),
    "resume": gettext_lazy("Play resumed at this table."),
    "assign_dealer": gettext_lazy("Another dealer was put on duty."),
    "hand_over": gettext_lazy("The table was handed over to the next dealer of the rotation."),
    "call_clock": gettext_lazy("The clock was called."),
    "clock_ran_out": gettext_lazy("The clock ran out."),
    "release_board": gettext_lazy("The director released the board."),
    "back_up": gettext_lazy("The director backed the hand up."),
    "skipped_hand": gettext_lazy("The director ruled on the skipped hand."),
    "undo": gettext_lazy("The last action was undone."),
}


_SAID_AT_MOST = 6


def _record_said(record: dict) -> str | None:
    said = _RECORD_SAID.get(record.get("action"))
    if said is None:
        return None
    return str(said) % {"seat": record.get("seat"), "to": chips(record.get("to") or 0)}


def what_changed(table: DealtTable, since: int) -> list[str]:
    """What was recorded at ``table`` after its version ``since``, in the active language, oldest first (the
    last few): the hand's records ("Seat 3 raised to 1,200."), a new hand, the director's steps. For the 409 of
    a tap made on a screen that showed ``since``: the dealer sees what happened instead of a bare refusal."""
    requests = list(TableRequest.objects.filter(table=table, table_version__gt=since)
                    .order_by("-table_version").values_list("action", "hand_id", "at")[:_SAID_AT_MOST])[::-1]
    hands = {hand for _action, hand, _at in requests if hand is not None}
    rows: dict[tuple, list] = {}
    for hand, at, record, undoes in (TableHandAction.objects.filter(hand_id__in=hands, at__in=[r[2] for r in requests])
                                     .order_by("hand_id", "seq").values_list("hand_id", "at", "record", "undoes_id")):
        rows.setdefault((hand, at), []).append((record, undoes))
    numbers = dict(TableHand.objects.filter(pk__in=hands).values_list("pk", "number"))
    said: list[str] = []
    for action, hand, at in requests:
        name = action.split(":", 1)[0]
        if name == "start_hand":
            said.append(_("Hand %(number)s was dealt.") % {"number": numbers.get(hand, "")})
            continue
        if name in _REQUEST_SAID:
            said.append(str(_REQUEST_SAID[name]))
            continue
        recorded = [_record_said(record) for record, undoes in rows.get((hand, at), ()) if undoes is None]
        recorded = [r for r in recorded if r]
        said.extend(recorded or [_("The table changed.")])
    return said[-_SAID_AT_MOST:]


def _after(seats, seat: int) -> list[int]:
    """The seats in the order of play starting with the one after ``seat``."""
    at = list(seats).index(seat) + 1
    return [*seats[at:], *seats[:at]]
