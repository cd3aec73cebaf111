"""Every hand dealt at a tournament's tables is downloadable in the ``replay_hand`` format (issue #15), and
replays to the stacks the event's record keeps for it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from casino.rules.replay import replay_lines
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tests.tournaments.test_penalties import fold_it_out
from tournaments.reads import event as event_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def two_hands_and_a_misdeal_then_one_in_play(table, dealer):
    """Hand 1 and 2 folded out, hand 3 misdealt, hand 4 (its deal again) in play: the hand lines' events."""
    reported = []
    for _ in range(2):
        at(table, dealing.start_hand, dealer)
        reported.append(fold_it_out(table, dealer))
    at(table, dealing.start_hand, dealer)
    at(table, dealing.act, dealer, record={"action": "misdeal"})
    at(table, dealing.start_hand, dealer)
    at(table, dealing.act, dealer, record={"action": "call", "seat": to_act(table)})
    return reported


def download(client, tournament, query=""):
    response = client.get(f"/tournaments/{tournament.pk}/hands.jsonl{query}")
    return response, b"".join(response.streaming_content).decode() if response.status_code == 200 else ""


def test_the_floor_downloads_every_hand_over_and_each_replays_to_the_records_stacks(
    client, event_in_play, first_table, dealer_dana_here, floor_fede
):
    reported = two_hands_and_a_misdeal_then_one_in_play(first_table, dealer_dana_here)
    client.force_login(floor_fede)
    response, body = download(client, event_in_play)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/jsonl")
    assert f'filename="tournament-{event_in_play.pk}-hands.jsonl"' in response["Content-Disposition"]
    lines = body.splitlines()
    prefix = f"t{event_in_play.pk}-{first_table.number}-"
    assert [json.loads(line)["hand"] for line in lines] == [prefix + "1", prefix + "2", prefix + "3"]  # not 4
    answers = list(replay_lines(lines))
    assert all("error" not in answer for answer in answers)
    for answer, event in zip(answers, reported, strict=False):
        assert {int(s): c for s, c in answer["stacks"].items()} == {p["seat"]: p["end"] for p in event["players"]}
    misdeal = json.loads(lines[2])
    assert {"act": "misdeal"} in misdeal["actions"]


def test_one_tables_hands_and_a_bad_table_is_named(client, event_in_play, first_table, dealer_dana_here, director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    fold_it_out(first_table, dealer_dana_here)
    client.force_login(director_dora)
    response, body = download(client, event_in_play, f"?table={first_table.number}")
    assert response.status_code == 200 and len(body.splitlines()) == 1
    assert f"-table-{first_table.number}-hands.jsonl" in response["Content-Disposition"]
    response, body = download(client, event_in_play, "?table=99")
    assert response.status_code == 200 and body == ""
    response = client.get(f"/tournaments/{event_in_play.pk}/hands.jsonl?table=first", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "The table must be a whole number" in response.content.decode()


def test_a_dealer_or_a_stranger_downloads_nothing(client, event_in_play, dealer_dana_here):
    assert client.get(f"/tournaments/{event_in_play.pk}/hands.jsonl").status_code == 302  # to the login
    client.force_login(dealer_dana_here)
    assert client.get(f"/tournaments/{event_in_play.pk}/hands.jsonl").status_code == 403


def test_the_command_writes_the_same_lines(event_in_play, first_table, dealer_dana_here, tmp_path, client,
                                           floor_fede):
    two_hands_and_a_misdeal_then_one_in_play(first_table, dealer_dana_here)
    out = tmp_path / "hands.jsonl"
    err = io.StringIO()
    call_command("export_tournament_hands", str(event_in_play.pk), "--out", str(out), stderr=err)
    assert "3 hands written" in err.getvalue()
    client.force_login(floor_fede)
    assert out.read_text(encoding="utf-8") == download(client, event_in_play)[1]
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament_hands", "999999")
    assert event_reads.tournament_state(event_in_play).finished is False and hand_in_play(first_table).number == 4
