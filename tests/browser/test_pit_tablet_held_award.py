"""The dealer's tablet when a Bonus award is held for the pit boss, in Debian's chromium (issue #36, item 16).

The tablet's notice named the award by its key ("aa-vs-dealer-aa") where the pit's console says "A-A with the
dealer's A-A"; and the tablet's next push (another device's change at the table) morphed the notice away before
the dealer had read it. Now it names the award as the console does and stays until the dealer's next tap (THB-54).
"""

import pytest
from django.utils import translation

from tables import services, sessions
from tables.projections import AWARD_LABELS
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.tables.helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    flop,
    open_for_play,
    pass_river,
    pass_turn,
    play,
    reveal_dealer,
    river,
    turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PICKER = "#dealer-table form[data-picker]"


def _box_one_to_turn(table, dealer, pit_boss):
    """Box 1 holds A-A against the dealer's A-A (1000 to 1, THB-53): only its cards are left to record."""
    open_for_play(table, dealer, pit_boss)
    act(services.start_hand, table, dealer)
    play(table, dealer, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL, bet_flop(1, 20), flop("2c 7d 9h"), pass_turn(1),
         turn("Js"), pass_river(1), river("Kc"), reveal_dealer("Ah Ad"))


def _version(page) -> int:
    return int(page.get_attribute("#dealer-table", "data-version"))


def test_the_held_awards_notice_names_the_award_and_outlasts_the_next_push(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, browser
):
    (server,) = daphne_servers(1)
    off_the_browser_thread(lambda: _box_one_to_turn(table_one, dealer_dana, pit_boss_pat))
    page = browser.new_context(viewport=TABLET, locale="en-US").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tables/{table_one.pk}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_selector(PICKER)
    page.wait_for_timeout(400)

    before = _version(page)
    page.click(f"{PICKER} label.pick:has(input[value='As'])")
    page.click(f"{PICKER} label.pick:has(input[value='Ac'])")  # the second card sends them
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {before}")
    page.wait_for_selector("#dealer-table .notice")
    notice = page.inner_text("#dealer-table .notice")
    with translation.override("en"):
        label = str(AWARD_LABELS["aa-vs-dealer-aa"])
    assert "aa-vs-dealer-aa" not in notice
    assert label in notice and "5000" in notice

    # Another device changes the table (a new player at box 5): the tablet is redrawn, the notice stays.
    shown = _version(page)
    off_the_browser_thread(lambda: act(sessions.seat_new_player, table_one, dealer_dana, box=5))
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {shown}",
               timeout=10000)
    page.wait_for_timeout(300)
    assert page.locator("#dealer-table .notice").count() == 1
    assert label in page.inner_text("#dealer-table .notice")


def test_the_held_awards_notice_outlasts_the_next_push_when_the_taps_own_push_came_before_its_answer(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, browser
):
    """The flaky case made certain (THB-54): the push of the tap's own version reaches the tablet first.

    That push redraws the screen without the card picker, so the form that asked is gone when its answer
    arrives: htmx then tells that answer's end (htmx:afterRequest) to the detached form only, and the morph
    took the answer as still under way, letting the next push (another device's) remove the notice.
    """
    (server,) = daphne_servers(1)
    off_the_browser_thread(lambda: _box_one_to_turn(table_one, dealer_dana, pit_boss_pat))
    page = browser.new_context(viewport=TABLET, locale="en-US").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tables/{table_one.pk}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_selector(PICKER)
    page.wait_for_timeout(400)

    held = []  # the cards' request, held in the browser until its push has been shown

    def hold_the_post(route):
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    page.route(f"**/tables/{table_one.pk}/**", hold_the_post)
    page.evaluate("window.picker = document.querySelector(" + repr(PICKER) + ")")
    before = _version(page)
    page.click(f"{PICKER} label.pick:has(input[value='As'])")
    page.click(f"{PICKER} label.pick:has(input[value='Ac'])")  # the second card sends them
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    answer = held[0].fetch()  # the server records the cards and pushes the new version ...
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {before}",
               timeout=10000)
    assert page.evaluate("!window.picker.isConnected")  # ... which took the form that asked away
    assert page.locator("#dealer-table .notice").count() == 0
    held[0].fulfill(response=answer)  # ... and only then does its answer arrive, with the notice
    page.wait_for_selector("#dealer-table .notice")
    with translation.override("en"):
        label = str(AWARD_LABELS["aa-vs-dealer-aa"])
    assert label in page.inner_text("#dealer-table .notice")

    shown = _version(page)
    off_the_browser_thread(lambda: act(sessions.seat_new_player, table_one, dealer_dana, box=5))
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {shown}",
               timeout=10000)
    page.wait_for_timeout(300)
    assert page.locator("#dealer-table .notice").count() == 1
    assert label in page.inner_text("#dealer-table .notice")
