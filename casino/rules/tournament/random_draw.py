"""The director's random draw (RP-14): "para solucionar errores que las normas no contemplan" the TD may use
randomness. The draw is made from a seed the record keeps: anyone re-draws it from the record (``drawn``)
and finds the same choice, so the draw is checked, never taken on trust.

The seed is 64 bits from the OS CSPRNG (the service's ``rng``); the choice is ``random.Random(seed)``'s
``randrange`` over the choices in the order the director typed them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from casino.rules.errors import N_, RuleViolation

#: the most choices a draw takes (seats, players, cards: a table's worth and some)
MAX_CHOICES = 20
#: the longest choice, in characters
MAX_CHOICE_LENGTH = 80
SEED_BITS = 64


def check_choices(choices: Sequence[str]) -> tuple[str, ...]:
    """The choices as drawn: 2 to ``MAX_CHOICES``, none blank, none twice, each at most ``MAX_CHOICE_LENGTH``."""
    kept = tuple(str(c).strip() for c in choices)
    if not 2 <= len(kept) <= MAX_CHOICES:
        raise RuleViolation(N_("A draw is between 2 and %(most)s choices, not %(count)s"), "RP-14",
                            most=MAX_CHOICES, count=len(kept))
    if any(not c for c in kept):
        raise RuleViolation(N_("A choice of the draw is blank"), "RP-14")
    if any(len(c) > MAX_CHOICE_LENGTH for c in kept):
        raise RuleViolation(N_("A choice of the draw is longer than %(most)s characters"), "RP-14",
                            most=MAX_CHOICE_LENGTH)
    if len(set(kept)) != len(kept):
        raise RuleViolation(N_("A choice of the draw is written twice: each choice once"), "RP-14")
    return kept


def new_seed(rng: random.Random) -> int:
    return rng.getrandbits(SEED_BITS)


def drawn(choices: Sequence[str], seed: int) -> int:
    """The index of the choice the seed draws (the same seed and choices, the same index, everywhere)."""
    kept = check_choices(choices)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**SEED_BITS:
        raise RuleViolation(N_("A draw's seed is a whole number of %(bits)s bits"), "RP-14", bits=SEED_BITS)
    return random.Random(seed).randrange(len(kept))
