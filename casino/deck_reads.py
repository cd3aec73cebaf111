"""What the screens and the inspector read of the decks (issue #39): no write here.

* ``decks_used_at(place, since, until)``: which decks a table played in a session (or any span), each with
  when it went into play and when it left, from the decks' steps (one query).
* ``history(deck)``: a deck's steps, in order, with who signed each.
* ``decks_in(stock)``: a stock's decks by state (a pit's console, a tournament's console).

The hands dealt with a deck are the games' (``tournaments.reads.hands.hands_with_deck``): the core knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from casino.models import Deck, DeckStep


@dataclass(frozen=True)
class DeckSpell:
    """A deck's time in play at a table: from ``start`` to ``end`` (None: still in play)."""

    deck: Deck
    start: datetime
    end: datetime | None


def decks_used_at(place: str, since: datetime | None = None, until: datetime | None = None) -> list[DeckSpell]:
    """The decks in play at ``place`` (a table's label) between ``since`` and ``until``, in the order they went
    into play: one query over the steps at that table."""
    steps = DeckStep.objects.filter(place=place, action__in=("in-play", "retired", "defective")).select_related(
        "deck").order_by("at", "deck_id", "seq")
    spells: dict[int, list] = {}
    for step in steps:
        if step.action == "in-play":
            spells[step.deck_id] = [step.deck, step.at, None]
        elif step.deck_id in spells and spells[step.deck_id][2] is None:
            spells[step.deck_id][2] = step.at
    found = [DeckSpell(*spell) for spell in spells.values()]
    if until is not None:  # those that went into play by then (their retirement may be stamped a moment later)
        found = [s for s in found if s.start <= until]
    if since is not None:
        found = [s for s in found if s.end is None or s.end >= since]
    return sorted(found, key=lambda s: s.start)


def spells_of(deck: Deck) -> list[tuple[str, datetime, datetime | None]]:
    """Each time ``deck`` was in play: (its table, from, until; None: still in play), from its steps."""
    spells: list[list] = []
    for step in DeckStep.objects.filter(deck=deck, action__in=("in-play", "retired", "defective")).order_by("seq"):
        if step.action == "in-play":
            spells.append([step.place, step.at, None])
        elif spells and spells[-1][2] is None:
            spells[-1][2] = step.at
    return [tuple(s) for s in spells]


def history(deck: Deck) -> list[DeckStep]:
    """The deck's steps in order, each with the person who signed it."""
    return list(DeckStep.objects.filter(deck=deck).select_related("by").order_by("seq"))


def decks_in(stock: str) -> list[Deck]:
    """A stock's decks, those still usable first (in stock, at a table), then the rest."""
    order = {s: i for i, s in enumerate(Deck.State.values)}
    return sorted(Deck.objects.filter(stock=stock), key=lambda d: (order.get(d.state, 99), d.serial))
