"""Dealer-driven Texas Hold'em under the TDA betting rules (no-limit, pot-limit, fixed-limit).

Pure Python, no Django. The public pieces:

- ``TableSetup``, ``HouseRules``, ``Ante`` and the enums ``Betting``,
  ``AnteKind``, ``Mode``, ``MisdealCutoff``, ``CapLift``,
  ``OutOfTurnAfterChange`` (``config``);
- ``HoldemHand`` with ``Street``, ``Phase``, ``Legal``, ``ChipsReading`` (``hand``);
- the action records and ``action_from_dict`` (``actions``);
- ``Pot``, ``build_pots``, ``split_pot`` (``pots``);
- ``replay_holdem_hand`` for the hand-history line format (``replay``).

See ``docs/holdem-engine.md``.
"""

from casino.rules.holdem.actions import Action, action_from_dict
from casino.rules.holdem.config import (
    DEFAULT_RULES,
    Ante,
    AnteKind,
    Betting,
    CapLift,
    HouseRules,
    MisdealCutoff,
    Mode,
    OutOfTurnAfterChange,
    TableSetup,
)
from casino.rules.holdem.hand import ChipsReading, HoldemHand, Legal, Phase, Street
from casino.rules.holdem.pots import Pot, build_pots, split_pot

__all__ = [
    "DEFAULT_RULES",
    "Action",
    "Ante",
    "AnteKind",
    "Betting",
    "CapLift",
    "ChipsReading",
    "HoldemHand",
    "HouseRules",
    "Legal",
    "MisdealCutoff",
    "Mode",
    "OutOfTurnAfterChange",
    "Phase",
    "Pot",
    "Street",
    "TableSetup",
    "action_from_dict",
    "build_pots",
    "split_pot",
]
