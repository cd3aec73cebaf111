"""The stack's floor, for ``bench_pit_load.py --app floor``: the least any pit must do per tap.

The same daphne processes, settings, middleware, sessions, login, CSRF, PostgreSQL row lock and
Redis channel layer as the casino, but no game: a dealer's tap locks the table's row, bumps its
version, announces it after commit and answers a small fragment; a phone's socket joins the table's
group and, for each announcement, sends a fixed fragment of a phone's size with that version. What
the casino spends above these figures is its own (the rules, the audit chain, the screens).

Served as ``bench.floor_app:application`` with ``DJANGO_SETTINGS_MODULE=bench.floor_settings``;
never part of the casino's URLs.
"""

from __future__ import annotations

import os
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.floor_settings")

from casino.asgi_http import get_sync_request_asgi_application  # noqa: E402

django_asgi_app = get_sync_request_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import F  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.middleware.csrf import get_token  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.http import require_POST  # noqa: E402

from bench.pit_script import FRAGMENT_VERSION, DealerScript  # noqa: E402 - the casino's login and answers
from casino.access import role_required  # noqa: E402
from casino.realtime import announce_change  # noqa: E402
from casino.roles import Role, has_role  # noqa: E402
from casino.urls import urlpatterns as casino_urls  # noqa: E402 - the login page
from tables.models import Table  # noqa: E402

# About the size of a phone's fragment mid-hand (the casino's is 3 to 5 kB of HTML).
PHONE_FRAGMENT = '<div id="player-view" data-version="{version}">' + "x" * 4000 + "</div>"


@role_required(Role.DEALER)
def floor_tablet(request, table_id: int):
    return HttpResponse(f'<meta name="csrf" content=\'{{"X-CSRFToken": "{get_token(request)}"}}\'>')


@require_POST
@role_required(Role.DEALER)
def floor_tap(request, table_id: int):
    return HttpResponse(f'<div id="dealer-table" data-version="{_tap(table_id)}"></div>')


def _tap(table_id: int) -> int:
    with transaction.atomic():
        table = Table.objects.select_for_update().only("pk", "version").get(pk=table_id)
        Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
        announce_change(f"floor.{table.pk}", version=table.version + 1)
    return table.version + 1


class FloorTabletSocket(AsyncWebsocketConsumer):
    """``--app floor-ws``: the dealer's taps over the tablet's own websocket instead of HTTP requests
    (authenticated once, at connect; each tap checks the role from the roles the connection's user
    read then, where an HTTP tap reads the user and the roles again)."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await database_sync_to_async(self._allowed, thread_sensitive=False)():
            await self.close(code=4403)
            return
        await self.accept()

    def _allowed(self) -> bool:
        user = self.scope.get("user")
        return bool(user and user.is_authenticated and has_role(user, Role.DEALER))

    async def receive(self, text_data=None, bytes_data=None):
        if not await database_sync_to_async(self._allowed, thread_sensitive=False)():
            await self.close(code=4403)
            return
        version = await database_sync_to_async(_tap, thread_sensitive=False)(self.table_id)
        await self.send(text_data=f'<div id="dealer-table" data-version="{version}"></div>')


class FloorPhone(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"floor.{int(self.scope['url_route']['kwargs']['table_id'])}"
        # joined before the socket opens: an announcement sent once it is open is heard (announcements go
        # from their own loop, casino.realtime, so nothing orders them after a join still under way)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def state_changed(self, event):
        await self.send(text_data=PHONE_FRAGMENT.format(version=event["version"]))


urlpatterns = [
    path("floor/<int:table_id>/", floor_tablet),
    path("floor/<int:table_id>/tap/", floor_tap),
    *casino_urls,
]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    [
                        path("ws/floor/<int:table_id>/", FloorPhone.as_asgi()),
                        path("ws/floor-tablet/<int:table_id>/", FloorTabletSocket.as_asgi()),
                    ]
                )
            )
        ),
    }
)


class FloorScript:
    """The load generator's side: the same login as the casino's dealers, then one tap a second."""

    def __init__(self):
        self.casino = DealerScript()  # its login and open_table; the taps are the floor's own

    def socket_path(self, table_id: int) -> str:
        return f"/ws/floor/{table_id}/"

    def open_table(self, table, dealer, boss) -> None:
        self.casino.open_table(table, dealer, boss)

    def login(self, dealer) -> None:
        self.casino.login(dealer, tablet=f"/floor/{dealer.table_id}/")

    def act(self, dealer, base: str, started: float) -> int | None:
        status, page = dealer.request(
            base,
            f"/floor/{dealer.table_id}/tap/",
            {"key": str(uuid.uuid4())},
            headers={"HX-Request": "true", "X-CSRFToken": self.casino.csrf[dealer.table_id]},
        )
        match = FRAGMENT_VERSION.search(page)
        if status != 200 or not match:
            dealer.errors.append(f"tap: HTTP {status}")
            return None
        return int(match.group(1))


class FloorSocketScript(FloorScript):
    """``--app floor-ws``: the same login, then each tap sent over the dealer's websocket to the process
    whose turn it is (one socket per dealer and process, opened at login)."""

    def __init__(self):
        super().__init__()
        self.sockets: dict[tuple[int, str], object] = {}

    def login(self, dealer) -> None:
        from websockets.sync.client import connect

        super().login(dealer)
        for base in dealer.base_urls:
            self.sockets[dealer.table_id, base] = connect(
                base.replace("http://", "ws://") + f"/ws/floor-tablet/{dealer.table_id}/",
                origin=base,
                additional_headers={"Cookie": dealer.cookie_header()},
                open_timeout=30,
            )

    def act(self, dealer, base: str, started: float) -> int | None:
        socket = self.sockets[dealer.table_id, base]
        socket.send(f'{{"key": "{uuid.uuid4()}"}}')
        match = FRAGMENT_VERSION.search(socket.recv(timeout=15))
        if not match:
            dealer.errors.append("tap: no version in the answer")
            return None
        return int(match.group(1))
