"""Play the same random hands through our engine and pokerkit 0.7.7 and compare them step by step.

Both engines get the same table, the same cards and the same acts. At every
turn they must agree on who acts, the call, the least and most a bet or
raise may go to and the chips in the middle; at the start of each street on
the pots; at the end on every stack. Where pokerkit departs from the TDA the
difference is named in ``KNOWN_DEPARTURES``: the hand is checked to follow
the TDA there and the comparison of that hand stops (the two states part).
Anything else is a failure.

Used by ``test_differential_pokerkit.py`` (a few hundred hands) and
``bench/diff_pokerkit.py`` (thousands).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field

import pokerkit as pk

from casino.rules.cards import full_deck
from casino.rules.holdem import (
    Ante,
    AnteKind,
    Betting,
    CapLift,
    HoldemHand,
    HouseRules,
    Mode,
    Phase,
    TableSetup,
)
from casino.rules.holdem.pots import split_pot

# The places where pokerkit 0.7.7 does not follow the TDA, each with what the TDA says instead.
KNOWN_DEPARTURES = {
    "TDA-47-ex3": "pokerkit lets a player who already acted raise again when he faces less than a full raise"
                  " made up with the big blind (TDA-47 example 3) or a short all-in bet below the big blind;"
                  " the TDA allows him only to call or fold",
    "TDA-47-cumulative": "once short all-ins add up to a full raise pokerkit counts afresh, so a player who acted"
                         " before all of them and faces more than a full raise in total may not raise; TDA-47"
                         " reopens the betting for him",
    "short-big-blind": "pokerkit lets the next players call a big blind posted short all-in for its short"
                       " amount; the big blind stays the full opening bet (TDA-43-ex2, TDA-51-B) and the pot-limit"
                       " maximum counts it in full (TDA-54-B)",
    "odd-chips": "pokerkit gives the whole remainder of a split pot to one winner, and first merges pots whose"
                 " contenders are the same once losing hands are mucked; TDA-21 settles each pot on its own and"
                 " TDA-20 gives its odd chips one each from the first winner left of the button",
    "pot-limit-short-blind": "pokerkit measures a pot-limit raise before the flop on a blind posted short"
                             " all-in as it stands; TDA-54-B counts an incomplete all-in blind in full",
    "raise-against-all-ins": "pokerkit refuses a raise when every opponent is all-in (or has too few chips to"
                             " call more than the bet already made); the TDA does not forbid it (the part nobody"
                             " can call is returned as uncalled)",
    "tournament-fold-when-check": "pokerkit's tournament mode refuses a fold when a check is possible; TDA-58"
                                  " allows it (binding, may be penalised)",
    "check-against-all-ins": "pokerkit asks the one player with chips left to check on each street when all his"
                             " opponents are all-in; no more betting is possible, so the hands are tabled and the"
                             " board dealt out (TDA-16). Counted, and the comparison goes on",
    "limit-short-all-in": "pokerkit counts any all-in raise toward the fixed-limit cap and sizes the next raise"
                          " from it; TDA-47-B counts only a bet or raise of at least half a bet as full",
}

# Departures where only one engine may raise: the hand goes on with the acts both allow.
GOING_ON = frozenset({"TDA-47-ex3", "TDA-47-cumulative", "raise-against-all-ins"})

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)
DECK = [str(c) for c in full_deck()]


class Departure(Exception):  # noqa: N818 - it is a finding, not an error
    """A known pokerkit departure met in this hand: compare no further."""

    def __init__(self, name: str) -> None:
        assert name in KNOWN_DEPARTURES, name
        super().__init__(name)
        self.name = name


@dataclass
class Tally:
    hands: int = 0
    steps: int = 0
    completed: int = 0  # hands compared to the end
    departures: Counter = field(default_factory=Counter)


# -- random tables -------------------------------------------------------------------------------------


def random_table(rng: random.Random) -> tuple[TableSetup, HouseRules]:
    n = rng.randint(2, 9)
    seats = sorted(rng.sample(range(1, 11), n))
    button = rng.choice(seats)
    big = rng.choice((2, 10, 20, 100, 200, 400))
    small = big // 2
    betting = rng.choices((Betting.NO_LIMIT, Betting.POT_LIMIT, Betting.FIXED_LIMIT), (6, 3, 2))[0]
    kind = rng.choices(list(AnteKind), (5, 2, 2, 2))[0]
    ante = Ante(kind, rng.choice((big // 4 or 1, big // 2, big)) if kind is not AnteKind.NONE else 0)
    stacks = {}
    for seat in seats:
        roll = rng.random()
        if roll < 0.08:
            chips = rng.randint(1, 2 * big)  # short enough to be all-in on the blinds
        elif roll < 0.5:
            chips = rng.randint(2 * big, 30 * big)
        else:
            chips = rng.randint(30 * big, 300 * big)
        stacks[seat] = chips
    rules = HouseRules(mode=Mode.TOURNAMENT, limit_cap_lifted_when=CapLift.NEVER,
                       button_ante_halved_at_or_below=rng.choice((None, 6)))
    return TableSetup(stacks=stacks, button=button, small_blind=small, big_blind=big, betting=betting, ante=ante), rules


def deal_cards(rng: random.Random, n: int) -> tuple[list[list[str]], list[str]]:
    """Hole cards by position (left of the button first) and burn/flop/burn/turn/burn/river."""
    deck = rng.sample(DECK, 2 * n + 8)
    return [deck[2 * i:2 * i + 2] for i in range(n)], deck[2 * n:]


def pokerkit_state(setup: TableSetup, rules: HouseRules, mode: pk.Mode = pk.Mode.CASH_GAME) -> pk.State:
    """The same table in pokerkit: its player 0 is the first seat left of the button, as our ``setup.order``."""
    n = setup.player_count
    stacks = [setup.stacks[s] for s in setup.order]
    ante = setup.ante
    trimming = False
    raw_antes: object = 0
    if ante.kind is AnteKind.BIG_BLIND:
        raw_antes = {1: ante.amount}  # pokerkit's player 1 is the big blind (heads-up too: it swaps antes)
    elif ante.kind is AnteKind.BUTTON:
        amount = ante.amount
        halve_at = rules.button_ante_halved_at_or_below
        if halve_at is not None and n <= halve_at:
            amount = amount // 2 // setup.chip_unit * setup.chip_unit
        raw_antes = {0 if n == 2 else n - 1: amount} if amount else 0
    elif ante.kind is AnteKind.EVERY_PLAYER:
        raw_antes, trimming = ante.amount, True
    bb, sb = setup.big_blind, setup.small_blind
    cap = rules.limit_raise_cap
    structure = {
        Betting.NO_LIMIT: pk.BettingStructure.NO_LIMIT,
        Betting.POT_LIMIT: pk.BettingStructure.POT_LIMIT,
        Betting.FIXED_LIMIT: pk.BettingStructure.FIXED_LIMIT,
    }[setup.betting]
    limit = setup.betting is Betting.FIXED_LIMIT

    def street(burn: bool, hole: int, board: int, size: int, count: int | None) -> pk.Street:
        return pk.Street(burn, (False,) * hole, board, False, pk.Opening.POSITION, size, count)

    # Our cap counts the big blind as the first bet before the flop; pokerkit counts raises only.
    streets = (
        street(False, 2, 0, bb, cap - 1 if limit else None),
        street(True, 0, 3, bb, cap if limit else None),
        street(True, 0, 1, 2 * bb if limit else bb, cap if limit else None),
        street(True, 0, 1, 2 * bb if limit else bb, cap if limit else None),
    )
    return pk.State(AUTOMATIONS, pk.Deck.STANDARD, (pk.StandardHighHand,), streets, structure, trimming, raw_antes,
                    (sb, bb), 0, stacks, n, mode=mode)


# -- playing ------------------------------------------------------------------------------------------


def choose_act(rng: random.Random, hand: HoldemHand, may_raise: bool = True) -> tuple[str, object]:
    """A random legal act for the player in turn: ("fold"|"check"|"call"|"raise"|"all-in"|"chips", arg)."""
    legal = hand.legal()
    if not may_raise:
        return ("fold", None) if rng.random() < 0.2 else ("call", None)
    roll = rng.random()
    facing = legal.call > 0
    if facing and roll < 0.18:
        return "fold", None
    if not facing and roll < 0.02:
        return "fold", None
    if legal.min_to is not None and roll > 0.62:
        low, high = legal.min_to, legal.max_to
        pick = rng.random()
        if pick < 0.35:
            to = low
        elif pick < 0.5:
            to = high
        else:
            to = rng.randint(low, high)
        all_in = hand.bets[hand.to_act_pos] + hand.stack[hand.to_act_pos]
        if to == all_in and rng.random() < 0.5:
            return "all-in", None
        return "raise", to
    if roll < 0.26 and hand.stack[hand.to_act_pos] > 0:
        stack = hand.stack[hand.to_act_pos]
        unit = max(1, hand.setup.big_blind // 2)
        chips = [rng.choice((unit, 2 * unit, 5 * unit)) for _ in range(rng.randint(1, 3))]
        if sum(chips) <= stack and hand.can_push_chips(hand.to_act, chips):
            return "chips", chips
    return ("check", None) if not facing else ("call", None)


def apply_ours(hand: HoldemHand, act: str, arg: object) -> tuple[HoldemHand, str, int | None]:
    """Apply to our engine; returns the next state and the equivalent plain act for pokerkit."""
    seat = hand.to_act
    if act == "fold":
        return hand.fold(seat), "fold", None
    if act in ("check", "call"):
        return hand.call(seat), "call", None
    if act == "raise":
        return hand.raise_to(seat, arg), "raise", arg
    if act == "all-in":
        p = hand.to_act_pos
        to = hand.bets[p] + hand.stack[p]
        raising = to > hand.current_bet
        return (hand.all_in(seat), "raise", to) if raising else (hand.all_in(seat), "call", None)
    reading = hand.read_chips(seat, arg)
    after = hand.push_chips(seat, arg)
    return (after, "raise", reading.to) if reading.act == "raise" else (after, "call", None)


def play_ours(rng: random.Random, check=None) -> HoldemHand:
    """A random hand through our engine alone, played to its end; ``check(hand)`` runs after every step."""
    setup, rules = random_table(rng)
    hand = HoldemHand(setup, rules)
    hole, rest = deal_cards(rng, setup.player_count)
    if hand.phase is Phase.ANTES:
        hand = hand.post_antes()
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards({seat: hole[i] for i, seat in enumerate(setup.order)})
    streets = iter([(rest[1:4], rest[0]), (rest[5:6], rest[4]), (rest[7:8], rest[6])])
    while not hand.is_over:
        if check is not None:
            check(hand)
        if hand.phase is Phase.BETTING:
            hand, _, _ = apply_ours(hand, *choose_act(rng, hand))
        elif hand.phase is Phase.BOARD:
            hand = hand.deal_next_street(*next(streets))
        elif hand.phase is Phase.SHOWDOWN:
            for seat in hand.showdown_order():
                hand = hand.show_hand(seat)
        else:
            hand = hand.award_pots()
    if check is not None:
        check(hand)
    return hand


def _legal_pokerkit(state: pk.State) -> tuple[int | None, int | None, int | None]:
    return (state.checking_or_calling_amount, state.min_completion_betting_or_raising_to_amount,
            state.max_completion_betting_or_raising_to_amount)


def _explain_legal(hand: HoldemHand, ours: tuple, theirs: tuple) -> str:
    """Name the departure behind a difference in legal actions, or fail."""
    p = hand.to_act_pos
    legal = hand.legal()
    short_bb = (hand.street.value == "preflop" and hand.stack[hand._bb] == 0
                and hand.bets[hand._bb] < hand.setup.big_blind)
    if short_bb:
        # TDA: the full big blind is the bet to call; pokerkit uses what was posted.
        assert legal.call == min(hand.current_bet - hand.bets[p], hand.stack[p])
        assert hand.current_bet >= hand.setup.big_blind
        return "short-big-blind"
    if hand.setup.betting is Betting.POT_LIMIT and hand.street.value == "preflop" and ours[:2] == theirs[:2]:
        shortfall = sum(nominal - hand.bets[pos] for pos, nominal in ((hand._sb, hand.setup.small_blind),
                                                                      (hand._bb, hand.setup.big_blind))
                        if pos is not None and hand.stack[pos] == 0 and hand.bets[pos] < nominal)
        all_in = hand.bets[p] + hand.stack[p]
        if shortfall and ours[2] == min(all_in, theirs[2] + shortfall):
            return "pot-limit-short-blind"
    # Fixed limit: an all-in raise this round that was not a full one (under half a bet, TDA-47-B).
    limit_short = hand.setup.betting is Betting.FIXED_LIMIT and any(
        hand.stack[i] == 0 and not hand.folded[i] and hand.bets[i] > 0 for i in range(len(hand.seats)))
    if ours[1] is None and theirs[1] is not None:
        refusal = hand._raise_refusal(p)
        assert refusal is not None
        if refusal.clause == "TDA-47":
            assert p in hand.acted and hand.current_bet - hand.bets[p] < hand._min_increment()
            return "TDA-47-ex3"
        if refusal.clause in ("TDA-47-B", "TDA-48") and limit_short:
            return "limit-short-all-in"
    if ours[1] is not None and theirs[1] is None:
        if p in hand.acted and hand.current_bet - hand.bets[p] >= hand._min_increment():
            # Short all-ins since he acted add up to at least a full raise (TDA-47 example 1).
            return "TDA-47-cumulative"
        others = [i for i in range(len(hand.seats)) if i != p and not hand.folded[i]]
        # Every opponent is all-in, or will be by calling the bet he faces.
        if all(hand.bets[i] + hand.stack[i] <= hand.current_bet for i in others):
            return "raise-against-all-ins"
        if limit_short:
            return "limit-short-all-in"
    if limit_short and ours[0] == theirs[0] and ours[1:] != theirs[1:]:
        # The raise is sized from the last full level, not from the short all-in.
        assert ours[1] == min(hand.full_level + hand._street_bet, hand.bets[p] + hand.stack[p])
        return "limit-short-all-in"
    raise AssertionError(f"unexplained difference in legal actions: ours {ours}, pokerkit {theirs}\n{hand!r}\n"
                         f"{[a.to_dict() for a in hand.actions]}")


def _pokerkit_pots(state: pk.State, setup: TableSetup) -> list[tuple[int, tuple[int, ...]]]:
    return [(pot.amount, tuple(sorted(setup.order[i] for i in pot.player_indices))) for pot in state.pots]


def _explain_payouts(hand: HoldemHand, state: pk.State) -> str:
    """Final stacks differ: they may differ only in how tied winners shared odd chips."""
    from casino.rules.evaluator import rank_cards

    actual = {hand.seats[i]: state.stacks[i] for i in range(len(hand.seats))}
    ours = hand.stacks
    ranks = {hand.seats[i]: rank_cards((*hand.hole[i], *hand.board))
             for i in range(len(hand.seats)) if not hand.folded[i]}
    slack: Counter = Counter()  # how far odd chips could move each tied winner
    for pot in hand.awarded_pots:
        best = min(ranks[s] for s in pot.eligible)
        winners = [s for s in hand.seats if s in pot.eligible and ranks[s] == best]
        if len(winners) > 1:
            # TDA-20: our split of each pot is even to the smallest chip, odd chips from the button's left.
            shares = split_pot(pot.amount, winners, hand.setup.chip_unit)
            assert max(shares.values()) - min(shares.values()) <= hand.setup.chip_unit
            assert [shares[s] for s in winners] == sorted(shares.values(), reverse=True)
            for s in winners:
                slack[s] += len(winners) * hand.setup.chip_unit
    diffs = {s: ours[s] - actual[s] for s in ours if ours[s] != actual[s]}
    if diffs and sum(diffs.values()) == 0 and all(abs(d) <= slack[s] for s, d in diffs.items()):
        return "odd-chips"
    raise AssertionError(f"unexplained difference in payouts: ours {ours}, pokerkit {actual}\n{hand!r}\n"
                         f"{[a.to_dict() for a in hand.actions]}")


def _pokerkit_catch_up(state: pk.State, tally: Tally) -> None:
    """Our round is over; pokerkit may still ask a lone player with chips to check against all-ins."""
    while state.actor_index is not None:
        assert state.checking_or_calling_amount == 0 and state.min_completion_betting_or_raising_to_amount is None
        state.check_or_call()
        tally.departures["check-against-all-ins"] += 1


def play_differential_hand(rng: random.Random, tally: Tally) -> None:
    """Play one random hand through both engines, comparing at every step."""
    setup, rules = random_table(rng)
    n = setup.player_count
    hole, rest = deal_cards(rng, n)
    hand = HoldemHand(setup, rules)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = pokerkit_state(setup, rules)
        tally.hands += 1
        try:
            _play(rng, tally, hand, state, hole, rest)
        except Departure as departure:
            tally.departures[departure.name] += 1


def _play(rng, tally, hand: HoldemHand, state: pk.State, hole, rest) -> None:
    setup = hand.setup
    if hand.phase is Phase.ANTES:
        hand = hand.post_antes()
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards({seat: hole[i] for i, seat in enumerate(setup.order)})
    for i in range(setup.player_count):
        state.deal_hole("".join(hole[i]), i)
    boards = iter([rest[1:4], rest[5:6], rest[7:8]])
    burns = iter([rest[0], rest[4], rest[6]])
    while not hand.is_over:
        if hand.phase is Phase.BETTING:
            tally.steps += 1
            legal = hand.legal()
            assert state.actor_index is not None, f"pokerkit has nobody to act, ours has seat {hand.to_act}: {hand!r}"
            assert setup.order[state.actor_index] == hand.to_act
            ours = (legal.call, legal.min_to, legal.max_to)
            theirs = _legal_pokerkit(state)
            may_raise = True
            if ours != theirs:
                name = _explain_legal(hand, ours, theirs)
                if name not in GOING_ON:
                    raise Departure(name)
                # Only one engine may raise here: play on with the acts both allow.
                tally.departures[name] += 1
                may_raise = False
            assert hand.pot_total == state.total_pot_amount, (hand.pot_total, state.total_pot_amount)
            act, arg = choose_act(rng, hand, may_raise)
            hand, plain, to = apply_ours(hand, act, arg)
            if plain == "fold":
                state.fold()
            elif plain == "call":
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(to)
        elif hand.phase is Phase.BOARD:
            burn, cards = next(burns), next(boards)
            _pokerkit_catch_up(state, tally)
            assert state.can_burn_card(), "pokerkit is not dealing a street"
            state.burn_card(burn)
            state.deal_board("".join(cards))
            hand = hand.deal_next_street(cards, burn)
            if len(hand.board) >= 3 and hand.phase is Phase.BETTING:
                # A new street, bets pulled in: the pots must match.
                ours_pots = [(p.amount, p.eligible) for p in hand.pots()]
                assert ours_pots == _pokerkit_pots(state, setup), (ours_pots, _pokerkit_pots(state, setup))
        elif hand.phase is Phase.SHOWDOWN:
            _pokerkit_catch_up(state, tally)
            for seat in hand.showdown_order():
                hand = hand.show_hand(seat)
        elif hand.phase is Phase.AWARD:
            hand = hand.award_pots()
    assert not state.status, "pokerkit still has the hand going"
    final = {setup.order[i]: state.stacks[i] for i in range(setup.player_count)}
    if final != hand.stacks:
        raise Departure(_explain_payouts(hand, state))
    assert sum(hand.payouts.values()) == hand.pot_total
    assert sum(hand.stacks.values()) == sum(setup.stacks.values())
    tally.completed += 1


def run(hands: int, seed: int = 2026) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(hands):
        play_differential_hand(rng, tally)
    return tally
