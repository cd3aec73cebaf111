"""A player's phone (C-33: read-only, their own entry): its seat, move, result and penalty, the clock and the
counts every phone shows alike, rendered in parts cached per version and language
(docs/decisions/2026-11-26-phone-in-three-parts.md), the socket's groups following the player's table. Its part
of the hand at its table is drawn by the phone itself from the table's public summary, the same message for
every phone there, made once per table version and process (``read_tap``, ``table_message``;
docs/decisions/2026-11-27-phone-draws-its-part-of-the-hand.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import get_format

from casino.memo import BoundedCache
from tournaments.models import DealtTable, Tournament, event_screens_group, table_phones_group
from tournaments.projections import entry_number, table_for_phones
from tournaments.reads.event import ANNOUNCEMENTS, MOVE_NOTICE, Board, board_at, board_since, watching_links
from tournaments.reads.hands import SUMMARIES
from tournaments.rendering.clock import clock_context, clock_state, clock_view, stamped


def player_groups(entry) -> list[str]:
    """In a worker thread: the event's group (the clock, the seat, the results) and, while the entry has a
    seat, its table's phones' group, which the table announces each tap of its hands to (``dealing``)."""
    return phone_groups(board_at(Tournament(pk=entry.tournament_id)), entry_number(entry))


def phone_groups(board: Board, number: int) -> list[str]:
    seat = board.seats.get(number)
    event = event_screens_group(board.tournament_id)
    return [event] if seat is None else [event, table_phones_group(board.tournament_id, seat.table)]


def phone_groups_now(entry, shown: int) -> list[str] | None:
    """On the event loop, after a push: the phone's groups as the board it shows (or a newer one) has them
    (its player moved, busted or was seated), or None if this process holds neither."""
    board = board_since(entry.tournament_id, shown)
    return None if board is None else phone_groups(board, entry_number(entry))


def versioned_groups(entry) -> list[str]:
    """The event's announcements carry the version the phone shows; its table's do not."""
    return [event_screens_group(entry.tournament_id)]


def player_fragment(entry, link, *, version: int | None = None) -> str:
    """In a worker thread (a connection, a revocation, a tap at the entry's table, a push the memory could
    not serve): read now. The hand at the entry's table follows it (``table_now``)."""
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    return phone_view(board_at(tournament, version), entry_number(entry))


def table_now(entry, link) -> str | None:
    """In a worker thread, after the phone's fragment (its link checked): the public summary of the table its
    player sits at now, as a tap there would announce it; None when the entry has no seat or its table is not
    dealt from a tablet."""
    board = board_since(entry.tournament_id, 0) or board_at(Tournament(pk=entry.tournament_id))
    seat = board.seats.get(entry_number(entry))
    if seat is None:
        return None
    # unordered: one row at most (as the tablet's read)
    table = DealtTable.objects.filter(tournament_id=board.tournament_id, number=seat.table).order_by().first()
    return None if table is None else table_message(table, SUMMARIES.snapshot_anywhere(table, table.version),
                                                    board.action_seconds)


_watching: BoundedCache[dict] = BoundedCache(64)


_phone_html: BoundedCache[str] = BoundedCache(4096)


_phone_own: BoundedCache[str] = BoundedCache(4096)  # a phone's own part (phone_view)


_phone_shared: BoundedCache[str] = BoundedCache(64)  # what every phone of an event shows alike


def phone_shared_read(entry, version: int):
    """One read per version and process for every phone of the event: the board and the usable links."""
    tournament_id = entry.tournament_id

    def read() -> None:
        board_at(Tournament(pk=tournament_id, version=version), version)
        _watching.get_or_make((tournament_id, version), lambda: watching_links(tournament_id), alone=True)

    return ("tournament-phones", tournament_id, version), read


def phone_from_memory(entry, link, version: int) -> str | None:
    """The phone at ``version`` from this process's memory (on the event loop, no database), the link
    checked against the version's usable links; None: the worker-thread path reads and checks."""
    board = board_since(entry.tournament_id, version)
    links = _watching.get((entry.tournament_id, version))
    if board is None or links is None:
        return None
    expires_at = links.get(link.pk)
    if expires_at is None or expires_at <= timezone.now():
        return None
    return phone_view(board, entry_number(entry))


def phone_news(entry, link, event: dict, shown: int):
    """A tap at the entry's table (its phones' group: the table's pk and version, no state): one read of the
    table per version and process (``read_tap``), then every phone there is sent the same message, the
    table's public summary, its link checked against that read. A revocation committed before the read is in
    it; the revocation's own push reads the link's row and says goodbye. The phone draws its own part."""
    table_pk, version = event.get("table"), event.get("version")
    if table_pk is None or version is None:
        return None
    tournament_id = entry.tournament_id
    key = ("tournament-tap", table_pk, version)

    def read() -> None:
        tap = read_tap(tournament_id, table_pk, version)
        if tap is not None:
            TAPS.put(key, tap)

    def render() -> str | None:
        tap = TAPS.get(key)
        if tap is None:
            return None
        expires_at = tap.links.get(link.pk)
        if expires_at is None or expires_at <= timezone.now():
            return None
        return tap.message

    return key, read, render


_messages: BoundedCache[str] = BoundedCache(1024)


def table_message(table: DealtTable, at_version, action_seconds: int = 60) -> str:
    """The phones' message of a dealt table at a version (``SummaryAt``): its public summary as JSON, made once
    per table version and process, the same bytes for every phone there. ``action_seconds``: the event's time to
    act (CC-114, C-04), from the board."""
    key = (table.pk, table.created_at, at_version.version, action_seconds)
    return _messages.get_or_make(key, lambda: json.dumps(
        {"table_summary": table_for_phones(table.number, at_version.version, at_version.summary, action_seconds)},
        separators=(",", ":")))


_VERSION_SHOWN = re.compile(r'data-version="\d+"')


_facts: BoundedCache[tuple] = BoundedCache(64)


def _board_facts(board: Board) -> tuple:
    """What every phone of the event shows of the board besides its own entry and the clock's step: once
    per board and process."""
    return _facts.get_or_make((board.tournament_id, board.version), lambda: (
        board.tournament_id, board.name, board.status, board.entries, board.players_left, board.chips_in_play,
        board.prize_pool, board.prize_pool_fixed, board.prizes, board.announcements[-ANNOUNCEMENTS:],
        board.ante_mode, board.structure))


def phone_view(board: Board, number: int, now: datetime | None = None) -> str:
    """The phone of entry ``number``: its own seat, move, result and the clock, never another entry's; the
    slot its part of the hand at its table is drawn in (``table_message``)."""
    if board.entry_numbers and number not in board.entry_numbers:
        # The entry was corrected away: whoever holds its link sees nothing of the event any more.
        return render_to_string("casino/fragments/access_ended.html")
    now = now or timezone.now()
    view = clock_view(board, now)
    move = board.moves.get(number)
    if move is not None and now - move.at > MOVE_NOTICE:
        move = None
    # Keyed by what this phone shows, not by the version: a version that leaves it as it was (a hand's end
    # at a table without a bust, a tap at a dealt table) is the same render, stamped with the new version.
    seat = board.seats.get(number)
    # Two parts, each rendered when what it shows changes: the phone's own (its seat, move, result, penalty,
    # the slot of its part of the hand) and what every phone of the event shows alike (the clock, the counts,
    # the money: a bust anywhere changes it for a thousand phones at once, rendered once for all of them).
    language = translation.get_language()
    finish, leaving, penalty_hands = board.finishes.get(number), board.leaving.get(number), board.penalties.get(number)
    bag = board.bags.get(number)  # his own bag only (CC-09): never another entry's count or receipt
    own_key = (board.tournament_id, board.name, number, move, seat, finish, leaving, penalty_hands, bag, language)
    shared_key = (_board_facts(board), view.key, finish is None, language)

    def whole() -> str:
        own = _phone_own.get_or_make(own_key, lambda: render_to_string("tournaments/_phone_own.html", {
            "board": board, "number": number, "seat": seat, "move": move, "finish": finish, "leaving": leaving,
            "penalty_hands": penalty_hands, "bag": bag, "won": finish is not None and 1 in finish.places,
            "thousands": get_format("THOUSAND_SEPARATOR")}))
        shared = _phone_shared.get_or_make(shared_key, lambda: render_to_string(
            "tournaments/_phone_shared.html", {**clock_context(board, view), "money": finish is None}))
        return render_to_string("tournaments/player_fragment.html", {
            "board": board, "state": clock_state(view), "own": own, "shared": shared})

    html = _phone_html.get_or_make((own_key, shared_key), whole)
    return stamped(_VERSION_SHOWN.sub(f'data-version="{board.version}"', html, count=1))


#: What a tap at a dealt table tells the phones there: the table's message (``table_message``) and which of
#: their links are usable (link id -> expiry), read once per table version and process.
@dataclass(frozen=True)
class TapAtTable:
    table: object  # the DealtTable as read (its pk and version)
    message: str
    links: dict[int, datetime]


TAPS: BoundedCache[TapAtTable] = BoundedCache(1024)


#: Each dealt table's fixed facts (its event, number and creation stamp), by id, as this process read them.
_tables: BoundedCache[tuple[int, int, datetime]] = BoundedCache(1024)


def _table_at(tournament_id: int, table_pk: int, version: int):
    """The dealt table ``table_pk`` of the event as an unsaved row at ``version`` (what a snapshot's key
    needs: its id and creation stamp), its fixed facts read once per process; None if it is not there."""
    facts = _tables.get(table_pk)
    if facts is None:
        row = DealtTable.objects.filter(pk=table_pk).values_list("tournament_id", "number", "created_at").first()
        if row is None:
            return None
        facts = _tables.put(table_pk, row)
    event, number, created_at = facts
    if event != tournament_id:
        return None
    return DealtTable(pk=table_pk, tournament_id=event, number=number, created_at=created_at, version=version)


def read_tap(tournament_id: int, table_pk: int, version: int) -> TapAtTable | None:
    """In a worker thread: the table at the version its tap announced (its summary, ``table_summary``,
    as the tap's write left it, or read now) and the usable links of the entries dealt in or seated there
    (their phones hear its taps); None if the table is not the event's. The table's row is not read: the
    announcement says its version already."""
    table = _table_at(tournament_id, table_pk, version)
    if table is None:
        return None
    at_version = SUMMARIES.snapshot_anywhere(table, version)
    table.version = at_version.version  # read now, it may be a later version: it says which
    dealt = (at_version.summary or {}).get("entries", {}).values()
    # The players seated there but not dealt in, from the newest board this process holds: every change of
    # a seat is announced to the phones, whose shared read of it made that board, and a phone follows a
    # table only once the board it shows seats its player there. Read only when the process holds none:
    # the event's version moves with every hand's end at any table, and each new one was a board to build.
    board = board_since(tournament_id, 0) or board_at(Tournament(pk=tournament_id))
    at_table = {*dealt, *(number for number, seat in board.seats.items() if seat.table == table.number)}
    return TapAtTable(table, table_message(table, at_version, board.action_seconds),
                      watching_links(tournament_id, at_table))
