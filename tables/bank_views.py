"""The table's bank's screens (issue #39, docs/bank.md).

* ``/tables/<id>/bank/``: a table's bank in its live session, for its dealer and its pit boss: the float's counts
  and signatures, the drop, the table's slips; the dealer counts the float and records the drop, the pit boss
  signs the float and requests fills and credits, either takes the table's step of a slip.
* ``/tables/slips/<id>/``: one slip, printable, with a QR code that opens it; its next step signed there by the
  person whose step it is (the cage's cashier, the security officer, the table); an unused slip (its request
  only signed) voided there by the pit boss, with a reason.
* ``/tables/cage/`` and ``/tables/security/``: the cashier's and the security officer's phone screens: the slips
  waiting for their step.
* ``/tables/shift/``: the games director's shift report: every table's floats, fills, credits, drop, win, hold,
  recorded result and difference, with its plot, its CSV (audited) and its signature.

Every post is one command of ``tables.bank`` (CSRF, the request's key, the version shown): a refusal is answered
with its clause (422) or 403, bad input 400, nothing recorded; never a 500.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.access import role_required
from casino.audit import record_event
from casino.bad_input import has_nul
from casino.form_input import BadInput, version_and_key, whole
from casino.refusals import outcome
from casino.roles import CARRY_CHIPS, WORK_CAGE, Role, can
from casino.rules import bank as rules
from tables import bank, bank_plot, bank_reads
from tables.access import is_dealer_at, supervises
from tables.models import ChipSlip, FloatCount, Table, TableSession, chip_denominations

SUPERVISORS = (Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
SLIP_PEOPLE = (Role.DEALER, *SUPERVISORS, Role.CAGE_CASHIER, Role.SECURITY_OFFICER)
STALE = gettext_lazy("The slip or the table changed meanwhile: look again.")
QUEUES = ("tables:cage_home", "tables:security_home")
ROLE_LABELS = {rules.PIT: gettext_lazy("the pit boss"), rules.CAGE: gettext_lazy("the cage"),
               rules.SECURITY: gettext_lazy("security"), rules.TABLE: gettext_lazy("the table")}


# --- Form input ------------------------------------------------------------------------------------------


def _chips(post, table: Table) -> dict[int, int]:
    chips = {}
    for denomination in chip_denominations(table):
        raw = post.get(f"chips-{denomination}", "")
        if str(raw).strip():
            count = whole(raw, _("The chips of %(denomination)d") % {"denomination": denomination}, high=100_000)
            if count:
                chips[denomination] = count
    if not chips:
        raise BadInput(_("Count the chips by denomination."))
    return chips


def _reason(post) -> str:
    reason = (post.get("reason") or "").strip()
    if has_nul(reason) or len(reason) > 200:
        raise BadInput(_("The reason is at most 200 characters, of text."))
    return reason


# --- A table's bank ------------------------------------------------------------------------------------------


def _table(request, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("pit", "dealer"), pk=table_id)
    if not (is_dealer_at(request.user, table) or supervises(request.user, table)):
        raise PermissionDenied
    return table


def _slip_rows(slips) -> list[dict]:
    rows = []
    for slip in slips:
        engine = bank.engine_slip(slip)
        upcoming = engine.next_step
        rows.append({"slip": slip, "next": upcoming[0].value if upcoming else None,
                     "steps": [(step, ChipSlip.State(step.step).label) for step in slip.steps.all()],
                     "next_label": ChipSlip.State(upcoming[0].value).label if upcoming else None,
                     "next_role": upcoming[1] if upcoming else None,
                     "next_role_label": ROLE_LABELS[upcoming[1]] if upcoming else None})
    return rows


def _opening_chips(session: TableSession | None, proposal, denominations) -> list[tuple[int, int | None]]:
    """The dealer's count form's fields: pre-filled with the last closing's chips while the opening float is to be
    counted (the session not closing, its opening not signed), else empty. The dealer still counts the tray."""
    prefill = (proposal is not None and session.status != TableSession.Status.CLOSING
               and bank_reads.signed_float(session, FloatCount.Stage.OPENING) is None)
    return [(d, proposal.chips.get(d) if prefill else None) for d in denominations]


def _table_page(request, table: Table, *, notice: dict | None = None, status: int = 200):
    session = table.sessions.filter(status__in=TableSession.LIVE).order_by("-requested_at").first()
    counts = list(session.float_counts.select_related("counted_by", "signature__signed_by")) if session else []
    denominations = chip_denominations(table)
    proposal = bank_reads.proposed_opening(session) if session else None
    context = {
        "table": table, "session": session, "counts": counts, "notice": notice,
        "denominations": denominations, "proposal": proposal,
        "blank_chips": [(d, None) for d in denominations],
        "opening_chips": _opening_chips(session, proposal, denominations),
        "is_dealer": is_dealer_at(request.user, table), "is_supervisor": supervises(request.user, table),
        "drops": list(session.drops.all()) if session else [],
        "expected": bank_reads.expected_closing(session) if session else None,
        "slips": _slip_rows(table.slips.prefetch_related("steps__by").order_by("-pk")[:20]),
        "stages": FloatCount.Stage.choices,
    }
    return render(request, "tables/bank_table.html", context, status=status)


@never_cache
@role_required(Role.DEALER, *SUPERVISORS)
@require_GET
def table_bank(request, table_id: int):
    return _table_page(request, _table(request, table_id))


def _stage(post) -> str:
    stage = post.get("stage", "")
    if stage not in FloatCount.Stage.values:
        raise BadInput(_("Choose the opening or the closing."))
    return stage


def _table_command(action: str, post, table: Table, by):
    if action == "request-slip":
        kind = post.get("kind", "")
        if kind not in ChipSlip.Kind.values:
            raise BadInput(_("Choose a fill or a credit."))
        chips = _chips(post, table)
        _version, key = version_and_key(post)
        return bank.request_slip(table=table, by=by, key=key, kind=kind, chips=chips)
    version, key = version_and_key(post)
    common = {"table": table, "by": by, "key": key, "expected_version": version}
    if action == "count-float":
        return bank.count_float(**common, stage=_stage(post), chips=_chips(post, table))
    if action == "sign-float":
        return bank.sign_float(**common, stage=_stage(post), reason=_reason(post))
    if action == "drop":
        kind = post.get("kind", "cash")
        if kind not in rules.DropKind._value2member_map_:
            raise BadInput(_("The drop is cash or a marker."))
        return bank.record_drop(**common, kind=kind, amount=whole(post.get("amount"), _("The amount"), low=1))
    raise Http404


@never_cache
@role_required(Role.DEALER, *SUPERVISORS)
@require_POST
def table_bank_act(request, table_id: int, action: str):
    table = _table(request, table_id)
    status, notice, _result = outcome(lambda: _table_command(action, request.POST, table, request.user),
                                      stale=_("The table changed meanwhile: look again."))
    if status != 200:
        return _table_page(request, table, notice=notice, status=status)
    messages.success(request, notice["text"] if notice else _("Recorded."))
    return redirect("tables:table_bank", table_id=table.pk)


# --- One slip, printable, with its QR ------------------------------------------------------------------------


def _may_see_slip(user, slip: ChipSlip) -> bool:
    return (can(user, WORK_CAGE) or can(user, CARRY_CHIPS) or is_dealer_at(user, slip.table)
            or supervises(user, slip.table))


def _slip_page(request, slip: ChipSlip, *, notice: dict | None = None, status: int = 200):
    url = request.build_absolute_uri(reverse("tables:slip", args=[slip.pk]))
    [row] = _slip_rows([slip])
    may_sign = row["next_role"] is not None and bank.role_for(request.user, slip.table, row["next_role"])
    may_void = (bank.role_for(request.user, slip.table, rules.PIT)
                and bank.engine_slip(slip).can_void(rules.PIT, request.user.pk))
    return render(request, "tables/bank_slip.html", {
        "row": row, "slip": slip, "notice": notice, "may_sign": may_sign, "may_void": may_void,
        "qr": mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")),  # noqa: S308
        "url": url,
    }, status=status)


def _slip(request, slip_id: int) -> ChipSlip:
    slip = get_object_or_404(ChipSlip.objects.select_related("table", "table__pit"), pk=slip_id)
    if not _may_see_slip(request.user, slip):
        raise PermissionDenied
    return slip


@never_cache
@role_required(*SLIP_PEOPLE)
@require_GET
def slip_view(request, slip_id: int):
    return _slip_page(request, _slip(request, slip_id))


@never_cache
@role_required(*SLIP_PEOPLE)
@require_POST
def slip_sign(request, slip_id: int):
    slip = _slip(request, slip_id)

    def run():
        version, key = version_and_key(request.POST)
        return bank.sign_slip(slip=slip, by=request.user, key=key, expected_version=version)

    status, notice, _result = outcome(run, stale=STALE)
    if status != 200:
        slip.refresh_from_db()
        return _slip_page(request, slip, notice=notice, status=status)
    messages.success(request, notice["text"] if notice else _("Signed."))
    back = request.POST.get("back", "")
    return redirect(back) if back in QUEUES else redirect("tables:slip", slip_id=slip.pk)


@never_cache
@role_required(*SUPERVISORS)
@require_POST
def slip_void(request, slip_id: int):
    """The pit boss voids an unused slip, with a reason (the house's procedure, docs/bank.md)."""
    slip = _slip(request, slip_id)

    def run():
        reason = _reason(request.POST)
        if not reason:
            raise BadInput(_("Say why the slip is voided."))
        version, key = version_and_key(request.POST)
        return bank.void_slip(slip=slip, by=request.user, key=key, expected_version=version, reason=reason)

    status, notice, _result = outcome(run, stale=STALE)
    if status != 200:
        slip.refresh_from_db()
        return _slip_page(request, slip, notice=notice, status=status)
    messages.success(request, _("Slip %(number)s voided.") % {"number": slip.number})
    return redirect("tables:slip", slip_id=slip.pk)


# --- The cage's and security's phones ------------------------------------------------------------------------


def _queue(request, role: str, title: str, home: str):
    waiting = []
    for row in _slip_rows(ChipSlip.objects.exclude(state__in=(ChipSlip.State.RECEIVED, ChipSlip.State.VOIDED))
                          .select_related("table").prefetch_related("steps__by").order_by("pk")):
        if row["next_role"] == role:
            waiting.append(row)
    return render(request, "tables/bank_queue.html", {"rows": waiting, "title": title, "home": home})


@never_cache
@role_required(Role.CAGE_CASHIER)
@require_GET
def cage_home(request):
    """The cashier's phone: the fills to issue and the credits to receive."""
    return _queue(request, rules.CAGE, _("The cage: slips waiting for you"), "tables:cage_home")


@never_cache
@role_required(Role.SECURITY_OFFICER)
@require_GET
def security_home(request):
    """The security officer's phone: the slips to carry."""
    return _queue(request, rules.SECURITY, _("Security: slips to carry"), "tables:security_home")


# --- The games director's shift report -------------------------------------------------------------------------


def _when(raw, default: datetime.datetime) -> datetime.datetime:
    if not raw:
        return default
    try:
        parsed = datetime.datetime.fromisoformat(str(raw)[:32])
    except ValueError:
        raise BadInput(_("A time is written 2026-11-27T14:00.")) from None
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def _window(data) -> tuple[datetime.datetime, datetime.datetime]:
    now = timezone.now()
    end = _when(data.get("to"), now)
    start = _when(data.get("from"), end - datetime.timedelta(hours=8))
    if start >= end:
        raise BadInput(_("The shift starts before it ends."))
    return start, end


def figures(rows, start, end) -> dict:
    totals = sum((r.result for r in rows), rules.ZERO)
    return {"from": start.isoformat(), "to": end.isoformat(), "tables": [r.to_dict() for r in rows],
            "totals": {k: v for k, v in totals.to_dict().items() if k != "hold"}}


@never_cache
@role_required(Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
@require_http_methods(["GET", "POST"])
def shift_report(request):
    data = request.POST if request.method == "POST" else request.GET
    try:
        start, end = _window(data)
    except BadInput as bad:
        return render(request, "tables/bank_shift.html", {"notice": {"text": str(bad)}, "rows": []}, status=400)
    rows = bank_reads.shift_report(start, end)
    if request.method == "POST":
        signed = bank.sign_shift_report(by=request.user, starts_at=start, ends_at=end,
                                        figures=figures(rows, start, end))
        messages.success(request, _("Shift report signed (%(number)d).") % {"number": signed.pk})
        window = urlencode({"from": start.isoformat(), "to": end.isoformat()})
        return redirect(f"{reverse('tables:shift_report')}?{window}")
    if data.get("format") == "csv":
        record_event(action="bank.shift_report_exported", actor=request.user, stream="tables.shift",
                     details={"from": start.isoformat(), "to": end.isoformat(), "tables": len(rows)})
        response = HttpResponse(bank_reads.report_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="shift-{start:%Y%m%d-%H%M}.csv"'
        return response
    totals = sum((r.result for r in rows), rules.ZERO)
    details = {row.table.pk: bank_reads.difference_details(row) for row in rows if row.result.difference}
    return render(request, "tables/bank_shift.html", {
        "rows": [(row, details.get(row.table.pk)) for row in rows], "totals": totals, "start": start, "end": end,
        "plot": bank_plot.shift_plot(rows, bank_reads.difference_over_time(start, end), start, end),
        "signatures": bank_reads.signatures(start, end), "from_value": start.isoformat(), "to_value": end.isoformat(),
    })
