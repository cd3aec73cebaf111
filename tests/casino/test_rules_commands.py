"""The rules engine's management commands: replay_hand, paytable_report, verify_evaluator (issue 3)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.rules import evaluator_census
from casino.rules.evaluator import Category

GOLDEN = Path(__file__).resolve().parents[1] / "rules" / "data" / "thb_golden.jsonl"


@pytest.fixture
def golden_hands() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines()]


@pytest.fixture
def hands_file(tmp_path, golden_hands) -> Path:
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(g["record"]) + "\n" for g in golden_hands))
    return path


def run(*args, stdin: str | None = None, monkeypatch=None) -> str:
    out = io.StringIO()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_replay_hand_prints_one_json_answer_per_hand_in_order(hands_file, golden_hands):
    lines = run("replay_hand", str(hands_file)).splitlines()
    assert [json.loads(line) for line in lines] == [g["answer"] for g in golden_hands]


def test_replay_hand_reads_standard_input_with_a_dash(monkeypatch, golden_hands):
    out = run("replay_hand", "-", stdin=json.dumps(golden_hands[0]["record"]) + "\n", monkeypatch=monkeypatch)
    assert json.loads(out) == golden_hands[0]["answer"]


def test_replay_hand_answers_every_line_and_exits_non_zero_after_an_error(monkeypatch, golden_hands):
    bad = {"game": "texas-holdem-bonus", "boxes": [{"box": 9, "ante": 10, "flop": "fold"}]}
    stdin = "\n".join(json.dumps(x) for x in (golden_hands[1]["record"], bad, golden_hands[2]["record"])) + "\n"
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(CommandError, match="1 hand"):
        call_command("replay_hand", "-", stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers == [golden_hands[1]["answer"], {"error": "There is no box 9: boxes are numbered 1 to 7 (C-28)"},
                       golden_hands[2]["answer"]]


def test_replay_hand_says_when_the_file_cannot_be_read(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("replay_hand", str(tmp_path / "missing.jsonl"), stdout=io.StringIO())


def test_paytable_report_json_gives_the_awards_and_the_house_edge():
    report = json.loads(run("paytable_report", "--json"))
    assert list(report) == ["awards", "house_edge"]
    assert report["awards"][0]["award"] == "aa-vs-dealer-aa" and report["awards"][0]["pays"] == 1000
    assert report["house_edge"] == pytest.approx(13873 / 162435)


def test_paytable_report_prints_a_table_for_a_named_paytable():
    out = run("paytable_report", "--paytable", "manual")
    assert "aa-vs-dealer-aa" in out and "1/270725" in out
    assert "House edge: 8.5406% of the Bonus stake (exactly 13873/162435)" in out


@pytest.mark.django_db
def test_paytable_report_refuses_an_unknown_paytable_naming_the_known_ones_thb_53():
    with pytest.raises(CommandError, match="There is no paytable named 'vegas'; known paytables: manual"):
        call_command("paytable_report", "--paytable", "vegas", stdout=io.StringIO())


def test_verify_evaluator_checks_every_five_card_hand_against_the_published_counts():
    out = run("verify_evaluator", "--cards", "5", "--no-progress")
    assert "All 2,598,960 5-card hands agree with the published counts." in out


def test_verify_evaluator_exits_non_zero_on_a_mismatch(monkeypatch):
    wrong = {**evaluator_census.FIVE_CARD_COUNTS, Category.FLUSH: 5_109}
    monkeypatch.setitem(evaluator_census.PUBLISHED, 5, wrong)
    with pytest.raises(CommandError, match="flush: counted 5,108, published 5,109"):
        call_command("verify_evaluator", "--cards", "5", "--processes", "1", "--no-progress", stdout=io.StringIO())


def test_paytable_report_base_game_gives_each_ante_options_house_edge_and_element_of_risk_thb_50():
    report = json.loads(run("paytable_report", "--base-game", "--json"))
    straight, flush = report["options"]["straight"], report["options"]["flush"]
    assert f"{straight['house_edge']:.4%}" == "2.0369%" and f"{straight['element_of_risk']:.4%}" == "0.5335%"
    assert f"{flush['house_edge']:.5%}" == "5.59351%"
    assert straight["house_edge_exact"] == "578107733/28381438800"


def test_paytable_report_base_game_prints_one_option_and_its_strategy():
    out = run("paytable_report", "--base-game", "--ante-pays", "flush", "--strategy")
    assert "Ante paid from a flush up: house edge 5.5935% of the ante" in out
    assert "straight up" not in out
    assert "Before the flop: bet the flop with every hand except these" in out and "\n  AA " in out
