"""The display pages over HTTP: the room's clock display (public, no name) and a player's phone opened
from the accreditation receipt's QR link (issue #14)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from casino import player_links
from tests.tournaments import display_fixtures as fx

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return fx.a_director("dora")


@pytest.fixture
def english_client():
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def test_the_clock_display_is_public_and_names_nobody(director, english_client):
    tournament = fx.a_tournament(director)
    entries = fx.some_entries(tournament, director, 3)
    fx.start(tournament, director)
    fx.start_the_clock(tournament, director)
    page = english_client.get(reverse("tournaments:clock_display", args=[tournament.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="clock-display"' in html and f'ws-connect="/ws/tournaments/{tournament.pk}/clock/"' in html
    assert "tournament_clock.js" in html and "data-countdown-to=" in html
    assert re.search(r'data-server-now="(\d{13})"', html)
    for entry in entries:
        assert entry.player_name not in html and entry.player.id_number not in html


def test_a_clock_display_of_no_tournament_is_a_404_and_a_post_is_refused(director, english_client):
    assert english_client.get(reverse("tournaments:clock_display", args=[999999])).status_code == 404
    tournament = fx.a_tournament(director)
    assert english_client.post(reverse("tournaments:clock_display", args=[tournament.pk])).status_code in (403, 405)


def test_the_receipts_qr_link_opens_the_players_phone_on_their_own_entry(director, english_client):
    tournament = fx.a_tournament(director)
    mine, other, _third = fx.some_entries(tournament, director, 3)
    fx.start(tournament, director)
    link = fx.entry_link(mine, director)
    entered = english_client.get(player_links.url_for(link))
    assert entered.status_code == 302
    page = english_client.get(entered["Location"])
    html = page.content.decode()
    assert page.status_code == 200 and 'id="player-view"' in html
    table, seat = fx.seat_of(tournament, mine)
    assert f'<strong data-role="table">{table}</strong>' in html
    assert f'<strong data-role="seat-number">{seat}</strong>' in html
    assert "tournament_screens.css" in html and "tournament_clock.js" in html
    assert other.player_name not in html and other.player.id_number not in html
    assert mine.player.id_number not in html


def test_an_entry_link_expires_after_the_event_ends_and_its_grace(director):
    from tournaments import services

    tournament = fx.a_tournament(director)
    mine = fx.some_entries(tournament, director, 2)[0]
    link = fx.entry_link(mine, director)
    assert link.expires_at >= tournament.ends_at + services.LINK_GRACE
    assert link.expires_at <= tournament.ends_at + services.LINK_GRACE + timedelta(hours=1)
