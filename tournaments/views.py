"""The director's console and the floor's pages over HTTP (issue #14).

As the pit's tablet (tables.views): every POST carries the ``version`` the screen showed and a fresh
idempotency ``key`` and makes exactly one service call (``tournaments.services``, through
``casino.writes.write``). What can go wrong is said plainly, never as a 500:

* the event moved on (``StaleVersion``): 409 and "The event changed: refreshing";
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
(``tournaments.console.may_direct`` / ``may_work_floor``, asking ``tournaments.access``: docs/roles.md,
"Who directs an event"). The setup is never shown to the floor.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino import player_links, refusals
from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.i18n import explain
from casino.models import PlayerLink
from casino.refusals import Outcome, mark_refusal
from casino.roles import Role, has_role
from casino.rules.errors import RuleViolation
from casino.rules.tournament.eligibility import ID_TYPES
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.penalties import INFRACTIONS, PENALTY_KINDS
from casino.rules.tournament.record import parse_at, voided_seqs
from casino.writes import asking, is_valid_key
from tournaments import console, forms, screens
from tournaments.models import Entry, ExclusionListEntry, StructureTemplate, Tournament

log = logging.getLogger(__name__)

EVENT_CHANGED = gettext_lazy("The event changed: refreshing. Check and try again.")
DIRECTORS = console.DIRECTOR_ROLES
FLOOR = console.FLOOR_ROLES
#: Who assigns an event's director (the check itself: ``tournaments.access.oversees_events``).
OVERSEERS = (Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)


def _services():
    """The back end's services (tournaments.services); imported late so that a page still renders
    (and says so) on a checkout without them."""
    from tournaments import services

    return services


# --------------------------------------------------------------------------- the list


@role_required(*FLOOR)
@require_GET
def director_home(request):
    """Every tournament, newest first, with a link to its console (and, for directors, a new one)."""
    tournaments = Tournament.objects.select_related("director").order_by("-starts_at")
    return render(request, "tournaments/console_list.html", {
        "tournaments": tournaments, "may_direct": console.may_direct(request.user)})


# --------------------------------------------------------------------------- the console


def _page_context(request, tournament, here: str) -> dict:
    return {"tournament": tournament, "here": here, "may_direct": console.may_direct(request.user, tournament),
            "may_work_floor": console.may_work_floor(request.user, tournament)}


def _may_act(user, tournament: Tournament, roles: tuple[str, ...]) -> bool:
    """The door's role check made for this event (``tournaments.access``): a director acts at his own events
    only; the floor staff at any; the games director and administrators everywhere."""
    if roles == OVERSEERS:
        return console.oversees_events(user)
    if roles == DIRECTORS:
        return console.may_direct(user, tournament)
    return console.may_work_floor(user, tournament)


def _require_directs(request, tournament: Tournament) -> None:
    """A director of another event may look at this one; he may not change it (403)."""
    if not console.may_direct(request.user, tournament):
        raise PermissionDenied


@role_required(*FLOOR)
@require_GET
def console_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fragment = console.console_fragment(tournament, request.user)
    if request.htmx:
        return HttpResponse(fragment)
    return render(request, "tournaments/console.html", {**_page_context(request, tournament, "console"),
                                                        "fragment": fragment})


# --------------------------------------------------------------------------- actions: one service call each


@dataclass(frozen=True)
class Action:
    """One console action: the service function it calls, how its form becomes that call's arguments,
    who may do it, and which page it goes back to."""

    service: str
    parse: Callable[[object, Tournament], dict]
    roles: tuple[str, ...] = DIRECTORS
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


#: The infractions the penalty form offers (CC-39's catalogue; the record keeps the code).
INFRACTION_LABELS = {
    "etiquette": gettext_lazy("Etiquette: abuse, arguing, excessive chatter (TDA-70)"),
    "delay": gettext_lazy("Needlessly delaying the action (TDA-70)"),
    "out_of_turn": gettext_lazy("Repeated action out of turn (TDA-70)"),
    "exposing_cards": gettext_lazy("Exposing cards with action pending (TDA-68)"),
    "one_player_to_a_hand": gettext_lazy("One player to a hand: discussing or showing a hand (TDA-67)"),
    "throwing_cards": gettext_lazy("Throwing cards off the table or at someone (TDA-71-B)"),
    "touching_chips": gettext_lazy("Touching others' chips or cards, the deck, the pot (TDA-70)"),
    "miscalling": gettext_lazy("Miscalling one's hand (CC-39)"),
    "communication_device": gettext_lazy("A communication device at the table (CC-41)"),
    "forced_bets_dodged": gettext_lazy("Dodging the blinds after a move (CC-60)"),
    "leaving_with_action_pending": gettext_lazy("Leaving the seat with action pending (CC-119)"),
    "soft_play": gettext_lazy("Soft play (TDA-69)"),
    "other": gettext_lazy("Other (say what in the reason)"),
}
assert set(INFRACTION_LABELS) == set(INFRACTIONS)


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
    structure = screens.board_at(tournament).structure
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


ACTIONS: dict[str, Action] = {
    "open-registration": Action("open_registration", _no_fields),
    "close-registration": Action("close_registration", _no_fields),
    "start": Action("start_tournament", _no_fields),
    "clock-start": Action("clock_command", _clock("start")),
    "clock-pause": Action("clock_command", _clock("pause")),
    "clock-resume": Action("clock_command", _clock("resume")),
    "clock-adjust": Action("clock_command", _clock("adjust")),
    "clock-skip": Action("clock_command", _clock("skip")),
    "hand-for-hand": Action("clock_command", _clock("hand-for-hand")),
    # CC-11, RP-08: the director releases the next hand-for-hand deal at every table at once
    "hand-for-hand-deal": Action("clock_command", _clock("hand_for_hand_hand")),
    # RP-08-F: and the board of an all-in called at one table (a write on that table: see act)
    "release-board": Action("release_board", lambda post, tournament: {"table": _table_number(post)}),
    # TDA-01: the director stops play at one table, with his reason, and lets it go on
    "pause-table": Action("pause_table", lambda post, tournament: {"table": _table_number(post)}),
    "resume-table": Action("resume_table", lambda post, tournament: {"table": _table_number(post)}),
    # C-04: the director (or the floor) calls the clock on the player in turn at a dealt table
    "call-clock": Action("call_clock", lambda post, tournament: {"table": _table_number(post)}, FLOOR),
    # the floor puts a dealer on duty at a table (only that dealer deals there) or takes them off
    "assign-dealer": Action("assign_dealer", lambda post, tournament: {"table": _table_number(post)}, FLOOR),
    # TDA-01: the director (or the floor for him) rules the hand in play back to before one of its actions
    "back-up-hand": Action("back_up_hand", lambda post, tournament: {"table": _table_number(post)}, FLOOR, "table"),
    "results": Action("record_results", _no_fields),
    "confirm-plan": Action("confirm_plan", _confirm_plan, FLOOR),
    "bust": Action("record_bust", _bust, FLOOR, "table"),
    "withdrawal": Action("withdraw", _leaving("withdrawal"), DIRECTORS, "table"),
    "disqualify": Action("disqualify", _leaving("disqualification"), DIRECTORS, "table"),
    # TDA-71, CC-45/46: the director or a floor supervisor penalises; a suspension is served at the tablets
    "penalty": Action("give_penalty", _penalty, FLOOR, "table"),
    "end-penalty": Action("end_penalty", _end_penalty, FLOOR, "table"),
    "chip-counts": Action("enter_chip_count", _chip_counts, FLOOR, "table"),
    "button": Action("set_button", _button, FLOOR, "table"),
    "colour-up": Action("colour_up", _colour_up, FLOOR, "table"),
    # issue #36: the race computed from the stacks, confirmed per table in one tap (TDA-24-A)
    "race-odd-chips": Action("race_odd_chips", lambda post, tournament: {"table": _table_number(post)}, FLOOR),
    "seat": Action("correct_seat", _reseat, FLOOR, "table"),  # the director's is override_seat (see act)
    "accredit": Action("accredit", _accredit, FLOOR, "entry"),
    "hold-stack": Action("hold_stack", _hold, DIRECTORS, "entry"),
    "remove-absent": Action("remove_absent_stacks", _absent),
    "pay": Action("pay_prize", _pay, DIRECTORS, "entry"),
    "correct": Action("correct", _correct, FLOOR, "record"),
    # the director ends an entry's player links (a lost receipt) and, with reissue, prints a new one
    "revoke-links": Action("revoke_player_links", lambda post, tournament: {"entry": _entry_number(post)},
                           DIRECTORS, "entry"),
    "reissue-link": Action("revoke_player_links",
                           lambda post, tournament: {"entry": _entry_number(post), "reissue": True}, DIRECTORS,
                           "entry"),
    # the games director (or an administrator) assigns the event to a tournament director
    "assign-director": Action("assign_director", lambda post, tournament: {"director": _director(post)}, OVERSEERS,
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
    return reverse("tournaments:console", args=[tournament.pk])


def _number_or_none(read: Callable, post) -> int | None:
    try:
        return read(post)
    except BadInput:
        return None


def call_service(name: str, tournament: Tournament, user, post, kwargs: dict):
    """The one service call of a form: ``services.<name>(tournament=, by=, key=, expected_version=, **kwargs)``."""
    version, key = version_and_key(post)
    service = getattr(_services(), name, None)
    if service is None:
        raise BadInput(_("This action is not available yet."))
    with asking({"service": name, **kwargs}):  # the key sent again for another seat or entry is refused (409)
        return service(tournament=tournament, by=user, key=key, expected_version=version, **kwargs)


def record_busts(tournament: Tournament, user, post, *, table: int, seats: list[int],
                 stacks_at_start: dict[int, int] | None):
    """One bust is one service call. Several in one hand at one table (CC-19) are one call each, in one
    transaction: all are recorded or none. The floor does not count hands in part 1, so such a hand is
    named by the record line its first bust will take (unique in the event, and the same for each of
    them: the ranking reads them as one hand and orders them by their stacks at its start)."""
    from django.db import transaction

    services = _services()
    if len(seats) == 1:
        return call_service("record_bust", tournament, user, post, {"table": table, "seat": seats[0]})
    version, key = version_and_key(post)
    hand = services.tournament_state(tournament).last_seq + 1
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


def _at_dealt_table(action: str, tournament: Tournament, user, post, number: int):
    """The director's word at one dealt table from the console (RP-08-F's board, TDA-01's pause, the dealer
    on duty): a write
    on that table's own aggregate, at the version it has now (the console shows the event's version, not
    each table's; the director's word is for the table as it stands)."""
    from tournaments import dealing

    _version, key = version_and_key(post)
    try:
        table = dealing.dealt_table(tournament, number)
    except RuleViolation:
        raise BadInput(_("There is no such table in play.")) from None
    common = {"table": table, "by": user, "key": key, "expected_version": table.version}
    if action == "pause-table":
        return dealing.pause_table(**common, reason=post.get("reason", ""))
    if action == "resume-table":
        return dealing.resume_table(**common)
    if action == "assign-dealer":
        return dealing.assign_dealer(**common, dealer=_dealer(post))
    if action == "call-clock":
        return dealing.call_clock(**common)
    if action == "back-up-hand":
        # the ruling is on the hand as the page showed it: a tap since then makes it a stale version (409)
        shown = forms.whole(post.get("table_version"), _("The table's version"), low=0, high=2**62)
        return dealing.back_up_hand(**{**common, "expected_version": shown},
                                    to_seq=forms.whole(post.get("seq"), _("The action"), low=1, high=10_000),
                                    reason=forms.reason(post))
    return dealing.release_board(**common)


def _dealer(post):
    """The person the floor chose (None: nobody on duty); ``dealing.assign_dealer`` refuses anyone who is
    not one of the casino's active dealers."""
    from django.contrib.auth import get_user_model

    chosen = (post.get("dealer") or "").strip()
    if not chosen:
        return None
    pk = forms.whole(chosen, _("The dealer"), low=1, high=2**62)
    dealer = get_user_model().objects.filter(pk=pk).first()
    if dealer is None:
        raise BadInput(_("Choose one of the casino's active dealers."))
    return dealer


def outcome(call: Callable) -> Outcome:
    """Run ``call`` and say how it went: (status, notice, result), as ``casino.refusals`` maps it."""
    return refusals.outcome(call, stale=EVENT_CHANGED)


@role_required(*FLOOR)
@require_POST
def act(request, tournament_id: int, action: str):
    """One tap on the console or a floor page: one service call."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    spec = ACTIONS.get(action)
    if spec is None:
        raise Http404
    if not has_role(request.user, *spec.roles) or not _may_act(request.user, tournament, spec.roles):
        raise PermissionDenied
    post = request.POST

    def run():
        kwargs = spec.parse(post, tournament)
        if action in ("release-board", "pause-table", "resume-table", "assign-dealer", "call-clock", "back-up-hand"):
            return _at_dealt_table(action, tournament, request.user, post, kwargs["table"])
        if action == "bust":
            return record_busts(tournament, request.user, post, **kwargs)
        service = spec.service
        if action == "seat" and console.may_direct(request.user, tournament):
            service = "override_seat"  # TDA-09, CC-49: the director's override (the floor corrects, TDA-07)
        return call_service(service, tournament, request.user, post, kwargs)

    status, notice, result = outcome(run)
    tournament.refresh_from_db()
    if action == "reissue-link" and status == 200 and getattr(result, "link", None) is not None:
        entry = _entry(tournament, _entry_number(post))
        messages.success(request, _("The entry's old links no longer work: print this one."))
        return redirect(reverse("tournaments:receipt", args=[tournament.pk, entry.pk, "accreditation"])
                        + f"?link={result.link}")
    if request.htmx and spec.page == "console":
        return mark_refusal(HttpResponse(console.console_fragment(tournament, request.user, notice), status=status),
                            status, notice)
    if notice:
        messages.add_message(request, messages.INFO if status == 200 else messages.ERROR, notice["text"])
    elif status == 200:
        messages.success(request, _("Recorded."))
    response = redirect(_back(tournament, spec, post))
    if status != 200:
        # Without htmx the browser follows the redirect and shows the message; the status says it was refused.
        response["X-Refused"] = str(status)
    return response


# --------------------------------------------------------------------------- setup


def _setup_initial(tournament: Tournament | None) -> dict:
    """The setup form's values: the event's setup as its record stands, or the house's defaults."""
    state = console._state(tournament) if tournament is not None else None
    the_setup = getattr(state, "setup", None)
    structure = screens.board_at(tournament).structure if tournament is not None else None
    options = the_setup.options if the_setup is not None else HouseOptions()
    return {
        "name": tournament.name if tournament else "",
        "starts_at": timezone.localtime(tournament.starts_at).strftime("%Y-%m-%dT%H:%M") if tournament else "",
        "buy_in": the_setup.buy_in if the_setup else "",
        "fee": the_setup.fee if the_setup else 0,
        "starting_stack": the_setup.starting_stack if the_setup else 20000,
        "seats_per_table": the_setup.seats_per_table if the_setup else 9,
        "late_registration_level": (the_setup.late_registration_level if the_setup else None) or "",
        "denominations": " ".join(str(d) for d in (structure.denominations if structure else
                                                   (25, 100, 500, 1000, 5000))),
        "structure": forms.structure_as_text(structure) if structure else DEFAULT_STRUCTURE_TEXT,
        "payouts": forms.payout_table_as_text(the_setup.payout_table if the_setup else ()),
        "break_order": " ".join(str(t) for t in (the_setup.break_order if the_setup else ())),
        "final_table_size": options.final_table_size,
        "ante_mode": options.ante_mode,
        "reentry_allowed": options.reentry_allowed,
        "mucked_hand_recoverable": options.mucked_hand_recoverable,
        "clock_seconds": options.clock_seconds,
        "clock_countdown_seconds": options.clock_countdown_seconds,
        "clock_expiry_unfaced": options.clock_expiry_unfaced,
        "max_penalty_rounds": options.max_penalty_rounds,
    }


DEFAULT_STRUCTURE_TEXT = "\n".join([
    "100/200 20", "100/200/200 20", "200/400/400 20", "300/600/600 20", "break 10 25",
    "400/800/800 20", "500/1000/1000 20", "600/1200/1200 20", "800/1600/1600 20", "break 10 100",
    "1000/2000/2000 20", "1500/3000/3000 20", "2000/4000/4000 20",
])


def _setup_page(request, tournament: Tournament | None, values: dict, status: int = 200, notice: dict | None = None):
    context = {**(_page_context(request, tournament, "setup") if tournament else {"may_direct": True}),
               "values": values, "notice": notice,
               "templates": list(StructureTemplate.objects.order_by("name")),
               "ante_modes": (("button", _("Button ante (halved at 6 or fewer, CC-50/51)")),
                              ("big_blind", _("Big blind ante (RP-11)")), ("none", _("No ante"))),
               "seats_choices": forms.SEATS_PER_TABLE}
    if tournament is not None and console.oversees_events(request.user):
        context["directors"] = list(console.tournament_directors().values("pk", "first_name", "username"))
    return render(request, "tournaments/console_setup.html", context, status=status)


@role_required(*DIRECTORS)
def new_tournament(request):
    """Create an event: its whole setup in one form (one service call)."""
    if request.method != "POST":
        return _setup_page(request, None, _setup_initial(None))
    post = request.POST

    def run():
        fields = forms.event_setup(post)
        key = (post.get("key") or "").strip()
        if not is_valid_key(key):
            raise BadInput(_("The form's request key is not valid: reload the page."))
        options = {**HouseOptions().as_dict(), **fields.pop("options")}
        return _services().create_tournament(by=request.user, key=key, options=options, **fields)

    status, notice, created = outcome(run)
    if status != 200:
        return _setup_page(request, None, dict(post.items()), status, notice)
    tournament, _result = created
    messages.success(request, _("The tournament is created."))
    return redirect("tournaments:console", tournament_id=tournament.pk)


@role_required(*DIRECTORS)
def setup(request, tournament_id: int):
    """Edit the event's setup (a change during the event is announced to every screen, CC-04). The name
    and the start are the event's, not its setup: they are shown, not edited here."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _require_directs(request, tournament)
    if request.method != "POST":
        return _setup_page(request, tournament, _setup_initial(tournament))
    post = request.POST

    def run():
        fields = forms.event_setup(post, editing=True)
        state = console._state(tournament)
        current = state.setup.options.as_dict() if state is not None and state.setup is not None else {}
        fields["options"] = {**current, **fields["options"]}
        return call_service("change_setup", tournament, request.user, post,
                            {**fields, "reason": forms.text(post, "reason", _("The reason"))})

    status, notice, _result = outcome(run)
    if status != 200:
        tournament.refresh_from_db()
        return _setup_page(request, tournament, dict(post.items()), status, notice)
    messages.success(request, _("The setup is saved."))
    return redirect("tournaments:setup", tournament_id=tournament.pk)


@role_required(*DIRECTORS)
@require_POST
def structure_template(request, tournament_id: int):
    """Save this event's structure as a template, or copy a template's into it."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _require_directs(request, tournament)
    post = request.POST

    def save():
        name = forms.text(post, "template_name", _("The template's name"), required=True, limit=80)
        state = console._state(tournament)
        if state is None or state.setup is None:
            raise BadInput(_("This event has no structure yet."))
        return _services().save_structure_template(by=request.user, name=name, structure=dict(state.setup.structure))

    def copy():
        number = forms.whole(post.get("template"), _("The template"), low=1)
        template = StructureTemplate.objects.filter(pk=number).first()
        if template is None:
            raise BadInput(_("There is no such template."))
        return call_service("copy_structure_template", tournament, request.user, post, {"template": template})

    status, notice, _r = outcome(save if post.get("do") == "save" else copy)
    messages.add_message(request, messages.SUCCESS if status == 200 else messages.ERROR,
                         notice["text"] if notice else _("Done."))
    return redirect("tournaments:setup", tournament_id=tournament.pk)


# --------------------------------------------------------------------------- registration


def _refusals(tournament) -> list[dict]:
    """The registrations refused, newest first, each with its reason in the viewer's language."""
    refused = [e for e in screens.record_of(tournament) if e["type"] == "refused"][-20:]
    return [{"at": parse_at(e["at"]), "reason": _refusal_text(e), "clause": e.get("clause")} for e in refused[::-1]]


def _refusal_text(event: dict) -> str:
    """The record keeps the refusal's English sentence (it holds no name); said in the viewer's language
    when its template has no values."""
    return _(event.get("reason") or "")  # noqa: INT001 - the engine's N_ templates are in the catalogue


def _registration_page(request, tournament, values=None, status=200, notice=None):
    board = screens.board_at(tournament)
    latest = ExclusionListEntry.objects.order_by("-imported_at").first()
    context = {**_page_context(request, tournament, "registration"), "values": values or {}, "notice": notice,
               "entries": list(Entry.objects.filter(tournament=tournament).order_by("number")), "board": board,
               "refusals": _refusals(tournament), "id_types": ID_TYPES,
               "exclusion_list": {"imported_at": latest.imported_at, "count": ExclusionListEntry.objects.count()}
               if latest else None}
    return render(request, "tournaments/console_registration.html", context, status=status)


@role_required(*FLOOR)
def registration(request, tournament_id: int):
    """The registration desk: register a player (a late entry once running: seated at once), the entries
    with their receipts, the refusals with their reasons, the exclusion list's import."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if request.method != "POST":
        return _registration_page(request, tournament)
    post = request.POST

    def run():
        fields = forms.registration(post)
        fields["name"] = fields.pop("player_name")
        return call_service("register", tournament, request.user, post, fields)

    status, notice, result = outcome(run)
    tournament.refresh_from_db()
    if status == 200 and result.refusal is not None:
        # Refused (under age, excluded, a second entry...): recorded with its reason, shown, the form kept.
        status, notice = 422, {"level": "error", "text": explain(result.refusal)}
    if status != 200:
        return _registration_page(request, tournament, dict(post.items()), status, notice)
    entry = Entry.objects.filter(tournament=tournament, number=result.entry).first()
    messages.success(request, _("Registered: entry %(number)s.") % {"number": result.entry})
    if entry is not None:
        return redirect("tournaments:receipt", tournament_id=tournament.pk, entry_id=entry.pk, kind="entry")
    return redirect("tournaments:registration", tournament_id=tournament.pk)


#: the largest exclusion CSV taken: 100,000 people with a few columns besides the four are about 8 MB
EXCLUSION_FILE_LIMIT = 16 * 1024 * 1024
#: refused rows named in the answer; the rest are counted
EXCLUSION_REFUSALS_SHOWN = 10


@role_required(*DIRECTORS)
@require_POST
def import_exclusions(request, tournament_id: int):
    """CC-23: the casino's exclusion and self-exclusion list, a CSV file, kept with its date. A file that
    cannot be read is answered 400/422 on the registration page naming the line, and nothing is kept;
    otherwise the answer says how many people were added, updated and refused (each refused line named)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _require_directs(request, tournament)
    upload = request.FILES.get("csv")

    def run():
        if upload is None:
            raise BadInput(_("Choose the exclusion list's CSV file."))
        if upload.size > EXCLUSION_FILE_LIMIT:
            raise BadInput(_("The file is larger than 16 MB."))
        raw = upload.read()
        if not raw.strip():
            raise BadInput(_("The file is empty: export the exclusion list as CSV and try again."))
        try:
            content = raw.decode("utf-8-sig")
        except UnicodeDecodeError as bad:
            raise BadInput(_("The file is not text in UTF-8 (line %(line)d): save it as CSV UTF-8 and try again.")
                           % {"line": raw.count(b"\n", 0, bad.start) + 1}) from None
        return _services().import_exclusion_csv(by=request.user, text=content, source=upload.name[:200])

    status, notice, result = outcome(run)
    if status != 200:
        return _registration_page(request, tournament, status=status, notice=notice)
    done = _("The exclusion list is imported: %(added)d added, %(updated)d updated, %(refused)d refused.") % {
        "added": result.added, "updated": result.updated, "refused": len(result.refused)}
    if result.refused:
        shown = [explain(refusal) for refusal in result.refused[:EXCLUSION_REFUSALS_SHOWN]]
        more = len(result.refused) - len(shown)
        if more:
            shown.append(_("and %(more)d more refused lines.") % {"more": more})
        messages.warning(request, " ".join([done, *shown]))
    else:
        messages.success(request, done)
    return redirect("tournaments:registration", tournament_id=tournament.pk)


# --------------------------------------------------------------------------- a table, an entry, the record


@role_required(*FLOOR)
@require_GET
def table_page(request, tournament_id: int, table: int):
    """One table for the floor: its seats, and the actions at it (bust, chip counts, the button, a
    colour-up, a seat corrected); directors also see the withdrawal and the disqualification."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    the_field = console.read_field(tournament)
    found = next((t for t in the_field.tables if t.table == table), None)
    if found is None:
        raise Http404
    structure = the_field.board.structure
    return render(request, "tournaments/console_table.html", {
        **_page_context(request, tournament, "table"), "table": found, "field": the_field,
        "denominations": structure.denominations[:-1] if structure else (),
        "penalties": _penalties_at(tournament, found), "infractions": INFRACTION_LABELS.items(),
        **_hand_in_play_at(tournament, table),
        "penalty_kinds": (("warning", _("Warning")), ("hands", _("Hands")), ("rounds", _("Rounds")))})


def _hand_in_play_at(tournament: Tournament, number: int) -> dict:
    """The hand in play at a dealt table, its actions after the deal, for the director's ruling (TDA-01)."""
    from casino.rules.holdem.hand import ENDED, Phase
    from tournaments import dealing
    from tournaments.models import DealtTable

    table = DealtTable.objects.filter(tournament=tournament, number=number).first()
    hand = dealing.latest_hand(table) if table is not None else None
    if hand is None or Phase(hand.phase) in ENDED:
        return {}
    actions = [{"seq": r.seq, "action": r.record.get("action"), "seat": r.record.get("seat"),
                "to": r.record.get("to"), "cards": r.record.get("cards") or ([r.record["card"]] if r.record.get("card")
                                                                           else [])}
               for r in dealing.effective_rows(hand) if not dealing.part_of_the_deal(r, hand)]
    return {"dealt_table": table, "hand_in_play": hand, "hand_actions": actions}


def _penalties_at(tournament: Tournament, table) -> list[dict]:
    """The penalties given to the players now at ``table`` (TDA-71-A: repeat offences escalate, so the
    floor sees the earlier ones), the latest first."""
    state = console._state(tournament)
    names = {s.entry: s.name for s in table.occupied}
    return [{"penalty": p, "name": names[p.entry], "infraction": INFRACTION_LABELS.get(p.infraction, p.infraction)}
            for p in reversed(getattr(state, "penalties", ())) if p.entry in names]


def _entry(tournament, number: int) -> Entry:
    return get_object_or_404(Entry, tournament=tournament, number=number)


@role_required(*FLOOR)
@require_GET
def entry_page(request, tournament_id: int, entry: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    the_entry = _entry(tournament, entry)
    board = screens.board_at(tournament)
    state = console._state(tournament)
    mine = next((e for e in getattr(state, "entries", ()) if e.entry == entry), None)
    paid, held = (mine.paid, mine.held) if mine is not None else (0, False)
    return render(request, "tournaments/console_entry.html", {
        **_page_context(request, tournament, "entry"), "entry": the_entry, "number": entry, "id_types": ID_TYPES,
        "seat": board.seats.get(entry), "finish": board.finishes.get(entry), "leaving": board.leaving.get(entry),
        "paid": paid, "held": held, "links": _working_links(the_entry)})


def _working_links(entry: Entry) -> list[PlayerLink]:
    """The entry's player links that still work, newest first (the director may end them)."""
    return list(PlayerLink.objects.filter(seat_type=ContentType.objects.get_for_model(Entry), seat_id=entry.pk,
                                          revoked_at__isnull=True, expires_at__gt=timezone.now())
                .order_by("-created_at"))


#: What a record line says on the corrections page: its type's words and the fields a floor person reads.
RECORD_FIELDS = ("entry", "table", "seat", "why", "from_table", "from_seat", "kind", "seconds", "chips",
                 "stack_at_start", "amount", "checkpoint", "hands", "infraction", "penalty", "voids", "reason")


def _record_line(event: dict, voided: set[int]) -> dict:
    details = ", ".join(f"{name} {event[name]}" for name in RECORD_FIELDS if event.get(name) not in (None, "", []))
    return {"seq": event["seq"], "at": parse_at(event["at"]), "type": event["type"], "details": details,
            "voided": event["seq"] in voided,
            "correctable": event["type"] not in ("setup", "correction") and event["seq"] not in voided}


@role_required(*FLOOR)
@require_GET
def hands_download(request, tournament_id: int):
    """Every hand over at the event's dealt tables (``?table=N``: one table's) in one ``replay_hand`` file
    (JSON Lines, docs/hand-history.md): ``python manage.py replay_hand`` reproduces each hand's stacks,
    which the event's record keeps (its ``hand`` events). Streamed: an event deals thousands of hands."""
    from django.http import StreamingHttpResponse

    from tournaments import dealing

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    raw = request.GET.get("table", "").strip()
    try:
        table = forms.whole(raw, _("The table"), low=1, high=10_000) if raw else None
    except BadInput as bad:
        return HttpResponse(str(bad), status=400, content_type="text/plain; charset=utf-8")
    response = StreamingHttpResponse(dealing.hand_lines_text(tournament, table=table),
                                     content_type="application/jsonl; charset=utf-8")
    name = f"tournament-{tournament.pk}" + (f"-table-{table}" if table else "") + "-hands.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@role_required(*FLOOR)
@require_GET
def record_page(request, tournament_id: int):
    """The event's record, newest first, each line with a correction form (a reason is required)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    events = screens.record_of(tournament)
    voided = voided_seqs(events)
    lines = [_record_line(e, voided) for e in events[::-1][:300]]
    return render(request, "tournaments/console_record.html", {
        **_page_context(request, tournament, "record"), "lines": lines})


# --------------------------------------------------------------------------- receipts

RECEIPTS = ("entry", "accreditation", "chips")


@role_required(*FLOOR)
@require_GET
def receipt(request, tournament_id: int, entry_id: int, kind: str):
    """A printable receipt of one entry: the entry, the accreditation (with the player's QR link, issued
    by ``issue_accreditation_link``) or its chip count."""
    if kind not in RECEIPTS:
        raise Http404
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    number = screens.entry_number(entry)
    board = screens.board_at(tournament)
    context = {**_page_context(request, tournament, "receipt"), "entry": entry, "number": number, "kind": kind,
               "seat": board.seats.get(number), "printed_at": timezone.now(), "board": board}
    if kind == "accreditation":
        link = _entry_link(entry, request.GET.get("link", ""))
        if link is None:
            # No usable link named: the page offers to issue one (a POST, audited), never on a GET.
            return render(request, "tournaments/receipt.html", {**context, "needs_link": True})
        url = player_links.url_for(link, request)
        context.update(link=link, url=url, qr=player_links.qr_svg(url))
    return render(request, "tournaments/receipt.html", context)


def _entry_link(entry: Entry, link_id: str) -> PlayerLink | None:
    """The usable player link ``link_id`` of this very entry, or None."""
    try:
        link_id = uuid.UUID(link_id)
    except ValueError:
        return None
    link = PlayerLink.objects.filter(pk=link_id, seat_type=ContentType.objects.get_for_model(Entry),
                                     seat_id=entry.pk).first()
    return link if link is not None and link.is_usable() else None


@role_required(*FLOOR)
@require_POST
def issue_accreditation_link(request, tournament_id: int, entry_id: int):
    """A new QR link for the entry's player, then its accreditation receipt: a second phone of the player (the
    old links work until revoked or the event ends; a lost receipt is revoked and reissued by the director,
    ``reissue-link``). None for an entry out of the event."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not console.may_work_floor(request.user, tournament):
        raise PermissionDenied
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    try:
        link = screens.issue_entry_link(entry, by=request.user)
    except RuleViolation as refused:
        messages.error(request, explain(refused))
        response = redirect("tournaments:entry", tournament_id=tournament.pk, entry=entry.number)
        response["X-Refused"] = "422"
        return response
    return redirect(reverse("tournaments:receipt", args=[tournament.pk, entry.pk, "accreditation"])
                    + f"?link={link.pk}")


@role_required(*FLOOR)
@require_GET
def classification(request, tournament_id: int):
    """The classification as it stands (a printable page): places, entries, names and prizes."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    board = screens.board_at(tournament)
    names = console.entry_names(tournament)
    rows = sorted(((finish.places, number, names.get(number, ""), finish.prize)
                   for number, finish in board.finishes.items()), key=lambda r: (r[0], r[1]))
    return render(request, "tournaments/receipt_classification.html", {
        **_page_context(request, tournament, "classification"), "rows": rows, "board": board,
        "printed_at": timezone.now()})


@role_required(*FLOOR)
@require_GET
def chip_count_sheet(request, tournament_id: int):
    """Every table's players and chips (a printable sheet for a break's count)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/receipt_chips.html", {
        **_page_context(request, tournament, "chips"), "field": console.read_field(tournament),
        "printed_at": timezone.now()})


# --------------------------------------------------------------------------- the seating display


@require_GET
def seating(request, tournament_id: int):
    """Where do I sit? Find a seat by entry number (anyone: the number is on the entry receipt), or by
    name (staff only), and the moves of the last minutes.

    Privacy: the page is public so that a screen in the room or a player's own phone can use it without
    a staff login on a public keyboard; so it shows no name to anyone who is not logged in as tournament
    staff. A player's presence at a gaming event is personal data (and a person on the self-exclusion
    list must not be found by name by whoever passes); an entry number reveals nothing without the
    receipt. Staff (directors, floor) see the names and may search by name.
    """
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = request.user.is_authenticated and console.may_work_floor(request.user)
    the_field = console.read_field(tournament) if staff else None
    board = the_field.board if staff else screens.board_at(tournament)
    names = the_field.names if staff else {}
    query = (request.GET.get("q") or "").strip()[:80]
    found, notice = [], None
    if query:
        number = query.lstrip("#")
        if number.isascii() and number.isdigit() and len(number) <= 9:  # "²" or 5,000 digits: no entry's number
            hits = [int(number)] if int(number) in board.seats or int(number) in board.leaving else []
        elif staff:
            needle = query.casefold()
            hits = [n for n, name in names.items() if needle in name.casefold()][:20]
        else:
            hits = []
            notice = _("Search by your entry number: it is on your entry receipt.")
        found = [{"number": n, "name": names.get(n, ""), "seat": board.seats.get(n), "leaving": board.leaving.get(n)}
                 for n in sorted(hits)]
        if not found and notice is None:
            notice = _("No player in play matches “%(query)s”.") % {"query": query}
    now = timezone.now()
    moves = sorted(((n, m) for n, m in board.moves.items()
                    if (now - m.at).total_seconds() <= console.RECENT_MOVES_MINUTES * 60),
                   key=lambda item: item[1].at, reverse=True)
    return render(request, "tournaments/seating.html", {
        "tournament": tournament, "staff": staff, "query": query, "found": found, "notice": notice,
        "moves": [{"number": n, "name": names.get(n, ""), "move": m} for n, m in moves],
        "minutes": console.RECENT_MOVES_MINUTES, "may_direct": staff and console.may_direct(request.user, tournament),
        "here": "seating"})
