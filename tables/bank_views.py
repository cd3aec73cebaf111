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

The pages are live (``tables.bank_rendering`` renders each one's fragment, ``tables.consumers`` pushes it again).

Every post is one command of ``tables.bank`` (CSRF, the request's key, the version shown): a refusal is answered
with its clause (422) or 403, bad input 400, nothing recorded; never a 500.
"""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.access import role_required
from casino.audit import record_event
from casino.bad_input import has_nul
from casino.form_input import BadInput, version_and_key, whole
from casino.refusals import outcome
from casino.roles import Role
from casino.rules import bank as rules
from tables import bank, bank_reads, bank_rendering
from tables.access import BANK_SUPERVISORS, SLIP_PEOPLE, is_dealer_at, may_see_slip, may_view, supervises
from tables.models import ChipSlip, FloatCount, Table, chip_denominations

STALE = gettext_lazy("The slip or the table changed meanwhile: look again.")
QUEUES = tuple(bank_rendering.QUEUE_HOMES.values())


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
    if not may_view(request.user, table):
        raise PermissionDenied
    return table


def _table_page(request, table: Table, *, notice: dict | None = None, status: int = 200):
    """The table's bank page around its live fragment (``tables.bank_rendering``), which its socket pushes again at
    every change of the table or its slips (a fill issued by the cage shows here at once)."""
    fragment = bank_rendering.table_bank_fragment(table.pk, request.user, notice)
    return render(request, "tables/bank_table.html", {
        "table": table, "fragment": fragment, "is_dealer": is_dealer_at(request.user, table),
        "is_supervisor": supervises(request.user, table)}, status=status)


@never_cache
@role_required(Role.DEALER, *BANK_SUPERVISORS)
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
    # A count and a drop say what the dealer has in his hands (the tray, the cash), not what the page showed: a step
    # of someone else meanwhile (the pit boss signing the float, a hand on the tablet) must not refuse them as stale
    # and lose what he typed. The key still makes a repeated post one record; the services check the session.
    # The pit boss's signature stays guarded by the version: he signs the count his page showed.
    physical = {**common, "expected_version": None}
    if action == "count-float":
        return bank.count_float(**physical, stage=_stage(post), chips=_chips(post, table))
    if action == "sign-float":
        return bank.sign_float(**common, stage=_stage(post), reason=_reason(post))
    if action == "drop":
        kind = post.get("kind", "cash")
        if kind not in rules.DropKind._value2member_map_:
            raise BadInput(_("The drop is cash or a marker."))
        return bank.record_drop(**physical, kind=kind, amount=whole(post.get("amount"), _("The amount"), low=1))
    raise Http404


@never_cache
@role_required(Role.DEALER, *BANK_SUPERVISORS)
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


def _slip_page(request, slip: ChipSlip, *, notice: dict | None = None, status: int = 200):
    url = request.build_absolute_uri(reverse("tables:slip", args=[slip.pk]))
    return render(request, "tables/bank_slip.html", {
        "slip": slip, "fragment": bank_rendering.slip_fragment(slip.pk, request.user, notice),
        "qr": mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")),  # noqa: S308
        "url": url,
    }, status=status)


def _slip(request, slip_id: int) -> ChipSlip:
    slip = get_object_or_404(ChipSlip.objects.select_related("table", "table__pit"), pk=slip_id)
    if not may_see_slip(request.user, slip):
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
    if back == "bank":  # signed on the table's bank page: back there
        return redirect("tables:table_bank", table_id=slip.table_id)
    return redirect(back) if back in QUEUES else redirect("tables:slip", slip_id=slip.pk)


@never_cache
@role_required(*BANK_SUPERVISORS)
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


def _queue(request, role: str):
    """A phone's slips waiting for its step, live: its socket pushes the list again at every slip's step."""
    return render(request, "tables/bank_queue.html", {
        "title": bank_rendering.QUEUE_TITLES[role], "fragment": bank_rendering.queue_fragment(role),
        "socket": f"/ws/tables/{role}/"})


@never_cache
@role_required(Role.CAGE_CASHIER)
@require_GET
def cage_home(request):
    """The cashier's phone: the fills to issue and the credits to receive."""
    return _queue(request, rules.CAGE)


@never_cache
@role_required(Role.SECURITY_OFFICER)
@require_GET
def security_home(request):
    """The security officer's phone: the slips to carry."""
    return _queue(request, rules.SECURITY)


# --- The games director's shift report -------------------------------------------------------------------------


def figures(rows, start, end) -> dict:
    totals = sum((r.result for r in rows), rules.ZERO)
    return {"from": start.isoformat(), "to": end.isoformat(), "tables": [r.to_dict() for r in rows],
            "totals": {k: v for k, v in totals.to_dict().items() if k != "hold"}}


@never_cache
@role_required(Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)
@require_http_methods(["GET", "POST"])
def shift_report(request):
    """The report for a window; its figures live (``tables.consumers.ShiftReportConsumer``: each session closed and
    each signature pushes it again). Signed as shown (POST); its CSV audited."""
    data = request.POST if request.method == "POST" else request.GET
    try:
        start, end = bank_rendering.shift_window(data)
    except BadInput as bad:
        return render(request, "tables/bank_shift.html", {"notice": {"text": str(bad)}, "fragment": ""}, status=400)
    if request.method == "POST":
        rows = bank_reads.shift_report(start, end)
        signed = bank.sign_shift_report(by=request.user, starts_at=start, ends_at=end,
                                        figures=figures(rows, start, end))
        messages.success(request, _("Shift report signed (%(number)d).") % {"number": signed.pk})
        window = urlencode({"from": start.isoformat(), "to": end.isoformat()})
        return redirect(f"{reverse('tables:shift_report')}?{window}")
    if data.get("format") == "csv":
        rows = bank_reads.shift_report(start, end)
        record_event(action="bank.shift_report_exported", actor=request.user, stream="tables.shift",
                     details={"from": start.isoformat(), "to": end.isoformat(), "tables": len(rows)})
        response = HttpResponse(bank_reads.report_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="shift-{start:%Y%m%d-%H%M}.csv"'
        return response
    window = urlencode({"from": start.isoformat(), "to": end.isoformat()})
    return render(request, "tables/bank_shift.html", {
        "fragment": bank_rendering.shift_fragment(start, end), "from_value": start.isoformat(),
        "to_value": end.isoformat(), "socket": f"/ws/tables/shift/?{window}",
        # the window's fields as a director reads and picks them: the casino's local time to the second (the exact
        # window, which the signature and the export name, travels in the links and the signing form)
        "from_field": localtime(start).strftime("%Y-%m-%dT%H:%M:%S"),
        "to_field": localtime(end).strftime("%Y-%m-%dT%H:%M:%S")})
