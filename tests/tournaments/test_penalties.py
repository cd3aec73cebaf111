"""Penalties at the dealt tables (issue #15; TDA-71, CC-45/46): the director or the floor gives one from the
console, the tablet kills the player's hands by itself until they are served, and the player's phone says so."""

from __future__ import annotations

import uuid

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.holdem.replay import replay_holdem_hand
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, state, to_act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.rendering import phone as phone_screen
from tournaments.rendering import tablet
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def fold_it_out(table, dealer) -> dict:
    """Everyone folds in turn to the last live hand, the dealer awards the pot; the hand's event line."""
    while (seat := to_act(table)) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": seat})
    at(table, dealing.act, dealer, record={"action": "award-pots"})
    hand = hand_in_play(table)
    return event_reads.tournament_record(hand.table.tournament)[hand.reported_seq - 1]


def seat_of(tournament, entry: int) -> int:
    return state(tournament).entry(entry).seat


def test_a_round_is_a_hand_for_each_player_at_the_table_and_the_tablet_kills_them_TDA_71_A_D(
    event_in_play, first_table, dealer_dana_here, director_dora
):
    offender = state(event_in_play).entries[0].entry
    act(services.give_penalty, event_in_play, director_dora, entry=offender, kind="rounds", count=1,
        infraction="throwing_cards", reason="cards flung at the dealer")
    given = state(event_in_play).penalties[-1]
    assert (given.hands, given.rounds, given.infraction) == (4, 1, "throwing_cards")  # four players at the table
    assert AuditEvent.objects.filter(action="tournament.penalty", details__entry=offender).exists()
    seat = seat_of(event_in_play, offender)
    for served in range(1, 5):
        at(first_table, dealing.start_hand, dealer_dana_here)
        hand = hand_in_play(first_table)
        engine = hand_reads.hand_state(hand)
        # dealt in and posted, the hand dead at the end of the deal: never asked to act
        assert seat in engine.setup.stacks and engine.folded[engine.seats.index(seat)]
        assert hand.level["penalised"] == [seat]
        line = fold_it_out(first_table, dealer_dana_here)
        assert next(p for p in line["players"] if p["seat"] == seat)["penalty"] is True
        assert state(event_in_play).penalties[-1].served == served
        # the hand line replays the dead hand to the recorded stacks
        replayed = replay_holdem_hand(hand_reads.hand_line(hand_in_play(first_table)))
        assert {int(s): c for s, c in replayed["stacks"].items()} == {p["seat"]: p["end"] for p in line["players"]}
    assert state(event_in_play).penalty_hands_left(offender) == 0
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert "penalised" not in hand_in_play(first_table).level  # served: dealt a live hand again


def test_a_penalty_given_during_a_hand_is_served_from_the_next_TDA_68(event_in_play, first_table, dealer_dana_here,
                                                                       floor_fede):
    at(first_table, dealing.start_hand, dealer_dana_here)
    offender_seat = to_act(first_table)
    offender = state(event_in_play).table(first_table.number).occupied()[offender_seat]
    act(services.give_penalty, event_in_play, floor_fede, entry=offender, kind="hands", count=1,
        infraction="exposing_cards")
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": offender_seat})  # still live
    line = fold_it_out(first_table, dealer_dana_here)
    assert not any(p.get("penalty") for p in line["players"])
    assert state(event_in_play).penalty_hands_left(offender) == 1
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert hand_in_play(first_table).level["penalised"] == [offender_seat]


def test_the_dealer_cannot_undo_a_penalty_kill_TDA_71_D(event_in_play, first_table, dealer_dana_here, director_dora):
    offender = state(event_in_play).entries[1].entry
    act(services.give_penalty, event_in_play, director_dora, entry=offender, kind="hands", count=2,
        infraction="delay")
    at(first_table, dealing.start_hand, dealer_dana_here)
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.undo_last, dealer_dana_here, reason="he is back")
    assert refused.value.clause == "TDA-71-D"
    first_table.refresh_from_db()
    assert '<div class="undo-last" hidden>' in tablet.tablet_fragment(first_table)  # nor offered on the tablet
    assert hand_reads.hand_state(hand_in_play(first_table)).folded[
        hand_reads.hand_state(hand_in_play(first_table)).seats.index(seat_of(event_in_play, offender))]


def test_the_director_ends_a_penalty_and_the_next_hand_is_live_CC_46(event_in_play, first_table, dealer_dana_here,
                                                                      director_dora):
    offender = state(event_in_play).entries[2].entry
    act(services.give_penalty, event_in_play, director_dora, entry=offender, kind="hands", count=5,
        infraction="etiquette")
    with pytest.raises(RuleViolation, match="Say why"):
        act(services.end_penalty, event_in_play, director_dora, entry=offender, reason=" ")
    act(services.end_penalty, event_in_play, director_dora, entry=offender, reason="apologised to the table")
    assert state(event_in_play).penalty_hands_left(offender) == 0
    with pytest.raises(RuleViolation, match="serving no penalty"):
        act(services.end_penalty, event_in_play, director_dora, entry=offender, reason="again")
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert "penalised" not in hand_in_play(first_table).level


def test_a_warning_is_recorded_and_serves_no_hand_CC_45(event_in_play, first_table, dealer_dana_here, floor_fede):
    offender = state(event_in_play).entries[0].entry
    act(services.give_penalty, event_in_play, floor_fede, entry=offender, kind="warning", infraction="delay")
    assert state(event_in_play).penalties[-1].kind == "warning"
    assert event_reads.tournament_record(event_in_play)[-1]["type"] == "penalty"
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert "penalised" not in hand_in_play(first_table).level


def test_a_dealer_gives_no_penalty(event_in_play, dealer_dana_here):
    from casino.writes import NotAllowed

    with pytest.raises(NotAllowed):
        act(services.give_penalty, event_in_play, dealer_dana_here, entry=state(event_in_play).entries[0].entry,
            kind="warning", infraction="delay")


def test_the_tablet_and_the_players_phone_say_how_many_hands_are_left(event_in_play, first_table, dealer_dana_here,
                                                                      director_dora):
    from django.utils import translation

    offender = state(event_in_play).entries[3].entry
    act(services.give_penalty, event_in_play, director_dora, entry=offender, kind="hands", count=3,
        infraction="communication_device")
    at(first_table, dealing.start_hand, dealer_dana_here)
    first_table.refresh_from_db()
    with translation.override("en"):
        html = tablet.tablet_fragment(first_table)
        assert "Dead hand: penalty (TDA-71-D)" in html and "Penalty: 3 hands to sit out" in html
        event_in_play.refresh_from_db()
        phone = phone_screen.phone_view(event_reads.board_at(event_in_play), offender)
        assert "Penalty: you sit out 3 hands" in phone
        other = state(event_in_play).entries[0].entry
        assert "Penalty" not in phone_screen.phone_view(event_reads.board_at(event_in_play), other)


def console_post(client, tournament, action, **fields):
    tournament.refresh_from_db()
    return client.post(f"/tournaments/{tournament.pk}/act/{action}/",
                       {"version": tournament.version, "key": uuid.uuid4().hex, **fields}, HTTP_ACCEPT_LANGUAGE="en")


def test_the_floor_gives_and_ends_a_penalty_from_the_tables_page(client, event_in_play, first_table, floor_fede):
    client.force_login(floor_fede)
    offender = state(event_in_play).entries[0].entry
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and 'data-action="penalty"' in page.content.decode()
    response = console_post(client, event_in_play, "penalty", table=first_table.number, entry=offender,
                            kind="rounds", count=2, infraction="delay", reason="")
    assert response.status_code == 302 and "X-Refused" not in response
    assert state(event_in_play).penalty_hands_left(offender) == 8
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "0 of 8 hands served" in page.content.decode()
    response = console_post(client, event_in_play, "end-penalty", table=first_table.number, entry=offender,
                            reason="the TD's ruling")
    assert response.status_code == 302 and state(event_in_play).penalty_hands_left(offender) == 0


@pytest.mark.parametrize("fields, says", [
    ({"kind": "rounds", "count": "two", "infraction": "delay"}, "must be a whole number"),
    ({"kind": "rounds", "count": "9", "infraction": "delay"}, "1 to 4 rounds"),
    ({"kind": "months", "count": "1", "infraction": "delay"}, "Choose one of the options"),
    ({"kind": "hands", "count": "1", "infraction": "jaywalking"}, "Choose one of the options"),
    ({"kind": "hands", "count": "1", "infraction": "other"}, "Say what the player did"),
])
def test_a_bad_penalty_form_says_what_is_wrong_and_records_nothing(client, event_in_play, first_table, director_dora,
                                                                   fields, says):
    client.force_login(director_dora)
    before = len(event_reads.tournament_record(event_in_play))
    response = console_post(client, event_in_play, "penalty", table=first_table.number,
                            entry=state(event_in_play).entries[0].entry, **fields)
    assert response.status_code == 302 and response["X-Refused"] in ("400", "422")  # back to the page, refused
    shown = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert says in shown
    assert len(event_reads.tournament_record(event_in_play)) == before
