"""The registration desk in Debian's chromium on a tablet (issue #36, item 12): three players registered in a
row, each in its three typed fields and two taps (Register, then the QR for the player's phone), the desk
back on an empty form with the cursor in its first field and the last entry confirmed; the list says who is
accredited, an accreditation from the list names the player; the search finds by name, ID and number.

Taps are counted as the desk makes them: a tap on a button or a link; a typed field counts once (its tap to
take the cursor is part of typing it). Measured on the code before issue #36: 3 typed fields and 3 taps to
register (Register, "Back to the console", "Registration"), 3 taps for the QR, and for the accreditation a
fourth typed field and 3 taps: 9 taps and 4 typed fields a player (docs/tournament-console.md)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, date, datetime

import pytest

from tests.browser.conftest import off_the_browser_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET_LANDSCAPE = {"width": 1024, "height": 768}
TABLET_WIDE = {"width": 1280, "height": 800}

PLAYERS = [("Ana Núñez", "30.111.222", "01051990"), ("Beto Bravo", "28.333.444", "17111979"),
           ("Carla Ruiz", "35.555.666", "02021995")]


def _event(director) -> int:
    from tournaments import services

    tournament, _ = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name="Viernes", starts_at=datetime(2026, 12, 4, 20, tzinfo=UTC),
        buy_in=50, starting_stack=5000, seats_per_table=9)
    tournament.refresh_from_db()
    services.open_registration(tournament=tournament, by=director, key=uuid.uuid4().hex,
                               expected_version=tournament.version)
    return tournament.pk


def _register_unaccredited(tournament_id: int, director, name: str, id_number: str) -> None:
    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    services.register(tournament=tournament, by=director, key=uuid.uuid4().hex, expected_version=tournament.version,
                      name=name, id_type="dni", id_number=id_number, birth_date=date(1988, 8, 8))


class Desk:
    """The desk's page, counting what the desk person does."""

    def __init__(self, page):
        self.page, self.taps, self.typed = page, 0, 0

    def focused(self) -> str | None:
        return self.page.evaluate("document.activeElement && document.activeElement.name")

    def type_into(self, selector: str, text: str) -> None:
        field = self.page.locator(selector)
        if not field.evaluate("el => el === document.activeElement"):
            field.click()  # the tap that takes the cursor is part of typing the field
        self.page.keyboard.type(text)
        self.typed += 1

    def tap(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.click(selector)
        self.taps += 1


def _login(page, server, user) -> None:
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _listed(page) -> list[int]:
    return [int(n) for n in page.locator("#entries tbody tr:visible td.num").all_inner_texts()]


def _in_view(page, selector: str) -> bool:
    """Wholly on the screen without scrolling."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and \
        box["x"] + box["width"] <= size["width"]


def test_three_players_register_in_a_row_in_their_typed_fields_and_two_taps_each(
    daphne_servers, tournament_director_teo, screenshots, browser
):
    event = off_the_browser_thread(_event, tournament_director_teo)
    (server,) = daphne_servers(1)
    page = browser.new_context(viewport=TABLET_LANDSCAPE, locale="en-GB").new_page()
    _login(page, server, tournament_director_teo)
    page.goto(f"{server.url}/tournaments/{event}/registration/")

    for number, (name, id_number, birth) in enumerate(PLAYERS, start=1):
        desk = Desk(page)
        assert desk.focused() == "player_name"  # the cursor waits in the first field
        desk.type_into("input[name=player_name]", name)
        desk.type_into("input[name=id_number]", id_number)
        desk.type_into("input[name=birth_date]", birth)
        assert page.input_value("input[name=birth_date]") == f"{birth[:2]}/{birth[2:4]}/{birth[4:]}"
        desk.tap("button[data-action=register]")

        # back on the empty form, the entry confirmed beside it
        assert page.inner_text("#desk-last [data-role=last-number]") == f"#{number}"
        assert page.inner_text("#desk-last [data-role=last-name]") == name
        assert page.inner_text("#desk-last [data-role=last-accredited]") == "Accredited"
        assert desk.focused() == "player_name"
        assert page.input_value("input[name=player_name]") == page.input_value("input[name=id_number]") == ""
        assert _in_view(page, "#register-form button[data-action=register]")
        assert _in_view(page, "#desk-last button[data-action=desk-qr]")

        desk.tap("#desk-last button[data-action=desk-qr]")  # the QR, for the player to scan from the tablet
        page.wait_for_selector("#desk-qr svg")
        assert desk.focused() == "player_name"  # and the next player can be typed at once
        assert (desk.typed, desk.taps) == (3, 2), f"player {number}: {desk.typed} fields, {desk.taps} taps"
    assert _in_view(page, "#desk-qr svg")
    page.screenshot(path=f"{screenshots}/registration-desk-1024x768.png")

    # the list: every one of them accredited with the registration
    assert _listed(page) == [1, 2, 3]
    assert page.locator("#entries tbody tr.is-accredited").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.set_viewport_size(TABLET_WIDE)
    page.goto(f"{server.url}/tournaments/{event}/registration/?last=3")
    assert _in_view(page, "#desk-last button[data-action=desk-qr]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=f"{screenshots}/registration-desk-1280x800.png", full_page=True)


def test_the_list_shows_who_is_accredited_and_finds_entries_by_name_id_and_number(
    daphne_servers, tournament_director_teo, screenshots, browser
):
    event = off_the_browser_thread(_event, tournament_director_teo)
    for name, id_number, _birth in PLAYERS:
        off_the_browser_thread(_register_unaccredited, event, tournament_director_teo, name, id_number)
    (server,) = daphne_servers(1)
    page = browser.new_context(viewport=TABLET_LANDSCAPE, locale="en-GB").new_page()
    _login(page, server, tournament_director_teo)
    page.goto(f"{server.url}/tournaments/{event}/registration/")
    assert page.locator("#entries tbody tr.is-accredited").count() == 0
    assert page.locator("#entries tr[data-entry='2'] button[data-action=accredit]").is_visible()
    page.screenshot(path=f"{screenshots}/registration-desk-to-accredit.png", full_page=True)

    # the live filter narrows the list as the name is typed, with no request
    search = page.locator("input[type=search][name=q]")
    search.click()
    page.keyboard.type("ruiz")
    assert _listed(page) == [3]
    search.fill("")
    page.keyboard.type("#2")
    assert _listed(page) == [2]

    # the server's search: an ID number (never in the page), then Enter
    search.fill("")
    page.keyboard.type("28333444")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert _listed(page) == [2]
    assert "1 of 3 entries matches" in page.inner_text("#desk-found")

    # Beto shows his document at the desk: accredited from his row, the desk names him and stays on the search
    page.fill("#entries tr[data-entry='2'] input[name=id_number]", "28.333.444")
    with page.expect_navigation():
        page.click("#entries tr[data-entry='2'] button[data-action=accredit]")
    assert "Entry #2, Beto Bravo, is accredited." in page.inner_text("#messages")
    assert page.input_value("input[type=search][name=q]") == "28333444"
    assert page.locator("#entries tr[data-entry='2'].is-accredited").count() == 1
    page.screenshot(path=f"{screenshots}/registration-desk-accredited.png", full_page=True)

    # a document that is not his: refused, nobody accredited
    page.click("a[data-action=show-all]")
    page.fill("#entries tr[data-entry='3'] input[name=id_number]", "99.999.999")
    with page.expect_navigation():
        page.click("#entries tr[data-entry='3'] button[data-action=accredit]")
    assert "CC-24" in page.inner_text("#messages") or "not entry 3" in page.inner_text("#messages")
    assert page.locator("#entries tbody tr.is-accredited").count() == 1
    assert re.search(r"Accredited\s*1", page.inner_text(".glance"))
