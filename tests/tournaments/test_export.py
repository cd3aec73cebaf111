"""The record exported as JSON Lines and replayed alone (docs/tournament-record.md)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.rules.tournament.record import EVENT_TYPES, replay, verify_record
from tests.tournaments.conftest import PLAYERS, act, register
from tournaments import services
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(sunday_event, director_dora, floor_fede):
    """Five entries, one refused, a bust corrected, four busts, the results and the winner paid."""
    t = sunday_event
    act(services.open_registration, t, director_dora)
    for i in range(5):
        register(t, floor_fede, i)
    register(t, floor_fede, 0)  # refused: a second entry (CC-26)
    act(services.close_registration, t, director_dora)
    act(services.start_tournament, t, director_dora)
    act(services.clock_command, t, director_dora, kind="start")
    corrected = False
    for entry in (1, 2, 3, 2, 4):
        t.refresh_from_db()
        e = event_reads.tournament_state(t).entry(entry)
        result = act(services.record_bust, t, floor_fede, table=e.table, seat=e.seat, hand=len(t.name) + entry)
        if entry == 2 and not corrected:  # a mistake: entry 2 busts only after entry 3
            act(services.correct, t, floor_fede, seq=result.seqs[0], reason="wrong seat")
            corrected = True
    act(services.record_results, t, director_dora)
    _name, id_type, id_number, _birth = PLAYERS[4]
    act(services.pay_prize, t, director_dora, entry=5, id_type=id_type, id_number=id_number)
    t.refresh_from_db()
    return t


def test_the_export_is_json_lines_in_order_with_seq_at_and_type(played, tmp_path):
    out = tmp_path / "record.jsonl"
    call_command("export_tournament", str(played.pk), "--out", str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(e["at"].endswith("Z") and e["type"] in EVENT_TYPES for e in events)
    assert list(events[0])[:3] == ["seq", "at", "type"]
    kinds = {e["type"] for e in events}
    assert {"setup", "registered", "refused", "registration_closed", "seated", "bust", "correction", "results",
            "prize_paid", "clock"} <= kinds


def test_the_export_names_no_one(played, tmp_path):
    out = tmp_path / "record.jsonl"
    call_command("export_tournament", str(played.pk), "--out", str(out))
    text = out.read_text(encoding="utf-8")
    for name, _id_type, id_number, birth in PLAYERS:
        assert name.split()[0] not in text
        assert id_number.replace(".", "") not in text and id_number not in text
        assert birth.isoformat() not in text


def test_the_exported_record_alone_gives_the_ranking_prizes_and_seats(played, tmp_path):
    out = tmp_path / "record.jsonl"
    call_command("export_tournament", str(played.pk), "--out", str(out))
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    verification = verify_record(events)
    assert verification.ok, verification.problems
    live = event_reads.tournament_state(played)
    assert verification.results == live.results
    assert [r.entries for r in live.results][:1] == [(5,)]
    # entry 2's first bust was voided: it ranks by its real bust, after entry 3's
    order = [e.entry for e in replay(events).eliminations]
    assert order == [1, 3, 2, 4]
    assert replay(events).tables == live.tables
    call_command("verify_tournament_record", str(out))


def test_a_tampered_record_is_caught(played, tmp_path):
    out = tmp_path / "record.jsonl"
    call_command("export_tournament", str(played.pk), "--out", str(out))
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    results = next(e for e in events if e["type"] == "results")
    results["places"][0]["prize_each"] += 1
    out.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    with pytest.raises(CommandError, match="problem"):
        call_command("verify_tournament_record", str(out))
    out.write_text("".join(json.dumps(e) + "\n" for e in events[:3] + events[4:]), encoding="utf-8")
    with pytest.raises(CommandError, match="cannot be replayed"):
        call_command("verify_tournament_record", str(out))


def test_export_of_a_tournament_that_does_not_exist_says_so():
    with pytest.raises(CommandError, match="no tournament 999"):
        call_command("export_tournament", "999")
