"""The room's screens in Debian's chromium (issue #36): the seating display (item 13) and the screens' language
(item 15).

The seating display lists every player still in, alphabetical by name, with table and seat, a page at a time
when the room's list does not fit the TV, and follows the event live (a move is on the screen without a
reload). The console and the TV speak the viewer's language whoever read the event's board first, and show
labels and sentences, never the stored codes.
"""

from __future__ import annotations

import unicodedata
from datetime import date

import pytest

from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.tournaments import display_fixtures as fx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}
#: Names as a desk types them: accents, capitals and not, so the order is the room's, not the bytes'.
NAMES = ("Ñandú Ortega", "núñez, Ana", "Nunez Bea", "Álvarez Carla", "alvarez Dario", "Zoe Quiroga", "Émile Roux",
         "Bruno Díaz", "Chloé Martin", "Omar Ibáñez")


def _registered(tournament, by, count: int) -> None:
    from tournaments import services

    fx.act(services.open_registration, tournament, by)
    for i in range(count):
        name = NAMES[i] if i < len(NAMES) else f"Player {i:03d}"
        result = fx.act(services.register, tournament, by, name=name, id_type="dni", id_number=f"31{i:06d}",
                        birth_date=date(1980, 1, i % 28 + 1))
        assert result.refusal is None, result.refusal


def _an_event_drawn(count: int):
    director = fx.a_director("dora")
    tournament = fx.a_tournament(director)
    _registered(tournament, director, count)
    fx.start(tournament, director)
    return tournament, director


def _seating(tournament) -> dict[int, tuple[int, int]]:

    from tournaments.models import Tournament
    from tournaments.reads import event as event_reads

    state = event_reads.tournament_state(Tournament.objects.get(pk=tournament.pk))
    return {e.entry: (e.table, e.seat) for e in state.in_play if e.table is not None}


def _move(tournament, by, entry: int, table: int, seat: int) -> None:
    from tournaments import services

    fx.act(services.correct_seat, tournament, by, entry=entry, table=table, seat=seat, reason="wrong seat given")


def _socket_open(page) -> None:
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]') && "
                     "document.getElementById('connection-status').hidden")
    page.wait_for_timeout(300)


def _room_order(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def _shown_rows(page) -> list[dict]:
    return page.evaluate("""Array.from(document.querySelectorAll('#seating-display [data-role=seating] > li'))
      .map(li => ({entry: +li.dataset.entry, table: +li.dataset.table, seat: +li.dataset.seat,
                   name: li.querySelector('.tseating-name').firstChild.textContent.trim(), hidden: li.hidden,
                   bottom: li.getBoundingClientRect().bottom, right: li.getBoundingClientRect().right,
                   text: li.innerText}))""")


def test_the_seating_display_lists_every_player_by_name_with_table_and_seat_and_follows_a_move(
    daphne_servers, browser, screenshots
):
    tournament, director = off_the_browser_thread(_an_event_drawn, 24)
    seating = off_the_browser_thread(_seating, tournament)
    (server,) = daphne_servers(1)
    page = browser.new_page(viewport=TV, locale="en-US")
    page.goto(f"{server.url}/tournaments/{tournament.pk}/seating/room/")
    _socket_open(page)
    page.screenshot(path=f"{screenshots}/seating-display-1920x1080.png")

    rows = _shown_rows(page)
    assert len(rows) == 24 and not any(r["hidden"] for r in rows)  # one page: all of them
    assert [r["name"] for r in rows] == sorted((r["name"] for r in rows), key=lambda n: (_room_order(n)))
    assert [r["name"] for r in rows][:3] == ["Álvarez Carla", "alvarez Dario", "Bruno Díaz"]
    assert {r["entry"]: (r["table"], r["seat"]) for r in rows} == seating
    first = rows[0]
    assert " ".join(first["text"].split()[-4:]) == f"TABLE {first['table']} SEAT {first['seat']}"
    assert all(r["bottom"] <= TV["height"] and r["right"] <= TV["width"] for r in rows)

    # The floor moves a player: the room's screen shows the new seat by itself.
    entry = rows[5]["entry"]
    taken = set(seating.values())
    table = seating[entry][0]
    free = next((t, s) for t in sorted({t for t, _s in taken}) for s in range(1, 10)
                if (t, s) not in taken and t != table)
    off_the_browser_thread(_move, tournament, director, entry, *free)
    wait_until(page, f"(() => {{ const li = document.querySelector('#seating-display li[data-entry=\"{entry}\"]');"
                     f" return li && li.dataset.table === '{free[0]}' && li.dataset.seat === '{free[1]}'; }})()",
               timeout=10000)


@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
def test_a_long_seating_list_is_shown_a_page_at_a_time_and_every_player_comes_round(
    size, daphne_servers, browser, screenshots
):
    tournament, _director = off_the_browser_thread(_an_event_drawn, 75)
    (server,) = daphne_servers(1)
    page = browser.new_page(viewport=size, locale="en-US")
    page.goto(f"{server.url}/tournaments/{tournament.pk}/seating/room/")
    _socket_open(page)
    pages = int(page.get_attribute("#seating-display [data-role=seating]", "data-pages"))
    assert pages >= 2
    seen: set[int] = set()
    for number in range(pages):
        rows = _shown_rows(page)
        shown = [r for r in rows if not r["hidden"]]
        assert shown, f"page {number + 1} shows no one"
        assert all(r["bottom"] <= size["height"] + 0.5 and r["right"] <= size["width"] + 0.5 for r in shown), \
            f"page {number + 1} does not fit the screen"
        seen |= {r["entry"] for r in shown}
        page.screenshot(path=f"{screenshots}/seating-display-{size['width']}-page{number + 1}.png")
        assert f"Page {number + 1} of {pages}" in page.inner_text("#seating-display [data-role=page]")
        page.evaluate("window.seatingDisplay.next()")
    assert len(seen) == 75


def _running_with_a_refusal():
    from tournaments import services

    director = fx.a_director("dora")
    director.raw_password = "pw-dora-2026"
    tournament = fx.a_tournament(director)
    _registered(tournament, director, 4)
    result = fx.act(services.register, tournament, director, name="Young Player", id_type="dni",
                    id_number="39999999", birth_date=date.today().replace(year=date.today().year - 15))
    assert result.refusal is not None
    fx.start(tournament, director)
    return tournament, director


def _login(page, server, user) -> None:
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    page.wait_for_load_state("networkidle")


def test_each_screen_speaks_its_viewers_language_whoever_read_the_board_first(daphne_servers, browser):
    tournament, director = off_the_browser_thread(_running_with_a_refusal)
    (server,) = daphne_servers(1)
    tv = f"{server.url}/tournaments/{tournament.pk}/clock/"

    spanish = browser.new_page(viewport=TV, locale="es-ES")
    spanish.goto(tv)  # the first to read the event's board in the server
    assert spanish.inner_text("#clock-display .tclock-status").strip() == "En juego"
    english = browser.new_page(viewport=TV, locale="en-US")
    english.goto(tv)
    assert english.inner_text("#clock-display .tclock-status").strip() == "Running"

    _login(english, server, director)
    english.goto(f"{server.url}/tournaments/{tournament.pk}/")
    assert english.inner_text(".status-text").strip() == "Running"

    # The desk's document list and the record: labels and sentences, never the stored codes.
    english.goto(f"{server.url}/tournaments/{tournament.pk}/registration/")
    options = english.eval_on_selector_all("select[name=id_type] option", "os => os.map(o => o.textContent.trim())")
    assert options and not {"dni", "cedula", "libreta_enrolamiento", "passport"} & set(options)
    english.goto(f"{server.url}/tournaments/{tournament.pk}/record/")
    record = english.inner_text("#record")
    for raw in ("from_table", "seated entry", "why draw", "registration_opened", "id_checked"):
        assert raw not in record
    assert "Registration opened" in record and "sat at table" in record

    _login(spanish, server, director)
    spanish.goto(f"{server.url}/tournaments/{tournament.pk}/")
    assert spanish.inner_text(".status-text").strip() == "En juego"
    spanish.goto(f"{server.url}/tournaments/{tournament.pk}/registration/")
    refused = spanish.inner_text(".refused")
    assert "Menor de" in refused and "Under" not in refused
