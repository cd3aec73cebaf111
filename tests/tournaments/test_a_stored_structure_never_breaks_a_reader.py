"""Issue #34, item 3: a structure stored before the bounds existed (a level of 10**20 minutes) is read as an
indefinitely long level by every reader (the console, the TV clock, the tablet and its taps, the players'
phones), never as an OverflowError and a 500; and such a structure can no longer be saved."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from casino import player_links
from casino.rules.errors import RuleViolation
from casino.rules.tournament import structure as structure_rules
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

ABSURD_MINUTES = 100_000_000_000_000_000_000


def _absurd_structure() -> dict:
    return {"denominations": [25, 100], "steps": [
        {"kind": "level", "small_blind": 25, "big_blind": 50, "ante": 0, "minutes": ABSURD_MINUTES},
        {"kind": "break", "minutes": 10, "removes": []},
        {"kind": "level", "small_blind": 50, "big_blind": 100, "ante": 0, "minutes": ABSURD_MINUTES}]}


def _shows_level_one_as_running(html: str) -> bool:
    # the clock reads the level as a long one (bounds.LONGEST_STEP_READ_MINUTES), counting down to a date
    return ('data-role="blinds">25 / 50<' in html and "Level 1" in html
            and 'data-role="time-left" data-countdown-to=' in html)


def test_it_refuses_to_save_a_level_of_a_hundred_quintillion_minutes_TDA_23(event_in_play, director_dora):
    with pytest.raises(RuleViolation, match="cannot last more than"):
        act(services.change_setup, event_in_play, director_dora, structure=_absurd_structure())


@pytest.fixture
def absurd_event(event_in_play, first_table, director_dora, monkeypatch):
    """The event in play at level 1, its structure changed, as before the bounds, to 10**20-minute levels."""
    with monkeypatch.context() as before_the_bounds:
        before_the_bounds.setattr(structure_rules, "check_structure", lambda *args, **kwargs: None)
        act(services.change_setup, event_in_play, director_dora, structure=_absurd_structure())
    event_in_play.refresh_from_db()
    return event_in_play


def test_the_console_and_a_console_tap_read_a_stored_absurd_structure(absurd_event, director_dora):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director_dora)
    assert client.get(f"/tournaments/{absurd_event.pk}/").status_code == 200
    paused = client.post(f"/tournaments/{absurd_event.pk}/act/clock-pause/",
                         {"version": absurd_event.version, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true")
    assert paused.status_code == 200


def test_the_tv_clock_reads_a_stored_absurd_structure(absurd_event):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/tournaments/{absurd_event.pk}/clock/")
    assert response.status_code == 200 and _shows_level_one_as_running(response.content.decode())


def test_the_tablet_and_its_tap_read_a_stored_absurd_structure(absurd_event, first_table, dealer_dana_here):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(dealer_dana_here)
    page = client.get(f"/tournaments/{absurd_event.pk}/tables/{first_table.number}/deal/")
    assert page.status_code == 200 and "25/50" in page.content.decode()
    first_table.refresh_from_db()
    tap = client.post(f"/tournaments/{absurd_event.pk}/tables/{first_table.number}/deal/new-hand/",
                      {"version": first_table.version, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true")
    assert tap.status_code == 200 and 'data-step="betting"' in tap.content.decode()


def test_a_players_phone_reads_a_stored_absurd_structure(absurd_event, director_dora):
    entry = Entry.objects.filter(tournament=absurd_event).first()
    link = services.issue_entry_link(entry, by=director_dora)
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert phone.get(f"/p/{player_links.token_for(link)}/").status_code == 302
    response = phone.get("/p/")
    assert response.status_code == 200 and _shows_level_one_as_running(response.content.decode())
