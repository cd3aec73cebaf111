"""The hand-history format grows only by optional keys: every line written before gets the same answer.

tests/rules/data/thb_lines_before_extension.jsonl holds Texas Hold'em Bonus lines (the golden
hands, random whole hands and broken ones) with the answers the replay gave before the format
gained ``approvals`` and ``void`` (see the script next to it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.rules.replay import replay_record

DATA = Path(__file__).parent / "data"
BEFORE = [json.loads(line) for line in (DATA / "thb_lines_before_extension.jsonl").open()]
GOLDEN = [json.loads(line) for line in (DATA / "thb_golden.jsonl").open()]


def test_the_frozen_lines_cover_answers_errors_and_held_awards():
    answers = [line["answer"] for line in BEFORE]
    errors = [a for a in answers if "error" in a]
    outcomes = {b["outcome"] for a in answers if "boxes" in a for b in a["boxes"]}
    assert len(BEFORE) > 250 and 100 < len(errors) < len(BEFORE) - 100
    assert outcomes == {"win", "lose", "push", "fold"}
    assert any(b.get("needs_approval") for a in answers if "boxes" in a for b in a["boxes"])


@pytest.mark.parametrize("line", BEFORE, ids=[f"line-{n}" for n in range(1, len(BEFORE) + 1)])
def test_every_line_written_before_gets_the_same_answer_as_before(line):
    # Compared as JSON text, so the order of the keys is the same too.
    assert json.dumps(replay_record(line["record"])) == json.dumps(line["answer"])


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["title"] for g in GOLDEN])
def test_every_golden_line_from_before_is_among_the_frozen_lines_with_the_same_answer(golden):
    assert {"record": golden["record"], "answer": golden["answer"]} in BEFORE
