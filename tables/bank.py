"""The table's bank's commands (issue #39, docs/bank.md): the float, the drop, the fill and credit slips, the
shift report's signature. Each through the house's one write path:

* the float and the drop are a table's writes (``tables.writing.write_at_table``: the table's row locked, key and
  version checked, the dealer or the pit boss checked, audited in the table's stream, the table's screens and
  the pit's console told after commit);
* a slip is an aggregate of its own (``casino.writes.write`` with ``SLIPS``): its row locked, the person's role
  for the step checked, the engine's ``Slip`` asked (no one signs two steps), the step appended
  (``ChipSlipStep``, append-only) and audited in the slip's stream (``tables.chipslip.<id>``), the pit's
  console, the table and the cage told after commit. The step that moves the tray (a fill received, a credit
  released) also locks the table, so that a closing count is never signed across it. An unused slip (only its
  request signed) is voided by the pit boss with a reason, the same way: its last step, ``slip.voided``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino import writes
from casino.audit import record_event
from casino.models import label_of
from casino.realtime import announce_change
from casino.roles import DIRECT_GAMES, can
from casino.rules import bank as rules
from casino.rules.errors import N_, RuleViolation
from casino.writes import Aggregate, NotAllowed, Write, Written
from tables.access import slip_role_for as role_for
from tables.bank_reads import engine_slip, expected_closing, latest_count
from tables.models import (
    Alert,
    ChipSlip,
    ChipSlipRequest,
    ChipSlipStep,
    DropEntry,
    FloatCount,
    FloatSignature,
    ShiftReportSignature,
    Table,
    TableSession,
    chip_denominations,
    markers_allowed,
    pit_group,
)
from tables.writing import (
    ActionResult,
    TableWrite,
    live_session_locked,
    raise_alert,
    require_dealer,
    require_supervisor,
    write_at_table,
)

__all__ = [
    "CAGE_GROUP", "SECURITY_GROUP", "SLIPS", "count_float", "engine_slip", "record_drop", "request_slip",
    "SHIFT_GROUP", "require_closing_float", "role_for", "slip_group",
    "sign_float", "sign_shift_report", "sign_slip", "void_slip",
]

#: The cage's and security's phones hear of every slip.
CAGE_GROUP, SECURITY_GROUP = "tables.cage", "tables.security"
#: The games director's shift report hears of each session closed (``sessions.confirm_closing``) and each signature.
SHIFT_GROUP = "tables.shift"


# --- The float (THB-70) ------------------------------------------------------------------------------


def _stage(stage: str) -> str:
    if stage not in FloatCount.Stage.values:
        raise RuleViolation(N_("The float is counted at the opening or at the closing"), rules.FLOAT)
    return stage


def _float_session(w: TableWrite, stage: str) -> TableSession:
    session = live_session_locked(w.table)
    if session is None:
        raise RuleViolation(N_("The table has no session: the float is counted at its opening or closing"),
                            rules.FLOAT)
    if stage == FloatCount.Stage.OPENING:
        if session.hands.exists():
            raise RuleViolation(N_("The opening float is counted before the first hand"), rules.FLOAT)
    elif session.status != TableSession.Status.CLOSING:
        raise RuleViolation(N_("The closing float is counted once the dealer has asked to close"), rules.FLOAT)
    if session.float_counts.filter(stage=stage, signature__isnull=False).exists():
        raise RuleViolation(N_("This float is signed already"), rules.FLOAT)
    return session


def count_float(*, table, by, key: str, expected_version: int, stage: str, chips: dict) -> ActionResult:
    """The dealer counts the tray by denomination (THB-70's float), at the opening or the closing; counting
    again (a recount) adds a count, the last one is the one signed."""

    def work(w: TableWrite) -> None:
        require_dealer(w)
        session = _float_session(w, _stage(stage))
        rules.verify_chips(chips, chip_denominations(w.table))
        count = FloatCount.objects.create(session=session, stage=stage, chips={str(d): n for d, n in chips.items()},
                                          total=rules.total(chips), counted_by=w.by, counted_at=w.now)
        w.event = "float-counted"
        w.audit("table.float_counted", session=session.pk, stage=stage, count=count.pk, chips=count.chips,
                total=count.total)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version, action="count_float",
                          work=work)


def sign_float(*, table, by, key: str, expected_version: int, stage: str, reason: str = "") -> ActionResult:
    """The pit boss signs the dealer's last count. A closing count must add up (``expected_closing``): one that
    does not is refused, unless signed with a reason (the difference then stands in the shift report)."""

    def work(w: TableWrite) -> None:
        require_supervisor(w)
        session = _float_session(w, _stage(stage))
        count = latest_count(session, stage)
        rules.verify_sign_float(counted_by=count.counted_by_id if count else None, by=w.by.pk)
        expected = None
        if stage == FloatCount.Stage.CLOSING:
            expected = expected_closing(session)
            if expected is not None:
                rules.verify_closing(count.total, expected, reason)
        FloatSignature.objects.create(count=count, signed_by=w.by, signed_at=w.now, expected=expected,
                                      reason=(reason or "").strip()[:200])
        w.event = "float-signed"
        w.audit("table.float_signed", session=session.pk, stage=stage, count=count.pk, total=count.total,
                expected=expected, reason=(reason or "").strip()[:200])
        if expected is not None and expected != count.total:
            # the games director sees it at once: the floor page and the pit console list the alert
            raise_alert(w, Alert.Kind.BANK_DIFFERENCE, gettext_noop(
                "%(table)s: the closing float counts %(counted)s, %(difference)s from what its hands, slips and drop "
                "say; signed with the reason: %(reason)s"),
                {"table": w.table.name, "counted": count.total, "difference": count.total - expected,
                 "reason": (reason or "").strip()[:200], "session": session.pk})

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version, action="sign_float",
                          work=work)


def require_closing_float(session: TableSession) -> None:
    """A table whose opening float was signed closes with its closing float signed (called by the closing)."""
    if session.float_counts.filter(stage=FloatCount.Stage.OPENING, signature__isnull=False).exists() and \
            not session.float_counts.filter(stage=FloatCount.Stage.CLOSING, signature__isnull=False).exists():
        raise RuleViolation(N_("Count the closing float and have it signed before the table closes"), rules.FLOAT)


# --- The drop ---------------------------------------------------------------------------------------


def record_drop(*, table, by, key: str, expected_version: int, amount, kind: str = "cash") -> ActionResult:
    """Cash (or a marker, where the house allows) exchanged for chips at the table, by its dealer, as it happens."""

    def work(w: TableWrite) -> None:
        require_dealer(w)
        session = live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.OPEN:
            raise RuleViolation(N_("Chips are sold at an open table"), rules.HOUSE)
        rules.verify_drop(kind, amount, markers_allowed=markers_allowed(w.table))
        entry = DropEntry.objects.create(session=session, kind=kind, amount=amount, by=w.by, at=w.now)
        w.event = "drop"
        w.audit("table.drop", session=session.pk, entry=entry.pk, kind=kind, amount=amount)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version, action="record_drop",
                          work=work)


# --- Fill and credit slips ----------------------------------------------------------------------------


def slip_group(slip_id: int) -> str:
    """The group of one slip's own page (``/tables/slips/<id>/``): it hears of that slip only."""
    return f"tables.chipslip.{slip_id}"


def _slip_groups(slip: ChipSlip) -> list[str]:
    return [pit_group(slip.table.pit_id), slip.table.group_name, CAGE_GROUP, SECURITY_GROUP, slip_group(slip.pk)]


SLIPS = Aggregate(model=ChipSlip, requests=ChipSlipRequest, owner="slip", version_field="slip_version",
                  stream=lambda pk: label_of(ChipSlip, pk), groups=_slip_groups,
                  saved_fields=("state", "session", "in_tray_at"))


ROLE_REFUSALS = {
    rules.PIT: N_("A slip is requested by the pit boss of its table's pit."),
    rules.CAGE: N_("This step is the cage's: signed by a cashier."),
    rules.SECURITY: N_("This step is security's: signed by the officer who carries the chips."),
    rules.TABLE: N_("This step is the table's: signed by its dealer or its pit boss."),
}


def _append(w: Write, slip: rules.Slip, reason: str = "") -> None:
    step, by = slip.signed[-1]
    ChipSlipStep.objects.create(slip=w.row, seq=len(slip.signed), step=step, by=w.by, at=w.now, reason=reason)
    w.row.state = step
    w.audit(f"slip.{step}", kind=w.row.kind, number=w.row.number, table=w.row.table.name, chips=w.row.chips,
            amount=w.row.amount, by=by, **({"reason": reason} if reason else {}))
    w.event = "slip"


def request_slip(*, table, by, key: str, kind: str, chips: dict) -> Written:
    """The pit boss requests a fill or a credit for ``table``, by denomination: a new numbered slip."""
    table = table if isinstance(table, Table) else Table.objects.select_related("pit").get(pk=table)
    if not role_for(by, table, rules.PIT):
        raise NotAllowed(ROLE_REFUSALS[rules.PIT])
    writes.check_key(key)
    done = ChipSlipRequest.objects.filter(key=key, by=by, action="request_slip", slip__table=table).first()
    if done is not None:
        return Written(done.slip_version, {"slip": done.slip_id}, duplicate=True)
    engine = rules.Slip.request(kind, chips, chip_denominations(table), by.pk)
    with transaction.atomic():
        row = ChipSlip.objects.create(table=table, kind=kind, chips={str(d): n for d, n in engine.chips},
                                      amount=engine.amount, created_at=writes.current_time())

        def work(w: Write) -> None:
            _append(w, engine)

        done = writes.write(SLIPS, pk=row.pk, by=by, key=key, expected_version=0, action="request_slip", work=work)
    return Written(done.version, {"slip": row.pk}, alerts=done.alerts)


def sign_slip(*, slip, by, key: str, expected_version: int | None) -> Written:
    """The slip's next step signed by ``by``: the cage's, security's or the table's, as the slip stands. Refused
    to a person without the step's role (403) or who signed another step of this slip (the engine)."""
    slip_id = getattr(slip, "pk", slip)

    def work(w: Write) -> None:
        row: ChipSlip = w.row
        row.table = Table.objects.select_related("pit").get(pk=row.table_id)
        engine = engine_slip(row)
        upcoming = engine.next_step
        if engine.voided:
            raise RuleViolation(N_("This slip is void: it takes no more steps"), rules.HOUSE)
        if upcoming is None:
            raise RuleViolation(N_("This slip has taken all its steps"), rules.HOUSE)
        step, role = upcoming
        if not role_for(w.by, row.table, role):
            raise NotAllowed(ROLE_REFUSALS[role])
        after = engine.sign(step, role, w.by.pk)
        if after.in_tray and not engine.in_tray:
            # the tray moves: in the table's live session, with the table held against a closing count
            locked = Table.objects.select_for_update().get(pk=row.table_id)
            session = live_session_locked(locked)
            if session is None or session.status not in (TableSession.Status.OPEN, TableSession.Status.CLOSING):
                raise RuleViolation(N_("The table is not open: its tray takes or gives chips while it is"),
                                    rules.HOUSE)
            if session.float_counts.filter(stage=FloatCount.Stage.CLOSING, signature__isnull=False).exists():
                raise RuleViolation(N_("The closing float is signed: the tray is closed"), rules.HOUSE)
            row.session, row.in_tray_at = session, w.now
        _append(w, after)

    return writes.write(SLIPS, pk=slip_id, by=by, key=key, expected_version=expected_version, action="sign_slip",
                        work=work)


def void_slip(*, slip, by, key: str, expected_version: int | None, reason: str) -> Written:
    """The pit boss of the slip's table voids a slip not used (only its request signed: no chip has left the cage
    or the tray), saying why; audited (``slip.voided``, with the reason), and the slip takes no more steps."""
    slip_id = getattr(slip, "pk", slip)
    reason = (reason or "").strip()[:200]

    def work(w: Write) -> None:
        row: ChipSlip = w.row
        row.table = Table.objects.select_related("pit").get(pk=row.table_id)
        if not role_for(w.by, row.table, rules.PIT):
            raise NotAllowed(N_("A slip is voided by the pit boss of its table's pit."))
        _append(w, engine_slip(row).void(rules.PIT, w.by.pk, reason), reason=reason)

    return writes.write(SLIPS, pk=slip_id, by=by, key=key, expected_version=expected_version, action="void_slip",
                        work=work)


# --- The shift report ----------------------------------------------------------------------------------


def sign_shift_report(*, by, starts_at, ends_at, figures: dict) -> ShiftReportSignature:
    """The games director signs the shift report as shown (its figures kept), audited."""
    if not can(by, DIRECT_GAMES):
        raise NotAllowed(N_("The shift report is signed by the games director."))
    with transaction.atomic():
        signed = ShiftReportSignature.objects.create(starts_at=starts_at, ends_at=ends_at, signed_by=by,
                                                     signed_at=timezone.now(), figures=figures)
        record_event(action="bank.shift_report_signed", actor=by, obj=signed, stream="tables.shift",
                     details={"from": starts_at.isoformat(), "to": ends_at.isoformat(), **figures.get("totals", {})})
        announce_change(SHIFT_GROUP, version=signed.pk, event="shift-signed")
    return signed
