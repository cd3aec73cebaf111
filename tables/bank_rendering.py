"""The table's bank's live screens, each one fragment with a stable id and a version (docs/bank.md, docs/realtime.md):
the table's bank page, one slip's page, the cage's and security's phones. The page's view renders the fragment for
its first load and for its own posts' answers (htmx); the sockets (``tables.consumers``) render the same fragment
for their viewer on every announcement, so a slip requested by the pit boss shows on the cashier's phone at once.

A fragment's ``data-version`` only grows: the table's version plus its slips' versions (the table's bank page), the
sum of every slip's version (the phones), the slip's version (a slip's page). The bank page and the phones hear
several aggregates, so their versions skip by design (``data-version-gaps``: each push is the whole screen).
"""

from __future__ import annotations

from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

from casino.rules import bank as rules
from tables.access import is_dealer_at, slip_role_for, supervises
from tables.bank_reads import engine_slip, expected_closing
from tables.labels import SLIP_ROLE_LABELS, slip_step_label
from tables.models import ChipSlip, FloatCount, Table, TableSession, chip_denominations

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


def table_bank_fragment(table_id: int, user, notice: dict | None = None) -> str:
    """The table's bank as ``user`` sees it now: the float, the drop, the slips (read at once, never cached)."""
    table = Table.objects.select_related("pit", "dealer").get(pk=table_id)
    session = table.sessions.filter(status__in=TableSession.LIVE).order_by("-requested_at").first()
    counts = list(session.float_counts.select_related("counted_by", "signature__signed_by")) if session else []
    return render_to_string("tables/_bank_table_fragment.html", {
        "table": table, "session": session, "counts": counts, "notice": notice,
        "version": table_bank_version(table), "denominations": chip_denominations(table),
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
    return render_to_string("tables/_bank_slip_fragment.html",
                            {"row": row, "slip": slip, "notice": notice, "may_sign": may_sign})


# --- The cage's and security's phones -------------------------------------------------------------------------


def queue_version() -> int:
    """Every slip's version summed: grows with each step of any slip, and with each new slip."""
    return ChipSlip.objects.aggregate(total=Sum("version"))["total"] or 0


def queue_fragment(role: str, notice: dict | None = None) -> str:
    """The slips waiting for ``role``'s step (the cage's or security's), oldest first."""
    version = queue_version()
    waiting = [row for row in slip_rows(ChipSlip.objects.exclude(state=ChipSlip.State.RECEIVED)
                                        .select_related("table").prefetch_related("steps__by").order_by("pk"))
               if row["next_role"] == role]
    return render_to_string("tables/_bank_queue_fragment.html", {
        "rows": waiting, "role": role, "title": QUEUE_TITLES[role], "home": QUEUE_HOMES[role], "version": version,
        "notice": notice})
