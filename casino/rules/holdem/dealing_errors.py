"""The dealer's errors with the cards, each with the procedure's outcome (issue #38 item 2).

A mixin of ``HoldemHand`` (``casino.rules.holdem.hand``): every error is a trio like the other steps,
``verify_X`` (the ``RuleViolation`` naming its clause), ``can_X`` and ``X`` (the next state, its frozen
record in ``actions``, from ``casino.rules.holdem.actions``), so a hand with an error replays to the same
stacks. The outcomes, as the clauses write them:

* ``premature_board``: board cards turned before the betting round was complete are not used (CC-106).
  A premature flop: the burn stays, the flop goes back into the stub, which is reshuffled, and the new
  flop is dealt without a burn (RP-05-A, CC-107). A premature turn: the card is set aside, the turn is
  burnt and dealt as usual (what would have been the river), then the set-aside card goes back into the
  stub and the river is dealt without a burn (RP-05-B). A premature river: the card goes back into the
  stub, the burn stays, and the river is dealt without a burn once the turn's action ends (RP-05-C).
* ``four_card_flop``: too many community cards: the flop is redealt, the burn staying and the four cards
  shuffled back (CC-103, CC-107, the house's reading); where the house follows TDA-39, the director is
  called, picks one of the four at random as the next burn (the turn's) and the other three are the flop.
* ``exposed_in_deal``: the first or second card off the deck, or a second card, exposed by the dealer's
  error: a misdeal (CC-98, TDA-35-A(5)); from the third card on, the deal goes on, the card is replaced by
  the top card of the deck and used as the flop's burn (CC-101).
* ``exposed_card``: a player's card exposed after the deal is shown to everyone (CC-94, CC-95); if it is not
  identified the whole hand is shown (CC-96); exposed on purpose, the hand stays live and the director is
  called to penalise the player at the hand's end (CC-95).
* ``extra_card``: one extra card to the first player goes back and is the flop's burn (CC-102); two or more
  are a misdeal (CC-98).
* ``boxed_cards``: face-up cards found in the deck (C-07): scrap paper, the next card dealt (CC-100, the
  house's), a misdeal if a face-down card had already gone to the next player; or, as an option, two or more
  boxed cards are a misdeal (TDA-35-A(1)).
* ``button_short``: the button says at once he is short: the missing card is dealt, even after substantial
  action; if he has acted while short his hand is dead (TDA-37).
* ``wrong_card_count``: a player with the wrong number of cards: a misdeal while one may be declared (CC-98,
  C-06); after that his hand is dead, its cards to the muck, one burn per later street as usual (TDA-38).
* ``stub_rebuilt``: a dropped stub: how it was rebuilt is recorded (RP-04); mixed with the muck and burns,
  those cards are live again.
* ``burn_error``: a street dealt with no burn or two: before anyone acts on it, the street is taken back and
  dealt again properly (CC-104); after, the cards stand and the next street makes up for it: two burns after
  a missed one, none after an extra one (CC-105).

Where a clause calls the director (TDA-39, CC-95's penalty) its ID joins ``director_calls``: the console
shows it. A misdeal from an error is the misdeal of ``declare_misdeal`` (CC-97: every bet returned).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from casino.rules.cards import Card, parse_card, parse_cards
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem import actions as A
from casino.rules.holdem import phases as H

#: RP-04's three ways of rebuilding a dropped stub.
STUB_REBUILT = ("order", "stub", "all")

#: The plans whose street has no burn of its own (the others' burn is on the table already): an extra burn
#: made up for (CC-105), the river after a premature turn (RP-05-B).
NO_BURN = ("CC-105", "RP-05-B")

#: CC-95: who saw a player's exposed card: another player in the hand (shown to everyone at once) or a player
#: not in the hand (shown at the hand's end; any player may ask to see it).
SEEN_BY = ("active", "out")

#: The burn plan's kinds (``HoldemHand.burn_plan``): the street's burn is already on the table, or there
#: is none (``ready``, with the burn card when known); the street is burnt twice (``two``, CC-105).
READY, TWO = "ready", "two"


def _next_state(change: Callable[..., Any]) -> Callable[..., Any]:
    """A step taken as the hand's own are (``hand._next_state``, through ``HoldemHand._next_state_of``: this
    module does not import the hand, which imports it)."""

    @wraps(change)
    def step(self, *args: Any, **kwargs: Any):
        return self._next_state_of(change, *args, **kwargs)

    return step


def _with(values: tuple, i: int, value: Any) -> tuple:
    changed = list(values)
    changed[i] = value
    return tuple(changed)


def _card(value: Card | str | None) -> Card | None:
    return None if value is None else parse_card(value)


class DealingErrors:
    """The dealing errors' trios, mixed into ``HoldemHand`` (its fields and helpers are used as they are)."""

    # -- the burn plan, read by the board's deal (``HoldemHand._verify_board`` and ``_deal_board``) ------

    def _planned(self, street) -> tuple[str, Card | None, str] | None:
        """The street's burn plan: its kind, its card and the clause that set it, or ``None``."""
        for planned, kind, card, clause in self.burn_plan:
            if planned is street:
                return kind, card, clause
        return None

    def _burn_for(self, street, burned: Card | None) -> tuple[Card | None, Card | None]:
        """The street's burn card and the card new to the hand (both ``burned`` unless the plan says the
        burn is already on the table, or that there is none: then no burn is taken from the deck)."""
        plan = self._planned(street)
        if plan is None or plan[0] != READY:
            return burned, burned
        ready = plan[1]
        if burned is not None and burned != ready:
            raise RuleViolation(N_("No card is burnt for this street: its burn is already on the table, or the "
                                   "procedure deals it without one"), plan[2])
        return ready, None

    def _burns_for(self, street, burns: int | None, second: Card | None) -> tuple[int, Card | None]:
        """How many burn cards the street takes (CC-105: two after a missed burn, none after an extra one; one
        otherwise, maybe set aside already) and its second burn card; ``burns``, when given (a record
        replayed), must say the same."""
        plan = self._planned(street)
        if plan is None:
            taken, clause = 1, "CC-105"
        elif plan[0] == TWO:
            taken, clause = 2, plan[2]
        else:
            taken, clause = (0 if plan[2] in NO_BURN and plan[1] is None else 1), plan[2]
        if burns is not None and (isinstance(burns, bool) or burns != taken):
            if taken == 2:
                raise RuleViolation(N_("This street is burnt twice: the last burn was missed"), clause)
            if taken == 0:
                raise RuleViolation(N_("This street is dealt without a burn"), clause)
            raise RuleViolation(N_("This street is burnt once, as usual"), clause)
        if second is not None and taken != 2:
            raise RuleViolation(N_("A second burn card is burnt only after a missed burn"), "CC-105")
        return taken, second

    def _burn_dealt(self, street) -> None:
        """The street is dealt: its plan is used up; a turn's set-aside card goes back into the stub (RP-05-B)."""
        if self.burn_plan:
            self.plans_used = (*self.plans_used, *(p for p in self.burn_plan if p[0] is street))
            self.burn_plan = tuple(p for p in self.burn_plan if p[0] is not street)
        if street is H.Street.TURN and self.set_aside:
            self._cards_seen = self._cards_seen.difference(self.set_aside)
            self.set_aside = ()

    def _plan(self, street, kind: str, card: Card | None, clause: str) -> None:
        self.burn_plan = (*(p for p in self.burn_plan if p[0] is not street), (street, kind, card, clause))

    # -- common checks ------------------------------------------------------------------------------

    def _during_the_deal(self, what: str, clause: str) -> None:
        """The initial deal has just ended and nobody has acted yet."""
        if self.phase is not H.Phase.BETTING or self.street is not H.Street.PREFLOP or self.voluntary_actions:
            raise RuleViolation(N_("%(what)s is dealt with at the end of the initial deal, before anyone acts"),
                                clause, what=what)

    def _live(self, clause: str) -> None:
        if self.phase in H.ENDED:
            raise RuleViolation(N_("The hand is already over"), clause)

    def _misdeal(self, record: A.Action) -> None:
        """A misdeal as ``declare_misdeal`` (CC-97): every bet returned, the hand dealt again."""
        self._return_everything(H.Phase.MISDEAL)
        self.actions += (record,)

    def _kill(self, p: int) -> None:
        """The hand at ``p`` is dead: its chips stay in the pot, the betting goes on without it."""
        self.folded = _with(self.folded, p, True)
        self.pending -= {p}
        seat = self.seats[p]
        # an act of his out of turn waiting for his turn (TDA-53-A), or his hand's ruling (TDA-53-B), goes with it
        self.out_of_turn = tuple(o for o in self.out_of_turn if o.seat != seat)
        self.limited -= {seat}
        if self.skipped_ruling == seat:
            self.skipped_ruling = None
        if self.phase is H.Phase.BETTING:
            if self._round_over():
                self.to_act_pos = None
                self._close_round()
            elif self.to_act_pos == p:
                self.to_act_pos = self._next_pending(p)
        elif self.phase is H.Phase.BOARD and self.folded.count(False) <= 1:
            self.phase = H.Phase.AWARD

    def _call_director(self, clause: str) -> None:
        self.director_calls = (*self.director_calls, clause)

    # -- premature board cards (RP-05-A/B/C, CC-106, CC-107) ----------------------------------------

    def _premature_street(self):
        if self.phase is not H.Phase.BETTING or self.street is H.Street.RIVER:
            raise RuleViolation(N_("Board cards are premature only while a betting round before the river is "
                                   "still open"), "CC-106")
        return H.STREETS[H.STREETS.index(self.street) + 1]

    def verify_premature_board(self, cards: Sequence[Card | str] | None = None,
                               burn: Card | str | None = None) -> None:
        self._read_premature(cards, burn)

    def _read_premature(self, cards, burn):
        street = self._premature_street()
        clause = {H.Street.FLOP: "RP-05-A", H.Street.TURN: "RP-05-B", H.Street.RIVER: "RP-05-C"}[street]
        if self._planned(street) is not None or (street is H.Street.RIVER and self.set_aside):
            raise RuleViolation(N_("This street's cards were already dealt too soon once: call the director"),
                                clause)
        count = 3 if street is H.Street.FLOP else 1
        parsed = None if cards is None else parse_cards(cards)
        if parsed is not None and len(parsed) != count:
            raise RuleViolation(N_("A premature %(street)s is %(count)s card(s), not %(given)s"), clause,
                                street=street.value, count=count, given=len(parsed))
        burned = _card(burn)
        self._verify_new_cards((burned, *(parsed or ())))
        return street, parsed, burned

    def can_premature_board(self, cards: Sequence[Card | str] | None = None,
                            burn: Card | str | None = None) -> bool:
        return self._can(self.verify_premature_board, cards, burn)

    @_next_state
    def premature_board(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None):
        """The next street's cards turned before the round was complete: not used (CC-106), redealt as RP-05
        says when the round ends."""
        street, parsed, burned = self._read_premature(cards, burn)
        self.actions += (A.PrematureBoard(parsed, burned),)
        if burned is not None:
            self._cards_seen = self._cards_seen | {burned}
        if street is H.Street.TURN:
            # RP-05-B: the card is set aside (not the turn); the turn is burnt and dealt as usual, then the
            # set-aside card goes back into the stub and the river comes without a burn.
            if parsed:
                self.set_aside = parsed
                self._cards_seen = self._cards_seen | set(parsed)
            self._plan(H.Street.RIVER, READY, None, "RP-05-B")
        else:
            # RP-05-A / RP-05-C: the cards go back into the stub (they may come again), the burn stays and the
            # street is dealt again without a burn (CC-107).
            self._plan(street, READY, burned, "RP-05-A" if street is H.Street.FLOP else "RP-05-C")

    # -- a four-card flop (CC-103, TDA-39) -----------------------------------------------------------

    def verify_four_card_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                              pick: Card | str | None = None) -> None:
        self._read_four_card_flop(cards, burn, pick)

    def _read_four_card_flop(self, cards, burn, pick):
        if self.phase is not H.Phase.BOARD or self.street is not H.Street.PREFLOP:
            raise RuleViolation(N_("A four-card flop is recorded when the flop is dealt"), "CC-103")
        parsed = None if cards is None else parse_cards(cards)
        if parsed is not None and len(parsed) != 4:
            raise RuleViolation(N_("A four-card flop is four cards, not %(count)s"), "CC-103", count=len(parsed))
        burned, fresh = self._burn_for(H.Street.FLOP, _card(burn))
        picked = _card(pick)
        if self.rules.four_card_flop == "TDA-39":
            if parsed is not None and picked is None:
                raise RuleViolation(N_("The director picks one of the four cards at random as the next burn: "
                                       "enter it"), "TDA-39")
            if picked is not None and parsed is not None and picked not in parsed:
                raise RuleViolation(N_("The director's pick %(card)s is not one of the four cards"), "TDA-39",
                                    card=str(picked))
        elif picked is not None:
            raise RuleViolation(N_("Too many community cards: the flop is redealt, nobody picks a card"), "CC-103")
        self._verify_new_cards((fresh, *(parsed or ())))
        return parsed, burned, picked

    def can_four_card_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                           pick: Card | str | None = None) -> bool:
        return self._can(self.verify_four_card_flop, cards, burn, pick)

    @_next_state
    def four_card_flop(self, cards: Sequence[Card | str] | None = None, burn: Card | str | None = None,
                       pick: Card | str | None = None):
        """Four cards turned for the flop: redealt (CC-103, CC-107), or the director's pick (TDA-39)."""
        parsed, burned, picked = self._read_four_card_flop(cards, burn, pick)
        self.actions += (A.FourCardFlop(parsed, burned, picked),)
        if burned is not None:
            self._cards_seen = self._cards_seen | {burned}
        if self.rules.four_card_flop == "TDA-39":
            self._call_director("TDA-39")
            flop = None if parsed is None else tuple(c for c in parsed if c != picked)
            self._plan(H.Street.FLOP, READY, burned, "TDA-39")
            self._deal_board(H.Street.FLOP, flop, burned)
            if picked is not None:
                self._cards_seen = self._cards_seen | {picked}
            self._plan(H.Street.TURN, READY, picked, "TDA-39")  # the picked card is the turn's burn
        else:
            # CC-103: redealt even if the extra card can be identified; CC-107: the four cards go back into the
            # stub, the burn stays out, and the new flop is dealt without a burn.
            self._plan(H.Street.FLOP, READY, burned, "CC-107")

    # -- a card exposed during the deal (CC-98, CC-101, TDA-35-A(5)) --------------------------------

    def verify_exposed_in_deal(self, position: int, seat: int | None = None, card: Card | str | None = None,
                               replacement: Card | str | None = None) -> None:
        self._read_exposed_in_deal(position, seat, card, replacement)

    def _read_exposed_in_deal(self, position, seat, card, replacement):
        self._during_the_deal("A card exposed in the deal", "CC-101")
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= 2 * len(self.seats):
            raise RuleViolation(N_("The exposed card is one of the %(count)s cards dealt (1 for the first)"),
                                "CC-101", count=2 * len(self.seats))
        if seat is not None:
            self._pos_of(seat)
        exposed, new = _card(card), _card(replacement)
        hole = self.hole[self._pos[seat]] if seat is not None else None
        self._verify_new_cards((None if hole is not None and exposed in hole else exposed, new))
        earlier = any(a.kind == A.ExposedInDeal.kind for a in self.actions)
        misdeal = position <= 2 or earlier
        if not misdeal and self._planned(H.Street.FLOP) is not None:
            raise RuleViolation(N_("The flop's burn is already set aside: cards out of sequence are a misdeal"),
                                "CC-98")
        return misdeal, exposed, new

    def can_exposed_in_deal(self, position: int, seat: int | None = None, card: Card | str | None = None,
                            replacement: Card | str | None = None) -> bool:
        return self._can(self.verify_exposed_in_deal, position, seat, card, replacement)

    @_next_state
    def exposed_in_deal(self, position: int, seat: int | None = None, card: Card | str | None = None,
                        replacement: Card | str | None = None):
        """The first or second card, or a second exposed card: a misdeal (CC-98, TDA-35-A(5)); from the third
        card on: replaced by the top card, the exposed card used as the flop's burn (CC-101)."""
        misdeal, exposed, new = self._read_exposed_in_deal(position, seat, card, replacement)
        record = A.ExposedInDeal(position, seat, exposed, new)
        if misdeal:
            self._misdeal(record)
            return
        self.actions += (record,)
        if exposed is not None:
            self._cards_seen = self._cards_seen | {exposed}  # out of play: the flop's burn
        if seat is not None and exposed is not None and new is not None:
            p = self._pos[seat]
            hole = self.hole[p]
            if hole is not None and exposed in hole:
                # the seat's recorded hand takes the top card; a hand not recorded shows it at the showdown
                self.hole = _with(self.hole, p, tuple(new if c == exposed else c for c in hole))
                self._cards_seen = self._cards_seen | {new}
        self._plan(H.Street.FLOP, READY, exposed, "CC-101")

    # -- a player's card exposed after the deal (CC-94, CC-95, CC-96) -------------------------------

    def verify_exposed_card(self, seat: int, card: Card | str | None = None, intentional: bool | None = None,
                            seen_by: str | None = None) -> None:
        self._read_exposed_card(seat, card, seen_by)

    def _read_exposed_card(self, seat, card, seen_by=None):
        self._live("CC-94")
        if seen_by is not None and seen_by not in SEEN_BY:
            raise RuleViolation(N_("Say who saw the card: another player in the hand, or a player not in it"),
                                "CC-95")
        if self.phase in (H.Phase.ANTES, H.Phase.BLINDS, H.Phase.DEAL):
            raise RuleViolation(N_("No card is dealt yet"), "CC-94")
        p = self._pos_of(seat)
        if self.folded[p]:
            raise RuleViolation(N_("Seat %(seat)s has no live hand: a card of a dead hand is not an exposed card"),
                                "CC-95", seat=seat)
        exposed = _card(card)
        hole = self.hole[p]
        if exposed is not None:
            if hole is not None:
                if exposed not in hole:
                    raise RuleViolation(N_("Seat %(seat)s was dealt %(dealt)s, not %(card)s"), "CC-94", seat=seat,
                                        dealt=" ".join(map(str, hole)), card=str(exposed))
            elif exposed in self._cards_seen:
                raise RuleViolation(N_("%(card)s is already in play: two identical cards mean a defective deck;"
                                       " stop the hand and return all bets"), "TDA-35-E", card=str(exposed))
        return p, exposed

    def can_exposed_card(self, seat: int, card: Card | str | None = None, intentional: bool | None = None,
                         seen_by: str | None = None) -> bool:
        return self._can(self.verify_exposed_card, seat, card, intentional, seen_by)

    @_next_state
    def exposed_card(self, seat: int, card: Card | str | None = None, intentional: bool | None = None,
                     seen_by: str | None = None):
        """Shown to every player (CC-94): at once when another player in the hand saw it, at the hand's end
        when only a player not in the hand did (CC-95); the hand stays live; exposed on purpose, the director
        is called for the penalty at the hand's end (CC-95); not identified, the whole hand is shown (CC-96)."""
        p, exposed = self._read_exposed_card(seat, card, seen_by)
        # The card stays the player's: it is checked again when his hand is shown (a hand not recorded at the
        # deal enters its cards then), not taken out of the deck here.
        self.actions += (A.ExposedCard(seat, exposed, True if intentional else None, seen_by),)
        if intentional:
            self._call_director("CC-95")

    def exposed_cards(self, at_end: bool = False) -> dict[int, list[str]]:
        """The exposed cards by seat (CC-94): those shown to everyone at once (another player in the hand saw
        them), or with ``at_end`` those shown at the hand's end (only a player not in the hand saw them: any
        player may ask to see them, CC-95); ``["?"]``: not identified, the whole hand shown (CC-96)."""
        shown: dict[int, list[str]] = {}
        for a in self.actions:
            if a.kind == A.ExposedCard.kind and (a.seen_by == "out") == at_end:
                shown.setdefault(a.seat, []).append("?" if a.card is None else str(a.card))
        return shown

    # -- an extra card to the first player (CC-102, CC-98) -----------------------------------------

    def verify_extra_card(self, card: Card | str | None = None, count: int | None = None) -> None:
        self._read_extra_card(card, count)

    def _read_extra_card(self, card, count):
        self._during_the_deal("An extra card", "CC-102")
        count = 1 if count is None else count
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RuleViolation(N_("The extra cards are a whole number, at least 1"), "CC-102")
        extra = _card(card)
        if count == 1 and self._planned(H.Street.FLOP) is not None:
            raise RuleViolation(N_("The flop's burn is already set aside: cards out of sequence are a misdeal"),
                                "CC-98")
        self._verify_new_cards((extra,))
        return extra, count

    def can_extra_card(self, card: Card | str | None = None, count: int | None = None) -> bool:
        return self._can(self.verify_extra_card, card, count)

    @_next_state
    def extra_card(self, card: Card | str | None = None, count: int | None = None):
        """One extra card to the first player returns to the deck as the flop's burn (CC-102); two or more
        extra cards in the initial deal are a misdeal (CC-98)."""
        extra, count = self._read_extra_card(card, count)
        record = A.ExtraCard(extra, None if count == 1 else count)
        if count >= 2:
            self._misdeal(record)
            return
        self.actions += (record,)
        if extra is not None:
            self._cards_seen = self._cards_seen | {extra}
        self._plan(H.Street.FLOP, READY, extra, "CC-102")

    # -- face-up cards found in the deck (C-07: CC-100, TDA-35-A(1)) -------------------------------

    def verify_boxed_cards(self, count: int, cards: Sequence[Card | str] | None = None,
                           next_dealt: bool | None = None) -> None:
        self._read_boxed(count, cards)

    def _read_boxed(self, count, cards):
        self._during_the_deal("A face-up card found in the deck", "C-07")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RuleViolation(N_("The face-up cards found are a whole number, at least 1"), "C-07")
        parsed = None if cards is None else parse_cards(cards)
        if parsed is not None and len(parsed) != count:
            raise RuleViolation(N_("%(count)s face-up cards, but %(given)s entered"), "C-07", count=count,
                                given=len(parsed))
        self._verify_new_cards(parsed or ())
        return parsed

    def can_boxed_cards(self, count: int, cards: Sequence[Card | str] | None = None,
                        next_dealt: bool | None = None) -> bool:
        return self._can(self.verify_boxed_cards, count, cards, next_dealt)

    def boxed_cards_misdeal(self, count: int, next_dealt: bool | None = None) -> tuple[bool, str]:
        """Whether face-up cards found in the deck make a misdeal under the house's C-07, and the clause."""
        if self.rules.boxed_cards == "TDA-35-A":
            return count >= 2, "TDA-35-A"
        return bool(next_dealt), "CC-100"

    @_next_state
    def boxed_cards(self, count: int, cards: Sequence[Card | str] | None = None, next_dealt: bool | None = None):
        """Scrap paper, the next card dealt instead (CC-100; the house's C-07), a misdeal if a face-down card
        had already gone to the next player; or, as an option, two or more boxed cards: a misdeal (TDA-35-A)."""
        parsed = self._read_boxed(count, cards)
        record = A.BoxedCards(count, parsed, True if next_dealt else None)
        if self.boxed_cards_misdeal(count, next_dealt)[0]:
            self._misdeal(record)
            return
        self.actions += (record,)
        if parsed:
            self._cards_seen = self._cards_seen | set(parsed)

    # -- the button short a card (TDA-37, TDA-35-B) -------------------------------------------------

    def verify_button_short(self, card: Card | str | None = None) -> None:
        self._read_button_short(card)

    def _read_button_short(self, card):
        self._live("TDA-37")
        if self.phase not in (H.Phase.BETTING, H.Phase.BOARD):
            raise RuleViolation(N_("The button says so at once, while the hand is played"), "TDA-37")
        p = self._pos.get(self.setup.button)
        if p is None or self.folded[p]:
            raise RuleViolation(N_("The button has no live hand"), "TDA-37")
        if any(a.kind == A.ButtonShortCard.kind for a in self.actions):
            raise RuleViolation(N_("The button's missing card was already dealt"), "TDA-37")
        missing = _card(card)
        self._verify_new_cards((missing,))
        return p, missing

    def can_button_short(self, card: Card | str | None = None) -> bool:
        return self._can(self.verify_button_short, card)

    @_next_state
    def button_short(self, card: Card | str | None = None):
        """The missing card is dealt, even after substantial action; if the button has acted (checked or bet)
        while short, his hand is dead (TDA-37)."""
        p, missing = self._read_button_short(card)
        self.actions += (A.ButtonShortCard(missing),)
        if p in self.players_acted:
            self._kill(p)
        # the missing card is the button's: checked when his hand is shown, as the rest of it

    # -- a wrong number of cards (CC-98, TDA-38) ---------------------------------------------------

    def verify_wrong_card_count(self, seat: int, count: int) -> None:
        self._read_wrong_count(seat, count)

    def _read_wrong_count(self, seat, count):
        self._live("TDA-38")
        if self.phase not in (H.Phase.BETTING, H.Phase.BOARD):
            raise RuleViolation(N_("A wrong card count is dealt with while the hand is played"), "TDA-38")
        p = self._pos_of(seat)
        if self.folded[p]:
            raise RuleViolation(N_("Seat %(seat)s has no live hand"), "TDA-38", seat=seat)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0 or count == 2 or count > 10:
            raise RuleViolation(N_("A wrong card count is a number of cards other than two"), "TDA-38")
        if seat == self.setup.button and count == 1 and p not in self.players_acted:
            raise RuleViolation(N_("The button short a card is dealt the missing card (TDA-37): use “button "
                                   "short”"), "TDA-37")
        return p

    def can_wrong_card_count(self, seat: int, count: int) -> bool:
        return self._can(self.verify_wrong_card_count, seat, count)

    @_next_state
    def wrong_card_count(self, seat: int, count: int):
        """A misdeal while the house allows one (CC-98, C-06); after that the hand is dead, its cards to the
        muck, and the deck goes on as normal: one burn per later street, no card made up (TDA-38)."""
        p = self._read_wrong_count(seat, count)
        record = A.WrongCardCount(seat, count)
        if self.can_declare_misdeal():
            self._misdeal(record)
            return
        self.actions += (record,)
        self._kill(p)

    # -- a dropped stub (RP-04) --------------------------------------------------------------------

    def verify_stub_rebuilt(self, how: str) -> None:
        self._live("RP-04")
        if self.phase not in (H.Phase.BETTING, H.Phase.BOARD) or len(self.board) >= 5:
            raise RuleViolation(N_("A stub is rebuilt while cards remain to be dealt"), "RP-04")
        if how not in STUB_REBUILT:
            raise RuleViolation(N_("Say how the stub was rebuilt: %(ways)s"), "RP-04", ways=", ".join(STUB_REBUILT))

    def can_stub_rebuilt(self, how: str) -> bool:
        return self._can(self.verify_stub_rebuilt, how)

    @_next_state
    def stub_rebuilt(self, how: str):
        """RP-04: its order restored, a new stub from the stub only, or everything (muck and burns) reshuffled:
        then the burnt and mucked cards are live again."""
        self.verify_stub_rebuilt(how)
        self.actions += (A.StubRebuilt(how),)
        if how == "all":
            back = {c for c in (*self.burns, *self.second_burns) if c is not None}
            for i, hole in enumerate(self.hole):
                if self.folded[i] and hole is not None:
                    back.update(hole)
            self._cards_seen = self._cards_seen - back

    # -- burn errors (CC-104, CC-105) ---------------------------------------------------------------

    def verify_burn_error(self, burns: int, street: str | None = None) -> None:
        self._read_burn_error(burns, street)

    def _read_burn_error(self, burns, street=None):
        """The street with the error, and whether it is taken back and dealt again (nobody acted since it
        was dealt) or stands (the next street undealt makes up for it)."""
        self._live("CC-105")
        if isinstance(burns, bool) or burns not in (0, 2):
            raise RuleViolation(N_("A burn error is no burn (0) or two burns (2)"), "CC-105")
        if not self.board or self.phase not in (H.Phase.BETTING, H.Phase.BOARD, H.Phase.SHOWDOWN, H.Phase.AWARD):
            raise RuleViolation(N_("No street has been dealt to correct"), "CC-105")
        if street is None:
            return self.street, self._street_unacted()
        target = {"flop": H.Street.FLOP, "turn": H.Street.TURN, "river": H.Street.RIVER}.get(street)
        if target is None or H.STREETS.index(target) > H.STREETS.index(self.street):
            raise RuleViolation(N_("Say which street dealt so far had the burn error: flop, turn or river"),
                                "CC-105")
        if target is self.street:
            return target, self._street_unacted()
        # an earlier street: taken back with the streets after it only if nobody could bet since (an all-in:
        # found before the pot is awarded, CC-105); otherwise the cards stand
        unacted = self._unacted_since(target)
        if not unacted and self.phase is not H.Phase.BETTING and self.phase is not H.Phase.BOARD:
            raise RuleViolation(N_("There was betting since that street: its cards stand, and no street is left "
                                   "to make up for the burn"), "CC-105")
        return target, unacted

    def _street_unacted(self) -> bool:
        """Nobody has acted since the last street was dealt (or nobody could: an all-in, CC-105)."""
        for record in reversed(self.actions):
            if record.kind in A.BETTING_KINDS:
                return False
            if record.kind in ("deal-flop", "deal-turn", "deal-river", "four-card-flop"):
                return True
        return True

    def _unacted_since(self, street) -> bool:
        """Nobody has acted since ``street`` was dealt (last dealt; a street dealt again counts from then)."""
        deals = {H.Street.FLOP: ("deal-flop", "four-card-flop"), H.Street.TURN: ("deal-turn",),
                 H.Street.RIVER: ("deal-river",)}[street]
        for record in reversed(self.actions):
            if record.kind in A.BETTING_KINDS:
                return False
            if record.kind in deals:
                return True
        return True

    def can_burn_error(self, burns: int, street: str | None = None) -> bool:
        return self._can(self.verify_burn_error, burns, street)

    def burn_error_streets(self) -> list[str]:
        """The streets dealt so far whose burn error may be recorded now (the last one; an earlier one too in
        a hand without betting since, an all-in, CC-105)."""
        return [s.value for s in H.STREETS[1:] if self.can_burn_error(0, s.value)]

    @_next_state
    def burn_error(self, burns: int, street: str | None = None):
        """Before anyone acts on the street it is dealt again with its proper burn and cards (CC-104); found
        later in a hand where nobody could bet since (an all-in), before the pot is awarded, the street and
        those after it are taken back and dealt again properly (CC-105); otherwise the cards stand and the
        next street is burnt twice (no burn) or not at all (two burns) (CC-105)."""
        target, unacted = self._read_burn_error(burns, street)
        self.actions += (A.BurnError(burns, street),)
        if unacted:
            self._take_back_from(target)
            return
        last = self.street if self.phase in (H.Phase.BETTING, H.Phase.BOARD) else H.Street.RIVER
        if last is H.Street.RIVER:
            return  # no street left to make up for it: the cards stand
        following = H.STREETS[H.STREETS.index(last) + 1]
        if burns == 0:
            self._plan(following, TWO, None, "CC-105")
        else:
            self._plan(following, READY, None, "CC-105")

    def _take_back_from(self, street) -> None:
        """``street`` and those dealt after it go back into the stub (their burns too): the hand is where it
        was before ``street`` was dealt, the dealer to deal it again properly (CC-104, CC-105)."""
        kept = H.STREETS.index(street) - 1  # the streets dealt before it
        on_board = (0, 3, 4)[kept]
        taken = (*self.board[on_board:], *self.burns[kept:], *self.second_burns[kept:])
        # the plans those streets used are theirs again: a burn already on the table stays out of the stub
        later = set(H.STREETS[kept + 1:])
        restored = tuple(p for p in self.plans_used if p[0] in later)
        if restored:
            self.plans_used = tuple(p for p in self.plans_used if p[0] not in later)
            self.burn_plan = (*self.burn_plan, *restored)
            taken = tuple(c for c in taken if c not in {p[2] for p in restored})
        self.board = self.board[:on_board]
        self.burns = self.burns[:kept]
        self.burn_counts = self.burn_counts[:kept]
        self.second_burns = self.second_burns[:kept]
        self._cards_seen = self._cards_seen - {c for c in taken if c is not None}
        self.street = H.STREETS[kept]
        self.bets = (0,) * len(self.seats)
        self.pending = frozenset()
        self.to_act_pos = None
        self.phase = H.Phase.BOARD
        # hands tabled at a showdown reached with the wrong board are shown again once it is dealt properly
        self.shown = (False,) * len(self.seats)
