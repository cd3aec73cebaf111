"""Websocket consumers: authorise, join groups, render the viewer's fragment.

Consumers never change state: every action is an HTTP POST (CSRF-checked,
idempotent) through a service. A consumer is told *that* something changed
(ids and a version, casino.realtime) and re-renders its own viewer's
projection from the database, re-checking the viewer's right to see it.
They are sync consumers on purpose: the ORM runs in sync code, and Channels
closes stale database connections around each handler.
"""

from __future__ import annotations

import json
import logging
import re

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from casino import player_links

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_REVOKED = 4401
# The version a fragment shows, on its root element (read from the first few hundred characters).
SHOWN_VERSION = re.compile(r'data-version="(\d+)"')


class LiveConsumer(WebsocketConsumer):
    """Base for every live screen. Subclasses implement ``authorise`` and ``render_fragment``."""

    # Groups whose announcements carry the version this screen's fragment shows (its root's
    # data-version). A screen that fell behind renders the current state once for a backlog of
    # such announcements instead of once per message: under load the backlog would otherwise grow
    # until the channel layer expires messages. Announcements on other groups are never skipped.
    coalesce_groups: frozenset[str] = frozenset()

    def authorise(self) -> list[str] | None:
        """The groups this viewer may follow, or None to refuse the connection."""
        raise NotImplementedError

    def still_allowed(self) -> bool:
        """Re-checked before every push: a revoked link or a removed role stops at once."""
        return True

    def render_fragment(self) -> str:
        raise NotImplementedError

    def connect(self) -> None:
        self.joined: list[str] = []
        self.shown_version = -1
        self.language = _language_of(self.scope)
        groups = self.authorise()
        if groups is None:
            # Closing before accept rejects the handshake (HTTP 403 to the browser).
            self.close(code=CLOSE_FORBIDDEN)
            return
        self.accept()
        for group in groups:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
            self.joined.append(group)
        # A (re)connecting client gets the current state at once, never a guess.
        self.push_fragment()

    def disconnect(self, code) -> None:
        for group in getattr(self, "joined", []):
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None) -> None:
        # The only thing a client may ask: "I missed a version, send me the current state."
        try:
            wants_refresh = bool(json.loads(text_data or "{}").get("refresh"))
        except (ValueError, AttributeError):
            wants_refresh = False
        if wants_refresh:
            self.push_fragment()

    def state_changed(self, event) -> None:
        if event.get("group") in self.coalesce_groups and event.get("version", 0) <= self.shown_version:
            return  # this screen already shows that version or a later one
        self.push_fragment()

    def push_fragment(self) -> None:
        if not self.still_allowed():
            self.send(text_data=self.render_goodbye())
            self.close(code=CLOSE_REVOKED)
            return
        with translation.override(self.language):
            html = self.render_fragment()
        shown = SHOWN_VERSION.search(html, 0, 600)
        self.shown_version = int(shown.group(1)) if shown else -1
        self.send(text_data=html)

    def render_goodbye(self) -> str:
        with translation.override(self.language):
            return render_to_string("casino/fragments/access_ended.html", {})


def _language_of(scope) -> str:
    session = scope.get("session")
    cookies = scope.get("cookies", {})
    from django.conf import settings

    lang = cookies.get(settings.LANGUAGE_COOKIE_NAME) or (session.get("_language") if session else None)
    codes = {code for code, _name in settings.LANGUAGES}
    return lang if lang in codes else settings.LANGUAGE_CODE


class PlayerConsumer(LiveConsumer):
    """A player's phone: only the seat their link is bound to, only what that seat may see."""

    def authorise(self):
        session = self.scope.get("session")
        self.link = player_links.current_link(session) if session is not None else None
        if self.link is None:
            return None
        from casino.player_views import seat_groups

        seat = seat_groups(self.link)
        # The seat's group carries the version the player's fragment shows; the link's group
        # (revocation) is never coalesced.
        self.coalesce_groups = frozenset(seat)
        return [self.link.group_name, *seat]

    def still_allowed(self) -> bool:
        self.link.refresh_from_db(fields=["revoked_at", "expires_at"])
        return self.link.is_usable()

    def render_fragment(self) -> str:
        from casino.player_views import render_player_fragment

        return render_player_fragment(self.link)
