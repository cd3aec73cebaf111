"""Issue #35, item 2: a post made on the console or another page of the event that another's post has moved past
is refused (409) naming what the event's record got since the version the page showed, as the record's page
says it, in the viewer's language, oldest first, a few lines at most; never a player's name or document."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from casino.refusals import CHANGES_SAID
from tests.tournaments.conftest import PLAYERS, act, register
from tests.tournaments.test_console_flow import _seat_of
from tournaments import record_text, services
from tournaments.models import TournamentEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_seated(registering, director_dora):
    """The five players of the desk drawn at one table (as tests/tournaments/test_console_flow.py's)."""
    for i in range(len(PLAYERS)):
        register(registering, director_dora, i)
    act(services.close_registration, registering, director_dora)
    act(services.start_tournament, registering, director_dora)
    registering.refresh_from_db()
    return registering


def _client(user, language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


def _shown(tournament) -> dict:
    """What a page read now posts later: the event's version, and a fresh key."""
    tournament.refresh_from_db()
    return {"version": str(tournament.version), "key": uuid.uuid4().hex}


def _notice(response) -> str:
    found = re.search(r'class="notice notice-stale"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert found, response.content.decode()[:2000]
    return html.unescape(found.group(1).strip())


def _lines_since(tournament, seq: int, language: str) -> list[str]:
    """The record's events after ``seq`` as the record's page says them in ``language``."""
    with translation.override(language):
        return [record_text.record_sentence({**e.data, "type": e.type}) + "."
                for e in TournamentEvent.objects.filter(tournament=tournament, seq__gt=seq).order_by("seq")]


def _last_seq(tournament) -> int:
    return TournamentEvent.objects.filter(tournament=tournament).order_by("-seq").values_list("seq", flat=True)[0]


def test_a_stale_console_tap_names_the_clock_and_the_bust_recorded_since_in_english(five_seated, director_dora,
                                                                                   floor_fede):
    console = _client(director_dora, "en")
    shown = _shown(five_seated)
    table, seat = _seat_of(five_seated, 3)
    act(services.clock_command, five_seated, director_dora, kind="start")
    act(services.record_bust, five_seated, floor_fede, table=table, seat=seat)

    late = console.post(reverse("tournaments:act", args=[five_seated.pk, "clock-pause"]), shown,
                        HTTP_HX_REQUEST="true")

    assert late.status_code == 409
    assert _notice(late).startswith(f"Since your screen: The clock started. Entry 3 busted at table {table}.")
    assert _notice(late).endswith("Check and try again.")


def test_a_stale_console_tap_names_what_changed_in_spanish(five_seated, director_dora, floor_fede):
    console = _client(director_dora, "es")
    shown, seq = _shown(five_seated), _last_seq(five_seated)
    table, seat = _seat_of(five_seated, 2)
    act(services.clock_command, five_seated, director_dora, kind="start")
    act(services.record_bust, five_seated, floor_fede, table=table, seat=seat)

    late = console.post(reverse("tournaments:act", args=[five_seated.pk, "clock-pause"]), shown,
                        HTTP_HX_REQUEST="true")

    assert late.status_code == 409
    said = _lines_since(five_seated, seq, "es")
    assert len(said) >= 2
    assert _notice(late) == " ".join(["Desde lo que muestra su pantalla:", *said, "Revise e intente de nuevo."])


def test_a_stale_registration_names_the_entry_made_since_and_never_its_player(registering, director_dora,
                                                                             floor_fede):
    desk = _client(floor_fede, "en")
    shown = _shown(registering)
    name, _id_type, id_number, _born = PLAYERS[1]
    register(registering, director_dora, 1)  # at the other desk

    late = desk.post(reverse("tournaments:registration", args=[registering.pk]), {
        **shown, "player_name": "Ana Núñez", "id_type": "dni", "id_number": "30.123.456", "birth_date": "01/05/1990"})

    assert late.status_code == 409
    notice = _notice(late)
    assert notice.startswith("Since your screen: Entry 1 registered.")
    # the record holds no name and no document: nor does its account of what changed
    for private in (name, *name.split(), id_number, re.sub(r"\D", "", id_number)):
        assert private not in notice, private


def test_a_stale_setup_names_what_changed_in_spanish(five_seated, director_dora):
    setup = _client(director_dora, "es")
    shown, seq = _shown(five_seated), _last_seq(five_seated)
    act(services.clock_command, five_seated, director_dora, kind="start")

    late = setup.post(reverse("tournaments:setup", args=[five_seated.pk]), {
        **shown, "buy_in": "100", "fee": "10", "starting_stack": "10000", "seats_per_table": "9",
        "final_table_size": "9", "ante_mode": "button", "structure": "100/200 30\n200/400/400 30",
        "denominations": "25 100 500", "payouts": "60 40", "reason": "announced at the start"})

    assert late.status_code == 409
    said = _lines_since(five_seated, seq, "es")
    assert _notice(late) == " ".join(["Desde lo que muestra su pantalla:", *said, "Revise e intente de nuevo."])


def test_at_most_a_few_lines_are_said_the_last_ones_oldest_first(five_seated, director_dora):
    console = _client(director_dora, "en")
    shown = _shown(five_seated)
    act(services.clock_command, five_seated, director_dora, kind="start")
    for _ in range(4):
        act(services.clock_command, five_seated, director_dora, kind="pause")
        act(services.clock_command, five_seated, director_dora, kind="resume")

    late = console.post(reverse("tournaments:act", args=[five_seated.pk, "clock-skip"]), {**shown, "step": "2"},
                        HTTP_HX_REQUEST="true")

    assert late.status_code == 409
    said = _notice(late).removeprefix("Since your screen: ").removesuffix(" Check and try again.").split(" ", 1)
    assert said[0] == "…"  # the earlier ones left out, and said to be
    lines = re.findall(r"The clock [a-z ]+\.", said[1])
    assert lines == ["The clock resumed.", "The clock was paused.", "The clock resumed.", "The clock was paused.",
                     "The clock resumed."]
    assert len(lines) + 1 == CHANGES_SAID
