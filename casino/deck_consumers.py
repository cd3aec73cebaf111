"""The decks page's socket (issue #39, docs/decks.md): a stock's signers see every step of its decks at once.

As every ``LiveConsumer``: the viewer is checked for the stock (the roles that sign, then the stock's own object
check, which its game registered: another pit's boss, a dealer or a cashier is refused), the socket joins the
stock's decks group (``casino.decks.decks_group``, announced after commit by every deck's write), and each push
re-checks the viewer and renders the stock as it is now. Nothing here changes a deck: every step is a POST.
"""

from __future__ import annotations

from casino import deck_reads, deck_screen
from casino.consumers import LiveConsumer, signed_in_user
from casino.deck_views import DECK_SIGNERS
from casino.decks import decks_group
from casino.roles import has_role, read_again


class StockDecksConsumer(LiveConsumer):
    """``/ws/decks/<stock>/``: the decks page of one stock, for the people who sign there."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return f"decks-{self.stock.replace('.', '-')}"

    def _allowed(self) -> bool:
        if self.user is None or not self.user.is_active or not has_role(self.user, *DECK_SIGNERS):
            return False
        return self.kind.may_sign(self.user, self.obj)

    def authorise(self):
        self.user = signed_in_user(self.scope)
        self.stock = str(self.scope["url_route"]["kwargs"]["stock"])[:80]
        found = deck_reads.stock_of(self.stock)
        if self.user is None or found is None:
            return None
        self.kind, self.obj = found
        if not self._allowed():
            return None
        return [decks_group(self.stock)]

    def still_allowed(self, version: int | None = None) -> bool:
        # The role (and a pit boss's pit) read again: a pit handed to another boss stops reaching this one.
        read_again(self.user)
        found = deck_reads.stock_of(self.stock)
        if found is None:
            return False
        self.kind, self.obj = found
        return self._allowed()

    def render_fragment(self, version: int | None = None) -> str:
        return deck_screen.decks_fragment(self.stock, self.kind, self.obj)
