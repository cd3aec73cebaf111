"""The tablet's "dealing error" menu (issue #38 item 2): which of the dealer's errors with the cards the hand in play
can take now (the engine's ``can_X``, ``casino.rules.holdem.dealing_errors``), what the next street's deal must do
differently (no burn, two burns) and the clauses that called the director. Each is one tap of ``views.tablet``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from casino.rules.holdem import HoldemHand, Phase, Street
from casino.rules.holdem.dealing_errors import READY
from casino.rules.holdem.hand import STREETS

#: The street a premature card belongs to, by the street whose round is open.
_PREMATURE = {Street.PREFLOP: "flop", Street.FLOP: "turn", Street.TURN: "river"}


def _street_name(street: Street) -> str:
    return {Street.FLOP: _("flop"), Street.TURN: _("turn"), Street.RIVER: _("river")}.get(street, "")


def dealing_errors(engine: HoldemHand) -> dict[str, Any]:
    """What the menu offers for ``engine`` (a hand in play), and the notes for the next deal."""
    seats = [s for i, s in enumerate(engine.seats) if not engine.folded[i]]
    premature = engine.can_premature_board()
    view: dict[str, Any] = {
        "premature": _PREMATURE.get(engine.street) if premature else None,
        "four_card_flop": engine.can_four_card_flop(),
        "in_the_deal": engine.can_extra_card() or engine.can_boxed_cards(1),
        "exposed_in_deal_positions": list(range(1, 2 * len(engine.seats) + 1)),
        "exposed_card_seats": [s for s in seats if engine.can_exposed_card(s)],
        "button_short": engine.can_button_short(),
        "wrong_count_seats": [s for s in seats if engine.can_wrong_card_count(s, 3)],
        "stub": engine.can_stub_rebuilt("order"),
        "burn_error": engine.can_burn_error(0),
        # CC-105: the streets whose burn error may be recorded (an earlier one in an all-in hand), last first
        "burn_error_streets": [(s, _street_name(Street(s))) for s in reversed(engine.burn_error_streets())],
        "director_calls": list(engine.director_calls),
        # CC-95: shown to everyone at once (another player in the hand saw it), or at the hand's end (only a
        # player not in the hand saw it)
        "exposed": engine.exposed_cards(),
        "exposed_at_end": engine.exposed_cards(at_end=True),
    }
    view["any"] = any(view[k] for k in ("premature", "four_card_flop", "in_the_deal", "exposed_card_seats",
                                        "button_short", "wrong_count_seats", "stub", "burn_error"))
    view["next_deal"] = next_deal_note(engine)
    return view


def next_deal_note(engine: HoldemHand) -> dict[str, str] | None:
    """The next street's deal when a dealing error changed it: without a burn (RP-05, CC-101, CC-102, CC-107,
    TDA-39) or burnt twice (CC-105); None when it is dealt as usual."""
    if engine.phase not in (Phase.BETTING, Phase.BOARD) or engine.street is Street.RIVER:
        return None
    following = STREETS[STREETS.index(engine.street) + 1]
    for street, kind, card, clause in engine.burn_plan:
        if street is not following:
            continue
        if kind == READY:
            if card is not None:
                text = _("Deal the %(street)s without burning: its burn is %(card)s, already on the table "
                         "(%(clause)s).")
            else:
                text = _("Deal the %(street)s without burning (%(clause)s).")
        else:
            text = _("Burn two cards before the %(street)s (%(clause)s).")
        return {"text": text % {"street": _street_name(street), "card": card, "clause": clause}, "clause": clause}
    return None
