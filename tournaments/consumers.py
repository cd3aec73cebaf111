"""The tournament's live sockets: the director's console and the room's clock display (issue #14).

A player's phone is the core's ``casino.consumers.PlayerConsumer`` with the entry's screen registered in
``tournaments.apps`` (``tournaments.rendering.phone``). As every ``LiveConsumer``: authorise the viewer, join the
tournament's group, and on each announcement (ids and a version, never state) render this viewer's own
fragment. Nothing here changes the event: every action is an HTTP POST through ``tournaments.services``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import weakref

from channels.db import database_sync_to_async
from django.utils import translation

from casino.consumers import SHOWN_VERSION, LiveConsumer, signed_in_user
from casino.decks import decks_group
from casino.memo import single_flight
from casino.roles import Role, has_role, read_again
from tournaments import access
from tournaments.models import DealtTable, Tournament, event_screens_group, tables_group
from tournaments.reads import event as event_reads
from tournaments.rendering import clock as clock_screen
from tournaments.rendering import console, tablet
from tournaments.rendering import flights as flights_screen

log = logging.getLogger(__name__)

#: Who runs an event from the console: its directors (and the casino's administrators), and the floor
#: staff who record busts and seats at the tables (the role t-app adds as ``Role.TOURNAMENT_FLOOR``).
CONSOLE_ROLES = (Role.TOURNAMENT_DIRECTOR, getattr(Role, "TOURNAMENT_FLOOR", "tournament_floor"), Role.GAMES_DIRECTOR,
                 Role.ADMINISTRATOR)


def runs_tournaments(user) -> bool:
    return user is not None and user.is_active and has_role(user, *CONSOLE_ROLES)


class TournamentConsoleConsumer(LiveConsumer):
    """The director's console of one event: tournament directors, floor staff and administrators."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return console.SCREEN_ID

    def authorise(self):
        self.user = signed_in_user(self.scope)
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = Tournament.objects.filter(pk=tournament_id).first()
        if self.tournament is None or not runs_tournaments(self.user):
            return None
        # The console shows the tournament's version: a backlog of pushes is rendered once. It also hears
        # of every tap at the event's dealt tables (their hands live, issue #15).
        self.coalesce_groups = frozenset({self.tournament.group_name})
        self.tables_group = tables_group(self.tournament.pk)
        self.tables_push: asyncio.Task | None = None
        # issue #39: and of every step of the event's decks (a deck found defective away from its table)
        self.decks_group = decks_group(self.tables_group)
        return [self.tournament.group_name, self.tables_group, self.decks_group]

    #: The console redraws the dealt tables' hands at most this often: at a hundred tables the taps come
    #: twenty a second, and a whole console rendered for each, per open console, would cost more than the
    #: taps themselves. The event's own changes (a bust, a move, the clock) are pushed at once.
    TABLES_PUSH_SECONDS = 1.0

    async def state_changed(self, event) -> None:
        if event.get("group") not in (self.tables_group, getattr(self, "decks_group", None)):
            await super().state_changed(event)
            return
        if self.tables_push is None or self.tables_push.done():
            self.tables_push = asyncio.create_task(self._push_tables_later())

    async def _push_tables_later(self) -> None:
        # The taps that arrive meanwhile are in the one render this makes.
        await asyncio.sleep(self.TABLES_PUSH_SECONDS)
        await self.push_fragment()

    async def disconnect(self, code) -> None:
        if getattr(self, "tables_push", None) is not None:
            self.tables_push.cancel()
        await super().disconnect(code)

    def still_allowed(self, version: int | None = None) -> bool:
        # A person whose role was removed (or who was deactivated) stops receiving the console at once.
        read_again(self.user)
        return runs_tournaments(self.user) and Tournament.objects.filter(pk=self.tournament.pk).exists()

    def render_fragment(self, version: int | None = None) -> str:
        self.tournament.refresh_from_db()
        return console.console_fragment(self.tournament, self.user)


class FlightsConsumer(LiveConsumer):
    """The flights page of one event (issue #37 item 3's leftovers, CC-05..CC-10): whoever may open the page (the
    floor's roles, ``access.FLOOR_ROLES``, as ``views.flights.flights_page``). It follows the event's screens' group
    (``models.event_screens_group``), whose announcements (ids and the event's version) come at every series
    started, day ended with its bags, Final Stage begun, receipt checked in and bust, but not at a plain hand's end:
    the page lists every seated player for the day's end, and at a big event 1,112 tables' hands would re-render it
    nine times a second (issue #37); its tablets' stacks are read again at the next announcement or reload, and the
    day ends once every hand is played out. A backlog is rendered once (the fragment shows the event's version).
    Each push re-checks the viewer and renders his own forms (``rendering.flights``)."""

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return flights_screen.SCREEN_ID

    def _allowed(self) -> bool:
        return self.user is not None and self.user.is_active and has_role(self.user, *access.FLOOR_ROLES)

    def authorise(self):
        self.user = signed_in_user(self.scope)
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = Tournament.objects.filter(pk=tournament_id).first()
        if self.tournament is None or not self._allowed():
            return None
        group = event_screens_group(self.tournament.pk)
        self.coalesce_groups = frozenset({group})
        return [group]

    def still_allowed(self, version: int | None = None) -> bool:
        # A person whose role was removed (or who was deactivated) stops receiving the page at once.
        read_again(self.user)
        return self._allowed() and Tournament.objects.filter(pk=self.tournament.pk).exists()

    def render_fragment(self, version: int | None = None) -> str:
        self.tournament.refresh_from_db()
        return flights_screen.flights_fragment(self.tournament, self.user)


class DealerTabletConsumer(LiveConsumer):
    """The dealer's tablet at one tournament table (issue #15): its dealer on duty, the floor and the
    director. It follows the table (each tap) and the event (the level, the moves the floor's plan makes).

    A tap's push asks the process's render of the version announced (``rendering.tablet.fragment_at``, which the tap's
    answer asks too): one render per version and process, then the viewer's check. A change of the event is
    drawn only when it changes what this tablet shows of the event (``rendering.tablet.event_facts``): a hand ends
    somewhere about every second at a large event, and a redraw of every tablet for each is wasted work.
    """

    goodbye_template = "casino/fragments/staff_access_ended.html"

    def screen_id(self) -> str:
        return "deal-table"

    def authorise(self):
        self.user = signed_in_user(self.scope)
        kwargs = self.scope["url_route"]["kwargs"]
        self.table = (DealtTable.objects.select_related("tournament")
                      .filter(tournament_id=kwargs["tournament_id"], number=kwargs["table"]).first())
        if self.table is None or self.user is None or not access.may_open(self.user, self.table):
            return None
        # the event's changes that its screens away from the console hear (not another table's plain hand)
        self.event_group = event_screens_group(self.table.tournament_id)
        self.shown_facts: tuple | None = None
        return [self.table.group_name, self.event_group]

    def still_allowed(self, version: int | None = None) -> bool:
        read_again(self.user)
        if not self.user.is_active:
            return False
        if access.runs_the_floor(self.user, self.table):
            return access.may_open(self.user, self.table)  # the floor and the director: at any table, on duty or not
        # A dealer: the table's dealer on duty now, read again, for every push, their own tap's included. The
        # dealer on duty at the pushed version (the render at its commit) is not enough: taken off the table
        # since, a dealer went on receiving it (issue #34).
        self.table.refresh_from_db(fields=["dealer"])
        return access.may_open(self.user, self.table)

    def _checked_fragment(self, version: int | None) -> tuple[str, bool, str | None]:
        html, allowed, news = super()._checked_fragment(version)
        if not allowed and self.user.is_active:
            # issue #38 item 5: relieved by the rotation, the dealer reads who took over and where he goes
            with translation.override(self.language):
                html = tablet.handed_over(self.table, self.user) or html
        return html, allowed, news

    async def state_changed(self, event) -> None:
        if event.get("group") == self.event_group:
            concerned = await database_sync_to_async(self._event_concerns_this_table, thread_sensitive=False)(
                event.get("version"))
            if concerned:
                await self.push_fragment()
            return
        # The table's own announcement names the version: the process renders it once for all its tablets.
        await self.push_fragment(version=event.get("version") if event.get("group") == self.table.group_name
                                 else None)

    def _event_concerns_this_table(self, version: int | None = None) -> bool:
        """Whether the event's change announced at ``version`` changes what this tablet shows of the event.
        The event at the version announced, not its row read again: every tablet of the event hears every
        change (a bust, a plan, a confirmation), a hundred of them at once, and the first of the process to
        ask reads the record's new events for all (``event_reads.tournament_state``, once per version)."""


        tournament = (Tournament(pk=self.table.tournament_id, version=version) if version is not None
                      else Tournament.objects.get(pk=self.table.tournament_id))
        return tablet.event_facts(event_reads.tournament_state(tournament), self.table.number) != self.shown_facts

    def render_fragment(self, version: int | None = None) -> str:
        made = tablet.fragment_at(self.table, version) if version is not None else tablet.render_now(self.table)
        self.shown_facts = made.event_facts
        return made.with_notice(None)


class ClockDisplayConsumer(LiveConsumer):
    """The room's clock display: a public screen, no login (it shows nothing a player at the tables may
    not see: no name, no entry number, no seat; tournaments.views.display says why).

    Every push of one version is the same for every display in a language: the board is read once per
    version and process (a worker thread), then each display renders on the event loop from memory.

    One membership per process and tournament: the first display of a tournament in a process joins the
    tournament's group and hands each announcement to the process's other displays of that tournament
    itself (``_local_displays``). A room may have many screens and a bench thousands: a push then costs
    the channel layer one message per process, not one per screen (each its own trip to Redis). When
    that display closes, another of the process joins the group before it leaves it, so no push falls
    between the two.
    """

    def screen_id(self) -> str:
        return "clock-display"

    def authorise(self):
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = Tournament.objects.filter(pk=tournament_id).first()
        if self.tournament is None:
            return None
        self.coalesce_groups = frozenset({event_screens_group(self.tournament.pk)})
        return []  # the group is joined once per process (connect)

    async def connect(self) -> None:
        self.tournament = None
        await super().connect()
        if self.tournament is None:
            return  # refused
        displays = _local_displays(self.tournament.pk)
        displays.append(self)
        if len(displays) == 1:
            await self._lead()
        # A write between the first render (in connect) and joining the process's displays was heard by
        # none of them: if there was one, show the state as it is now that this screen hears every push.
        if await database_sync_to_async(self._current_version, thread_sensitive=False)() > self.shown_version:
            await self.push_fragment()

    def _current_version(self) -> int:
        return Tournament.objects.filter(pk=self.tournament.pk).values_list("version", flat=True).first() or 0

    async def _lead(self) -> None:
        group = event_screens_group(self.tournament.pk)
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.append(group)

    async def disconnect(self, code) -> None:
        if getattr(self, "tournament", None) is not None:
            displays = _local_displays(self.tournament.pk)
            was_leading = bool(displays) and displays[0] is self
            if self in displays:
                displays.remove(self)
            if was_leading and displays:
                await displays[0]._lead()  # before this one leaves the group (below): no gap
        await super().disconnect(code)

    async def state_changed(self, event) -> None:
        """The leading display heard a change of the event: push it to every display of the process.

        Issue #37: the same fragment goes to every display of a language, so it is rendered once per push and
        language (the pure clock asked once, the server's "now" stamped once) and sent to each display in one
        loop (``_send_to_all``). A push per display (a task each, the clock asked, the language switched and
        the fragment stamped for each) cost twice the CPU, and no display got a byte before the last one's
        render (docs/decisions/2026-11-27-clock-push-rendered-once.md).
        """
        announced = event.get("version")
        board = None
        if announced is not None and event.get("group") in self.coalesce_groups:
            board = await self._board_since(announced)
        # After the read: a display that connected during it is among them (or saw the version at connect).
        displays = list(_local_displays(self.tournament.pk))
        if board is None:  # no version to show, or no board in memory: each display reads for itself
            await self._each_for_itself(displays, event)
            return
        behind = [d for d in displays if d.shown_version < announced]
        await self._send_to_all(behind, board)

    async def _board_since(self, version: int):
        """The event's board at ``version`` or later, from this process's memory after one shared read; None
        if the read failed (the worker-thread path reads again and says what went wrong)."""
        board = event_reads.board_since(self.tournament.pk, version)
        if board is None:
            key, read = self.shared_read(version)
            try:
                await single_flight(key, database_sync_to_async(read, thread_sensitive=False))
            except Exception:  # noqa: BLE001 - logged; every display then takes its own path
                log.exception("the clock displays' shared read of %r failed", key)
                return None
            board = event_reads.board_since(self.tournament.pk, version)
        return board

    async def _send_to_all(self, displays: list[ClockDisplayConsumer], board) -> None:
        """The board's fragment to each of ``displays``, rendered once per language, in one loop that never
        waits: every display's frame is written in the same turn of the event loop, so the one "now"
        stamped in the fragment is as fresh for the last display as for the first. Under daphne the frame
        is also made once per language (autobahn's ``prepareMessage``) and the same bytes written to each
        socket (``sendPreparedMessage``); elsewhere (another ASGI server, the tests' communicator) each
        display gets the plain ASGI send. A public screen has nothing to re-check (``still_allowed``); a
        display that closed meanwhile is skipped."""
        fragments: dict[str, tuple[str, int]] = {}
        frames: dict[str, object] = {}
        for display in displays:
            if display.language not in fragments:
                with translation.override(display.language):
                    html = clock_screen.clock_display_fragment(board)
                shown = SHOWN_VERSION.search(html, 0, 600)
                fragments[display.language] = (html, int(shown.group(1)) if shown else -1)
            html, version = fragments[display.language]
            display.shown_version = max(display.shown_version, version)
            try:
                websocket = _daphne_websocket(display)
                if websocket is None:
                    await display.send(text_data=html)
                    continue
                if display.language not in frames:
                    frames[display.language] = websocket.factory.prepareMessage(html.encode("utf-8"))
                if websocket.state == websocket.STATE_OPEN:
                    websocket.sendPreparedMessage(frames[display.language])
            except Exception:  # noqa: BLE001 - one display's failure is not the others'
                log.warning("a clock display could not be pushed", exc_info=True)

    async def _each_for_itself(self, displays: list[ClockDisplayConsumer], event) -> None:
        results = await asyncio.gather(*(LiveConsumer.state_changed(d, event) for d in displays),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.warning("a clock display could not be pushed", exc_info=result)

    def still_allowed(self, version: int | None = None) -> bool:
        return True  # a public screen: nothing to revoke

    def render_fragment(self, version: int | None = None) -> str:
        return clock_screen.clock_display_fragment(event_reads.board_at(self.tournament, version))

    def fragment_from_memory(self, version: int) -> str | None:
        board = event_reads.board_since(self.tournament.pk, version)
        return None if board is None else clock_screen.clock_display_fragment(board)

    def shared_read(self, version: int):
        return (("tournament-board", self.tournament.pk, version),
                lambda: event_reads.board_at(self.tournament, version))


# The clock displays open in this process, per event loop and tournament; the first one is in the group.
_displays: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, list[ClockDisplayConsumer]]] = (
    weakref.WeakKeyDictionary()
)


def _local_displays(tournament_id: int) -> list[ClockDisplayConsumer]:
    return _displays.setdefault(asyncio.get_running_loop(), {}).setdefault(tournament_id, [])


def _daphne_websocket(display: ClockDisplayConsumer):
    """The websocket (autobahn's protocol object) daphne serves ``display`` through, or None.

    ASGI has no way to send the same frame to many sockets, and the ASGI send per display (Channels' session
    middleware, daphne's reply, autobahn's ``sendMessage``: the text encoded and framed again each time) was
    a fifth of a push's CPU (docs/decisions/2026-11-27-clock-push-rendered-once.md). Daphne's send is
    ``partial(server.handle_reply, protocol)`` behind Channels' session middleware (``real_send``), which does
    nothing to a ``websocket.send``. Anything else (another server, another middleware, the tests'
    communicator) gives None: the display is sent through ASGI."""
    autobahn = sys.modules.get("autobahn.twisted.websocket")  # loaded by daphne; not imported here for others
    if autobahn is None:
        return None
    real = getattr(getattr(display.base_send, "__self__", None), "real_send", None)
    protocol = real.args[0] if isinstance(real, functools.partial) and len(real.args) == 1 else None
    return protocol if isinstance(protocol, autobahn.WebSocketServerProtocol) else None


class SeatingDisplayConsumer(LiveConsumer):
    """The room's seating screen (issue #36): public like the clock display; it follows the event's group
    (every draw, move, bust and table broken is announced there) and shows the seating at each version."""

    def screen_id(self) -> str:
        return "seating-display"

    def authorise(self):
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = Tournament.objects.filter(pk=tournament_id).first()
        if self.tournament is None:
            return None
        group = event_screens_group(self.tournament.pk)
        self.coalesce_groups = frozenset({group})
        return [group]

    def still_allowed(self, version: int | None = None) -> bool:
        return True  # a public screen: nothing to revoke

    def render_fragment(self, version: int | None = None) -> str:
        return clock_screen.seating_display_fragment(event_reads.board_at(self.tournament, version))
