"""A whole event through the services: 20 entries at three tables, busts until one is left, every plan
the services propose confirmed with one tap (tables balanced and broken, the final table), the results,
and the exported record replayed alone."""

from __future__ import annotations

import random
from datetime import date

import pytest

from casino.rules.tournament.record import verify_record
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def play_down(t, seed, director_dora, floor_fede):
    """Register 20, start, bust seated players at random (the plans drawn with the same seeded rng) down
    to one, confirming every plan; returns the tables seen and the plans confirmed."""
    rng = random.Random(seed)
    act(services.open_registration, t, director_dora)
    for n in range(20):
        act(services.register, t, floor_fede, name=f"Player {n}", id_type="dni", id_number=f"{20_000_000 + n}",
            birth_date=date(1980, 1, 1 + n % 28))
    act(services.close_registration, t, director_dora)
    act(services.start_tournament, t, director_dora, rng=random.Random(seed))
    t.refresh_from_db()
    assert len(event_reads.tournament_state(t).tables) == 3
    tables_seen, plans_confirmed = set(), 0
    for _bust in range(19):
        t.refresh_from_db()
        state = event_reads.tournament_state(t)
        while state.pending_plan:
            act(services.confirm_plan, t, floor_fede, proposed=state.pending_plan[0])
            plans_confirmed += 1
            t.refresh_from_db()
            state = event_reads.tournament_state(t)
        tables_seen |= {x.table for x in state.tables}
        for table in state.tables:
            assert len(table.players) <= table.seats
            assert len({s for s, _ in table.players}) == len(table.players)
        assert state.chips_in_play == 10_000 * state.players_left
        victim = rng.choice([e for e in state.in_play if e.table is not None])
        act(services.record_bust, t, floor_fede, table=victim.table, seat=victim.seat, hand=_bust + 1, rng=rng)
    act(services.record_results, t, director_dora)
    return tables_seen, plans_confirmed


@pytest.mark.parametrize("seed", [14, 15, 16])
def test_twenty_entries_bust_down_to_a_winner_and_the_record_replays(seed, sunday_event, director_dora,
                                                                      floor_fede):
    t = sunday_event
    tables_seen, plans_confirmed = play_down(t, seed, director_dora, floor_fede)
    t.refresh_from_db()
    state = event_reads.tournament_state(t)
    assert state.players_left == 1 and state.finished and plans_confirmed >= 1
    assert len(state.tables) == 1 and tables_seen == {1, 2, 3}
    kinds = [e["type"] for e in event_reads.tournament_record(t)]
    assert kinds.count("table_broken") == 2 and "plan_confirmed" in kinds
    verification = verify_record(event_reads.tournament_record(t))
    assert verification.ok, verification.problems
    assert verification.results == state.results
    assert sum(r.prize_each * len(r.entries) for r in state.results) == state.prize_pool == 2_000


def test_the_same_seed_gives_the_same_record(director_dora, floor_fede):
    import uuid
    from datetime import UTC, datetime

    records = []
    for _run in range(2):
        t, _created = services.create_tournament(
            by=director_dora, key=uuid.uuid4().hex, name="Seeded", starts_at=datetime(2026, 12, 1, tzinfo=UTC),
            buy_in=100, starting_stack=10_000, seats_per_table=9)
        play_down(t, 99, director_dora, floor_fede)
        records.append([{k: v for k, v in e.items() if k != "at"} for e in event_reads.tournament_record(t)])
    assert records[0] == records[1]
