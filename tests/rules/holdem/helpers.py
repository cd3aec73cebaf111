"""Small builders that keep the Hold'em tests reading like the rule book's examples."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.rules.cards import parse_cards
from casino.rules.holdem import Ante, AnteKind, Betting, HoldemHand, HouseRules, Phase, TableSetup


def new_hand(stacks: Mapping[int, int] | Sequence[int], button: int, small: int = 100, big: int = 200, *,
             betting: Betting = Betting.NO_LIMIT, ante: tuple[AnteKind, int] | None = None,
             rules: HouseRules | None = None, cards: Mapping[int, str] | None = None, **setup) -> HoldemHand:
    """A hand with the antes and blinds posted and the cards dealt: the first player is in turn."""
    if not isinstance(stacks, Mapping):
        stacks = {seat: chips for seat, chips in enumerate(stacks, start=1)}
    table = TableSetup(stacks=stacks, button=button, small_blind=small, big_blind=big, betting=betting,
                       ante=Ante(*ante) if ante else Ante(), **setup)
    hand = HoldemHand(table, rules or HouseRules())
    if hand.phase is Phase.ANTES:
        hand = hand.post_antes()
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards({seat: parse_cards(text) for seat, text in (cards or {}).items()})
    return hand


def play_round_passively(hand: HoldemHand) -> HoldemHand:
    """Everyone in turn calls or checks until the round is over."""
    while hand.phase is Phase.BETTING:
        hand = hand.call(hand.to_act)
    return hand


def to_street(hand: HoldemHand, street: str, board: str | None = None) -> HoldemHand:
    """Call and check around until ``street`` is dealt (with ``board`` cards when given)."""
    cards = iter(parse_cards(board)) if board else None
    order = ("preflop", "flop", "turn", "river")
    while hand.street.value != street or hand.phase is not Phase.BETTING:
        if hand.phase is Phase.BETTING:
            hand = play_round_passively(hand)
        elif hand.phase is Phase.BOARD:
            count = 3 if not hand.board else 1
            hand = hand.deal_next_street(None if cards is None else [next(cards) for _ in range(count)])
        else:
            raise AssertionError(f"the hand ended before the {street}: {hand!r}")
        assert order.index(hand.street.value) <= order.index(street)
    return hand


def finish(hand: HoldemHand, board: str | None = None) -> HoldemHand:
    """Deal out the board, show every live hand in order and award the pots: the finished hand."""
    cards = list(parse_cards(board)) if board else []
    while not hand.is_over:
        if hand.phase is Phase.BETTING:
            hand = play_round_passively(hand)
        elif hand.phase is Phase.BOARD:
            count = 3 if not hand.board else 1
            dealt = len(hand.board)
            hand = hand.deal_next_street(cards[dealt:dealt + count] or None)
        elif hand.phase is Phase.SHOWDOWN:
            for seat in hand.showdown_order():
                hand = hand.show_hand(seat)
        else:
            hand = hand.award_pots()
    return hand
