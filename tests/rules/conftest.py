"""Named fixtures for the rules-engine tests (no database, no Django needed).

The tables are the manual's limit tiers (THB-19): the 5-100 table is the
house default, and the flush table is the house option where the ante pays
from a flush (C-29b).
"""

from __future__ import annotations

import pytest

from casino.rules.evaluator import Category
from casino.rules.holdem_bonus import TableRules, new_hand


@pytest.fixture
def table_5_to_100() -> TableRules:
    """The manual's first tier: ante 5 to 100 (THB-19), manual paytable, ante pays from a straight."""
    return TableRules(min_ante=5)


@pytest.fixture
def flush_ante_table() -> TableRules:
    """A house that pays the ante only from a flush (house option, C-29b)."""
    return TableRules(min_ante=5, ante_pays_from=Category.FLUSH)


@pytest.fixture
def open_hand(table_5_to_100):
    """'Hagan sus apuestas' at the 5-100 table."""
    return new_hand(table_5_to_100)


@pytest.fixture
def three_boxes_dealt(open_hand):
    """Boxes 1 (ante 10, Bonus 5), 3 (ante 20) and 5 (ante 5) after the initial deal, recorded mode."""
    return (
        open_hand.place_ante(1, 10).place_bonus(1, 5).place_ante(3, 20).place_ante(5, 5)
        .close_bets().deal_initial()
    )


@pytest.fixture
def three_boxes_at_river(three_boxes_dealt):
    """The same hand with every box playing, the board 2c 7d 9h Js Kc dealt and all decisions made."""
    return (
        three_boxes_dealt.bet_flop(1).bet_flop(3).bet_flop(5).deal_flop(["2c", "7d", "9h"])
        .bet_turn(1).pass_turn(3).pass_turn(5).deal_turn("Js")
        .pass_river(1).bet_river(3).pass_river(5).deal_river("Kc")
    )
