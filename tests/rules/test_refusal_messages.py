"""Refusals are translatable templates with their values (docs/rules-engine.md, "Refusal messages and
translation"); the English sentence and ``str()`` are what they always were. No Django here."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest

from casino.rules.errors import N_, Phrase, RuleViolation
from casino.rules.holdem_bonus import ReplayError, TableRules, new_hand, replay

RULES = Path(__file__).resolve().parents[2] / "casino" / "rules"
#: Modules whose every refusal must be an N_ template (what the dealer's tablet can provoke).
TEMPLATED = [
    RULES / "holdem_bonus" / "state.py",
    RULES / "holdem_bonus" / "actions.py",
    RULES / "holdem_bonus" / "table_rules.py",
    RULES / "holdem_bonus" / "paytable.py",
]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


def _bets_closed():
    return new_hand(TableRules(min_ante=5)).place_ante(1, 10).place_ante(2, 10).close_bets().deal_initial()


# ------------------------------------------------------------------ the exception itself


def test_n_marks_a_template_and_returns_it_unchanged():
    template = "Box %(box)s has no ante in this hand"
    assert N_(template) is template


def test_a_template_is_formatted_with_its_params_and_both_are_kept():
    refused = RuleViolation(N_("Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"),
                            "THB-26", box=3, amount=2, minimum=5)
    assert refused.template == "Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"
    assert refused.params == {"box": 3, "amount": 2, "minimum": 5}
    assert refused.message == "Box 3's ante of 2 is below the table minimum of 5"
    assert refused.clause == "THB-26"
    assert str(refused) == "Box 3's ante of 2 is below the table minimum of 5 (THB-26)"
    assert refused.args == ("Box 3's ante of 2 is below the table minimum of 5 (THB-26)",)


def test_repr_placeholders_format_as_the_old_f_strings_did():
    refused = RuleViolation(N_("%(box)r is not a box: boxes are numbered 1 to %(boxes)s"), "C-28", box="x", boxes=7)
    assert str(refused) == "'x' is not a box: boxes are numbered 1 to 7 (C-28)"


def test_the_old_two_argument_form_is_unchanged():
    refused = RuleViolation("Bets are already closed", "THB-31")
    assert refused.message == refused.template == "Bets are already closed"
    assert refused.params == {}
    assert str(refused) == "Bets are already closed (THB-31)"


def test_without_params_a_percent_sign_is_left_alone():
    refused = RuleViolation("100% of the stake is returned: 50% (sic) %(box)s")
    assert refused.message == "100% of the stake is returned: 50% (sic) %(box)s"
    assert refused.clause is None
    assert str(refused) == refused.message


def test_without_a_clause_str_is_the_sentence_alone():
    refused = RuleViolation(N_("A %(kind)s record needs %(name)s"), kind="place-ante", name="amount")
    assert refused.clause is None
    assert str(refused) == "A place-ante record needs amount"


def test_a_template_with_a_missing_value_fails_loudly():
    with pytest.raises(KeyError):
        RuleViolation(N_("Box %(box)s has no ante in this hand"), "THB-26", number=3)


def test_a_phrase_is_its_english_text_and_keeps_its_template():
    place = Phrase(N_("box %(box)s's cards"), box=4)
    assert place == "box 4's cards"
    assert isinstance(place, str)
    assert (place.template, place.params) == ("box %(box)s's cards", {"box": 4})
    assert Phrase(N_("the board")) == "the board"
    refused = RuleViolation(N_("%(card)s in %(what)s is already in %(where)s: a single deck has one of each card"),
                            "THB-03", card="Ah", what=Phrase(N_("the flop")), where=place)
    assert str(refused) == "Ah in the flop is already in box 4's cards: a single deck has one of each card (THB-03)"


def test_refusals_and_phrases_pickle_with_their_templates():
    refused = RuleViolation(N_("%(what)s must be more than zero, not %(amount)s"), "THB-26",
                            what=Phrase(N_("Box %(box)s's ante"), box=2), amount=0)
    back = pickle.loads(pickle.dumps(refused))
    assert str(back) == str(refused) == "Box 2's ante must be more than zero, not 0 (THB-26)"
    assert back.template == refused.template
    assert back.params == refused.params
    assert back.params["what"].template == "Box %(box)s's ante"
    assert back.params["what"].params == {"box": 2}


# ------------------------------------------------------------------ the engine's refusals


def test_an_ante_below_the_minimum_carries_its_template_and_values():
    with pytest.raises(RuleViolation) as refused:
        new_hand(TableRules(min_ante=5)).place_ante(1, 2)
    assert refused.value.template == "Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"
    assert refused.value.params == {"box": 1, "amount": 2, "minimum": 5}
    assert str(refused.value) == "Box 1's ante of 2 is below the table minimum of 5 (THB-26)"


@pytest.mark.parametrize(("deal", "template"), [
    (lambda h: h.deal_turn("2c"), "The turn cannot be dealt yet"),
    (lambda h: h.deal_river("2c"), "The river cannot be dealt yet"),
])
def test_a_sentence_that_changes_with_the_street_is_one_whole_template_per_street(deal, template):
    with pytest.raises(RuleViolation) as refused:
        deal(_bets_closed())
    assert (refused.value.template, refused.value.params) == (template, {})


def test_a_street_decision_out_of_turn_names_the_street_in_its_template():
    hand = _bets_closed().bet_flop(1).bet_flop(2).deal_flop(["2c", "7d", "9h"]).pass_turn(1)
    with pytest.raises(RuleViolation) as refused:
        hand.pass_turn(1)
    assert refused.value.template == "Box %(box)s has already decided on the turn"
    assert refused.value.params == {"box": 1}
    assert str(refused.value) == "Box 1 has already decided on the turn (THB-41)"


def test_places_where_cards_are_are_phrases():
    hand = _bets_closed().bet_flop(1).bet_flop(2).deal_flop(["2c", "7d", "9h"])
    with pytest.raises(RuleViolation) as refused:
        hand.pass_turn(1).pass_turn(2).deal_turn("7d")
    params = refused.value.params
    assert refused.value.template == "%(card)s in %(what)s is already in %(where)s: a single deck has one of each card"
    assert (params["card"], params["what"].template, params["where"].template) == ("7d", "the turn", "the board")
    assert str(refused.value) == "7d in the turn is already in the board: a single deck has one of each card (THB-03)"


def test_a_place_at_the_start_of_a_sentence_is_its_own_phrase():
    with pytest.raises(RuleViolation) as refused:
        _bets_closed().bet_flop(1).bet_flop(2).deal_flop(["2c", "7d"])
    what = refused.value.params["what"]
    assert (what.template, str(refused.value)) == ("The flop", "The flop must be 3 cards, not 2 (THB-42)")
    with pytest.raises(RuleViolation) as refused:
        _bets_closed().fold(1, ["As"])
    what = refused.value.params["what"]
    assert (what.template, what.params) == ("Box %(box)s's cards", {"box": 1})
    assert str(refused.value) == "Box 1's cards must be 2 cards, not 1 (THB-56)"


def test_a_replayed_record_wraps_the_refusal_as_a_phrase():
    with pytest.raises(ReplayError) as refused:
        replay(TableRules(min_ante=5), [{"action": "place-ante", "box": 1, "amount": 2}])
    assert refused.value.template == "record %(record)s: %(refusal)s"
    inner = refused.value.params["refusal"]
    assert inner.template == "Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"
    assert str(refused.value) == "record 1: Box 1's ante of 2 is below the table minimum of 5 (THB-26)"


def test_table_settings_and_records_refuse_with_templates_too():
    with pytest.raises(RuleViolation) as refused:
        TableRules(min_ante=0)
    assert refused.value.params["setting"].template == "The table minimum"
    assert str(refused.value) == "The table minimum must be more than zero, not 0 (THB-19)"
    with pytest.raises(RuleViolation) as refused:
        new_hand().apply({"action": "place-ante", "box": 1})
    assert (refused.value.template, str(refused.value)) == ("A %(kind)s record needs %(name)s",
                                                            "A place-ante record needs amount")


# ------------------------------------------------------------------ every refusal is a literal N_ template


def _module_templates(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound to N_("...") or to a dict whose every value is N_("...")."""
    named: dict[str, list[str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if _literal_template(value) is not None:
            named[node.targets[0].id] = [_literal_template(value)]
        elif isinstance(value, ast.Dict) and value.values and all(_literal_template(v) for v in value.values):
            named[node.targets[0].id] = [_literal_template(v) for v in value.values]
    return named


def _literal_template(node: ast.AST) -> str | None:
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        return node.args[0].value
    return None


def _refusal_calls(tree: ast.Module):
    """(call, name of the function it is in) for every _fail(...), RuleViolation(...) and Phrase(...)."""
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]:
        for node in ast.walk(func):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if callee in ("_fail", "RuleViolation", "Phrase"):
                yield node, callee, func.name


@pytest.mark.parametrize("path", TEMPLATED, ids=lambda p: p.name)
def test_every_refusal_passes_a_literal_n_template_with_exactly_its_values(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = _module_templates(tree)
    problems, checked = [], 0
    for call, callee, inside in _refusal_calls(tree):
        where = f"{path.name}:{call.lineno} {callee}()"
        first = call.args[0] if call.args else None
        if isinstance(first, ast.JoinedStr) or isinstance(first, ast.BinOp):
            problems.append(f"{where}: an f-string or formatted text, not a template")
            continue
        if callee == "RuleViolation" and inside == "_fail" or callee == "Phrase" and inside in (
                "__init__", "_box_cards", "_place", "_at_start"):
            continue  # passes on a template it was given (checked where it is written)
        literal = _literal_template(first) if first is not None else None
        if literal is not None:
            templates = [literal]
        elif isinstance(first, ast.Subscript) and isinstance(first.value, ast.Name) and first.value.id in named:
            templates = named[first.value.id]
        elif isinstance(first, ast.Name) and first.id in named and len(named[first.id]) == 1:
            templates = named[first.id]
        else:
            problems.append(f"{where}: the message is not N_(\"...\") or a table of N_ templates")
            continue
        given = {k.arg for k in call.keywords if k.arg is not None} - {"clause"}
        for template in templates:
            if set(PLACEHOLDER.findall(template)) != given:
                problems.append(f"{where}: {template!r} has {sorted(PLACEHOLDER.findall(template))}, "
                                f"given {sorted(given)}")
            if "%" in PLACEHOLDER.sub("", template):
                problems.append(f"{where}: {template!r} has a % that is not a %(name)s or %(name)r placeholder")
        checked += 1
    assert problems == [], "\n".join(problems)
    assert checked >= {"state.py": 70}.get(path.name, 1)


def test_no_refusal_in_the_hand_state_is_an_f_string():
    tree = ast.parse((RULES / "holdem_bonus" / "state.py").read_text(encoding="utf-8"))
    fails = [c for c, callee, _ in _refusal_calls(tree) if callee == "_fail"]
    assert len(fails) >= 70
    assert not [c.lineno for c in fails if any(isinstance(a, ast.JoinedStr) for a in ast.walk(c))]
