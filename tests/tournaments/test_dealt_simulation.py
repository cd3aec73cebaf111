"""Whole events played hand by hand through the dealers' tablets' services (issue #15): random legal
actions of every kind the engine allows, every hand's end into the event, every hand replaying."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from casino.rules.tournament.record import verify_record
from tests.tournaments.test_simulated_events import check_as_it_was_played, exported
from tournaments.dealt_simulation import verify_dealt_hands
from tournaments.models import TableHand
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("entries", "seats", "seed", "ante_mode", "penalty_chance"), [
    (12, 9, 3, "button", 0.05),
    (14, 6, 9, "big_blind", 0.0),
])
def test_an_event_dealt_hand_by_hand_keeps_every_invariant_and_each_hand_replays(entries, seats, seed, ante_mode,
                                                                                 penalty_chance, tmp_path):
    report = simulate_tournament(entries=entries, seed=seed, seats=seats, ante_mode=ante_mode, hand_by_hand=True,
                                 penalty_chance=penalty_chance)
    tournament = report.tournament
    state = event_reads.tournament_state(tournament)
    assert state.finished and state.players_left == 1 and report.hands == len(report.dealt_hands)
    events = exported(tournament, tmp_path / "record.jsonl")
    assert verify_record(events).ok
    seen = check_as_it_was_played(events)
    hands = TableHand.objects.filter(pk__in=report.dealt_hands)
    # every hand completed went into the record as its "hand" event, and replays to its stacks
    reported = {h.reported_seq for h in hands if h.phase == "complete"}
    assert reported == {e["seq"] for e in events if e["type"] == "hand"} and seen["hands"] == len(reported)
    assert verify_dealt_hands(report.dealt_hands) == []
    # and the audit log holds every hand's rows, their digests, the dealers and the entries (issue #34)
    call_command("verify_audit")
    # the engine's structures were exercised: bets or raises, all-ins, showdowns
    kinds = {r.record["action"] for h in hands for r in hand_reads.effective_rows(h)}
    assert {"fold", "call", "raise", "all-in", "show", "award-pots"} <= kinds
    if penalty_chance:
        # TDA-71-D: each hand a player sat out for his penalty served one of its hands, and no more than it has
        given = [e for e in events if e["type"] == "penalty"]
        served = [p for e in events if e["type"] == "hand" for p in e["players"] if p.get("penalty")]
        assert report.penalties == len(given) > 0 and served
        assert all(p.served <= p.hands for p in state.penalties)
        assert sum(p.served for p in state.penalties) == len(served)


def test_the_same_seed_deals_the_same_hands():
    first = simulate_tournament(entries=4, seed=4, seats=6, hand_by_hand=True)
    second = simulate_tournament(entries=4, seed=4, seats=6, hand_by_hand=True)
    lines = [[json.dumps({k: v for k, v in hand_reads.hand_line(TableHand.objects.get(pk=pk)).items() if k != "hand"},
                         sort_keys=True) for pk in report.dealt_hands] for report in (first, second)]
    assert len(lines[0]) > 3 and lines[0] == lines[1]  # hands were dealt, and dealt the same


def test_the_command_deals_hand_by_hand_and_checks_every_hand(capsys):
    call_command("simulate_tournament", "--entries", "6", "--seed", "4", "--seats", "6", "--quiet", "--hand-by-hand",
                 stdout=io.StringIO())
    assert "replays to its recorded stacks" in capsys.readouterr().err

