"""Keys made by the browser and pushes that morph, in Debian's chromium (issue #35, items 2 and 4).

A fragment is the same bytes for every viewer, so it carries no request key: the browser makes one per tap
(static/js/casino.js). The floor taps on the fragment the dealer's tap pushed to the same tablet screen; a
tap whose answer the network lost is sent again with its key and applied once. A push to the director's
console keeps the dealer she has chosen in a dropdown, and "Assign" posts that choice.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    dealer_dana_here,
    director_dora,
    event_in_play,
    first_table,
    floor_fede,
    registering,
    sunday_event,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_passwords():
    """The real hashers here: the daphne server checks the passwords of those who log in."""


def _logged_in(browser, server, user):
    page = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")
    return page


def _tablet(page, server, table):
    page.goto(f"{server.url}/tournaments/{table.tournament_id}/tables/{table.number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && document.getElementById('deal-table')")


def _table_version(table) -> int:
    table.refresh_from_db()
    return table.version


def _actions(table) -> int:
    from tournaments.models import TableHandAction

    return TableHandAction.objects.filter(hand__table=table).count()


def _held_pushes(page):
    """The page's socket, whose pushes the test can hold back (a push still on its way)."""
    pushes = {"held": False}

    def the_socket(ws):
        to_server = ws.connect_to_server()
        to_server.on_message(lambda message: None if pushes["held"] else ws.send(message))

    page.route_web_socket("**/deal/", the_socket)
    return pushes


def test_the_floors_tap_on_the_fragment_the_dealers_tap_pushed_is_his_own_request(
    daphne_servers, first_table, dealer_dana_here, floor_fede, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    dealer = _logged_in(browser, server, dealer_dana_here)
    floor = _logged_in(browser, server, floor_fede)
    floor_pushes = _held_pushes(floor)
    _tablet(dealer, server, first_table)
    _tablet(floor, server, first_table)

    tap(dealer, "[data-action='new-hand']")
    shown = dealer.get_attribute("#deal-table", "data-version")
    # The floor's screen is the fragment the dealer's tap pushed: the same bytes, with no one's key in it.
    wait_until(floor, f"document.getElementById('deal-table').dataset.version === '{shown}'", 10000)
    assert 'name="key" value=""' in floor.inner_html("#deal-table")

    # Both tap Fold on that same screen, the dealer first (the floor has not had her push yet): the floor's
    # tap is his own request, answered as a stale screen (409) with the table as it is now, not refused as
    # "This request belongs to someone else" (403, which also sent him to the login page).
    floor_pushes["held"] = True
    tap(dealer, "[data-action='fold']")
    with floor.expect_response(lambda r: r.url.endswith("/fold/")) as answer:
        floor.click("[data-action='fold']")
    assert answer.value.status == 409
    wait_until(floor, f"document.getElementById('deal-table').dataset.version === "
                      f"'{dealer.get_attribute('#deal-table', 'data-version')}'", 10000)
    assert "belongs to someone else" not in floor.inner_text("#deal-table")
    assert floor.query_selector("#deal-table [role=alert]") is not None  # the refusal's reason, shown
    assert floor.url.endswith(f"/tables/{first_table.number}/deal/")

    # On the screen that answer drew, the floor's tap goes through.
    floor_pushes["held"] = False
    before = off_the_browser_thread(_table_version, first_table)
    tap(floor, "[data-action='fold']")
    assert off_the_browser_thread(_table_version, first_table) == before + 1
    wait_until(dealer, f"document.getElementById('deal-table').dataset.version === "
                       f"'{floor.get_attribute('#deal-table', 'data-version')}'", 10000)


def test_a_tap_whose_answer_was_lost_is_sent_again_with_its_key_and_applied_once(
    daphne_servers, first_table, dealer_dana_here, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    dealer = _logged_in(browser, server, dealer_dana_here)
    pushes = _held_pushes(dealer)
    _tablet(dealer, server, first_table)
    tap(dealer, "[data-action='new-hand']")
    before = off_the_browser_thread(_table_version, first_table)
    actions = off_the_browser_thread(_actions, first_table)
    shown = dealer.get_attribute("#deal-table", "data-version")

    sent: list[str] = []

    def the_network_loses_the_first_answer(route):
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            route.fetch()  # the server records the fold ...
            route.abort()  # ... and its answer never reaches the tablet
        else:
            route.continue_()

    pushes["held"] = True  # nor does its push: the tablet still shows the Fold the dealer tapped
    dealer.route("**/fold/", the_network_loses_the_first_answer)
    dealer.evaluate("window.lost = 0; document.addEventListener('htmx:sendError', () => { window.lost += 1; })")
    dealer.click("[data-action='fold']")
    wait_until(dealer, "window.lost === 1", 10000)
    assert len(sent) == 1 and dealer.get_attribute("#deal-table", "data-version") == shown

    tap(dealer, "[data-action='fold']")  # she taps again
    assert len(sent) == 2
    keys = [dict(field.split("=", 1) for field in body.split("&"))["key"] for body in sent]
    assert keys[0] and keys[0] == keys[1]  # the same request, the same key
    assert off_the_browser_thread(_table_version, first_table) == before + 1  # applied once
    assert off_the_browser_thread(_actions, first_table) == actions + 1
    assert dealer.get_attribute("#deal-table", "data-version") != shown  # the first fold's answer


def test_a_push_keeps_the_dealer_chosen_in_the_consoles_dropdown_and_assign_posts_it(
    daphne_servers, event_in_play, director_dora, dealer_dana_here, browser  # noqa: F811
):
    from tournaments.models import Tournament
    from tournaments.reads import event as event_reads
    from tournaments.reads import hands as hand_reads

    (server,) = daphne_servers(1)
    console = _logged_in(browser, server, director_dora)
    console.goto(f"{server.url}/tournaments/{event_in_play.pk}/")
    wait_until(console, "window.htmx && document.querySelector('form.assign-dealer select[name=dealer]')")
    (number,) = off_the_browser_thread(lambda: [t.table for t in event_reads.tournament_state(event_in_play).tables])

    select = f"#ttable-{number} select[name=dealer]"
    console.select_option(select, str(dealer_dana_here.pk))
    console.click("#tables-title")  # she looks elsewhere: the dropdown no longer has the focus
    shown = console.get_attribute("[data-version]", "data-version")

    # The director pauses the clock from her other screen: every console of the event is pushed (through
    # the server, so with or without Redis).
    other = console.context.new_page()
    other.goto(f"{server.url}/tournaments/{event_in_play.pk}/")
    other.click("[data-action='clock-pause']")
    wait_until(console, f"document.querySelector('[data-version]').dataset.version !== '{shown}'", 10000)
    assert console.eval_on_selector(select, "s => s.value") == str(dealer_dana_here.pk)  # kept through the push

    console.click(f"#ttable-{number} [data-action='assign-dealer']")

    def on_duty():
        return hand_reads.dealt_table(Tournament.objects.get(pk=event_in_play.pk), number).dealer_id

    deadline = 50
    while off_the_browser_thread(on_duty) != dealer_dana_here.pk and deadline:
        console.wait_for_timeout(200)
        deadline -= 1
    assert off_the_browser_thread(on_duty) == dealer_dana_here.pk
    console.wait_for_selector(f"[data-dealer-on-duty='{number}'] strong")


def test_the_tournament_tablet_shows_why_a_tap_was_refused(
    daphne_servers, first_table, dealer_dana_here, browser  # noqa: F811
):
    """Issue #36: a refused tap (here a board that is not cards) was dropped as an error: the tablet said nothing."""
    (server,) = daphne_servers(1)
    dealer = _logged_in(browser, server, dealer_dana_here)
    _tablet(dealer, server, first_table)
    tap(dealer, "[data-action='new-hand']")
    while not dealer.query_selector("[data-step='board']"):  # everyone calls, the big blind checks
        tap(dealer, "[data-action='check']" if dealer.query_selector("[data-action='check']") else
            "[data-action='call']")
    before = off_the_browser_thread(_table_version, first_table)

    # The picker sends only cards (issue #36): the field it fills is set here as a typing hand would have.
    with dealer.expect_response(lambda r: r.url.endswith("/flop/")) as answer:
        dealer.evaluate("""() => { const form = document.querySelector("[data-step='board']");
            form.querySelector("input[name=cards]").value = "zz yy xx"; form.requestSubmit(); }""")
    assert answer.value.status in (400, 422)
    dealer.wait_for_selector("#deal-table [role=alert]", timeout=10000)
    assert dealer.query_selector("[data-step='board']") is not None  # the same step, to be typed again
    assert off_the_browser_thread(_table_version, first_table) == before  # nothing recorded
