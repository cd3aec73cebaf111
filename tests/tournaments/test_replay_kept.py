"""A write starts from the replay the last committed write left (kept per version), never from a stale
or half-applied one: a refused write leaves nothing behind, and a kept replay that does not match the
stored record is replayed from the rows again."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.record import Replayer, replay
from tests.tournaments.conftest import act, register
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def started(t, director, floor):
    act(services.open_registration, t, director)
    for i in range(4):
        register(t, floor, i)
    act(services.close_registration, t, director)
    act(services.start_tournament, t, director)
    t.refresh_from_db()
    return services.tournament_state(t)


def test_a_refused_write_leaves_no_half_applied_replay_for_the_next(sunday_event, director_dora, floor_fede):
    t = sunday_event
    state = started(t, director_dora, floor_fede)
    table = state.tables[0]
    (s1, e1), (s2, e2) = table.players[:2]
    with pytest.raises(RuleViolation):  # the stacks do not add up: refused, rolled back
        act(services.report_hand, t, floor_fede, table=table.table, hand=1, button=s1, small_blind_seat=s1,
            big_blind_seat=s2, stacks_at_start={s1: 10_000, s2: 10_000}, stacks_at_end={s1: 0, s2: 10_000},
            busts=[s1])
    act(services.report_hand, t, floor_fede, table=table.table, hand=1, button=s1, small_blind_seat=s1,
        big_blind_seat=s2, stacks_at_start={s1: 10_000, s2: 10_000}, stacks_at_end={s1: 0, s2: 20_000}, busts=[s1])
    t.refresh_from_db()
    live = services.tournament_state(t)
    assert live == replay(services.tournament_record(t))
    assert live.entry(e1).status == "busted" and live.entry(e2).stack == 20_000


def test_a_kept_replay_that_does_not_match_the_stored_record_is_not_used(sunday_event, director_dora, floor_fede):
    t = sunday_event
    started(t, director_dora, floor_fede)
    t.refresh_from_db()
    # as if this process kept an older replay under the current version (another process wrote since)
    old = Replayer(services.tournament_record(t)[:3])
    services._REPLAYERS.put((t.pk, t.version), (len(old.events), old, old.state()))
    act(services.clock_command, t, director_dora, kind="start")
    t.refresh_from_db()
    assert services.tournament_state(t) == replay(services.tournament_record(t))
    assert len(services.tournament_state(t).entries) == 4


def test_a_write_after_the_other_processs_goes_on_from_this_processs_replay_not_the_whole_record(
    sunday_event, director_dora, floor_fede, monkeypatch
):
    """At a hundred tables every other hand's end is reported by the other process: the write then goes on
    from a copy of the replay this process follows, with the events appended since, and never replays the
    whole record (thousands of events at a real event) under its lock."""
    t = sunday_event
    started(t, director_dora, floor_fede)
    t.refresh_from_db()
    act(services.clock_command, t, director_dora, kind="start")
    services.record_as_read(t.pk)  # this process follows the record (its phones and tablets read it)
    t.refresh_from_db()
    assert services._REPLAYERS.take((t.pk, t.version)) is not None  # as if the other process wrote last
    replayed = []
    monkeypatch.setattr(Replayer, "_rebuild", lambda self, rebuild=Replayer._rebuild: (
        replayed.append(len(self.events)), rebuild(self)))
    act(services.clock_command, t, director_dora, kind="pause")
    assert replayed == []
    t.refresh_from_db()
    assert services.tournament_state(t) == replay(services.tournament_record(t))
    assert services.tournament_state(t).clock_events[-1].kind == "pause"
