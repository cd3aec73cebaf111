"""A tournament player's phone draws its own part of the hand at its table (issue #35): each tap there sends
every phone at the table the same public summary, no card and no entry in it; the phone's script draws its
seat's stack, whose turn and the clock called on it, in the words of its page's language (C-04, C-33), and
keeps them through each pushed fragment. A revoked link gets the goodbye and nothing of the next tap."""

import json
import os
import re
import uuid

import pytest
from django.db import transaction
from django.utils import translation

from casino import player_links
from tests.browser.conftest import PHONE, off_the_browser_thread, wait_until
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
from tournaments.templatetags.tournament_display import chips

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAWN = "#player-view [data-role='hand-drawn']"


@pytest.fixture
def quick_passwords():
    """The real hashers: nobody logs in here, but the fixtures' staff are made with them as elsewhere."""


def _tap(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def _heads_up_hand(tournament, director, floor, dealer):
    """Two players drawn at one table, the clock running, a hand dealt: each player's phone link, the seat
    in turn first."""
    for i in range(2):
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
    (other,) = [int(seat) for seat in hand.entries if int(seat) != in_turn]
    links = {}
    for seat in (in_turn, other):
        entry = Entry.objects.get(tournament=tournament, number=hand.entries[str(seat)])
        links[seat] = player_links.url_for(services.issue_entry_link(entry, by=director))
    return table, in_turn, other, links, dict(state.stacks)


def _phone(browser, server, path: str, locale: str, frames: list):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale).new_page()
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(server.url + path)
    wait_until(page, "window.htmx && document.querySelector('[ws-connect]')")
    return page


def test_each_phone_draws_its_own_stack_whose_turn_and_the_clock_called_on_it_in_its_language_C_04_C_33(
    daphne_servers, registering, director_dora, floor_fede, dealer_dana, screenshots, browser  # noqa: F811
):
    (server,) = daphne_servers(1)
    table, in_turn, other, links, stacks = off_the_browser_thread(
        lambda: _heads_up_hand(registering, director_dora, floor_fede, dealer_dana))
    with translation.override("en"):
        in_turn_stack = chips(stacks[in_turn])
    with translation.override("es"):
        other_stack = chips(stacks[other])
    errors, mine, theirs = [], [], []
    english = _phone(browser, server, links[in_turn], "en-GB", mine)
    spanish = _phone(browser, server, links[other], "es-ES", theirs)
    for page in (english, spanish):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # On connecting, each phone is sent its table's summary after its fragment and draws its own seat's part.
    english.wait_for_selector(DRAWN, timeout=10000)
    spanish.wait_for_selector(DRAWN, timeout=10000)
    drawn = english.inner_text(DRAWN)
    assert "Hand 1" in drawn and "Pre-flop" in drawn and "Your turn" in drawn
    assert english.inner_text(f"{DRAWN} [data-role='stack']") == in_turn_stack
    seen = spanish.inner_text(DRAWN)
    assert "Mano 1" in seen and "Preflop" in seen and f"Habla el asiento {in_turn}" in seen
    assert spanish.inner_text(f"{DRAWN} [data-role='stack']") == other_stack and "Le toca a usted" not in seen

    # The clock called on the player in turn (C-04): counted down on their phone alone.
    off_the_browser_thread(lambda: _tap(table, dealing.call_clock, dealer_dana))
    english.wait_for_selector(f"{DRAWN} [data-role='clock']", timeout=10000)
    english.wait_for_timeout(1300)
    assert int(english.inner_text(f"{DRAWN} [data-clock-left]")) <= 29
    assert "The clock is called on you" in english.inner_text(DRAWN)
    assert spanish.query_selector(f"{DRAWN} [data-role='clock']") is None
    english.screenshot(path=os.path.join(screenshots, "tournament-phone-clock-called.png"), full_page=True)

    # The same bytes reach both phones, and nothing private: no entry, no card.
    summaries = lambda frames: [f for f in frames if isinstance(f, str) and f.startswith("{")]  # noqa: E731
    assert summaries(mine)[-1] == summaries(theirs)[-1]
    for frame in summaries(mine) + summaries(theirs):
        assert "entries" not in json.loads(frame)["table_summary"]
        assert not re.search(r"\b[2-9TJQKA][cdhs]\b", frame)

    # A revoked link: the goodbye, and nothing of the next tap at the table.
    def revoke():
        with transaction.atomic():
            services.revoke_entry_links(Entry.objects.get(
                tournament=registering, number=hand_reads.latest_hand(table).entries[str(other)]), by=director_dora)

    off_the_browser_thread(revoke)
    spanish.wait_for_selector("[data-access-ended]", timeout=10000)
    received = len(theirs)

    # The player in turn folds: no longer their turn, and no clock.
    off_the_browser_thread(lambda: _tap(table, dealing.act, dealer_dana, record={"action": "fold", "seat": in_turn}))
    wait_until(english, f"!document.querySelector(\"{DRAWN} [data-role='clock']\")", 10000)
    assert "Your turn" not in english.inner_text(DRAWN)
    # The dealer pushes the pot: the hand is over; drawn again over the event's next push (the clock paused).
    off_the_browser_thread(lambda: _tap(table, dealing.act, dealer_dana, record={"action": "award-pots"}))
    wait_until(english, f"document.querySelector(\"{DRAWN}\") && "
                        f"document.querySelector(\"{DRAWN}\").innerText.includes('over')", 10000)
    version = english.get_attribute("#player-view", "data-version")
    english.evaluate(f"document.querySelector(\"{DRAWN}\").drawnBefore = true")
    off_the_browser_thread(lambda: act(services.clock_command, registering, director_dora, kind="pause"))
    wait_until(english, f"document.getElementById('player-view').dataset.version !== '{version}'", 10000)
    drawn = english.inner_text(DRAWN)
    assert "Hand 1 · over" in drawn and "Your turn" not in drawn
    # the same element: a push about something else leaves it (nothing announced again to a screen reader)
    assert english.evaluate(f"document.querySelector(\"{DRAWN}\").drawnBefore === true")
    english.screenshot(path=os.path.join(screenshots, "tournament-phone-hand-over.png"), full_page=True)
    assert len(theirs) == received and spanish.query_selector(DRAWN) is None
    assert errors == []
