"""Two dealers' tablets at two tournament tables in Debian's chromium (issue #15): a hand at each table,
a player busts at one, the event's own plan follows (six left: the final table is drawn, C-01), both
tablets list who moves where, the director's console shows the moves and confirms them with one tap,
and a moved player's phone shows the new seat."""

import uuid
from datetime import UTC, date, datetime

import pytest

from casino.player_links import token_for
from tests.browser.conftest import TABLET, off_the_browser_thread, wait_until
from tests.browser.test_tournament_tablet import tap, tap_cards
from tests.conftest import _staff
from tournaments import services
from tournaments.models import Entry
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _event(director):
    """Seven players at two 6-max tables (3 and 4), broken in the order 2, 1; the clock running."""
    tournament, _ = services.create_tournament(
        by=director, key=uuid.uuid4().hex, name="Jueves", starts_at=datetime(2026, 12, 3, 20, tzinfo=UTC),
        buy_in=50, starting_stack=5000, seats_per_table=6, break_order=(2, 1))

    def act(fn, **kwargs):
        tournament.refresh_from_db()
        return fn(tournament=tournament, by=director, key=uuid.uuid4().hex, expected_version=tournament.version,
                  **kwargs)

    act(services.open_registration)
    for i in range(1, 8):
        act(services.register, name=f"Jugador {i}", id_type="dni", id_number=f"33.000.{i:03d}",
            birth_date=date(1980, 1, i))
    act(services.start_tournament)
    act(services.clock_command, kind="start")
    tournament.refresh_from_db()
    state = event_reads.tournament_state(tournament)
    small, large = sorted(state.tables, key=lambda t: t.count)
    return tournament.pk, small.table, large.table


def _a_moved_player(event, director):
    """An entry the plan moves from one table to the other (the final table's draw), and its phone link."""
    from tournaments.models import Tournament

    state = event_reads.tournament_state(Tournament.objects.get(pk=event))
    move = next(m for m in state.pending_plan[1].moves if m.from_table != m.to_table)  # one changes tables
    link = services.issue_entry_link(Entry.objects.get(tournament_id=event, number=move.entry), by=director)
    return move.entry, move.from_table, token_for(link)


def _on_duty(event, director, dealer, *numbers):
    """The floor (here the director) puts the dealer on duty at each of these tables: while she rotates from
    one to the next she is on duty at both."""
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=event)
    for number in numbers:
        table = hand_reads.dealt_table(tournament, number)
        dealing.assign_dealer(table=table, by=director, key=uuid.uuid4().hex, expected_version=table.version,
                              dealer=dealer)


def _log_in(browser, server, user, viewport=TABLET):
    page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    page.goto(f"{server.url}/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", user.raw_password)
    page.click("button[type=submit].btn-primary")
    return page


def _tablet(page, server, event, number):
    page.goto(f"{server.url}/tournaments/{event}/tables/{number}/deal/")
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")


def test_a_bust_at_one_tablet_breaks_the_other_table_and_the_moved_players_phone_follows(
    daphne_servers, dealer_dana, django_user_model, browser
):
    (server,) = daphne_servers(1)
    director = off_the_browser_thread(lambda: _staff(django_user_model, "dora", "tournament_director", "Dora"))
    event, short_table, long_table = off_the_browser_thread(lambda: _event(director))
    off_the_browser_thread(lambda: _on_duty(event, director, dealer_dana, short_table, long_table))

    dealer = _log_in(browser, server, dealer_dana)
    _tablet(dealer, server, event, long_table)
    # A hand at the table of four: everyone folds to the big blind.
    tap(dealer, "[data-action='new-hand']")
    while dealer.query_selector("[data-action='fold']"):
        tap(dealer, "[data-action='fold']")
    tap(dealer, "[data-action='award-pots']")
    assert "collects" in dealer.inner_text("[data-step='between-hands']")

    # A hand at the table of three on a second tablet: the first to act moves all in, the next calls with
    # the worse hand and busts (equal stacks), the big blind folds.
    second = dealer.context.new_page()
    _tablet(second, server, event, short_table)
    tap(second, "[data-action='new-hand']")
    tap(second, "[data-action='all-in']")
    tap(second, "[data-action='call']")
    tap(second, "[data-action='fold']")
    for cards in ("2c 7d 9h", "Js", "Kc", "As Ad", "3h 4s"):  # the board, then the hands shown
        tap_cards(second, *cards.split())
    tap(second, "[data-action='award-pots']")
    # Six left: the final table is drawn (C-01, CC-61); both tablets list the moves before the next hand.
    moving, from_table, token = off_the_browser_thread(lambda: _a_moved_player(event, director))
    second.wait_for_selector(f"[data-move='{moving}']")
    dealer.wait_for_selector(f"[data-move='{moving}']")  # pushed to the other tablet, no reload
    assert "The final table is drawn" in dealer.inner_text("#deal-table")

    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(f"{server.url}/p/{token}/")
    phone.wait_for_selector("[data-role=table]")
    assert phone.inner_text("[data-role=table]").strip() == str(from_table)  # not moved until confirmed

    console = _log_in(browser, server, director)
    console.goto(f"{server.url}/tournaments/{event}/")
    console.wait_for_selector(f"[data-entry='{moving}']")
    console.click("[data-action='confirm-plan']")
    console.wait_for_selector("[data-action='confirm-plan']", state="detached", timeout=10000)

    def seat_now():
        from tournaments.models import Tournament

        state = event_reads.tournament_state(Tournament.objects.get(pk=event))
        return state.entry(moving).table, state.entry(moving).seat

    table, seat = off_the_browser_thread(seat_now)
    # The moved player's phone shows the new table and seat, pushed without a reload.
    wait_until(phone, f"document.querySelector('[data-role=table]').textContent.trim() === '{table}' && "
                      f"document.querySelector('[data-role=seat-number]').textContent.trim() === '{seat}'", 15000)
    assert phone.query_selector("[data-role=moved]") is not None
