"""The console's actions over HTTP (issue #14): one POST, one command (``ACTIONS``), and the list of events.

As the pit's tablet (tables.views): every POST carries the ``version`` the screen showed and a fresh
idempotency ``key`` and makes exactly one service call (``tournaments.services``, through
``casino.writes.write``). What can go wrong is said plainly, never as a 500:

* the event moved on (``StaleVersion``): 409 and what its record got since the page's version
  (``rendering.console.what_changed``: "Since your screen: Entry 7 busted at table 2. …"), else "The event
  changed: refreshing";
* the key was used already for another action (``KeyUsedElsewhere``): 409 and "This request was already
  used for something else"; nothing was applied;
* the rules refuse (``RuleViolation``): 422 and the clause's sentence in the viewer's language;
  nothing was recorded;
* bad input (not a number, no such seat, a structure line that is not a level): 400 and what was wrong;
* wrong role (``role_required``) or the service's own refusal (``NotAllowed``): 403.

The console's live part answers htmx with its fresh fragment; the other pages (setup, registration, a
table's page, an entry's page) answer a refusal with the page again, the typed values kept and the
reason shown, and a success by going back to the page (post/redirect/get).

Who may do what: the event's own director (the games director and administrators at any event)
everything; the floor staff the table actions only; a director of another event nothing but looking
(``tournaments.access.may_direct`` / ``may_work_floor``, asking ``tournaments.access``: docs/roles.md,
"Who directs an event"). The setup is never shown to the floor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.refusals import mark_refusal
from casino.rules.errors import RuleViolation
from casino.rules.holdem.actions import SKIPPED_HAND_RULINGS
from casino.rules.tournament.eligibility import ID_TYPES
from casino.rules.tournament.penalties import INFRACTIONS, PENALTY_KINDS
from casino.writes import asking
from tournaments import access, forms, services
from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import console
from tournaments.rendering import tablet as tablet_screen
from tournaments.services import dealing, rotation
from tournaments.services import flights as flight_services
from tournaments.views import desk
from tournaments.views import flights as flight_forms
from tournaments.views.common import (
    FLOOR,
    call_service,
    changed_since_the_page,
    entry_or_404,
    may_act,
    outcome,
    page_context,
)


@role_required(*FLOOR)
@require_GET
def director_home(request):
    """Every tournament, newest first, with a link to its console (and, for directors, a new one)."""
    tournaments = Tournament.objects.select_related("director").order_by("-starts_at")
    return render(request, "tournaments/console_list.html", {
        "tournaments": tournaments, "may_direct": access.may_direct(request.user)})


@role_required(*FLOOR)
@require_GET
def console_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fragment = console.console_fragment(tournament, request.user)
    if request.htmx:
        return HttpResponse(fragment)
    return render(request, "tournaments/console.html", {**page_context(request, tournament, "console"),
                                                        "fragment": fragment})


@dataclass(frozen=True)
class Action:
    """One console action: the command it calls (of ``tournaments.services``, or at one dealt table of
    ``tournaments.services.dealing``), how its form becomes that call's arguments, who may do it, and which
    page it goes back to."""

    command: Callable
    parse: Callable[[object, Tournament], dict]
    who: str = "director"  # or "floor", "overseer": ``common.may_act``
    page: str = "console"  # console, registration, table, entry, setup, record


def _no_fields(post, tournament) -> dict:
    return {}


def _clock(kind: str) -> Callable:
    def parse(post, tournament) -> dict:
        if kind == "adjust":
            raw = (post.get("seconds") or "").strip().replace("−", "-").lstrip("+")
            return {"kind": "adjust", "seconds": forms.whole(raw, _("The seconds"), low=-24 * 3600, high=24 * 3600)}
        if kind == "skip":
            # The director counts steps from 1; the clock's steps are indexed from 0.
            return {"kind": "skip", "step": forms.whole(post.get("step"), _("The step"), low=1, high=500) - 1}
        if kind == "hand-for-hand":
            return {"kind": "hand_for_hand_on" if post.get("on") == "1" else "hand_for_hand_off"}
        return {"kind": kind}
    return parse


def _table_number(post) -> int:
    return forms.whole(post.get("table"), _("The table"), low=1, high=10_000)


def _entry_number(post, what=None) -> int:
    return forms.whole(post.get("entry"), what or _("The entry number"), low=1, high=10**7)


def _bust(post, tournament) -> dict:
    """One or more busts in one hand at one table: the seats ticked, and (CC-19) each one's stack at the
    start of the hand when several bust together."""
    table = _table_number(post)
    seats = sorted({forms.whole(s, _("The seat"), low=1, high=10) for s in post.getlist("seats") if str(s).strip()})
    if not seats:
        raise BadInput(_("Tick the seat of the player who busted."))
    stacks = None
    if len(seats) > 1:
        stacks = {seat: forms.whole(post.get(f"stack_{seat}"),
                                    _("The stack at the start of the hand of seat %(seat)d") % {"seat": seat}, low=1)
                  for seat in seats}
    return {"table": table, "seats": seats, "stacks_at_start": stacks}


def _leaving(how: str) -> Callable:
    def parse(post, tournament) -> dict:
        kwargs = {"entry": _entry_number(post)}
        if how == "disqualification":
            kwargs["reason"] = forms.reason(post)
        else:
            kwargs["reason"] = forms.text(post, "reason", _("The reason"))
        return kwargs
    return parse


def _penalty(post, tournament) -> dict:
    """TDA-71-A, CC-46: a warning, or a suspension of so many hands or rounds, for one infraction."""
    kind = forms.a_choice(post.get("kind", ""), PENALTY_KINDS, _("the penalty"))
    count = 0 if kind == "warning" else forms.whole(post.get("count"), _("The number of hands or rounds"),
                                                    low=1, high=200)
    return {"entry": _entry_number(post), "kind": kind, "count": count,
            "infraction": forms.a_choice(post.get("infraction", ""), INFRACTIONS, _("the infraction")),
            "reason": forms.text(post, "reason", _("The reason"))}


def _end_penalty(post, tournament) -> dict:
    return {"entry": _entry_number(post), "reason": forms.reason(post)}


def _chip_counts(post, tournament) -> dict:
    """``chips_<entry>`` for each player of one table; an empty field is a stack not counted."""
    counts = {}
    for name, value in post.items():
        if name.startswith("chips_") and str(value).strip():
            entry = forms.whole(name.removeprefix("chips_"), _("The entry number"), low=1)
            counts[entry] = forms.whole(value, _("The chips of entry %(entry)d") % {"entry": entry}, low=0)
    if not counts:
        raise BadInput(_("Enter at least one player's chips."))
    return {"counts": counts}


def _button(post, tournament) -> dict:
    return {"table": _table_number(post), "seat": forms.whole(post.get("seat"), _("The button's seat"), low=1, high=10)}


def _colour_up(post, tournament) -> dict:
    """TDA-24: the odd chips of the denomination leaving, per seat of one table (``odd_<seat>``); the race
    is won in the next denomination up, and a player left with nothing gets the smallest one left."""
    structure = event_reads.board_at(tournament).structure
    denominations = tuple(structure.denominations) if structure else ()
    removed = forms.whole(post.get("denomination"), _("The denomination"), low=1)
    if removed not in denominations:
        raise BadInput(_("%(chip)d is not a denomination of this event.") % {"chip": removed})
    higher = [d for d in denominations if d > removed]
    if not higher:
        raise BadInput(_("The largest denomination cannot be coloured up."))
    odd = {}
    for name, value in post.items():
        if name.startswith("odd_") and str(value).strip():
            seat = forms.whole(name.removeprefix("odd_"), _("The seat"), low=1, high=10)
            chips = forms.whole(value, _("The odd chips of seat %(seat)d") % {"seat": seat}, low=0, high=1000)
            if chips:
                odd[seat] = chips
    return {"table": _table_number(post), "removed": removed, "into": higher[0], "smallest_left": higher[0],
            "odd_chips": odd}


def _document(post) -> dict:
    """The ID document shown at a checkpoint (accreditation CC-42, payout CC-15): it must be the entry's."""
    return {"id_type": forms.a_choice(post.get("id_type", ""), ID_TYPES, _("the ID document")),
            "id_number": forms.text(post, "id_number", _("The ID number"), required=True, limit=40)}


def _accredit(post, tournament) -> dict:
    return {"entry": _entry_number(post), **_document(post)}


def _pay(post, tournament) -> dict:
    return {"entry": _entry_number(post), **_document(post)}


def _correct(post, tournament) -> dict:
    return {"seq": forms.whole(post.get("seq"), _("The record line"), low=1), "reason": forms.reason(post)}


def _confirm_plan(post, tournament) -> dict:
    return {"proposed": forms.whole(post.get("proposed"), _("The plan shown"), low=1)}


def _reseat(post, tournament) -> dict:
    """TDA-07 (a wrong seat corrected) and TDA-09/CC-49 (the director's override), with a reason."""
    return {"entry": _entry_number(post), "table": _table_number(post),
            "seat": forms.whole(post.get("seat"), _("The seat"), low=1, high=10), "reason": forms.reason(post)}


def _hold(post, tournament) -> dict:
    return {"entry": _entry_number(post), "held": post.get("held", "1") == "1"}


def _absent(post, tournament) -> dict:
    """CC-30: the entries still absent at the end of the first level, typed as their numbers."""
    absent = list(forms.numbers(post.get("absent", ""), _("An absent entry's number")))
    if not absent:
        raise BadInput(_("Type the numbers of the absent entries."))
    return {"absent": absent}


def _draw(post, tournament) -> dict:
    """RP-14: the error the draw settles and its choices, one a line (or separated by commas on one line)."""
    typed = forms.text(post, "choices", _("The choices"), required=True, limit=2000)
    lines = [line for line in typed.splitlines() if line.strip()]
    choices = lines if len(lines) > 1 else typed.split(",")
    return {"reason": forms.reason(post), "choices": [c.strip() for c in choices]}


def _rotation(post, tournament) -> dict:
    """Issue #38 item 5 (RP-07): the dealers ticked (in the list's order), the tables typed in their order, the
    down in minutes."""
    dealers = [forms.whole(raw, _("The dealer"), low=1, high=2**62) for raw in post.getlist("dealers")]
    if not dealers:
        raise BadInput(_("Tick the dealers of the rotation."))
    tables = list(forms.numbers(post.get("tables", ""), _("A table's number"), high=10_000))
    if not tables:
        raise BadInput(_("Type the tables of the rotation, in their order."))
    return {"dealers": dealers, "tables": tables,
            "down_minutes": forms.whole(post.get("down_minutes"), _("The down"), low=1, high=240)}


ACTIONS: dict[str, Action] = {
    "open-registration": Action(services.open_registration, _no_fields),
    "close-registration": Action(services.close_registration, _no_fields),
    "start": Action(services.start_tournament, _no_fields),
    "clock-start": Action(services.clock_command, _clock("start")),
    "clock-pause": Action(services.clock_command, _clock("pause")),
    "clock-resume": Action(services.clock_command, _clock("resume")),
    "clock-adjust": Action(services.clock_command, _clock("adjust")),
    "clock-skip": Action(services.clock_command, _clock("skip")),
    "hand-for-hand": Action(services.clock_command, _clock("hand-for-hand")),
    # CC-11, RP-08: the director releases the next hand-for-hand deal at every table at once
    "hand-for-hand-deal": Action(services.clock_command, _clock("hand_for_hand_hand")),
    # RP-08-F: and the board of an all-in called at one table (a write on that table: see act)
    "release-board": Action(dealing.release_board, lambda post, tournament: {"table": _table_number(post)}),
    # TDA-53-B: the director rules on a hand skipped by out-of-turn action that substantial action followed
    "rule-skipped-hand": Action(dealing.rule_skipped_hand, lambda post, tournament: {"table": _table_number(post)}),
    # TDA-01: the director stops play at one table, with his reason, and lets it go on
    "pause-table": Action(dealing.pause_table, lambda post, tournament: {"table": _table_number(post)}),
    "resume-table": Action(dealing.resume_table, lambda post, tournament: {"table": _table_number(post)}),
    # C-04: the director (or the floor) calls the clock on the player in turn at a dealt table
    "call-clock": Action(dealing.call_clock, lambda post, tournament: {"table": _table_number(post)}, "floor"),
    # the floor puts a dealer on duty at a table (only that dealer deals there) or takes them off
    "assign-dealer": Action(dealing.assign_dealer, lambda post, tournament: {"table": _table_number(post)}, "floor"),
    # issue #38 item 5, RP-07: the dealers' rotation, set and stopped by the floor, its due changes made between hands
    "set-rotation": Action(rotation.set_rotation, _rotation, "floor"),
    "follow-rotation": Action(rotation.follow_due, _no_fields, "floor"),
    "stop-rotation": Action(rotation.stop_rotation, _no_fields, "floor"),
    # TDA-01: the director (or the floor for him) rules the hand in play back to before one of its actions
    "back-up-hand": Action(dealing.back_up_hand, lambda post, tournament: {"table": _table_number(post)}, "floor",
                           "table"),
    "results": Action(services.record_results, _no_fields),
    "confirm-plan": Action(services.confirm_plan, _confirm_plan, "floor"),
    "bust": Action(services.record_bust, _bust, "floor", "table"),
    "withdrawal": Action(services.withdraw, _leaving("withdrawal"), "director", "table"),
    "disqualify": Action(services.disqualify, _leaving("disqualification"), "director", "table"),
    # TDA-71, CC-45/46: the director or a floor supervisor penalises; a suspension is served at the tablets
    "penalty": Action(services.give_penalty, _penalty, "floor", "table"),
    "end-penalty": Action(services.end_penalty, _end_penalty, "floor", "table"),
    "chip-counts": Action(services.enter_chip_count, _chip_counts, "floor", "table"),
    "button": Action(services.set_button, _button, "floor", "table"),
    "colour-up": Action(services.colour_up, _colour_up, "floor", "table"),
    # issue #36: the race computed from the stacks, confirmed per table in one tap (TDA-24-A)
    "race-odd-chips": Action(services.race_odd_chips, lambda post, tournament: {"table": _table_number(post)}, "floor"),
    "seat": Action(services.correct_seat, _reseat, "floor", "table"),  # the director's is override_seat (see act)
    "accredit": Action(services.accredit, _accredit, "floor", "entry"),
    "hold-stack": Action(services.hold_stack, _hold, "director", "entry"),
    "remove-absent": Action(services.remove_absent_stacks, _absent),
    "pay": Action(services.pay_prize, _pay, "director", "entry"),
    "correct": Action(services.correct, _correct, "floor", "record"),
    # the director ends an entry's player links (a lost receipt) and, with reissue, prints a new one
    "revoke-links": Action(services.revoke_player_links, lambda post, tournament: {"entry": _entry_number(post)},
                           "director", "entry"),
    "reissue-link": Action(services.revoke_player_links,
                           lambda post, tournament: {"entry": _entry_number(post), "reissue": True}, "director",
                           "entry"),
    # RP-14: the director draws at random for an error the rules do not cover; the seed goes in the record
    "random-draw": Action(services.random_draw, _draw),
    # the qualifying series, the day's end with bagged counts, the Final Stage (CC-05..CC-10; views/flights.py)
    "series-set": Action(flight_services.set_series, flight_forms.parse_set_series, "director", "flights"),
    "series-change": Action(flight_services.change_series, flight_forms.parse_change_series, "director", "flights"),
    "series-draw": Action(flight_services.draw_series, _no_fields, "director", "flights"),
    "series-choose": Action(flight_services.choose_series, flight_forms.parse_choose_series, "floor", "flights"),
    "series-start": Action(flight_services.start_series, flight_forms.parse_series, "director", "flights"),
    "day-end": Action(flight_services.end_day, flight_forms.parse_end_day, "floor", "flights"),
    "final-stage": Action(flight_services.start_final_stage, flight_forms.parse_final_stage, "director", "flights"),
    "check-in": Action(flight_services.check_in, flight_forms.parse_check_in, "floor", "flights"),
    # the games director (or an administrator) assigns the event to a tournament director
    "assign-director": Action(services.assign_director, lambda post, tournament: {"director": _director(post)},
                              "overseer",
                              "setup"),
}


def _director(post):
    """The tournament director chosen (``services.assign_director`` refuses anyone who is not one)."""
    from django.contrib.auth import get_user_model

    pk = forms.whole(post.get("director"), _("The director"), low=1, high=2**62)
    director = get_user_model().objects.filter(pk=pk).first()
    if director is None:
        raise BadInput(_("Choose one of the casino's tournament directors."))
    return director


def _back(tournament, action: Action, post) -> str:
    """The page an action goes back to (its table's or entry's page when the form named one)."""
    # the number is read as the action read it: "²" passes isdigit() but not int(), and a refused one goes
    # back to the console (issue #34)
    if action.page == "table" and (table := _number_or_none(_table_number, post)) is not None:
        return reverse("tournaments:table", args=[tournament.pk, table])
    if action.page == "entry" and (entry := _number_or_none(_entry_number, post)) is not None:
        return reverse("tournaments:entry", args=[tournament.pk, entry])
    if action.page == "record":
        return reverse("tournaments:record", args=[tournament.pk])
    if action.page == "setup":
        return reverse("tournaments:setup", args=[tournament.pk])
    if action.page == "flights":
        return reverse("tournaments:flights", args=[tournament.pk])
    return reverse("tournaments:console", args=[tournament.pk])


def _number_or_none(read: Callable, post) -> int | None:
    try:
        return read(post)
    except BadInput:
        return None


def record_busts(tournament: Tournament, user, post, *, table: int, seats: list[int],
                 stacks_at_start: dict[int, int] | None):
    """One bust is one service call. Several in one hand at one table (CC-19) are one call each, in one
    transaction: all are recorded or none. The floor does not count hands in part 1, so such a hand is
    named by the record line its first bust will take (unique in the event, and the same for each of
    them: the ranking reads them as one hand and orders them by their stacks at its start)."""
    if len(seats) == 1:
        return call_service(services.record_bust, tournament, user, post, {"table": table, "seat": seats[0]})
    version, key = version_and_key(post)
    hand = event_reads.tournament_state(tournament).last_seq + 1
    result = None
    # each bust kept with the whole form (its hand is the record's line at the time: not in it, for a retry)
    with transaction.atomic(), asking({"service": "record_bust", "table": table, "seats": seats,
                                       "stacks_at_start": stacks_at_start}):
        for i, seat in enumerate(seats):
            result = services.record_bust(tournament=tournament, by=user, key=bust_key(key, i),
                                          expected_version=version + i, table=table, seat=seat, hand=hand,
                                          stack_at_start=stacks_at_start[seat])
    return result


def bust_key(key: str, i: int) -> str:
    """The key of the ``i``-th bust of a several-bust form: its own for each bust, the same at every retry of
    the form. Cut to the 100 characters a key may have, ``key:i`` was the same key for every bust of a long
    one, and the second bust was answered as the first's duplicate (issue #34): a key too long for its suffix
    is replaced by its digest."""
    derived = f"{key}:{i}"
    if len(derived) <= 100:
        return derived
    return f"{hashlib.sha256(key.encode()).hexdigest()}:{i}"


def _at_dealt_table(command: Callable, tournament: Tournament, user, post, number: int):
    """The director's word at one dealt table from the console (RP-08-F's board, TDA-01's pause, the dealer
    on duty): a write
    on that table's own aggregate, at the version it has now (the console shows the event's version, not
    each table's; the director's word is for the table as it stands)."""
    _version, key = version_and_key(post)
    try:
        table = hand_reads.dealt_table(tournament, number)
    except RuleViolation:
        raise BadInput(_("There is no such table in play.")) from None
    common = {"table": table, "by": user, "key": key, "expected_version": table.version}
    if command is dealing.pause_table:
        return command(**common, reason=post.get("reason", ""))
    if command is dealing.assign_dealer:
        return command(**common, dealer=_dealer(post))
    if command is dealing.rule_skipped_hand:
        return command(**common, seat=forms.whole(post.get("seat"), _("The seat"), low=1, high=10),
                       ruling=forms.a_choice(post.get("ruling", ""), SKIPPED_HAND_RULINGS, _("the ruling")))
    if command is dealing.back_up_hand:
        # the ruling is on the hand as the page showed it: a tap since then makes it a stale version (409)
        shown = forms.whole(post.get("table_version"), _("The table's version"), low=0, high=2**62)
        return command(**{**common, "expected_version": shown},
                       to_seq=forms.whole(post.get("seq"), _("The action"), low=1, high=10_000),
                       reason=forms.reason(post))
    return command(**common)


def _table_changed(tournament: Tournament, post) -> Callable[[], list[str]]:
    """What was recorded at the dealt table since the version the page showed of it, for a word at that table
    refused as stale (a ruling on its hand names that version; the other words take the table as it stands)."""
    def changed() -> list[str]:
        try:
            since = forms.whole(post.get("table_version"), _("The table's version"), low=0, high=2**62)
            table = hand_reads.dealt_table(tournament, _table_number(post))
        except (BadInput, RuleViolation):
            return []
        return tablet_screen.what_changed(table, since)
    return changed


def _dealer(post):
    """The person the floor chose (None: nobody on duty); ``services.dealing.assign_dealer`` refuses anyone who is
    not one of the casino's active dealers."""
    chosen = (post.get("dealer") or "").strip()
    if not chosen:
        return None
    pk = forms.whole(chosen, _("The dealer"), low=1, high=2**62)
    dealer = get_user_model().objects.filter(pk=pk).first()
    if dealer is None:
        raise BadInput(_("Choose one of the casino's active dealers."))
    return dealer


@role_required(*FLOOR)
@require_POST
def act(request, tournament_id: int, action: str):
    """One tap on the console or a floor page: one service call."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    spec = ACTIONS.get(action)
    if spec is None:
        raise Http404
    if not may_act(request.user, tournament, spec.who):
        raise PermissionDenied
    post = request.POST

    def run():
        kwargs = spec.parse(post, tournament)
        if spec.command.__module__ == dealing.__name__:
            return _at_dealt_table(spec.command, tournament, request.user, post, kwargs["table"])
        if spec.command is services.record_bust:
            return record_busts(tournament, request.user, post, **kwargs)
        command = spec.command
        if command is services.correct_seat and access.may_direct(request.user, tournament):
            command = services.override_seat  # TDA-09, CC-49: the director's override (the floor corrects, TDA-07)
        return call_service(command, tournament, request.user, post, kwargs)

    changed = (_table_changed(tournament, post) if spec.command.__module__ == dealing.__name__
               else changed_since_the_page(tournament, post))
    status, notice, result = outcome(run, changed)
    tournament.refresh_from_db()
    if action == "reissue-link" and status == 200 and getattr(result, "link", None) is not None:
        entry = entry_or_404(tournament, _entry_number(post))
        messages.success(request, _("The entry's old links no longer work: print this one."))
        return redirect(reverse("tournaments:receipt", args=[tournament.pk, entry.pk, "accreditation"])
                        + f"?link={result.link}")
    if request.htmx and spec.page == "console":
        return mark_refusal(HttpResponse(console.console_fragment(tournament, request.user, notice), status=status),
                            status, notice)
    if notice:
        messages.add_message(request, messages.INFO if status == 200 else messages.ERROR, notice["text"])
    elif status == 200:
        # an accreditation names who was accredited (a bare "Recorded." left the desk guessing)
        messages.success(request, desk.accredited_message(tournament, _entry_number(post)) if action == "accredit"
                         else _("Recorded."))
    response = redirect(desk.back_to_the_desk(tournament, post) if desk.from_the_desk(post)
                        else _back(tournament, spec, post))
    if status != 200:
        # Without htmx the browser follows the redirect and shows the message; the status says it was refused.
        response["X-Refused"] = str(status)
    return response
