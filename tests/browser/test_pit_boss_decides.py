"""The pit boss's decision on a held award in Debian's chromium (issue #16, item 5).

One tap approved 5,000 with no confirmation, and a denial took no reason. Now an approval is asked
again with its amount, and a denial is not sent without its reason, which the record keeps.
"""

import pytest

from casino.models import AuditEvent
from tables import services
from tables.models import Hand
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.tables.helpers import act, open_for_play
from tests.tables.test_bonus_awards_and_approvals import play_aces_against_aces

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _award_held(table, dealer, pit_boss):
    open_for_play(table, dealer, pit_boss)
    act(services.start_hand, table, dealer)
    return play_aces_against_aces(table, dealer).hand_id


def _console(browser, server, pit_boss):
    page = browser.new_context(viewport=TABLET, locale="es-ES").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", pit_boss.username)
    page.fill("input[name=password]", pit_boss.raw_password)
    page.click("button[type=submit].btn-primary")
    page.goto(f"{server.url}/tables/pit/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    page.wait_for_selector("[data-action='approve']")
    return page


def test_the_pit_boss_confirms_an_approval_before_it_is_recorded(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, browser
):
    (server,) = daphne_servers(1)
    hand_id = off_the_browser_thread(lambda: _award_held(table_one, dealer_dana, pit_boss_pat))
    page = _console(browser, server, pit_boss_pat)
    page.click("[data-action='approve']")
    page.wait_for_timeout(300)
    assert off_the_browser_thread(lambda: Hand.objects.get(pk=hand_id).pending_approvals) == 1  # not yet
    question = page.inner_text("[data-confirm='approve'] form")
    assert "5000" in question and "THB-1" in question
    page.click("button[data-action='confirm-approve']")
    page.wait_for_selector("[data-action='approve']", state="detached", timeout=10000)
    assert off_the_browser_thread(lambda: Hand.objects.get(pk=hand_id).pending_approvals) == 0


def test_the_pit_boss_must_give_a_reason_to_deny_and_it_is_recorded(
    daphne_servers, table_one, dealer_dana, pit_boss_pat, browser
):
    (server,) = daphne_servers(1)
    hand_id = off_the_browser_thread(lambda: _award_held(table_one, dealer_dana, pit_boss_pat))
    page = _console(browser, server, pit_boss_pat)
    page.click("[data-action='deny']")
    page.click("button[data-action='confirm-deny']")  # no reason typed: the browser does not send it
    page.wait_for_timeout(300)
    assert page.evaluate("!document.querySelector('[data-deny-reason]').validity.valid")
    assert off_the_browser_thread(lambda: Hand.objects.get(pk=hand_id).pending_approvals) == 1
    page.fill("[data-deny-reason]", "las cartas del crupier no se vieron en cámara")
    page.click("button[data-action='confirm-deny']")
    page.wait_for_selector("[data-action='deny']", state="detached", timeout=10000)
    denied = off_the_browser_thread(lambda: AuditEvent.objects.get(action="hand.award_denied"))
    assert denied.details["reason"] == "las cartas del crupier no se vieron en cámara"


def test_a_push_from_another_table_leaves_the_confirmation_open_and_the_reason_typed(
    daphne_servers, table_one, table_two, dealer_dana, dealer_diego, pit_boss_pat, browser
):
    """The console is pushed at every tap at any table of the pit: an open confirmation and a reason being
    typed stay as they were (they closed under the pit boss's finger)."""
    (server,) = daphne_servers(1)
    off_the_browser_thread(lambda: _award_held(table_one, dealer_dana, pit_boss_pat))
    page = _console(browser, server, pit_boss_pat)
    page.click("[data-action='deny']")
    page.fill("[data-deny-reason]", "revisar la cámara")
    page.click("[data-action='approve']")
    before = page.get_attribute(".pit-console", "data-version")

    off_the_browser_thread(lambda: open_for_play(table_two, dealer_diego, pit_boss_pat))  # another table moves
    wait_until(page, f"document.querySelector('.pit-console').dataset.version !== '{before}'", 10000)

    assert page.is_visible("button[data-action='confirm-approve']")
    assert page.input_value("[data-deny-reason]") == "revisar la cámara"
