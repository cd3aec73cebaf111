"""What a screen's socket does with a frame no screen sends (issue #34's fuzz run): it is ignored, the
socket stays open and still answers the one thing a screen may ask, ``{"refresh": true}``.

Found by ``bench/fuzz_tournament.py``: a deeply nested JSON frame exhausted ``json``'s recursion inside
``LiveConsumer.receive`` and closed the socket with 1011 and a traceback (every live screen shares it).
"""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group

from casino.asgi import application
from tests.tournaments import display_fixtures as fx

pytestmark = [pytest.mark.django_db(transaction=True)]

VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture
def clock_of_an_event(django_user_model):
    from casino.roles import ensure_role_groups

    ensure_role_groups()
    dora = django_user_model.objects.create_user(username="dora", password="pw-dora")
    dora.groups.add(Group.objects.get(name="tournament_director"))
    return f"/ws/tournaments/{fx.a_tournament(dora).pk}/clock/"


@pytest.mark.parametrize("frame", ["[" * 100_000, '{"a":' * 50_000, "x" * 300_000, '{"refresh": true}' + " " * 300])
async def test_a_frame_no_screen_sends_is_ignored_and_the_socket_still_answers_a_refresh(clock_of_an_event, frame):
    socket = WebsocketCommunicator(application, clock_of_an_event,
                                   headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _code = await socket.connect(timeout=5)
    assert connected
    first = await socket.receive_from(timeout=5)

    await socket.send_to(text_data=frame)
    assert await socket.receive_nothing(timeout=0.5)  # no answer, no close
    await socket.send_json_to({"refresh": True})
    again = await socket.receive_from(timeout=5)

    assert VERSION.search(again).group(1) == VERSION.search(first).group(1)
    await socket.disconnect()
