"""Every page says what the browser may run and use, and staff pages are never kept (issue #12, item 9).

A Content-Security-Policy with no inline script or style (htmx and the app's scripts are served from
static), a Permissions-Policy that turns off the devices the casino never uses, and
``Cache-Control: no-store`` so that a tablet's back button never shows a stale table.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from casino import player_links
from casino.models import PlayerLink
from tables import sessions
from tests.conftest import ROOT

pytestmark = [pytest.mark.django_db]

TEMPLATE_DIRS = [ROOT / "templates", ROOT / "casino", ROOT / "tables", ROOT / "tournaments"]
DEVICES_OFF = ("camera", "microphone", "geolocation", "payment", "usb")


def _directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: values for name, *values in parts}


def _link_issued_at(table, dealer, pit_boss) -> PlayerLink:
    """Box 1's QR link as the dealer issues it from the tablet, the table opened first (THB-21)."""
    for step, person in ((sessions.request_opening, dealer), (sessions.confirm_deck_check, pit_boss)):
        table.refresh_from_db()
        step(table=table, by=person, key=uuid.uuid4().hex, expected_version=table.version)
    client = Client()
    client.force_login(dealer)
    response = client.post(reverse("tables:issue_box_link", args=[table.pk, 1]))
    return PlayerLink.objects.get(pk=response.url.rstrip("/").rsplit("/", 1)[-1])


@pytest.fixture
def link(table_one, dealer_dana, pit_boss_pat):
    return _link_issued_at(table_one, dealer_dana, pit_boss_pat)


def _staff_pages(table_one, link, dealer_dana, pit_boss_pat, games_director_gloria):
    return [
        (None, reverse("login")),
        (dealer_dana, reverse("tables:dealer_home")),
        (dealer_dana, reverse("tables:dealer_table", args=[table_one.pk])),
        (dealer_dana, reverse("tables:player_link", args=[link.pk])),
        (pit_boss_pat, reverse("tables:pit_home")),
        (pit_boss_pat, reverse("tables:pit_console", args=[table_one.pit_id])),
        (pit_boss_pat, reverse("tables:hand_recall", args=[table_one.pk])),
        (games_director_gloria, reverse("tables:floor")),
    ]


@pytest.fixture
def staff_pages(table_one, link, dealer_dana, pit_boss_pat, games_director_gloria):
    pages = []
    for person, url in _staff_pages(table_one, link, dealer_dana, pit_boss_pat, games_director_gloria):
        client = Client()
        if person is not None:
            client.force_login(person)
        response = client.get(url)
        assert response.status_code == 200, url
        pages.append((url, response))
    return pages


@pytest.fixture
def player_page(client, link):
    client.get(player_links.url_for(link))
    response = client.get(reverse("player_home"))
    assert response.status_code == 200
    return response


def test_every_page_forbids_inline_script_and_style_and_other_sites(staff_pages, player_page):
    for url, response in [*staff_pages, ("/p/", player_page)]:
        policy = response.headers.get("Content-Security-Policy", "")
        directives = _directives(policy)
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, url
        assert directives.get("default-src") == ["'self'"], (url, policy)
        assert directives.get("script-src") == ["'self'"], (url, policy)
        assert directives.get("style-src") == ["'self'"], (url, policy)
        # The screens' own websockets: 'self' covers ws: and wss: on the page's host (CSP level 3).
        assert directives.get("connect-src") == ["'self'"], (url, policy)
        assert directives.get("object-src") == ["'none'"], (url, policy)
        assert directives.get("frame-ancestors") == ["'none'"], (url, policy)
        assert directives.get("base-uri") == ["'none'"], (url, policy)
        assert directives.get("form-action") == ["'self'"], (url, policy)


def test_every_page_turns_off_the_devices_the_casino_never_uses(staff_pages, player_page):
    for url, response in [*staff_pages, ("/p/", player_page)]:
        policy = response.headers.get("Permissions-Policy", "")
        for device in DEVICES_OFF:
            assert f"{device}=()" in policy, (url, policy)


def test_staff_pages_are_never_stored_so_the_back_button_shows_no_stale_table(staff_pages):
    for url, response in staff_pages:
        assert "no-store" in response.headers.get("Cache-Control", ""), url


def test_the_players_phone_and_healthz_are_never_stored_either(player_page, client):
    assert "no-store" in player_page.headers["Cache-Control"]
    assert "no-store" in client.get("/healthz").headers["Cache-Control"]


def test_a_refusal_answered_before_any_view_is_not_stored_and_carries_the_policy(client, dealer_dana):
    client.force_login(dealer_dana)
    response = client.post(reverse("login"), {"username": "a\x00"})
    assert response.status_code == 400
    assert "no-store" in response.headers["Cache-Control"]
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_htmx_is_told_not_to_inject_its_indicator_styles_nor_to_evaluate_script(player_page):
    page = player_page.content.decode()
    meta = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', page)
    assert meta, "base.html has no htmx-config meta"
    config = json.loads(meta.group(1))
    assert config["includeIndicatorStyles"] is False  # else htmx adds a <style> the policy refuses
    assert config["allowEval"] is False and config["allowScriptTags"] is False


def _templates() -> list[Path]:
    return [path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html") if "migrations" not in path.parts]


def test_no_template_has_an_inline_script_an_event_handler_attribute_or_a_style_attribute():
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
    handler = re.compile(r"\son[a-z]+\s*=", re.I)
    style = re.compile(r"<style\b|\sstyle\s*=", re.I)
    # hx-on, js: values and [filters] in triggers are evaluated by htmx: they would need 'unsafe-eval'.
    evaluated = re.compile(
        r"\shx-on[:-]|\shx-(?:vals|vars)\s*=\s*[\"']\s*(?:js|javascript):|\shx-trigger\s*=[^>]*\[", re.I
    )
    templates = _templates()
    assert len(templates) > 20
    for path in templates:
        text = path.read_text()
        where = path.relative_to(ROOT)
        assert not inline_script.search(text), f"{where}: inline <script>"
        assert not handler.search(text), f"{where}: inline event handler"
        assert not style.search(text), f"{where}: inline style"
        assert not evaluated.search(text), f"{where}: htmx would need 'unsafe-eval'"

