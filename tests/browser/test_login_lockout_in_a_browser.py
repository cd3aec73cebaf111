"""A pit boss locked out on the floor's tablet, unlocked by the games director from theirs."""

import os

import pytest

from tests.browser.conftest import TABLET

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, server, username, password):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit].btn-primary")


def test_the_games_director_unlocks_a_pit_boss_locked_out_on_the_floor(
    daphne_servers, pit_a, pit_boss_pat, games_director_gloria, settings, screenshots, browser
):
    (server,) = daphne_servers(1)
    floor_tablet = browser.new_context(viewport=TABLET, locale="en-US").new_page()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _log_in(floor_tablet, server, "pat", "not-my-password")
    assert "Ask the games director or an administrator to unlock you" in floor_tablet.locator("#way-out").inner_text()
    floor_tablet.screenshot(path=os.path.join(screenshots, "login-locked-out.png"), full_page=True)

    director = browser.new_context(viewport=TABLET, locale="en-US").new_page()
    _log_in(director, server, "gloria", games_director_gloria.raw_password)
    director.wait_for_url("**/tables/floor/")
    director.click("main a[href='/staff/lockouts/']")
    card = director.locator("section.lockout", has_text="pat")
    assert "127.0.0.1" in card.inner_text() and "Pat" in card.inner_text()
    card.locator("input[name=reason]").fill("Pat, at the podium, in person")
    director.screenshot(path=os.path.join(screenshots, "login-lockouts.png"), full_page=True)
    card.locator("button[type=submit]").click()
    director.wait_for_selector("#messages")
    assert director.locator("section.lockout").count() == 0
    director.screenshot(path=os.path.join(screenshots, "login-unlocked.png"), full_page=True)

    _log_in(floor_tablet, server, "pat", pit_boss_pat.raw_password)
    floor_tablet.wait_for_url("**/tables/pit/")
