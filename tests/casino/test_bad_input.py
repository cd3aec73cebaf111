"""Bad input is the client's: a 400 or 403 in one log line, never a 500 or a traceback (issue #12).

A NUL byte anywhere in a request is a 400 that says which field (item 3): no form of the casino sends
one; PostgreSQL refuses NUL in text, so one that reached a query came back as an error page.
casino.bad_input refuses it for every page before any view runs.
"""

from __future__ import annotations

import io
import logging
from contextlib import contextmanager

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse

from casino import player_links
from tests.conftest import issue_box_link

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
    token = player_links.token_for(issue_box_link(table_one, 3, dealer_dana))
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


@pytest.mark.parametrize("username", ["a" * 10_000, "é" * 300])
def test_a_username_longer_than_any_is_refused_by_the_form_not_by_the_database(english, username):
    """django-axes records a failed login's username in a column of 255 characters: one longer was a 500."""
    response = english.post(reverse("login"), {"username": username, "password": "wrong"})
    assert response.status_code == 200  # the login page again, saying what was wrong
    assert "do not match" in response.content.decode()
    assert not AccessAttempt.objects.exists()


def test_ordinary_unicode_is_welcome(english, dealer_dana):
    response = english.post(reverse("login"), {"username": "dañá ✓ 🂡", "password": "wrong"})
    assert response.status_code == 200  # a wrong password, said on the login page



@contextmanager
def console_log():
    """What the casino's console log handler writes meanwhile (settings.LOGGING)."""
    console = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    log = io.StringIO()
    before = console.setStream(log)
    try:
        yield log
    finally:
        console.setStream(before)


def test_a_body_too_big_is_a_400_logged_in_one_line_without_a_traceback(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with console_log() as log:
        response = client.post(reverse("login"), {"username": "x" * 5000, "password": "y"})
    assert response.status_code == 400
    assert "Request body exceeded" in log.getvalue()
    assert "Traceback" not in log.getvalue()


def test_a_dealer_at_another_tables_address_is_refused_in_one_log_line(client, table_two, dealer_dana):
    client.force_login(dealer_dana)
    with console_log() as log:
        response = client.post(f"/tables/{table_two.pk}/act/open/", {"version": "0", "key": "k"})
    assert response.status_code == 403
    assert "Forbidden" in log.getvalue() and "Traceback" not in log.getvalue()
