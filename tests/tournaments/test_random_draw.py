"""The director's random draw on the console (RP-14): a command, its form, its result in the record with the
seed that draws it, audited; the floor may not draw."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.tournament.random_draw import drawn
from casino.writes import NotAllowed
from tests.tournaments.conftest import act, english_client, form_guard
from tournaments import record_text, services
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def draws(tournament):
    return [e for e in event_reads.tournament_record(tournament) if e["type"] == "random_draw"]


def test_rp14_the_directors_draw_is_recorded_with_its_seed_and_audited(registering, director_dora):
    act(services.random_draw, registering, director_dora, reason="Two cards boxed, no rule covers it",
        choices=["Seat 3", "Seat 7"], rng=random.Random(14))
    (event,) = draws(registering)
    assert event["choices"] == ["Seat 3", "Seat 7"] and event["reason"] == "Two cards boxed, no rule covers it"
    assert event["drawn"] == drawn(event["choices"], int(event["seed"]))
    assert event["seed"] == str(random.Random(14).getrandbits(64))
    sentence = record_text.record_sentence(event)
    assert "RP-14" in sentence and event["choices"][event["drawn"]] in sentence and event["seed"] in sentence
    audited = AuditEvent.objects.get(action="tournament.random_draw")
    assert audited.actor_id == director_dora.pk and audited.details["seed"] == event["seed"]


def test_rp14_the_floor_may_not_draw_and_a_draw_needs_its_reason(registering, floor_fede, director_dora):
    with pytest.raises(NotAllowed):
        act(services.random_draw, registering, floor_fede, reason="x", choices=["a", "b"])
    with pytest.raises(RuleViolation, match="Say which error"):
        act(services.random_draw, registering, director_dora, reason="  ", choices=["a", "b"])
    assert draws(registering) == []


def test_rp14_the_console_draws_and_shows_the_result(registering, director_dora, floor_fede):
    client = english_client(director_dora)
    console = reverse("tournaments:console", args=[registering.pk])
    assert 'data-action="random-draw"' in client.get(console).content.decode()
    url = reverse("tournaments:act", args=[registering.pk, "random-draw"])
    response = client.post(url, {**form_guard(registering), "reason": "A card flashed by the dealer",
                                 "choices": "Seat 2\nSeat 5\nSeat 8\n"})
    assert response.status_code == 302
    (event,) = draws(registering)
    assert event["choices"] == ["Seat 2", "Seat 5", "Seat 8"]
    page = client.get(console).content.decode()
    assert f'data-draw="{event["seq"]}"' in page and event["seed"] in page
    # one choice is no draw; the floor's post is refused; neither reaches the record (never a 500)
    one = client.post(url, {**form_guard(registering), "reason": "r", "choices": "Seat 2"})
    assert one.status_code == 302 and one["X-Refused"] == "422"
    floor = english_client(floor_fede)
    assert 'data-action="random-draw"' not in floor.get(console).content.decode()
    refused = floor.post(url, {**form_guard(registering), "reason": "r", "choices": "a, b"})
    assert refused.status_code == 403
    assert len(draws(registering)) == 1
