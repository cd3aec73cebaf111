"""The table's bank's live screens, each one fragment with a stable id and a version (docs/bank.md, docs/realtime.md):
the table's bank page, one slip's page, the cage's and security's phones, the games director's shift report. The
page's view renders the fragment for its first load; the sockets (``tables.consumers``) render the same fragment
for their viewer on every announcement, so a slip requested by the pit boss shows on the cashier's phone at once.

A fragment's ``data-version`` only grows: the table's version plus its slips' versions (the table's bank page), the
sum of every slip's version (the phones), the slip's version (a slip's page), the sessions closed and reports signed
(the shift report). All but a slip's page hear several aggregates, so their versions skip by design
(``data-version-gaps``: each push is the whole screen).
"""

from __future__ import annotations

import datetime

from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.form_input import BadInput
from casino.rules import bank as rules
from tables.access import is_dealer_at, slip_role_for, supervises
from tables.bank_plot import shift_plot
from tables.bank_reads import (
    difference_details,
    difference_over_time,
    engine_slip,
    expected_closing,
    proposed_opening,
    shift_report,
    signatures,
    signed_float,
)
from tables.labels import SLIP_ROLE_LABELS, slip_step_label
from tables.models import ChipSlip, FloatCount, ShiftReportSignature, Table, TableSession, chip_denominations

#: The phones: who waits for which step, and what their screen is called.
QUEUE_TITLES = {rules.CAGE: gettext_lazy("The cage: slips waiting for you"),
                rules.SECURITY: gettext_lazy("Security: slips to carry")}
QUEUE_HOMES = {rules.CAGE: "tables:cage_home", rules.SECURITY: "tables:security_home"}


def slip_rows(slips) -> list[dict]:
    """Each slip with its steps (in the reader's words), its next step and whose it is."""
    rows = []
    for slip in slips:
        upcoming = engine_slip(slip).next_step
        rows.append({"slip": slip, "next": upcoming[0].value if upcoming else None,
                     "steps": [(step, slip_step_label(step.step)) for step in slip.steps.all()],
                     "next_label": slip_step_label(upcoming[0].value) if upcoming else None,
                     "next_role": upcoming[1] if upcoming else None,
                     "next_role_label": SLIP_ROLE_LABELS[upcoming[1]] if upcoming else None})
    return rows


def signable(rows: list[dict], user, table: Table) -> list[dict]:
    """Each slip row with ``may_sign``: its next step is this person's to sign here (the table's step for its dealer
    or its pit boss), and he signed no other step of it (no one signs two; the engine refuses it anyway). The table's
    step is then one tap on the table's bank page, not a trip to the slip's page (issue #39)."""
    for row in rows:
        signed = any(step.by_id == user.pk for step, _label in row["steps"])
        row["may_sign"] = (row["next_role"] == rules.TABLE and not signed
                           and slip_role_for(user, table, row["next_role"]))
    return rows


# --- The table's bank ---------------------------------------------------------------------------------------


def table_bank_version(table: Table) -> int:
    """The table's version plus its slips' (a slip's step is not a table write, and the page shows its slips)."""
    slips = ChipSlip.objects.filter(table=table).aggregate(total=Sum("version"))["total"] or 0
    return table.version + slips


def opening_chips(session: TableSession | None, proposal, denominations) -> list[tuple[int, int | None]]:
    """The dealer's count form's fields: pre-filled with the last closing's chips (``proposed_opening``) while the
    opening float is to be counted (the session not closing, its opening not signed), else empty. It only pre-fills:
    the dealer still counts the tray and the pit boss still signs (THB-70)."""
    prefill = (proposal is not None and session.status != TableSession.Status.CLOSING
               and signed_float(session, FloatCount.Stage.OPENING) is None)
    return [(d, proposal.chips.get(d) if prefill else None) for d in denominations]


def table_bank_fragment(table_id: int, user, notice: dict | None = None) -> str:
    """The table's bank as ``user`` sees it now: the float (with the last closing proposed as the opening), the
    drop, the slips (read at once, never cached)."""
    table = Table.objects.select_related("pit", "dealer").get(pk=table_id)
    session = table.sessions.filter(status__in=TableSession.LIVE).order_by("-requested_at").first()
    counts = list(session.float_counts.select_related("counted_by", "signature__signed_by")) if session else []
    denominations = chip_denominations(table)
    proposal = proposed_opening(session) if session else None
    return render_to_string("tables/_bank_table_fragment.html", {
        "table": table, "session": session, "counts": counts, "notice": notice,
        "version": table_bank_version(table), "denominations": denominations, "proposal": proposal,
        "blank_chips": [(d, None) for d in denominations],
        "opening_chips": opening_chips(session, proposal, denominations),
        "is_dealer": is_dealer_at(user, table), "is_supervisor": supervises(user, table),
        "drops": list(session.drops.all()) if session else [],
        "expected": expected_closing(session) if session else None,
        "slips": signable(slip_rows(table.slips.prefetch_related("steps__by").order_by("-pk")[:20]), user, table),
        "stages": FloatCount.Stage.choices,
    })


# --- One slip ------------------------------------------------------------------------------------------------


def slip_fragment(slip_id: int, user, notice: dict | None = None) -> str:
    """One slip's state and steps, and its next step's button for the person whose step it is."""
    slip = ChipSlip.objects.select_related("table", "table__pit").get(pk=slip_id)
    [row] = slip_rows([slip])
    may_sign = row["next_role"] is not None and slip_role_for(user, slip.table, row["next_role"])
    # an unused slip (its request only signed): its pit boss may void it, with a reason
    may_void = slip_role_for(user, slip.table, rules.PIT) and engine_slip(slip).can_void(rules.PIT, user.pk)
    return render_to_string("tables/_bank_slip_fragment.html",
                            {"row": row, "slip": slip, "notice": notice, "may_sign": may_sign, "may_void": may_void})


# --- The cage's and security's phones -------------------------------------------------------------------------


def queue_version() -> int:
    """Every slip's version summed: grows with each step of any slip, and with each new slip."""
    return ChipSlip.objects.aggregate(total=Sum("version"))["total"] or 0


def queue_fragment(role: str, notice: dict | None = None) -> str:
    """The slips waiting for ``role``'s step (the cage's or security's), oldest first."""
    version = queue_version()
    on_their_way = ChipSlip.objects.exclude(state__in=(ChipSlip.State.RECEIVED, ChipSlip.State.VOIDED))
    waiting = [row for row in slip_rows(on_their_way.select_related("table").prefetch_related("steps__by")
                                        .order_by("pk"))
               if row["next_role"] == role]
    return render_to_string("tables/_bank_queue_fragment.html", {
        "rows": waiting, "role": role, "title": QUEUE_TITLES[role], "home": QUEUE_HOMES[role], "version": version,
        "notice": notice})


# --- The games director's shift report -------------------------------------------------------------------------


def _when(raw, default: datetime.datetime) -> datetime.datetime:
    if not raw:
        return default
    try:
        parsed = datetime.datetime.fromisoformat(str(raw)[:32])
    except ValueError:
        raise BadInput(_("A time is written 2026-11-27T14:00.")) from None
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def shift_window(data) -> tuple[datetime.datetime, datetime.datetime]:
    """The report's window from a form's or a socket's ``from`` and ``to`` (ISO times, the casino's time zone when
    they carry no offset); by default the last 8 hours. Bad input is a ``BadInput`` saying what is wrong."""
    now = timezone.now()
    end = _when(data.get("to"), now)
    start = _when(data.get("from"), end - datetime.timedelta(hours=8))
    if start >= end:
        raise BadInput(_("The shift starts before it ends."))
    return start, end


def shift_version() -> int:
    """What the report hears of, counted: the sessions closed and the reports signed (both only grow)."""
    return (TableSession.objects.filter(status=TableSession.Status.CLOSED).count()
            + ShiftReportSignature.objects.count())


def shift_context(start, end) -> dict:
    """The report's rows (``bank_reads.shift_report``) with their totals, the details of each difference, the plot."""
    rows = shift_report(start, end)
    totals = sum((r.result for r in rows), rules.ZERO)
    details = {row.table.pk: difference_details(row) for row in rows if row.result.difference}
    return {"report_rows": rows, "rows": [(row, details.get(row.table.pk)) for row in rows], "totals": totals,
            "start": start, "end": end, "from_value": start.isoformat(), "to_value": end.isoformat(),
            "plot": shift_plot(rows, difference_over_time(start, end), start, end),
            "signatures": signatures(start, end)}


def shift_fragment(start, end, notice: dict | None = None) -> str:
    """The report for ``start``..``end`` as it stands now: the same bytes for every director who shows that window."""
    version = shift_version()
    context = shift_context(start, end)
    return render_to_string("tables/_bank_shift_fragment.html", {**context, "version": version, "notice": notice,
                                                                 "window_id": f"{start:%Y%m%d%H%M}"})
