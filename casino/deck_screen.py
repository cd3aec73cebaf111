"""A stock's decks page, live (issue #39, docs/decks.md, docs/realtime.md): one fragment with a stable id and a
version, rendered for the page's first load, for its own posts' answers (htmx) and for every push of its socket
(``casino.deck_consumers.StockDecksConsumer``), so another signer's step shows at once.

The fragment carries nothing of one viewer's (the stock's game decided who may open it; every signer sees the same
decks and forms), so it is the same bytes for all of them. Its ``data-version`` only grows: the stock's decks'
versions summed, plus how many decks it holds (a deck received is a new row). It hears every deck of the stock, so
its version skips by design (``data-version-gaps``: each push is the whole screen).
"""

from __future__ import annotations

from django.db.models import Count, Sum
from django.template.loader import render_to_string

from casino import deck_reads
from casino.models import Deck
from casino.rules.decks import Defect

DEFECTS = [d.value for d in Defect]


def decks_version(stock: str) -> int:
    """The stock's decks' versions summed, plus their number: grows with every step and every deck received."""
    found = Deck.objects.filter(stock=stock).aggregate(versions=Sum("version"), decks=Count("pk"))
    return (found["versions"] or 0) + found["decks"]


def decks_fragment(stock: str, kind, obj, notice: dict | None = None) -> str:
    """The stock's decks as they are now: each with its state, table and steps, and the forms of its next steps."""
    version = decks_version(stock)
    rows = [(deck, deck_reads.history(deck)) for deck in deck_reads.decks_in(stock)]
    return render_to_string("casino/_decks_fragment.html", {
        "stock": stock, "stock_id": stock.replace(".", "-"), "rows": rows, "places": kind.places(obj),
        "defects": DEFECTS, "notice": notice, "version": version})
