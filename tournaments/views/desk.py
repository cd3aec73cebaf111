"""The registration desk's pages: registering with the ID checked, accreditation, the entries, the exclusion list's
import, the receipts and the player's QR link."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino import player_links
from casino.access import role_required
from casino.form_input import BadInput
from casino.i18n import explain
from casino.models import PlayerLink
from casino.rules.errors import RuleViolation
from casino.rules.tournament.eligibility import ID_TYPES
from casino.rules.tournament.record import parse_at
from tournaments import access, forms, services
from tournaments.models import Entry, ExclusionListEntry, Tournament
from tournaments.projections import entry_number
from tournaments.reads import event as event_reads
from tournaments.services import links
from tournaments.views.common import (
    DIRECTORS,
    FLOOR,
    call_service,
    entry_or_404,
    outcome,
    page_context,
    require_directs,
)


def _refusals(tournament) -> list[dict]:
    """The registrations refused, newest first, each with its reason in the viewer's language."""
    refused = [e for e in event_reads.record_of(tournament) if e["type"] == "refused"][-20:]
    return [{"at": parse_at(e["at"]), "reason": _refusal_text(e), "clause": e.get("clause")} for e in refused[::-1]]


def _refusal_text(event: dict) -> str:
    """The record keeps the refusal's English sentence (it holds no name); said in the viewer's language
    when its template has no values."""
    return _(event.get("reason") or "")  # noqa: INT001 - the engine's N_ templates are in the catalogue


def _registration_page(request, tournament, values=None, status=200, notice=None):
    board = event_reads.board_at(tournament)
    latest = ExclusionListEntry.objects.order_by("-imported_at").first()
    context = {**page_context(request, tournament, "registration"), "values": values or {}, "notice": notice,
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
        return call_service(services.register, tournament, request.user, post, fields)

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
        "paid": paid, "held": held, "links": _working_links(the_entry)})


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
        response = redirect("tournaments:entry", tournament_id=tournament.pk, entry=entry.number)
        response["X-Refused"] = "422"
        return response
    return redirect(reverse("tournaments:receipt", args=[tournament.pk, entry.pk, "accreditation"])
                    + f"?link={link.pk}")
