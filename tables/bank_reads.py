"""The table's bank as recorded (issue #39, docs/bank.md): a session's floats, slips and drop, what its tray must
hold at the closing, and the shift's result per table against the hands recorded over the same sessions.

A **shift** is the pit's table sessions opened and closed in its window (``opened_at >= start`` and
``closed_at <= end``). Read side: imports the models and the engine only.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q, Sum

from casino.rules import bank as rules
from tables.models import ChipSlip, DropEntry, FloatCount, Hand, ShiftReportSignature, Table, TableSession


def engine_slip(row: ChipSlip) -> rules.Slip:
    """The engine's slip as its recorded steps left it (who signed each): what its next step is and who signs it."""
    steps = [(s.step, s.by_id) for s in row.steps.order_by("seq")]
    return rules.Slip(kind=rules.SlipKind(row.kind), chips=tuple(sorted((int(d), n) for d, n in row.chips.items())),
                      signed=tuple(steps))

__all__ = [
    "OpeningProposal", "ShiftRow", "expected_closing", "proposed_opening", "report_csv", "session_result",
    "shift_report", "shift_sessions", "signed_float", "slips_of", "tray_movements",
]


def latest_count(session: TableSession, stage: str) -> FloatCount | None:
    return session.float_counts.filter(stage=stage).order_by("-counted_at", "-pk").first()


def signed_float(session: TableSession, stage: str) -> FloatCount | None:
    """The float count of ``stage`` the pit boss signed (the last, should there be more), or None."""
    return (session.float_counts.filter(stage=stage, signature__isnull=False).select_related("signature")
            .order_by("-counted_at", "-pk").first())


@dataclass
class OpeningProposal:
    """The table's last closing, proposed as this session's opening count: the tray was closed with these chips
    and should open with them. It only pre-fills the dealer's count (THB-70: the dealer still counts the tray and
    the pit boss still signs); ``difference`` is the dealer's last opening count less it, by denomination."""

    closing: FloatCount
    count: FloatCount | None = None

    @property
    def chips(self) -> dict[int, int]:
        return {int(d): n for d, n in self.closing.chips.items()}

    @property
    def difference(self) -> dict[int, int]:
        """Denomination: chips counted at this opening less chips signed at the last closing (those that differ)."""
        if self.count is None:
            return {}
        counted = {int(d): n for d, n in self.count.chips.items()}
        return {d: counted.get(d, 0) - self.chips.get(d, 0) for d in sorted({*counted, *self.chips})
                if counted.get(d, 0) != self.chips.get(d, 0)}

    @property
    def total_difference(self) -> int | None:
        return None if self.count is None else self.count.total - self.closing.total


def proposed_opening(session: TableSession) -> OpeningProposal | None:
    """The signed closing count of the table's session before ``session``, proposed as its opening count; None
    when that session closed without a signed closing float (nothing to propose: its tray was never accounted
    for), or the table has no session before. With the opening's last count, to show where they differ."""
    previous = (TableSession.objects.filter(table_id=session.table_id, pk__lt=session.pk)
                .exclude(status=TableSession.Status.DECK_REFUSED).order_by("-pk").first())
    closing = signed_float(previous, FloatCount.Stage.CLOSING) if previous is not None else None
    if closing is None:
        return None
    return OpeningProposal(closing=closing, count=latest_count(session, FloatCount.Stage.OPENING))


def tray_movements(session: TableSession) -> dict[str, int]:
    """What moved the tray's chips in ``session`` besides the floats: the fills received, the credits released,
    the chips sold for the drop (cash and markers) and the house's net of its settled hands."""
    slips = ChipSlip.objects.filter(session=session, in_tray_at__isnull=False).aggregate(
        fills=Sum("amount", filter=Q(kind=ChipSlip.Kind.FILL)),
        credits=Sum("amount", filter=Q(kind=ChipSlip.Kind.CREDIT)))
    drop = DropEntry.objects.filter(session=session).aggregate(t=Sum("amount"))["t"] or 0
    hands = Hand.objects.filter(session=session).aggregate(t=Sum("house_net"))["t"] or 0
    return {"fills": slips["fills"] or 0, "credits": slips["credits"] or 0, "drop": drop, "hands": hands}


def expected_closing(session: TableSession) -> int | None:
    """What the tray must hold at the closing (``casino.rules.bank.expected_closing``); None without a signed
    opening float (nothing to add up from)."""
    opening = signed_float(session, FloatCount.Stage.OPENING)
    if opening is None:
        return None
    moved = tray_movements(session)
    return rules.expected_closing(opening=opening.total, fills=moved["fills"], credits=moved["credits"],
                                  hands=moved["hands"], drop_chips=moved["drop"])


def session_result(session: TableSession) -> tuple[rules.TableResult, bool]:
    """The session's counted win and its hands' result; and whether both floats were signed (if not, the
    missing float counts as 0 and the difference says so)."""
    opening, closing = signed_float(session, FloatCount.Stage.OPENING), signed_float(session, FloatCount.Stage.CLOSING)
    moved = tray_movements(session)
    result = rules.TableResult(opening=opening.total if opening else 0, closing=closing.total if closing else 0,
                               fills=moved["fills"], credits=moved["credits"], drop=moved["drop"],
                               hands=moved["hands"])
    return result, opening is not None and closing is not None


def slips_of(session: TableSession):
    return ChipSlip.objects.filter(session=session).prefetch_related("steps__by").order_by("pk")


def shift_sessions(start: datetime, end: datetime):
    """The shift: the sessions opened and closed in its window, every pit's."""
    return (TableSession.objects.filter(status=TableSession.Status.CLOSED, opened_at__gte=start, closed_at__lte=end)
            .select_related("table", "table__pit").order_by("table__pit__name", "table__name", "opened_at"))


@dataclass
class ShiftRow:
    """One table's shift: its sessions, the summed result, whether every float was signed."""

    table: Table
    sessions: list[TableSession] = field(default_factory=list)
    result: rules.TableResult = rules.ZERO
    floats_signed: bool = True
    hands: int = 0
    closed_at: datetime | None = None

    def to_dict(self) -> dict:
        return {"table": self.table.name, "pit": self.table.pit.name, "sessions": [s.pk for s in self.sessions],
                "hands_played": self.hands, "floats_signed": self.floats_signed, **self.result.to_dict()}


def shift_report(start: datetime, end: datetime) -> list[ShiftRow]:
    """Every table's floats, fills, credits, drop, win, hold, recorded result and difference over the shift."""
    rows: dict[int, ShiftRow] = {}
    sessions = list(shift_sessions(start, end).annotate(hand_count=Count("hands")))
    for session in sessions:
        row = rows.setdefault(session.table_id, ShiftRow(session.table))
        result, signed = session_result(session)
        row.sessions.append(session)
        row.result = row.result + result
        row.floats_signed = row.floats_signed and signed
        row.hands += session.hand_count
        row.closed_at = max(row.closed_at or session.closed_at, session.closed_at)
    return list(rows.values())


def difference_over_time(start: datetime, end: datetime) -> list[tuple[datetime, int]]:
    """The shift's difference as its sessions closed: (closing time, the running sum of the differences)."""
    points, running = [], 0
    for session in shift_sessions(start, end).order_by("closed_at"):
        result, _signed = session_result(session)
        running += result.difference
        points.append((session.closed_at, running))
    return points


CSV_FIELDS = ("pit", "table", "sessions", "hands_played", "opening", "closing", "fills", "credits", "drop", "win",
              "hold", "hands", "difference", "floats_signed")


def report_csv(rows: list[ShiftRow]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        data = row.to_dict()
        data["sessions"] = " ".join(str(s) for s in data["sessions"])
        data["hold"] = "" if data["hold"] is None else f"{data['hold']:.4f}"
        writer.writerow(data)
    return out.getvalue()


def difference_details(row: ShiftRow) -> dict:
    """What the games director sees of a table whose counted win and hands disagree: its hands (each one's
    number, start and house result) and its slips, over the shift's sessions, and the closings' reasons."""
    sessions = [s.pk for s in row.sessions]
    return {
        "hands": list(Hand.objects.filter(session_id__in=sessions).order_by("number")
                      .values("pk", "number", "started_at", "house_net", "phase")),
        "slips": list(ChipSlip.objects.filter(session_id__in=sessions).order_by("pk")),
        "reasons": list(FloatCount.objects.filter(session_id__in=sessions, stage=FloatCount.Stage.CLOSING,
                                                  signature__isnull=False)
                        .exclude(signature__reason="").values_list("signature__reason", flat=True)),
    }


def signatures(start: datetime, end: datetime):
    """The signatures of this shift's report, the latest first."""
    return ShiftReportSignature.objects.filter(starts_at=start, ends_at=end).select_related("signed_by")


def verify_slip_steps(stream: str | None = None) -> tuple[int, list[str]]:
    """For ``verify_audit``: each slip's steps against its stream (``tables.chipslip.<id>``): one ``slip.<step>``
    event per step, in the same order. A step the log never recorded, or one gone, is reported."""
    from casino.models import AuditEvent, label_of
    from tables.models import ChipSlipStep

    slips = ChipSlip.objects.order_by("pk")
    prefix = f"{ChipSlip._meta.label_lower}."
    if stream is not None:
        if not stream.startswith(prefix) or not stream[len(prefix):].isdigit():
            return 0, []
        slips = slips.filter(pk=int(stream[len(prefix):]))
    problems, checked = [], 0
    for slip in slips.iterator(chunk_size=500):
        steps = list(ChipSlipStep.objects.filter(slip=slip).order_by("seq").values_list("step", flat=True))
        events = list(AuditEvent.objects.filter(stream=label_of(ChipSlip, slip.pk), action__startswith="slip.")
                      .order_by("seq").values_list("action", flat=True))
        checked += 1
        if [f"slip.{s}" for s in steps] != events:
            problems.append(f"slip {slip.number}: its steps {steps} differ from the log's {events}")
    return checked, problems
