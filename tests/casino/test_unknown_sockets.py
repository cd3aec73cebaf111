"""A websocket to an address the casino does not serve is refused cleanly (issue #12, item 7).

It used to fail the handshake with a 500 and log a traceback per attempt: a scanner could fill the
logs. Now the handshake is rejected (what a browser sees as a refused socket) and one line says so.
"""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from casino.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(path: str, **extra_headers) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               *((name.encode(), value.encode()) for name, value in extra_headers.items())]
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.parametrize(
    "path",
    ["/ws/nope/", "/ws/tables/-1/dealer/", "/ws/tables/abc/dealer/", "/ws/", "/", "/ws/player/extra/",
     "/ws/tables/99999999999999999999999/dealer/", "/ws/tables/pit/99999999999999999999999/"],
)
async def test_a_socket_to_an_unknown_address_is_refused_with_one_line_and_no_traceback(path, caplog):
    caplog.set_level(logging.DEBUG)
    socket = _socket(path)
    connected, _code = await socket.connect(timeout=5)
    assert not connected
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(problems) <= 1, [r.getMessage() for r in problems]
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records if r.exc_info]
    assert "Traceback" not in caplog.text


async def test_a_known_address_still_connects_and_refuses_only_for_want_of_a_seat():
    """The catch-all comes last: /ws/player/ still reaches its consumer (which refuses a visitor with no link)."""
    socket = _socket("/ws/player/")
    connected, _code = await socket.connect(timeout=5)
    assert not connected
