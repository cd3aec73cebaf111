"""A NUL byte anywhere in a request is a 400 that says which field, never a 500 (issue #12, item 3).

No form of the casino sends one; PostgreSQL refuses NUL in text, so one that reached a query came
back as an error page. casino.bad_input refuses it for every page before any view runs.
"""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse

from casino import player_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_a_nul_in_the_login_form_is_a_400_naming_the_field_and_counts_no_attempt(english, dealer_dana):
    response = english.post(reverse("login"), {"username": "dana\x00", "password": "wrong"})
    assert response.status_code == 400
    assert "username" in response.content.decode()
    assert not AccessAttempt.objects.exists()
    assert "_auth_user_id" not in english.session


def test_a_nul_in_a_player_link_is_a_400_not_a_500(english, table_one, dealer_dana):
    token = player_links.token_for(player_links.issue_player_link(seat=table_one.boxes.get(number=3),
                                                                  by=dealer_dana))
    response = english.get(f"/p/{token[:10]}%00{token[10:]}/")
    assert response.status_code == 400
    assert player_links.SESSION_KEY not in english.session


@pytest.mark.parametrize("form", [{"language": "en\x00", "next": "/login/"}, {"language": "en", "next": "/lo\x00gin/"}])
def test_a_nul_in_the_language_form_is_a_400(english, form):
    response = english.post(reverse("set_language"), form)
    assert response.status_code == 400
    assert "language" in response.content.decode() or "next" in response.content.decode()


def test_a_nul_in_the_query_string_is_a_400_naming_it(english):
    response = english.get(reverse("login"), {"next": "/tables/\x00"})
    assert response.status_code == 400
    assert "“next”" in response.content.decode()


def test_a_nul_in_a_cookie_is_a_400_not_a_database_error(client):
    client.cookies[settings.SESSION_COOKIE_NAME] = "abcdefgh\x00ijklmnop"
    assert client.get(reverse("login")).status_code == 400


def test_ordinary_unicode_is_welcome(english, dealer_dana):
    response = english.post(reverse("login"), {"username": "dañá ✓ 🂡", "password": "wrong"})
    assert response.status_code == 200  # a wrong password, said on the login page
