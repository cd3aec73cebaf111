"""A write starts from the replay the last committed write left (kept per version), never from a stale
or half-applied one: a refused write leaves nothing behind, and a kept replay that does not match the
stored record is replayed from the rows again."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.rules.errors import RuleViolation
from casino.rules.tournament.record import Replayer, replay
from tests.conftest import ROOT, database_url_for_servers
from tests.tournaments.conftest import act, register
from tournaments import services
from tournaments.models import Tournament, TournamentEvent
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def started(t, director, floor):
    act(services.open_registration, t, director)
    for i in range(4):
        register(t, floor, i)
    act(services.close_registration, t, director)
    act(services.start_tournament, t, director)
    t.refresh_from_db()
    return event_reads.tournament_state(t)


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
    live = event_reads.tournament_state(t)
    assert live == replay(event_reads.tournament_record(t))
    assert live.entry(e1).status == "busted" and live.entry(e2).stack == 20_000


def test_a_kept_replay_that_does_not_match_the_stored_record_is_not_used(sunday_event, director_dora, floor_fede):
    """The record gained an event this process's kept replay lacks while the version stayed (written around
    the application, as a restore would): the next write replays the rows, not what it kept."""
    t = sunday_event
    started(t, director_dora, floor_fede)
    t.refresh_from_db()
    TournamentEvent.objects.create(tournament=t, seq=len(event_reads.tournament_record(t)) + 1, at=timezone.now(),
                                   type="clock", data={"kind": "start", "seconds": 0, "step": 0}, by=director_dora)
    # From the kept replay the clock never started, and a pause would be refused (TDA-23).
    act(services.clock_command, t, director_dora, kind="pause")
    t.refresh_from_db()
    assert event_reads.tournament_state(t) == replay(event_reads.tournament_record(t))
    assert [e.kind for e in event_reads.tournament_state(t).clock_events] == ["start", "pause"]


OTHER_PROCESS_STARTS_THE_CLOCK = """
from django.contrib.auth import get_user_model
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import Tournament
act(services.clock_command, Tournament.objects.get(pk={pk}), get_user_model().objects.get(pk={by}), kind="start")
"""


def test_a_write_after_the_other_processs_goes_on_from_this_processs_replay_not_the_whole_record(
    sunday_event, director_dora, floor_fede, monkeypatch
):
    """At a hundred tables every other hand's end is reported by the other process: the write then goes on
    from a copy of the replay this process follows, with the events appended since, and never replays the
    whole record (thousands of events at a real event) under its lock."""
    t = sunday_event
    started(t, director_dora, floor_fede)
    event_reads.record_as_read(t.pk)  # this process follows the record (its phones and tablets read it)
    code = OTHER_PROCESS_STARTS_THE_CLOCK.format(pk=t.pk, by=director_dora.pk)
    other = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "DATABASE_URL": database_url_for_servers(), "DATABASE_POOL": "0", "DEBUG": "1",
             "AUDIT_KEY": settings.AUDIT_KEY},
    )
    assert other.returncode == 0, other.stderr
    replayed = []
    monkeypatch.setattr(Replayer, "_rebuild", lambda self, rebuild=Replayer._rebuild: (
        replayed.append(len(self.events)), rebuild(self)))
    act(services.clock_command, t, director_dora, kind="pause")
    assert replayed == []
    t.refresh_from_db()
    assert event_reads.tournament_state(t) == replay(event_reads.tournament_record(t))
    assert [e.kind for e in event_reads.tournament_state(t).clock_events] == ["start", "pause"]


def test_a_kept_replay_of_a_write_rolled_back_is_not_taken_for_another_record_of_its_length(
    sunday_event, director_dora, floor_fede
):
    """Issue #37: the kept replay is checked against the stored record's last row (its seq, type and time),
    not a count of every row. A write whose transaction rolled back after it kept its replay left one at the
    next version; another record of the same length at that version (its last event another) is not it."""
    t = sunday_event
    started(t, director_dora, floor_fede)
    t.refresh_from_db()
    version, length = t.version, len(event_reads.tournament_record(t))

    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack), transaction.atomic():  # the clock's start, kept, then rolled back
        act(services.clock_command, t, director_dora, kind="start")
        raise RolledBack
    # written around the application at the same version: a refusal recorded, not the clock's start
    TournamentEvent.objects.create(tournament=t, seq=length + 1, at=timezone.now(), type="refused",
                                   data={"reason": "test", "clause": "CC-26"}, by=director_dora)
    Tournament.objects.filter(pk=t.pk).update(version=version + 1)
    t.refresh_from_db()
    # from the kept replay the clock runs and a start is refused (TDA-23); from the record it starts
    act(services.clock_command, t, director_dora, kind="start")
    t.refresh_from_db()
    assert event_reads.tournament_state(t) == replay(event_reads.tournament_record(t))
    assert [e.kind for e in event_reads.tournament_state(t).clock_events] == ["start"]


def test_the_next_write_goes_on_from_the_kept_replay_its_last_row_matching(
    sunday_event, director_dora, floor_fede, monkeypatch
):
    """Issue #37: the kept replay whose last event is the stored record's last row is taken as it is: the
    write neither reads the record nor copies a replay."""
    from tournaments import writing

    t = sunday_event
    started(t, director_dora, floor_fede)
    read = []
    monkeypatch.setattr(writing, "replayer_as_read", lambda pk: read.append(pk))
    act(services.clock_command, t, director_dora, kind="start")
    act(services.clock_command, t, director_dora, kind="pause")
    assert read == []
    t.refresh_from_db()
    assert [e.kind for e in event_reads.tournament_state(t).clock_events] == ["start", "pause"]
