"""Driving a live table through its commands, as the tablet and the console do: one request with a
fresh key (``act``), the dealer's records (``play`` and the record builders), the opening procedure
and a whole recorded hand. Imported explicitly by the tests (``from .helpers import ...``); the
fixtures built on them are in conftest.py.
"""

from __future__ import annotations

import uuid

from tables import services, sessions


def act(fn, table, by, **kwargs):
    """One request as a screen sends it: a fresh idempotency key and the version the screen shows."""
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def play(table, dealer, *records):
    """The dealer records each engine action in turn (dicts as the tablet sends them)."""
    result = None
    for record in records:
        result = act(services.record_action, table, dealer, record=record)
    return result


def ante(box, amount):
    return {"action": "place-ante", "box": box, "amount": amount}


def bonus(box, amount):
    return {"action": "place-bonus", "box": box, "amount": amount}


CLOSE_BETS = {"action": "close-bets"}
DEAL = {"action": "deal-initial"}


def bet_flop(box, amount):
    return {"action": "bet-flop", "box": box, "amount": amount}


def fold(box, cards=None):
    return {"action": "fold", "box": box, **({"cards": cards.split()} if cards else {})}


def flop(cards=None):
    return {"action": "deal-flop", **({"cards": cards.split()} if cards else {})}


def turn(card=None):
    return {"action": "deal-turn", **({"card": card} if card else {})}


def river(card=None):
    return {"action": "deal-river", **({"card": card} if card else {})}


def bet_turn(box, amount):
    return {"action": "bet-turn", "box": box, "amount": amount}


def pass_turn(box):
    return {"action": "pass-turn", "box": box}


def bet_river(box, amount):
    return {"action": "bet-river", "box": box, "amount": amount}


def pass_river(box):
    return {"action": "pass-river", "box": box}


def reveal_dealer(cards=None):
    return {"action": "reveal-dealer", **({"cards": cards.split()} if cards else {})}


def reveal_box(box, cards=None):
    return {"action": "reveal-box", "box": box, **({"cards": cards.split()} if cards else {})}


def open_for_play(table, dealer, pit_boss):
    """The opening procedure: the dealer asks, the pit boss confirms the deck check (THB-21)."""
    act(sessions.request_opening, table, dealer)
    act(sessions.confirm_deck_check, table, pit_boss)
    table.refresh_from_db()
    return table


def play_to_settlement(table, dealer):
    """Boxes 1 (ante 10, Bonus 5), 3 (ante 20) and 5 (ante 5, folds, Bonus 2) through a whole recorded hand.

    Board 2c 7d 9h Js Kc. Dealer Qh Qd (pair of queens). Box 1 As Ac: A-A Bonus 30:1, pair of aces
    beats queens, ante pushes below a straight (THB-50). Box 3 8s Ts: straight 7-J, wins ante too.
    Box 5 folds with 3d 4d: loses ante, Bonus loses.
    """
    return play(
        table, dealer,
        ante(1, 10), bonus(1, 5), ante(3, 20), ante(5, 5), bonus(5, 2), CLOSE_BETS, DEAL,
        bet_flop(1, 20), bet_flop(3, 40), fold(5, "3d 4d"),
        flop("2c 7d 9h"), bet_turn(1, 10), pass_turn(3), turn("Js"), pass_river(1), bet_river(3, 20), river("Kc"),
        reveal_dealer("Qh Qd"), reveal_box(3, "8s Ts"), reveal_box(1, "As Ac"),
    )
