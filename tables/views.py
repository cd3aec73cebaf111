"""The tables' screens over HTTP: the dealer's tablet, the pit console, hand recall and player links.

Every POST carries the ``version`` the screen showed and an idempotency ``key``
and makes exactly one service call (tables.services). The answer is always the
viewer's fresh fragment: with htmx it replaces the screen in place, without it
the browser is sent back to the page. What can go wrong is said plainly:

* the table moved on (``StaleVersion``): 409 and what was recorded since the screen's version
  (``rendering.what_changed``: "Since your screen: Box 3 bet the flop. …"), else "The table changed: refreshing";
* the key was used already for another action (``KeyUsedElsewhere``): 409 and "This request was already
  used for something else"; nothing was applied;
* the rules refuse (``RuleViolation``): 422, ``X-Rule-Refusal: 1`` and the
  clause's sentence in the dealer's language; nothing was recorded;
* bad input (not a number, no such box, not a card): 400 and what was wrong;
* wrong role or object: 403 (``PermissionDenied``).
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino import dealer_home as dealer_home_sections
from casino import player_links
from casino.access import role_required
from casino.bad_input import checks_its_own_nul_bytes, first_field_with_nul, nul_refusal
from casino.form_input import BadInput, deck_cards, version_and_key, whole
from casino.models import PlayerLink, object_label
from casino.refusals import mark_refusal, outcome
from casino.roles import Role, has_role
from casino.rules.errors import N_, RuleViolation
from tables import reads, rendering, services, sessions
from tables.access import is_dealer_at, may_view, supervises, supervises_pit
from tables.models import BOX_NUMBERS, Alert, Box, Hand, Pit, Seating, Table
from tables.refusals import refusal_text

log = logging.getLogger(__name__)

TABLE_CHANGED = gettext_lazy("The table changed: refreshing.")
SUPERVISORS = (Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
RECALL_PAGE = 10  # hands a recall page shows (THB-71 asks for at least the last 10); older ones on the next pages


# --------------------------------------------------------------------------- home pages


@role_required(Role.DEALER)
def dealer_home(request):
    """The dealer's tablet home: the tables they are on duty at."""
    tables = Table.objects.filter(dealer=request.user).select_related("pit").prefetch_related("boxes")
    # issue #38 item 5: where the pits' dealers' rotations put this dealer now and next (RP-07)
    now = timezone.now()
    rotations = reads.dealer_rotations(request.user, now)
    # ... and what the other games have for him (the tournament room's rotation: where and when he deals next)
    return render(request, "tables/dealer_home.html", {"tables": tables, "rotations": rotations,
                                                       "sections": dealer_home_sections.sections(request.user, now)})


@role_required(Role.PIT_BOSS)
def pit_home(request):
    """The pit boss's console: the live view of each pit they run (THB-72), one socket per pit."""
    pits = Pit.objects.filter(pit_boss=request.user).order_by("name")
    consoles = [{"pit": pit, "fragment": rendering.pit_fragment(pit, request.user)} for pit in pits]
    return render(request, "tables/pit_home.html", {"consoles": consoles})


@role_required(Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
def floor(request):
    pits = Pit.objects.prefetch_related("tables__dealer").select_related("pit_boss")
    # issue #39: a closing float signed with a difference, at once (until the pit boss acknowledges it)
    bank_alerts = [reads.alert_text(a) for a in reads.open_alerts(None) if a.kind == Alert.Kind.BANK_DIFFERENCE]
    return render(request, "tables/floor.html", {"pits": pits, "bank_alerts": bank_alerts})


# --------------------------------------------------------------------------- the dealer's tablet


def _dealer_table(request, table_id) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if not is_dealer_at(request.user, table):
        raise PermissionDenied
    return table


@role_required(Role.DEALER)
@require_GET
def dealer_table(request, table_id: int):
    """The tablet at one table: the whole hand, step by step, in the manual's order."""
    table = _dealer_table(request, table_id)
    fragment = rendering.dealer_fragment(table, request.user)
    if request.htmx:
        return HttpResponse(fragment)
    return render(request, "tables/dealer_table.html", {"table": table, "fragment": fragment,
                                                        "links": sessions.box_links(table),
                                                        "box_numbers": BOX_NUMBERS})


def _digits(text: str) -> bool:
    """ASCII digits a database key can hold: "²" passes isdigit() but not int() (issue #34)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _free_text(post, name: str) -> str:
    """A free-text field (a reason, a note): trimmed, at most 200 characters, as the forms allow."""
    return post.get(name, "").strip()[:200]


# What a notice calls the free-text fields; a NUL in any other field is named by its form name.
FREE_TEXT_NAMES = {"note": gettext_lazy("The note"), "detail": gettext_lazy("The detail"),
                   "reason": gettext_lazy("The reason")}


def _refuse_nul_bytes(post) -> None:
    """A NUL character in any field is bad input, said in the screen's notice, never a database error."""
    field = first_field_with_nul(post)
    if field is None:
        return
    if field == "key":
        raise BadInput(_("The form's request key is not valid: reload the page."))
    if field in FREE_TEXT_NAMES:
        raise BadInput(_("%(what)s contains a character that is not allowed.") % {"what": FREE_TEXT_NAMES[field]})
    raise BadInput(nul_refusal(field))


def _box(post) -> int:
    return whole(post.get("box"), _("The box"), low=1, high=7)


def _cards(post, count: int) -> list[str]:
    """The cards picked (as codes), exactly ``count`` of them, each a real card, in the order tapped.

    A form posts its checkboxes in the grid's order; the picker's script adds ``order``, the same
    cards in the order the dealer tapped them (a flop tapped 2c 7d 9h is recorded 2c 7d 9h, issue #16).
    An ``order`` that is not exactly the cards ticked is ignored.
    """
    picked = [c for c in post.getlist("cards") if c.strip()]
    order = post.get("order", "").split()
    if sorted(order) == sorted(picked):
        picked = order
    if len(picked) != count:
        raise BadInput(_("Pick exactly %(count)d card(s); you picked %(picked)d.") % {"count": count,
                                                                                       "picked": len(picked)})
    return deck_cards(picked)


def _bet(post, state):
    spot = post.get("spot", "ante")
    if spot not in ("ante", "bonus"):
        raise BadInput(_("Choose the ante or the Bonus."))
    amount = whole(post.get("amount"), _("The amount"), low=1, high=10**9)
    return {"action": "place-ante" if spot == "ante" else "place-bonus", "box": _box(post), "amount": amount}


DECISIONS = {
    ("flop", "bet"): "bet-flop",
    ("flop", "fold"): "fold",
    ("turn", "bet"): "bet-turn",
    ("turn", "check"): "pass-turn",
    ("river", "bet"): "bet-river",
    ("river", "check"): "pass-river",
}


def _decision(post, state):
    kind = DECISIONS.get((post.get("street"), post.get("choice")))
    if kind is None:
        raise BadInput(_("That is not a decision of this game."))
    record = {"action": kind, "box": _box(post)}
    if post.get("choice") == "bet":
        record["amount"] = whole(post.get("amount"), _("The amount"), low=1, high=10**9)
    return record


def _street(post, state):
    street = post.get("street")
    if street not in ("flop", "turn", "river"):
        raise BadInput(_("That is not a street of this game."))
    if state is not None and state.mode.value == "dealt":
        return {"action": f"deal-{street}"}  # the shoe deals: nothing to enter (dealt mode)
    cards = _cards(post, 3 if street == "flop" else 1)
    return {"action": "deal-flop", "cards": cards} if street == "flop" else {"action": f"deal-{street}",
                                                                                 "card": cards[0]}


def _reveal_dealer(post, state):
    if state is not None and state.mode.value == "dealt":
        return {"action": "reveal-dealer"}
    return {"action": "reveal-dealer", "cards": _cards(post, 2)}


def _reveal_box(post, state):
    box = _box(post)
    if state is not None and state.mode.value == "dealt":
        return {"action": "reveal-box", "box": box}
    return {"action": "reveal-box", "box": box, "cards": _cards(post, 2)}


# The dealer's engine records, each built from the form by one small parser.
RECORDS: dict[str, Callable] = {
    "bet": _bet,
    "withdraw": lambda post, state: {"action": "withdraw-bets", "box": _box(post)},
    "close-bets": lambda post, state: {"action": "close-bets"},
    "deal": lambda post, state: {"action": "deal-initial"},
    "decide": _decision,
    "street": _street,
    "dealer-cards": _reveal_dealer,
    "box-cards": _reveal_box,
    "concede": lambda post, state: {"action": "concede-box", "box": _box(post)},
}


PARSERS_NEEDING_STATE = frozenset({"street", "dealer-cards", "box-cards"})


def _irregularity(post) -> dict:
    """The manual's irregularities as the menu offers them (THB-73, THB-74, THB-76)."""
    kind = post.get("kind")
    if kind == "dealer-card-exposed":
        return {"action": "report-dealer-card-exposed"}
    if kind == "face-up-card":
        return {"action": "report-face-up-card", "count": 1}
    if kind == "face-up-cards":
        return {"action": "report-face-up-card", "count": whole(post.get("count"), _("The number of cards"),
                                                               low=2, high=52)}
    if kind == "box-wrong-count":
        return {"action": "report-box-wrong-card-count", "box": _box(post),
                "cards_dealt": whole(post.get("cards_dealt"), _("The number of cards"), low=0, high=52)}
    if kind == "dealer-wrong-count":
        return {"action": "report-dealer-wrong-card-count",
                "cards_dealt": whole(post.get("cards_dealt"), _("The number of cards"), low=0, high=52),
                "correctable": post.get("correctable") == "1"}
    raise BadInput(_("Choose one of the irregularities in the menu."))


def _undo_reason(post) -> str:
    reasons = dict(rendering.UNDO_REASONS)
    chosen = post.get("reason", "")
    detail = _free_text(post, "detail")
    if chosen not in reasons and not detail:
        raise BadInput(_("Say why the action is undone."))
    label = str(reasons.get(chosen, ""))
    return f"{label}: {detail}" if label and detail else (label or detail)


def _dealer_call(action: str, post, table: Table):
    """Which one service call this tablet action is, and its arguments."""
    if action == "open":
        return sessions.request_opening, {}
    if action == "close-table":
        return sessions.request_closing, {}
    if action == "start-hand":
        mode = post.get("mode", "recorded")
        if mode not in Hand.Mode.values:
            raise BadInput(_("Choose recorded cards or the electronic shoe."))
        return services.start_hand, {"mode": mode}
    if action == "repeat":
        return services.repeat_last_bets, {}
    if action == "undo":
        return services.undo_last_action, {"reason": _undo_reason(post)}
    if action == "irregularity":
        return services.report_irregularity, {"record": _irregularity(post)}
    if action == "deck-count":
        return services.record_deck_count, {
            "cards": whole(post.get("cards"), _("The number of cards"), low=0, high=520),
            "note": _free_text(post, "note"),
            "deck": _deck_serial(post),
        }
    if action == "suspect-cards":
        return services.report_suspect_cards, {"note": _free_text(post, "note")}
    if action == "new-player":
        return sessions.seat_new_player, {"box": _box(post)}
    parser = RECORDS.get(action)
    if parser is None:
        raise Http404
    # Only the card steps ask the hand's mode (dealt or recorded): the others need no read here.
    state = reads.snapshot_from_db(table).state if action in PARSERS_NEEDING_STATE else None
    return services.record_action, {"record": parser(post, state)}


def _submit(request, call, kwargs, *, table: Table, render_fragment: Callable, page: str, by_the_pit: bool = False):
    """Make the one service call and answer the fresh fragment, with what happened if it was refused (a stale
    screen is told what was recorded since the version it showed, as the console or the tablet may hear it)."""
    post = request.POST

    def run():
        version, key = version_and_key(post)
        return call(table=table, by=request.user, key=key, expected_version=version, **kwargs)

    def changed() -> list[str]:
        # only asked after the command refused the version as stale: it was read already
        since, _key = version_and_key(post)
        return rendering.what_changed(table, since, by_the_pit=by_the_pit)

    status, notice, result = outcome(run, stale=TABLE_CHANGED, changed=changed)
    if status != 200:
        return _answer(request, render_fragment, page, status, notice)
    # The fragment of the version this write made: its snapshot was cached at commit, nothing to read back.
    return _answer(request, lambda n: render_fragment(n, version=result.table_version), page, 200, notice)


def _answer(request, render_fragment, page: str, status: int, notice: dict | None):
    if request.htmx:
        return mark_refusal(HttpResponse(render_fragment(notice), status=status), status, notice)
    if notice:
        level = messages.INFO if notice["level"] == "info" else messages.ERROR
        messages.add_message(request, level, notice["text"])
    return redirect(page)


@checks_its_own_nul_bytes
@role_required(Role.DEALER)
@require_POST
def dealer_act(request, table_id: int, action: str):
    """One tap on the tablet: one service call."""
    table = _dealer_table(request, table_id)
    page = reverse("tables:dealer_table", args=[table.pk])
    try:
        _refuse_nul_bytes(request.POST)
        call, kwargs = _dealer_call(action, request.POST, table)
    except BadInput as bad:
        return _answer(request, lambda n: rendering.dealer_fragment(table, request.user, n), page, 400,
                       {"level": "error", "text": str(bad)})
    return _submit(request, call, kwargs, table=table, page=page,
                   render_fragment=lambda notice, version=None: rendering.dealer_fragment(
                       table, request.user, notice, version=version))


# --------------------------------------------------------------------------- the pit console


def _pit(request, pit_id) -> Pit:
    pit = get_object_or_404(Pit, pk=pit_id)
    if not supervises_pit(request.user, pit):
        raise PermissionDenied
    return pit


@role_required(*SUPERVISORS)
@require_GET
def pit_console(request, pit_id: int):
    pit = _pit(request, pit_id)
    fragment = rendering.pit_fragment(pit, request.user)
    if request.htmx:
        return HttpResponse(fragment)
    table_links = [(table, sessions.box_links(table)) for table in pit.tables.order_by("name")]
    return render(request, "tables/pit_console.html", {"pit": pit, "fragment": fragment, "table_links": table_links})


def _deck_serial(post) -> str:
    """The serial of the deck the dealer counted (issue #39), when two are in play; empty otherwise."""
    serial = (post.get("deck") or "").strip()
    if len(serial) > 80 or "\x00" in serial:
        raise BadInput(_("Choose the deck you counted."))
    return serial


def _serials(post) -> tuple[str, ...]:
    """The decks' serials the pit boss ticked at the opening's check (issue #39), each a ``decks`` field (or
    typed in one, as the console once asked): one or two (THB-36)."""
    serials = tuple(dict.fromkeys(s for raw in post.getlist("decks") for s in re.split(r"[\s,;]+", raw) if s))
    if len(serials) > 2 or any(len(s) > 80 for s in serials):
        raise BadInput(_("Name one deck, or the two a shuffler plays (THB-36), by their serials."))
    return serials


def _one_serial(post, name: str) -> str:
    """One deck's serial chosen on the console's deck change (issue #39): the deck leaving play, or the new one."""
    serial = (post.get(name) or "").strip()
    if len(serial) > 80 or (name == "deck" and not serial):
        raise BadInput(_("Choose the new deck: one issued to this table, or one of the pit's stock."))
    return serial


def _pit_call(action: str, post):
    if action == "deck-check":
        defect = post.get("defect") or "damaged"
        if defect not in sessions.REFUSAL_DEFECTS:
            raise BadInput(_("A deck is refused for missing, damaged or marked cards."))
        return sessions.confirm_deck_check, {"approve": post.get("approve") == "1", "decks": _serials(post),
                                             "defect": defect}
    if action == "closing":
        return sessions.confirm_closing, {"approve": post.get("approve") == "1"}
    if action == "deck-change":
        return sessions.change_deck, {"retire": _one_serial(post, "retire"), "deck": _one_serial(post, "deck")}
    if action == "award":
        if post.get("approve") == "1" and post.get("confirm") != "1":
            # One tap must not pay 5,000 (issue #16): the console asks "Approve ...?" and posts confirm=1.
            raise BadInput(_("Confirm the approval: tap “Yes, approve” under the amount."))
        return services.decide_award, {"hand_id": whole(post.get("hand"), _("The hand"), low=1, high=10**9),
                                       "box": _box(post), "approve": post.get("approve") == "1",
                                       "reason": _free_text(post, "reason")}
    if action == "alert":
        return services.acknowledge_alert, {"alert_id": whole(post.get("alert"), _("The alert"), low=1, high=10**9)}
    if action == "hand-over":  # issue #38 item 5: the change the pit's rotation made due, between hands
        return services.hand_over_pit_table, {}
    raise Http404


@checks_its_own_nul_bytes
@role_required(*SUPERVISORS)
@require_POST
def pit_act(request, table_id: int, action: str):
    """One decision from the console about one table: one service call."""
    table = _supervised_table(request, table_id)
    page = reverse("tables:pit_console", args=[table.pit_id])

    def fragment(notice, version=None):  # the console shows every table of the pit: read them all
        return rendering.pit_fragment(table.pit, request.user, notice)

    try:
        _refuse_nul_bytes(request.POST)
        call, kwargs = _pit_call(action, request.POST)
    except BadInput as bad:
        return _answer(request, fragment, page, 400, {"level": "error", "text": str(bad)})
    return _submit(request, call, kwargs, table=table, page=page, render_fragment=fragment, by_the_pit=True)


@checks_its_own_nul_bytes
@role_required(*SUPERVISORS)
@require_POST
def pit_rotation(request, pit_id: int):
    """The pit boss sets the pit's dealers' rotation (issue #38 item 5; RP-07): the dealers ticked (in the list's
    order), the tables ticked (in their places' order), the down, and optionally one break (its start today and
    its minutes: no change in the 90 s before it nor during it)."""
    pit = _pit(request, pit_id)
    page = reverse("tables:pit_console", args=[pit.pk])

    def fragment(notice, version=None):
        return rendering.pit_fragment(pit, request.user, notice)

    post = request.POST
    try:
        _refuse_nul_bytes(post)
        dealers = [whole(raw, _("The dealer"), low=1, high=2**62) for raw in post.getlist("dealers")]
        chosen = {whole(raw, _("The table"), low=1, high=2**62) for raw in post.getlist("tables")}
        tables = [t for t in pit.tables.order_by("place", "name").values_list("pk", flat=True) if t in chosen]
        if not dealers or not tables:
            raise BadInput(_("Tick the dealers and the tables of the rotation."))
        down = whole(post.get("down_minutes"), _("The down"), low=1, high=240)
        breaks = []
        if post.get("break_at", "").strip():
            try:
                clock = datetime.time.fromisoformat(post["break_at"].strip())
            except ValueError:
                raise BadInput(_("The break's start is a time of day, such as 22:30.")) from None
            minutes = whole(post.get("break_minutes"), _("The break's minutes"), low=1, high=240)
            start = timezone.make_aware(datetime.datetime.combine(timezone.localdate(), clock))
            breaks.append((start, start + datetime.timedelta(minutes=minutes)))
    except BadInput as bad:
        return _answer(request, fragment, page, 400, {"level": "error", "text": str(bad)})

    status, notice, _result = outcome(lambda: services.set_pit_rotation(
        pit=pit, by=request.user, dealers=dealers, tables=tables, down_minutes=down, breaks=breaks),
        stale=TABLE_CHANGED)
    if status == 200 and notice is None:
        notice = {"level": "info", "text": _("The dealers' rotation is set.")}
    return _answer(request, fragment, page, status, notice)


# --------------------------------------------------------------------------- game recall


def _supervised_table(request, table_id) -> Table:
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    if not supervises(request.user, table):
        raise PermissionDenied
    return table


@role_required(*SUPERVISORS)
@require_GET
def hand_recall(request, table_id: int):
    """The table's hands as they were played, action by action (game recall, THB-71), a page at a time,
    filtered by table, session, dates and hand number (issue #16: one 5,457 px page for four hands)."""
    table = _supervised_table(request, table_id)
    query = request.GET
    chosen = query.get("table", "")
    if _digits(chosen) and int(chosen) != table.pk:
        # The table chooser: the same filters at another table (which checks its own supervisor).
        rest = query.copy()
        rest.pop("table", None)
        rest.pop("page", None)
        return redirect(f"{reverse('tables:hand_recall', args=[int(chosen)])}?{rest.urlencode()}")
    hands = Hand.objects.filter(table=table).select_related("table", "session").order_by("-number")
    errors = []
    session_id = query.get("session", "").strip()
    if session_id:
        if _digits(session_id):
            hands = hands.filter(session_id=int(session_id))
        else:
            errors.append(_("The session must be chosen from the list."))
            session_id = ""
    for name, lookup, label in (("from", "started_at__date__gte", _("The first day")),
                                ("to", "started_at__date__lte", _("The last day"))):
        raw = query.get(name, "").strip()
        if raw:
            try:
                hands = hands.filter(**{lookup: datetime.date.fromisoformat(raw)})
            except ValueError:
                errors.append(_("%(what)s must be a date such as 2026-11-24, not “%(value)s”.")
                              % {"what": label, "value": raw[:20]})
    number = query.get("hand", "").strip()
    if number:
        if _digits(number):
            hands = hands.filter(number=int(number))
        else:
            errors.append(_("The hand must be a number, not “%(value)s”.") % {"value": number[:20]})
    page = Paginator(hands, RECALL_PAGE).get_page(query.get("page"))
    keep = query.copy()
    keep.pop("page", None)
    context = {
        "table": table,
        "hands": _with_reconstructions([rendering.recall_view(hand) for hand in page.object_list]),
        "page": page,
        "filters": {"session": session_id, "from": query.get("from", ""), "to": query.get("to", ""), "hand": number},
        "keep": keep.urlencode(),
        "errors": errors,
        "sessions": list(table.sessions.order_by("-requested_at")[:50]),
        "tables": [t for t in Table.objects.select_related("pit").order_by("name") if supervises(request.user, t)],
        "single": bool(number),
    }
    return render(request, "tables/recall.html", context)


def _pit_boss_signature(request, pit_boss):
    """The table's pit boss, if the password typed in the reconstruction form is his (THB-71); a wrong or
    missing one signs nothing. Checked by ``authenticate``, so django-axes counts a wrong password as it
    does at the login page (and locks the pit boss's name out after as many). The signer is not logged in."""
    password = request.POST.get("pit_boss_password", "")
    if pit_boss is None:
        raise RuleViolation(N_("This table's pit has no pit boss to sign the reconstruction."), "THB-71")
    if not isinstance(password, str) or not password or len(password) > 4096:
        raise RuleViolation(N_("The pit boss signs the reconstruction with his own password."), "THB-71")
    if pit_boss.pk == request.user.pk:
        return pit_boss  # the service refuses a signer who is the recorder, with its own sentence
    signer = authenticate(request, username=pit_boss.get_username(), password=password)
    if signer is None or signer.pk != pit_boss.pk:
        raise RuleViolation(N_("The pit boss's password is not right: the reconstruction is not signed."),
                            "THB-71")
    return signer


def _with_reconstructions(hands: list[dict]) -> list[dict]:
    """Each recalled hand with its audited reconstructions (THB-71): when, why, who recorded it, the pit
    boss who signed it and the games director informed, as the pit's recall shows them."""
    from casino.models import AuditEvent

    found: dict[str, list[dict]] = {}
    for event in AuditEvent.objects.filter(object_type="tables.hand", action="hand.reconstructed",
                                           object_id__in=[str(h["hand"].pk) for h in hands]).order_by("at", "seq"):
        found.setdefault(event.object_id, []).append({"at": event.at, **event.details})
    for h in hands:
        h["reconstructions"] = found.get(str(h["hand"].pk), [])
        h["reconstructable"] = h["hand"].is_over
    return hands


@role_required(*SUPERVISORS)
def hand_reconstruction(request, hand_id: int):
    """Reconstruct a disputed hand (THB-71) "en presencia del Jefe de Mesa": the games director or an
    administrator records it at the console, says why and which games director was informed, and the
    table's pit boss signs it there with his own password (a second person; his name alone signs
    nothing). Only a settled or voided hand; audited; the page then shows the hand rebuilt action by
    action."""
    hand = get_object_or_404(Hand.objects.select_related("table", "table__pit", "table__pit__pit_boss"),
                             pk=hand_id)
    if not supervises(request.user, hand.table):
        raise PermissionDenied
    User = get_user_model()
    directors = [u for u in User.objects.filter(is_active=True).order_by("username")
                 if has_role(u, Role.GAMES_DIRECTOR)]
    pit_boss = hand.table.pit.pit_boss
    context = {"hand": hand, "table": hand.table, "directors": directors, "steps": None, "error": None,
               "pit_boss": pit_boss, "signer_is_recorder": pit_boss is not None and pit_boss.pk == request.user.pk}
    if request.method == "POST":
        chosen = request.POST.get("director", "")
        director = next((d for d in directors if str(d.pk) == chosen), None)
        try:
            signer = _pit_boss_signature(request, pit_boss)
            services.record_reconstruction(hand=hand, by=request.user, reason=_free_text(request.POST, "reason"),
                                           director=director, pit_boss=signer)
        except RuleViolation as refused:
            context["error"] = refusal_text(refused)
        else:
            context["steps"] = rendering.reconstruction_view(hand)
            context["director"] = director
            context["signer"] = signer
    return render(request, "tables/reconstruction.html", context)


@role_required(*SUPERVISORS)
@require_GET
def session_download(request, table_id: int, session_id: int):
    """Every recorded hand of one table session in one ``replay_hand`` file (JSON Lines, docs/hand-history.md).

    A hand still in play has no record yet and is left out; the file's name says the session.
    """
    table = _supervised_table(request, table_id)
    session = get_object_or_404(table.sessions, pk=session_id)
    lines = []
    for hand in session.hands.select_related("table").order_by("number"):
        try:
            record = reads.hand_history_record(hand)
        except RuleViolation:
            continue  # in play: not settled, nothing to replay yet
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    response = HttpResponse("".join(line + "\n" for line in lines), content_type="application/jsonl; charset=utf-8")
    day = session.requested_at.date().isoformat()
    response["Content-Disposition"] = f'attachment; filename="{table.name}-session-{session.pk}-{day}.jsonl"'
    return response


@role_required(*SUPERVISORS)
@require_GET
def hand_download(request, hand_id: int):
    """One hand as a ``replay_hand`` line: ``python manage.py replay_hand`` reproduces its settlement."""
    hand = get_object_or_404(Hand.objects.select_related("table", "table__pit"), pk=hand_id)
    if not supervises(request.user, hand.table):
        raise PermissionDenied
    try:
        record = reads.hand_history_record(hand)
    except RuleViolation as refused:
        return HttpResponse(refusal_text(refused), status=409, content_type="text/plain; charset=utf-8")
    body = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    response = HttpResponse(body, content_type="application/jsonl; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{hand.table.name}-hand-{hand.number}.jsonl"'
    return response


# --------------------------------------------------------------------------- player links


@role_required(Role.DEALER, *SUPERVISORS)
@require_POST
def issue_box_link(request, table_id: int, number: int):
    """A new QR link for one box: the dealer of that table or its supervisors only."""
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    if not may_view(request.user, table):
        raise PermissionDenied
    try:
        link = sessions.issue_box_link(table=table, number=number, by=request.user)
    except Box.DoesNotExist:
        raise Http404 from None
    except RuleViolation as refused:
        messages.error(request, refusal_text(refused))
        return _links_home(request, table)
    return redirect("tables:player_link", link_id=link.pk)


def _links_home(request, table: Table):
    """Back where links are issued: the dealer's tables page, or a supervisor's home."""
    return redirect("tables:dealer_home" if is_dealer_at(request.user, table) else "home")


def _link_table(request, link_id) -> tuple[PlayerLink, Table]:
    link = get_object_or_404(PlayerLink, pk=link_id)
    seat = link.seat
    if not isinstance(seat, Seating) or not may_view(request.user, seat.box.table):
        raise PermissionDenied
    return link, seat.box.table


@role_required(Role.DEALER, *SUPERVISORS)
def player_link(request, link_id):
    link, table = _link_table(request, link_id)
    url = player_links.url_for(link, request)
    context = {"link": link, "table": table, "url": url, "qr": player_links.qr_svg(url)}
    return render(request, "tables/player_link.html", context)


@role_required(Role.DEALER, *SUPERVISORS)
@require_POST
def revoke_link(request, link_id):
    link, table = _link_table(request, link_id)
    player_links.revoke_player_link(link, by=request.user, stream=object_label(table))
    messages.success(request, _("The link for %(seat)s no longer works.") % {"seat": link.label})
    # Back to the screen the link was revoked from: the tablet, the console, or where links are issued.
    back = request.POST.get("next")
    if back == "tablet" and is_dealer_at(request.user, table):
        return redirect("tables:dealer_table", table_id=table.pk)
    if back == "console" and supervises_pit(request.user, table.pit):
        return redirect("tables:pit_console", pit_id=table.pit_id)
    return _links_home(request, table)

