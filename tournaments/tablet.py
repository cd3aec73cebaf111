"""The dealer's tablet at a tournament table (issue #15): the page, its taps and its live fragment.

Every tap is one POST through ``tournaments.dealing`` (the one write path); the socket
(``consumers.DealerTabletConsumer``) only tells the tablet that its table or the event changed, and the
tablet is rendered again from the record. The fragment shows the table as it stands (seats, names,
stacks, button and blinds), the level and the next from the event's clock, the hand in play with what
the player in turn may do (the engine's ``legal()``: the call, the smallest and largest bet or raise),
the dealer's next step (the board, the showdown in the engine's order, the pots), and, before the next
hand, the players the floor's plan moves to or from this table.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.roles import Role
from casino.rules.errors import RuleViolation
from casino.rules.holdem import Phase
from casino.rules.holdem.hand import ENDED
from casino.rules.tournament import clock
from casino.rules.tournament.structure import Structure
from tournaments import dealing, forms, services
from tournaments.forms import BadInput
from tournaments.models import DealtTable, Entry, Tournament
from tournaments.views import _guard, outcome

#: Who opens a tournament table's tablet: its dealers, the floor and the director (and administrators).
TABLET_ROLES = (Role.DEALER, Role.TOURNAMENT_FLOOR, Role.TOURNAMENT_DIRECTOR, Role.ADMINISTRATOR)
SCREEN_ID = "deal-table"
_CARDS = re.compile(r"[\s,]+")


def _level_view(tournament: Tournament, state) -> dict[str, Any] | None:
    setup = state.setup
    if setup is None:
        return None
    structure = Structure.from_dict(setup.structure)
    reading = clock.clock_at(structure, list(state.clock_events), timezone.now(),
                             hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    return {"reading": reading, "level": reading.level, "next": reading.next_level}


def tablet_context(table: DealtTable, user, notice: dict | None = None) -> dict[str, Any]:
    tournament = Tournament.objects.get(pk=table.tournament_id)  # its version now, not when the table was read
    state = services.tournament_state(tournament)
    seats = next((t for t in state.tables if t.table == table.number), None)
    # The names of this table's players only (an event has a thousand entries; a tablet shows nine).
    at_table = [entry for _seat, entry in (seats.players if seats else ())]
    if state.pending_plan is not None:
        at_table += [m.entry for m in state.pending_plan[1].moves]
    names = dict(Entry.objects.filter(tournament=tournament, number__in=at_table).values_list("number",
                                                                                             "player_name"))
    hand = dealing.latest_hand(table)
    records = dealing.effective_rows(hand) if hand is not None else []
    engine = dealing.hand_state(hand, records) if hand is not None else None
    in_play = engine is not None and engine.phase not in ENDED
    where = hand.level["where"] if hand is not None else {}
    rows = []
    for seat, entry in (seats.players if seats else ()):
        row = {"seat": seat, "entry": entry, "name": names.get(entry, ""), "stack": state.entry(entry).stack,
               "button": where.get("button") == seat, "small": where.get("small_blind") == seat,
               "big": where.get("big_blind") == seat, "dealt": False}
        if engine is not None and in_play and seat in engine.setup.stacks:
            p = engine.seats.index(seat)
            row.update(dealt=True, stack=engine.stack[p], bet=engine.bets[p], folded=engine.folded[p],
                       all_in=engine.stack[p] == 0 and not engine.folded[p], to_act=engine.to_act == seat)
        rows.append(row)
    view: dict[str, Any] = {"table": table, "tournament": tournament, "seats": rows, "notice": notice,
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
            clock=_clock_view(hand) if in_play else None,
            may_undo=in_play and any(r.record.get("action") not in dealing.START_KINDS for r in records[-1:]),
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


def _clock_view(hand) -> dict[str, Any] | None:
    """The clock called on the player in turn (C-04): its seat, its end (for the tablet's countdown) and
    how many seconds are counted aloud."""
    called = hand.level.get("clock")
    if called is None:
        return None
    ends = datetime.fromisoformat(called["ends_at"])
    return {**called, "ends_ms": round(ends.timestamp() * 1000),
            "left": max(0, round((ends - timezone.now()).total_seconds()))}


def tablet_fragment(table: DealtTable, user, notice: dict | None = None) -> str:
    return render_to_string("tournaments/_tablet_fragment.html", tablet_context(table, user, notice))


def _table(tournament_id: int, number: int) -> DealtTable:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        return dealing.dealt_table(tournament, number)
    except RuleViolation:
        raise Http404 from None


@role_required(*TABLET_ROLES)
@require_GET
def tablet_page(request, tournament_id: int, table: int):
    dealt = _table(tournament_id, table)
    fragment = tablet_fragment(dealt, request.user)
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
    if action in ("fold", "check", "call", "all-in"):
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
    dealt = _table(tournament_id, table)
    post = request.POST

    def run():
        version, key = _guard(post)
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

    status, notice, _result = outcome(run)
    dealt.refresh_from_db()
    if request.htmx:
        response = HttpResponse(tablet_fragment(dealt, request.user, notice), status=status)
        if status in (403, 422):
            response["X-Rule-Refusal"] = "1"  # live.js: a refusal by the rules is not a logout
        return response
    if notice:
        messages.add_message(request, messages.INFO if status == 200 else messages.ERROR, notice["text"])
    return redirect(reverse("tournaments:tablet", args=[tournament_id, table]))
