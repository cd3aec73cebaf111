"""The director's random draw (RP-14): drawn from a seed the record keeps, the same draw from the same seed."""

from __future__ import annotations

import random

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.random_draw import MAX_CHOICES, check_choices, drawn, new_seed
from casino.rules.tournament.record import replay

from .test_record import started

SEATS = ["Seat 3", "Seat 7", "Seat 9"]


def test_rp14_the_same_seed_draws_the_same_choice():
    for seed in (0, 1, 2**63, 2**64 - 1):
        assert drawn(SEATS, seed) == drawn(list(SEATS), seed) == random.Random(seed).randrange(3)


def test_rp14_every_choice_can_be_drawn():
    rng = random.Random(38)
    assert {drawn(SEATS, new_seed(rng)) for _ in range(200)} == {0, 1, 2}


@pytest.mark.parametrize("choices", [["only"], [], ["a", " "], ["a", "a"], ["a", "x" * 81],
                                     [str(n) for n in range(MAX_CHOICES + 1)]])
def test_rp14_a_draw_is_between_two_to_twenty_distinct_choices(choices):
    with pytest.raises(RuleViolation) as refused:
        check_choices(choices)
    assert refused.value.clause == "RP-14"


@pytest.mark.parametrize("seed", [-1, 2**64, True, "7"])
def test_rp14_a_seed_is_a_whole_64_bit_number(seed):
    with pytest.raises(RuleViolation):
        drawn(SEATS, seed)


def test_rp14_the_record_replays_a_draw_only_as_its_seed_draws_it():
    seed = 1234567890123
    record = started()
    record.add("random_draw", reason="two cards boxed", choices=SEATS, seed=str(seed), drawn=drawn(SEATS, seed))
    assert replay(record.events).players_left == 4  # the draw changes nothing in play
    tampered = started()
    tampered.add("random_draw", reason="two cards boxed", choices=SEATS, seed=str(seed),
                 drawn=(drawn(SEATS, seed) + 1) % 3)
    with pytest.raises(RuleViolation, match="not the one its seed draws"):
        replay(tampered.events)
