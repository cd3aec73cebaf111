"""The director's random draw from the console (RP-14), in Debian's chromium: the form's reason and choices,
the choice drawn shown with its seed, the same line in the record."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime

import pytest

from tests.browser.conftest import TABLET, off_the_browser_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _an_event(director) -> int:
    from tournaments import services

    tournament, _ = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name="Jueves Deepstack", starts_at=datetime(2026, 11, 26, 20, tzinfo=UTC),
        buy_in=100, fee=10, starting_stack=10_000, seats_per_table=9)
    return tournament.pk


def test_rp14_the_director_draws_from_the_console_and_reads_the_draw_with_its_seed(
    daphne_servers, tournament_director_teo, screenshots, browser
):
    (server,) = daphne_servers(1)
    event = off_the_browser_thread(lambda: _an_event(tournament_director_teo))
    page = browser.new_context(viewport=TABLET, locale="es-ES").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", tournament_director_teo.username)
    page.fill("input[name=password]", tournament_director_teo.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")
    page.goto(f"{server.url}/tournaments/{event}/")

    page.click("details.random-draw summary")
    page.fill("details.random-draw input[name=reason]", "Dos cartas boca arriba en el mazo: ninguna norma lo cubre")
    page.fill("details.random-draw textarea[name=choices]", "Asiento 2\nAsiento 5\nAsiento 8")
    page.click("button[data-action='random-draw']")
    page.wait_for_selector("details.random-draw .draw-result", timeout=10000)
    result = page.inner_text("details.random-draw .draw-result")
    assert any(seat in result for seat in ("Asiento 2", "Asiento 5", "Asiento 8"))
    page.screenshot(path=os.path.join(screenshots, "tournament-console-random-draw.png"), full_page=True)

    page.goto(f"{server.url}/tournaments/{event}/record/")
    assert "RP-14" in page.inner_text("body")
