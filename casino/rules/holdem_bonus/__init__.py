"""Texas Hold'em Bonus: the casino-banked game of the manual (THB-01..76), as a pure-Python engine.

Using it
========

A hand is a frozen ``HandState``; every action is a trio ``verify_X`` (raises
``RuleViolation`` naming the clause), ``can_X`` (bool) and ``X`` (returns the
next state)::

    from casino.rules.holdem_bonus import TableRules, new_hand

    rules = TableRules(min_ante=5)                 # max 100 (20 x min, THB-18), manual paytable
    hand = new_hand(rules)                         # phase bets-open
    hand = hand.place_ante(1, 10).place_bonus(1, 5).close_bets().deal_initial()
    hand.can_bet_flop(1, 30)                       # False: the flop bet is exactly 2 x ante (THB-57)
    hand = hand.bet_flop(1, 20).deal_flop(["2c", "7d", "9h"])
    hand = hand.bet_turn(1, 10).deal_turn("Js").pass_river(1).deal_river("Kc")
    hand = hand.reveal_dealer(["Ah", "Ad"]).reveal_box(1, ["As", "Ac"])
    hand.phase                                     # Phase.SETTLED
    hand.settlement.box(1).bonus.wager.net         # 5000, approval pending (THB-54)
    hand = hand.approve_bonus(1, approver="pit boss 12")

Storing and replaying
=====================

Each state keeps the records of what happened, ``hand.actions``; each record
is JSON-safe (``action.to_dict()``, ``action_from_dict(data)``). The live table
stores those dicts in order and rebuilds the hand with::

    hand = replay(rules, records)                  # records: dicts or Action objects

To take a new action: ``record = BetFlop(box=3, amount=20)``;
``hand.verify(record)`` (or ``hand.can(record)``); ``hand = hand.apply(record)``;
store ``record.to_dict()``. A refused record in ``replay`` raises
``ReplayError`` (a ``RuleViolation``) with its index.

Recorded mode (default): the dealer enters the physical cards as they are
seen. Dealt mode: first ``hand.load_shoe(Shoe.shuffled())`` (the shuffled order
is recorded, so replay is exact); then the engine deals (THB-40..45).

Reading the result
==================

``hand.settlement`` (a ``HandSettlement``) once the phase is ``settled`` or
``void``: per box ``BoxSettlement`` with ``outcome`` (win, lose, push, fold,
void), ``category``, one ``Wager(stake, net)`` per bet (``returned = stake +
net``), the Bonus award and its approval, ``net``; ``house_net`` is minus the
players' nets; ``pending_approvals`` lists boxes whose award is blocked.

Other modules: ``paytable`` (award keys, registry of named paytables),
``house_edge`` (exact odds by counting), ``record`` (the ``replay_hand``
JSON format), ``table_rules`` (limits and house options).
"""

from casino.rules.holdem_bonus.actions import (
    Action,
    ApproveBonus,
    BetFlop,
    BetRiver,
    BetTurn,
    CloseBets,
    DealFlop,
    DealInitial,
    DealRiver,
    DealTurn,
    DenyBonus,
    Fold,
    LoadShoe,
    PassRiver,
    PassTurn,
    PlaceAnte,
    PlaceBonus,
    ReportBoxWrongCardCount,
    ReportDealerCardExposed,
    ReportDealerWrongCardCount,
    ReportFaceUpCard,
    RevealBox,
    RevealDealer,
    VoidHand,
    WithdrawBets,
    action_from_dict,
    action_kinds,
)
from casino.rules.holdem_bonus.house_edge import PaytableOdds, bonus_house_edge, paytable_odds
from casino.rules.holdem_bonus.paytable import (
    AWARD_KEYS,
    MANUAL_PAYTABLE,
    Paytable,
    classify_hole_cards,
    get_paytable,
    paytable_names,
    register_paytable,
)
from casino.rules.holdem_bonus.settlement import (
    Approval,
    BonusResult,
    BoxSettlement,
    HandSettlement,
    Outcome,
    Wager,
    settle_against_dealer,
    settle_bonus_bet,
    settle_hand,
)
from casino.rules.holdem_bonus.state import Box, Decision, HandState, Mode, Phase, ReplayError, new_hand, replay
from casino.rules.holdem_bonus.table_rules import TableRules

__all__ = [
    "AWARD_KEYS", "MANUAL_PAYTABLE", "Action", "ApproveBonus", "Approval", "BetFlop", "BetRiver", "BetTurn",
    "BonusResult", "Box", "BoxSettlement", "CloseBets", "DealFlop", "DealInitial", "DealRiver", "DealTurn",
    "Decision", "DenyBonus", "Fold", "HandSettlement", "HandState", "LoadShoe", "Mode", "Outcome", "PassRiver",
    "PassTurn", "Paytable", "PaytableOdds", "Phase", "PlaceAnte", "PlaceBonus", "ReplayError",
    "ReportBoxWrongCardCount", "ReportDealerCardExposed", "ReportDealerWrongCardCount", "ReportFaceUpCard",
    "RevealBox", "RevealDealer", "TableRules", "VoidHand", "Wager", "WithdrawBets", "action_from_dict",
    "action_kinds", "bonus_house_edge", "classify_hole_cards", "get_paytable", "new_hand", "paytable_names",
    "paytable_odds", "register_paytable", "replay", "settle_against_dealer", "settle_bonus_bet", "settle_hand",
]
