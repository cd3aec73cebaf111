"""A dealer-driven Hold'em hand under the TDA betting rules.

One cohesive state machine (the betting round, the board, the showdown and
the award share the same figures), hence its length.

``HoldemHand`` follows the dealing procedure step by step. The dealer posts
the antes and blinds, deals, enters each player's act in turn, deals the
flop, turn and river, shows the hands and awards the pots. The hand is a
frozen value: every step returns the next state and leaves the one it was
called on as it was::

    hand = HoldemHand(TableSetup(stacks={1: 20_000, 2: 20_000, 3: 20_000}, button=3,
                                 small_blind=100, big_blind=200))
    hand = hand.post_blinds()
    hand = hand.deal_hole_cards({1: parse_cards("AsKd"), 2: parse_cards("QhQc")})
    hand.legal()                       # what the player in turn may do
    hand = hand.raise_to(3, 600)       # or fold / check / call / bet / all_in / push_chips
    ...
    hand = hand.deal_flop(parse_cards("2c7d9h"))

Every step is a trio, as in the Texas Hold'em Bonus engine
(docs/holdem-engine.md, "Conventions"): ``verify_X`` raises a
``RuleViolation`` that a dealer can read and that names its clause,
``can_X`` says whether it is allowed and ``X`` returns the next state with
its record appended to ``actions``. ``check`` is the poker check, never a
validation. The generic forms take a record: ``verify(action)``,
``can(action)``, ``apply(action)``; ``HoldemHand.replay`` rebuilds a hand
from its records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, NamedTuple

from casino.rules.cards import Card, parse_card, parse_cards
from casino.rules.errors import N_, Phrase, RuleViolation
from casino.rules.evaluator import rank_cards
from casino.rules.holdem import actions as A
from casino.rules.holdem.config import (
    DEFAULT_RULES,
    AnteKind,
    Betting,
    CapLift,
    HouseRules,
    MisdealCutoff,
    OutOfTurnAfterChange,
    TableSetup,
)
from casino.rules.holdem.dealing_errors import DealingErrors
from casino.rules.holdem.phases import ENDED, STREETS, Phase, Street
from casino.rules.holdem.pots import Pot, build_pots, split_pot


class Legal(NamedTuple):
    """What the player in turn may do.

    ``call`` is what he must add now (0 when he may check; his whole stack
    when it is short). ``min_to`` / ``max_to`` bound a bet or raise as his
    total for the round; both ``None`` when he may not bet or raise. When
    only a short all-in is possible they are both his all-in total.

    A named tuple rather than a frozen dataclass: it is asked for at every
    turn, and a tuple is made three times faster.
    """

    seat: int
    fold: bool
    check: bool
    call: int
    min_to: int | None
    max_to: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"fold": self.fold, "check": self.check, "call": self.call,
                "min_to": self.min_to, "max_to": self.max_to}


@dataclass(frozen=True, slots=True)
class ChipsReading:
    """How chips put in without a word are read (TDA-43, TDA-44, TDA-45, TDA-51, TDA-52).

    ``act`` is ``"check"``, ``"call"`` or ``"raise"`` (a bet when there was
    none); ``to`` is the player's resulting total for the round; ``returned``
    the chips given back as change; ``clause`` and ``reason`` explain it, and
    ``adjustment`` says when the amount was brought up to the minimum or
    down to the most allowed. ``reason`` and ``adjustment`` are ``Phrase``s:
    English text that the dealer's language can translate.
    """

    act: str
    to: int
    returned: int
    clause: str
    reason: Phrase
    adjustment: Phrase | None = None


@dataclass(frozen=True, slots=True)
class PendingOutOfTurn:
    """An act out of turn waiting for the action to reach its seat (TDA-53-A, CC-134).

    ``facing`` is the bet to match when it was made: a bet or raise before his turn raises it, and that is
    the change that frees him (a check, call or fold is no change). ``skipped`` is the seat that was in turn
    (the player it skipped). ``binding``: substantial action followed out of turn to the skipped player's
    left, so the act binds whatever happens (TDA-53-B).
    """

    seat: int
    act: str
    to: int | None
    facing: int
    skipped: int
    binding: bool = False


@dataclass(frozen=True, slots=True)
class OutOfTurnStatus:
    """What an out-of-turn act leaves a player when the action reaches him (``HoldemHand.out_of_turn_status``).

    ``acts``: what he may do, among ``"fold"``, ``"check"``, ``"call"`` and ``"raise"`` (a bet or raise, to
    exactly ``to`` when it binds), or ``None`` when every option is open (TDA-53-A, C-08); ``changed``: the
    action changed before his turn; ``clause`` the rule that says so.
    """

    pending: PendingOutOfTurn | None
    acts: frozenset[str] | None
    to: int | None
    changed: bool
    clause: str


_STREET_NAME = {
    Street.PREFLOP: Phrase(N_("preflop")),
    Street.FLOP: Phrase(N_("flop")),
    Street.TURN: Phrase(N_("turn")),
    Street.RIVER: Phrase(N_("river")),
}
_DEAL_STREET = {
    Street.FLOP: Phrase(N_("burn and deal the flop")),
    Street.TURN: Phrase(N_("burn and deal the turn")),
    Street.RIVER: Phrase(N_("burn and deal the river")),
}
_NEXT_STEP = {
    Phase.ANTES: Phrase(N_("post the antes")),
    Phase.BLINDS: Phrase(N_("post the blinds")),
    Phase.DEAL: Phrase(N_("deal the hole cards")),
    Phase.BETTING: Phrase(N_("take the action")),
    Phase.SHOWDOWN: Phrase(N_("have the hands shown")),
    Phase.AWARD: Phrase(N_("award the pots")),
    Phase.COMPLETE: Phrase(N_("start a new hand: this one is over")),
    Phase.MISDEAL: Phrase(N_("redeal: this hand was a misdeal")),
    Phase.VOID: Phrase(N_("start a new hand: this one was stopped for a defective deck")),
}


def _next_state(change: Callable[..., Any]) -> Callable[..., HoldemHand]:
    """One of the dealer's steps: ``change`` is written as if on a table, the caller gets the next state.

    ``change`` verifies the step and then works on a draft: a new object
    with the same field values, whose attributes may be set. Every field
    value is immutable (tuples, frozensets, numbers, enums), so a step
    replaces values and never changes one in place: the state it was
    called on stays exactly what it was, for a cache or another reader,
    and a refused step leaves nothing behind. The draft, nobody else's,
    then becomes the next state (its class is switched, not its fields
    copied: each step costs one copy of the fields, see
    docs/decisions/2026-11-23-holdem-engine-frozen.md). What ``change`` returns is dropped: the step's
    answer is the next state.
    """

    @wraps(change)
    def step(self: HoldemHand, *args: Any, **kwargs: Any) -> HoldemHand:
        if type(self) is _Draft:
            # Steps in a batch on one private draft (a replay, see ``_batch``): no copy in between.
            change(self, *args, **kwargs)
            return self
        draft = _new_object(_Draft)
        draft.__dict__ = self.__dict__.copy()
        change(draft, *args, **kwargs)
        draft.__class__ = HoldemHand
        return draft

    return step


_new_object = object.__new__


def _with(values: tuple, i: int, value: Any) -> tuple:
    """``values`` with its ``i``-th item replaced (through a list: the fastest way for ten seats)."""
    changed = list(values)
    changed[i] = value
    return tuple(changed)


def _add(values: tuple[int, ...], i: int, amount: int) -> tuple[int, ...]:
    """``values`` with ``amount`` added to its ``i``-th item."""
    changed = list(values)
    changed[i] += amount
    return tuple(changed)


@dataclass(frozen=True, repr=False)
class HoldemHand(DealingErrors):
    """One hand of Texas Hold'em at a dealt table, as a frozen value. See the module docstring."""

    setup: TableSetup
    rules: HouseRules = DEFAULT_RULES
    # Everything below is the hand's progress, set by __post_init__ and by the steps.
    seats: tuple[int, ...] = field(init=False)
    _pos: Mapping[int, int] = field(init=False, compare=False)  # seat -> position; shared, never changed
    _sb: int | None = field(init=False)
    _bb: int = field(init=False)
    starting_stacks: tuple[int, ...] = field(init=False)
    stack: tuple[int, ...] = field(init=False)
    bets: tuple[int, ...] = field(init=False)  # this round, in front of the player
    total: tuple[int, ...] = field(init=False)  # the whole hand, live money and every-player antes
    dead: tuple[int, ...] = field(init=False)  # big-blind and button antes: dead money (RP-11, CC-50)
    folded: tuple[bool, ...] = field(init=False)
    hole: tuple[tuple[Card, ...] | None, ...] = field(init=False)
    board: tuple[Card | None, ...] = field(init=False)
    burns: tuple[Card | None, ...] = field(init=False)
    _cards_seen: frozenset[Card] = field(init=False)
    actions: tuple[A.Action, ...] = field(init=False)
    phase: Phase = field(init=False)
    street: Street = field(init=False)
    # The betting round.
    current_bet: int = field(init=False)  # the bet to match (preflop at least the full big blind)
    last_full: int = field(init=False)  # the largest full bet or raise of the round (TDA-43)
    full_level: int = field(init=False)  # fixed limit: the last full bet level (TDA-47-B)
    raise_count: int = field(init=False)  # fixed limit: bets and raises toward the cap (TDA-48)
    aggressions: int = field(init=False)  # bets and raises of the round, full or not (TDA-51-B opening bet)
    acted: frozenset[int] = field(init=False)  # acted since the last full bet or raise (TDA-47)
    pending: frozenset[int] = field(init=False)  # still to act this round
    to_act_pos: int | None = field(init=False)
    last_aggressor: int | None = field(init=False)  # this street's (TDA-17)
    cards_up: bool = field(init=False)  # TDA-16
    shown: tuple[bool, ...] = field(init=False)
    mucked: tuple[bool, ...] = field(init=False)
    _payouts: tuple[tuple[int, int], ...] | None = field(init=False)  # (seat, chips), seat order
    awarded_pots: tuple[Pot, ...] = field(init=False)
    players_acted: frozenset[int] = field(init=False)  # for the misdeal cutoff (C-06)
    voluntary_actions: int = field(init=False)
    chip_actions: int = field(init=False)
    # Out-of-turn action (TDA-53, CC-134, CC-135): acts waiting for their seat's turn, the seat whose hand
    # waits for the director's ruling (TDA-53-B), and the seats he limited to non-aggressive options.
    out_of_turn: tuple[PendingOutOfTurn, ...] = field(init=False)
    skipped_ruling: int | None = field(init=False)
    limited: frozenset[int] = field(init=False)
    # Dealing errors (casino.rules.holdem.dealing_errors): the streets whose burn is already decided
    # (street, "ready" or "two", the card, the clause), a premature turn set aside until the turn is dealt
    # (RP-05-B), and the clauses that called the director (TDA-39, CC-95).
    burn_plan: tuple = field(init=False, default=())
    # Per street dealt: how many burn cards it took (1 as usual; 0 without a burn; 2 after a missed burn,
    # CC-105) and its second burn card when there were two and it was recorded.
    burn_counts: tuple[int, ...] = field(init=False, default=())
    second_burns: tuple[Card | None, ...] = field(init=False, default=())
    # the burn plans used up by the streets dealt, given back when a street is taken back (CC-104, CC-105)
    plans_used: tuple = field(init=False, default=())
    set_aside: tuple[Card, ...] = field(init=False, default=())
    director_calls: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        setup = self.setup
        seats = setup.order
        n = len(seats)
        pos = {seat: i for i, seat in enumerate(seats)}
        starting = tuple(setup.stacks[s] for s in seats)
        self.__dict__.update(
            seats=seats, _pos=pos, _sb=None if setup.sb_seat is None else pos[setup.sb_seat], _bb=pos[setup.bb_seat],
            starting_stacks=starting, stack=starting, bets=(0,) * n, total=(0,) * n, dead=(0,) * n,
            folded=(False,) * n, hole=(None,) * n, board=(), burns=(), _cards_seen=frozenset(), actions=(),
            phase=Phase.ANTES if setup.ante.kind is not AnteKind.NONE else Phase.BLINDS, street=Street.PREFLOP,
            current_bet=0, last_full=0, full_level=0, raise_count=0, aggressions=0, acted=frozenset(),
            pending=frozenset(), to_act_pos=None, last_aggressor=None, cards_up=False, shown=(False,) * n,
            mucked=(False,) * n, _payouts=None, awarded_pots=(), players_acted=frozenset(), voluntary_actions=0,
            chip_actions=0, out_of_turn=(), skipped_ruling=None, limited=frozenset(),
        )

    def _next_state_of(self, change: Callable[..., Any], *args: Any, **kwargs: Any) -> HoldemHand:
        """A dealing error's step (``casino.rules.holdem.dealing_errors``), taken as every step is (``_next_state``)."""
        return _next_state(change)(self, *args, **kwargs)

    # -- reading the table ---------------------------------------------------------------------------------

    @classmethod
    def replay(cls, setup: TableSetup, actions: Iterable[A.Action | Mapping[str, Any]],
               rules: HouseRules = DEFAULT_RULES) -> HoldemHand:
        """Rebuild a hand from its records (or their dicts)."""
        hand = cls(setup, rules)._batch()
        for action in actions:
            hand = hand.apply(action)
        return hand._done()

    def _batch(self) -> _Draft:
        """A private draft on which steps change it in place, for a run of steps nobody sees one by one.

        Only for a caller that keeps the draft to itself until ``_done()``
        (``replay`` here and in ``casino.rules.holdem.replay``): it saves a
        copy of the fields per step. A refused step raises before changing
        anything, but the caller drops the draft anyway.
        """
        draft = _new_object(_Draft)
        draft.__dict__ = self.__dict__.copy()
        return draft

    def verify(self, action: A.Action) -> None:
        """Raise the ``RuleViolation`` refusing ``action`` now, if any (the record's ``verify_<method>``)."""
        getattr(self, "verify_" + action.method)(**action.arguments())

    def can(self, action: A.Action) -> bool:
        """Whether ``action`` is allowed now."""
        return self._can(self.verify, action)

    def apply(self, action: A.Action | Mapping[str, Any]) -> HoldemHand:
        """The next state after ``action`` (a record or its dict)."""
        if not isinstance(action, A.Action):
            action = A.action_from_dict(action)
        return getattr(self, action.method)(**action.arguments())

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild the hand: the table, the house options and the records."""
        return {"setup": self.setup.to_dict(), "rules": self.rules.to_dict(),
                "actions": [action.to_dict() for action in self.actions]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HoldemHand:
        rules = HouseRules.from_dict(data.get("rules") or {})
        return cls.replay(TableSetup.from_dict(data["setup"], rules), data.get("actions") or (), rules)

    @property
    def payouts(self) -> dict[int, int] | None:
        """What each seat collects once the hand is over (everything returned after a misdeal or void)."""
        return None if self._payouts is None else dict(self._payouts)

    @property
    def is_over(self) -> bool:
        return self.phase in ENDED

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` outside a betting round."""
        if self.phase is not Phase.BETTING or self.to_act_pos is None:
            return None
        return self.seats[self.to_act_pos]

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, by seat (bets in front of the players not included)."""
        return {seat: self.stack[i] for i, seat in enumerate(self.seats)}

    @property
    def pot_total(self) -> int:
        """All chips in the middle, the bets in front of the players included."""
        if self.phase in ENDED:
            return sum(p.amount for p in self.awarded_pots)
        return sum(self.total) + sum(self.dead)

    def pots(self) -> list[Pot]:
        """Main pot then side pots, as they stand (the awarded ones once the hand is over)."""
        if self.phase in ENDED:
            return list(self.awarded_pots)
        return build_pots(self.seats, self.total, [not f for f in self.folded],
                          [s == 0 for s in self.stack], sum(self.dead))

    @property
    def in_hand(self) -> list[int]:
        """Seats that have not folded."""
        return [s for i, s in enumerate(self.seats) if not self.folded[i]]

    @property
    def substantial_action(self) -> bool:
        """TDA-36: two acts in turn with at least one putting chips in, or any three (blinds do not count)."""
        return self.voluntary_actions >= 3 or (self.voluntary_actions >= 2 and self.chip_actions >= 1)

    def showdown_order(self) -> list[int]:
        """Who shows first at the showdown (TDA-17-A, CC-143).

        The last player to bet or raise on the final street shows first; with
        no bet on it, the first player left of the button; then clockwise.
        """
        live = [i for i in range(len(self.seats)) if not self.folded[i]]
        if not live:
            return []
        first = 0
        if self.last_aggressor is not None and not self.folded[self.last_aggressor]:
            first = self.last_aggressor
        n = len(self.seats)
        return [self.seats[(first + k) % n] for k in range(n) if not self.folded[(first + k) % n]]

    # -- betting figures --------------------------------------------------------------------------------

    @property
    def _street_bet(self) -> int:
        # Fixed limit: small bet before the flop and on it, big bet (twice it) on turn and river.
        bb = self.setup.big_blind
        return bb if self.street in (Street.PREFLOP, Street.FLOP) else 2 * bb

    def _min_increment(self) -> int:
        # TDA-43: at least the largest full bet or raise of the round; the big blind is the least bet (CC-136).
        bb = self.setup.big_blind
        return self.last_full if self.last_full > bb else bb

    def _cap_applies(self) -> bool:
        lift = self.rules.cap_lift
        if lift is CapLift.HEADS_UP_IN_HAND:
            return sum(1 for f in self.folded if not f) > 2
        if lift is CapLift.HEADS_UP_IN_TOURNAMENT:
            return not self.setup.heads_up_in_tournament
        return True

    def _may_raise(self, p: int) -> bool:
        """Whether the player at ``p`` may bet or raise (``_raise_refusal`` says why not)."""
        to_call = self.current_bet - self.bets[p]
        if to_call < 0:
            to_call = 0
        if self.stack[p] <= to_call:
            return False
        if self.setup.betting is Betting.FIXED_LIMIT:
            return p not in self.acted and not (self.raise_count >= self.rules.limit_raise_cap and self._cap_applies())
        return p not in self.acted or to_call >= self._min_increment()

    def _raise_refusal(self, p: int) -> RuleViolation | None:
        """Why the player at ``p`` may not bet or raise (the refusal, not raised), or ``None`` when he may."""
        to_call = self.current_bet - self.bets[p]
        if to_call < 0:
            to_call = 0
        if self.stack[p] <= to_call:
            return RuleViolation(N_("Seat %(seat)s has only %(stack)s behind, not more than the %(call)s to call:"
                                    " he can only call all-in or fold"), "DEAL-16",
                                 seat=self.seats[p], stack=self.stack[p], call=to_call)
        if self.setup.betting is Betting.FIXED_LIMIT:
            if p in self.acted:
                return RuleViolation(N_("Seat %(seat)s already acted and no bet or raise of at least half a bet has"
                                        " followed: he may only call or fold"), "TDA-47-B", seat=self.seats[p])
            if self.raise_count >= self.rules.limit_raise_cap and self._cap_applies():
                return RuleViolation(N_("The betting is capped at %(cap)s bets and raises this round: call or"
                                        " fold"), "TDA-48", cap=self.rules.limit_raise_cap)
            return None
        if p in self.acted and to_call < self._min_increment():
            return RuleViolation(N_("Seat %(seat)s already acted and now faces %(call)s more, less than a full raise"
                                    " of %(full)s: the betting is not reopened for him, he may only call or fold"),
                                 "TDA-47", seat=self.seats[p], call=to_call, full=self._min_increment())
        return None

    def _pot_limit_pot(self, p: int) -> int:
        """The pot a pot-limit raise is measured on, after calling (TDA-54)."""
        pot = sum(self.total) + sum(self.dead)
        if self.street is Street.PREFLOP:
            # TDA-54-B: before the flop an incomplete all-in blind counts as the full blind.
            for pos, nominal in ((self._sb, self.setup.small_blind), (self._bb, self.setup.big_blind)):
                if pos is not None and self.stack[pos] == 0 and self.bets[pos] < nominal:
                    pot += nominal - self.bets[pos]
        return pot + max(0, self.current_bet - self.bets[p])

    def _raise_bounds(self, p: int) -> tuple[int, int]:
        """Least and most a bet or raise may go to, as the round total (short all-in: both the all-in)."""
        all_in = self.bets[p] + self.stack[p]
        betting = self.setup.betting
        if betting is Betting.FIXED_LIMIT:
            target = self.full_level + self._street_bet
            low = high = target if target < all_in else all_in
            return low, high
        low = self.current_bet + self._min_increment()
        if betting is Betting.POT_LIMIT:
            high = self.current_bet + self._pot_limit_pot(p)
            high = max(high, low)
        else:
            high = all_in
        if high > all_in:
            high = all_in
        if low > all_in:
            low = all_in
        return low, high

    def legal(self) -> Legal | None:
        """What the player in turn may do, or ``None`` when nobody is to act."""
        p = self.to_act_pos
        if self.phase is not Phase.BETTING or p is None:
            return None
        to_call = self.current_bet - self.bets[p]
        if to_call < 0:
            to_call = 0
        call = to_call if to_call < self.stack[p] else self.stack[p]
        low = high = None
        if self._may_raise(p):
            low, high = self._raise_bounds(p)
        status = self.out_of_turn_status(self.seats[p]) if self.out_of_turn or self.limited \
            or self.skipped_ruling is not None else None
        if status is not None and status.acts is not None:
            # TDA-53, CC-134, CC-135: what an act out of turn (or the director's ruling) leaves him
            acts = status.acts
            if "raise" not in acts:
                low = high = None
            elif status.to is not None:
                low = high = status.to
            check = to_call == 0 and ("check" in acts or "call" in acts)
            return Legal(self.seats[p], "fold" in acts, check, call, low, high)
        # TDA-58: folding is always allowed in turn, even when a check is possible (and binding).
        return Legal(self.seats[p], True, to_call == 0, call, low, high)

    # -- common checks ----------------------------------------------------------------------------------

    def _pos_of(self, seat: object) -> int:
        pos = self._pos.get(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
        if pos is None:
            raise RuleViolation(N_("Seat %(seat)r is not dealt in this hand"), "TDA-30", seat=seat)
        return pos

    def _in_turn(self, seat: int) -> int:
        if self.phase is not Phase.BETTING:
            raise RuleViolation(N_("No betting now: the dealer must %(step)s"), "DEAL-09", step=self._next_step())
        p = self._pos_of(seat)
        if p != self.to_act_pos:
            if self.folded[p]:
                raise RuleViolation(N_("Seat %(seat)s has folded"), "DEAL-10", seat=seat)
            if self.stack[p] == 0:
                raise RuleViolation(N_("Seat %(seat)s is all-in and has no more action"), "DEAL-16", seat=seat)
            raise RuleViolation(N_("It is seat %(turn)s's turn, not seat %(seat)s's"), "TDA-53", turn=self.to_act,
                                seat=seat)
        return p

    def _next_step(self) -> Phrase:
        """What the dealer must do next, as a phrase for refusals."""
        phase = self.phase
        if phase is Phase.BOARD:
            return _DEAL_STREET[STREETS[min(STREETS.index(self.street) + 1, 3)]]
        return _NEXT_STEP[phase]

    def _step(self, phase: Phase, what: Phrase) -> None:
        if self.phase is not phase:
            raise RuleViolation(N_("Cannot %(what)s now: the dealer must %(step)s"), "DEAL-07", what=what,
                                step=self._next_step())

    # -- forced bets ------------------------------------------------------------------------------------

    def verify_post_antes(self) -> None:
        self._step(Phase.ANTES, Phrase(N_("post the antes")))

    def can_post_antes(self) -> bool:
        return self.phase is Phase.ANTES

    @_next_state
    def post_antes(self) -> HoldemHand:
        """Take the antes before the blinds (RP-11: the ante has priority over a short big blind)."""
        self.verify_post_antes()
        ante = self.setup.ante
        kind, amount = ante.kind, ante.amount
        if kind is AnteKind.BIG_BLIND:
            self._post_dead(self._bb, amount)
        elif kind is AnteKind.BUTTON:
            # CC-50: the button pays it; CC-51 halves it with six or fewer at the table (C-02).
            # A dead button (an empty seat) pays no ante, as CC-52 plays that hand without one.
            halve_at = self.rules.button_ante_halved_at_or_below
            if halve_at is not None and len(self.seats) <= halve_at:
                unit = self.setup.chip_unit
                amount = (amount // 2) // unit * unit
            button = self._pos.get(self.setup.button)
            if button is not None:
                self._post_dead(button, amount)
        elif kind is AnteKind.EVERY_PLAYER:
            for p in range(len(self.seats)):
                paid = min(amount, self.stack[p])
                self.stack = _add(self.stack, p, -paid)
                self.total = _add(self.total, p, paid)
        self.phase = Phase.BLINDS
        self.actions += (A.PostAntes(),)

    def _post_dead(self, p: int, amount: int) -> None:
        paid = min(amount, self.stack[p])
        self.stack = _add(self.stack, p, -paid)
        self.dead = _add(self.dead, p, paid)

    def verify_post_blinds(self) -> None:
        self._step(Phase.BLINDS, Phrase(N_("post the blinds")))

    def can_post_blinds(self) -> bool:
        return self.phase is Phase.BLINDS

    @_next_state
    def post_blinds(self) -> HoldemHand:
        """Small blind (unless dead, CC-80) and big blind; a short stack posts what it has."""
        self.verify_post_blinds()
        for pos, amount in ((self._sb, self.setup.small_blind), (self._bb, self.setup.big_blind)):
            if pos is None:
                continue
            paid = min(amount, self.stack[pos])
            self.stack = _add(self.stack, pos, -paid)
            self.bets = _add(self.bets, pos, paid)
            self.total = _add(self.total, pos, paid)
        self.phase = Phase.DEAL
        self.actions += (A.PostBlinds(),)

    # -- dealing ----------------------------------------------------------------------------------------

    def _verify_new_cards(self, cards: Iterable[Card | None]) -> None:
        fresh: set[Card] = set()
        for card in cards:
            if card is None:
                continue
            if card in self._cards_seen or card in fresh:
                raise RuleViolation(N_("%(card)s is already in play: two identical cards mean a defective deck;"
                                       " stop the hand and return all bets"), "TDA-35-E", card=str(card))
            fresh.add(card)

    def verify_deal_hole_cards(self, cards: Mapping[int, Sequence[Card | str]] | None = None) -> None:
        self._read_hole_cards(cards)

    def _read_hole_cards(self, cards: Mapping[int, Sequence[Card | str]] | None) -> dict[int, tuple[Card, ...]]:
        """The recorded hole cards by seat position, read once for the check and the deal."""
        self._step(Phase.DEAL, Phrase(N_("deal the hole cards")))
        holes: dict[int, tuple[Card, ...]] = {}
        if cards:
            dealt = []
            for seat, hole in cards.items():
                p = self._pos_of(seat)
                hole = parse_cards(hole)
                if len(hole) != 2:
                    raise RuleViolation(N_("Seat %(seat)s must have exactly two hole cards, not %(count)s"),
                                        "TDA-35-A", seat=self.seats[p], count=len(hole))
                dealt.extend(hole)
                holes[p] = hole
            self._verify_new_cards(dealt)
        return holes

    def can_deal_hole_cards(self, cards: Mapping[int, Sequence[Card | str]] | None = None) -> bool:
        return self._can(self.verify_deal_hole_cards, cards)

    @_next_state
    def deal_hole_cards(self, cards: Mapping[int, Sequence[Card | str]] | None = None) -> HoldemHand:
        """Deal two cards to every player; ``cards`` records those known (all, some or none)."""
        holes = self._read_hole_cards(cards)
        if holes:
            self.hole = tuple(holes.get(p, hole) for p, hole in enumerate(self.hole))
            self._cards_seen = self._cards_seen.union(card for hole in holes.values() for card in hole)
        recorded = {self.seats[p]: hole for p, hole in holes.items()}
        self.actions += (A.DealHoleCards(dict(sorted(recorded.items())) or None),)
        self._open_round(Street.PREFLOP)

    def _verify_board(self, street: Street, cards: Sequence[Card | str] | None,
                      burn: Card | str | None, burns: int | None = None,
                      second_burn: Card | str | None = None) -> tuple[tuple[Card, ...] | None, Card | None, int,
                                                                       Card | None]:
        """The street's cards, burn card, number of burns and second burn card as read (cards ``None`` when
        not recorded), or the refusal."""
        if self.phase is not Phase.BOARD or STREETS[STREETS.index(self.street) + 1] is not street:
            raise RuleViolation(N_("Cannot %(what)s now: the dealer must %(step)s"), "DEAL-09",
                                what=_DEAL_STREET[street], step=self._next_step())
        count = 3 if street is Street.FLOP else 1
        if cards is not None:
            cards = parse_cards(cards)
            if len(cards) != count:
                # TDA-39 (a four-card flop) and CC-103 (too many cards) are handled by the floor.
                if street is Street.FLOP:
                    raise RuleViolation(N_("The flop is three cards, not %(count)s"),
                                        "CC-103" if len(cards) > count else "CC-111", count=len(cards))
                raise RuleViolation(N_("The %(street)s is one card, not %(count)s"),
                                    "CC-103" if len(cards) > count else "CC-112", street=_STREET_NAME[street],
                                    count=len(cards))
        burned = None if burn is None else parse_card(burn)
        burned, fresh = self._burn_for(street, burned)  # a burn already on the table (RP-05, CC-101, CC-102)
        # how many burns this street takes: two after a missed burn, none after an extra one (CC-105)
        taken, second = self._burns_for(street, burns, None if second_burn is None else parse_card(second_burn))
        self._verify_new_cards((fresh, second, *(cards or ())))
        return cards, burned, taken, second

    def _deal_board(self, street: Street, cards: tuple[Card, ...] | None, burned: Card | None, taken: int = 1,
                    second: Card | None = None) -> None:
        count = 3 if street is Street.FLOP else 1
        # One burn before every street, exactly one (TDA-38, CC-105), unless a dealing error changed it.
        self.burns += (burned,)
        self.burn_counts += (taken,)
        self.second_burns += (second,)
        new = (None,) * count if cards is None else cards
        self.board += new
        self._cards_seen = self._cards_seen.union(c for c in (burned, second, *new) if c is not None)
        self._burn_dealt(street)  # the dealing errors' plan for this street is used up (RP-05-B)
        self._open_round(street)

    def verify_deal_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                         burns: int | None = None, second_burn: Card | str | None = None) -> None:
        self._verify_board(Street.FLOP, cards, burn, burns, second_burn)

    def can_deal_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                      burns: int | None = None, second_burn: Card | str | None = None) -> bool:
        return self._can(self.verify_deal_flop, cards, burn, burns, second_burn)

    @_next_state
    def deal_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                  burns: int | None = None, second_burn: Card | str | None = None) -> HoldemHand:
        """Burn one and turn three (CC-111); ``None`` when the cards are not recorded. ``burns``: the burns
        a dealing error set (0 or 2, CC-105), found from the hand's record when not given."""
        parsed, burned, taken, second = self._verify_board(Street.FLOP, cards, burn, burns, second_burn)
        self.actions += (A.DealFlop(parsed, burned, None if taken == 1 else taken, second),)
        self._deal_board(Street.FLOP, parsed, burned, taken, second)

    def _deal_one_card(self, street: Street, record: type[A.DealTurn | A.DealRiver], card: Card | str | None,
                       burn: Card | str | None, burns: int | None = None,
                       second_burn: Card | str | None = None) -> None:
        parsed, burned, taken, second = self._verify_board(street, None if card is None else [card], burn, burns,
                                                           second_burn)
        self.actions += (record(None if parsed is None else parsed[0], burned, None if taken == 1 else taken,
                                second),)
        self._deal_board(street, parsed, burned, taken, second)

    def verify_deal_turn(self, card: Card | str | None = None, burn: Card | str | None = None,
                         burns: int | None = None, second_burn: Card | str | None = None) -> None:
        self._verify_board(Street.TURN, None if card is None else [card], burn, burns, second_burn)

    def can_deal_turn(self, card: Card | str | None = None, burn: Card | str | None = None,
                      burns: int | None = None, second_burn: Card | str | None = None) -> bool:
        return self._can(self.verify_deal_turn, card, burn, burns, second_burn)

    @_next_state
    def deal_turn(self, card: Card | str | None = None, burn: Card | str | None = None,
                  burns: int | None = None, second_burn: Card | str | None = None) -> HoldemHand:
        """Burn one and turn one (CC-112); burnt twice or not at all after a burn error (CC-105)."""
        self._deal_one_card(Street.TURN, A.DealTurn, card, burn, burns, second_burn)

    def verify_deal_river(self, card: Card | str | None = None, burn: Card | str | None = None,
                          burns: int | None = None, second_burn: Card | str | None = None) -> None:
        self._verify_board(Street.RIVER, None if card is None else [card], burn, burns, second_burn)

    def can_deal_river(self, card: Card | str | None = None, burn: Card | str | None = None,
                       burns: int | None = None, second_burn: Card | str | None = None) -> bool:
        return self._can(self.verify_deal_river, card, burn, burns, second_burn)

    @_next_state
    def deal_river(self, card: Card | str | None = None, burn: Card | str | None = None,
                   burns: int | None = None, second_burn: Card | str | None = None) -> HoldemHand:
        """Burn one and turn one (CC-112); burnt twice or not at all after a burn error (CC-105)."""
        self._deal_one_card(Street.RIVER, A.DealRiver, card, burn, burns, second_burn)

    def deal_next_street(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None) -> HoldemHand:
        """Deal whichever street comes next (the next state's ``street`` says which)."""
        street = STREETS[STREETS.index(self.street) + 1] if self.phase is Phase.BOARD else None
        if street is Street.FLOP:
            return self.deal_flop(cards, burn)
        elif street is Street.TURN:
            return self.deal_turn(None if cards is None else cards[0], burn)
        elif street is Street.RIVER:
            return self.deal_river(None if cards is None else cards[0], burn)
        else:
            raise RuleViolation(N_("No street to deal now: the dealer must %(step)s"), "DEAL-09",
                                step=self._next_step())

    # -- the betting round ------------------------------------------------------------------------------

    def _open_round(self, street: Street) -> None:
        self.street = street
        n = len(self.seats)
        self.aggressions = 0
        self.last_aggressor = None
        self.acted = frozenset()
        if street is Street.PREFLOP:
            # The big blind is the opening bet and the last full bet, even when posted short (TDA-43-ex2,
            # TDA-51-B): the others must match the full big blind.
            bb = self.setup.big_blind
            self.current_bet = max(bb, max(self.bets))
            self.last_full = bb
            self.full_level = bb
            self.raise_count = 1
            start = (self._bb + 1) % n
        else:
            self.bets = (0,) * n
            self.current_bet = 0
            self.last_full = 0
            self.full_level = 0
            self.raise_count = 0
            start = 0  # first player left of the button (CC-111)
        self.pending = frozenset(i for i in range(n) if not self.folded[i] and self.stack[i] > 0)
        self.phase = Phase.BETTING
        self.to_act_pos = None
        if self._round_over():
            self._close_round()
        else:
            self.to_act_pos = self._next_pending(start - 1)

    def _next_pending(self, after: int) -> int:
        n = len(self.seats)
        pending = self.pending
        for k in range(1, n + 1):
            p = (after + k) % n
            if p in pending:
                return p
        raise AssertionError("no player left to act")  # pragma: no cover

    def _round_over(self) -> bool:
        pending = self.pending
        if not pending:
            return True
        folded = self.folded
        if folded.count(False) <= 1:
            return True
        if len(pending) > 1:
            return False  # players still to act have chips and cards: two of them can still bet
        stack = self.stack
        able = [i for i in range(len(folded)) if not folded[i] and stack[i] > 0]
        if len(able) == 1:
            # Nobody left to bet against: once the only player with chips has matched what the others
            # put in, any more would come back to him uncalled (a big blind posted short included).
            p = able[0]
            return all(self.bets[p] >= self.bets[i] for i in range(len(self.seats)) if i != p)
        return False

    def _after_act(self, p: int) -> None:
        self.pending -= {p}
        if self.out_of_turn or self.limited:
            # his act out of turn, or the director's limit, is spent: he has acted in turn (TDA-53)
            seat = self.seats[p]
            self.out_of_turn = tuple(o for o in self.out_of_turn if o.seat != seat)
            self.limited -= {seat}
        if self._round_over():
            self.to_act_pos = None
            self._close_round()
        else:
            self.to_act_pos = self._next_pending(p)

    def _close_round(self) -> None:
        n = len(self.seats)
        self.pending = frozenset()
        self.to_act_pos = None
        # an act out of turn whose turn never came (the others folded) is void with the round
        self.out_of_turn = ()
        self.limited = frozenset()
        self.skipped_ruling = None
        # An uncalled bet, or the part of it nobody matched, goes back to its owner; not to a dead hand's
        # (TDA-30, CC-29: an absent player's blinds and antes stay in the pot).
        top = max(range(n), key=self.bets.__getitem__)
        second = max((self.bets[i] for i in range(n) if i != top), default=0)
        if self.bets[top] > second and not self.folded[top]:
            back = self.bets[top] - second
            self.bets = _add(self.bets, top, -back)
            self.total = _add(self.total, top, -back)
            self.stack = _add(self.stack, top, back)
        live = [i for i in range(n) if not self.folded[i]]
        if len(live) == 1:
            # Everyone else folded: the pot is won without showing (DEAL-17, TDA-17-B).
            self.phase = Phase.AWARD
            return
        able = sum(1 for i in live if self.stack[i] > 0)
        betting_over = able <= 1 or self.street is Street.RIVER
        if betting_over and any(self.stack[i] == 0 for i in live):
            # TDA-16: an all-in with no more betting possible: every hand is tabled at once.
            self.cards_up = True
        if self.street is Street.RIVER:
            self.phase = Phase.SHOWDOWN
        else:
            self.phase = Phase.BOARD

    def _record_act(self, p: int, action: A.Action, put_in: int) -> None:
        self.actions += (action,)
        self.voluntary_actions += 1
        if p not in self.players_acted:
            self.players_acted |= {p}
        if put_in:
            self.chip_actions += 1

    def _put_in(self, p: int, to: int) -> None:
        add = to - self.bets[p]
        self.stack = _add(self.stack, p, -add)
        self.bets = _with(self.bets, p, to)
        self.total = _add(self.total, p, add)

    # -- out-of-turn action (TDA-53, CC-134, CC-135, C-08) ----------------------------------------------

    def out_of_turn_at(self, seat: int) -> PendingOutOfTurn | None:
        """The act seat ``seat`` made out of turn and that waits for his turn, if any."""
        for pending in self.out_of_turn:
            if pending.seat == seat:
                return pending
        return None

    def out_of_turn_status(self, seat: int) -> OutOfTurnStatus | None:
        """What an act out of turn, or the director's ruling on a skipped hand, leaves seat ``seat`` when the
        action reaches him; ``None`` when nothing limits him.

        Unchanged action (nobody bet or raised before his turn: a check, call or fold is no change), or
        substantial action out of turn that made it binding (TDA-53-B): the act binds as made (CC-134); a
        check may not become a bet, a call may not become a raise (CC-135). Changed action: the house option
        C-08, by default call or fold (CC-134), or every option with the chips returned (TDA-53-A). A fold
        out of turn binds in every case (TDA-53-A).
        """
        if self.skipped_ruling == seat:
            return OutOfTurnStatus(None, frozenset(), None, False, "TDA-53-B")
        pending = self.out_of_turn_at(seat)
        if pending is None:
            if seat in self.limited:
                return OutOfTurnStatus(None, frozenset({"fold", "check", "call"}), None, False, "TDA-53-B")
            return None
        if pending.act == "fold":
            return OutOfTurnStatus(pending, frozenset({"fold"}), None, False, "TDA-53-A")
        changed = self.current_bet > pending.facing
        if not changed or pending.binding:
            clause = "TDA-53-B" if changed else ("CC-135" if pending.act in ("check", "call") else "CC-134")
            if pending.act in ("bet", "raise"):
                return OutOfTurnStatus(pending, frozenset({"raise"}), pending.to, changed, clause)
            return OutOfTurnStatus(pending, frozenset({pending.act}), None, changed, clause)
        if self.rules.oot_after_change is OutOfTurnAfterChange.ALL_OPTIONS:
            return OutOfTurnStatus(pending, None, None, True, "TDA-53-A")
        return OutOfTurnStatus(pending, frozenset({"fold", "call"}), None, True, "CC-134")

    def _verify_out_of_turn(self, p: int, act: str, to: int | None = None) -> None:
        """Refuse an act in turn that the player's own act out of turn, or the director's ruling, rules out.

        ``act`` is ``"fold"``, ``"check"``, ``"call"`` or ``"raise"`` (a bet or raise to ``to``)."""
        if not self.out_of_turn and not self.limited and self.skipped_ruling is None:
            return  # the usual case: nothing out of turn
        seat = self.seats[p]
        if self.skipped_ruling is not None:
            raise RuleViolation(N_("Seat %(seat)s was skipped and substantial action followed out of turn: the"
                                   " director rules on his hand first"), "TDA-53-B", seat=self.skipped_ruling)
        status = self.out_of_turn_status(seat)
        if status is None or status.acts is None:
            return
        if act in ("call", "check") and self.current_bet <= self.bets[p] and status.acts & {"call", "check"}:
            return  # with nothing to call, a call is a check (TDA-55)
        if act in status.acts and (act != "raise" or status.to is None or status.to == to):
            return
        pending = status.pending
        if pending is None:
            raise RuleViolation(N_("The director limited seat %(seat)s to checking, calling or folding"),
                                "TDA-53-B", seat=seat)
        if pending.act == "fold":
            raise RuleViolation(N_("Seat %(seat)s folded out of turn: a fold out of turn is binding"), "TDA-53-A",
                                seat=seat)
        if status.changed:
            if pending.binding:
                raise RuleViolation(N_("Substantial action followed out of turn: seat %(seat)s's act out of turn"
                                       " binds as made"), "TDA-53-B", seat=seat)
            raise RuleViolation(N_("Seat %(seat)s acted out of turn and the action changed: he must call or"
                                   " fold, he may not raise"), "CC-134", seat=seat)
        if pending.act == "check":
            raise RuleViolation(N_("Seat %(seat)s checked out of turn and the action did not change: the check"
                                   " stands, he may not bet or raise"), "CC-135", seat=seat)
        if pending.act == "call":
            raise RuleViolation(N_("Seat %(seat)s called out of turn and the action did not change: the call"
                                   " stands, he may not raise"), "CC-135", seat=seat)
        raise RuleViolation(N_("Seat %(seat)s bet or raised out of turn to %(to)s and the action did not change:"
                                   " it binds, to %(to)s"), status.clause, seat=seat, to=pending.to)

    def verify_act_out_of_turn(self, seat: int, act: str, to: int | None = None) -> None:
        """TDA-53-A: the act happened at the table; it is recorded at his seat, the turn stays where it was."""
        if self.phase is not Phase.BETTING or self.to_act_pos is None:
            raise RuleViolation(N_("No betting now: the dealer must %(step)s"), "DEAL-09", step=self._next_step())
        if act not in A.OUT_OF_TURN_ACTS:
            raise RuleViolation(N_("%(act)r is not an act out of turn: use one of %(acts)s"), "TDA-53-A", act=act,
                                acts=", ".join(A.OUT_OF_TURN_ACTS))
        p = self._pos_of(seat)
        if p == self.to_act_pos:
            raise RuleViolation(N_("It is seat %(seat)s's turn: record the act in turn"), "TDA-53-A", seat=seat)
        if self.skipped_ruling is not None:
            raise RuleViolation(N_("Seat %(seat)s was skipped and substantial action followed out of turn: the"
                                   " director rules on his hand first"), "TDA-53-B", seat=self.skipped_ruling)
        if self.folded[p]:
            raise RuleViolation(N_("Seat %(seat)s has folded"), "DEAL-10", seat=seat)
        if self.stack[p] == 0:
            raise RuleViolation(N_("Seat %(seat)s is all-in and has no more action"), "DEAL-16", seat=seat)
        if p not in self.pending:
            raise RuleViolation(N_("Seat %(seat)s has acted and nobody has raised since: he has no action in"
                                   " this round"), "TDA-47", seat=seat)
        if self.out_of_turn_at(seat) is not None:
            raise RuleViolation(N_("Seat %(seat)s has already acted out of turn; it waits for his turn"),
                                "TDA-53-A", seat=seat)
        to_call = self.current_bet - self.bets[p]
        if act == "check" and to_call > 0:
            raise RuleViolation(N_("Seat %(seat)s faces %(call)s to call and cannot check: call, raise or fold"),
                                "DEAL-11", seat=seat, call=to_call)
        if act in ("bet", "raise"):
            if isinstance(to, bool) or not isinstance(to, int):
                raise RuleViolation(N_("A bet or raise out of turn needs its amount: the player's total for the"
                                       " round"), "TDA-43-B")
            self._verify_aggression(p, to)  # as if in turn: the same act binds at his turn (CC-134)
        elif to is not None:
            raise RuleViolation(N_("Only a bet or raise has an amount"), "TDA-43-B")

    def can_act_out_of_turn(self, seat: int, act: str, to: int | None = None) -> bool:
        return self._can(self.verify_act_out_of_turn, seat, act, to)

    @_next_state
    def act_out_of_turn(self, seat: int, act: str, to: int | None = None) -> HoldemHand:
        """Record an act out of turn at its seat (TDA-53-A): the action goes back to the player in turn, no chip
        counts yet. When it reaches him the act binds, or not, as ``out_of_turn_status`` says. When acts out of
        turn to the skipped player's left make substantial action (TDA-36), they bind and his hand waits for
        the director's ruling (TDA-53-B, ``rule_skipped_hand``)."""
        self.verify_act_out_of_turn(seat, act, to)
        skipped = self.seats[self.to_act_pos]
        pending = PendingOutOfTurn(seat, act, to, self.current_bet, skipped)
        self.out_of_turn += (pending,)
        self.actions += (A.OutOfTurn(seat, act, to),)
        # TDA-53-B, TDA-36: two acts (one putting chips in) or any three, out of turn past the same player
        past = [o for o in self.out_of_turn if o.skipped == skipped]
        chips = sum(1 for o in past if o.act in ("bet", "raise")
                    or (o.act == "call" and self.current_bet > self.bets[self._pos[o.seat]]))
        if len(past) >= 3 or (len(past) >= 2 and chips >= 1):
            self.skipped_ruling = skipped
            self.out_of_turn = tuple(PendingOutOfTurn(o.seat, o.act, o.to, o.facing, o.skipped, True)
                                     if o.skipped == skipped else o for o in self.out_of_turn)

    def verify_rule_skipped_hand(self, seat: int, ruling: str) -> None:
        if self.phase is not Phase.BETTING or self.skipped_ruling is None:
            raise RuleViolation(N_("No skipped hand waits for a ruling"), "TDA-53-B")
        if seat != self.skipped_ruling:
            raise RuleViolation(N_("The hand waiting for a ruling is seat %(skipped)s's, not seat %(seat)s's"),
                                "TDA-53-B", skipped=self.skipped_ruling, seat=seat)
        if ruling not in A.SKIPPED_HAND_RULINGS:
            raise RuleViolation(N_("The skipped hand is ruled dead or limited to non-aggressive options, not"
                                   " %(ruling)r"), "TDA-53-B", ruling=ruling)

    def can_rule_skipped_hand(self, seat: int, ruling: str) -> bool:
        return self._can(self.verify_rule_skipped_hand, seat, ruling)

    @_next_state
    def rule_skipped_hand(self, seat: int, ruling: str) -> HoldemHand:
        """The director's ruling on the skipped hand (TDA-53-B): dead (it folds, its chips stay in the pot), or
        limited to checking, calling or folding; the acts out of turn bind as made."""
        self.verify_rule_skipped_hand(seat, ruling)
        p = self._pos[seat]
        self.skipped_ruling = None
        self.actions += (A.RuleSkippedHand(seat, ruling),)
        if ruling == "non-aggressive":
            self.limited |= {seat}
            return
        self.folded = _with(self.folded, p, True)
        self.acted |= {p}
        self.pending -= {p}
        if self._round_over():
            self.to_act_pos = None
            self._close_round()
        else:
            self.to_act_pos = self._next_pending(p)

    # fold

    def verify_fold(self, seat: int) -> None:
        # TDA-58: a fold in turn is allowed even when not facing a bet; it is binding.
        p = self._in_turn(seat)
        self._verify_out_of_turn(p, "fold")

    def can_fold(self, seat: int) -> bool:
        return self._can(self.verify_fold, seat)

    @_next_state
    def fold(self, seat: int) -> HoldemHand:
        self.verify_fold(seat)
        p = self.to_act_pos
        self.folded = _with(self.folded, p, True)
        self.acted |= {p}
        self._record_act(p, A.Fold(seat), 0)
        self._after_act(p)

    # kill a dead hand

    def verify_kill_hand(self, seat: int) -> None:
        """TDA-30, CC-29, TDA-71-D: a player not at the seat when the deal ends (or serving a penalty) is dealt
        in and posted, and the dealer kills the hand at the end of the deal, before anyone acts."""
        if self.phase is not Phase.BETTING or self.street is not Street.PREFLOP or self.voluntary_actions:
            raise RuleViolation(N_("A dead hand is killed at the end of the deal, before the first action"),
                                "TDA-30")
        p = self._pos_of(seat)
        if self.folded[p]:
            raise RuleViolation(N_("Seat %(seat)s's hand is already dead"), "TDA-30", seat=seat)

    def can_kill_hand(self, seat: int) -> bool:
        return self._can(self.verify_kill_hand, seat)

    @_next_state
    def kill_hand(self, seat: int) -> HoldemHand:
        """The hand is dead: its blinds and antes stay in the pot (CC-29), and it can win nothing: an absent
        big blind does not take the blinds when the others fold, the last live hand does."""
        self.verify_kill_hand(seat)
        p = self._pos_of(seat)
        self.folded = _with(self.folded, p, True)
        self.pending -= {p}
        self.actions += (A.KillHand(seat),)
        if self._round_over():
            self.to_act_pos = None
            self._close_round()
        elif self.to_act_pos == p:
            self.to_act_pos = self._next_pending(p)

    # check

    def verify_check(self, seat: int) -> None:
        p = self._in_turn(seat)
        to_call = self.current_bet - self.bets[p]
        if to_call > 0:
            raise RuleViolation(N_("Seat %(seat)s faces %(call)s to call and cannot check: call, raise or fold"),
                                "DEAL-11", seat=seat, call=to_call)
        self._verify_out_of_turn(p, "check")

    def can_check(self, seat: int) -> bool:
        return self._can(self.verify_check, seat)

    @_next_state
    def check(self, seat: int) -> HoldemHand:
        self.verify_check(seat)
        p = self.to_act_pos
        self.acted |= {p}
        self._record_act(p, A.Check(seat), 0)
        self._after_act(p)

    # call

    def verify_call(self, seat: int) -> None:
        # TDA-55: "call" when not facing a bet is a check.
        p = self._in_turn(seat)
        self._verify_out_of_turn(p, "call")

    def can_call(self, seat: int) -> bool:
        return self._can(self.verify_call, seat)

    @_next_state
    def call(self, seat: int) -> HoldemHand:
        """Match the bet, or put in everything when the stack is short (DEAL-13, DEAL-16)."""
        self.verify_call(seat)
        p = self.to_act_pos
        behind = self.stack[p]
        self._call(p)
        self._record_act(p, A.Call(seat), behind - self.stack[p])
        self._after_act(p)

    def _call(self, p: int) -> None:
        target = self.current_bet
        all_in = self.bets[p] + self.stack[p]
        if target > all_in:
            target = all_in
        if target > self.bets[p]:
            self._put_in(p, target)
        self.acted |= {p}

    # bet / raise

    def verify_raise_to(self, seat: int, to: int) -> None:
        p = self._in_turn(seat)
        if isinstance(to, bool) or not isinstance(to, int):
            raise RuleViolation(N_("A raise is a whole number of chips, not %(to)r"), "TDA-43-B", to=to)
        self._verify_aggression(p, to)
        self._verify_out_of_turn(p, "raise", to)

    def _verify_aggression(self, p: int, to: int) -> None:
        seat = self.seats[p]
        betting = self.setup.betting
        if to % self.setup.chip_unit:
            raise RuleViolation(N_("%(to)s is not a whole number of the smallest chip in play (%(unit)s)"), "TDA-20",
                                to=to, unit=self.setup.chip_unit)
        if to <= self.current_bet:
            raise RuleViolation(N_("A bet or raise must go above the %(bet)s to match; to put in that much, call"),
                                "TDA-43", bet=self.current_bet)
        all_in = self.bets[p] + self.stack[p]
        if to > all_in:
            raise RuleViolation(N_("Seat %(seat)s has only %(all_in)s for this round (his stack %(stack)s plus"
                                   " %(front)s in front)"), "DEAL-16", seat=seat, all_in=all_in, stack=self.stack[p],
                                front=self.bets[p])
        refusal = self._raise_refusal(p)
        if refusal is not None:
            raise refusal
        low, high = self._raise_bounds(p)
        if to == all_in and to <= high:
            return  # all-in, full or short (TDA-47)
        if betting is Betting.FIXED_LIMIT:
            if to != low:
                raise RuleViolation(N_("In fixed-limit the bet or raise is to exactly %(to)s"), "TDA-48", to=low)
            return
        if to < low:
            if self.current_bet == 0:
                raise RuleViolation(N_("The minimum bet is the big blind of %(big)s: bet at least %(low)s"),
                                    "CC-136", big=self._min_increment(), low=low)
            raise RuleViolation(N_("A raise must be at least the previous full bet or raise of %(full)s: raise to"
                                   " %(low)s or more"), "TDA-43", full=self._min_increment(), low=low)
        if to > high:
            raise RuleViolation(N_("The pot-limit maximum is %(high)s: a pot-size raise is the call plus the pot"
                                   " after calling"), "TDA-54", high=high)

    def can_raise_to(self, seat: int, to: int) -> bool:
        return self._can(self.verify_raise_to, seat, to)

    @_next_state
    def raise_to(self, seat: int, to: int) -> HoldemHand:
        """Bet or raise to ``to``, the player's total for the round (TDA-43-B)."""
        self.verify_raise_to(seat, to)
        p = self.to_act_pos
        self._aggress(p, to)
        self._record_act(p, A.Raise(seat, to), 1)
        self._after_act(p)

    # "bet" is the same act when nobody has bet; TDA-55 reads "raise" with no bet to face as a bet.
    def verify_bet(self, seat: int, to: int) -> None:
        self.verify_raise_to(seat, to)

    def can_bet(self, seat: int, to: int) -> bool:
        return self._can(self.verify_bet, seat, to)

    @_next_state
    def bet(self, seat: int, to: int) -> HoldemHand:
        """Bet (or raise) to ``to``, the player's total for the round."""
        self.verify_bet(seat, to)
        p = self.to_act_pos
        self._aggress(p, to)
        self._record_act(p, A.Bet(seat, to), 1)
        self._after_act(p)

    def _aggress(self, p: int, to: int) -> None:
        increment = to - self.current_bet
        if self.setup.betting is Betting.FIXED_LIMIT:
            # TDA-47-B: in limit a bet or raise of at least half a bet counts as full.
            full = 2 * (to - self.full_level) >= self._street_bet
            if full:
                self.full_level = to
                self.raise_count += 1
        else:
            full = increment >= self._min_increment()
            if full:
                self.last_full = increment
        self._put_in(p, to)
        self.current_bet = to
        self.aggressions += 1
        self.last_aggressor = p
        if full:
            # A full bet or raise reopens the betting for everyone (TDA-47).
            self.acted = frozenset((p,))
        else:
            self.acted |= {p}
        self.pending = frozenset(i for i in range(len(self.seats))
                                 if i != p and not self.folded[i] and self.stack[i] > 0)

    # all-in

    def verify_all_in(self, seat: int) -> None:
        p = self._in_turn(seat)
        all_in = self.bets[p] + self.stack[p]
        if all_in <= self.current_bet:
            self._verify_out_of_turn(p, "call")
            return  # a call for all his chips
        self._verify_aggression(p, all_in)
        self._verify_out_of_turn(p, "raise", all_in)

    def can_all_in(self, seat: int) -> bool:
        return self._can(self.verify_all_in, seat)

    @_next_state
    def all_in(self, seat: int) -> HoldemHand:
        self.verify_all_in(seat)
        p = self.to_act_pos
        all_in = self.bets[p] + self.stack[p]
        if all_in <= self.current_bet:
            self._call(p)
        else:
            self._aggress(p, all_in)
        self._record_act(p, A.AllIn(seat), 1)
        self._after_act(p)

    # chips put in without a word

    def read_chips(self, seat: int, chips: Sequence[int]) -> ChipsReading:
        """How chips pushed without a word by the player in turn count (the dealer's reading).

        Facing a bet: one chip is a call, even an oversize or the last one
        (TDA-44-A); several chips are a call when all of them are needed, that
        is when taking away one of the smallest would leave less than the call
        (TDA-45-A). Otherwise, with the last chips it is all-in (TDA-45-B);
        with chips behind it is a raise when the extra reaches a full raise,
        a raise completed to the minimum when it reaches half of one, and a
        call below that (TDA-43-A). Less than the call with chips behind is an
        undercall: a full call when heads-up or against the opening bet,
        otherwise the floor decides (TDA-51-B). Not facing a bet the chips are
        a bet of their value (TDA-44-C, TDA-40-C), brought up to the minimum
        when short (TDA-52-A). Chips the player already has in front are
        taken as left in place (TDA-46, situation 1).
        """
        p = self._in_turn(seat)
        if isinstance(chips, str | bytes) or not isinstance(chips, Sequence) or not chips:
            raise RuleViolation(N_("Give the value of each chip put in, such as [1000, 500]"), "TDA-45")
        unit = self.setup.chip_unit
        for chip in chips:
            if isinstance(chip, bool) or not isinstance(chip, int) or chip <= 0 or chip % unit:
                raise RuleViolation(N_("%(chip)r is not a chip value in play (the smallest chip is %(unit)s)"),
                                    "TDA-20", chip=chip, unit=unit)
        pushed = sum(chips)
        stack, mine, bet = self.stack[p], self.bets[p], self.current_bet
        if pushed > stack:
            raise RuleViolation(N_("Seat %(seat)s has only %(stack)s behind, not the %(pushed)s read"), "TDA-45",
                                seat=seat, stack=stack, pushed=pushed)
        to_call = bet - mine if bet > mine else 0
        last = pushed == stack

        if to_call == 0:
            if self._raise_refusal(p) is not None:
                return self._chips_call(p, pushed, "TDA-55", Phrase(N_("no bet or raise is open to him: the chips"
                                                                       " are a check and are returned")))
            if bet == 0:
                clause = "TDA-44-C" if len(chips) == 1 else "TDA-40-C"
                return self._chips_raise(p, pushed, mine + pushed, clause,
                                         Phrase(N_("not facing a bet, chips put in are a bet of their value")))
            # The big blind's option: his own blind is the bet. One chip "calls" it, which is a check
            # (TDA-44-A); several are read against a raise of it (TDA-45).
            if len(chips) == 1:
                return self._chips_call(p, pushed, "TDA-44-A", Phrase(N_("one chip with the option, no raise"
                                                                         " announced: a check, the chip is returned")))
            return self._chips_over_call(p, pushed, last)
        if pushed < to_call:
            if last:
                return self._chips_call(p, pushed, "DEAL-16",
                                        Phrase(N_("his last chips, less than the call: all-in for less")))
            heads_up = sum(1 for f in self.folded if not f) == 2
            opening = self.aggressions == 0 if self.street is Street.PREFLOP else self.aggressions == 1
            if heads_up or opening:
                if heads_up:
                    reason = Phrase(N_("an undercall of %(pushed)s heads-up binds him to the full call of %(call)s"),
                                    pushed=pushed, call=to_call)
                else:
                    reason = Phrase(N_("an undercall of %(pushed)s against the opening bet binds him to the full"
                                       " call of %(call)s"), pushed=pushed, call=to_call)
                return self._chips_call(p, pushed, "TDA-51-B", reason)
            raise RuleViolation(N_("%(pushed)s is less than the %(call)s to call: an undercall of a raise in a"
                                   " multi-way pot is for the floor to rule (call, or forfeit and fold)"), "TDA-51-B",
                                pushed=pushed, call=to_call)
        if len(chips) == 1:
            return self._chips_call(p, pushed, "TDA-44-A", Phrase(N_("one chip facing a bet is a call, unless a"
                                                                     " raise was announced first")))
        if pushed - min(chips) < to_call:
            return self._chips_call(p, pushed, "TDA-45-A",
                                    Phrase(N_("every chip is needed for the call, so it is a call")))
        return self._chips_over_call(p, pushed, last)

    def _chips_call(self, p: int, pushed: int, clause: str, reason: Phrase) -> ChipsReading:
        to_call = max(0, self.current_bet - self.bets[p])
        paid = min(to_call, self.stack[p])
        return ChipsReading("call" if to_call else "check", self.bets[p] + paid, max(0, pushed - paid), clause,
                            reason)

    def _chips_raise(self, p: int, pushed: int, to: int, clause: str, reason: Phrase) -> ChipsReading:
        low, high = self._raise_bounds(p)
        adjustment = None
        if to < low:
            to = low
            if low - self.bets[p] > pushed:
                adjustment = Phrase(N_("brought up to the minimum of %(low)s (TDA-52-A)"), low=low)
        if to > high:
            to = high
            adjustment = Phrase(N_("the chips above the most allowed (%(high)s) are returned"), high=high)
        return ChipsReading("raise", to, max(0, self.bets[p] + pushed - to), clause, reason, adjustment)

    def _chips_over_call(self, p: int, pushed: int, last: bool) -> ChipsReading:
        """Chips beyond what the call needs: all-in, a raise, or a call by the 50% rule."""
        if self._raise_refusal(p) is not None:
            return self._chips_call(p, pushed, "TDA-47", Phrase(N_("the betting is not open to him: the chips are"
                                                                   " a call and the rest is returned")))
        bet = self.current_bet
        to = self.bets[p] + pushed
        if last:
            return self._chips_raise(p, pushed, to, "TDA-45-B", Phrase(N_("not every chip was needed and they are"
                                                                          " his last: all-in")))
        full = self._street_bet if self.setup.betting is Betting.FIXED_LIMIT else self._min_increment()
        extra = to - bet
        if extra >= full:
            return self._chips_raise(p, pushed, to, "TDA-43-A", Phrase(N_("the chips reach a full raise")))
        if 2 * extra >= full:
            return self._chips_raise(p, pushed, to, "TDA-43-A", Phrase(N_("the chips are at least half a raise over"
                                                                          " %(bet)s: a raise, completed to the"
                                                                          " minimum"), bet=bet))
        return self._chips_call(p, pushed, "TDA-43-A", Phrase(N_("the chips are less than half a raise over %(bet)s:"
                                                                 " a call, the rest is returned"), bet=bet))

    def verify_push_chips(self, seat: int, chips: Sequence[int]) -> None:
        reading = self.read_chips(seat, chips)
        self._verify_out_of_turn(self.to_act_pos, reading.act, reading.to)

    def can_push_chips(self, seat: int, chips: Sequence[int]) -> bool:
        return self._can(self.verify_push_chips, seat, chips)

    @_next_state
    def push_chips(self, seat: int, chips: Sequence[int]) -> HoldemHand:
        """Apply chips put in without a word, as ``read_chips`` reads them (ask it first to show the reading)."""
        reading = self.read_chips(seat, chips)
        p = self.to_act_pos
        behind = self.stack[p]
        if reading.act == "raise":
            self._aggress(p, reading.to)
        else:
            self._call(p)
        self._record_act(p, A.PushChips(seat, tuple(chips)), behind - self.stack[p])
        self._after_act(p)

    # -- showdown and award -----------------------------------------------------------------------------

    def verify_show_hand(self, seat: int, cards: Sequence[Card | str] | None = None) -> None:
        mucked = self.phase in (Phase.SHOWDOWN, Phase.AWARD) and self.mucked[self._pos_of(seat)]
        if mucked:
            # A hand mucked at the showdown (house option, docs/holdem-engine.md): the house's reading,
            # CC-146, by default (TDA-00): once mucked it is lost. TDA-14 / TDA-65-B: a mucked hand that
            # is still 100% identifiable and retrievable stays live and may be tabled, the TD ruling.
            if not self.rules.mucked_hand_recoverable:
                raise RuleViolation(N_("Seat %(seat)s mucked: a mucked hand cannot be recovered to win the pot"),
                                    "CC-146", seat=seat)
            if cards is None and self.hole[self._pos[seat]] is None:
                raise RuleViolation(N_("Seat %(seat)s's mucked hand is live only if it is identified: enter its "
                                       "cards"), "TDA-14", seat=seat)
        else:
            self._step(Phase.SHOWDOWN, Phrase(N_("show a hand")))
        p = self._pos_of(seat)
        if self.folded[p]:
            raise RuleViolation(N_("Seat %(seat)s folded and has no hand to show"), "DEAL-10", seat=seat)
        if self.shown[p]:
            raise RuleViolation(N_("Seat %(seat)s's hand is already shown"), "TDA-13-A", seat=seat)
        if cards is None:
            if self.hole[p] is None:
                raise RuleViolation(N_("Seat %(seat)s's cards were not recorded: enter them to show the hand"),
                                    "TDA-13-A", seat=seat)
            return
        hole = parse_cards(cards)
        if len(hole) != 2:
            raise RuleViolation(N_("A hand is properly tabled with both hole cards face up"), "TDA-13-A")
        if self.hole[p] is not None:
            if set(hole) != set(self.hole[p]):
                raise RuleViolation(N_("Seat %(seat)s was dealt %(dealt)s, not %(shown)s"), "TDA-13-A", seat=seat,
                                    dealt=" ".join(map(str, self.hole[p])), shown=" ".join(map(str, hole)))
        else:
            self._verify_new_cards(hole)

    def can_show_hand(self, seat: int, cards: Sequence[Card | str] | None = None) -> bool:
        return self._can(self.verify_show_hand, seat, cards)

    @_next_state
    def show_hand(self, seat: int, cards: Sequence[Card | str] | None = None) -> HoldemHand:
        """Table a hand (TDA-13-A); the cards are needed when they were not recorded at the deal."""
        self.verify_show_hand(seat, cards)
        p = self._pos[seat]
        self.mucked = _with(self.mucked, p, False)  # a mucked hand recovered (TDA-14), where the house allows it
        if self.hole[p] is None:
            self.hole = _with(self.hole, p, parse_cards(cards))
            self._cards_seen = self._cards_seen.union(self.hole[p])
        self.shown = _with(self.shown, p, True)
        self.actions += (A.ShowHand(seat, None if cards is None else parse_cards(cards)),)
        self._after_showing()

    def verify_muck_hand(self, seat: int) -> None:
        self._step(Phase.SHOWDOWN, Phrase(N_("muck a hand")))
        p = self._pos_of(seat)
        if self.folded[p] or self.mucked[p]:
            raise RuleViolation(N_("Seat %(seat)s has no live hand to muck"), "DEAL-10", seat=seat)
        if self.cards_up:
            raise RuleViolation(N_("With an all-in and no more betting every hand is tabled; nobody may muck"),
                                "TDA-16")
        if self.shown[p]:
            raise RuleViolation(N_("Seat %(seat)s's hand is tabled: the dealer cannot kill a tabled hand"),
                                "TDA-13-D", seat=seat)

    def can_muck_hand(self, seat: int) -> bool:
        return self._can(self.verify_muck_hand, seat)

    @_next_state
    def muck_hand(self, seat: int) -> HoldemHand:
        """Give up at the showdown without showing (TDA-17-B)."""
        self.verify_muck_hand(seat)
        p = self._pos[seat]
        self.mucked = _with(self.mucked, p, True)
        self.actions += (A.MuckHand(seat),)
        self._after_showing()

    def _after_showing(self) -> None:
        live = [i for i in range(len(self.seats)) if not self.folded[i] and not self.mucked[i]]
        # A recovered hand (TDA-14) may bring the showdown back from the award to a hand still to show.
        self.phase = Phase.AWARD if len(live) == 1 or all(self.shown[i] for i in live) else Phase.SHOWDOWN

    def _contenders(self) -> list[int]:
        return [i for i in range(len(self.seats)) if not self.folded[i] and not self.mucked[i]]

    def verify_award_pots(self) -> None:
        self._step(Phase.AWARD, Phrase(N_("award the pots")))
        contenders = self._contenders()
        if len(contenders) > 1:
            if len(self.board) < 5 or any(c is None for c in self.board):
                raise RuleViolation(N_("The board was not recorded: enter it to read the hands"), "TDA-12")
            missing = [self.seats[i] for i in contenders if self.hole[i] is None]
            if missing:
                raise RuleViolation(N_("The cards of seat %(seats)s are needed to read the hands"), "TDA-12",
                                    seats=", ".join(map(str, missing)))

    def can_award_pots(self) -> bool:
        return self._can(self.verify_award_pots)

    @_next_state
    def award_pots(self) -> HoldemHand:
        """Settle each pot on its own (TDA-21), the cards speaking (TDA-12); ``payouts``: seat -> chips collected.

        Ties split evenly in the smallest chip in play, odd chips from the
        first winner left of the button (TDA-20).
        """
        self.verify_award_pots()
        pots = self.pots()
        contenders = set(self._contenders())
        ranks: dict[int, int] = {}
        if len(contenders) > 1:
            board = self.board
            for i in contenders:
                ranks[self.seats[i]] = rank_cards((*self.hole[i], *board))
        payouts = dict.fromkeys(self.seats, 0)
        order = self.seats  # clockwise from the first seat left of the button
        for pot in pots:
            alive = [s for s in pot.eligible if self._pos[s] in contenders]
            if not alive:
                # Everyone who could win it mucked: it goes to the best remaining hand.
                alive = [self.seats[i] for i in contenders]
            if len(alive) == 1:
                winners = alive
            else:
                best = min(ranks[s] for s in alive)
                winners = [s for s in order if s in alive and ranks[s] == best]
            for seat, chips in split_pot(pot.amount, winners, self.setup.chip_unit).items():
                payouts[seat] += chips
        stack = list(self.stack)
        for seat, chips in payouts.items():
            stack[self._pos[seat]] += chips
        self.stack = tuple(stack)
        self.awarded_pots = tuple(pots)
        self._payouts = tuple(payouts.items())
        self.phase = Phase.COMPLETE
        self.actions += (A.AwardPots(),)

    # -- stopping the hand ------------------------------------------------------------------------------

    def verify_declare_misdeal(self) -> None:
        if self.phase in ENDED:
            raise RuleViolation(N_("The hand is already over"), "TDA-35-D")
        if self.rules.misdeal_cutoff is MisdealCutoff.CC_TWO_ACTIONS:
            if len(self.players_acted) > 2:
                raise RuleViolation(N_("%(count)s players have acted: a misdeal may be declared only while no more"
                                       " than two have"), "CC-99", count=len(self.players_acted))
        elif self.substantial_action:
            raise RuleViolation(N_("There has been substantial action: no misdeal now, the hand continues"),
                                "TDA-35-D")

    def can_declare_misdeal(self) -> bool:
        return self._can(self.verify_declare_misdeal)

    @_next_state
    def declare_misdeal(self) -> HoldemHand:
        """Void the hand and give back every bet, antes and blinds included (CC-97, TDA-35-C)."""
        self.verify_declare_misdeal()
        self._return_everything(Phase.MISDEAL)
        self.actions += (A.DeclareMisdeal(),)

    def verify_declare_defective_deck(self) -> None:
        if self.phase in ENDED:
            raise RuleViolation(N_("The hand is over: a defective deck claim now follows TDA-22"), "TDA-35-E")

    def can_declare_defective_deck(self) -> bool:
        return self._can(self.verify_declare_defective_deck)

    @_next_state
    def declare_defective_deck(self) -> HoldemHand:
        """Stop the hand and return all bets, even after substantial action (TDA-35-E, C-35)."""
        self.verify_declare_defective_deck()
        self._return_everything(Phase.VOID)
        self.actions += (A.DeclareDefectiveDeck(),)

    def _return_everything(self, phase: Phase) -> None:
        returned = {seat: self.total[i] + self.dead[i] for i, seat in enumerate(self.seats)}
        self.stack = self.starting_stacks
        self.bets = self.total = self.dead = (0,) * len(self.seats)
        self._payouts = tuple(returned.items())
        self.awarded_pots = ()
        self.pending = frozenset()
        self.to_act_pos = None
        self.phase = phase

    # -- helpers ----------------------------------------------------------------------------------------

    @staticmethod
    def _can(check, *args) -> bool:
        try:
            check(*args)
        except RuleViolation:
            return False
        return True

    def __repr__(self) -> str:
        return (f"HoldemHand({self.phase.value}, {self.street.value}, to_act={self.to_act},"
                f" pot={self.pot_total:,}, stacks={self.stacks})")


class _Draft(HoldemHand):
    """A hand being changed by one step (see ``_next_state``) or a batch of them (``_batch``).

    Its attributes may be set. It becomes a ``HoldemHand`` when the step or
    the batch is done, and is never seen before that.
    """

    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def _done(self) -> HoldemHand:
        """The batch's last state, frozen."""
        self.__class__ = HoldemHand
        return self
