"""The tables' live screens: the dealer's tablet and the pit console (the player's phone is casino.PlayerConsumer).

As every ``LiveConsumer``: authorise the viewer for this object, join its
group, and on each ``state.changed`` re-render this viewer's own fragment
from the database. Nothing here changes the game; actions are HTTP POSTs.
"""

from __future__ import annotations

from casino.consumers import LiveConsumer, signed_in_user
from casino.decks import decks_group
from casino.roles import read_again
from tables import rendering
from tables.access import is_dealer_at, supervises_pit
from tables.models import Pit, Table, pit_group


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
