"""Settling a Texas Hold'em Bonus hand: every bet's net, in whole units (THB-47..68, C-29, C-31).

Each bet is a ``Wager(stake, net)``: ``net`` is what the player won (positive),
lost (``-stake``) or 0 for a push or a bet returned, and ``stake + net`` is
exactly what goes back to the player's spot. The house's result is minus the
sum of the players' nets.

Against the dealer (THB-47..50, THB-63, THB-68):

* the dealer's better hand takes ante, flop, turn and river;
* equal hands (same five-card combination, suits ignored) push them all;
* the player's better hand wins flop, turn and river 1 to 1; the ante wins
  1 to 1 only with a straight or better (house option: a flush or better)
  and otherwise pushes (C-29b).

A fold loses the ante at once and nothing else (THB-56). The Bonus is
settled on the player's two cards alone, whatever happened to the other bets
and even after a fold (THB-39, THB-51, C-31).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from casino.rules.cards import Card
from casino.rules.evaluator import Category, category_of_rank, rank_cards
from casino.rules.holdem_bonus.table_rules import TableRules

if TYPE_CHECKING:  # pragma: no cover
    from casino.rules.holdem_bonus.state import Box


class Outcome(Enum):
    """A box's result against the dealer; ``fold`` and ``void`` did not reach the showdown."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    FOLD = "fold"
    VOID = "void"


class Approval(Enum):
    """Where a Bonus award that needs approval stands (THB-54, C-30)."""

    PENDING = "pending"
    APPROVED = "approved"
    DENIED = "denied"


@dataclass(frozen=True, slots=True)
class Wager:
    """One bet's stake and net result; ``returned`` is what goes back to the player."""

    stake: int = 0
    net: int = 0

    @property
    def returned(self) -> int:
        return self.stake + self.net

    @classmethod
    def won(cls, stake: int, odds: int = 1) -> Wager:
        return cls(stake, stake * odds)

    @classmethod
    def lost(cls, stake: int) -> Wager:
        return cls(stake, -stake)

    @classmethod
    def pushed(cls, stake: int) -> Wager:
        return cls(stake, 0)


NO_BET = Wager()


@dataclass(frozen=True, slots=True)
class BonusResult:
    """The Bonus bet's award and net; ``needs_approval`` awards are blocked until approved (THB-54)."""

    wager: Wager
    award: str | None
    odds: int
    needs_approval: bool
    approval: Approval | None

    @property
    def is_blocked(self) -> bool:
        return self.approval is Approval.PENDING


NO_BONUS = BonusResult(wager=NO_BET, award=None, odds=0, needs_approval=False, approval=None)


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    """A box's settled bets."""

    box: int
    outcome: Outcome
    category: Category | None
    ante: Wager
    flop: Wager
    turn: Wager
    river: Wager
    bonus: BonusResult

    @property
    def wagers(self) -> dict[str, Wager]:
        return {"ante": self.ante, "flop": self.flop, "turn": self.turn, "river": self.river, "bonus": self.bonus.wager}

    @property
    def net(self) -> int:
        return sum(w.net for w in self.wagers.values())

    @property
    def staked(self) -> int:
        return sum(w.stake for w in self.wagers.values())

    @property
    def returned(self) -> int:
        return sum(w.returned for w in self.wagers.values())

    def to_answer(self) -> dict:
        """The box as the ``replay_hand`` answer writes it (docs/hand-history.md)."""
        answer: dict = {"box": self.box}
        if self.category is not None:
            answer["category"] = self.category.value
        answer["outcome"] = self.outcome.value
        for name in ("ante", "flop", "turn", "river"):
            answer[name] = getattr(self, name).net
        answer["bonus"] = self.bonus.wager.net
        if self.bonus.wager.stake:
            answer["bonus_award"] = self.bonus.award
            answer["needs_approval"] = self.bonus.needs_approval
            if self.bonus.approval in (Approval.APPROVED, Approval.DENIED):
                # Only once decided: without it an award that needs approval is still pending.
                answer["approval"] = self.bonus.approval.value
        answer["net"] = self.net
        return answer

    def to_dict(self) -> dict:
        """Everything about the box's settlement, JSON-safe (for the live table and audits)."""
        return {
            "box": self.box,
            "outcome": self.outcome.value,
            "category": self.category.value if self.category else None,
            "wagers": {k: {"stake": w.stake, "net": w.net, "returned": w.returned} for k, w in self.wagers.items()},
            "bonus_award": self.bonus.award,
            "bonus_odds": self.bonus.odds,
            "needs_approval": self.bonus.needs_approval,
            "approval": self.bonus.approval.value if self.bonus.approval else None,
            "net": self.net,
        }


@dataclass(frozen=True, slots=True)
class HandSettlement:
    """The whole hand's settlement: one entry per box that had bets, in box order."""

    boxes: tuple[BoxSettlement, ...]
    dealer_category: Category | None
    void: bool = False

    @property
    def house_net(self) -> int:
        """The house's result: minus the sum of the players' nets."""
        return -sum(b.net for b in self.boxes)

    @property
    def pending_approvals(self) -> tuple[int, ...]:
        """Boxes whose Bonus award waits for approval before it is paid (THB-54)."""
        return tuple(b.box for b in self.boxes if b.bonus.is_blocked)

    def box(self, number: int) -> BoxSettlement:
        return next(b for b in self.boxes if b.box == number)

    def to_dict(self) -> dict:
        return {
            "void": self.void,
            "dealer_category": self.dealer_category.value if self.dealer_category else None,
            "boxes": [b.to_dict() for b in self.boxes],
            "house_net": self.house_net,
            "pending_approvals": list(self.pending_approvals),
        }


def settle_bonus_bet(
    rules: TableRules,
    stake: int,
    hole: Iterable[Card] | None,
    dealer: Iterable[Card] | None,
    approval: Approval | None = None,
) -> BonusResult:
    """Settle a Bonus on the two hole cards alone (THB-51, THB-53), blocked if it needs approval (THB-54).

    ``approval`` is the approver's decision once recorded; a denied award is
    not paid and its stake is returned (net 0).
    """
    if not stake:
        return NO_BONUS
    award = rules.paytable.award_for(hole, dealer)
    if award is None:
        return BonusResult(Wager.lost(stake), None, 0, needs_approval=False, approval=None)
    odds = rules.paytable.pays[award]
    wager = Wager.won(stake, odds)
    if not rules.award_needs_approval(award, wager.net):
        return BonusResult(wager, award, odds, needs_approval=False, approval=None)
    status = approval or Approval.PENDING
    if status is Approval.DENIED:
        wager = Wager.pushed(stake)
    return BonusResult(wager, award, odds, needs_approval=True, approval=status)


def settle_against_dealer(
    rules: TableRules, box: Box, player_rank: int, dealer_rank: int
) -> tuple[Outcome, Wager, Wager, Wager, Wager]:
    """Ante, flop, turn and river of a box that played, against the dealer (THB-47..50, THB-63, THB-68).

    Ranks are the evaluator's (smaller is stronger; equal ranks are the ties of THB-68).
    """
    bets = (box.ante, box.flop, box.turn, box.river)
    if player_rank > dealer_rank:
        return (Outcome.LOSE, *(Wager.lost(s) if s else NO_BET for s in bets))
    if player_rank == dealer_rank:
        return (Outcome.PUSH, *(Wager.pushed(s) if s else NO_BET for s in bets))
    # The ante wins only from the house's qualifying hand up; below it, it is returned (THB-50, C-29b).
    ante = Wager.won(box.ante) if category_of_rank(player_rank) >= rules.ante_pays_from else Wager.pushed(box.ante)
    return (Outcome.WIN, ante, *(Wager.won(s) if s else NO_BET for s in bets[1:]))


def void_box_settlement(box: Box) -> BoxSettlement:
    """Every stake of the box returned exactly (THB-73, THB-74, THB-76)."""
    return BoxSettlement(
        box=box.number,
        outcome=Outcome.VOID,
        category=None,
        ante=Wager.pushed(box.ante),
        flop=Wager.pushed(box.flop) if box.flop else NO_BET,
        turn=Wager.pushed(box.turn) if box.turn else NO_BET,
        river=Wager.pushed(box.river) if box.river else NO_BET,
        bonus=BonusResult(Wager.pushed(box.bonus), None, 0, False, None) if box.bonus else NO_BONUS,
    )


def settle_hand(
    rules: TableRules,
    boxes: Iterable[Box],
    dealer_cards: tuple[Card, ...] | None,
    board: tuple[Card, ...],
    approvals: dict[int, Approval] | None = None,
) -> HandSettlement:
    """Settle every box of a finished hand. Boxes that played need the dealer's cards and the full board."""
    approvals = approvals or {}
    boxes = tuple(boxes)
    dealer_rank = None
    if any(b.plays for b in boxes):
        dealer_rank = rank_cards(dealer_cards + board)
    settled = []
    for box in boxes:
        if box.void:
            settled.append(void_box_settlement(box))
            continue
        bonus = settle_bonus_bet(rules, box.bonus, box.cards, dealer_cards, approvals.get(box.number))
        if box.plays and box.conceded:
            # THB-66: the player conceded without turning his cards: every main bet is lost.
            outcome, category = Outcome.LOSE, None
            stakes = (box.ante, box.flop, box.turn, box.river)
            ante, flop, turn, river = (Wager.lost(s) if s else NO_BET for s in stakes)
        elif box.plays:
            player_rank = rank_cards(box.cards + board)
            outcome, ante, flop, turn, river = settle_against_dealer(rules, box, player_rank, dealer_rank)
            category = category_of_rank(player_rank)
        else:
            # "No va": the ante is lost to the house at once (THB-56); no other main bet was made.
            outcome, ante, flop, turn, river = Outcome.FOLD, Wager.lost(box.ante), NO_BET, NO_BET, NO_BET
            category = None
        settled.append(BoxSettlement(box.number, outcome, category, ante, flop, turn, river, bonus))
    dealer_category = category_of_rank(dealer_rank) if dealer_rank is not None else None
    return HandSettlement(boxes=tuple(settled), dealer_category=dealer_category)


def void_hand_settlement(boxes: Iterable[Box]) -> HandSettlement:
    """A void round ("mano nula"): every stake goes back exactly (THB-24, THB-73, THB-74, THB-76)."""
    return HandSettlement(boxes=tuple(void_box_settlement(b) for b in boxes), dealer_category=None, void=True)
