"""The load benches' simulated dealers (bench/bench_pit_load.py ``Dealer``, also the tournament tables')."""

from __future__ import annotations

from collections import Counter

from bench.bench_pit_load import Dealer

PROCESSES = ["http://127.0.0.1:8901", "http://127.0.0.1:8902"]


def dealers_at(tables: int) -> list[Dealer]:
    return [Dealer(number, f"dealer{number}", PROCESSES, rate=0.2, script=None) for number in range(1, tables + 1)]


def test_each_dealers_taps_alternate_between_the_processes():
    for dealer in dealers_at(4):
        bases = [dealer.base_for(step) for step in range(6)]
        assert set(bases) == set(PROCESSES)
        assert all(bases[step] != bases[step + 1] for step in range(5))


def test_at_each_tap_of_the_pace_half_the_tables_tap_each_process():
    # The dealers tap at one pace: each one's k-th tap falls within the same few seconds. Seen at 100
    # tables: with every dealer starting on the first process, one process took all the taps, then the other.
    dealers = dealers_at(100)
    for step in range(4):
        assert Counter(dealer.base_for(step) for dealer in dealers) == dict.fromkeys(PROCESSES, 50)
