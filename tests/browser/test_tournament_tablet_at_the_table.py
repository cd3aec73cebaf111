"""The tournament dealer's tablet laid out for the table, in Debian's chromium (issue #36, items 2 to 4).

A ten-seat table on a landscape tablet: the player to act and his choices are on screen without scrolling
at 1024x768 and 1280x800; a dead hand, a misdeal and an undo are sent only by a second tap; the cards are
tapped on a picker (kept across a push, in the order tapped); and the award names the winner's hand and the
players it busts.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap, tap_cards
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    dealer_dana_here,
    director_dora,
    floor_fede,
)
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the dealer's password when she logs in."""


LANDSCAPE_TABLETS = [{"width": 1024, "height": 768}, {"width": 1280, "height": 800}]
#: Long names, as a real field has them: the seat list must not grow for them.
NAMES = ["Maximiliano Fernández Aguirre", "Quique Quiroga", "Rita Rey", "Sergio Sosa", "Tina Toledo",
         "Ulises Urquiza", "Valentina Villanueva Echeverría", "Walter Wilde", "Ximena Xirau", "Yago Yáñez"]


def _a_table_of(players: int, director, floor, dealer):
    """``players`` drawn at one table of a ten-seat event, the clock running, Dana on duty there."""
    tournament, _ = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name="Sunday Deepstack", starts_at=datetime(2026, 11, 29, 18, 0, tzinfo=UTC),
        buy_in=100, fee=10, starting_stack=10_000, seats_per_table=10)
    act(services.open_registration, tournament, director)
    for i in range(players):
        act(services.register, tournament, floor, name=NAMES[i], id_type="dni", id_number=f"30.000.{i:03d}",
            birth_date=date(1980, 1, 1 + i))
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (seats,) = event_reads.tournament_state(tournament).tables
    table = hand_reads.dealt_table(tournament, seats.table)
    dealing.assign_dealer(table=table, by=director, key=uuid.uuid4().hex, expected_version=table.version,
                          dealer=dealer)
    table.refresh_from_db()
    return table


def _tablet(browser, server, user, table, viewport, locale="en-GB"):
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/tables/{table.number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && document.getElementById('deal-table')")
    return page


def _in_view(page, selector: str) -> bool:
    """The element is wholly inside the viewport as the page opens (nothing scrolled)."""
    return page.evaluate(
        """(sel) => { const els = document.querySelectorAll(sel); if (!els.length) return false;
           return [...els].every(e => { const r = e.getBoundingClientRect();
             return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                    && r.right <= innerWidth; }); }""",
        selector)


def _version(page) -> int:
    return int(page.get_attribute("#deal-table", "data-version"))


def _records(table) -> list[dict]:
    hand = hand_reads.latest_hand(hand_reads.dealt_table(table.tournament, table.number))
    _engine, rows, _last = hand_reads.replayed(hand)
    return [r.record for r in rows]


def _killed(records) -> list[int]:
    return [r["seat"] for r in records if r.get("action") == "kill-hand"]


def _open_hand_tools(page, button: str) -> None:
    """Open "Undo, misdeal" unless it is open (the answer to a tap in it closes it), then ``button`` shows: it did
    not, once the undo's form had left the <details> in a morph (drawn shut though open, in chromium)."""
    if not page.is_visible(button):
        page.click("#deal-table details.hand-tools summary")
    page.wait_for_selector(button, state="visible", timeout=5000)


def _to_the_flop(page) -> None:
    while not page.query_selector("[data-step='board']"):  # everyone calls, the big blind checks
        tap(page, "[data-action='check']" if page.query_selector("[data-action='check']") else "[data-action='call']")


@pytest.mark.parametrize("viewport", LANDSCAPE_TABLETS, ids=["1024x768", "1280x800"])
def test_with_ten_seats_the_player_to_act_and_his_choices_are_on_screen_without_scrolling(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    viewport, browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 10, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, viewport)
    tap(page, "[data-action='new-hand']")
    page.screenshot(path=f"{screenshots}/tournament-tablet-ten-seats-{viewport['width']}.png")
    assert page.query_selector_all("#deal-table tr[data-seat]").__len__() == 10
    # the player to act, and each of his choices
    assert _in_view(page, "#deal-table tr.to-act")
    for action in ("fold", "call", "raise", "all-in"):
        assert _in_view(page, f"#deal-table [data-step='betting'] button[data-action='{action}']"), action
    assert _in_view(page, "#deal-table [data-step='betting'] input[name=to]")
    # the whole table's seats too, and the flop's picker once the betting is done
    assert _in_view(page, "#deal-table tr[data-seat]")
    _to_the_flop(page)
    page.screenshot(path=f"{screenshots}/tournament-tablet-flop-picker-{viewport['width']}.png")
    assert _in_view(page, "#deal-table [data-step='board'] .picker-grid")


def test_a_dead_hand_a_misdeal_and_an_undo_are_sent_only_by_a_second_tap(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    browser
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 10, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0])
    tap(page, "[data-action='new-hand']")

    # TDA-30: one tap on "Absent" only asks; the second declares the hand dead.
    version = _version(page)
    page.click("#tap-kill-hand-5 button")
    page.wait_for_timeout(600)
    assert _version(page) == version
    assert "seat 5's hand is dead" in page.inner_text("#tap-kill-hand-5 button")
    tap(page, "#tap-kill-hand-5 button")
    assert _killed(off_the_browser_thread(_records, table)) == [5]

    # An undo (its reason typed) is sent by the second tap of its button.
    _open_hand_tools(page, "#tap-undo button")
    page.fill("#tap-undo input[name=reason]", "wrong seat")
    version = _version(page)
    page.click("#tap-undo button")
    page.wait_for_timeout(600)
    assert _version(page) == version
    tap(page, "#tap-undo button")
    assert _killed(off_the_browser_thread(_records, table)) == []

    # A misdeal too.
    page.wait_for_timeout(600)  # the undo's own push has come and gone
    _open_hand_tools(page, "#tap-misdeal button")
    version = _version(page)
    page.click("#tap-misdeal button")
    page.wait_for_timeout(600)
    assert _version(page) == version
    assert page.query_selector("[data-step='betting']") is not None  # still the hand in play
    tap(page, "#tap-misdeal button")
    page.wait_for_selector("[data-step='between-hands']")
    assert any(r.get("action") == "misdeal" for r in off_the_browser_thread(_records, table))


def test_the_board_is_tapped_on_a_picker_kept_across_a_push_in_the_order_tapped(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    browser
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 3, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0])
    tap(page, "[data-action='new-hand']")
    _to_the_flop(page)

    picker = "#deal-table [data-step='board']"
    page.click(f"{picker} label.pick:has(input[value='9h'])")
    page.click(f"{picker} label.pick:has(input[value='2c'])")
    # The director pauses the clock: the event changed, the tablet is pushed again, the cards stay picked.
    version = _version(page)
    off_the_browser_thread(lambda: act(services.clock_command, table.tournament, director_dora, kind="pause"))
    wait_until(page, f"parseInt(document.getElementById('deal-table').dataset.version, 10) > {version}", 10000)
    assert page.eval_on_selector_all(f"{picker} input[data-card]:checked", "els => els.map(e => e.value)") in (
        ["9h", "2c"], ["2c", "9h"])
    assert page.input_value(f"{picker} input[name=cards]") == "9h 2c"
    off_the_browser_thread(lambda: act(services.clock_command, table.tournament, director_dora, kind="resume"))
    page.wait_for_timeout(500)
    tap_cards(page, "7d")  # the third card sends the flop

    deals = [r for r in off_the_browser_thread(_records, table) if r.get("action") == "deal-flop"]
    assert deals[-1]["cards"] == ["9h", "2c", "7d"]  # the dealer's order, not the grid's
    # the flop's cards are greyed out on the turn's picker
    while not page.query_selector("[data-step='board']"):
        tap(page, "[data-action='check']")
    assert "is-used" in page.get_attribute(f"{picker} label.pick:has(input[value='9h'])", "class")
    assert page.is_disabled(f"{picker} input[value='9h']")


@pytest.mark.parametrize("locale, hand_name", [("en-GB", "Pair"), ("es-ES", "Pareja")])
def test_the_award_names_the_winners_hand_and_the_bust_and_lists_no_one_who_wins_nothing(
    daphne_servers, director_dora, floor_fede, dealer_dana_here,  # noqa: F811
    locale, hand_name, browser, screenshots
):
    (server,) = daphne_servers(1)
    table = off_the_browser_thread(_a_table_of, 3, director_dora, floor_fede, dealer_dana_here)
    page = _tablet(browser, server, dealer_dana_here, table, LANDSCAPE_TABLETS[0], locale=locale)
    tap(page, "[data-action='new-hand']")
    tap(page, "[data-action='fold']")  # three-handed: the button folds
    tap(page, "[data-action='all-in']")  # the small blind moves all in
    tap(page, "[data-action='call']")  # the big blind calls
    tap_cards(page, "2c", "7d", "9h")
    tap_cards(page, "Js")
    tap_cards(page, "Kc")
    first = page.query_selector("[data-step='showdown'] form[data-card-picker] input[name=seat]").get_attribute("value")
    page.screenshot(path=f"{screenshots}/tournament-tablet-showdown-{locale}.png")
    tap_cards(page, "As", "Ad")
    tap_cards(page, "3h", "4s")
    page.screenshot(path=f"{screenshots}/tournament-tablet-award-{locale}.png")
    assert hand_name in page.inner_text(f"[data-winner='{first}'] [data-hand-name]")
    assert "Ad As Kc Js 9h" in page.inner_text(f"[data-winner='{first}']")  # the five cards that make it
    assert len(page.query_selector_all("[data-winner]")) == 1  # nobody "wins 0"
    (bust,) = page.query_selector_all("[data-bust]")
    assert bust.get_attribute("data-bust") != first
    tap(page, "[data-action='award-pots']")
    page.wait_for_selector("[data-step='between-hands'] [data-winner]")
    assert hand_name in page.inner_text("[data-step='between-hands'] [data-hand-name]")
    # named, though the bust has taken him off the seats
    assert any(name in page.inner_text("[data-step='between-hands'] [data-bust]") for name in NAMES)
    page.screenshot(path=f"{screenshots}/tournament-tablet-between-hands-{locale}.png")
