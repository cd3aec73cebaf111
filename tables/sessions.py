"""A table's sessions and the players at its boxes: opening with the pit boss's deck check (THB-21,
THB-22), closing, and the seatings with their QR links (issue #12). Commands through
``tables.writing.write_at_table``; a table's hands are ``tables.services``'s.
"""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from casino import decks as deck_commands
from casino.audit import record_event
from casino.models import Deck, PlayerLink, object_label
from casino.player_links import end_links, issue_player_link
from casino.rules.decks import verify_shuffler_pair
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem_bonus import HandState
from casino.writes import NotAllowed
from tables.bank import SHIFT_GROUP, require_closing_float
from tables.models import BOX_NUMBERS, Alert, Box, Seating, Table, TableSession
from tables.reads import hand_state
from tables.writing import (
    ActionResult,
    TableWrite,
    live_session_locked,
    next_hand_number,
    raise_alert,
    require_dealer,
    require_supervisor,
    unfinished_hand,
    write_at_table,
)

__all__ = [
    "change_deck", "confirm_closing", "confirm_deck_check", "end_seatings", "issue_box_link", "request_closing",
    "request_opening", "seat_new_player",
]


# --- Table sessions (THB-21, THB-22) -----------------------------------------------------------------


def request_opening(*, table, by, key: str, expected_version: int) -> ActionResult:
    """The dealer asks to open the table; it waits for the pit boss's deck check (THB-21)."""

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if w.table.status != Table.Status.CLOSED:
            raise RuleViolation(N_("The table is already open or waiting for the pit boss."), "THB-21")
        session = TableSession.objects.create(table=w.table, requested_by=w.by, requested_at=w.now)
        w.table.status = Table.Status.OPENING
        w.event = "opening-requested"
        w.audit("table.opening_requested", session=session.pk)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="request_opening", work=work)


def _decks_checked(w: TableWrite, serials, session) -> list[Deck]:
    """The decks the pit boss names at the opening (issue #39): each issued to this table (THB-21); two are one
    red and one blue (THB-36: a table with a shuffler); each is checked, signed by him, and put in play."""
    place = object_label(w.table)
    found = []
    for serial in dict.fromkeys(serials):
        deck = Deck.objects.select_for_update().filter(place=place, serial=serial, state=Deck.State.ISSUED).first()
        if deck is None:
            raise RuleViolation(N_("Deck %(serial)s was not issued to this table, or is checked already."),
                                "THB-21", serial=serial)
        found.append(deck)
    if len(found) > 1:
        verify_shuffler_pair([d.back for d in found])
    for deck in found:
        deck_commands.check_deck(deck=deck, by=w.by, key=f"{w.key}:check:{deck.pk}"[:100], expected_version=None,
                                 complete=True, undamaged=True, unmarked=True)
        deck_commands.put_in_play(deck=deck, by=w.by, key=f"{w.key}:play:{deck.pk}"[:100], expected_version=None,
                                  place=place, context={"session": session.pk})
    return found


def _decks_refused(w: TableWrite, serials, defect: str) -> list[str]:
    """The decks the pit boss refuses at the opening (THB-22, issue #39): each issued to this table (THB-21) is
    recorded checked and failing, so defective with its reason (``casino.rules.decks.Deck.check``: missing,
    damaged or marked cards, CC-72) and never played. The engine has no step back to the stock: a refused deck is
    the Subdirector's to see (THB-22), so it is kept as defective, not returned."""
    if defect not in REFUSAL_DEFECTS:
        raise RuleViolation(N_("A deck is refused for missing, damaged or marked cards."), "THB-22")
    place = object_label(w.table)
    refused = []
    for serial in dict.fromkeys(serials):
        deck = Deck.objects.select_for_update().filter(place=place, serial=serial, state=Deck.State.ISSUED).first()
        if deck is None:
            raise RuleViolation(N_("Deck %(serial)s was not issued to this table, or is checked already."),
                                "THB-21", serial=serial)
        deck_commands.check_deck(deck=deck, by=w.by, key=f"{w.key}:refuse:{deck.pk}"[:100], expected_version=None,
                                 complete=defect != "missing", undamaged=defect != "damaged",
                                 unmarked=defect != "marked")
        refused.append(deck.serial)
    return refused


#: Why the pit boss refuses a deck at the opening (THB-21's check: complete, undamaged, unmarked).
REFUSAL_DEFECTS = ("missing", "damaged", "marked")


def _retire_decks(w: TableWrite, reason: str) -> list[str]:
    """The decks in play at the table leave it (its closing), each step audited in its own stream."""
    retired = []
    for deck in Deck.objects.select_for_update().filter(place=object_label(w.table), state=Deck.State.IN_PLAY):
        deck_commands.retire_deck(deck=deck, by=w.by, key=f"{w.key}:retire:{deck.pk}"[:100], expected_version=None,
                                  reason=reason)
        retired.append(deck.serial)
    return retired


def confirm_deck_check(*, table, by, key: str, expected_version: int, approve: bool = True,
                       note: str = "", decks: tuple[str, ...] = (), defect: str = "damaged") -> ActionResult:
    """The pit boss confirms the deck check in their presence and the table opens (THB-21);
    or refuses a missing or flawed deck, which alerts for the Subdirector and keeps it closed (THB-22).
    ``decks``: the serials of the decks checked (issue #39), issued to this table: each is recorded checked and
    in play, and two must be one red and one blue (THB-36). Without them the check is recorded as before.
    A refusal's ``decks`` are the ones found wanting: each is recorded defective for ``defect`` (missing, damaged
    or marked cards), signed by the pit boss, so the stock never issues it again; the others stay issued."""

    def work(w: TableWrite) -> None:
        require_supervisor(w)
        session = live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.DECK_CHECK:
            raise RuleViolation(N_("No deck check is waiting at this table."), "THB-21")
        if session.requested_by_id == w.by.pk:
            raise NotAllowed(N_("The deck check is confirmed by the pit boss, not by whoever asked to open."))
        session.deck_checked_by, session.deck_checked_at = w.by, w.now
        if approve:
            session.status, session.opened_at = TableSession.Status.OPEN, w.now
            w.table.status = Table.Status.OPEN
            w.event = "opened"
            checked = _decks_checked(w, decks, session) if decks else []
            w.audit("table.deck_check_confirmed", session=session.pk, note=note,
                    **({"decks": [d.serial for d in checked]} if checked else {}))
        else:
            session.status, session.closed_by, session.closed_at = TableSession.Status.DECK_REFUSED, w.by, w.now
            w.table.status = Table.Status.CLOSED
            w.event = "deck-refused"
            raise_alert(w, Alert.Kind.DECK, gettext_noop(
                "%(table)s: the deck was refused at the opening check; report it to the Subdirector (THB-22)."
            ), {"table": w.table.name, "note": note})
            refused = _decks_refused(w, decks, defect) if decks else []
            w.audit("table.deck_check_refused", session=session.pk, note=note,
                    **({"decks": refused, "defect": defect} if refused else {}))
        session.save()

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="confirm_deck_check", work=work)


def change_deck(*, table, by, key: str, expected_version: int, deck: str, retire: str = "") -> ActionResult:
    """The pit boss changes a deck between hands (issue #39): the new deck ``deck``, issued to this table or taken
    from the pit's stock (then issued to it by him, signed), is checked in his presence, signed by him (THB-21),
    and put in play; the deck ``retire`` in play leaves it. Without ``retire``, the deck of the new one's back
    leaves (a shuffler's red for a red: the pair stays one red and one blue, THB-36), or the only one in play.
    All in the table's write, each step also in its deck's own stream. Refused while a hand is in play: its cards
    come from the decks it started with."""

    def work(w: TableWrite) -> None:
        require_supervisor(w)
        session = live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.OPEN:
            raise RuleViolation(N_("A deck is changed at an open table, between hands."), "THB-21")
        if unfinished_hand(session.hands) is not None:
            raise RuleViolation(N_("Finish the hand in play before changing a deck."), "THB-21")
        place = object_label(w.table)
        new = Deck.objects.select_for_update().filter(place=place, serial=deck, state=Deck.State.ISSUED).first()
        from_stock = new is None
        if from_stock:
            new = (Deck.objects.select_for_update().filter(stock=w.table.pit.deck_stock, serial=deck,
                                                           state=Deck.State.IN_STOCK).order_by("pk").first())
        if new is None:
            raise RuleViolation(N_("Deck %(serial)s is neither issued to this table nor in the pit's stock."),
                                "THB-21", serial=deck)
        in_play = list(Deck.objects.select_for_update().filter(place=place, state=Deck.State.IN_PLAY))
        old = _leaving(in_play, retire, new.back)
        staying = [d.back for d in in_play if d is not old]
        if staying:
            verify_shuffler_pair([*staying, new.back])
        if old is not None:
            deck_commands.retire_deck(deck=old, by=w.by, key=f"{w.key}:retire:{old.pk}"[:100],
                                      expected_version=None, reason="change")
        if from_stock:
            deck_commands.issue_deck(deck=new, by=w.by, key=f"{w.key}:issue:{new.pk}"[:100], expected_version=None,
                                     place=place, place_name=w.table.name)
        deck_commands.check_deck(deck=new, by=w.by, key=f"{w.key}:check:{new.pk}"[:100], expected_version=None,
                                 complete=True, undamaged=True, unmarked=True)
        deck_commands.put_in_play(deck=new, by=w.by, key=f"{w.key}:play:{new.pk}"[:100], expected_version=None,
                                  place=place, context={"session": session.pk})
        w.event = "deck-changed"
        w.audit("table.deck_changed", session=session.pk, retired=old.serial if old else "", deck=new.serial)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="change_deck", work=work)


def _leaving(in_play: list[Deck], retire: str, back: str) -> Deck | None:
    """The deck in play that a change takes out: the one named, else the one of the new deck's back, else the only
    one; None when none is in play (a table opened without naming its decks). Backs are stored normalised
    (``casino.rules.decks.Deck.receive``): compared as they are."""
    if retire:
        named = next((d for d in in_play if d.serial == retire), None)
        if named is None:
            raise RuleViolation(N_("Deck %(serial)s is not in play at this table."), "THB-21", serial=retire)
        return named
    same_back = [d for d in in_play if d.back == back]
    if len(same_back) == 1:
        return same_back[0]
    if len(in_play) == 1:
        return in_play[0]
    if in_play:
        raise RuleViolation(N_("Say which deck leaves play."), "THB-21")
    return None


def request_closing(*, table, by, key: str, expected_version: int) -> ActionResult:
    """The dealer asks to close the table, once its last hand is finished; the pit boss confirms."""

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("Only an open table can be closed."))
        session = live_session_locked(w.table)
        if unfinished_hand(session.hands) is not None:
            raise RuleViolation(N_("Finish the hand in play before closing the table."))
        session.status = TableSession.Status.CLOSING
        session.closing_requested_by, session.closing_requested_at = w.by, w.now
        session.save()
        w.table.status = Table.Status.CLOSING
        w.event = "closing-requested"
        w.audit("table.closing_requested", session=session.pk)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="request_closing", work=work)


def confirm_closing(*, table, by, key: str, expected_version: int, approve: bool = True) -> ActionResult:
    """The pit boss confirms the closing (or sends the table back to play)."""

    def work(w: TableWrite) -> None:
        require_supervisor(w)
        session = live_session_locked(w.table)
        if session is None or session.status != TableSession.Status.CLOSING:
            raise RuleViolation(N_("No closing is waiting at this table."))
        if session.closing_requested_by_id == w.by.pk:
            raise NotAllowed(N_("The closing is confirmed by the pit boss, not by whoever asked for it."))
        if approve:
            require_closing_float(session)  # issue #39: a float signed at the opening is signed at the closing
            session.status, session.closed_by, session.closed_at = TableSession.Status.CLOSED, w.by, w.now
            w.table.status = Table.Status.CLOSED
            w.event = "closed"
            w.groups = [*w.groups, SHIFT_GROUP]  # the games director's shift report counts it (docs/bank.md)
            retired = _retire_decks(w, "table closed")  # issue #39: its decks leave play with it
            w.audit("table.closed", session=session.pk, house_net=session.hands.aggregate(t=Sum("house_net"))["t"] or 0,
                    **({"decks": retired} if retired else {}))
            # Every player's link dies with the session: the next session's player at a box must never
            # be seen through a link issued to someone before (issue #12).
            end_seatings(w, session.seatings.filter(ended_at__isnull=True), Seating.EndReason.SESSION_CLOSED)
        else:
            session.status = TableSession.Status.OPEN
            w.table.status = Table.Status.OPEN
            w.event = "closing-refused"
            w.audit("table.closing_refused", session=session.pk)
        session.save()

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="confirm_closing", work=work)


# --- Players at the boxes: seatings and their QR links (issue #12) ----------------------------------------


def _box_in_hand(state: HandState | None, number: int) -> bool:
    return state is not None and state.box(number) is not None


def _first_hand_now(session: TableSession) -> int:
    """The first hand a player seated now may see: the hand in play, or else the next one.

    Never a finished hand: who sat at the box before is unknown to the system, and a phone shows
    only its own player's hands (issue #16: a fresh link showed the earlier players' hands and total).
    """
    hand = unfinished_hand(session.hands)
    return hand.number if hand is not None else next_hand_number(session.table)


def box_links(table: Table, number: int | None = None) -> list[PlayerLink]:
    """The usable links of the players seated at ``table`` now (at box ``number`` only, if given),
    each with ``box`` set: what the tablet and the console list so the dealer can revoke any."""
    seatings = {s.pk: s for s in Seating.objects.filter(box__table=table, ended_at__isnull=True).select_related("box")
                if number is None or s.box.number == number}
    links = PlayerLink.objects.filter(seat_type=ContentType.objects.get_for_model(Seating),
                                      seat_id__in=list(seatings), revoked_at__isnull=True,
                                      expires_at__gt=timezone.now()).order_by("created_at")
    for link in links:
        link.box = seatings[int(link.seat_id)].box.number
    return sorted(links, key=lambda link: (link.box, link.created_at))


def end_seatings(w: TableWrite, seatings, reason: str) -> list[Seating]:
    """End ``seatings`` in write ``w`` and revoke their links in the same transaction: after commit,
    every phone open on them, on every process, is told and shut (casino.player_links.end_links)."""
    ended = list(seatings.select_for_update().select_related("box"))
    if not ended:
        return ended
    links = list(PlayerLink.objects.select_for_update().filter(
        seat_type=ContentType.objects.get_for_model(Seating), seat_id__in=[s.pk for s in ended],
        revoked_at__isnull=True,
    ))
    for seating in ended:
        seating.ended_at, seating.ended_by, seating.end_reason = w.now, w.by, reason
        seating.save(update_fields=["ended_at", "ended_by", "end_reason"])
        w.audit("table.seating_ended", obj=seating, box=seating.box.number, first_hand=seating.first_hand,
                reason=reason)
    end_links(links, by=w.by, now=w.now)
    for link in links:
        w.audit("player_link.revoked", obj=link, reason=reason)
    return ended


def seat_new_player(*, table, by, key: str, expected_version: int, box: int) -> ActionResult:
    """The dealer says a new player took box ``box``: the player before loses their link at once, and
    the new player's phone will show the hands from now on, never the ones before (issue #12).

    Refused while the box has a bet in the hand in play, or an award waiting for approval: until that
    hand is finished the box and its result belong to the player who bet.
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if box not in BOX_NUMBERS:
            raise ValueError(f"a box is numbered 1 to 7, not {box!r}")
        session = live_session_locked(w.table)
        if session is None:
            raise RuleViolation(N_("The table is closed: there is no player at its boxes."))
        hand = unfinished_hand(session.hands)
        if hand is not None:
            if _box_in_hand(hand_state(hand), box):
                raise RuleViolation(N_("Box %(box)d has bets in hand %(hand)d: mark the new player once that "
                                       "hand is finished."), None, box=box, hand=hand.number)
            first_hand = hand.number  # no bet of the player before in it: the new player may bet in it
        else:
            first_hand = next_hand_number(w.table)
        place = Box.objects.get(table=w.table, number=box)
        end_seatings(w, place.seatings.filter(ended_at__isnull=True), Seating.EndReason.NEW_PLAYER)
        seating = Seating.objects.create(box=place, session=session, first_hand=first_hand, started_at=w.now,
                                         started_by=w.by)
        w.event = "new-player"
        w.alerts.append(gettext("Box %(box)d: new player. Their phone needs a new QR link.") % {"box": box})
        w.audit("table.new_player", obj=seating, box=box, first_hand=first_hand)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="seat_new_player", work=work)


def issue_box_link(*, table, number: int, by) -> PlayerLink:
    """A new QR link for the player at box ``number``, bound to their seating in the table's live session.

    A new link replaces the box's earlier ones, which stop at once (issue #16): a link given out is
    a phone that may be lost or handed on, so there is one phone per box. A new player at the box is
    the "New player" step (``seat_new_player``), which also starts their history afresh. No link is
    issued at a closed table: a link belongs to one session (issue #12).
    """
    with transaction.atomic():
        # The table's row lock: a link is never issued into a session that a concurrent closing is ending.
        locked = Table.objects.select_for_update().get(pk=table.pk if isinstance(table, Table) else table)
        place = Box.objects.get(table=locked, number=number)  # no such box: Box.DoesNotExist
        session = live_session_locked(locked)
        if session is None:
            raise RuleViolation(N_("The table is closed: open it first, a player's link lasts one session."))
        seating = place.seatings.filter(ended_at__isnull=True).first()
        now = timezone.now()
        if seating is None:
            # The box's first link this session: its player's phone starts with the hand in play or the
            # next one, never with hands someone else may have played at the box before.
            seating = Seating.objects.create(box=place, session=session, first_hand=_first_hand_now(session),
                                             started_at=now, started_by=by)
            record_event(action="table.seating_started", actor=by, obj=seating, stream=object_label(locked),
                         details={"box": number, "first_hand": seating.first_hand})
        else:
            earlier = list(PlayerLink.objects.select_for_update().filter(
                seat_type=ContentType.objects.get_for_model(Seating), seat_id=seating.pk, revoked_at__isnull=True))
            end_links(earlier, by=by, now=now)
            for link in earlier:
                record_event(action="player_link.revoked", actor=by, obj=link, stream=object_label(locked),
                             details={"reason": "replaced"})
        # The link's label and the QR page name the box and its table: both are in hand, no read needed.
        seating.box, place.table = place, locked
        return issue_player_link(seat=seating, by=by, label=str(place), stream=object_label(locked))


