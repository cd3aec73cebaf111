"""The tablet's card picker in Debian's chromium (issue #16, item 1).

After each tap the tablet was drawn twice at the same version: the tap's HTTP answer, then its own
websocket push some 30 ms later. A card tapped in between was lost, and the picker stored the cards in
the grid's order rather than the order tapped.
"""

import pytest

from tables import reads, services, sessions
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.tables.helpers import CLOSE_BETS, DEAL, act, ante, bet_flop, open_for_play, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PICKER = "#dealer-table form[data-picker]"


def _at_the_flop_picker(table, dealer, pit_boss):
    open_for_play(table, dealer, pit_boss)
    act(services.start_hand, table, dealer)
    play(table, dealer, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20))


def _tap_card(page, card):
    page.click(f"{PICKER} label.pick:has(input[value='{card}'])")


def _ticked(page) -> list[str]:
    return page.eval_on_selector_all(f"{PICKER} input[name=cards]:checked", "els => els.map(e => e.value)")


def _version(page) -> int:
    return int(page.get_attribute("#dealer-table", "data-version"))


def test_a_card_tapped_right_after_a_taps_answer_is_kept_and_the_flop_is_stored_in_the_order_tapped(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, browser
):
    (server,) = daphne_servers(1)
    off_the_browser_thread(lambda: _at_the_flop_picker(table_one, dealer_dana, pit_boss_pat))
    page = browser.new_context(viewport=TABLET, locale="es-ES").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tables/{table_one.pk}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_selector(PICKER)
    page.wait_for_timeout(400)

    # A tap with an answer (a new player at box 4, which has no bet): the answer redraws the tablet at a
    # new version, its own push follows at that same version. The card is tapped as soon as the answer shows.
    _tap_card(page, "9h")
    page.click("#dealer-table summary:has-text('Nuevo jugador en una casilla')")
    page.select_option("#dealer-table form:has(button[data-action='new-player']) select[name=box]", "4")
    before = _version(page)
    page.click("#dealer-table button[data-action='new-player']")
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {before}")
    _tap_card(page, "2c")
    page.wait_for_timeout(600)  # the push of the same version has come and gone
    assert sorted(_ticked(page)) == ["2c", "9h"]
    assert page.input_value(f"{PICKER} [data-order]") == "9h 2c"

    # Another device's change redraws the tablet at a newer version: the picked cards come back.
    off_the_browser_thread(lambda: act(sessions.seat_new_player, table_one, dealer_dana, box=5))
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {before + 1}")
    assert sorted(_ticked(page)) == ["2c", "9h"]
    assert page.input_value(f"{PICKER} [data-order]") == "9h 2c"

    version = _version(page)
    _tap_card(page, "7d")  # the third card sends the flop by itself
    wait_until(page, f"parseInt(document.querySelector('#dealer-table').dataset.version, 10) > {version}")
    _hand, state = off_the_browser_thread(lambda: reads.current_hand(table_one))
    assert [str(c) for c in state.board] == ["9h", "2c", "7d"]  # the dealer's order, not the grid's
