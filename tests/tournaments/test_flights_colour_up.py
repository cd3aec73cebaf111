"""The colour-up between days (issue #37 item 3's leftovers; TDA-24-A, CC-68/69, CC-09, CC-10; docs/tournaments.md
"The colour-up between days"): a series that ends at the break where the house structure removes the 25s. By default
(``day_end_chip_race = "before_bagging"``) its chips are bagged only once each table's odd chips are raced, the bags
hold only chips still in play and the Final Stage carries them as they are, no race owed at the redraw; where the
house races at the next day's tables (``"next_day"``) the bags keep the odd chips and each redrawn table owes its race.
Chips are conserved: bagging and the redraw move none, a race only its odd chips."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from casino.rules.errors import RuleViolation
from casino.rules.tournament.chip_race import races_due
from tests.tournaments.conftest import act, register, register_numbered
from tournaments import services
from tournaments.models import TournamentEvent
from tournaments.reads import event as event_reads
from tournaments.services import flights as flight_services

pytestmark = pytest.mark.django_db(transaction=True)

#: The house default structure: level 8 is step 8; step 9 is the second break, which removes the 25s.
DAY_END_LEVEL, COLOUR_UP_BREAK = 8, 9
#: Four players' stacks in 25s, 40,000 chips in all (four starting stacks of 10,000).
ODD = (9_850, 10_175, 10_000, 9_975)


def state_of(tournament):
    tournament.refresh_from_db()
    return event_reads.tournament_state(tournament)


def recorded(tournament) -> int:
    return TournamentEvent.objects.filter(tournament=tournament).count()


def chips_of(tournament, status: str) -> dict[int, int]:
    return {e.entry: e.stack for e in state_of(tournament).entries if e.status == status}


def series_at_the_colour_up(tournament, director, floor, series: int) -> dict[int, int]:
    """The series started, its stacks counted in 25s, its clock at the break after its last level (8), which
    removes the 25s: the day may end (CC-05) and each table owes its race (TDA-24-A)."""
    act(flight_services.start_series, tournament, director, series=series)
    act(services.clock_command, tournament, director, kind="start")
    players = sorted(chips_of(tournament, "seated"))
    counts = dict(zip(players, ODD, strict=True))
    act(services.enter_chip_count, tournament, floor, counts=counts)
    act(services.clock_command, tournament, director, kind="skip", step=COLOUR_UP_BREAK)
    return counts


def race_every_table(tournament, floor) -> None:
    for t in state_of(tournament).tables:
        act(services.race_odd_chips, tournament, floor, table=t.table, rng=random.Random(37))


@pytest.fixture
def two_series(registering, director_dora, floor_fede):
    """Two series of four players, each to level 8 (the 25s' colour-up follows it) or 2 qualifiers."""
    act(flight_services.set_series, registering, director_dora, series=2, end_level=DAY_END_LEVEL, qualifiers=2)
    for i in range(5):
        register(registering, floor_fede, i)
    for number in range(6, 9):
        register_numbered(registering, floor_fede, number)
    act(flight_services.draw_series, registering, director_dora)
    return registering


@pytest.fixture
def raced_at_next_day(two_series, director_dora):
    act(services.change_setup, two_series, director_dora, options={
        **state_of(two_series).setup.options.as_dict(), "day_end_chip_race": "next_day"}, reason="house rule")
    return two_series


def test_tda24a_a_day_ending_at_a_colour_up_bags_only_once_its_tables_raced(two_series, director_dora, floor_fede):
    series_at_the_colour_up(two_series, director_dora, floor_fede, 1)
    assert races_due(state_of(two_series), timezone.now())  # the table owes its race
    before = recorded(two_series)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.end_day, two_series, floor_fede)
    assert refused.value.clause == "TDA-24-A" and recorded(two_series) == before  # nothing bagged

    race_every_table(two_series, floor_fede)
    raced = chips_of(two_series, "seated")
    act(flight_services.end_day, two_series, floor_fede, floor_counts=raced)
    (ended,) = TournamentEvent.objects.filter(tournament=two_series, type="day_ended")
    assert ended.data["level"] == DAY_END_LEVEL and ended.data["why"] == "level"
    bags = {b["entry"]: b["chips"] for b in ended.data["bags"]}
    assert bags == raced and all(chips % 100 == 0 for chips in bags.values())  # only chips still in play
    assert sum(bags.values()) == sum(ODD)  # 200 in odd 25s raced into two 100s: no chip made or lost


def test_cc68_a_floor_count_in_a_chip_gone_is_refused_at_the_bagging(two_series, director_dora, floor_fede):
    series_at_the_colour_up(two_series, director_dora, floor_fede, 1)
    race_every_table(two_series, floor_fede)
    raced = chips_of(two_series, "seated")
    miscounted = {**raced, min(raced): raced[min(raced)] + 25}
    before = recorded(two_series)
    with pytest.raises(RuleViolation) as refused:
        act(flight_services.end_day, two_series, floor_fede, floor_counts=miscounted)
    assert refused.value.clause == "CC-68" and recorded(two_series) == before


def test_cc10_the_final_stage_carries_the_raced_bags_as_they_are_and_owes_no_race(two_series, director_dora,
                                                                                 floor_fede):
    for series in (1, 2):
        series_at_the_colour_up(two_series, director_dora, floor_fede, series)
        race_every_table(two_series, floor_fede)
        act(flight_services.end_day, two_series, floor_fede, floor_counts=chips_of(two_series, "seated"))
    bagged = chips_of(two_series, "bagged")
    act(services.close_registration, two_series, director_dora)
    act(flight_services.start_final_stage, two_series, director_dora)
    act(services.clock_command, two_series, director_dora, kind="start")
    carried = chips_of(two_series, "seated")
    assert carried == bagged and sum(carried.values()) == 2 * sum(ODD)  # CC-10, chips conserved
    assert all(chips % 100 == 0 for chips in carried.values())
    assert races_due(state_of(two_series), timezone.now()) == ()  # the level after the break: nothing owed


def test_tda24a_where_the_house_races_at_the_next_day_the_bags_keep_their_odd_chips_and_each_redrawn_table_races(
        raced_at_next_day, director_dora, floor_fede):
    for series in (1, 2):
        series_at_the_colour_up(raced_at_next_day, director_dora, floor_fede, series)
        # no race first: bagged as they are, the floor counting (no tablet dealt here)
        act(flight_services.end_day, raced_at_next_day, floor_fede,
            floor_counts=chips_of(raced_at_next_day, "seated"))
    bagged = chips_of(raced_at_next_day, "bagged")
    assert sorted(bagged.values()) == sorted(ODD * 2)
    act(services.close_registration, raced_at_next_day, director_dora)
    act(flight_services.start_final_stage, raced_at_next_day, director_dora)
    act(services.clock_command, raced_at_next_day, director_dora, kind="start")
    assert chips_of(raced_at_next_day, "seated") == bagged  # CC-10: carried as bagged
    owed = races_due(state_of(raced_at_next_day), timezone.now())
    assert owed and {d.removed for d in owed} == {25}
    race_every_table(raced_at_next_day, floor_fede)
    after = chips_of(raced_at_next_day, "seated")
    assert all(chips % 100 == 0 for chips in after.values())
    races = TournamentEvent.objects.filter(tournament=raced_at_next_day, type="colour_up")
    # conserved: each table's chips change only by its race, odd chips given up for the chips won
    change = sum(100 * len(r.data["won"]) + 100 * len(r.data["rescued"])
                 - sum(count * r.data["removed"] for _seat, _entry, count in r.data["odd_chips"]) for r in races)
    assert sum(after.values()) == sum(bagged.values()) + change


def test_tda24a_the_house_option_is_checked_and_offered_on_the_setup_page(two_series, director_dora):
    from casino.rules.tournament.options import HouseOptions

    assert HouseOptions().day_end_chip_race == "before_bagging"
    with pytest.raises(RuleViolation) as refused:
        HouseOptions(day_end_chip_race="never")
    assert refused.value.clause == "TDA-24-A"
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(director_dora)
    html = client.get(reverse("tournaments:setup", args=[two_series.pk])).content.decode()
    assert 'name="day_end_chip_race"' in html and 'value="before_bagging" selected' in html


def test_tda24a_the_flights_page_names_the_tables_still_to_race_before_the_bagging(two_series, director_dora,
                                                                                  floor_fede):
    from django.utils import translation

    from tournaments.rendering.flights import flights_fragment

    series_at_the_colour_up(two_series, director_dora, floor_fede, 1)
    (table,) = [t.table for t in state_of(two_series).tables]
    with translation.override("en"):
        html = flights_fragment(two_series, floor_fede)
    assert f'data-races="{table}"' in html and f"table {table} still races its odd chips (TDA-24-A)" in html
    race_every_table(two_series, floor_fede)
    two_series.refresh_from_db()
    assert "data-races" not in flights_fragment(two_series, floor_fede)
