"""Websocket consumers: authorise, join groups, render the viewer's fragment.

Consumers never change state: every action is an HTTP POST (CSRF-checked,
idempotent) through a service. A consumer is told *that* something changed
(ids and a version, casino.realtime) and re-renders its own viewer's
projection from the database, re-checking the viewer's right to see it.
The sockets are async and their hooks sync: the ORM runs in sync code, in a
worker thread per push (see LiveConsumer).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import uuid
import weakref
from collections.abc import Callable, Hashable

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels_redis.core import RedisChannelLayer
from django.core.exceptions import SynchronousOnlyOperation
from django.template.loader import render_to_string
from django.utils import translation

from casino import player_links, player_views
from casino.memo import single_flight

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_REVOKED = 4401
# The version a fragment shows, on its root element (read from the first few hundred characters).
SHOWN_VERSION = re.compile(r'data-version="(\d+)"')


def signed_in_user(scope):
    """The staff member a socket's session signed in, or None (a phone, a session that ended)."""
    user = scope.get("user")
    return user if user is not None and user.is_authenticated else None


class LiveConsumer(AsyncWebsocketConsumer):
    """Base for every live screen. Subclasses implement the sync hooks ``authorise``,
    ``still_allowed`` and ``render_fragment``; they run in a worker thread, one call per push.

    The socket itself is async on purpose. A pit has hundreds of phones: with sync consumers
    every push of a process would queue on one thread (Channels runs them all on the thread-
    sensitive executor), each waiting for its database round trip and for its hop back to the
    event loop to send. Here each push is one hop to a worker thread (``thread_sensitive=False``:
    the hooks share nothing between calls but their own connection's attributes) and the send
    is a plain ``await``; Channels' ``database_sync_to_async`` closes stale connections around
    each call, as the design notes require of long-lived consumers.
    """

    # Groups whose announcements carry the version this screen's fragment shows (its root's
    # data-version). A screen that fell behind renders the current state once for a backlog of
    # such announcements instead of once per message: under load the backlog would otherwise grow
    # until the channel layer expires messages. Announcements on other groups are never skipped.
    coalesce_groups: frozenset[str] = frozenset()

    def authorise(self) -> list[str] | None:
        """The groups this viewer may follow, or None to refuse the connection."""
        raise NotImplementedError

    def still_allowed(self, version: int | None = None) -> bool:
        """Re-checked before every push: a revoked link or a removed role stops at once. ``version``: what
        the push being answered announced, if anything (a screen may check against what it holds of it)."""
        return True

    #: The goodbye shown when ``still_allowed`` says no: it replaces the element with ``screen_id()``.
    goodbye_template = "casino/fragments/access_ended.html"

    def screen_id(self) -> str:
        """The id of the element this screen's fragments replace (the goodbye takes its place)."""
        return "player-view"

    def render_fragment(self, version: int | None = None) -> str:
        """The viewer's fragment. ``version``: what the push being answered announced (a hint a
        screen may use to share its process's read of that version; without it, read now)."""
        raise NotImplementedError

    # Optional, for screens that many sockets show at once (the phones): render a push on the event
    # loop from what the process already holds, after one shared read per version.

    def fragment_from_memory(self, version: int) -> str | None:
        """The fragment at ``version``, with the viewer's right checked, from what this process holds:
        no database (it runs on the event loop). None: render in a worker thread instead."""
        return None

    def shared_read(self, version: int) -> tuple[Hashable, Callable[[], object]] | None:
        """``(key, read)``: the sync read after which ``fragment_from_memory(version)`` has what it
        needs. Every socket of the process that pushes the same key awaits one run of it."""
        return None

    def news_from_memory(self, event: dict) -> tuple[Hashable, Callable[[], object], Callable[[], str | None]] | None:
        """For an announcement on a group that is not coalesced and carries another aggregate's version
        (a tap at the table a tournament entry plays at): ``(key, read, render)``. ``render()`` gives a
        message the screen's script draws on top of the fragment it shows (it changes neither the fragment
        nor the version it shows), from what this process holds once ``read`` ran for ``key`` (None until
        then, or when it cannot: the viewer's right included), on the event loop; ``read`` runs once per key
        and process, as ``shared_read``. None: render the fragment in a worker thread instead."""
        return None

    def news_now(self) -> str | None:
        """In the worker thread, after the viewer's fragment was rendered there with their right checked: the
        message the latest such announcement would have brought (sent after the fragment), or None."""
        return None

    def groups_now(self) -> list[str] | None:
        """After each push, from memory (on the event loop): the groups this screen follows now, where they
        change with what it shows (a tournament player's phone follows the table its player sits at);
        None: keep those it has. A socket that joins a group is shown the current state once more: what
        the group announced before it joined."""
        return None

    async def connect(self) -> None:
        self.joined: list[str] = []
        self.shown_version = -1
        self.language = _language_of(self.scope)
        groups = await database_sync_to_async(self.authorise, thread_sensitive=False)()
        if groups is None:
            # Closing before accept rejects the handshake (HTTP 403 to the browser).
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.accept()
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)
        watch_the_layer(self)
        # A (re)connecting client gets the current state at once, never a guess.
        await self.push_fragment()

    async def disconnect(self, code) -> None:
        _live_sockets.discard(self)
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def rejoin(self) -> None:
        """Join this socket's groups again and show the current state: the channel layer's Redis
        restarted, and with it went every group membership (``watch_the_layer``)."""
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.push_fragment()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # The only thing a client may ask: "I missed a version, send me the current state." A longer
        # frame is none a screen sends: left unread (a deeply nested one exhausts json's recursion).
        try:
            wants_refresh = len(text_data or "") <= 200 and bool(json.loads(text_data or "{}").get("refresh"))
        except (ValueError, AttributeError, RecursionError):
            wants_refresh = False
        if wants_refresh:
            await self.push_fragment()

    async def dispatch(self, message) -> None:
        # Channels' AsyncConsumer.dispatch first awaits ``aclose_old_connections()``: a hop to the
        # process's one thread-sensitive thread and back for every message, so every push of every
        # socket of the process queued on that one thread
        # (docs/decisions/2026-11-22-consumer-dispatch-without-aclose.md). These
        # sockets never use that thread's connection: their database work runs in
        # ``database_sync_to_async``, which closes stale connections around each call itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def state_changed(self, event) -> None:
        if event.get("group") not in self.coalesce_groups:
            news = self.news_from_memory(event) if event.get("version") is not None else None
            message = await self._after_shared_read(*news) if news is not None else None
            if message is None:
                await self.push_fragment()
            else:
                await self.send(text_data=message)
            return
        announced = event.get("version")
        if announced is not None and announced <= self.shown_version:
            return  # this screen already shows that version or a later one
        await self.push_fragment(version=announced)

    async def push_fragment(self, version: int | None = None) -> None:
        if version is not None:
            html = await self._fragment_from_memory(version)
            if html is not None:
                await self._show(html)
                return
        html, allowed, news = await database_sync_to_async(self._checked_fragment, thread_sensitive=False)(version)
        if not allowed:
            await self.send(text_data=html)
            await self.close(code=CLOSE_REVOKED)
            return
        await self._show(html, news)

    async def _show(self, html: str, news: str | None = None) -> None:
        shown = SHOWN_VERSION.search(html, 0, 600)
        self.shown_version = max(self.shown_version, int(shown.group(1))) if shown else -1
        await self.send(text_data=html)
        if news is not None:
            await self.send(text_data=news)
        await self._follow_groups()

    async def _follow_groups(self) -> None:
        wanted = self.groups_now()
        if wanted is None or set(wanted) == set(self.joined):
            return
        joining = [group for group in wanted if group not in self.joined]
        for group in joining:
            await self.channel_layer.group_add(group, self.channel_name)
        for group in [group for group in self.joined if group not in wanted]:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined[:] = wanted
        if joining:
            await self.push_fragment()

    async def _fragment_from_memory(self, version: int) -> str | None:
        """The push rendered on the event loop (one hop to a thread per version and process, for the
        shared read), or None to take the worker-thread path, which reads and checks everything."""
        render = functools.partial(self.fragment_from_memory, version)
        read = self.shared_read(version)
        if read is None:
            return self._from_memory(render)
        return await self._after_shared_read(*read, render)

    async def _after_shared_read(self, key: Hashable, fill: Callable[[], object],
                                 render: Callable[[], str | None]) -> str | None:
        """``render()`` from memory, after one run of ``fill`` for ``key`` in this process if memory does not
        have it yet; None to take the worker-thread path."""
        html = self._from_memory(render)
        if html is None:
            try:
                await single_flight(key, database_sync_to_async(fill, thread_sensitive=False))
            except Exception:  # the worker-thread path reads again, and says what is wrong
                log.exception("shared read for %r failed", key)
                return None
            html = self._from_memory(render)
        return html

    def _from_memory(self, render: Callable[[], str | None]) -> str | None:
        try:
            with translation.override(self.language):
                return render()
        except SynchronousOnlyOperation:
            # A memory-only renderer reached for the database: a bug, but not the player's problem.
            log.exception("%s rendered from memory read the database", type(self).__name__)
            return None

    def _checked_fragment(self, version: int | None) -> tuple[str, bool, str | None]:
        """In a worker thread: the viewer's right checked again, then their fragment and the news drawn on it
        (``news_now``), or a goodbye."""
        with translation.override(self.language):
            if not self.still_allowed(version):
                return render_to_string(self.goodbye_template, {"screen_id": self.screen_id()}), False, None
            return self.render_fragment(version), True, self.news_now()


# --- A Redis that lost its data ------------------------------------------------------------------------
#
# Redis keeps the groups (which socket hears which table), and here keeps nothing on disk. After a
# restart, a socket whose own receive failed is closed and its browser reconnects, joining again; but a
# socket of the process that was not closed goes on waiting, in no group, and never hears of a change
# again (the fault drill saw a phone and a tablet stay frozen that way, bench/fault_drill.py). So each
# process leaves a marker of its own in Redis and looks for it every few seconds: when it is gone, so
# are the groups, and every live socket of the process joins its groups again and shows the current
# state. A restart that kept its data (persistence on) keeps the marker and the groups alike.

#: How often a process looks for its marker (one round trip per process: nothing per socket).
LAYER_WATCH_SECONDS = 2.0
_MARKER_SECONDS = 24 * 3600  # a dead process's marker goes by itself
_live_sockets: weakref.WeakSet[LiveConsumer] = weakref.WeakSet()
_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = weakref.WeakKeyDictionary()


def watch_the_layer(consumer: LiveConsumer) -> None:
    """Count ``consumer`` among this process's live sockets, and watch the layer's Redis while any is."""
    if not isinstance(consumer.channel_layer, RedisChannelLayer):
        return  # the in-memory layer lives and dies with this process: nothing to watch
    _live_sockets.add(consumer)
    loop = asyncio.get_running_loop()
    if loop not in _watchers or _watchers[loop].done():
        _watchers[loop] = loop.create_task(_watch_for_lost_groups(consumer.channel_layer))


async def _markers_were_there(layer, marker: str) -> bool | None:
    """Set this process's marker on every Redis of the layer; whether each still had it (None: no answer)."""
    try:
        found = await asyncio.wait_for(asyncio.gather(*(
            layer.connection(i).set(marker, 1, ex=_MARKER_SECONDS, get=True) for i in range(layer.ring_size)
        )), 1)
    except Exception:  # noqa: BLE001 - down or restarting: look again at the next turn
        return None
    return all(value is not None for value in found)


async def _watch_for_lost_groups(layer) -> None:
    marker = f"{layer.prefix}:groups-kept:{uuid.uuid4().hex}"
    await _markers_were_there(layer, marker)
    me = asyncio.current_task()
    while _live_sockets:
        await asyncio.sleep(LAYER_WATCH_SECONDS)
        found = await _markers_were_there(layer, marker)
        if me is not None and me.cancelling():
            # Python 3.11's wait_for can swallow a cancellation that lands as its call completes: a
            # watcher that went on looping kept its event loop from closing (a hang seen in the suite).
            raise asyncio.CancelledError
        if found is not False:
            continue
        sockets = list(_live_sockets)
        log.warning("the channel layer's Redis lost its data: %d sockets join their groups again", len(sockets))
        results = await asyncio.gather(*(s.rejoin() for s in sockets), return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.warning("a socket could not join its groups again", exc_info=result)


def _language_of(scope) -> str:
    """The language the page itself was served in, chosen as LocaleMiddleware chooses it: the language
    cookie, then the session's, then the browser's Accept-Language, then the casino's default.

    Issue #16: the socket skipped Accept-Language, so a phone asking for English got its top bar in
    English and its live part in Spanish.
    """
    from django.conf import settings
    from django.utils.translation import get_supported_language_variant
    from django.utils.translation.trans_real import parse_accept_lang_header

    session = scope.get("session")
    cookies = scope.get("cookies", {})
    asked = [cookies.get(settings.LANGUAGE_COOKIE_NAME), session.get("_language") if session else None]
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")[:200]  # as long as any real header
    asked += [code for code, _quality in parse_accept_lang_header(accept) if code != "*"]
    for code in asked:
        if not code:
            continue
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class PlayerConsumer(LiveConsumer):
    """A player's phone: only the seat their link is bound to, only what that seat may see."""

    def authorise(self):
        session = self.scope.get("session")
        self.link = player_links.current_link(session) if session is not None else None
        if self.link is None:
            return None
        from casino.player_views import seat_groups, versioned_groups

        self.seat = self.link.seat  # kept: a seat (a box, an entry) never moves to another table
        seat = seat_groups(self.link)
        # The seat's group carries the version the player's fragment shows; the link's group
        # (revocation) is never coalesced, nor a seat's group that announces another aggregate's version.
        self.coalesce_groups = frozenset(versioned_groups(self.link))
        return [self.link.group_name, *seat]

    def still_allowed(self, version: int | None = None) -> bool:
        # The link's row read again: on the worker-thread path only (the connection, a revocation's
        # own push, a push the memory could not serve). Pushes rendered from memory check the link
        # against the links read for their version instead (fragment_from_memory).
        self.link.refresh_from_db(fields=["revoked_at", "expires_at"])
        return self.link.is_usable()

    def render_fragment(self, version: int | None = None) -> str:
        return player_views.render_player_fragment(self.link, seat=self.seat, version=version)

    def fragment_from_memory(self, version: int) -> str | None:
        # The link is checked against the links the shared read found usable at this version: a
        # revocation committed before that read is in it, and the revocation's own push (the link's
        # group, never coalesced) takes the worker-thread path, which reads the row and says goodbye.
        return player_views.fragment_from_memory(self.link, self.seat, version)

    def shared_read(self, version: int):
        return player_views.shared_read(self.seat, version)

    def news_now(self) -> str | None:
        return player_views.news_now(self.link, self.seat)

    def news_from_memory(self, event: dict):
        # Only once the phone shows a version of its own: the news is rendered on top of it.
        if self.shown_version < 0:
            return None
        return player_views.news_from_memory(self.link, self.seat, event, self.shown_version)

    def groups_now(self) -> list[str] | None:
        groups = player_views.groups_now(self.seat, self.shown_version) if self.shown_version >= 0 else None
        return None if groups is None else [self.link.group_name, *groups]
