"""A websocket opens only from a page of the casino's own origin: scheme, host and port (issue #34, item 9).

Channels' AllowedHostsOriginValidator compared the Origin's host alone, so a page served by another port of
the same machine (``http://127.0.0.1:9999``) could open a dealer's socket with the dealer's cookies.
"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from casino.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def _opens(origin: str, host: str = "127.0.0.1:8000", scheme: str = "ws", **headers: str) -> bool:
    """Whether the handshake gets past the origin check to the sockets behind it (which then refuse a
    socket without a player link on their own: what is asked here is only who was let through)."""
    socket = WebsocketCommunicator(application, "/ws/player/", headers=[
        (b"origin", origin.encode()), (b"host", host.encode()),
        *((name.replace("_", "-").encode(), value.encode()) for name, value in headers.items())])
    socket.scope["scheme"] = scheme
    seen = []
    original = application.application_mapping["websocket"].application

    async def reached(scope, receive, send):
        seen.append(scope)
        return await original(scope, receive, send)

    application.application_mapping["websocket"].application = reached
    try:
        await socket.connect(timeout=5)
    finally:
        application.application_mapping["websocket"].application = original
        await socket.disconnect()
    return bool(seen)


async def test_a_socket_from_another_port_of_the_same_host_is_refused_and_from_its_own_port_let_through():
    assert not await _opens("http://127.0.0.1:9999")
    assert await _opens("http://127.0.0.1:8000")


async def test_a_socket_from_the_default_port_is_let_through_when_the_host_names_none():
    assert await _opens("http://localhost", host="localhost")
    assert not await _opens("http://localhost:8000", host="localhost")


async def test_a_socket_from_the_other_scheme_or_a_foreign_or_missing_origin_is_refused():
    assert not await _opens("https://127.0.0.1:8000")
    assert not await _opens("http://evil.example.com:8000")
    assert not await _opens("null")
    assert not await _opens("")
    assert not await _opens("http://evil.example.com", host="evil.example.com")  # a host not allowed


async def test_a_trusted_origin_is_let_through_with_its_own_scheme_and_port(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://tablets.example.com", "https://*.casino.example"]
    assert await _opens("https://tablets.example.com")
    assert await _opens("https://pit.casino.example")
    assert not await _opens("https://tablets.example.com:8443")
    assert not await _opens("http://tablets.example.com")


async def test_behind_the_tls_proxy_the_https_origin_with_the_default_port_is_let_through(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["casino.example"]
    assert await _opens("https://casino.example", host="casino.example", x_forwarded_proto="https")
    assert not await _opens("http://casino.example", host="casino.example", x_forwarded_proto="https")
    assert not await _opens("https://casino.example:9999", host="casino.example", x_forwarded_proto="https")
    settings.SECURE_PROXY_SSL_HEADER = None  # not behind the proxy: the header is anyone's to send
    assert not await _opens("https://casino.example", host="casino.example", x_forwarded_proto="https")
