"""A command at a Texas Hold'em Bonus table: the casino's one write path (``casino.writes``) with what is
a table's, and what every command of ``tables.services`` (the hands) and ``tables.sessions`` (opening,
closing, the players at the boxes) shares: who may act, alerts for the pit, the live session.

Every command is ``fn(*, table, by, key, expected_version, ...) -> ActionResult`` and runs through
``write_at_table``, in one transaction, in this order (docs/tables.md):

1. lock the table row (``select_for_update``): writes at one table queue up, one at a time,
   while other tables go on undisturbed;
2. idempotency: a key already used at this table answers the stored result
   (``duplicate=True``) and applies nothing again (double tap, retry after a network drop);
3. version: the tablet acted on ``expected_version``; if the table has moved on since, raise
   ``StaleVersion`` instead of silently overwriting what the other screen did;
4. role and object: the dealer on duty at this table, the pit boss of its pit, the approver of
   the house option (never the dealer who asked, C-30);
5. the rules engine: the hand is rebuilt by replaying its stored records, the new record is
   checked, then applied (a refusal raises ``RuleViolation`` naming the clause, and the
   transaction rolls back: nothing is half-recorded);
6. save the frozen action rows, bump ``table.version``;
7. audit events in the table's stream, in the same transaction;
8. leave the version's snapshot (``tables.reads.SNAPSHOTS``) and announce the new version to the
   table's group and the pit's group, after commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Max

from casino.models import label_of
from casino.roles import SUPERVISE_PIT, can
from casino.rules.errors import N_
from casino.rules.holdem_bonus import HandState
from casino.writes import Aggregate, NotAllowed, Write, Written, write
from tables.access import is_dealer_at, supervises
from tables.models import Alert, Hand, Table, TableRequest, TableSession, pit_group
from tables.reads import SNAPSHOTS, Snapshot, alert_text

__all__ = [
    "TABLES", "ActionResult", "TableWrite", "live_session_locked", "next_hand_number", "raise_alert",
    "require_dealer", "require_supervisor", "unfinished_hand", "write_at_table",
]


@dataclass
class ActionResult(Written):
    """A command's answer: the version it made, its hand, whether the key was used already, the alerts."""

    @property
    def table_version(self) -> int:
        return self.version

    @property
    def hand_id(self) -> int | None:
        return self.ids.get("hand")


def _table_groups(table: Table) -> list[str]:
    # The table's screens (the tablet, the phones) and the pit's consoles.
    return [table.group_name, pit_group(table.pit_id)]


TABLES = Aggregate(
    model=Table, requests=TableRequest, owner="table", version_field="table_version",
    stream=lambda pk: label_of(Table, pk), groups=_table_groups, answer_ids=("hand",),
    # the dealer on duty: the rotation hands a table over through the write path (issue #38 item 5)
    saved_fields=("status", "dealer"),
)


@dataclass
class TableWrite(Write):
    """A write at a table: the locked table, and the hand, session and state the write produced."""

    hand: Hand | None = None
    # The live session's latest hand and its state after the write, when the write knows them:
    # its snapshot is then cached at commit, and the screens re-render without reading it back.
    session: TableSession | None = None
    state: HandState | None = None

    @property
    def table(self) -> Table:
        return self.row

    def tell_only_the_pit(self) -> None:
        """Only the pit's consoles hear of this write, not the table's screens (a discreet alert, THB-17)."""
        self.groups = [pit_group(self.table.pit_id)]

    def answer_ids(self) -> dict[str, int | None]:
        return {"hand": self.hand.pk if self.hand is not None else None}

    def before_announce(self) -> None:
        if self.state is not None and self.session is not None and self.hand is not None:
            table = self.table
            # At commit, before the announcement (registered after this): the screens that follow it,
            # in this process or another, find the version's snapshot waiting.
            SNAPSHOTS.leave(table, Snapshot(table, self.session, self.hand, self.state, self.state.rules.paytable))


def write_at_table(*, table, by, key: str, expected_version: int, action: str,
                   work: Callable[[TableWrite], None]) -> ActionResult:
    """One command at a table through the one write path (``casino.writes.write``)."""
    table_id = table.pk if isinstance(table, Table) else int(table)
    done = write(TABLES, pk=table_id, by=by, key=key, expected_version=expected_version, action=action, work=work,
                 write_class=TableWrite)
    return ActionResult(done.version, done.ids, duplicate=done.duplicate, alerts=done.alerts)


# --- Who may act -------------------------------------------------------------------------------------


def require_dealer(w: TableWrite) -> None:
    if not is_dealer_at(w.by, w.table):
        raise NotAllowed(N_("Only the dealer on duty at %(table)s can do this."), table=w.table.name)


def require_supervisor(w: TableWrite) -> None:
    if not (supervises(w.by, w.table) and can(w.by, SUPERVISE_PIT)):
        raise NotAllowed(N_("Only the pit boss of %(table)s's pit can do this."), table=w.table.name)


def raise_alert(w: TableWrite, kind: str, message: str, params: dict, hand: Hand | None = None) -> Alert:
    alert = Alert.objects.create(table=w.table, hand=hand, kind=kind, message=message, params=params,
                                 raised_by=w.by, created_at=w.now)
    w.alerts.append(alert_text(alert))
    return alert


def live_session_locked(table: Table) -> TableSession | None:
    return table.sessions.select_for_update().filter(status__in=TableSession.LIVE).order_by("-requested_at").first()


def next_hand_number(table: Table) -> int:
    """The number the table's next hand takes: hand numbers run per table, across sessions."""
    return (table.hands.aggregate(m=Max("number"))["m"] or 0) + 1


def unfinished_hand(hands) -> Hand | None:
    """The latest of ``hands`` (a table's or a session's) while it is not finished, else None."""
    last = hands.order_by("-number").first()
    return last if last is not None and not last.is_finished else None

