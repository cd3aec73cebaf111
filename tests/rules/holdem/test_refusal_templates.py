"""Every Hold'em refusal is a translatable N_ template whose placeholders are exactly its values.

The same convention as the rest of the rules engine (``casino/rules/errors.py``): the English sentence
stays as it reads, and ``casino.i18n.explain`` can give it in the dealer's language.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from casino.rules.errors import RuleViolation
from tests.rules.holdem.helpers import new_hand, to_street

HOLDEM = Path(__file__).resolve().parents[3] / "casino" / "rules" / "holdem"
MODULES = sorted(HOLDEM.glob("*.py"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


def _calls(name: str):
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                yield path.name, node


@pytest.mark.parametrize("name", ["RuleViolation", "Phrase"])
def test_each_refusal_and_phrase_is_a_literal_N_template_with_exactly_its_values(name):
    problems = []
    for module, call in _calls(name):
        where = f"{module}:{call.lineno}"
        first = call.args[0] if call.args else None
        if not (isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id == "N_"
                and isinstance(first.args[0], ast.Constant) and isinstance(first.args[0].value, str)):
            problems.append(f"{where}: not N_(\"...\")")
            continue
        placeholders = set(PLACEHOLDER.findall(first.args[0].value))
        values = {kw.arg for kw in call.keywords}
        if placeholders != values:
            problems.append(f"{where}: placeholders {sorted(placeholders)} but values {sorted(values)}")
    assert problems == []


def test_no_refusal_is_built_with_an_f_string():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "RuleViolation":
                assert not any(isinstance(arg, ast.JoinedStr) for arg in ast.walk(node)), f"{path.name}:{node.lineno}"


def test_a_refusal_keeps_its_template_values_and_english_sentence():
    hand = to_street(new_hand([10_000] * 4, button=4), "flop")
    hand = hand.bet(1, 600)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.raise_to(2, 900)
    assert refused.value.template == ("A raise must be at least the previous full bet or raise of %(full)s: raise to"
                                      " %(low)s or more")
    assert refused.value.params == {"full": 600, "low": 1_200}
    assert str(refused.value) == ("A raise must be at least the previous full bet or raise of 600: raise to 1200 or"
                                  " more (TDA-43)")


def test_a_phrase_inside_a_refusal_keeps_its_own_template():
    hand = new_hand([10_000] * 3, button=3)
    with pytest.raises(RuleViolation) as refused:
        hand = hand.deal_flop()
    step = refused.value.params["step"]
    assert str(step) == "take the action" and step.template == "take the action"
