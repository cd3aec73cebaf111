"""The registration desk (issue #36, item 12): a player registered, accredited and handed his QR in the typed
fields and two taps, the desk back on an empty form with the last entry confirmed, and the entries found by
name, ID or entry number.

The rules stay the services' (``services.register``: ID checks, the exclusion list, age, a second entry;
``services.accredit``: the document must be the entry's). This module only chains them for the desk and
reads what the desk shows: who is accredited (the record's ``id_checked`` events after their corrections),
where the last entry sits, which entries match a search.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from casino.form_input import version_and_key
from casino.rules.tournament.eligibility import normalise_id_number
from casino.rules.tournament.record import IN_PLAY
from casino.writes import asking
from tournaments.models import Entry, Tournament

#: the longest search the desk reads (a name and a surname, an ID with its dots)
QUERY_LIMIT = 80
#: an ID is found from this many of its characters: fewer match half the room's documents
ID_MATCH_FROM = 4


@dataclass(frozen=True)
class DeskEntry:
    """One entry as the desk lists it."""

    pk: int
    number: int
    name: str
    status: str  # the entry's status, in the viewer's language
    in_play: bool
    accredited: bool
    table: int | None
    seat: int | None
    id_type: str  # the registered document's type: the accreditation form offers it first
    id_number: str  # normalised; never printed on the page, only searched
    find: str  # what the live filter matches: the number and the folded name

    @property
    def seated(self) -> bool:
        return self.table is not None and self.seat is not None


def fold(text: str) -> str:
    """Text as the desk compares it: case and accents ignored ("José PÉREZ" finds "jose perez")."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _state(tournament: Tournament):
    from tournaments.services import tournament_state

    return tournament_state(tournament)


def desk_entries(tournament: Tournament) -> list[DeskEntry]:
    """Every entry of the event in number order, with its accreditation and seat as the record stands (a
    corrected accreditation no longer counts)."""
    state = _state(tournament)
    out = []
    for row in Entry.objects.filter(tournament=tournament).select_related("player").order_by("number"):
        known = state.entry(row.number)
        checks = known.checks if known is not None else ()
        player = row.player
        out.append(DeskEntry(
            pk=row.pk, number=row.number, name=row.player_name, status=row.get_status_display(),
            in_play=row.status in IN_PLAY, accredited="accreditation" in checks,
            table=known.table if known is not None else None, seat=known.seat if known is not None else None,
            id_type=player.id_type if player else "", id_number=player.id_number if player else "",
            find=f"{row.number} {fold(row.player_name)}"))
    return out


def clean_query(raw: object) -> str:
    """The search as typed, trimmed to what a desk types (a NUL or a control character is dropped)."""
    text = str(raw or "")[:QUERY_LIMIT]
    return "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()


def find(entries: list[DeskEntry], query: str) -> list[DeskEntry]:
    """The entries a search names: its entry number ("12", "#12"), its ID number from four characters on
    (dots, dashes and case ignored: "30.123" finds 30123456), or every word of it in the name (accents and
    case ignored, any order). An event has a few thousand entries at most: filtered here, in one pass."""
    query = clean_query(query)
    if not query:
        return list(entries)
    number = query.lstrip("#").strip()
    as_number = int(number) if number.isascii() and number.isdigit() and len(number) <= 9 else None
    id_needle = normalise_id_number(query)
    by_id = len(id_needle) >= ID_MATCH_FROM and id_needle.isascii() and id_needle.isalnum()
    words = fold(query).split()
    return [e for e in entries
            if e.number == as_number
            or (by_id and id_needle in e.id_number)
            or (words and all(w in fold(e.name) for w in words))]


def entry_number_or_none(raw: object) -> int | None:
    """A ``last`` entry number from the address, or None for anything that is not one."""
    text = str(raw or "").strip()
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 9 else None


def desk_url(tournament: Tournament, *, last: int | None = None, link=None, query: str = "") -> str:
    """The desk's address: the last entry to confirm (and its fresh QR link), the search kept."""
    params = {}
    if last is not None:
        params["last"] = str(last)
    if link is not None:
        params["link"] = str(link)
    if query:
        params["q"] = query
    url = reverse("tournaments:registration", args=[tournament.pk])
    return f"{url}?{urlencode(params)}" if params else url


def from_the_desk(post) -> bool:
    """Whether a form was sent from the desk (its answer goes back there, not to the entry's page)."""
    return post.get("from") == "desk"


def back_to_the_desk(tournament: Tournament, post) -> str:
    return desk_url(tournament, query=clean_query(post.get("q")))


def accredit_now(post) -> bool:
    """The desk's "accredit now" box: the document just typed is the one shown for the accreditation."""
    return post.get("accredit") == "1"


def second_key(key: str, what: str) -> str:
    """The key of a second write a form makes (the accreditation after the registration): its own, and the
    same at every retry of the form; a key too long for the suffix is replaced by its digest."""
    derived = f"{key}:{what}"
    return derived if len(derived) <= 100 else f"{hashlib.sha256(key.encode()).hexdigest()}:{what}"


def register(tournament: Tournament, user, post, fields: dict, *, accredit: bool):
    """``services.register`` and, when the desk ticked "accredit now", ``services.accredit`` with the same
    document, in one transaction: both or neither. A refused registration (recorded by the service with
    its reason) is not accredited; a form sent again is answered by both writes' stored results."""
    from tournaments import services

    version, key = version_and_key(post)
    with transaction.atomic(), asking({"service": "register", **fields, "accredit": accredit}):
        result = services.register(tournament=tournament, by=user, key=key, expected_version=version, **fields)
        if accredit and result.refusal is None and result.entry is not None:
            services.accredit(tournament=tournament, by=user, key=second_key(key, "accredit"),
                              expected_version=result.version, entry=result.entry, id_type=fields["id_type"],
                              id_number=fields["id_number"])
    return result


def accredited_message(tournament: Tournament, number: int) -> str:
    """What an accreditation's success says: who was accredited."""
    entry = Entry.objects.filter(tournament=tournament, number=number).first()
    name = entry.player_name if entry is not None else ""
    return _("Entry #%(number)s, %(name)s, is accredited.") % {"number": number, "name": name}


def desk_context(request, tournament: Tournament, *, link_of) -> dict:
    """What the desk shows besides its form: the entries (those the search names), the last entry
    registered with its receipts (and its QR once issued: ``link_of(entry, link_id)``, the usable link of
    that very entry or None), the search."""
    from casino import player_links

    entries = desk_entries(tournament)
    query = clean_query(request.GET.get("q"))
    shown = find(entries, query)
    last_number = entry_number_or_none(request.GET.get("last"))
    last = next((e for e in entries if e.number == last_number), None) if last_number is not None else None
    qr = None
    if last is not None and (link := link_of(last, request.GET.get("link", ""))) is not None:
        url = player_links.url_for(link, request)
        qr = {"link": link, "url": url, "svg": player_links.qr_svg(url)}
    return {"entries": shown, "entry_count": len(entries), "query": query, "last": last, "last_qr": qr,
            "accredited_count": sum(1 for e in entries if e.accredited)}
