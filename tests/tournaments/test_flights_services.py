"""The qualifying series, the day's end and the Final Stage through the services (tournaments/services/flights.py,
CC-05..CC-10): what each command records, and what it refuses with nothing recorded."""

from __future__ import annotations

import pytest

from casino.audit import AuditEvent
from casino.rules.errors import RuleViolation
from tests.tournaments.conftest import act, register, register_numbered
from tournaments import services
from tournaments.models import TournamentEvent
from tournaments.reads import event as event_reads
from tournaments.services import flights as flight_services

pytestmark = pytest.mark.django_db(transaction=True)


def state_of(tournament):
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


def recorded(tournament) -> int:
    return TournamentEvent.objects.filter(tournament=tournament).count()


@pytest.fixture
def series_drawn(registering, director_dora, floor_fede):
    """Two series, each to level 1 or 2 qualifiers; eight players drawn into them (CC-06)."""
    act(flight_services.set_series, registering, director_dora, series=2, end_level=1, qualifiers=2)
    for i in range(5):
        register(registering, floor_fede, i)
    for number in range(6, 9):
        register_numbered(registering, floor_fede, number)
    act(flight_services.draw_series, registering, director_dora)
    return registering


def play_series_to_its_end(tournament, director, floor, series: int):
    act(flight_services.start_series, tournament, director, series=series)
    act(services.clock_command, tournament, director, kind="start")
    act(services.clock_command, tournament, director, kind="skip", step=1)  # level 2 begun: level 1 played out
    s = state_of(tournament)
    counts = {e.entry: e.stack for e in s.entries if e.status == "seated"}
    act(flight_services.end_day, tournament, floor, floor_counts=counts)
    return counts


def test_the_series_draw_is_recorded_with_its_seed_and_audited_CC_06(series_drawn):
    s = state_of(series_drawn)
    assert sorted(len(s.qualifying.entries_of(n)) for n in (1, 2)) == [4, 4]
    event = TournamentEvent.objects.get(tournament=series_drawn, type="series_assigned")
    assert event.data["how"] == "draw" and int(event.data["seed"]) >= 0
    assert AuditEvent.objects.filter(action="tournament.series_drawn").exists()


def test_a_player_does_not_choose_his_series_where_the_house_draws_them_CC_06(series_drawn, floor_fede):
    register_numbered(series_drawn, floor_fede, 9)
    before = recorded(series_drawn)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.choose_series, series_drawn, floor_fede, entry=9, series=2)
    assert refused.value.clause == "CC-06" and recorded(series_drawn) == before


def test_a_series_draws_only_its_own_players_and_a_late_registration_waits_CC_05(series_drawn, director_dora,
                                                                                  floor_fede):
    act(flight_services.start_series, series_drawn, director_dora, series=1)
    s = state_of(series_drawn)
    seated = {e.entry for e in s.entries if e.status == "seated"}
    assert seated == set(s.qualifying.entries_of(1))
    register_numbered(series_drawn, floor_fede, 9)
    assert state_of(series_drawn).entry(9).status == "registered"  # seated by its series, not at once


def test_the_day_does_not_end_before_its_last_level_is_played_CC_05(series_drawn, director_dora, floor_fede):
    act(flight_services.start_series, series_drawn, director_dora, series=1)
    act(services.clock_command, series_drawn, director_dora, kind="start")
    before = recorded(series_drawn)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.end_day, series_drawn, floor_fede, floor_counts={})
    assert refused.value.clause == "CC-05" and recorded(series_drawn) == before


def test_a_table_without_a_tablet_is_counted_by_the_floor_CC_09(series_drawn, director_dora, floor_fede):
    act(flight_services.start_series, series_drawn, director_dora, series=1)
    act(services.clock_command, series_drawn, director_dora, kind="start")
    act(services.clock_command, series_drawn, director_dora, kind="skip", step=1)
    before = recorded(series_drawn)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.end_day, series_drawn, floor_fede, floor_counts={})
    assert refused.value.clause == "CC-09" and refused.value.params["table"] == 1
    assert recorded(series_drawn) == before
    s = state_of(series_drawn)
    counts = {e.entry: 9_000 + 25 * e.entry for e in s.entries if e.status == "seated"}  # in 25s, CC-68
    act(flight_services.end_day, series_drawn, floor_fede, floor_counts=counts)
    s = state_of(series_drawn)
    assert {n: s.entry(n).stack for n in counts} == counts
    assert all(s.entry(n).status == "bagged" for n in counts) and s.tables == ()
    assert s.clock_events[-1].kind == "pause"  # the clock stops at the day's end
    day = TournamentEvent.objects.get(tournament=series_drawn, type="day_ended")
    assert day.data["why"] == "level" and day.data["level"] == 1 and len(day.data["digest"]) == 64
    assert AuditEvent.objects.filter(action="tournament.day_ended", details__sha256=day.data["digest"]).exists()


def test_the_direction_changes_a_series_with_a_reason_not_once_it_ended_CC_07(series_drawn, director_dora,
                                                                               floor_fede):
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.change_series, series_drawn, director_dora, series=2, end_level=3, qualifiers=None,
            reason="")
    assert refused.value.clause == "CC-07"
    act(flight_services.change_series, series_drawn, director_dora, series=2, end_level=3, qualifiers=3,
        reason="more players than expected")
    assert state_of(series_drawn).qualifying.get(2).end_level == 3
    play_series_to_its_end(series_drawn, director_dora, floor_fede, 1)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.change_series, series_drawn, director_dora, series=1, end_level=3, qualifiers=None,
            reason="too late")
    assert refused.value.clause == "CC-07"


@pytest.fixture
def qualifying_over(series_drawn, director_dora, floor_fede):
    play_series_to_its_end(series_drawn, director_dora, floor_fede, 1)
    play_series_to_its_end(series_drawn, director_dora, floor_fede, 2)
    return series_drawn


def test_the_final_stage_waits_for_the_prize_pool_then_starts_at_the_next_level_with_a_redraw_CC_08_CC_10(
        qualifying_over, director_dora):
    bagged = {e.entry: e.stack for e in state_of(qualifying_over).entries if e.status == "bagged"}
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.start_final_stage, qualifying_over, director_dora)
    assert refused.value.clause == "CC-14"
    act(services.close_registration, qualifying_over, director_dora)
    act(flight_services.start_final_stage, qualifying_over, director_dora)
    s = state_of(qualifying_over)
    stage = TournamentEvent.objects.get(tournament=qualifying_over, type="stage_started")
    assert stage.data["level"] == 2 and stage.data["step"] == 1  # CC-08: after level 1, where qualifying ended
    assert [(c.kind, c.step) for c in s.clock_events] == [("skip", 1)]
    assert {e.entry: e.stack for e in s.entries if e.status == "seated"} == bagged  # CC-10
    redraw = TournamentEvent.objects.filter(tournament=qualifying_over, type="seated", seq__gt=stage.seq)
    assert {e.data["why"] for e in redraw} == {"redraw"}


def test_a_qualifier_without_his_receipt_is_penalised_as_the_house_says_but_plays_CC_09(qualifying_over,
                                                                                       director_dora, floor_fede):
    act(services.change_setup, qualifying_over, director_dora, options={
        **state_of(qualifying_over).setup.options.as_dict(), "missing_receipt_penalty_hands": 2},
        reason="house rule")
    act(services.close_registration, qualifying_over, director_dora)
    act(flight_services.start_final_stage, qualifying_over, director_dora)
    s = state_of(qualifying_over)
    one, two = sorted(e.entry for e in s.entries if e.status == "seated")[:2]
    before = recorded(qualifying_over)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.check_in, qualifying_over, floor_fede, entry=one, receipt=s.qualifying.bag_of(two).receipt)
    assert refused.value.clause == "CC-09" and recorded(qualifying_over) == before
    act(flight_services.check_in, qualifying_over, floor_fede, entry=one, receipt=s.qualifying.bag_of(one).receipt)
    act(flight_services.check_in, qualifying_over, floor_fede, entry=two, receipt="")
    s = state_of(qualifying_over)
    assert [(p.entry, p.kind, p.hands) for p in s.penalties] == [(two, "hands", 2)]
    assert s.entry(two).status == "seated"  # he keeps his right to play
    with pytest.raises(RuleViolation):
        act(flight_services.check_in, qualifying_over, floor_fede, entry=one, receipt="")  # once


def test_an_event_with_series_is_not_started_as_one_draw_of_everyone_CC_05(series_drawn, director_dora):
    before = recorded(series_drawn)
    with pytest.raises(RuleViolation) as refused:
        act(services.start_tournament, series_drawn, director_dora)
    assert refused.value.clause == "CC-05" and recorded(series_drawn) == before


def test_a_player_busted_in_one_series_reenters_another_where_the_house_allows_it_CC_06(
        registering, director_dora, floor_fede):
    act(services.change_setup, registering, director_dora, options={
        **state_of(registering).setup.options.as_dict(), "reentry_allowed": True}, reason="re-entry on")
    act(flight_services.set_series, registering, director_dora, series=2, end_level=1, qualifiers=1, choice=True)
    for i in range(4):
        register(registering, floor_fede, i)
    for entry, series in ((1, 1), (2, 1), (3, 2), (4, 2)):
        act(flight_services.choose_series, registering, floor_fede, entry=entry, series=series)
    act(flight_services.start_series, registering, director_dora, series=1)
    act(services.clock_command, registering, director_dora, kind="start")
    s = state_of(registering)
    loser = s.entry(1)
    act(services.record_bust, registering, floor_fede, table=loser.table, seat=loser.seat)
    again = register(registering, floor_fede, 0)  # the same player, his document again
    assert again.entry == 5 and state_of(registering).entry(5).reentry_of == 1
    with pytest.raises(RuleViolation):  # not into the series he busted in: it is playing... he may, as a late entry
        act(flight_services.choose_series, registering, floor_fede, entry=5, series=7)
    act(flight_services.choose_series, registering, floor_fede, entry=5, series=2)
    s = state_of(registering)
    assert s.qualifying.series_of(5) == 2 and s.entry(5).status == "registered"  # waits for series 2


def test_a_series_down_to_its_announced_qualifiers_ends_before_its_last_level_CC_05(
        registering, director_dora, floor_fede):
    act(flight_services.set_series, registering, director_dora, series=2, end_level=3, qualifiers=3)
    for i in range(5):
        register(registering, floor_fede, i)
    for number in range(6, 9):
        register_numbered(registering, floor_fede, number)
    act(flight_services.draw_series, registering, director_dora)
    act(flight_services.start_series, registering, director_dora, series=1)
    act(services.clock_command, registering, director_dora, kind="start")
    s = state_of(registering)
    counts = {e.entry: e.stack for e in s.entries if e.status == "seated"}
    before = recorded(registering)
    with pytest.raises(RuleViolation):  # four left of three qualifiers, level 1 of 3: it plays on
        act(flight_services.end_day, registering, floor_fede, floor_counts=counts)
    assert recorded(registering) == before
    loser = s.entry(min(counts))
    act(services.record_bust, registering, floor_fede, table=loser.table, seat=loser.seat)
    del counts[loser.entry]
    act(flight_services.end_day, registering, floor_fede, floor_counts=counts)
    day = TournamentEvent.objects.get(tournament=registering, type="day_ended")
    assert day.data["why"] == "qualifiers" and day.data["level"] == 1 and len(day.data["bags"]) == 3


def test_the_flights_page_offers_the_final_stage_then_the_check_in(qualifying_over, director_dora, floor_fede):
    from django.urls import reverse

    from tests.tournaments.conftest import english_client

    page = reverse("tournaments:flights", args=[qualifying_over.pk])
    html = english_client(director_dora).get(page).content.decode()
    assert 'id="final-stage"' in html and "It starts at level 2" in html and "Close registration first" in html
    act(services.close_registration, qualifying_over, director_dora)
    act(flight_services.start_final_stage, qualifying_over, director_dora)
    html = english_client(floor_fede).get(page).content.decode()
    assert 'id="check-in"' in html and "not yet" in html and 'id="final-stage"' not in html
