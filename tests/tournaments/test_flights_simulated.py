"""Qualifying series (flights) simulated through the real services (issue #37 item 3, CC-05..CC-10): a two-series
event merged into its Final Stage with bagged counts, legal and deterministic for a fixed seed."""

from __future__ import annotations

import pytest

from casino.rules.tournament.record import verify_record
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def record_of(tournament) -> list[dict]:
    return [event.as_record() for event in tournament.events.order_by("seq")]


def test_a_two_series_event_bags_merges_into_its_final_stage_and_verifies_CC_05_CC_08_CC_10():
    report = simulate_tournament(entries=40, seed=5, seats=9, flights=2, days=2)
    events = record_of(report.tournament)
    check = verify_record(events)
    assert check.ok, check.problems
    ended = [e for e in events if e["type"] == "day_ended"]
    assert [e["series"] for e in ended] == [1, 2]
    stage = next(e for e in events if e["type"] == "stage_started")
    assert stage["level"] == max(e["level"] for e in ended) + 1  # CC-08
    bagged = {b["entry"]: b["chips"] for e in ended for b in e["bags"]}
    redrawn = [e for e in events if e["type"] == "seated" and e["seq"] > stage["seq"] and e["why"] == "redraw"]
    assert {e["entry"]: e["chips"] for e in redrawn} == bagged  # CC-10: the bagged stacks carried
    assert check.state.finished and len(check.state.results) >= 1


def test_a_flights_record_of_a_fixed_seed_is_the_same_every_time():
    first = record_of(simulate_tournament(entries=24, seed=9, seats=6, flights=2, days=2).tournament)
    again = record_of(simulate_tournament(entries=24, seed=9, seats=6, flights=2, days=2).tournament)
    assert first == again and verify_record(first).ok


def test_the_tablets_stacks_are_the_bagged_counts_of_a_dealt_two_series_event_CC_09():
    """Every hand dealt through the tablets: the day's end bags each player's stack as the tablets left it,
    counted "tablet", and the Final Stage redraws the bagged players with those stacks (CC-10)."""
    report = simulate_tournament(entries=12, seed=4, seats=6, flights=2, days=2, hand_by_hand=True,
                                 series_end_level=2, final_table_size=6)
    events = record_of(report.tournament)
    check = verify_record(events)
    assert check.ok, check.problems
    for ended in (e for e in events if e["type"] == "day_ended"):
        before = replay_until(events, ended["seq"])
        for bag in ended["bags"]:
            assert bag["counted_by"] == "tablet"
            assert bag["chips"] == before.entry(bag["entry"]).stack


def replay_until(events, seq):
    from casino.rules.tournament.record import replay

    return replay([e for e in events if e["seq"] < seq])


# --- The colour-up between days (TDA-24-A, CC-68/69, CC-09, CC-10; docs/tournaments.md) -----------------------------
#
# The house structure removes the 25s at the break after level 8: series that play to level 8 end their day there.

COLOUR_UP_RUN = ["--entries", "40", "--seed", "5", "--flights", "2", "--days", "2", "--series-end-level", "8",
                 "--qualifiers", "4", "--starting-stack", "100000", "--all-in-chance", "0.03", "--quiet"]


def simulated(*options: str):
    import io

    from django.core.management import call_command

    from tournaments.models import Tournament

    out = io.StringIO()
    call_command("simulate_tournament", *COLOUR_UP_RUN, *options, stdout=out, stderr=io.StringIO())
    return record_of(Tournament.objects.get(pk=int(out.getvalue().split()[-1])))


def chips_accounted(events) -> None:
    """Every chip of the record accounted for at each day's end and at the Final Stage's redraw: the bags are the
    stacks the replay holds, the redraw carries the bags, and each race changes its table only by its odd chips."""
    for ended in (e for e in events if e["type"] == "day_ended"):
        before = replay_until(events, ended["seq"])
        assert sum(b["chips"] for b in ended["bags"]) == sum(before.entry(b["entry"]).stack for b in ended["bags"])
    for race in (e for e in events if e["type"] == "colour_up"):
        before = replay_until(events, race["seq"])
        after = dict(race["stacks"])
        change = (race["into"] * (len(race["won"]) + len(race["rescued"]))
                  - sum(count * race["removed"] for _seat, _entry, count in race["odd_chips"]))
        assert sum(after.values()) - sum(before.entry(n).stack for n in after) == change


def test_tda24a_a_two_day_event_whose_series_end_at_the_colour_up_races_before_bagging_by_default_CC_10():
    events = simulated()
    check = verify_record(events)
    assert check.ok, check.problems
    ended = [e for e in events if e["type"] == "day_ended"]
    assert [(e["level"], e["why"]) for e in ended] == [(8, "level"), (8, "level")]
    for day in ended:
        # each table raced between its last hand and its bagging, and every bag is in the chips left (100s up)
        last_hand = max(e["seq"] for e in events if e["type"] == "hand" and e["seq"] < day["seq"])
        raced = {e["table"] for e in events if e["type"] == "colour_up" and last_hand < e["seq"] < day["seq"]}
        assert raced == {b["table"] for b in day["bags"]}
        assert all(b["chips"] % 100 == 0 for b in day["bags"])
    stage = next(e for e in events if e["type"] == "stage_started")
    bagged = {b["entry"]: b["chips"] for e in ended for b in e["bags"]}
    first_hand = min(e["seq"] for e in events if e["type"] == "hand" and e["seq"] > stage["seq"])
    redrawn = {e["entry"]: e["chips"] for e in events
               if e["type"] == "seated" and e.get("why") == "redraw" and stage["seq"] < e["seq"] < first_hand}
    assert redrawn == bagged  # CC-10: carried as bagged
    assert not [e for e in events if e["type"] == "colour_up" and stage["seq"] < e["seq"] < first_hand]
    chips_accounted(events)


def test_tda24a_where_the_house_races_at_the_next_day_the_redrawn_tables_race_before_their_first_hand_CC_10():
    events = simulated("--day-end-chip-race", "next_day")
    check = verify_record(events)
    assert check.ok, check.problems
    ended = [e for e in events if e["type"] == "day_ended"]
    assert [(e["level"], e["why"]) for e in ended] == [(8, "level"), (8, "level")]
    assert any(b["chips"] % 100 for e in ended for b in e["bags"])  # the odd 25s bagged
    stage = next(e for e in events if e["type"] == "stage_started")
    first_hand = min(e["seq"] for e in events if e["type"] == "hand" and e["seq"] > stage["seq"])
    before_play = replay_until(events, first_hand)
    assert all(e.stack % 100 == 0 for e in before_play.entries if e.status == "seated")
    assert [e for e in events if e["type"] == "colour_up" and stage["seq"] < e["seq"] < first_hand]
    chips_accounted(events)
