"""The event's read-mostly pages: a table's page (its seats, penalties and the floor's forms), the record with its
corrections, the classification, the chip-count sheet, the seating, and the hands' export (JSON lines)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.access import role_required
from casino.form_input import BadInput
from casino.rules.tournament.record import parse_at, voided_seqs
from tournaments import access, forms, record_text
from tournaments.models import DealtTable, Tournament
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import console
from tournaments.views.common import FLOOR, INFRACTION_LABELS, page_context


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
        **page_context(request, tournament, "table"), "table": found, "field": the_field,
        "denominations": structure.denominations[:-1] if structure else (),
        "penalties": _penalties_at(tournament, found), "infractions": INFRACTION_LABELS.items(),
        **_hand_in_play_at(tournament, table),
        "penalty_kinds": (("warning", _("Warning")), ("hands", _("Hands")), ("rounds", _("Rounds")))})


def _hand_in_play_at(tournament: Tournament, number: int) -> dict:
    """The hand in play at a dealt table, its actions after the deal, for the director's ruling (TDA-01)."""
    from casino.rules.holdem.hand import ENDED, Phase
    table = DealtTable.objects.filter(tournament=tournament, number=number).first()
    hand = hand_reads.latest_hand(table) if table is not None else None
    if hand is None or Phase(hand.phase) in ENDED:
        return {}
    actions = [{"seq": r.seq, "action": r.record.get("action"), "seat": r.record.get("seat"),
                "to": r.record.get("to"), "cards": r.record.get("cards") or ([r.record["card"]] if r.record.get("card")
                                                                           else []),
                # TDA-53: an act out of turn names its act, the director's ruling on a skipped hand its ruling
                "act": r.record.get("act"), "ruling": r.record.get("ruling")}
               for r in hand_reads.effective_rows(hand) if not hand_reads.part_of_the_deal(r, hand)]
    return {"dealt_table": table, "hand_in_play": hand, "hand_actions": actions}


def _penalties_at(tournament: Tournament, table) -> list[dict]:
    """The penalties given to the players now at ``table`` (TDA-71-A: repeat offences escalate, so the
    floor sees the earlier ones), the latest first."""
    state = event_reads.tournament_state(tournament)
    names = {s.entry: s.name for s in table.occupied}
    return [{"penalty": p, "name": names[p.entry], "infraction": INFRACTION_LABELS.get(p.infraction, p.infraction)}
            for p in reversed(getattr(state, "penalties", ())) if p.entry in names]


#: What a record line says on the corrections page: its type's words and the fields a floor person reads.
RECORD_FIELDS = ("entry", "table", "seat", "why", "from_table", "from_seat", "kind", "seconds", "chips",
                 "stack_at_start", "amount", "checkpoint", "hands", "infraction", "penalty", "voids", "reason")


def _record_line(event: dict, voided: set[int]) -> dict:
    details = ", ".join(f"{name} {event[name]}" for name in RECORD_FIELDS if event.get(name) not in (None, "", []))
    return {"seq": event["seq"], "at": parse_at(event["at"]), "type": event["type"], "details": details,
            "sentence": record_text.record_sentence(event),
            "voided": event["seq"] in voided,
            "correctable": event["type"] not in ("setup", "correction") and event["seq"] not in voided}


@role_required(*FLOOR)
@require_GET
def hands_download(request, tournament_id: int):
    """Every hand over at the event's dealt tables (``?table=N``: one table's) in one ``replay_hand`` file
    (JSON Lines, docs/hand-history.md): ``python manage.py replay_hand`` reproduces each hand's stacks,
    which the event's record keeps (its ``hand`` events). Streamed: an event deals thousands of hands."""
    from django.http import StreamingHttpResponse



    tournament = get_object_or_404(Tournament, pk=tournament_id)
    raw = request.GET.get("table", "").strip()
    try:
        table = forms.whole(raw, _("The table"), low=1, high=10_000) if raw else None
    except BadInput as bad:
        return HttpResponse(str(bad), status=400, content_type="text/plain; charset=utf-8")
    response = StreamingHttpResponse(hand_reads.hand_lines_text(tournament, table=table),
                                     content_type="application/jsonl; charset=utf-8")
    name = f"tournament-{tournament.pk}" + (f"-table-{table}" if table else "") + "-hands.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@role_required(*FLOOR)
@require_GET
def record_page(request, tournament_id: int):
    """The event's record, newest first, each line with a correction form (a reason is required)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    events = event_reads.record_of(tournament)
    voided = voided_seqs(events)
    lines = [_record_line(e, voided) for e in events[::-1][:300]]
    return render(request, "tournaments/console_record.html", {
        **page_context(request, tournament, "record"), "lines": lines})


@role_required(*FLOOR)
@require_GET
def classification(request, tournament_id: int):
    """The classification as it stands (a printable page): places, entries, names and prizes."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    board = event_reads.board_at(tournament)
    names = console.entry_names(tournament)
    rows = sorted(((finish.places, number, names.get(number, ""), finish.prize)
                   for number, finish in board.finishes.items()), key=lambda r: (r[0], r[1]))
    return render(request, "tournaments/receipt_classification.html", {
        **page_context(request, tournament, "classification"), "rows": rows, "board": board,
        "printed_at": timezone.now()})


@role_required(*FLOOR)
@require_GET
def chip_count_sheet(request, tournament_id: int):
    """Every table's players and chips (a printable sheet for a break's count)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/receipt_chips.html", {
        **page_context(request, tournament, "chips"), "field": console.read_field(tournament),
        "printed_at": timezone.now()})


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
    staff = request.user.is_authenticated and access.may_work_floor(request.user)
    the_field = console.read_field(tournament) if staff else None
    board = the_field.board if staff else event_reads.board_at(tournament)
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
        "minutes": console.RECENT_MOVES_MINUTES, "may_direct": staff and access.may_direct(request.user, tournament),
        "here": "seating"})
