"""The tournament tablets' bench script (bench/tournament_script.py), in one process: reading only the
tablet's own fragment, it plays whole hands through the tablet's services, as the bench's dealers do."""

from __future__ import annotations

import random
import uuid

import pytest
from django.http import QueryDict

from bench.tournament_script import TabletScript
from tests.tournaments.conftest import (  # noqa: F401 - the tournaments' fixtures
    dealer_dana_here,
    director_dora,
    event_in_play,
    first_table,
    floor_fede,
    quick_passwords,
    registering,
    sunday_event,
)
from tournaments import dealing, tablet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_the_bench_dealer_plays_hands_to_their_end_from_the_tablets_buttons(
    first_table, dealer_dana_here, event_in_play  # noqa: F811
):
    script = TabletScript(event_in_play.pk, random.Random(3))
    finished = 0
    for _tap in range(120):
        first_table.refresh_from_db()
        action, fields = script.next_tap(tablet.tablet_fragment(first_table))
        common = {"table": first_table, "by": dealer_dana_here, "key": uuid.uuid4().hex,
                  "expected_version": first_table.version}
        if action == "new-hand":
            dealing.start_hand(**common)
            continue
        post = QueryDict(mutable=True)
        post.update(fields)
        dealing.act(**common, record=tablet._record(action, post))
        finished += action == "award-pots"
    assert finished >= 3
    assert all(h.reported_seq for h in first_table.hands.filter(phase="complete"))


def test_with_all_ins_the_bench_dealer_busts_players_into_the_events_ranking(
    first_table, dealer_dana_here, event_in_play  # noqa: F811
):
    """``bench_tournament_tables --busts``: the script goes all-in when the tablet offers it (here one time in
    two), and the busts go into the event by themselves, until one player is left."""
    from casino.rules.errors import RuleViolation
    from tournaments import services

    script = TabletScript(event_in_play.pk, random.Random(3), all_in=0.5)
    before = services.tournament_state(event_in_play).players_left
    all_ins = 0
    for _tap in range(300):
        first_table.refresh_from_db()
        action, fields = script.next_tap(tablet.tablet_fragment(first_table))
        common = {"table": first_table, "by": dealer_dana_here, "key": uuid.uuid4().hex,
                  "expected_version": first_table.version}
        if action == "new-hand":
            try:
                dealing.start_hand(**common)
            except RuleViolation:
                break  # one player left: the director records the results
            continue
        all_ins += action == "all-in"
        post = QueryDict(mutable=True)
        post.update(fields)
        dealing.act(**common, record=tablet._record(action, post))
    event_in_play.refresh_from_db()
    assert all_ins > 0
    assert services.tournament_state(event_in_play).players_left == 1 < before
