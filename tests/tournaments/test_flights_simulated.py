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
