"""The dealer's tablet at a tournament table (issue #15): its page and its taps, each one POST and one command of
``services.dealing``; a refusal is shown on the tablet with its clause (``casino.refusals``), a stale tap's 409
says what changed (``rendering.tablet.what_changed``)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.models import Deck
from casino.refusals import mark_refusal
from casino.rules.errors import RuleViolation
from casino.rules.holdem.actions import OUT_OF_TURN_ACTS
from casino.rules.holdem.dealing_errors import SEEN_BY
from tournaments import forms, services
from tournaments.access import TABLET_ROLES, may_open
from tournaments.models import DealtTable, Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering.tablet import (
    DEFECTS,
    fragment_at,
    handed_over,
    table_and_event,
    tablet_fragment,
    what_changed,
)
from tournaments.services import dealing, rotation
from tournaments.views.common import outcome

_CARDS = re.compile(r"[\s,]+")


def _table(request, tournament_id: int, number: int) -> DealtTable:
    """The table whose tablet is asked for; 404 when it is not in play, 403 for a dealer not on duty there."""
    # numbers a table or an event can have (the URL takes any digits; the database would refuse some)
    table = table_and_event(tournament_id, number) if 0 < number < 2**15 and 0 < tournament_id < 2**63 else None
    tournament = table.tournament if table is not None else get_object_or_404(Tournament, pk=tournament_id)
    try:
        event_reads.tournament_state(tournament).table(number)  # in play (TDA-07); read once per event version
        if table is None:
            table = hand_reads.dealt_table(tournament, number)
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
    if action == "out-of-turn":
        # TDA-53-A: the act happened at the table; the dealer records it at its seat
        act = forms.a_choice(post.get("act", ""), OUT_OF_TURN_ACTS, _("the act out of turn"))
        record = {"action": action, "seat": _seat(post), "act": act}
        if act in ("bet", "raise"):
            record["to"] = forms.whole(post.get("to"), _("The amount"), low=1, high=10**12)
        return record
    if action == "flop":
        return {"action": "deal-flop", "cards": _cards(post.get("cards"), 3)}
    if action in ("turn", "river"):
        return {"action": f"deal-{action}", "card": _cards(post.get("cards"), 1)[0]}
    if action == "show":
        return {"action": "show", "seat": _seat(post), "cards": _cards(post.get("cards"), 2)}
    if action in ("muck", "award-pots", "misdeal"):
        return {"action": action, **({"seat": _seat(post)} if action == "muck" else {})}
    if action in _DEALING_ERRORS:
        return _DEALING_ERRORS[action](post)
    raise Http404


#: Why the tablet changes the deck (C-17): the change due, the director's order, a player's request (refused:
#: CC-76), or a new deck where none is in play.
DECK_CHANGE_REASONS = ("level", "dealer_change", "director", "player", "defective", "opening")


def _deck_here(dealt: DealtTable, post) -> Deck:
    serial = forms.text(post, "serial", _("The deck's serial"), required=True, limit=80)
    deck = Deck.objects.filter(place=dealt.group_name, serial=serial, state=Deck.State.CHECKED).first()
    if deck is None:
        raise BadInput(_("No checked deck %(serial)s was issued to this table.") % {"serial": serial})
    return deck
def _optional_cards(post, count: int) -> dict[str, Any]:
    """The cards of a dealing error when the dealer entered them (``count`` of them), else nothing."""
    cards = _cards(post.get("cards"))
    return {"cards": _cards(post.get("cards"), count)} if cards else {}


def _count(post, name: str, low: int, high: int) -> int:
    return forms.whole(post.get(name), _("The number of cards"), low=low, high=high)


#: issue #38 item 2: each tap of the "dealing error" menu as the engine's record
#: (``casino.rules.holdem.dealing_errors``); the engine refuses what the procedure does not allow.
_DEALING_ERRORS = {
    "premature": lambda post: {"action": "premature-board"},
    "four-card-flop": lambda post: {"action": "four-card-flop", **_optional_cards(post, 4)},
    "exposed-in-deal": lambda post: {"action": "exposed-in-deal", "position": _count(post, "position", 1, 20)},
    "exposed-card": lambda post: {"action": "exposed-card", "seat": _seat(post),
                                  **({"card": _cards(post.get("cards"), 1)[0]} if _cards(post.get("cards")) else {}),
                                  **({"intentional": True} if post.get("intentional") == "1" else {}),
                                  # CC-95: who saw it (another player in the hand: shown at once; a player not
                                  # in it: shown at the hand's end)
                                  **({"seen_by": forms.a_choice(post["seen_by"], SEEN_BY, _("who saw the card"))}
                                     if post.get("seen_by") else {})},
    "extra-card": lambda post: {"action": "extra-card", **({"count": n} if (n := _count(post, "count", 1, 10)) > 1
                                                            else {})},
    "boxed-cards": lambda post: {"action": "boxed-cards", "count": _count(post, "count", 1, 10),
                                 **({"next_dealt": True} if post.get("next_dealt") == "1" else {})},
    "button-short": lambda post: {"action": "button-short"},
    "wrong-card-count": lambda post: {"action": "wrong-card-count", "seat": _seat(post),
                                      "count": _count(post, "count", 0, 10)},
    "stub-rebuilt": lambda post: {"action": "stub-rebuilt", "how": str(post.get("how", ""))[:10]},
    "burn-error": lambda post: {"action": "burn-error", "burns": _count(post, "burns", 0, 2),
                                # CC-105: an earlier street's error, found later in an all-in hand
                                **({"street": forms.a_choice(post["street"], ("flop", "turn", "river"),
                                                             _("the street"))} if post.get("street") else {})},
}


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
        if action == "change-deck":
            # issue #39: the deck in the dealer's hands, by its serial, issued to this table and checked
            return dealing.change_deck(**common, deck=_deck_here(dealt, post),
                                       reason=forms.a_choice(post.get("reason", ""), DECK_CHANGE_REASONS,
                                                             _("why the deck changes")))
        if action == "defective-deck":
            # CC-72: the hand in play void (TDA-35-E, CC-73) and the deck retired as defective, with why
            return dealing.declare_defective_deck(**common, defect=forms.a_choice(
                post.get("defect", ""), [code for code, _said in DEFECTS], _("the defect")),
                reason=forms.text(post, "reason", _("Why"), limit=200))
        if action == "hand-over":
            return rotation.hand_over(**common)  # issue #38 item 5: the change the rotation made due
        if action == "colour-up":
            # TDA-24-A: the race computed from the stacks, a write on the event (not on this table's hand)
            return services.race_odd_chips(tournament=dealt.tournament_id, by=request.user, key=key,
                                           expected_version=None, table=dealt.number, who="table")
        return dealing.act(**common, record=_record(action, post))

    def changed() -> list[str]:
        # a stale tap: what was recorded since the version its screen showed (issue #35); read already
        since, _key = version_and_key(post)
        return what_changed(dealt, since)

    status, notice, result = outcome(run, changed)
    if status == 200 and request.htmx:
        # issue #38 item 5: this tap ended the hand and the rotation put another dealer here (or handed it over)
        dealt.refresh_from_db(fields=["dealer"])
        if not may_open(request.user, dealt):
            return HttpResponse(handed_over(dealt, request.user)
                                or render_to_string("casino/fragments/staff_access_ended.html",
                                                    {"screen_id": "deal-table"}))
    if request.htmx:
        if status == 200 and result is not None and action != "colour-up":
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
