"""What the screens and the inspector read of the decks (issue #39): no write here.

* ``decks_used_at(place, since, until)``: which decks a table played in a session (or any span), each with
  when it went into play and when it left, from the decks' steps (one query).
* ``history(deck)``: a deck's steps, in order, with who signed each.
* ``decks_in(stock)``: a stock's decks by state (a pit's console, a tournament's console).

The hands dealt with a deck are the games' (``tournaments.reads.hands.hands_with_deck``): the core knows no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from casino.models import AuditEvent, Deck, DeckStep, label_of


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


# --- The hands of a deck, from each game (the core knows none) --------------------------------------------

#: Each game's hands dealt with a deck, as ``replay_hand`` lines (registered in its ``AppConfig.ready``).
_hand_sources: list[Callable[[Deck], Iterable[str]]] = []


def register_deck_hands(source: Callable[[Deck], Iterable[str]]) -> None:
    if source not in _hand_sources:
        _hand_sources.append(source)


def deck_hand_lines(deck: Deck) -> Iterable[str]:
    """Every game's hands dealt with ``deck``, one ``replay_hand`` JSON line each (``manage.py export_deck_hands``)."""
    for source in _hand_sources:
        yield from source(deck)


# --- verify_audit: each deck's steps against its stream ----------------------------------------------------


def verify_deck_steps(stream: str | None = None) -> tuple[int, list[str]]:
    """Each deck's steps against the audit events of its stream (``casino.deck.<id>``): one ``deck.<step>``
    event per step, in the same order. A step the log never recorded, or one gone, is reported."""
    decks = Deck.objects.order_by("pk")
    prefix = f"{Deck._meta.label_lower}."
    if stream is not None:
        if not stream.startswith(prefix) or not stream[len(prefix):].isdigit():
            return 0, []
        decks = decks.filter(pk=int(stream[len(prefix):]))
    problems: list[str] = []
    checked = 0
    for deck in decks.iterator(chunk_size=500):
        steps = list(DeckStep.objects.filter(deck=deck).order_by("seq").values_list("action", flat=True))
        events = list(AuditEvent.objects.filter(stream=label_of(Deck, deck.pk), action__startswith="deck.")
                      .order_by("seq").values_list("action", flat=True))
        checked += 1
        if [f"deck.{a}" for a in steps] != events:
            problems.append(f"deck {deck.serial} (id {deck.pk}): its steps {steps} differ from the log's {events}")
    return checked, problems


# --- The stocks: each game says which labels are its stocks, who signs there, and its tables --------------


@dataclass(frozen=True)
class Stock:
    """A game's stock of decks (a pit's, a tournament's), registered in its ``AppConfig.ready``: ``find(label)``
    its object (None: not this game's, or gone), ``may_sign(user, obj)`` the object check (the role check is
    ``casino.decks``'s), ``name(obj)``, ``places(obj)`` its tables as (label, name) a deck may be issued to,
    ``home(obj)`` the screen its signers come from (the page links back to it)."""

    find: Callable[[str], object | None]
    may_sign: Callable[[object, object], bool]
    name: Callable[[object], str]
    places: Callable[[object], list[tuple[str, str]]]
    #: where its signers come from (the pit's console), for the page's way back; None: no link
    home: Callable[[object], str] | None = None


_stocks: list[Stock] = []


def register_stock(stock: Stock) -> None:
    if stock not in _stocks:
        _stocks.append(stock)


def stock_of(label: str) -> tuple[Stock, object] | None:
    """The registered stock whose object ``label`` names, and the object; None if none does."""
    for stock in _stocks:
        found = stock.find(label)
        if found is not None:
            return stock, found
    return None
