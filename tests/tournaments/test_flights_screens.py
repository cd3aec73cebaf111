"""The director's and the floor's screens for the flights (CC-05..CC-10, docs/tournament-console.md "Flights"):
the flights page in Spanish and English, each form one service call, bad input a clear 400 with nothing recorded,
roles checked, and the counts sheet and its CSV whose SHA-256 is the record's."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from tests.tournaments.conftest import english_client, form_guard, register, register_numbered
from tournaments.models import TournamentEvent
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, tournament, action, **fields):
    return client.post(reverse("tournaments:act", args=[tournament.pk, action]),
                       {**form_guard(tournament), **fields}, HTTP_HX_REQUEST="false")


@pytest.fixture
def director(director_dora):
    return english_client(director_dora)


@pytest.fixture
def floor(floor_fede):
    return english_client(floor_fede)


def test_the_director_sets_draws_and_starts_the_series_from_the_flights_page(registering, director, floor,
                                                                            floor_fede):
    page = reverse("tournaments:flights", args=[registering.pk])
    assert "Play qualifying series (CC-05)" in director.get(page).content.decode()
    assert post(director, registering, "series-set", series="2", end_level="1", qualifiers="2").status_code == 302
    for i in range(4):
        register(registering, floor_fede, i)
    assert "4 registered players wait for a series." in director.get(page).content.decode()
    post(director, registering, "series-draw")
    post(director, registering, "series-start", series="1")
    state = event_reads.tournament_state(registering)
    assert state.qualifying.playing == 1 and state.tables
    html = floor.get(page).content.decode()
    assert 'name="count_' in html and "no tablet: the floor counts every stack" in html


def test_the_flights_page_speaks_spanish_by_default(registering, director_dora):
    from django.test import Client

    client = Client()
    client.force_login(director_dora)
    response = client.get(reverse("tournaments:flights", args=[registering.pk]))
    assert response.status_code == 200 and 'lang="es"' in response.content.decode()


def test_bad_input_on_a_flights_form_is_a_400_naming_the_field_nothing_recorded(registering, director):
    before = TournamentEvent.objects.filter(tournament=registering).count()
    for fields in ({"series": "²", "end_level": "1", "qualifiers": "2"},
                   {"series": "2", "end_level": "x", "qualifiers": "2"},
                   {"series": "2", "end_level": "1", "qualifiers": "9" * 5000}):
        response = post(director, registering, "series-set", **fields)
        assert response.status_code == 302 and response["X-Refused"] == "400"
    page = director.get(reverse("tournaments:flights", args=[registering.pk]))
    assert "The number of series" in page.content.decode() and "The qualifiers per series" in page.content.decode()
    assert TournamentEvent.objects.filter(tournament=registering).count() == before


def test_the_floor_may_not_set_the_series(registering, floor):
    response = post(floor, registering, "series-set", series="2", end_level="1", qualifiers="2")
    assert response.status_code == 403


def test_the_flights_page_is_for_staff_only(registering, client):
    response = client.get(reverse("tournaments:flights", args=[registering.pk]))
    assert response.status_code in (302, 403)


def test_the_day_ends_from_the_floors_counts_and_its_sheet_and_csv_match_the_record_CC_09(
        registering, director, floor, director_dora, floor_fede):
    from tests.tournaments.conftest import act
    from tournaments import services

    post(director, registering, "series-set", series="2", end_level="1", qualifiers="2")
    for i in range(5):
        register(registering, floor_fede, i)
    register_numbered(registering, floor_fede, 6)
    post(director, registering, "series-draw")
    post(director, registering, "series-start", series="1")
    act(services.clock_command, registering, director_dora, kind="start")
    act(services.clock_command, registering, director_dora, kind="skip", step=1)
    state = event_reads.tournament_state(registering)
    seated = [e.entry for e in state.entries if e.status == "seated"]
    # counts the chips in play make (25s at level 1): a count no chip makes is refused (CC-68)
    response = post(floor, registering, "day-end", **{f"count_{n}": str(10_000 + 25 * n) for n in seated})
    assert response.status_code == 302 and "X-Refused" not in response
    day = TournamentEvent.objects.get(tournament=registering, type="day_ended")
    csv = floor.get(reverse("tournaments:counts_export", args=[registering.pk, day.seq]))
    assert hashlib.sha256(csv.content).hexdigest() == day.data["digest"]
    sheet = floor.get(reverse("tournaments:counts_sheet", args=[registering.pk, day.seq])).content.decode()
    assert day.data["digest"] in sheet and "Chip-count receipt" in sheet
    for bag in day.data["bags"]:
        assert bag["receipt"] in sheet
    one = floor.get(reverse("tournaments:counts_sheet", args=[registering.pk, day.seq]) + "?table=²")
    assert one.status_code == 404



def test_the_start_form_offers_the_next_series_waiting_so_the_director_types_no_number_CC_05(
        registering, director, director_dora, floor_fede):
    """The series play one after the other (CC-05): the form to start one holds the lowest series waiting, and is gone
    while one plays (an empty box the director had to fill, found in the review's browser pass)."""
    import re

    from tests.browser.test_flights_live import _end_the_day

    page = reverse("tournaments:flights", args=[registering.pk])
    post(director, registering, "series-set", series="2", end_level="1", qualifiers="2")
    for i in range(4):
        register(registering, floor_fede, i)
    post(director, registering, "series-draw")

    def offered() -> str | None:
        form = re.search(r"series-start/\".*?</form>", director.get(page).content.decode(), re.S)
        if form is None:
            return None
        value = re.search(r'name="series"[^>]*value="(\d*)"', form.group(0))
        return value.group(1) if value else ""  # "": an empty box

    assert offered() == "1"
    assert post(director, registering, "series-start", series="1").status_code == 302
    assert offered() is None  # a series plays: no other starts beside it
    _end_the_day(registering, director_dora, floor_fede)
    assert offered() == "2"
