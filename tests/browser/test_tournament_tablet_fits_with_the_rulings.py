"""The tournament dealer's tablet and the floor's console with issue #38's rulings open, in Debian's chromium, in
Spanish (the house's language): at 1024x768 and 1280x800 with ten seats, the out-of-turn form opened keeps the
player to act, his choices and its own button on screen (TDA-53); the "Dealing error" menu's choices show
their whole text (RP-04, CC-95) and every tap in it is a full touch target; nothing overflows sideways; the deck's panel
stands apart from "New hand" (CC-71); on the console the rotation's opener is a full touch target and its two
buttons do not touch (RP-07)."""

from __future__ import annotations

import uuid

import pytest

from casino import decks
from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap
from tests.browser.test_tournament_tablet_at_the_table import LANDSCAPE_TABLETS, _a_table_of, _in_view
from tests.tournaments.conftest import dealer_dana_here, director_dora, floor_fede  # noqa: F401 - fixtures
from tournaments.models import Tournament, tables_group
from tournaments.services import dealing, rotation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAP = 44  # px: the smallest touch target


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords when the staff log in."""


def _ten_seats_a_rotation_and_a_deck(director, floor, dealer, diego):
    table = _a_table_of(10, director, floor, dealer)
    event = Tournament.objects.get(pk=table.tournament_id)
    rotation.set_rotation(tournament=event, by=floor, key=uuid.uuid4().hex, expected_version=event.version,
                          dealers=[dealer, diego], tables=[table.number], down_minutes=20)
    deck = decks.receive_deck(stock=tables_group(table.tournament_id), back="rojo", serial="SUN-001", by=floor)
    decks.issue_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=table.group_name, place_name=str(table))
    deck.refresh_from_db()
    decks.check_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version, complete=True,
                     undamaged=True, unmarked=True)
    deck.refresh_from_db()
    table.refresh_from_db()
    dealing.change_deck(table=table, by=dealer, key=uuid.uuid4().hex, expected_version=table.version, deck=deck,
                        reason="opening")
    table.refresh_from_db()
    return table


def _in_spanish(browser, server, user, viewport):
    page = browser.new_context(viewport=viewport, locale="es-ES").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")
    return page


def _no_sideways_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def _too_small(page, selector: str) -> list:
    """The taps shown in ``selector`` smaller than a finger: [text, width, height]."""
    return page.evaluate(
        """([sel, tap]) => [...document.querySelectorAll(sel)].map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.width > 0 && (r.width < tap || r.height < tap))
             .map(([e, r]) => [e.textContent.trim().slice(0, 40), Math.round(r.width), Math.round(r.height)])""",
        [selector, TAP])


def _cut_selects(page, selector: str) -> list:
    """The selects in ``selector`` too narrow for their longest choice's text (the choice cut on screen)."""
    return page.evaluate(
        """(sel) => { const c = document.createElement('canvas').getContext('2d');
             return [...document.querySelectorAll(sel)].filter(s => s.getBoundingClientRect().width > 0).flatMap(s => {
               const st = getComputedStyle(s); c.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
               const text = Math.max(...[...s.options].map(o => c.measureText(o.text).width));
               const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 16;
               return text > room ? [[s.name, Math.round(text), Math.round(room)]] : []; }); }""",
        selector)


def _gap(page, upper: str, lower: str) -> float:
    return page.evaluate(
        """([a, b]) => document.querySelector(b).getBoundingClientRect().top
                      - document.querySelector(a).getBoundingClientRect().bottom""", [upper, lower])


@pytest.mark.parametrize("viewport", LANDSCAPE_TABLETS, ids=["1024x768", "1280x800"])
def test_with_the_rulings_open_the_player_to_act_his_choices_and_their_taps_stay_on_screen_TDA_53_RP_04_CC_71(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, dealer_diego,  # noqa: F811
    viewport, browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_ten_seats_a_rotation_and_a_deck, director_dora, floor_fede, dealer_dana_here,
                                   dealer_diego)
    page = _in_spanish(browser, server, dealer_dana_here, viewport)
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/tables/{table.number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && document.getElementById('deal-table')")

    # Between hands: the deck's panel, then "New hand" apart from it (CC-71).
    assert _gap(page, "#deal-table [data-deck] details summary", "#deal-table [data-action='new-hand']") >= 8
    page.click("#deal-table [data-deck] details summary")
    assert _gap(page, "#deal-table [data-deck] form", "#deal-table [data-action='new-hand']") >= 8
    assert _no_sideways_overflow(page)

    tap(page, "[data-action='new-hand']")
    choices = [f"#deal-table [data-step='betting'] button[data-action='{a}']" for a in ("fold", "call", "raise")]

    # The out-of-turn form opened (TDA-53): the player to act, his choices and the form's button on screen, even
    # when the player to act has the field's longest name (the draw decides who is in turn: the heading is given
    # that name here, on two lines at 1024x768, as it is when he is).
    page.evaluate("document.querySelector(\"#deal-table [data-step='betting'] h2\").textContent = "
                  "'Le toca al asiento 10: Valentina Villanueva Echeverría'")
    page.click("#deal-table details[data-out-of-turn] summary")
    page.wait_for_selector("#tap-out-of-turn button", state="visible", timeout=5000)
    page.screenshot(path=f"{screenshots}/tournament-tablet-out-of-turn-open-{viewport['width']}.png")
    assert _in_view(page, "#deal-table tr.to-act")
    for choice in choices:
        assert _in_view(page, choice), choice
    assert _in_view(page, "#tap-out-of-turn button")
    assert _in_view(page, "#tap-out-of-turn select, #tap-out-of-turn input[name=to]")
    labels = page.evaluate("[...document.querySelectorAll('#tap-out-of-turn label')].map(l => l.firstChild"
                           ".textContent.trim() && Math.round(l.querySelector('select, input').getBoundingClientRect()"
                           ".top - l.getBoundingClientRect().top))")
    assert max(labels) < 40, labels  # each label on one line above its field
    assert _too_small(page, "#deal-table [data-out-of-turn] summary, #tap-out-of-turn select, "
                            "#tap-out-of-turn input[name=to], #tap-out-of-turn button") == []
    assert _no_sideways_overflow(page)
    page.click("#tap-out-of-turn button")  # the first tap only asks, in the button's own words
    page.wait_for_timeout(300)
    assert "is-armed" in page.get_attribute("#tap-out-of-turn button", "class")
    assert _in_view(page, "#tap-out-of-turn button")  # its longer words whole on screen
    assert _in_view(page, "#deal-table tr.to-act")
    page.click("#deal-table details[data-out-of-turn] summary")

    # The "Dealing error" menu opened: each choice's whole text shows (RP-04's ways, CC-95's cases), each tap
    # a full touch target, nothing sideways; the player to act still on screen.
    page.click("#deal-table details[data-dealing-errors] summary")
    page.wait_for_selector("#tap-stub-rebuilt button", state="visible", timeout=5000)
    page.screenshot(path=f"{screenshots}/tournament-tablet-dealing-errors-open-{viewport['width']}.png",
                    full_page=True)
    assert _cut_selects(page, "[data-dealing-errors] select") == []
    assert _too_small(page, "[data-dealing-errors] summary, [data-dealing-errors] button, "
                            "[data-dealing-errors] select, [data-dealing-errors] input[name=cards], "
                            "[data-dealing-errors] label.check, [data-dealing-errors] label.radio") == []
    assert page.locator("#tap-stub-rebuilt input[name=how]").count() == 3  # RP-04's three ways, each one tap
    assert page.locator("#tap-exposed-card input[name=seen_by]").count() == 2  # CC-95's two cases, each one tap
    assert _no_sideways_overflow(page)
    assert _in_view(page, "#deal-table tr.to-act")
    for choice in choices:
        assert _in_view(page, choice), choice


@pytest.mark.parametrize("viewport", LANDSCAPE_TABLETS, ids=["1024x768", "1280x800"])
def test_on_the_console_the_rotations_opener_is_a_full_tap_and_its_two_buttons_stand_apart_RP_07(
    daphne_servers, director_dora, floor_fede, dealer_dana_here, dealer_diego,  # noqa: F811
    viewport, browser
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_ten_seats_a_rotation_and_a_deck, director_dora, floor_fede, dealer_dana_here,
                                   dealer_diego)
    page = _in_spanish(browser, server, floor_fede, viewport)
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && "
                     "document.querySelector('[data-rotation]')")
    assert _too_small(page, "[data-rotation] summary, [data-rotation] button") == []
    assert _gap(page, "[data-action='follow-rotation']", "[data-action='stop-rotation']") >= 8 or page.evaluate(
        "document.querySelector(\"[data-action='stop-rotation']\").getBoundingClientRect().left - "
        "document.querySelector(\"[data-action='follow-rotation']\").getBoundingClientRect().right >= 8")
    assert _no_sideways_overflow(page)
