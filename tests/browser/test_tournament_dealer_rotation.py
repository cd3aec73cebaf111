"""A dealers' rotation handing a table over at a live tablet, in Debian's chromium (issue #38 item 5; RP-07).

The floor starts the rotation from the console (Dana, then Diego, at the event's one table); Dana's tablet says
when the next change is. A hand is dealt; the change falls due during it, and waits for its end: Dana's award tap
hands the table over. Her tablet says Diego deals here now and sends her to her break, and her second tablet on the
same table is told the same by its socket (it closes); Diego's tablet opens and deals the next hand."""

from datetime import timedelta

import pytest

from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    director_dora,
    floor_fede,
    register,
    registering,
    sunday_event,
)
from tournaments import services
from tournaments.models import DealerRotation, DealtTable
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords."""


def _running(tournament, director, floor):
    for i in range(3):
        register(tournament, floor, i)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (table,) = event_reads.tournament_state(tournament).tables
    hand_reads.dealt_table(tournament, table.table)
    return table.table


def _log_in(browser, server, user):
    page = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    return page


def _tablet(page, server, event, number):
    page.goto(f"{server.url}/tournaments/{event}/tables/{number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")


def _twenty_one_minutes_pass(event):
    row = DealerRotation.objects.get(tournament_id=event)
    row.starts_at -= timedelta(minutes=21)
    row.save(update_fields=["starts_at"])


def test_a_dealer_rotation_hands_a_table_over_at_a_live_tablet_RP_07(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, dealer_diego, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    event = registering.pk
    number = off_the_browser_thread(lambda: _running(registering, director_dora, floor_fede))

    floor = _log_in(browser, server, floor_fede)
    floor.goto(f"{server.url}/tournaments/{event}/")
    floor.check(f"form.set-rotation input[name=dealers][value='{dealer_dana.pk}']")
    floor.check(f"form.set-rotation input[name=dealers][value='{dealer_diego.pk}']")
    floor.fill("form.set-rotation input[name=down_minutes]", "20")
    floor.click("[data-action='set-rotation']")
    floor.wait_for_selector(f"[data-rotation-table='{number}']")
    assert "Dana" in floor.inner_text(f"[data-rotation-table='{number}']")
    assert "Next change at" in floor.inner_text("[data-rotation]")
    assert off_the_browser_thread(
        lambda: DealtTable.objects.get(tournament_id=event, number=number).dealer_id) == dealer_dana.pk

    dana = _log_in(browser, server, dealer_dana)
    _tablet(dana, server, event, number)
    assert "Next dealer change at" in dana.inner_text("[data-rotation]")
    assert "then your break" in dana.inner_text("[data-rotation]")
    other_tab = dana.context.new_page()  # a second tablet of Dana's on the same table, live on its socket
    _tablet(other_tab, server, event, number)

    tap(dana, "[data-action='new-hand']")
    off_the_browser_thread(lambda: _twenty_one_minutes_pass(event))  # the change falls due during the hand
    while dana.query_selector("[data-action='fold']"):
        tap(dana, "[data-action='fold']")
    assert off_the_browser_thread(
        lambda: DealtTable.objects.get(tournament_id=event, number=number).dealer_id) == dealer_dana.pk
    dana.click("[data-action='award-pots']")  # the hand's end: the table is handed over
    dana.wait_for_selector("[data-handed-over]")
    assert "Diego deals here now" in dana.inner_text("[data-handed-over]")
    assert "Your break." in dana.inner_text("[data-handed-over]")
    other_tab.wait_for_selector("[data-handed-over]")  # pushed: the relieved dealer's other tablet closes
    assert "Diego deals here now" in other_tab.inner_text("#deal-table")

    diego = _log_in(browser, server, dealer_diego)
    _tablet(diego, server, event, number)
    tap(diego, "[data-action='new-hand']")
    assert diego.query_selector("[data-action='fold']") is not None
    floor.reload()
    assert "Diego" in floor.inner_text(f"[data-rotation-table='{number}']")
    assert "Dana" in floor.inner_text("[data-resting]")
    assert off_the_browser_thread(lambda: hand_reads.latest_hand(
        DealtTable.objects.get(tournament_id=event, number=number)).table.dealer_id) == dealer_diego.pk
