"""Issue #34, item 8: the registration desk refuses what no ID document holds (CC-24) with a sentence a desk
clerk understands, naming the field, and records nothing: names with control, ANSI or bidi characters, an
ID number of markup (once stored as SCRIPTALERT1SCRIPT), a date of birth of 0001-01-01."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.rules.errors import RuleViolation
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Entry, Player, TournamentEvent

pytestmark = pytest.mark.django_db

NAMES_NO_DOCUMENT_PRINTS = {
    "bell": "Ana\x07 Ruiz",
    "ansi-colour": "\x1b[31mAna Ruiz\x1b[0m",
    "bidi-override": "Ana \u202eziuR",
    "bidi-isolate": "\u2066Ana\u2069 Ruiz",
    "zero-width-space": "Ana\u200b Ruiz",
}


def _desk(director, tournament, **fields):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(director)
    tournament.refresh_from_db()
    post = {"version": str(tournament.version), "key": uuid.uuid4().hex, "player_name": "Ana Ruiz",
            "id_type": "dni", "id_number": "30.123.456", "birth_date": "1985-04-02", **fields}
    return client.post(reverse("tournaments:registration", args=[tournament.pk]), post)


def _nothing_recorded(tournament, records_before: int) -> bool:
    return (TournamentEvent.objects.filter(tournament=tournament).count() == records_before
            and not Entry.objects.filter(tournament=tournament).exists() and not Player.objects.exists())


@pytest.mark.parametrize("name", NAMES_NO_DOCUMENT_PRINTS.values(), ids=NAMES_NO_DOCUMENT_PRINTS.keys())
def test_the_desk_refuses_a_name_with_a_control_or_formatting_character_CC_24(registering, director_dora, name):
    before = TournamentEvent.objects.filter(tournament=registering).count()
    response = _desk(director_dora, registering, player_name=name)
    assert response.status_code == 400
    assert "The player&#x27;s name has a character no ID document prints" in response.content.decode()
    assert _nothing_recorded(registering, before)


def test_the_desk_refuses_an_id_number_of_markup_instead_of_storing_what_is_left_of_it_CC_24(
        registering, director_dora):
    before = TournamentEvent.objects.filter(tournament=registering).count()
    response = _desk(director_dora, registering, id_number="<script>alert(1)</script>")
    assert response.status_code == 400
    assert "The ID number can only hold letters and digits" in response.content.decode()
    assert _nothing_recorded(registering, before)


@pytest.mark.parametrize("born", ["0001-01-01", "1899-12-31", "tomorrow"])
def test_the_desk_refuses_a_date_of_birth_no_living_players_document_holds_CC_24(registering, director_dora, born):
    if born == "tomorrow":
        born = (timezone.localdate() + timedelta(days=1)).isoformat()
    before = TournamentEvent.objects.filter(tournament=registering).count()
    response = _desk(director_dora, registering, birth_date=born)
    assert response.status_code == 400
    assert "The date of birth must be between 1900-01-01 and today" in response.content.decode()
    assert _nothing_recorded(registering, before)


@pytest.mark.parametrize(("fields", "refused"), [
    ({"name": "\x1b[2JAna"}, "The name must be written as on the ID document"),
    ({"id_number": "<script>alert(1)</script>"}, "The ID number must be written as on the ID document"),
    ({"birth_date": date(1, 1, 1)}, "A date of birth before"),
])
def test_the_service_refuses_the_same_and_records_nothing_CC_24(registering, floor_fede, fields, refused):
    before = TournamentEvent.objects.filter(tournament=registering).count()
    document = {"name": "Ana Ruiz", "id_type": "dni", "id_number": "30.123.456", "birth_date": date(1985, 4, 2)}
    with pytest.raises(RuleViolation, match=refused) as refusal:
        act(services.register, registering, floor_fede, **{**document, **fields})
    assert refusal.value.clause == "CC-24"
    assert _nothing_recorded(registering, before)
