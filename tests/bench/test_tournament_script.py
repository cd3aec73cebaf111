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
from tournaments.rendering import tablet
from tournaments.services import dealing
from tournaments.views import tablet as tablet_views

pytestmark = pytest.mark.django_db(transaction=True)


def tap_as_the_script_says(script, table, dealer) -> str:
    """The script's next tap at ``table``, read off the tablet's fragment, sent through the tablet's services;
    the action tapped."""
    table.refresh_from_db()
    action, fields = script.next_tap(tablet.tablet_fragment(table))
    common = {"table": table, "by": dealer, "key": uuid.uuid4().hex, "expected_version": table.version}
    if action == "new-hand":
        dealing.start_hand(**common)
        return action
    post = QueryDict(mutable=True)
    post.update(fields)
    dealing.act(**common, record=tablet_views._record(action, post))
    return action


def test_the_bench_dealer_plays_hands_to_their_end_from_the_tablets_buttons(
    first_table, dealer_dana_here, event_in_play  # noqa: F811
):
    script = TabletScript(event_in_play.pk, random.Random(3))
    taps = [tap_as_the_script_says(script, first_table, dealer_dana_here) for _tap in range(120)]
    assert taps.count("award-pots") >= 3 and "all-in" not in taps
    assert all(h.reported_seq for h in first_table.hands.filter(phase="complete"))


def test_with_all_ins_the_bench_dealer_busts_players_into_the_events_ranking(
    first_table, dealer_dana_here, event_in_play  # noqa: F811
):
    """``bench_tournament_tables --busts``: the script goes all-in when the tablet offers it (here one time in
    two), and the busts go into the event by themselves, until one player is left."""
    from casino.rules.errors import RuleViolation
    from tournaments.reads import event as event_reads

    script = TabletScript(event_in_play.pk, random.Random(3), all_in=0.5)
    before = event_reads.tournament_state(event_in_play).players_left
    taps = []
    for _tap in range(300):
        try:
            taps.append(tap_as_the_script_says(script, first_table, dealer_dana_here))
        except RuleViolation:
            break  # the next hand refused: one player left, the director records the results
    event_in_play.refresh_from_db()
    assert "all-in" in taps
    assert event_reads.tournament_state(event_in_play).players_left == 1 < before
