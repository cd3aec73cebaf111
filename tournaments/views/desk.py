"""The registration desk (issue #36, item 12): a player registered, accredited and handed his QR in the typed
fields and two taps, the desk back on an empty form with the last entry confirmed, and the entries found by
name, ID or entry number; the entry's page, the exclusion list's import, the receipts and the QR links.

The rules stay the services' (``services.register``: ID checks, the exclusion list, age, a second entry;
``services.accredit``: the document must be the entry's). The desk only chains them and reads what it shows:
who is accredited (the record's ``id_checked`` events after their corrections), where the last entry sits,
which entries match a search."""

from __future__ import annotations

import hashlib
import unicodedata
import uuid
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino import player_links
from casino.access import role_required
from casino.form_input import BadInput, version_and_key
from casino.i18n import explain
from casino.models import PlayerLink
from casino.rules.errors import RuleViolation
from casino.rules.tournament.eligibility import ID_TYPES, normalise_id_number
from casino.rules.tournament.record import IN_PLAY, parse_at
from casino.writes import asking
from tournaments import access, forms, record_text, services
from tournaments.models import Entry, ExclusionListEntry, Tournament
from tournaments.projections import entry_number
from tournaments.reads import event as event_reads
from tournaments.reads.event import fold
from tournaments.services import links
from tournaments.views.common import (
    DIRECTORS,
    FLOOR,
    changed_since_the_page,
    entry_or_404,
    outcome,
    page_context,
    require_directs,
)

#: the longest search the desk reads (a name and a surname, an ID with its dots)
QUERY_LIMIT = 80
#: an ID is found from this many of its characters: fewer match half the room's documents
ID_MATCH_FROM = 4


def _refusals(tournament) -> list[dict]:
    """The registrations refused, newest first, each with its reason in the viewer's language."""
    refused = [e for e in event_reads.record_of(tournament) if e["type"] == "refused"][-20:]
    return [{"at": parse_at(e["at"]), "reason": _refusal_text(e), "clause": e.get("clause")} for e in refused[::-1]]


def _refusal_text(event: dict) -> str:
    """The record keeps the refusal's English sentence (it holds no name); said in the viewer's language
    from the template it was made from (``record_text.refusal_sentence``)."""
    return record_text.refusal_sentence(event.get("reason") or "")


def _registration_page(request, tournament, values=None, status=200, notice=None):
    board = event_reads.board_at(tournament)
    latest = ExclusionListEntry.objects.order_by("-imported_at").first()
    context = {**page_context(request, tournament, "registration"), "values": values or {}, "notice": notice,
               **desk_context(request, tournament, link_of=_entry_link), "board": board,
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
        # "accredit now" (ticked by default): the document just typed is the accreditation's too (CC-24, CC-28)
        return register(tournament, request.user, post, fields, accredit=accredit_now(post))

    status, notice, result = outcome(run, changed_since_the_page(tournament, post))
    tournament.refresh_from_db()
    if status == 200 and result.refusal is not None:
        # Refused (under age, excluded, a second entry...): recorded with its reason, shown, the form kept.
        status, notice = 422, {"level": "error", "text": explain(result.refusal)}
    if status != 200:
        return _registration_page(request, tournament, dict(post.items()), status, notice)
    # back on an empty form, the entry just made confirmed above it with its receipts (issue #36)
    return redirect(desk_url(tournament, last=result.entry))


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
    require_directs(request, tournament)
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
        return services.import_exclusion_csv(by=request.user, text=content, source=upload.name[:200])

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


@role_required(*FLOOR)
@require_GET
def entry_page(request, tournament_id: int, entry: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    the_entry = entry_or_404(tournament, entry)
    board = event_reads.board_at(tournament)
    state = event_reads.tournament_state(tournament)
    mine = next((e for e in getattr(state, "entries", ()) if e.entry == entry), None)
    paid, held = (mine.paid, mine.held) if mine is not None else (0, False)
    return render(request, "tournaments/console_entry.html", {
        **page_context(request, tournament, "entry"), "entry": the_entry, "number": entry, "id_types": ID_TYPES,
        "seat": board.seats.get(entry), "finish": board.finishes.get(entry), "leaving": board.leaving.get(entry),
        "paid": paid, "held": held, "links": _working_links(the_entry),
        "accredited": mine is not None and "accreditation" in mine.checks})


def _working_links(entry: Entry) -> list[PlayerLink]:
    """The entry's player links that still work, newest first (the director may end them)."""
    return list(PlayerLink.objects.filter(seat_type=ContentType.objects.get_for_model(Entry), seat_id=entry.pk,
                                          revoked_at__isnull=True, expires_at__gt=timezone.now())
                .order_by("-created_at"))


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
    number = entry_number(entry)
    board = event_reads.board_at(tournament)
    context = {**page_context(request, tournament, "receipt"), "entry": entry, "number": number, "kind": kind,
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
    if not access.may_work_floor(request.user, tournament):
        raise PermissionDenied
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    try:
        link = links.issue_entry_link(entry, by=request.user)
    except RuleViolation as refused:
        messages.error(request, explain(refused))
        response = redirect(back_to_the_desk(tournament, request.POST) if from_the_desk(request.POST)
                            else reverse("tournaments:entry", args=[tournament.pk, entry.number]))
        response["X-Refused"] = "422"
        return response
    if from_the_desk(request.POST):  # the QR shown on the desk, for the player to scan there
        return redirect(desk_url(tournament, last=entry.number, link=link.pk))
    return redirect(reverse("tournaments:receipt", args=[tournament.pk, entry.pk, "accreditation"])
                    + f"?link={link.pk}")


# --- The desk: the entries found, the last one confirmed, register and accredit in one (issue #36) ---------


@dataclass(frozen=True)
class DeskEntry:
    """One entry as the desk lists it."""

    pk: int
    number: int
    name: str
    status: str  # the entry's status, in the viewer's language
    in_play: bool
    accredited: bool
    table: int | None
    seat: int | None
    id_type: str  # the registered document's type: the accreditation form offers it first
    id_number: str  # normalised; never printed on the page, only searched
    find: str  # what the live filter matches: the number and the folded name

    @property
    def seated(self) -> bool:
        return self.table is not None and self.seat is not None


def desk_entries(tournament: Tournament) -> list[DeskEntry]:
    """Every entry of the event in number order, with its accreditation and seat as the record stands (a
    corrected accreditation no longer counts)."""
    state = event_reads.tournament_state(tournament)
    out = []
    for row in Entry.objects.filter(tournament=tournament).select_related("player").order_by("number"):
        known = state.entry(row.number)
        checks = known.checks if known is not None else ()
        player = row.player
        out.append(DeskEntry(
            pk=row.pk, number=row.number, name=row.player_name, status=row.get_status_display(),
            in_play=row.status in IN_PLAY, accredited="accreditation" in checks,
            table=known.table if known is not None else None, seat=known.seat if known is not None else None,
            id_type=player.id_type if player else "", id_number=player.id_number if player else "",
            find=f"{row.number} {fold(row.player_name)}"))
    return out


def clean_query(raw: object) -> str:
    """The search as typed, trimmed to what a desk types (a NUL or a control character is dropped)."""
    text = str(raw or "")[:QUERY_LIMIT]
    return "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()


def find(entries: list[DeskEntry], query: str) -> list[DeskEntry]:
    """The entries a search names: its entry number ("12", "#12"), its ID number from four characters on
    (dots, dashes and case ignored: "30.123" finds 30123456), or every word of it in the name (accents and
    case ignored, any order). An event has a few thousand entries at most: filtered here, in one pass."""
    query = clean_query(query)
    if not query:
        return list(entries)
    number = query.lstrip("#").strip()
    as_number = int(number) if number.isascii() and number.isdigit() and len(number) <= 9 else None
    id_needle = normalise_id_number(query)
    by_id = len(id_needle) >= ID_MATCH_FROM and id_needle.isascii() and id_needle.isalnum()
    words = fold(query).split()
    return [e for e in entries
            if e.number == as_number
            or (by_id and id_needle in e.id_number)
            or (words and all(w in fold(e.name) for w in words))]


def entry_number_or_none(raw: object) -> int | None:
    """A ``last`` entry number from the address, or None for anything that is not one."""
    text = str(raw or "").strip()
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 9 else None


def desk_url(tournament: Tournament, *, last: int | None = None, link=None, query: str = "") -> str:
    """The desk's address: the last entry to confirm (and its fresh QR link), the search kept."""
    params = {}
    if last is not None:
        params["last"] = str(last)
    if link is not None:
        params["link"] = str(link)
    if query:
        params["q"] = query
    url = reverse("tournaments:registration", args=[tournament.pk])
    return f"{url}?{urlencode(params)}" if params else url


def from_the_desk(post) -> bool:
    """Whether a form was sent from the desk (its answer goes back there, not to the entry's page)."""
    return post.get("from") == "desk"


def back_to_the_desk(tournament: Tournament, post) -> str:
    return desk_url(tournament, query=clean_query(post.get("q")))


def accredit_now(post) -> bool:
    """The desk's "accredit now" box: the document just typed is the one shown for the accreditation."""
    return post.get("accredit") == "1"


def second_key(key: str, what: str) -> str:
    """The key of a second write a form makes (the accreditation after the registration): its own, and the
    same at every retry of the form; a key too long for the suffix is replaced by its digest."""
    derived = f"{key}:{what}"
    return derived if len(derived) <= 100 else f"{hashlib.sha256(key.encode()).hexdigest()}:{what}"


def register(tournament: Tournament, user, post, fields: dict, *, accredit: bool):
    """``services.register`` and, when the desk ticked "accredit now", ``services.accredit`` with the same
    document, in one transaction: both or neither. A refused registration (recorded by the service with
    its reason) is not accredited; a form sent again is answered by both writes' stored results."""
    version, key = version_and_key(post)
    with transaction.atomic(), asking({"service": "register", **fields, "accredit": accredit}):
        result = services.register(tournament=tournament, by=user, key=key, expected_version=version, **fields)
        if accredit and result.refusal is None and result.entry is not None:
            services.accredit(tournament=tournament, by=user, key=second_key(key, "accredit"),
                              expected_version=result.version, entry=result.entry, id_type=fields["id_type"],
                              id_number=fields["id_number"])
    return result


def accredited_message(tournament: Tournament, number: int) -> str:
    """What an accreditation's success says: who was accredited."""
    entry = Entry.objects.filter(tournament=tournament, number=number).first()
    name = entry.player_name if entry is not None else ""
    return _("Entry #%(number)s, %(name)s, is accredited.") % {"number": number, "name": name}


def desk_context(request, tournament: Tournament, *, link_of) -> dict:
    """What the desk shows besides its form: the entries (those the search names), the last entry
    registered with its receipts (and its QR once issued: ``link_of(entry, link_id)``, the usable link of
    that very entry or None), the search."""
    entries = desk_entries(tournament)
    query = clean_query(request.GET.get("q"))
    shown = find(entries, query)
    last_number = entry_number_or_none(request.GET.get("last"))
    last = next((e for e in entries if e.number == last_number), None) if last_number is not None else None
    qr = None
    if last is not None and (link := link_of(last, request.GET.get("link", ""))) is not None:
        url = player_links.url_for(link, request)
        qr = {"link": link, "url": url, "svg": player_links.qr_svg(url)}
    return {"entries": shown, "entry_count": len(entries), "query": query, "last": last, "last_qr": qr,
            "accredited_count": sum(1 for e in entries if e.accredited)}
