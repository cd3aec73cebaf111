"""A tournament player's phone at 390x844, in Debian's chromium (issue #38's edges, item 2): at his turn it counts
his time to act down (CC-114, C-04); his act out of turn shows on his phone while it waits at his seat (TDA-53-A),
then what it leaves him at his turn (CC-134, C-08); another player's phone at the table shows none of it."""

import os
import uuid

import pytest

from casino import player_links
from tests.browser.conftest import off_the_browser_thread, wait_until
from tests.browser.test_tournament_phone_hand import DRAWN, _phone, _tap
from tests.tournaments.conftest import (  # noqa: F401 - fixtures
    act,
    director_dora,
    floor_fede,
    register,
    registering,
    sunday_event,
)
from tournaments import services
from tournaments.models import Entry
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def quick_passwords():
    """The real hashers: nobody logs in here, but the fixtures' staff are made with them as elsewhere."""


def _three_handed(tournament, director, floor, dealer):
    """Three players drawn at one table, a hand dealt: the seat in turn, the next one, and each one's phone link."""
    for i in range(3):
        register(tournament, floor, i)
    act(services.start_tournament, tournament, director)
    act(services.clock_command, tournament, director, kind="start")
    tournament.refresh_from_db()
    (seats,) = event_reads.tournament_state(tournament).tables
    table = hand_reads.dealt_table(tournament, seats.table)
    dealing.assign_dealer(table=table, by=floor, key=uuid.uuid4().hex, expected_version=table.version, dealer=dealer)
    _tap(table, dealing.start_hand, dealer)
    hand = hand_reads.latest_hand(table)
    state = hand_reads.hand_state(hand)
    in_turn = state.to_act
    later = state.call(in_turn).to_act
    links = {}
    for seat in (in_turn, later):
        entry = Entry.objects.get(tournament=tournament, number=hand.entries[str(seat)])
        links[seat] = player_links.url_for(services.issue_entry_link(entry, by=director))
    return table, in_turn, later, links


def _drawn(page) -> str:
    return page.inner_text(DRAWN) if page.query_selector(DRAWN) else ""


def test_his_phone_counts_his_time_to_act_and_shows_his_act_out_of_turn_and_its_ruling_to_him_alone_CC_114_TDA_53(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    table, in_turn, later, links = off_the_browser_thread(
        lambda: _three_handed(registering, director_dora, floor_fede, dealer_dana))
    errors, frames = [], []
    first = _phone(browser, server, links[in_turn], "en-GB", frames)
    second = _phone(browser, server, links[later], "en-GB", frames)
    for page in (first, second):
        page.set_viewport_size(PHONE)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    first.wait_for_selector(DRAWN, timeout=10000)
    second.wait_for_selector(DRAWN, timeout=10000)

    # His turn: his time to act counts down from 60 (CC-114, C-04); the next player's phone has no timer.
    first.wait_for_selector(f"{DRAWN} [data-role='act-time']", timeout=10000)
    left = int(first.inner_text(f"{DRAWN} [data-act-left]"))
    assert 50 <= left <= 60
    first.wait_for_timeout(2100)
    assert int(first.inner_text(f"{DRAWN} [data-act-left]")) < left  # counted down on the phone, no push
    assert "Your turn" in _drawn(first) and "Time to act (CC-114)" in _drawn(first)
    assert second.query_selector(f"{DRAWN} [data-role='act-time']") is None
    first.screenshot(path=os.path.join(screenshots, "tournament-phone-time-to-act-390.png"), full_page=True)

    # The next player calls out of turn (TDA-53-A): his phone says it waits at his seat; the player in turn's
    # phone does not show another seat's act.
    off_the_browser_thread(lambda: _tap(table, dealing.act, dealer_dana,
                                        record={"action": "out-of-turn", "seat": later, "act": "call"}))
    second.wait_for_selector(f"{DRAWN} [data-role='out-of-turn']", timeout=10000)
    assert "You acted out of turn (call)" in _drawn(second)
    second.screenshot(path=os.path.join(screenshots, "tournament-phone-out-of-turn-waiting-390.png"), full_page=True)
    first.wait_for_timeout(500)
    assert first.query_selector(f"{DRAWN} [data-role='out-of-turn']") is None
    assert "Your turn" in _drawn(first)

    # The player in turn raises: the action changed, the call out of turn leaves him call or fold (CC-134, C-08),
    # on his phone, at his turn, with his own time to act.
    off_the_browser_thread(lambda: _tap(table, dealing.act, dealer_dana,
                                        record={"action": "raise", "seat": in_turn, "to": 150}))
    second.wait_for_selector(f"{DRAWN} [data-role='ruling']", timeout=10000)
    ruled = _drawn(second)
    assert "Your turn" in ruled and "you call or fold, no raise (CC-134, C-08)" in ruled and "(call)" in ruled
    assert second.query_selector(f"{DRAWN} [data-role='out-of-turn']") is None
    assert second.query_selector(f"{DRAWN} [data-role='act-time']") is not None
    second.screenshot(path=os.path.join(screenshots, "tournament-phone-out-of-turn-ruled-390.png"), full_page=True)
    wait_until(first, f"!document.querySelector(\"{DRAWN} [data-role='act-time']\")", 10000)
    assert first.query_selector(f"{DRAWN} [data-role='ruling']") is None and "Your turn" not in _drawn(first)
    # nothing runs off the phone's side
    for page in (first, second):
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert errors == []
