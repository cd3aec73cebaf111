"""The decks' commands (issue #39): each step of a deck's life through the casino's one write path.

A deck (``casino.models.Deck``) is an aggregate of its own, written through ``casino.writes.write``: its row
locked, the key and the version checked, the person's role checked, the engine (``casino.rules.decks``)
asked (a refusal is a ``RuleViolation`` citing its clause and nothing is recorded), the step appended
(``DeckStep``, append-only), its audit event in the deck's stream (``casino.deck.<id>``), the version bumped,
and the deck's table and stock (a pit's console, a tournament's console and tablet: their groups are the
labels the deck keeps) told after commit.

Decks serve both games, so this module knows none: a table and a stock are the core's labels
(``casino.models.object_label``), and the object check (which pit, which event) is the game's, made by its
view or command before it calls here. A game's command that changes its table's deck in its own write
(a tournament table's deck change at a level's end) calls these with the key it derives from its own, in
the same transaction: the steps commit or roll back with it.

* ``receive_deck``: into a stock, with its back's colour, design and lot or serial (a new row).
* ``issue_deck``: to a table, the pit boss (or the tournament's floor) signing (THB-21).
* ``check_deck``: at the opening, in the pit boss's presence: complete, undamaged, unmarked, counted when in
  doubt (THB-21, THB-16); a deck that fails is defective (THB-22) and the pit boss is told.
* ``put_in_play``: the checked deck is dealt at its table (the dealer); ``retire_deck``: out of play.
* ``declare_defective``: CC-72's defects (or THB-21's damaged and marked cards), with its reason; the
  floor or pit boss is told at once (the stock's group).
* ``sign_cancellation``: counted and signed by one person, then by another: cancelled for destruction.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from casino import writes
from casino.audit import record_event
from casino.models import Deck, DeckRequest, DeckStep, label_of
from casino.realtime import announce_change
from casino.roles import DEAL, DIRECT_TOURNAMENTS, RUN_TOURNAMENT_FLOOR, SUPERVISE_PIT, can
from casino.rules import decks as rules
from casino.rules.errors import N_, RuleViolation
from casino.writes import Aggregate, NotAllowed, Write, Written

__all__ = [
    "DECKS", "change_decks", "check_deck", "declare_defective", "decks_group", "engine_deck", "issue_deck",
    "put_in_play", "receive_deck", "retire_deck", "sign_cancellation",
]


def decks_group(stock: str) -> str:
    """The channel-layer group that hears of every deck of ``stock``: a deck's own version is announced there only,
    never on a game's group (whose screens read the versions announced there as their own)."""
    return f"{stock}.decks"


def _groups(deck: Deck) -> list[str]:
    return [decks_group(deck.stock)]


DECKS = Aggregate(
    model=Deck, requests=DeckRequest, owner="deck", version_field="deck_version",
    stream=lambda pk: label_of(Deck, pk), groups=_groups,
    saved_fields=("state", "place", "place_name", "issued_by", "checked_by", "defect", "reason", "counted",
                  "signed_by", "in_play_at"),
)

#: Who signs for a deck: the pit boss (and the games director), a tournament's floor and director.
SIGNERS = (SUPERVISE_PIT, RUN_TOURNAMENT_FLOOR, DIRECT_TOURNAMENTS)
#: Who handles a deck at its table: besides the signers, its dealer.
HANDLERS = (DEAL, *SIGNERS)


def _require(by, capabilities: tuple[str, ...], template: str) -> None:
    if not any(can(by, c) for c in capabilities):
        raise NotAllowed(template)


def engine_deck(row: Deck) -> rules.Deck:
    """The engine's deck as the row's steps left it."""
    return rules.Deck(
        back=row.back, design=row.design, serial=row.serial, state=rules.DeckState(row.state),
        place=row.place or None, issued_by=row.issued_by_id, checked_by=row.checked_by_id,
        defect=rules.Defect(row.defect) if row.defect else None, reason=row.reason, counted=row.counted,
        signed_by=tuple(row.signed_by or ()))


def _keep(row: Deck, deck: rules.Deck) -> None:
    row.state = deck.state.value
    row.place = deck.place or ""
    row.issued_by_id, row.checked_by_id = deck.issued_by, deck.checked_by
    row.defect = deck.defect.value if deck.defect else ""
    row.reason, row.counted, row.signed_by = deck.reason, deck.counted, list(deck.signed_by)


def _append_step(row: Deck, action: str, by, at, details: dict) -> DeckStep:
    last = row.steps.aggregate(m=Max("seq"))["m"] or 0
    return DeckStep.objects.create(deck=row, seq=last + 1, action=action, place=row.place, by=by, at=at,
                                   details=details)


def _step(w: Write, action: str, deck: rules.Deck, **details) -> None:
    """The engine's deck kept on the row, its step appended and audited in the deck's stream."""
    _keep(w.row, deck)
    details = {"serial": deck.serial, "back": deck.back, "state": deck.state.value, **details}
    _append_step(w.row, action, w.by, w.now, details)
    w.audit(f"deck.{action}", place=w.row.place, **details)
    w.groups = _groups(w.row)


def _write(deck: Deck | int, *, by, key: str, expected_version: int | None, action: str, work) -> Written:
    return writes.write(DECKS, pk=getattr(deck, "pk", deck), by=by, key=key, expected_version=expected_version,
                        action=action, work=work)


# --- The commands ------------------------------------------------------------------------------------


def receive_deck(*, stock: str, stock_name: str = "", back: str, design: str = "", serial: str, by) -> Deck:
    """A deck received into a stock (a pit's, or the tournament room's): its back's colour, its design, its
    lot or serial. Signed by the pit boss or the tournament's floor; audited."""
    _require(by, SIGNERS, N_("Decks are received by the pit boss or the tournament's floor."))
    deck = rules.Deck.receive(back, design, serial)
    with transaction.atomic():
        if Deck.objects.filter(stock=stock, back=deck.back, serial=deck.serial).exists():
            raise RuleViolation(N_("Deck %(serial)s (%(back)s) is already in this stock"), "THB-21",
                                      serial=deck.serial, back=deck.back)
        row = Deck.objects.create(stock=stock, stock_name=stock_name[:120], back=deck.back, design=deck.design[:80],
                                  serial=deck.serial[:80], version=1)
        details = {"serial": row.serial, "back": row.back, "design": row.design, "stock": stock, "state": row.state}
        _append_step(row, "received", by, row.received_at, details)
        record_event(action="deck.received", actor=by, obj=row, details=details)
        announce_change(decks_group(stock), version=row.version, event="deck", deck=row.pk)
    return row


def issue_deck(*, deck: Deck | int, by, key: str, expected_version: int | None, place: str,
               place_name: str = "") -> Written:
    """The deck issued from the stock to a table, the pit boss signing (THB-21)."""
    _require(by, SIGNERS, N_("The pit boss signs for a deck issued to a table."))

    def work(w: Write) -> None:
        w.row.place_name = place_name[:120]
        _step(w, "issued", engine_deck(w.row).issue(place, by.pk), place_name=place_name[:120])

    return _write(deck, by=by, key=key, expected_version=expected_version, action="issue_deck", work=work)


def check_deck(*, deck: Deck | int, by, key: str, expected_version: int | None, complete: bool, undamaged: bool,
               unmarked: bool, counted: int | None = None) -> Written:
    """The deck checked at its table's opening in the pit boss's presence, who signs (THB-21): complete,
    undamaged, unmarked; counted card by card when in doubt (THB-16). One that fails is defective (THB-22):
    the pit boss's console is told at once."""
    _require(by, SIGNERS, N_("The deck is checked in the pit boss's presence: the pit boss signs."))

    def work(w: Write) -> None:
        checked = engine_deck(w.row).check(by.pk, complete=complete, undamaged=undamaged, unmarked=unmarked,
                                          counted=counted)
        _step(w, "checked", checked, complete=bool(complete), undamaged=bool(undamaged), unmarked=bool(unmarked),
              counted=counted)
        if checked.state is rules.DeckState.DEFECTIVE:
            w.event = "deck-defective"
            w.alerts.append(gettext("The deck failed its check: it is retired as defective (THB-22)."))

    return _write(deck, by=by, key=key, expected_version=expected_version, action="check_deck", work=work)


def put_in_play(*, deck: Deck | int, by, key: str, expected_version: int | None, place: str,
                context: dict | None = None) -> Written:
    """The checked deck dealt at its table (THB-21). ``context``: what the table plays now (a tournament's
    level and dealer), which decides when it must change (CC-71, TDA-26)."""
    _require(by, HANDLERS, N_("A deck is put in play by its table's dealer or the pit boss."))

    def work(w: Write) -> None:
        w.row.in_play_at = dict(context or {})
        _step(w, "in-play", engine_deck(w.row).put_in_play(place), **(context or {}))

    return _write(deck, by=by, key=key, expected_version=expected_version, action="put_in_play", work=work)


def retire_deck(*, deck: Deck | int, by, key: str, expected_version: int | None, reason: str = "") -> Written:
    """The deck taken out of play (changed, or its table closed), with why."""
    _require(by, HANDLERS, N_("A deck is retired by its table's dealer or the pit boss."))

    def work(w: Write) -> None:
        _step(w, "retired", engine_deck(w.row).retire(reason), reason=(reason or "")[:200])

    return _write(deck, by=by, key=key, expected_version=expected_version, action="retire_deck", work=work)


def declare_defective(*, deck: Deck | int, by, key: str, expected_version: int | None, defect: str,
                      reason: str = "") -> Written:
    """The deck retired as defective (CC-72), with its reason; the pit boss's or the floor's console is told at
    once (the stock's group hears ``deck-defective``). A retired deck later found marked is declared too: its
    hands are then the inspector's list (``docs/decks.md``)."""
    _require(by, HANDLERS, N_("A defective deck is declared by its table's dealer, the floor or the pit boss."))

    def work(w: Write) -> None:
        _step(w, "defective", engine_deck(w.row).declare_defective(defect, reason), defect=defect,
              reason=(reason or "")[:200])
        w.event = "deck-defective"
        w.alerts.append(gettext("Defective deck: the floor or the pit boss is told (CC-72)."))

    return _write(deck, by=by, key=key, expected_version=expected_version, action="declare_defective", work=work)


def sign_cancellation(*, deck: Deck | int, by, key: str, expected_version: int | None,
                      counted: int | None = None) -> Written:
    """One signature of the deck's cancellation for destruction: the first with its count, the second, by
    another person, cancels it. Each signer is a logged-in pit boss, games director or tournament director
    or floor."""
    _require(by, SIGNERS, N_("A deck's cancellation is signed by the pit boss or the tournament's floor."))

    def work(w: Write) -> None:
        after = engine_deck(w.row).sign_cancellation(by.pk, counted)
        _step(w, "cancelled" if after.state is rules.DeckState.CANCELLED else "cancel-signed", after,
              counted=after.counted, signed_by=list(after.signed_by))

    return _write(deck, by=by, key=key, expected_version=expected_version, action="sign_cancellation", work=work)


def change_decks(*, old: Deck | None, new: Deck, by, key: str, place: str, reason: str,
                 context: dict | None = None) -> None:
    """A table's deck changed inside its table's own write (same transaction): the old one retired, with
    the reason (already allowed by the game: C-17, CC-76), the new one put in play. Keys derive from ``key``."""
    if old is not None and old.pk != new.pk and old.state in rules.AT_A_TABLE:
        retire_deck(deck=old, by=by, key=f"{key}:out"[:100], expected_version=None, reason=f"change: {reason}")
    put_in_play(deck=new, by=by, key=f"{key}:in"[:100], expected_version=None, place=place, context=context)
