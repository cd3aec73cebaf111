"""The dealer's tablet at a tournament table (issue #15): the page, its taps and its live fragment.

Every tap is one POST through ``tournaments.dealing`` (the one write path); the socket
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

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino import reads
from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.memo import BoundedCache
from casino.refusals import mark_refusal
from casino.roles import Role, has_role
from casino.rules.errors import RuleViolation
from casino.rules.holdem import Phase
from casino.rules.holdem.hand import ENDED
from casino.rules.tournament import clock
from casino.rules.tournament.structure import Structure
from tournaments import dealing, forms, screens, services, tablet_cards, tablet_shortcuts
from tournaments.models import DealtTable, TableHand, TableHandAction, TableRequest, Tournament
from tournaments.views import outcome

#: Who opens a tournament table's tablet: its dealers, the floor and the director (and administrators).
TABLET_ROLES = (Role.DEALER, Role.TOURNAMENT_FLOOR, Role.TOURNAMENT_DIRECTOR, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
SCREEN_ID = "deal-table"
TEMPLATE = "tournaments/_tablet_fragment.html"
_CARDS = re.compile(r"[\s,]+")


def may_open(user, table: DealtTable) -> bool:
    """Who opens a tournament table's tablet: its dealer on duty, the floor and the director."""
    return has_role(user, *TABLET_ROLES) and dealing.may_deal_at(user, table)


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
                   written: dealing.KnownAtCommit | None = None) -> dict[str, Any]:
    """What the tablet shows: the same for every viewer who may open it (its dealer on duty, the floor, the
    director), so that one render per version serves them all (``fragment_at``). ``written``: what this
    process's write of that version knew (its hand, rows and engine state), instead of reading them again."""
    # its version now, not when the table was read; the tablet shows only its name (the rest of the event is
    # the replay's): not its structure, payouts and options, decoded from JSON at every tap's render
    tournament = _event_name_and_version(table.tournament_id)
    state = services.tournament_state(tournament)
    seats = state.table_in_play(table.number)
    # The names of this table's players only (an event has a thousand entries; a tablet shows nine).
    at_table = [entry for _seat, entry in (seats.players if seats else ())]
    if state.pending_plan is not None:
        at_table += [m.entry for m in state.pending_plan[1].moves]
    names = {number: name for number, (_pk, name) in screens.entries_by_number(tournament.pk, at_table).items()}
    if written is not None:
        hand, records, engine = written.hand, list(written.rows), written.engine
    else:
        hand = dealing.latest_hand(table)
        engine, records, _last = dealing.replayed(hand) if hand is not None else (None, [], 0)
    in_play = engine is not None and engine.phase not in ENDED
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
            row.update(dealt=True, stack=engine.stack[p], bet=engine.bets[p], folded=engine.folded[p],
                       all_in=engine.stack[p] == 0 and not engine.folded[p], to_act=engine.to_act == seat,
                       # an absent player's hand, killed at the end of the deal (TDA-30, CC-29)
                       dead=seat in dead, penalised=seat in penalised, may_kill=engine.can_kill_hand(seat))
        rows.append(row)
    view: dict[str, Any] = {"table": table, "tournament": tournament, "seats": rows, "notice": notice,
                            "event_facts": event_facts(state, table.number),
                            # The tablet follows two aggregates (its table and the event): the sum of their
                            # versions grows with either, so live.js orders its pushes by it.
                            "screen_version": table.version + tournament.version,
                            "hand": hand, "in_play": in_play, "level": _level_view(tournament, state)}
    if engine is not None:
        legal = engine.legal() if in_play else None
        view.update(
            phase=engine.phase.value, street=engine.street.value, pot=engine.pot_total,
            board=[str(c) if c is not None else "?" for c in engine.board], legal=legal,
            opens=engine.current_bet == 0 if legal else False,
            # all-in is offered only where the engine takes it (not when the betting is not reopened, TDA-47)
            may_all_in=engine.can_all_in(legal.seat) if legal else False,
            to_act_name=names.get(hand.entries.get(str(legal.seat)), "") if legal else "",
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
            may_undo=in_play and any(not dealing.part_of_the_deal(r, hand) for r in records[-1:]),
            # the last hand's award, until the next deal (C-15), where nobody busted in it (the director's)
            may_undo_award=engine.phase is Phase.COMPLETE and hand.reported_seq is not None
            and all(engine.stacks.values()),
        )
    if state.pending_plan is not None:
        plan = state.pending_plan[1]
        view["moves"] = [{"entry": m.entry, "name": names.get(m.entry, ""), "from_table": m.from_table,
                          "from_seat": m.from_seat, "to_table": m.to_table, "to_seat": m.to_seat,
                          "sits_out": m.sits_out}
                         for m in plan.moves if table.number in (m.from_table, m.to_table)]
        view["breaks"] = table.number in plan.broken
        view["redraw"] = plan.redraw  # "redraw" (the last two tables, CC-48) or "final_table" (C-01)
    return view


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


def tablet_fragment(table: DealtTable, notice: dict | None = None) -> str:
    return render_to_string(TEMPLATE, tablet_context(table, notice))


# --- One render per version ------------------------------------------------------------------------------

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
    written = dealing.written_at(table, version) if version is not None else None
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


def _table_and_event(tournament_id: int, number: int) -> DealtTable | None:
    """The event's table ``number``, with its event's id and version (the rest is read if asked for); None if
    there is no such table."""
    return (DealtTable.objects.filter(tournament_id=tournament_id, number=number)
            .select_related("tournament").only(*_TABLE_FIELDS, "tournament__version").first())


_TABLE_FIELDS = [f.name for f in DealtTable._meta.concrete_fields]


# --- What changed since the version a stale tap was made on ---------------------------------------------

#: A record of the hand as a sentence for the dealer whose tap came too late (its seat and amount put in).
_RECORD_SAID = {
    "fold": gettext_lazy("Seat %(seat)s folded."), "check": gettext_lazy("Seat %(seat)s checked."),
    "call": gettext_lazy("Seat %(seat)s called."), "bet": gettext_lazy("Seat %(seat)s bet %(to)s."),
    "raise": gettext_lazy("Seat %(seat)s raised to %(to)s."), "all-in": gettext_lazy("Seat %(seat)s went all in."),
    "kill-hand": gettext_lazy("Seat %(seat)s's hand was declared dead."),
    "deal-flop": gettext_lazy("The flop was dealt."), "deal-turn": gettext_lazy("The turn was dealt."),
    "deal-river": gettext_lazy("The river was dealt."), "show": gettext_lazy("Seat %(seat)s showed."),
    "muck": gettext_lazy("Seat %(seat)s mucked."), "award-pots": gettext_lazy("The pots were awarded."),
    "misdeal": gettext_lazy("A misdeal was declared."),
    "defective-deck": gettext_lazy("A defective deck was declared."),
}
#: A write at the table that records nothing of a hand, by the name its request is kept under.
_REQUEST_SAID = {
    "pause": gettext_lazy("The director paused play at this table."),
    "resume": gettext_lazy("Play resumed at this table."),
    "assign_dealer": gettext_lazy("Another dealer was put on duty."),
    "call_clock": gettext_lazy("The clock was called."),
    "clock_ran_out": gettext_lazy("The clock ran out."),
    "release_board": gettext_lazy("The director released the board."),
    "back_up": gettext_lazy("The director backed the hand up."),
    "undo": gettext_lazy("The last action was undone."),
}
_SAID_AT_MOST = 6


def _record_said(record: dict) -> str | None:
    from tournaments.templatetags.tournament_display import chips

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


def _table(request, tournament_id: int, number: int) -> DealtTable:
    """The table whose tablet is asked for; 404 when it is not in play, 403 for a dealer not on duty there."""
    # numbers a table or an event can have (the URL takes any digits; the database would refuse some)
    table = _table_and_event(tournament_id, number) if 0 < number < 2**15 and 0 < tournament_id < 2**63 else None
    tournament = table.tournament if table is not None else get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.tournament_state(tournament).table(number)  # in play (TDA-07); read once per event version
        if table is None:
            table = dealing.dealt_table(tournament, number)
    except RuleViolation:
        raise Http404 from None
    if not may_open(request.user, table):
        raise PermissionDenied
    return table


@role_required(*TABLET_ROLES)
@require_GET
def tablet_page(request, tournament_id: int, table: int):
    dealt = _table(request, tournament_id, table)
    fragment = tablet_fragment(dealt)
    return render(request, "tournaments/tablet.html", {"table": dealt, "fragment": fragment})


def _cards(text: str, count: int | None = None) -> list[str]:
    cards = [c for c in _CARDS.split((text or "").strip()) if c]
    if count is not None and len(cards) != count:
        raise BadInput(_("Enter %(count)s cards, such as 2c 7d 9h.") % {"count": count})
    return cards


def _seat(post) -> int:
    return forms.whole(post.get("seat"), _("The seat"), low=1, high=10)


def _record(action: str, post) -> dict[str, Any]:
    """The engine's record of a tap (``casino.rules.holdem.actions``), from the form's fields."""
    if action in ("fold", "check", "call", "all-in", "kill-hand"):
        return {"action": action, "seat": _seat(post)}
    if action in ("bet", "raise"):
        return {"action": action, "seat": _seat(post), "to": forms.whole(post.get("to"), _("The amount"), low=1,
                                                                         high=10**12)}
    if action == "flop":
        return {"action": "deal-flop", "cards": _cards(post.get("cards"), 3)}
    if action in ("turn", "river"):
        return {"action": f"deal-{action}", "card": _cards(post.get("cards"), 1)[0]}
    if action == "show":
        return {"action": "show", "seat": _seat(post), "cards": _cards(post.get("cards"), 2)}
    if action in ("muck", "award-pots", "misdeal"):
        return {"action": action, **({"seat": _seat(post)} if action == "muck" else {})}
    raise Http404


@role_required(*TABLET_ROLES)
@require_POST
def tablet_act(request, tournament_id: int, table: int, action: str):
    """One tap on the tablet: one call to ``tournaments.dealing``."""
    dealt = _table(request, tournament_id, table)
    post = request.POST

    def run():
        version, key = version_and_key(post)
        common = {"table": dealt, "by": request.user, "key": key, "expected_version": version}
        if action == "new-hand":
            return dealing.start_hand(**common)
        if action == "undo":
            return dealing.undo_last(**common, reason=post.get("reason", ""))
        if action == "call-clock":
            return dealing.call_clock(**common)
        if action == "clock-ran-out":
            return dealing.clock_ran_out(**common)
        return dealing.act(**common, record=_record(action, post))

    status, notice, result = outcome(run)
    if status == 409 and notice is not None and notice.get("level") == "stale":
        # a stale tap: say what was recorded since the version its screen showed (issue #35)
        changes = what_changed(dealt, forms.whole(post.get("version"), _("The screen's version"), low=0, high=2**62))
        if changes:
            notice = {**notice, "text": " ".join([_("Since your screen:"), *changes, _("Check and try again.")])}
    if request.htmx:
        if status == 200 and result is not None:
            # the version this tap made, rendered on the first ask: its push asks the same (a retry's answer
            # shows the table as it stands)
            version = result.version if not result.duplicate else DealtTable.objects.values_list(
                "version", flat=True).get(pk=dealt.pk)
            html = fragment_at(dealt, version).with_notice(notice)
        else:
            dealt.refresh_from_db()
            html = tablet_fragment(dealt, notice)
        return mark_refusal(HttpResponse(html, status=status), status, notice)
    if notice:
        messages.add_message(request, messages.INFO if status == 200 else messages.ERROR, notice["text"])
    return redirect(reverse("tournaments:tablet", args=[tournament_id, table]))
