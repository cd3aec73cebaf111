"""What each screen may see of a hand: small pure functions of the engine's ``HandState``.

Screens never read a ``HandState`` directly. Each one gets a projection made
of plain values (numbers, strings, small dicts and lists) that holds only what
its viewer may see, so a template cannot leak what it was never given:

* ``player_projection``: one box's bets, decisions and result, the community
  cards, the dealer's cards only once he has shown them, and the box's own
  hole cards only (in dealt mode as soon as they are dealt). Never another
  box, never the discards or the shoe (THB-13, the issue's privacy rule).
* ``dealer_projection``: what the tablet asks for next and the cards that are
  on the table face up. A tablet can be seen from the boxes, so face-down
  cards stay off it too, the dealer's included (THB-73).
* ``pit_summary``: phase, boxes in play and amounts at risk for the console.

Labels are lazy translations: the projection is computed once and rendered in
the viewer's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.rules.holdem_bonus import Decision, HandState, Mode, Phase
from casino.rules.holdem_bonus.settlement import Approval, BoxSettlement
from tables.labels import AWARD_LABELS
from tables.models import BOX_NUMBERS

SUITS = {"c": ("♣", False), "d": ("♦", True), "h": ("♥", True), "s": ("♠", False)}
STREETS = ("flop", "turn", "river")

PHASE_LABELS = {
    "bets-open": _("Place your bets"),
    "no-more-bets": _("No more bets"),
    "initial-deal": _("Cards dealt"),
    "flop-decisions": _("Flop decisions"),
    "flop": _("Flop"),
    "turn-decisions": _("Turn decisions"),
    "turn": _("Turn"),
    "river-decisions": _("River decisions"),
    "river": _("River"),
    "showdown": _("Showdown"),
    "settled": _("Settled"),
    "void": _("Void hand"),
    # The steps the phases alone do not name (issue #16: the labels lagged a step behind the tablet).
    "flop-cards": _("Deal the flop"),
    "turn-cards": _("Deal the turn"),
    "river-cards": _("Deal the river"),
    "approval": _("Waiting for the pit boss's approval"),
}


def phase_label(state: HandState) -> str:
    """The hand's step as the dealer is living it: the decisions while boxes still decide, the card to
    deal once they have, the showdown, and a settled hand whose award waits for approval as waiting."""
    phase = state.phase
    if phase is Phase.SETTLED and state.settlement is not None and state.settlement.pending_approvals:
        return PHASE_LABELS["approval"]
    if phase in (Phase.INITIAL_DEAL, Phase.FLOP_DECISIONS, Phase.FLOP, Phase.TURN_DECISIONS,
                 Phase.TURN, Phase.RIVER_DECISIONS):
        street = state.street
        if street is not None and state.to_act is not None:
            return PHASE_LABELS[f"{street}-decisions"]
        nxt = {Phase.INITIAL_DEAL: "flop", Phase.FLOP_DECISIONS: "flop", Phase.FLOP: "turn",
               Phase.TURN_DECISIONS: "turn", Phase.TURN: "river", Phase.RIVER_DECISIONS: "river"}[phase]
        return PHASE_LABELS[f"{nxt}-cards"]
    if phase is Phase.RIVER:
        return PHASE_LABELS["showdown"]
    return PHASE_LABELS[phase.value]
CATEGORY_LABELS = {
    "high-card": _("High card"),
    "one-pair": _("Pair"),
    "two-pair": _("Two pair"),
    "three-of-a-kind": _("Three of a kind"),
    "straight": _("Straight"),
    "flush": _("Flush"),
    "full-house": _("Full house"),
    "four-of-a-kind": _("Four of a kind"),
    "straight-flush": _("Straight flush"),
    "royal-flush": _("Royal flush"),
}
OUTCOME_LABELS = {
    "win": _("Wins"),
    "lose": _("Loses"),
    "push": _("Push"),
    "fold": _("Folded"),
    "void": _("Void: stakes returned"),
}
DECISION_LABELS = {
    ("flop", "bet"): _("Plays (va)"),
    ("flop", "fold"): _("Folds (no va)"),
    ("turn", "bet"): _("Bets the turn"),
    ("turn", "check"): _("Checks the turn"),
    ("river", "bet"): _("Bets the river"),
    ("river", "check"): _("Checks the river"),
}
WAGER_LABELS = {
    "ante": _("Ante"),
    "flop": _("Flop"),
    "turn": _("Turn"),
    "river": _("River"),
    "bonus": _("Bonus"),
}
APPROVAL_LABELS = {
    "pending": _("Waiting for the pit boss's approval"),
    "approved": _("Approved"),
    "denied": _("Denied: Bonus stake returned"),
}


# --------------------------------------------------------------------------- cards


def card_view(card) -> dict[str, Any]:
    """A card as a screen draws it: ``{"code": "Th", "rank": "10", "symbol": "♥", "red": True}``."""
    code = str(card)
    symbol, red = SUITS[code[1]]
    rank = "10" if code[0] == "T" else code[0]
    return {"code": code, "rank": rank, "symbol": symbol, "red": red, "label": rank + symbol}


def cards_view(cards: Iterable | None) -> list[dict[str, Any]] | None:
    return None if cards is None else [card_view(c) for c in cards]


# --------------------------------------------------------------------------- results


def _category(value) -> dict[str, Any] | None:
    if value is None:
        return None
    key = getattr(value, "value", value)
    return {"key": key, "label": CATEGORY_LABELS.get(key, key)}


def box_result(settled: BoxSettlement) -> dict[str, Any]:
    """One box's settlement in numbers a dealer pays from: each bet's net, what to take and what to pay."""
    wagers = []
    take = pay = held = 0
    bonus = settled.bonus
    for name, wager in settled.wagers.items():
        if not wager.stake:
            continue
        wagers.append({"name": name, "label": WAGER_LABELS[name], "stake": wager.stake, "net": wager.net,
                       "returned": wager.returned})
        if wager.net < 0:
            take += -wager.net
        elif name == "bonus" and bonus.approval is Approval.PENDING:
            held += wager.net  # not paid until the approver decides (THB-54)
        else:
            pay += wager.net
    approval = bonus.approval.value if bonus.approval else None
    return {
        "box": settled.box,
        "outcome": settled.outcome.value,
        "outcome_label": OUTCOME_LABELS[settled.outcome.value],
        "category": _category(settled.category),
        "wagers": wagers,
        "by_name": {w["name"]: w for w in wagers},
        "bonus_award": bonus.award,
        "bonus_award_label": AWARD_LABELS.get(bonus.award) if bonus.award else None,
        "bonus_odds": bonus.odds,
        "approval": approval,
        "approval_label": APPROVAL_LABELS.get(approval) if approval else None,
        "blocked": bonus.approval is Approval.PENDING,
        "take": take,
        "pay": pay,
        "held": held,
        "net": settled.net,
        "staked": settled.staked,
        "returned": settled.returned,
    }


# --------------------------------------------------------------------------- the player's phone


def _decisions(box) -> list[dict[str, Any]]:
    out = []
    for street, decision in zip(STREETS, box.decisions):
        if decision is not None:
            out.append({"street": street, "decision": decision.value,
                        "label": DECISION_LABELS[(street, decision.value)]})
    return out


def _bets(box) -> list[dict[str, Any]]:
    return [{"name": name, "label": WAGER_LABELS[name], "amount": getattr(box, name)}
            for name in ("ante", "flop", "turn", "river", "bonus") if getattr(box, name)]


def player_projection(state: HandState | None, box_number: int) -> dict[str, Any]:
    """Everything box ``box_number``'s phone may know about the current hand, and nothing more.

    The community cards are public; the dealer's cards only once he has
    turned them (THB-46, THB-61); the box's own cards as the engine knows them
    (dealt mode: from the deal; recorded mode: once the dealer enters them).
    """
    view: dict[str, Any] = {"box": box_number, "hand": state is not None}
    if state is None:
        return view
    phase = state.phase.value
    view.update(
        phase=phase,
        phase_label=phase_label(state),
        mode=state.mode.value,
        board=cards_view(state.board),
        dealer_cards=cards_view(state.dealer_cards) if state.dealer_revealed else None,
        dealer_category=None,
        void=state.phase is Phase.VOID,
    )
    if state.dealer_revealed:
        dealer_value = state.dealer_hand_value()
        view["dealer_category"] = _category(dealer_value.category) if dealer_value else None
    own = state.box(box_number)
    view["in_hand"] = own is not None
    if own is None:
        return view
    view.update(
        bets=_bets(own),
        staked=own.staked,
        decisions=_decisions(own),
        cards=cards_view(own.cards),
        box_void=own.void,
        to_act=state.to_act == box_number,
        street=state.street,
    )
    value = state.hand_value(box_number)
    view["category"] = _category(value.category) if value else None
    if state.settlement is not None and state.phase in (Phase.SETTLED, Phase.VOID):
        settled = next((b for b in state.settlement.boxes if b.box == box_number), None)
        view["result"] = box_result(settled) if settled else None
    return view


# --------------------------------------------------------------------------- the dealer's tablet


def next_step(state: HandState | None) -> dict[str, Any]:
    """What the tablet asks the dealer for now, in the manual's order, with the buttons the engine allows."""
    if state is None:
        return {"kind": "no-hand"}
    phase = state.phase
    if phase is Phase.BETS_OPEN:
        return {"kind": "bets", "can_close": state.can_close_bets()}
    if phase is Phase.NO_MORE_BETS:
        return {"kind": "deal-initial", "can_deal": state.can_deal_initial()}
    if phase is Phase.SETTLED:
        pending = list(state.settlement.pending_approvals)
        # THB-65: while an award is held, the cards of every box that won on the Bonus stay out of the discards.
        kept = [b.box for b in state.settlement.boxes if b.bonus.award is not None] if pending else []
        return {"kind": "approval" if pending else "settled", "pending": pending, "cards_kept": kept}
    if phase is Phase.VOID:
        return {"kind": "void", "reason": state.void_reason, "clause": state.void_clause}
    street = state.street
    if street is not None and state.to_act is not None:
        number = state.to_act
        box = state.box(number)
        step = {"kind": "decision", "street": street, "box": number, "ante": box.ante}
        if street == "flop":
            step.update(bet_amount=2 * box.ante, can_bet=state.can_bet_flop(number, 2 * box.ante),
                        can_fold=state.can_fold(number))
        elif street == "turn":
            step.update(bet_amount=box.ante, can_bet=state.can_bet_turn(number, box.ante),
                        can_check=state.can_pass_turn(number))
        else:
            step.update(bet_amount=box.ante, can_bet=state.can_bet_river(number, box.ante),
                        can_check=state.can_pass_river(number))
        return step
    if phase in (Phase.INITIAL_DEAL, Phase.FLOP_DECISIONS):
        return {"kind": "street", "street": "flop", "count": 3}
    if phase in (Phase.FLOP, Phase.TURN_DECISIONS):
        return {"kind": "street", "street": "turn", "count": 1}
    if phase in (Phase.TURN, Phase.RIVER_DECISIONS):
        return {"kind": "street", "street": "river", "count": 1}
    # The engine knows the showdown's order (THB-15, THB-62, C-31): the tablet asks for its first entry.
    queue = state.showdown_order
    if not queue:  # pragma: no cover - the engine settles by itself when nothing is missing
        return {"kind": "settled", "pending": []}
    who, number = queue[0]
    if who == "dealer":
        return {"kind": "dealer-cards", "count": 2}
    return {"kind": "box-cards", "box": number, "count": 2, "folded": state.box(number).folded,
            # THB-66: a player who says his hand loses need not turn his cards (the engine decides when).
            "can_concede": state.can_concede_box(number)}


def used_cards(state: HandState | None) -> set[str]:
    """Cards already face up or recorded this hand, greyed out in the card picker (THB-03)."""
    if state is None:
        return set()
    used = {str(c) for c in state.board} | {str(c) for c in state.discards}
    for box in state.boxes:
        if box.revealed or state.mode is Mode.RECORDED:
            used |= {str(c) for c in box.cards or ()}
    if state.dealer_revealed or state.mode is Mode.RECORDED:
        used |= {str(c) for c in state.dealer_cards or ()}
    return used


def dealer_projection(state: HandState | None) -> dict[str, Any]:
    """The tablet's view of the hand: every box's bets and decisions, face-up cards only."""
    if state is None:
        return {"hand": False, "step": next_step(None), "boxes": [], "used": []}
    boxes = {b.number: b for b in state.boxes}
    settlement = state.settlement if state.phase in (Phase.SETTLED, Phase.VOID) else None
    rows = []
    for number in BOX_NUMBERS:
        box = boxes.get(number)
        if box is None:
            rows.append({"box": number, "in_hand": False})
            continue
        shown = box.revealed
        value = state.hand_value(number) if shown else None
        rows.append({
            "box": number,
            "in_hand": True,
            "ante": box.ante,
            "bonus": box.bonus,
            "bets": _bets(box),
            "staked": box.staked,
            "decisions": _decisions(box),
            "plays": box.plays,
            "folded": box.folded,
            "void": box.void,
            "cards": cards_view(box.cards) if shown else None,
            "category": _category(value.category) if value else None,
            "can_withdraw": state.phase is Phase.BETS_OPEN and state.can_withdraw_bets(number),
        })
    results = []
    if settlement is not None:
        # Paying order: as the hands were opened, from box 7 down to box 1 (THB-15, THB-62, THB-64).
        results = [box_result(b) for b in sorted(settlement.boxes, key=lambda b: -b.box)]
    dealer_value = state.dealer_hand_value()
    return {
        "hand": True,
        "phase": state.phase.value,
        "phase_label": phase_label(state),
        "mode": state.mode.value,
        "step": next_step(state),
        "boxes": rows,
        "board": cards_view(state.board),
        "board_missing": list(range(5 - len(state.board))),
        "dealer_cards": cards_view(state.dealer_cards) if state.dealer_revealed else None,
        "dealer_category": _category(dealer_value.category) if dealer_value else None,
        "results": results,
        "house_net": settlement.house_net if settlement else None,
        "void_reason": state.void_reason,
        "void_clause": state.void_clause,
        "irregularities": list(state.irregularities),
        "used": sorted(used_cards(state)),
        "at_risk": sum(b.staked for b in state.boxes if not b.void),
        "irregularity_options": irregularity_options(state),
    }


def irregularity_options(state: HandState | None) -> dict[str, bool]:
    """Which of the manual's irregularities can be reported now (THB-73, THB-74, THB-76)."""
    if state is None:
        return {}
    live = [b.number for b in state.boxes if b.live and not b.revealed]
    return {
        "dealer-card-exposed": state.can_report_dealer_card_exposed(),
        "face-up-card": state.can_report_face_up_card(2),
        "box-wrong-count": any(state.can_report_box_wrong_card_count(n, 3) for n in live),
        "dealer-wrong-count": state.can_report_dealer_wrong_card_count(3),
    }


# --------------------------------------------------------------------------- the pit console


def pit_summary(state: HandState | None) -> dict[str, Any]:
    """A table's line on the console: phase, boxes in play and the amount at risk."""
    if state is None:
        return {"hand": False, "boxes_in_play": [], "at_risk": 0}
    in_play = [b.number for b in state.boxes if b.live and b.decisions[0] is not Decision.FOLD]
    over = state.phase in (Phase.SETTLED, Phase.VOID)
    # A Bonus award held for approval is still the house's risk until decided (issue #16: "En juego"
    # showed 0 while 5,000 was held); it is not yet in the session's result, which counts it apart.
    held = sum(b.bonus.wager.net for b in state.settlement.boxes if b.bonus.is_blocked) if state.settlement else 0
    return {
        "hand": True,
        "phase": state.phase.value,
        "phase_label": phase_label(state),
        "boxes_in_play": [] if over else in_play,
        "at_risk": held if over else sum(b.staked for b in state.boxes if not b.void),
        "held": held,
        "pending": list(state.settlement.pending_approvals) if state.settlement else [],
        "house_net": state.settlement.house_net if state.settlement and over else None,
    }


def approval_view(state: HandState, box_number: int) -> dict[str, Any]:
    """What the approver sees: the whole hand's cards, face up by now, and the award (THB-54, THB-67)."""
    settled = state.settlement.box(box_number)
    box = state.box(box_number)
    return {
        "box": box_number,
        "cards": cards_view(box.cards),
        "dealer_cards": cards_view(state.dealer_cards),
        "board": cards_view(state.board),
        "result": box_result(settled),
    }
