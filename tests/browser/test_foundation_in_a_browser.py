"""A dealer's tablet and a player's phone, in Debian's chromium driven by Playwright."""

import os

import pytest

from casino import player_links
from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until
from tests.conftest import issue_box_link
from tests.http import LiveSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_dealer_logs_in_on_a_tablet_and_sees_their_table_list(
    daphne_servers, table_one, dealer_dana, screenshots, browser
):
    (server,) = daphne_servers(1)
    page = browser.new_page(viewport=TABLET, locale="es-ES")
    page.goto(f"{server.url}/login/")
    assert page.locator("h1").inner_text() == "Acceso del personal"
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", dealer_dana.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_url("**/tables/")
    assert page.locator(f"#table-{table_one.pk} h2").inner_text().startswith("THB-1")
    assert page.locator(f"#table-{table_one.pk} .btn-box").count() == 7
    assert _no_horizontal_scroll(page)
    page.screenshot(path=os.path.join(screenshots, "dealer-tablet-tables.png"), full_page=True)


def test_a_phone_opens_a_player_link_and_sees_it_end_live_when_revoked(
    daphne_servers, table_one, dealer_dana, screenshots, browser
):
    (server,) = daphne_servers(1)
    link = off_the_browser_thread(
        lambda: issue_box_link(table_one, 3, dealer_dana)
    )
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES")
    page.goto(server.url + player_links.url_for(link))
    view = page.locator("#player-view")
    assert "Casilla 3" in view.inner_text()
    assert _no_horizontal_scroll(page)
    page.screenshot(path=os.path.join(screenshots, "player-phone.png"), full_page=True)
    # The socket is open once the server has pushed its first fragment; then revoke from the pit.
    wait_until(page, "document.querySelector('[ws-connect]') && window.htmx")
    page.wait_for_timeout(500)
    # The dealer revokes from their tablet: through the server, as in the casino.
    dealer = LiveSession(server.url)
    dealer.login("dana", dealer_dana.raw_password)
    status, _ = dealer.post(f"/tables/links/{link.pk}/revoke", {}, token_from=f"/tables/links/{link.pk}/")
    assert status == 200
    wait_until(page, "document.querySelector('#player-view').innerText.includes('ya no funciona')", timeout=10000)
    assert "ya no funciona" in view.inner_text()


def test_the_dealer_revokes_a_players_link_from_the_tablet_and_the_phone_stops_at_once(
    daphne_servers, table_one, dealer_dana, browser
):
    """Issue #16, item 3: the tablet lists the box's links; one tap on Revoke ends the phone's view."""
    (server,) = daphne_servers(1)
    table = table_one
    link = off_the_browser_thread(lambda: issue_box_link(table, 2, dealer_dana))
    phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES")
    phone.goto(server.url + player_links.url_for(link))
    assert "Casilla 2" in phone.inner_text("#player-view")
    wait_until(phone, "document.querySelector('[ws-connect]') && window.htmx")
    phone.wait_for_timeout(500)

    tablet = browser.new_page(viewport=TABLET, locale="es-ES")
    tablet.goto(f"{server.url}/login/")
    tablet.fill("input[name=username]", "dana")
    tablet.fill("input[name=password]", dealer_dana.raw_password)
    tablet.click("button[type=submit].btn-primary")
    tablet.goto(f"{server.url}/tables/{table.pk}/")
    tablet.click("[data-box-links] summary")
    row = tablet.locator(f"[data-link='{link.pk}']")
    assert "Casilla 2" in row.inner_text()
    row.locator("button[data-action='revoke-link']").click()
    tablet.wait_for_load_state("networkidle")
    assert tablet.url.endswith(f"/tables/{table.pk}/")  # back on the tablet
    assert tablet.locator(f"[data-link='{link.pk}']").count() == 0
    wait_until(phone, "document.querySelector('#player-view').innerText.includes('ya no funciona')", timeout=10000)


def test_a_phone_whose_browser_asks_for_english_gets_its_live_view_in_english(
    daphne_servers, table_one, dealer_dana, browser
):
    """Issue #16, item 2: the socket's pushes spoke Spanish to a browser asking for English."""
    (server,) = daphne_servers(1)
    link = off_the_browser_thread(lambda: issue_box_link(table_one, 3, dealer_dana))
    phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    frames = []
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    phone.goto(server.url + player_links.url_for(link))
    wait_until(phone, "document.querySelector('[ws-connect]') && window.htmx")
    for _ in range(50):  # the socket pushes the view as soon as it is open
        if frames:
            break
        phone.wait_for_timeout(100)
    assert frames and "Box 3" in str(frames[0]) and "Casilla" not in str(frames[0])
    assert "Box 3" in phone.inner_text("#player-view")
