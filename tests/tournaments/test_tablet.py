"""The dealer's tablet at a tournament table, over HTTP (issue #15): the page, each tap, refusals that
name their clause and never a 500, and who may open it."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import hand_in_play, to_act
from tournaments import services
from tournaments.reads import hands as hand_reads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running(event_in_play):
    """The event of the dealing tests (tests/tournaments/conftest.py): four players at one table."""
    return event_in_play


@pytest.fixture
def number(first_table):
    return first_table.number


def tap(client, tournament, number, action, **fields):
    table = hand_reads.dealt_table(tournament, number)
    data = {"version": table.version, "key": uuid.uuid4().hex, **fields}
    return client.post(f"/tournaments/{tournament.pk}/tables/{number}/deal/{action}/", data, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="en")


def test_the_dealer_opens_the_tablet_and_sees_the_table_and_the_level(client, running, number, dealer_dana_here):
    client.force_login(dealer_dana_here)
    page = client.get(f"/tournaments/{running.pk}/tables/{number}/deal/", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert page.status_code == 200 and "Pia Paz" in body and "25/50" in body and 'data-action="new-hand"' in body
    assert f'ws-connect="/ws/tournaments/{running.pk}/tables/{number}/deal/"' in body


def test_a_hand_is_played_from_the_tablet_tap_by_tap(client, running, number, dealer_dana_here):
    client.force_login(dealer_dana_here)
    response = tap(client, running, number, "new-hand")
    assert response.status_code == 200 and 'data-step="betting"' in response.content.decode()
    table = hand_reads.dealt_table(running, number)
    seat = to_act(table)
    response = tap(client, running, number, "call", seat=seat)
    assert response.status_code == 200
    assert [r.record["action"] for r in hand_reads.effective_rows(hand_in_play(table))][-1] == "call"


def test_the_tablet_offers_to_kill_an_absent_players_hand_until_the_first_action_TDA_30(
    client, running, number, dealer_dana_here
):
    client.force_login(dealer_dana_here)
    dealt = tap(client, running, number, "new-hand").content.decode()
    assert dealt.count('data-action="kill-hand"') == 4  # every seat dealt in, before anyone acts
    table = hand_reads.dealt_table(running, number)
    absent = to_act(table)
    killed = tap(client, running, number, "kill-hand", seat=absent).content.decode()
    assert re.search(rf'<tr data-seat="{absent}"[^>]*>(?:(?!</tr>).)*Dead hand', killed, re.S)
    played = tap(client, running, number, "fold", seat=to_act(table)).content.decode()
    assert 'data-action="kill-hand"' not in played


def test_an_illegal_raise_is_refused_with_its_clause_and_nothing_recorded(client, running, number, dealer_dana_here):
    client.force_login(dealer_dana_here)
    tap(client, running, number, "new-hand")
    table = hand_reads.dealt_table(running, number)
    rows = hand_in_play(table).actions.count()
    response = tap(client, running, number, "raise", seat=to_act(table), to=60)
    assert response.status_code == 422 and "TDA-" in response.content.decode()
    assert hand_in_play(table).actions.count() == rows


@pytest.mark.parametrize(("action", "fields", "says"), [
    ("raise", {"seat": "x", "to": 100}, "seat"),
    ("raise", {"seat": 1, "to": "lots"}, "amount"),
    ("flop", {"cards": "2c 7d"}, "Enter 3 cards"),
])
def test_bad_input_says_what_is_wrong_and_is_never_a_500(client, running, number, dealer_dana_here, action, fields,
                                                         says):
    client.force_login(dealer_dana_here)
    tap(client, running, number, "new-hand")
    response = tap(client, running, number, action, **fields)
    assert response.status_code == 400 and says in response.content.decode()


def test_a_player_cannot_open_a_tablet(client, running, number, django_user_model):
    client.force_login(django_user_model.objects.create_user("walter", password="x"))
    response = client.get(f"/tournaments/{running.pk}/tables/{number}/deal/")
    assert response.status_code in (302, 403)
    response = tap(client, running, number, "new-hand")
    assert response.status_code in (302, 403)
    assert hand_in_play(hand_reads.dealt_table(running, number)) is None


def test_a_table_not_in_play_is_not_found(client, running, dealer_dana_here):
    client.force_login(dealer_dana_here)
    assert client.get(f"/tournaments/{running.pk}/tables/99/deal/").status_code == 404
    # numbers no table or event can have: not found, never a database error
    for event, table in ((running.pk, 10**6), (running.pk, 0), (10**20, 1), (running.pk + 1, 1)):
        assert client.get(f"/tournaments/{event}/tables/{table}/deal/").status_code == 404
    assert client.post(f"/tournaments/{10**20}/tables/{10**20}/deal/fold/", {"seat": 1}).status_code == 404


def test_where_the_house_follows_the_tda_the_tablet_offers_to_table_a_mucked_hand_TDA_14(
    client, running, number, dealer_dana_here, director_dora
):
    act(services.change_setup, running, director_dora, reason="TDA-14", options={"mucked_hand_recoverable": True})
    client.force_login(dealer_dana_here)
    tap(client, running, number, "new-hand")
    table = hand_reads.dealt_table(running, number)
    while (legal := hand_reads.hand_state(hand_in_play(table)).legal()) is not None:  # everyone calls, the BB checks
        tap(client, running, number, "check" if legal.check else "call", seat=legal.seat)
    for street, cards in (("flop", "2c 7d 9h"), ("turn", "Js"), ("river", "Kc")):
        while (legal := hand_reads.hand_state(hand_in_play(table)).legal()) is not None:
            tap(client, running, number, "check", seat=legal.seat)
        tap(client, running, number, street, cards=cards)
    while (legal := hand_reads.hand_state(hand_in_play(table)).legal()) is not None:
        tap(client, running, number, "check", seat=legal.seat)
    order = hand_reads.hand_state(hand_in_play(table)).showdown_order()
    tap(client, running, number, "show", seat=order[0], cards="As Ad")
    answer = tap(client, running, number, "muck", seat=order[1]).content.decode()
    assert 'data-step="recover"' in answer and f'name="seat" value="{order[1]}"' in answer
    tap(client, running, number, "show", seat=order[1], cards="Kh Kd")  # three kings, ruled live
    engine = hand_reads.hand_state(hand_in_play(table))
    assert engine.shown[engine.seats.index(order[1])]


def test_between_hands_the_tablet_offers_to_undo_the_award_until_the_next_deal_C_15(client, running, number,
                                                                                    dealer_dana_here):
    client.force_login(dealer_dana_here)
    tap(client, running, number, "new-hand")
    table = hand_reads.dealt_table(running, number)
    while (seat := to_act(table)) is not None:
        tap(client, running, number, "fold", seat=seat)
    awarded = tap(client, running, number, "award-pots").content.decode()
    assert 'data-action="undo-award"' in awarded
    undone = tap(client, running, number, "undo", reason="the pot went to the wrong seat")
    assert undone.status_code == 200 and 'data-step="award"' in undone.content.decode()
    tap(client, running, number, "award-pots")
    dealt = tap(client, running, number, "new-hand").content.decode()
    assert 'data-action="undo-award"' not in dealt


def test_the_tablet_names_its_players_from_what_the_process_read_of_them_once(
    client, running, number, dealer_dana_here
):
    """A name is taken at registration and never changes: the render of each tap's version does not ask for
    the nine names again (else a query a tap)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from casino.memo import clear_all
    from tournaments.rendering import tablet

    client.force_login(dealer_dana_here)
    assert tap(client, running, number, "new-hand").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        answer = tap(client, running, number, "call", seat=to_act(hand_reads.dealt_table(running, number)))
    assert answer.status_code == 200 and "Pia Paz" in answer.content.decode()
    assert not [q for q in queries.captured_queries if '"tournaments_entry"."player_name"' in q["sql"]]
    # the event's row read once for the render, its name and version only (nothing deferred read after)
    event_reads = [q["sql"] for q in queries.captured_queries if 'FROM "tournaments_tournament"' in q["sql"]]
    assert len(event_reads) == 1 and '"tournaments_tournament"."structure"' not in event_reads[0]
    clear_all()  # another process, or a restart: it reads them again
    assert "Pia Paz" in tablet.tablet_fragment(hand_reads.dealt_table(running, number))


def test_the_tablets_tap_urls_are_djangos_reversed_once_per_script_prefix():
    from django.urls import get_script_prefix, reverse, set_script_prefix

    from tournaments.templatetags.tournament_console import tablet_act_url

    for action in ("fold", "call", "new-hand", "award-pots", "clock-ran-out"):
        assert tablet_act_url(7, 3, action) == reverse("tournaments:tablet_act", args=[7, 3, action])
    before = get_script_prefix()
    set_script_prefix("/casino/")  # served under a path of its own (FORCE_SCRIPT_NAME)
    try:
        assert tablet_act_url(7, 3, "fold") == "/casino/tournaments/7/tables/3/deal/fold/"
    finally:
        set_script_prefix(before)
    assert tablet_act_url(7, 3, "fold") == "/tournaments/7/tables/3/deal/fold/"


def test_the_keypads_limits_are_digits_the_browser_reads_back_whatever_the_houses_number_format(
    client, running, number, dealer_dana_here, settings
):
    """The form fields carry numbers for the browser (min, max, value of the keypad): never grouped, even where
    the house groups its amounts (USE_THOUSAND_SEPARATOR); the amounts shown are grouped by |chips."""
    import re

    settings.USE_THOUSAND_SEPARATOR = True
    client.force_login(dealer_dana_here)
    page = tap(client, running, number, "new-hand").content.decode()
    keypad = re.search(r'<input name="to"[^>]*>', page).group(0)
    limits = dict(re.findall(r'(min|max|value)="([^"]*)"', keypad))
    assert set(limits) == {"min", "max", "value"} and all(v.isdigit() for v in limits.values()), keypad
    assert int(limits["max"]) > 1_000 and "10,000" in page  # the stacks, through |chips


def test_a_stale_tap_is_refused_and_told_what_was_recorded_since_its_screen(client, running, number, dealer_dana_here,
                                                                            floor_fede):
    """Issue #35: the 409 of a tap made on a screen another's tap has moved past names what that tap recorded,
    in order, instead of a bare "the event changed"; the late tap records nothing."""
    from django.test import Client

    client.force_login(dealer_dana_here)
    tap(client, running, number, "new-hand")
    table = hand_reads.dealt_table(running, number)
    shown, raiser = table.version, to_act(table)
    floor = Client()
    floor.force_login(floor_fede)
    assert tap(floor, running, number, "raise", seat=raiser, to=100).status_code == 200
    folder = to_act(hand_reads.dealt_table(running, number))
    assert tap(floor, running, number, "fold", seat=folder).status_code == 200
    recorded = [r.pk for r in hand_reads.effective_rows(hand_in_play(table))]

    late = client.post(f"/tournaments/{running.pk}/tables/{number}/deal/call/",
                       {"version": shown, "key": uuid.uuid4().hex, "seat": raiser}, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="en")

    body = late.content.decode()
    assert late.status_code == 409
    assert f"Seat {raiser} raised to 100. Seat {folder} folded." in body
    assert [r.pk for r in hand_reads.effective_rows(hand_in_play(table))] == recorded


def test_a_stale_tap_is_told_of_a_new_hand_and_of_the_directors_steps(client, running, number, dealer_dana_here,
                                                                       floor_fede):
    from django.test import Client

    client.force_login(dealer_dana_here)
    shown = hand_reads.dealt_table(running, number).version
    floor = Client()
    floor.force_login(floor_fede)
    assert tap(floor, running, number, "new-hand").status_code == 200
    assert tap(floor, running, number, "call-clock").status_code == 200

    late = client.post(f"/tournaments/{running.pk}/tables/{number}/deal/new-hand/",
                       {"version": shown, "key": uuid.uuid4().hex}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")

    assert late.status_code == 409
    assert "Hand 1 was dealt. The clock was called." in late.content.decode()
