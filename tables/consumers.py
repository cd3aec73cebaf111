"""The tables' live screens: the dealer's tablet, the pit console, and the table's bank's (the bank page, the cage's
and security's phones, a slip's page, the shift report: issue #39). The player's phone is casino.PlayerConsumer.

As every ``LiveConsumer``: authorise the viewer for this object, join its
group, and on each ``state.changed`` re-render this viewer's own fragment
from the database. Nothing here changes the game; actions are HTTP POSTs.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from casino.consumers import LiveConsumer, signed_in_user
from casino.decks import decks_group
from casino.form_input import BadInput
from casino.roles import Role, has_role, read_again
from casino.rules import bank as bank_rules
from tables import bank_rendering, rendering
from tables.access import BANK_SUPERVISORS, SLIP_PEOPLE, is_dealer_at, may_see_slip, may_view, supervises_pit
from tables.bank import CAGE_GROUP, SECURITY_GROUP, SHIFT_GROUP, slip_group
from tables.models import ChipSlip, Pit, Table, pit_group


class TableDealerConsumer(LiveConsumer):
    """The tablet of the dealer on duty at one table, and nobody else's."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return "dealer-table"

    def authorise(self):
        self.user = signed_in_user(self.scope)
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.table = Table.objects.select_related("pit").filter(pk=table_id).first()
        if self.user is None or self.table is None or not is_dealer_at(self.user, self.table):
            return None
        self.coalesce_groups = frozenset({self.table.group_name})  # the tablet shows the table's version
        return [self.table.group_name]

    def still_allowed(self, version: int | None = None) -> bool:
        # A dealer relieved from the table (or whose role was removed) stops receiving it at once.
        self.table.refresh_from_db(fields=["dealer", "version"])
        read_again(self.user)
        return self.user.is_active and is_dealer_at(self.user, self.table)

    def render_fragment(self, version: int | None = None) -> str:
        # At the version the push announced: the table's other screens in this process share its read.
        return rendering.dealer_fragment(self.table, self.user, version=version)


class PitConsumer(LiveConsumer):
    """A pit's console: its pit boss, or a director."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return f"pit-{self.pit.pk}"

    def authorise(self):
        self.user = signed_in_user(self.scope)
        pit_id = self.scope["url_route"]["kwargs"]["pit_id"]
        self.pit = Pit.objects.filter(pk=pit_id).first()
        if self.user is None or self.pit is None or not supervises_pit(self.user, self.pit):
            return None
        # issue #39: and every step of the pit's decks (a deck declared defective on the decks page: at once)
        return [pit_group(self.pit.pk), decks_group(self.pit.deck_stock)]

    def still_allowed(self, version: int | None = None) -> bool:
        self.pit.refresh_from_db(fields=["pit_boss"])
        read_again(self.user)
        return self.user.is_active and supervises_pit(self.user, self.pit)

    def render_fragment(self, version: int | None = None) -> str:
        return rendering.pit_fragment(self.pit, self.user)


# --- The table's bank (issue #39, docs/bank.md) ------------------------------------------------------------


class TableBankConsumer(LiveConsumer):
    """A table's bank page: its dealer on duty and the pit boss of its pit (or a director). It hears the table's
    group: the table's writes (the float, the drop, a hand) and every step of its slips (``tables.bank.SLIPS``)."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return f"bank-{self.table.pk}"

    def _allowed(self) -> bool:
        return (self.user.is_active and has_role(self.user, Role.DEALER, *BANK_SUPERVISORS)
                and may_view(self.user, self.table))

    def authorise(self):
        self.user = signed_in_user(self.scope)
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.table = Table.objects.select_related("pit").filter(pk=table_id).first()
        if self.user is None or self.table is None or not self._allowed():
            return None
        return [self.table.group_name]

    def still_allowed(self, version: int | None = None) -> bool:
        # a dealer relieved from the table, or a pit handed to another boss, stops receiving it at once
        self.table.refresh_from_db(fields=["dealer"])
        self.table.pit.refresh_from_db(fields=["pit_boss"])
        read_again(self.user)
        return self._allowed()

    def render_fragment(self, version: int | None = None) -> str:
        return bank_rendering.table_bank_fragment(self.table.pk, self.user)


class SlipQueueConsumer(LiveConsumer):
    """The cashier's or the security officer's phone: the slips waiting for their step. It hears every slip's step
    (``tables.bank.CAGE_GROUP`` / ``SECURITY_GROUP``), so a fill requested by a pit boss shows at once."""

    goodbye_template = "casino/fragments/staff_access_ended.html"
    #: the step's role (``casino.rules.bank``), the role that opens the phone, its group
    queue = ""
    role = ""
    group = ""

    def screen_id(self) -> str:
        return f"slips-{self.queue}"

    def _allowed(self) -> bool:
        return self.user.is_active and has_role(self.user, self.role)

    def authorise(self):
        self.user = signed_in_user(self.scope)
        if self.user is None or not self._allowed():
            return None
        return [self.group]

    def still_allowed(self, version: int | None = None) -> bool:
        read_again(self.user)
        return self._allowed()

    def render_fragment(self, version: int | None = None) -> str:
        return bank_rendering.queue_fragment(self.queue)


class CageConsumer(SlipQueueConsumer):
    """``/ws/tables/cage/``: the cashier's phone (the fills to issue, the credits to receive)."""

    queue, role, group = bank_rules.CAGE, Role.CAGE_CASHIER, CAGE_GROUP


class SecurityConsumer(SlipQueueConsumer):
    """``/ws/tables/security/``: the security officer's phone (the slips to carry)."""

    queue, role, group = bank_rules.SECURITY, Role.SECURITY_OFFICER, SECURITY_GROUP


class SlipConsumer(LiveConsumer):
    """One slip's page (``/tables/slips/<id>/``, its QR's): the people who may see it (the cage, security, its
    table's dealer and pit boss). It hears that slip's own group only (``tables.bank.slip_group``)."""

    goodbye_template = "casino/fragments/staff_access_ended.html"
    coalesce_groups: frozenset[str] = frozenset()

    def screen_id(self) -> str:
        return f"slip-{self.slip.pk}"

    def _allowed(self) -> bool:
        return self.user.is_active and has_role(self.user, *SLIP_PEOPLE) and may_see_slip(self.user, self.slip)

    def authorise(self):
        self.user = signed_in_user(self.scope)
        slip_id = self.scope["url_route"]["kwargs"]["slip_id"]
        self.slip = ChipSlip.objects.select_related("table", "table__pit").filter(pk=slip_id).first()
        if self.user is None or self.slip is None or not self._allowed():
            return None
        group = slip_group(self.slip.pk)
        self.coalesce_groups = frozenset({group})  # the page shows the slip's version: a backlog renders once
        return [group]

    def still_allowed(self, version: int | None = None) -> bool:
        self.slip.table.refresh_from_db(fields=["dealer"])
        self.slip.table.pit.refresh_from_db(fields=["pit_boss"])
        read_again(self.user)
        return self._allowed()

    def render_fragment(self, version: int | None = None) -> str:
        return bank_rendering.slip_fragment(self.slip.pk, self.user)


class ShiftReportConsumer(LiveConsumer):
    """``/ws/tables/shift/?from=…&to=…``: the games director's shift report for the window its page showed (the
    page writes it into the socket's address, so a default "last 8 hours" does not slide under him). It hears each
    session closed and each signature (``tables.bank.SHIFT_GROUP``): only a closed session enters a shift."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return f"shift-{self.start:%Y%m%d%H%M}"

    def _allowed(self) -> bool:
        return self.user.is_active and has_role(self.user, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)

    def authorise(self):
        self.user = signed_in_user(self.scope)
        if self.user is None or not self._allowed():
            return None
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1")[:300])
        try:
            self.start, self.end = bank_rendering.shift_window({k: v[0] for k, v in query.items() if v})
        except BadInput:
            return None
        return [SHIFT_GROUP]

    def still_allowed(self, version: int | None = None) -> bool:
        read_again(self.user)
        return self._allowed()

    def render_fragment(self, version: int | None = None) -> str:
        return bank_rendering.shift_fragment(self.start, self.end)
