"""The decks page of a stock (issue #39, docs/decks.md): a pit's or a tournament's decks, and each step of their
life the signers take there: receive, issue to a table, check, retire, declare defective, sign the cancellation.

The page knows no game: the stock's label names it, and the game that registered it
(``casino.deck_reads.register_stock``) says who signs there (the object check) and which tables it has. Each
post is one command of ``casino.decks`` (the role check, the engine, the step, the audit); a refusal is answered
with its clause and nothing recorded, bad input with what is wrong (400), never a 500.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino import deck_reads, deck_screen, decks
from casino.access import role_required
from casino.bad_input import has_nul
from casino.form_input import BadInput, version_and_key, whole
from casino.models import Deck
from casino.refusals import mark_refusal, outcome
from casino.roles import Role

#: Who opens a stock's decks page (the object check is the stock's game's).
DECK_SIGNERS = (Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR, Role.TOURNAMENT_DIRECTOR,
                Role.TOURNAMENT_FLOOR)
DEFECTS = deck_screen.DEFECTS


def _stock(request, stock: str):
    found = deck_reads.stock_of(stock) if len(stock) <= 80 else None
    if found is None:
        raise Http404
    kind, obj = found
    if not kind.may_sign(request.user, obj):
        raise PermissionDenied
    return kind, obj


def _page(request, stock: str, kind, obj, *, notice: dict | None = None, status: int = 200):
    """The page, or (an htmx post's answer) its live fragment alone: the same fragment its socket pushes."""
    fragment = deck_screen.decks_fragment(stock, kind, obj, notice)
    if request.htmx:
        return mark_refusal(HttpResponse(fragment, status=status), status, notice)
    return render(request, "casino/decks.html", {
        "stock": stock, "stock_name": kind.name(obj), "fragment": fragment,
        "home": kind.home(obj) if kind.home else None}, status=status)


@never_cache
@role_required(*DECK_SIGNERS)
@require_GET
def stock_decks(request, stock: str):
    """The stock's decks, each with its state, table and steps, and the forms of the steps it may take next."""
    kind, obj = _stock(request, stock)
    return _page(request, stock, kind, obj)


def _text(post, name: str, what: str, *, required: bool = False, limit: int = 80) -> str:
    value = (post.get(name) or "").strip()
    if has_nul(value):
        raise BadInput(_("%(what)s holds a character that is not allowed.") % {"what": what})
    if required and not value:
        raise BadInput(_("%(what)s is required.") % {"what": what})
    if len(value) > limit:
        raise BadInput(_("%(what)s is longer than %(limit)d characters.") % {"what": what, "limit": limit})
    return value


def _back(post) -> str:
    """The back's colour: red or blue tapped (a shuffler's pair, THB-36, kept in the engine's words), or another
    colour typed, which wins when given."""
    return (_text(post, "back_other", _("The back's colour"), limit=30)
            or _text(post, "back", _("The back's colour"), required=True, limit=30))


def _deck(post, stock: str) -> Deck:
    deck = Deck.objects.filter(pk=whole(post.get("deck"), _("The deck"), low=1, high=10**12), stock=stock).first()
    if deck is None:
        raise BadInput(_("That deck is not in this stock."))
    return deck


def _command(action: str, post, stock: str, kind, obj, by):
    """The one command a post asks for."""
    if action == "receive":
        return lambda: decks.receive_deck(stock=stock, stock_name=kind.name(obj), by=by,
                                          back=_back(post),
                                          design=_text(post, "design", _("The design")),
                                          serial=_text(post, "serial", _("The lot or serial"), required=True))
    deck = _deck(post, stock)
    version, key = version_and_key(post)
    common = {"deck": deck, "by": by, "key": key, "expected_version": version}
    if action == "issue":
        places = dict(kind.places(obj))
        place = post.get("place", "")
        if place not in places:
            raise BadInput(_("Choose one of this stock's tables."))
        return lambda: decks.issue_deck(**common, place=place, place_name=places[place])
    if action == "check":
        counted = post.get("counted", "").strip()
        return lambda: decks.check_deck(**common, complete=post.get("complete") == "1",
                                        undamaged=post.get("undamaged") == "1", unmarked=post.get("unmarked") == "1",
                                        counted=whole(counted, _("The count"), low=0, high=200) if counted else None)
    if action == "retire":
        return lambda: decks.retire_deck(**common, reason=_text(post, "reason", _("Why"), limit=200))
    if action == "defective":
        defect = post.get("defect", "")
        if defect not in DEFECTS:
            raise BadInput(_("Choose one of the defects."))
        return lambda: decks.declare_defective(**common, defect=defect,
                                               reason=_text(post, "reason", _("Why"), limit=200))
    if action == "sign":
        counted = post.get("counted", "").strip()
        return lambda: decks.sign_cancellation(
            **common, counted=whole(counted, _("The count"), low=0, high=200) if counted else None)
    raise Http404


@never_cache
@role_required(*DECK_SIGNERS)
@require_POST
def stock_act(request, stock: str, action: str):
    """One step of one deck of the stock: one command; the page answers with the stock as it is now."""
    kind, obj = _stock(request, stock)

    def run():
        return _command(action, request.POST, stock, kind, obj, request.user)()

    status, notice, _result = outcome(run, stale=_("The deck changed meanwhile: look again."))
    if status != 200 or request.htmx:
        # on the live page the answer is the stock as it is now, with what was recorded or why not
        shown = notice or {"level": "info", "text": _("Recorded.")}
        return _page(request, stock, kind, obj, notice=shown, status=status)
    messages.success(request, notice["text"] if notice else _("Recorded."))
    return redirect("stock_decks", stock=stock)
