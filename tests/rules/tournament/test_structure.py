"""The structure: level numbers, the JSON round trip, the checks a director relies on (TDA-23, CC-50,
CC-68, CC-86..88)."""

from __future__ import annotations

import json

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.structure import (
    Break,
    Level,
    Structure,
    ante_for,
    check_structure,
    default_structure,
)

L1 = Level(25, 50)
L2 = Level(50, 100)
L3 = Level(100, 200, ante=200)


def refused(structure: Structure, clause: str, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        check_structure(structure, **kwargs)
    assert caught.value.clause == clause
    return caught.value


def test_cc86_level_numbers_never_count_breaks():
    structure = Structure(steps=(L1, L2, Break(), L3, Break(removes=(25,)), Level(200, 400)))
    assert [structure.level_number(i) for i in range(6)] == [1, 2, None, 3, None, 4]


def test_a_step_that_does_not_exist_is_refused_not_a_crash():
    with pytest.raises(RuleViolation):
        Structure(steps=(L1,)).level_number(3)


def test_during_a_break_the_level_in_play_is_the_one_before_and_the_next_the_one_after():
    structure = Structure(steps=(L1, L2, Break(), L3))
    assert structure.level_at(2) == L2
    assert structure.next_level_after(2) == L3
    assert structure.next_level_after(1) == L3  # past the break
    assert structure.next_level_after(3) is None


def test_tda24_denominations_leave_play_at_the_break_that_colours_them_up():
    structure = Structure(steps=(L1, Break(removes=(25,)), Level(100, 200)), denominations=(25, 100, 500))
    assert structure.denominations_at(0) == (25, 100, 500)
    assert structure.denominations_at(1) == (100, 500)
    assert structure.denominations_at(2) == (100, 500)


def test_the_structure_survives_json_and_back():
    structure = default_structure()
    stored = json.loads(json.dumps(structure.as_dict()))
    assert Structure.from_dict(stored) == structure


@pytest.mark.parametrize("data", [
    None, {}, {"steps": "x"}, {"steps": [{"kind": "level"}]}, {"steps": [{"kind": "nap", "minutes": 5}]},
    {"steps": [{"kind": "level", "small_blind": 2.5, "big_blind": 5}]},
    {"steps": [{"kind": "level", "small_blind": "25", "big_blind": 50}]},
    {"steps": [], "denominations": ["a"]},
])
def test_a_malformed_stored_structure_is_refused_with_a_reason(data):
    with pytest.raises(RuleViolation):
        Structure.from_dict(data)


def test_the_house_default_passes_its_own_checks_with_the_button_ante():
    check_structure(default_structure(), ante_mode="button")


def test_cc50_the_default_button_ante_equals_the_big_blind_from_its_first_ante_level():
    levels = [s for s in default_structure().steps if isinstance(s, Level)]
    first_ante = next(i for i, level in enumerate(levels) if level.ante)
    assert first_ante > 0
    assert all(level.ante == level.big_blind for level in levels[first_ante:])
    assert all(level.ante == 0 for level in levels[:first_ante])


def test_cc68_the_default_colours_up_only_chips_no_later_level_needs():
    structure = default_structure()
    for index, step in enumerate(structure.steps):
        if isinstance(step, Level):
            smallest = structure.denominations_at(index)[0]
            assert all(amount % smallest == 0 for amount in (step.small_blind, step.big_blind, step.ante))
    assert any(isinstance(s, Break) and s.removes for s in structure.steps)


def test_cc86_a_structure_without_levels_is_refused():
    refused(Structure(steps=()), "CC-86")
    refused(Structure(steps=(Break(),)), "CC-86")


def test_cc86_a_big_blind_under_the_small_blind_is_refused():
    error = refused(Structure(steps=(Level(100, 50),)), "CC-86")
    assert "big blind" in str(error)


def test_cc86_blinds_must_be_positive_and_the_ante_not_negative():
    refused(Structure(steps=(Level(0, 50),)), "CC-86")
    refused(Structure(steps=(Level(25, 50, ante=-25),)), "CC-86")


def test_tda23_a_level_or_break_of_no_minutes_is_refused():
    refused(Structure(steps=(Level(25, 50, minutes=0),)), "TDA-23")
    refused(Structure(steps=(L1, Break(minutes=-5), L2)), "TDA-23")


def test_tda23_blinds_only_rise():
    refused(Structure(steps=(L2, L1)), "TDA-23")


def test_a_structure_must_end_with_a_level():
    refused(Structure(steps=(L1, Break())), "CC-86")


def test_cc68_a_blind_no_chip_in_play_can_make_is_refused():
    error = refused(Structure(steps=(Level(10, 20),), denominations=(25, 100)), "CC-68")
    assert "10" in str(error)


def test_cc68_an_ante_no_chip_in_play_can_make_is_refused():
    refused(Structure(steps=(Level(25, 50, ante=10),), denominations=(25, 100)), "CC-68")


def test_cc68_a_break_cannot_remove_a_chip_that_is_not_in_play():
    refused(Structure(steps=(L1, Break(removes=(5,)), L2)), "CC-68")
    refused(Structure(steps=(L1, Break(removes=(25,)), Level(100, 200), Break(removes=(25,)), Level(200, 400))),
            "CC-68")


def test_cc68_a_break_cannot_remove_a_chip_a_later_level_still_needs():
    error = refused(Structure(steps=(L1, Break(removes=(25,)), Level(75, 150))), "CC-68")
    assert "level 2" in str(error)


def test_cc68_colouring_up_removes_the_small_chips_first():
    refused(Structure(steps=(L1, Break(removes=(100,)), L2)), "CC-68")


def test_cc68_a_break_cannot_remove_every_chip():
    refused(Structure(steps=(L1, Break(removes=(25, 100, 500, 1000, 5000)), L2)), "CC-68")


def test_denominations_must_be_listed_smallest_first_and_positive():
    refused(Structure(steps=(L1,), denominations=(100, 25)), "CC-63")
    refused(Structure(steps=(L1,), denominations=()), "CC-63")


def test_cc50_with_the_button_ante_an_ante_other_than_the_big_blind_is_refused():
    refused(Structure(steps=(Level(100, 200, ante=25),)), "CC-50", ante_mode="button")
    check_structure(Structure(steps=(Level(100, 200, ante=25),)), ante_mode="big_blind")


def test_c02_an_event_without_antes_refuses_a_level_with_one():
    refused(Structure(steps=(L3,)), "C-02", ante_mode="none")


def test_cc51_the_button_ante_is_halved_to_the_small_blind_at_six_players_or_fewer():
    level = Level(300, 600, ante=600)
    assert ante_for(level, "button", players=9) == 600
    assert ante_for(level, "button", players=6) == 300
    assert ante_for(level, "button", players=6, halve_at_or_below=5) == 600
    assert ante_for(level, "big_blind", players=3) == 600  # RP-11 is not halved
    assert ante_for(level, "none", players=9) == 0
    assert ante_for(Level(25, 50), "button", players=9) == 0
