"""The director's and the floor's screens for the qualifying series, the day's end and the Final Stage (CC-05..CC-10,
docs/tournaments.md "Flights"): the flights page with its forms (each one ``console.act`` call, ``FLIGHT_ACTIONS``),
the counts sheet of a day's end per table, printable, and its CSV export (the bytes whose SHA-256 the record keeps)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.access import role_required
from casino.form_input import BadInput
from casino.rules.tournament import flights
from tournaments import forms
from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering import console
from tournaments.rendering import flights as flights_screen
from tournaments.views.common import FLOOR, page_context

# --- The forms' fields (``console.ACTIONS``) -------------------------------------------------------------


def _level(post, name: str, what: str, *, required: bool = True) -> int | None:
    raw = str(post.get(name) or "").strip()
    if not raw and not required:
        return None
    return forms.whole(raw, what, low=1, high=500)


def parse_set_series(post, tournament) -> dict:
    return {"series": forms.whole(post.get("series"), _("The number of series"), low=2, high=50),
            "end_level": _level(post, "end_level", _("The series' last level")),
            "qualifiers": forms.whole(post.get("qualifiers"), _("The qualifiers per series"), low=1, high=10_000),
            "choice": post.get("choice") == "1"}


def parse_change_series(post, tournament) -> dict:
    raw = str(post.get("series") or "").strip()
    series = None if raw in ("", "all") else forms.whole(raw, _("The series"), low=1, high=50)
    qualifiers = str(post.get("qualifiers") or "").strip()
    return {"series": series, "end_level": _level(post, "end_level", _("The series' last level"), required=False),
            "qualifiers": forms.whole(qualifiers, _("The qualifiers per series"), low=1, high=10_000)
            if qualifiers else None,
            "reason": forms.reason(post)}


def parse_series(post, tournament) -> dict:
    return {"series": forms.whole(post.get("series"), _("The series"), low=1, high=50)}


def parse_choose_series(post, tournament) -> dict:
    return {"entry": forms.whole(post.get("entry"), _("The entry number"), low=1, high=10**7),
            **parse_series(post, tournament)}


def parse_end_day(post, tournament) -> dict:
    """``count_<entry>``: the floor's count of a player's chips (a table without a tablet, or a recount); an empty
    field at a tablet's table keeps the tablet's stack."""
    counts = {}
    for name, value in post.items():
        if name.startswith("count_") and str(value).strip():
            entry = forms.whole(name.removeprefix("count_"), _("The entry number"), low=1, high=10**7)
            counts[entry] = forms.whole(value, _("The chips of entry %(entry)d") % {"entry": entry}, low=1)
    return {"floor_counts": counts}


def parse_final_stage(post, tournament) -> dict:
    return {"end_level": _level(post, "end_level", _("The day's last level"), required=False)}


def parse_check_in(post, tournament) -> dict:
    code = forms.text(post, "receipt", _("The receipt's code"), limit=20).strip().upper()
    if code and not (code.isascii() and code.isalnum()):
        raise BadInput(_("The receipt's code is letters and digits."))
    return {"entry": forms.whole(post.get("entry"), _("The entry number"), low=1, high=10**7), "receipt": code}


# --- The pages ----------------------------------------------------------------------------------------


@role_required(*FLOOR)
@require_GET
def flights_page(request, tournament_id: int):
    """The series, the day's end (its counts per table) and the Final Stage's check-in, live: its part below the
    navigation is ``rendering.flights``'s fragment, pushed again by its socket at each change of the event."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/console_flights.html", {
        **page_context(request, tournament, "flights"),
        "fragment": flights_screen.flights_fragment(tournament, request.user)})


def _day_ended(tournament: Tournament, seq: int) -> dict:
    event = next((e for e in event_reads.record_of(tournament) if e["seq"] == seq and e["type"] == "day_ended"),
                 None)
    if event is None:
        raise Http404
    return event


@role_required(*FLOOR)
@require_GET
def counts_sheet(request, tournament_id: int, seq: int):
    """A day's end's counts sheet, one table a page when printed (``?table=N``: that table's alone), each bag with
    its count's source and receipt code, and the receipts to cut out and hand to each player (CC-09)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    event = _day_ended(tournament, seq)
    names = console.entry_names(tournament)
    bags = sorted(flights.bags_from_event(event), key=lambda b: (b.table, b.seat))
    only = request.GET.get("table")
    if only:
        try:
            table = forms.whole(only, _("The table"), low=1, high=10_000)
        except BadInput:
            raise Http404 from None
        bags = [b for b in bags if b.table == table]
    by_table: dict[int, list] = {}
    for b in bags:
        by_table.setdefault(b.table, []).append({"bag": b, "name": names.get(b.entry, "")})
    return render(request, "tournaments/receipt_counts.html", {
        **page_context(request, tournament, "counts"), "event": event,
        "tables": [{"table": n, "rows": rows, "chips": sum(r["bag"].chips for r in rows)}
                   for n, rows in sorted(by_table.items())],
        "total": sum(b.chips for b in bags), "printed_at": timezone.now()})


@role_required(*FLOOR)
@require_GET
def counts_export(request, tournament_id: int, seq: int):
    """The counts sheet as CSV: exactly the bytes whose SHA-256 the record's ``day_ended`` keeps (``digest``)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    event = _day_ended(tournament, seq)
    text = flights.counts_csv(int(event.get("day") or 1), event.get("series"), flights.bags_from_event(event))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="counts-{tournament.pk}-{seq}.csv"'
    return response
