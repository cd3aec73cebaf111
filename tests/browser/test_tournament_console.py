"""A tournament run from the director's console in Debian's chromium, and a player's phone that sees its
move live (issue #14).

One daphne server, a director on a tablet and a player's phone. The director creates the event (6-max,
the break order 4, 3, 2, 1, a final table of 6), registers players at the desk (a minor is refused with
the reason; the rest of the 19 entries come through the same service, off the browser, to keep the test
short), draws the seats, starts the clock (a push from the floor while the director types keeps what was
typed), prints one player's accreditation (its QR link opens the
phone), and records busts at table 1 until the field fits three tables: the plan then says table 4 breaks
(CC-55, TDA-10), the director confirms it with one tap, and the phone of the player who sat at table 4
says they were moved, to which table and seat.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE, TABLET, off_the_browser_thread, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 19  # four 6-max tables (5, 5, 5, 4); at 18 the field fits three
AT_THE_DESK = 3  # registered through the form; the others through the same service


def _register_the_others(tournament_id: int, director) -> None:
    import uuid
    from datetime import date

    from tournaments import services
    from tournaments.models import Tournament

    for i in range(AT_THE_DESK + 1, PLAYERS + 1):
        tournament = Tournament.objects.get(pk=tournament_id)
        services.register(tournament=tournament, by=director, key=uuid.uuid4().hex,
                          expected_version=tournament.version, name=f"Player {i:02d}", id_type="dni",
                          id_number=f"3000{i:04d}", birth_date=date(1990, 1, 1))


def _hold_a_stack(tournament_id: int, floor, entry: int) -> None:
    import uuid

    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    services.hold_stack(tournament=tournament, by=floor, key=uuid.uuid4().hex, expected_version=tournament.version,
                        entry=entry)


def _login(page, server, user):
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def _no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _console_version(page) -> int:
    return int(page.get_attribute("#tournament-console", "data-version"))


def _tap(page, action: str) -> None:
    """One tap on the live console, then wait for the fresh console it answers."""
    version = _console_version(page)
    page.click(f"#tournament-console button[data-action='{action}']")
    wait_until(page, f"parseInt(document.querySelector('#tournament-console').dataset.version, 10) > {version}",
               timeout=10000)


def _seated_at(page, table: int) -> list[int]:
    """The entry numbers the console shows at a table."""
    texts = page.locator(f"#ttable-{table} .seat-list li:not(.is-empty) .who").all_inner_texts()
    return [int(re.match(r"#(\d+)", t.strip()).group(1)) for t in texts]


def test_a_director_registers_seats_starts_and_busts_until_a_table_breaks_and_the_phone_sees_its_move(
    daphne_servers, tournament_director_teo, screenshots, browser
):
    (server,) = daphne_servers(1)
    director = browser.new_context(viewport=TABLET, locale="en-GB")
    page = director.new_page()
    _login(page, server, tournament_director_teo)

    # The event: 6-max, a final table of six, tables broken in the order 3, 2, 1.
    page.goto(f"{server.url}/tournaments/new/")
    page.fill("input[name=name]", "Martes Turbo")
    page.fill("input[name=starts_at]", "2026-11-24T20:00")
    page.fill("input[name=buy_in]", "100")
    page.fill("input[name=starting_stack]", "10000")
    page.select_option("select[name=seats_per_table]", "6")
    page.fill("input[name=final_table_size]", "6")
    page.fill("input[name=break_order]", "4 3 2 1")
    page.click("button[data-action=save-setup]")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament_id = int(re.search(r"/tournaments/(\d+)/", page.url).group(1))

    # The console: open registration.
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    _tap(page, "open-registration")

    # The registration desk: a minor is refused with the reason, then the players enter.
    page.goto(f"{server.url}/tournaments/{tournament_id}/registration/")
    page.fill("input[name=player_name]", "Too Young")
    page.fill("input[name=id_number]", "99000001")
    page.fill("input[name=birth_date]", "2015-05-05")
    page.click("button[data-action=register]")
    assert "CC-23" in page.inner_text("#registration-notice") or "18" in page.inner_text("#registration-notice")
    for i in range(1, AT_THE_DESK + 1):
        page.goto(f"{server.url}/tournaments/{tournament_id}/registration/")
        page.fill("input[name=player_name]", f"Player {i:02d}")
        page.fill("input[name=id_number]", f"3000{i:04d}")
        page.fill("input[name=birth_date]", "1990-01-01")
        page.check("input[name=image_consent]")
        page.click("button[data-action=register]")
        page.wait_for_selector("#desk-last")  # back at the desk, the entry confirmed with its receipts
    off_the_browser_thread(_register_the_others, tournament_id, tournament_director_teo)
    page.goto(f"{server.url}/tournaments/{tournament_id}/registration/")
    assert page.locator("#entries tbody tr").count() == PLAYERS

    # The console: close registration, draw the seats, start the clock.
    page.goto(f"{server.url}/tournaments/{tournament_id}/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    if page.locator("#tournament-console button[data-action='close-registration']").count():
        _tap(page, "close-registration")
    _tap(page, "start")
    page.wait_for_selector("#ttable-4")
    _tap(page, "clock-start")
    assert page.locator("#tournament-console [data-role=time-left]").inner_text().strip() not in ("", "—")
    assert sum(len(_seated_at(page, t)) for t in (1, 2, 3, 4)) == PLAYERS

    # The director types a time adjustment while the floor acts at another tablet: the push that
    # redraws the console keeps what was typed and the cursor in its field.
    page.fill("#tournament-console input[name=seconds]", "+90")
    version = _console_version(page)
    off_the_browser_thread(_hold_a_stack, tournament_id, tournament_director_teo, _seated_at(page, 1)[0])
    wait_until(page, f"parseInt(document.querySelector('#tournament-console').dataset.version, 10) > {version}",
               timeout=10000)
    assert page.input_value("#tournament-console input[name=seconds]") == "+90"
    assert page.evaluate("document.activeElement && document.activeElement.name") == "seconds"
    page.fill("#tournament-console input[name=seconds]", "")
    assert _no_horizontal_scroll(page)
    page.screenshot(path=f"{screenshots}/tournament-console-tablet.png", full_page=True)
    # The same console on the director's phone on the floor: one column, nothing off the screen.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert _no_horizontal_scroll(page)
    page.screenshot(path=f"{screenshots}/tournament-console-phone.png", full_page=True)
    page.set_viewport_size(TABLET)

    # A player of table 4 gets their accreditation, and their phone follows them.
    mover = _seated_at(page, 4)[0]
    page.goto(f"{server.url}/tournaments/{tournament_id}/entries/{mover}/")
    page.click("button[data-action=accreditation-receipt]")
    link = page.locator("#receipt .link-url").inner_text().strip()
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(link)
    phone.wait_for_selector("#player-view [data-role=seat]")
    assert phone.inner_text("#player-view [data-role=table]").strip() == "4"
    assert not phone.locator("#player-view [data-role=moved]").count()

    # Busts at table 1, one a hand, until the field fits in three tables: the plan breaks table 4.
    for _ in range(PLAYERS - 18):
        page.goto(f"{server.url}/tournaments/{tournament_id}/tables/1/")
        page.locator("#bust-form .seat-pick label").first.click()
        page.click("#bust-form button[data-action=bust]")
        page.wait_for_load_state("networkidle")
    page.goto(f"{server.url}/tournaments/{tournament_id}/")
    page.wait_for_selector("#plan button[data-action='confirm-plan']")
    assert "4" in page.inner_text("#plan")
    move = page.locator(f"#plan li[data-entry='{mover}'] .move-to").inner_text()
    to_table, to_seat = (int(n) for n in re.findall(r"\d+", move))
    assert to_table in (1, 2, 3)
    _tap(page, "confirm-plan")
    page.wait_for_selector("#plan.is-empty")
    assert not page.locator("#ttable-4").count()

    # The phone, untouched, says where to go.
    phone.wait_for_selector("#player-view [data-role=moved]", timeout=10000)
    assert phone.inner_text("#player-view [data-role=table]").strip() == str(to_table)
    assert phone.inner_text("#player-view [data-role=seat-number]").strip() == str(to_seat)
    assert _no_horizontal_scroll(phone)
    phone.screenshot(path=f"{screenshots}/tournament-phone-moved.png", full_page=True)

    # The seating display finds the player by entry number, with no name to a passer-by.
    public = browser.new_page(viewport=PHONE)
    public.goto(f"{server.url}/tournaments/{tournament_id}/seating/?q={mover}")
    assert re.findall(r"\d+", public.inner_text(".found-seat"))[:2] == [str(to_table), str(to_seat)]
    assert "Player 0" not in public.inner_text("main") and "Player 1" not in public.inner_text("main")
