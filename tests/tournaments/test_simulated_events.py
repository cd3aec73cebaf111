"""Whole tournaments simulated through the services (``simulate_tournament``), of several sizes, seats and
seeds, and the invariants their records must keep (issue #14, "What must show it"): chips conserved,
every seat legal, no table halted longer than a move, ranks and prizes consistent, and the exported
record replaying alone to the same ranking and seats."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from casino.rules.tournament.record import Replayer, replay, verify_record
from tournaments.reads import event as event_reads
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def exported(tournament, path) -> list[dict]:
    call_command("export_tournament", str(tournament.pk), "--out", str(path))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_as_it_was_played(events: list[dict]) -> dict:
    """Replay the record one event at a time and check, at every step, what must always hold."""
    replayer = Replayer()
    starting = None
    expected_chips = 0
    seen = {"hands": 0, "halted_hands": 0, "colour_ups": 0}
    for event in events:
        before = replayer.state()
        replayer.append(event)
        state = replayer.state()
        kind = event["type"]
        if kind == "setup":
            starting = event["starting_stack"]
        elif kind == "seated" and event["why"] in ("draw", "late", "reentry"):
            expected_chips += starting
        elif kind == "colour_up":
            seen["colour_ups"] += 1
            raced = event["stacks"]
            expected_chips += sum(s for _, s in raced) - sum(before.entry(n).stack for n, _ in raced)
        elif kind == "hand":
            seen["hands"] += 1
            starts = [p["start"] for p in event["players"]]
            ends = [p["end"] for p in event["players"]]
            assert sum(starts) == sum(ends), f"hand {event['seq']} does not conserve chips"
            # C-18: a halted table waits only for the moves; every plan is confirmed before the next hand
            assert not before.halted and event["table"] not in before.halted
            assert before.pending_plan is None
        assert state.chips_in_play == expected_chips, f"chips after event {event['seq']} ({kind})"
        if kind in ("hand", "plan_confirmed", "results"):
            check_seats(before if kind == "plan_confirmed" else state)
    return seen


def check_seats(state) -> None:
    """Every player in at exactly one legal seat, no seat taken twice, no table over its seats."""
    where = {}
    for table in state.tables:
        assert len(table.players) <= table.seats
        seats = [s for s, _ in table.players]
        assert len(set(seats)) == len(seats)
        assert all(1 <= s <= table.seats for s in seats)
        for seat, entry in table.players:
            assert entry not in where, f"entry {entry} sits twice"
            where[entry] = (table.table, seat)
    assert set(where) == {e.entry for e in state.in_play}
    for e in state.in_play:
        assert where[e.entry] == (e.table, e.seat)


def check_results(state) -> None:
    """Places 1..N each given once (or shared by a split), every entry ranked once, prizes = the pool."""
    places = sorted(p for r in state.results for p in r.places)
    assert places == list(range(1, len(state.entries) + 1))
    ranked = sorted(n for r in state.results for n in r.entries)
    assert ranked == sorted(e.entry for e in state.entries)
    assert all(len(r.places) == len(r.entries) for r in state.results)
    assert sum(r.prize_each * len(r.entries) for r in state.results) == state.prize_pool
    winner = next(r for r in state.results if r.places == (1,))
    assert winner.entries == (state.in_play[0].entry,) and state.players_left == 1
    for r in state.results:
        for n in r.entries:
            assert state.entry(n).paid == r.prize_each  # every prize paid, once


# The bigger events (20 s each) run with `make test-slow`; each ante mode has a small event in the default run.
@pytest.mark.parametrize(("entries", "seats", "seed", "ante_mode"), [
    (12, 6, 1, "button"),
    (30, 9, 2, "big_blind"),
    (12, 10, 5, "none"),
    pytest.param(30, 10, 5, "none", marks=pytest.mark.slow),
    pytest.param(75, 9, 3, "button", marks=pytest.mark.slow),
])
def test_a_simulated_event_keeps_every_invariant_and_its_export_replays_alone(entries, seats, seed, ante_mode,
                                                                              tmp_path):
    report = simulate_tournament(entries=entries, seed=seed, seats=seats, ante_mode=ante_mode)
    t = report.tournament
    live = event_reads.tournament_state(t)
    events = exported(t, tmp_path / "record.jsonl")
    seen = check_as_it_was_played(events)
    assert seen["hands"] == report.hands > 0
    if entries >= 75:  # long enough to reach the second break: the 25s race into 100s (TDA-24)
        assert seen["colour_ups"] == report.colour_ups >= 1
        race = next(e for e in events if e["type"] == "colour_up")
        assert (race["removed"], race["into"]) == (25, 100)
    check_results(live)
    assert live.finished and not live.halted and live.pending_plan is None
    # the export alone gives the same ranking, prizes and seats
    verification = verify_record(events)
    assert verification.ok, verification.problems
    assert verification.results == live.results
    assert replay(events).tables == live.tables
    kinds = [e["type"] for e in events]
    if entries > seats:
        assert "plan_confirmed" in kinds and "table_broken" in kinds
        assert any(e["type"] == "seated" and e["why"] == "final_table" for e in events) or entries <= 10


def test_the_same_seed_gives_the_same_record_byte_for_byte(tmp_path):
    first = simulate_tournament(entries=14, seed=8, seats=6).tournament
    second = simulate_tournament(entries=14, seed=8, seats=6).tournament
    call_command("export_tournament", str(first.pk), "--out", str(tmp_path / "one.jsonl"))
    call_command("export_tournament", str(second.pk), "--out", str(tmp_path / "two.jsonl"))
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    third = simulate_tournament(entries=14, seed=9, seats=6).tournament
    call_command("export_tournament", str(third.pk), "--out", str(tmp_path / "three.jsonl"))
    assert (tmp_path / "three.jsonl").read_bytes() != (tmp_path / "one.jsonl").read_bytes()


def test_the_command_simulates_and_exports(tmp_path, capsys):
    out = tmp_path / "sim.jsonl"
    call_command("simulate_tournament", "--entries", "8", "--seed", "4", "--seats", "6", "--quiet", "--out", str(out))
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "setup" and events[-1]["type"] == "prize_paid"
    assert verify_record(events).ok


def test_at_the_bubble_over_two_tables_the_event_goes_hand_for_hand_and_each_hand_takes_its_fixed_time_RP_08():
    """44 entries at 6-max with a final table of six (RP-09): 6 places paid, so the bubble (7 players,
    RP-08-A) is played at two tables. The simulated director turns hand-for-hand on as it approaches (issue
    #38 item 15: at the places paid plus the tables playing, 8 here, where a round could pass it); each
    synchronised hand takes the house's 120 s off the level however long it lasted (RP-08-B/C), the busts
    of those hands carry their hand-for-hand hand (CC-21), and the record alone still checks."""
    from casino.rules.tournament.clock import clock_at
    from casino.rules.tournament.structure import Structure

    report = simulate_tournament(entries=44, seed=1, seats=6, final_table_size=6)
    t = report.tournament
    live = event_reads.tournament_state(t)
    events = [event.as_record() for event in t.events.order_by("seq")]
    clock_kinds = [e.get("kind") for e in events if e["type"] == "clock"]
    assert clock_kinds.count("hand_for_hand_on") == 1 and "hand_for_hand_off" in clock_kinds
    h4h_hands = [e for e in events if e["type"] == "clock" and e["kind"] == "hand_for_hand_hand"]
    assert len(h4h_hands) >= 2
    on = next(e["seq"] for e in events if e.get("kind") == "hand_for_hand_on")
    left_at_on = 44 - sum(1 for e in events if e["type"] in ("bust", "withdrawal") and e["seq"] < on)
    playing = [t for t in replay(events[:on]).tables if t.count >= 2]
    # before the bubble (7): the six places paid plus the two tables playing (it was 7 when it waited for it)
    assert len(playing) == 2 and left_at_on == 6 + len(playing) == 8
    busts_in_h4h = [e for e in events if e["type"] == "bust" and e["seq"] > on and e.get("hand_for_hand_hand")]
    assert busts_in_h4h

    # Each hand-for-hand hand takes exactly 120 s off the level, however long the simulated hand took.
    structure = Structure.from_dict(live.setup.structure)
    readings = [clock_at(structure, list(replay(events[:hand["seq"]]).clock_events), datetime_of(hand["at"]))
                for hand in h4h_hands]
    same_level = [(a, b) for a, b in zip(readings, readings[1:]) if a.step == b.step]
    assert same_level and all(a.seconds_left - b.seconds_left == 120 for a, b in same_level)
    assert verify_record(events).ok


def datetime_of(text: str):
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00"))
