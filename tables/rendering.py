"""Rendering the tables' live fragments: the dealer's tablet, the pit console and the player's phone.

The same functions serve the HTTP views (first load, answers to POSTs) and the
websocket consumers (every push), so a screen looks the same however it got
its HTML. Each reads through ``tables.reads`` (once per version) and hands the
template a projection (``tables.projections``), never the engine's state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.i18n import explain
from casino.memo import BoundedCache
from casino.models import Deck, object_label
from casino.refusals import CHANGES_SAID, last_changes
from casino.rules.cards import RANKS, SUITS
from casino.rules.decks import SHUFFLER_BACKS
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import Phase, paytable_odds
from casino.rules.holdem_bonus.paytable import Paytable
from tables import reads, services
from tables.access import supervises_pit
from tables.labels import AWARD_LABELS
from tables.models import (
    BOX_NUMBERS,
    Alert,
    ChipSlip,
    Hand,
    HandAction,
    Pit,
    Seating,
    Table,
    TableRequest,
    TableSession,
)
from tables.projections import (
    OUTCOME_LABELS,
    approval_view,
    box_result,
    card_view,
    dealer_projection,
    phase_label,
    pit_summary,
    player_projection,
)

# The chips a keypad offers (any whole amount can also be typed).
CHIPS = (1, 5, 10, 25, 100, 500)
# Suits in the picker's rows, spades first as on most layouts; ranks high to low.
PICKER_SUITS = ("s", "h", "d", "c")

UNDO_REASONS = (
    ("wrong-box", _("Wrong box")),
    ("wrong-amount", _("Wrong amount")),
    ("wrong-card", _("Wrong card")),
    ("wrong-decision", _("Wrong decision recorded")),
    ("player-changed", _("The player withdrew before 'no va más'")),
)


def _picker(used: set[str]) -> list[list[dict[str, Any]]]:
    """The 52 cards as rows of a suit, ranks from ace down, each marked used or free (THB-03)."""
    assert set(PICKER_SUITS) == set(SUITS)
    return [
        [{**card_view(rank + suit), "used": rank + suit in used} for rank in reversed(RANKS)]
        for suit in PICKER_SUITS
    ]


def _limits(table: Table) -> dict[str, Any]:
    rules = reads.table_limits(table)
    return {"min_ante": rules.min_ante, "max_ante": rules.max_ante, "min_bonus": rules.min_bonus,
            "max_bonus": rules.max_bonus}


# --------------------------------------------------------------------------- dealer's tablet


def dealer_context(table: Table, user, notice: dict | None = None, version: int | None = None) -> dict[str, Any]:
    """The tablet's context: at ``version`` (the one a write just made, or a push announced), else now."""
    snapshot = reads.snapshot_anywhere(table, version)
    table, session, hand, state = snapshot.table, snapshot.session, snapshot.hand, snapshot.state
    view = dealer_projection(state)
    finished = hand is None or hand.is_finished
    in_bets = state is not None and state.phase is Phase.BETS_OPEN
    boxes_with_ante = {row["box"] for row in view["boxes"] if row.get("in_hand")}
    next_box = next((n for n in BOX_NUMBERS if n not in boxes_with_ante), 1)
    between_hands = table.status == Table.Status.OPEN and finished
    limits = _limits(table)
    return {
        "table": table,
        "session": session,
        "hand": hand,
        "view": view,
        "step": view["step"],
        "finished": finished,
        "can_start": between_hands,
        # Asked only between hands, when the next one could start (one query): THB-16.
        "deck_pending": between_hands and reads.deck_count_pending(table),
        # issue #39: the decks in play at the table (a shuffler's red and blue pair, THB-36), read-only, one query
        "decks": list(Deck.objects.filter(place=object_label(table), state=Deck.State.IN_PLAY)
                      .order_by("back", "serial")),
        "can_close_table": between_hands,
        "can_repeat": in_bets and hand is not None and hand.number > 1 and
        session is not None and session.hands.filter(number__lt=hand.number).exists(),
        # Offered only when the undo would be taken (issue #16: it was offered, then refused, while an
        # award waited for approval).
        "can_undo": hand is not None and services.may_undo_last(state, hand.mode),
        "limits": limits,
        # Only the chips the table's limits can take (issue #16: a +500 chip at a table topped at 100).
        "chips": [c for c in CHIPS if c <= max(limits["max_ante"], limits["max_bonus"])],
        "next_box": next_box,
        "picker": _picker(set(view["used"])) if state is not None else [],
        "undo_reasons": UNDO_REASONS,
        "box_numbers": BOX_NUMBERS,
        "live_boxes": [r["box"] for r in view["boxes"] if r.get("in_hand") and not r.get("void")],
        "notice": notice,
        "user": user,
    }


def dealer_fragment(table: Table, user, notice: dict | None = None, version: int | None = None) -> str:
    return render_to_string("tables/_dealer_fragment.html", dealer_context(table, user, notice, version))


# --------------------------------------------------------------------------- what changed since a screen

#: A hand's record as a sentence for a screen whose tap came too late: its box and amount put in, never a card
#: (a fold, a deal or a reveal may carry cards: the tablet is seen from the boxes, THB-73).
RECORD_SAID = {
    "place-ante": _("Box %(box)s placed an ante of %(amount)s."),
    "place-bonus": _("Box %(box)s placed a Bonus bet of %(amount)s."),
    "withdraw-bets": _("Box %(box)s withdrew its bets."),
    "close-bets": _("Bets were closed (no va más)."),
    "deal-initial": _("The cards were dealt."),
    "bet-flop": _("Box %(box)s bet the flop."),
    "fold": _("Box %(box)s folded."),
    "bet-turn": _("Box %(box)s bet the turn."),
    "pass-turn": _("Box %(box)s checked the turn."),
    "bet-river": _("Box %(box)s bet the river."),
    "pass-river": _("Box %(box)s checked the river."),
    # the same words as a tournament table's tablet (one translation)
    "deal-flop": _("The flop was dealt."),
    "deal-turn": _("The turn was dealt."),
    "deal-river": _("The river was dealt."),
    "reveal-dealer": _("The dealer's cards were turned."),
    "reveal-box": _("Box %(box)s's cards were turned."),
    "concede-box": _("Box %(box)s conceded without turning its cards."),
    "report-dealer-card-exposed": _("A dealer's card exposed was reported (THB-73)."),
    "report-face-up-card": _("Face-up cards in the deck were reported (THB-74)."),
    "report-box-wrong-card-count": _("A box dealt the wrong number of cards was reported (THB-76)."),
    "report-dealer-wrong-card-count": _("The dealer's wrong number of cards was reported (THB-76)."),
    "void-hand": _("The hand was declared void."),
    "undo": _("The last action was undone."),
}

#: An award's decision, by who decided: the pit boss, or another approver of the house option (C-30).
AWARD_SAID = {
    ("approve-bonus", True): _("The pit boss approved box %(box)s's award."),
    ("deny-bonus", True): _("The pit boss denied box %(box)s's award."),
    ("approve-bonus", False): _("Box %(box)s's award was approved."),
    ("deny-bonus", False): _("Box %(box)s's award was denied."),
}

#: A write at the table that records nothing of a hand, by the command its request is kept under.
REQUEST_SAID = {
    "repeat_last_bets": _("The last hand's bets were placed again."),
    "request_opening": _("The dealer asked to open the table."),
    "request_closing": _("The dealer asked to close the table."),
    "record_deck_count": _("The dealer counted the deck."),
    "change_deck": _("The pit boss changed a deck."),
    "report_suspect_cards": _("The dealer reported suspect cards (THB-17)."),
    "acknowledge_alert": _("The pit boss acknowledged an alert."),
}

#: Writes only the pit hears of (``TableWrite.tell_only_the_pit``): never said on the tablet (THB-17).
ONLY_THE_PIT_HEARS = ("report_suspect_cards",)


def _hand_said(row: tuple) -> str | None:
    kind, record, role = row
    said = (AWARD_SAID.get((kind, role == "pit_boss")) if kind in ("approve-bonus", "deny-bonus")
            else RECORD_SAID.get(kind))
    if said is None:
        return None  # the shoe's loading (a dealt hand's start says it) or a record unknown here
    amount = record.get("amount")
    return str(said) % {"box": record.get("box", ""), "amount": localize(amount) if amount is not None else ""}


def _session_said(table: Table, command: str, at) -> str:
    """What the pit boss decided at the opening's deck check or at the closing (their sessions say)."""
    if command == "confirm_deck_check":
        opened = TableSession.objects.filter(table=table, deck_checked_at=at, opened_at=at).exists()
        return (gettext("The pit boss checked the deck: the table is open.") if opened
                else gettext("The pit boss refused the deck (THB-22)."))
    closed = TableSession.objects.filter(table=table, closed_at=at).exists()
    return gettext("The pit boss closed the table.") if closed else gettext("The pit boss sent the table back to play.")


def what_changed(table: Table, since: int, *, by_the_pit: bool = False) -> list[str]:
    """What was recorded at ``table`` after its version ``since``, in the active language, oldest first (the
    last few, ``casino.refusals.last_changes``): "Box 3 bet the flop.", "The flop was dealt.", "The pit boss
    approved box 2's award.", a new hand, the opening and the closing. For the 409 of a tap made on a screen that
    showed ``since``: the dealer's tablet and the pit's console say what happened instead of a bare refusal.

    Never a card (the tablet shows none face down, THB-73, and a tap's answer is no place for any), and what
    only the pit hears of only to the pit (``by_the_pit``): a dealer's discreet report stays off the tablet."""
    requests = TableRequest.objects.filter(table=table, table_version__gt=since)
    if not by_the_pit:
        requests = requests.exclude(action__in=ONLY_THE_PIT_HEARS)
    shown = list(requests.order_by("-table_version").values_list("action", "hand_id", "key", "at")
                 [:CHANGES_SAID + 1])[::-1]
    more_before = len(shown) > CHANGES_SAID
    shown = shown[-CHANGES_SAID:]
    hands = {hand for _action, hand, _key, _at in shown if hand is not None}
    rows: dict[tuple, list] = {}
    for hand, key, kind, record, role in (HandAction.objects.filter(hand_id__in=hands, key__in=[r[2] for r in shown])
                                          .order_by("hand_id", "seq")
                                          .values_list("hand_id", "key", "kind", "record", "role")):
        rows.setdefault((hand, key), []).append((kind, record, role))
    numbers = dict(Hand.objects.filter(pk__in=hands).values_list("pk", "number"))
    acknowledged = [at for action, _hand, _key, at in shown if action == "acknowledge_alert"]
    # the pit boss's word on a discreet alert is as discreet as the alert
    discreet = set() if by_the_pit or not acknowledged else set(
        Alert.objects.filter(table=table, kind=Alert.Kind.SUSPECT_CARDS, acknowledged_at__in=acknowledged)
        .values_list("acknowledged_at", flat=True))
    said: list[str] = []
    for action, hand, key, at in shown:
        command = action.split(":", 1)[0]  # a hand's tap is kept with a digest of its record (``asked_for``)
        if command == "acknowledge_alert" and at in discreet:
            continue
        if command == "start_hand":
            said.append(gettext("Hand %(number)s was started.") % {"number": numbers.get(hand, "")})
        elif command in REQUEST_SAID:
            said.append(str(REQUEST_SAID[command]))
        elif command in ("confirm_deck_check", "confirm_closing"):
            said.append(_session_said(table, command, at))
        elif command == "seat_new_player":
            box = Seating.objects.filter(box__table=table, started_at=at).values_list("box__number", flat=True).first()
            said.append(gettext("A new player sat at box %(box)s.") % {"box": box or ""})
        else:  # the hand's own records: a tap, an irregularity, an undo, an award's decision
            recorded = [s for s in map(_hand_said, rows.get((hand, key), ())) if s]
            said.append(" ".join(recorded) if recorded else gettext("The table changed."))
    return last_changes(said, more_before)


# --------------------------------------------------------------------------- pit console


def _why_not_decide(user, hand: Hand, table: Table) -> str | None:
    """Why this viewer gets no approve/deny buttons, or None: the service's own refusal (C-30)."""
    refusal = services.award_decision_refusal(user, hand, table)
    return None if refusal is None else explain(refusal)


def pit_context(pit: Pit, user, notice: dict | None = None) -> dict[str, Any]:
    pit = Pit.objects.select_related("pit_boss").get(pk=pit.pk)
    tables = list(pit.tables.select_related("dealer", "pit").order_by("name"))
    rows = []
    for table in tables:
        snapshot = reads.snapshot_from_db(table)
        session, hand, state = snapshot.session, snapshot.hand, snapshot.state
        rows.append({
            "table": table,
            "session": session,
            "hand": hand,
            "summary": pit_summary(state),
            "session_result": reads.session_result(table),
            "deck_check": session is not None and session.status == TableSession.Status.DECK_CHECK,
            "closing": session is not None and session.status == TableSession.Status.CLOSING,
            "between_hands": hand is None or hand.is_finished,
        })
    # issue #39: the decks at each table (issued, checked, in play), one query for the pit
    at_tables: dict[str, list] = {}
    for deck in Deck.objects.filter(place__in=[object_label(t) for t in tables],
                                    state__in=(Deck.State.ISSUED, Deck.State.CHECKED, Deck.State.IN_PLAY,
                                               Deck.State.DEFECTIVE)):
        at_tables.setdefault(deck.place, []).append(deck)
    # ... and the pit's stock, whose decks a change may bring to a table (issued there and then)
    in_stock = list(Deck.objects.filter(stock=pit.deck_stock, state=Deck.State.IN_STOCK).order_by("back", "serial"))
    for row in rows:
        row["decks"] = sorted(at_tables.get(object_label(row["table"]), ()), key=lambda d: d.serial)
        row.update(deck_choices(row["decks"]))
        row["in_stock"] = in_stock
    by_table = {t.pk: t for t in tables}
    approvals = []
    for award in reads.pending_approvals(pit):
        table = by_table.get(award.table.pk, award.table)
        approvals.append({
            "table": table,
            "hand": award.hand,
            "box": award.box,
            "award_label": AWARD_LABELS.get(award.award, award.award),
            "odds": award.odds,
            "stake": award.stake,
            "payout": award.payout,
            "view": approval_view(award.state, award.box),
            "why_not": _why_not_decide(user, award.hand, table),
        })
    alerts = [{"alert": a, "table": by_table.get(a.table_id, a.table), "text": alert_text(a)}
              for a in reads.open_alerts(pit)]
    return {
        "pit": pit,
        "rows": rows,
        "approvals": approvals,
        "alerts": alerts,
        # One number that grows with every change at any table of the pit (live.js drops older pushes).
        "version": sum(t.version for t in tables) + pit_slips_version(pit),
        "notice": notice,
        "user": user,
        # issue #38 item 5 (RP-07): who deals where, who rests, the next change; the dealers to set it with
        "rotation": reads.pit_rotation_board(pit.pk, timezone.now()),
        "tables_in_order": sorted(tables, key=lambda t: (t.place or 0, t.name)),
        "dealers": list(_active_dealers()) if supervises_pit(user, pit) else [],
        **pit_slips(pit, tables),
    }


def _pair(decks: list) -> bool:
    return sorted(d.back.strip().lower() for d in decks) == list(SHUFFLER_BACKS)


def deck_choices(decks: list) -> dict[str, Any]:
    """The console's taps for a table's decks (issue #39), so that no serial is typed: the decks issued to it,
    offered at the opening's check (THB-21) and as the new deck of a change; those in play, offered to leave.

    What is ticked beforehand is only what leaves no choice: at the opening, the one deck issued, or the one red
    and one blue a shuffler plays (THB-36); at a change, the one deck issued and the deck in play of its back
    (or the only one in play). Anything else the pit boss ticks himself; a deck from the pit's stock is never
    ticked beforehand: which one he took is his to say."""
    issued = [d for d in decks if d.state == Deck.State.ISSUED]
    in_play = [d for d in decks if d.state == Deck.State.IN_PLAY]
    opening = {d.serial for d in issued} if len(issued) == 1 or (len(issued) == 2 and _pair(issued)) else set()
    new = issued[0] if len(issued) == 1 else None
    same_back = [d for d in in_play if new is not None and d.back.strip().lower() == new.back.strip().lower()]
    leaving = same_back[0] if len(same_back) == 1 else (in_play[0] if len(in_play) == 1 else None)
    return {"issued": issued, "in_play": in_play, "opening_ticked": opening,
            "change_new": new.serial if new else "", "change_leaving": leaving.serial if leaving else ""}


def pit_slips_version(pit: Pit) -> int:
    return ChipSlip.objects.filter(table__pit=pit).aggregate(v=Sum("version"))["v"] or 0


def pit_slips(pit: Pit, tables: list) -> dict[str, Any]:
    """Issue #39: the pit's slips on its way (each with its state), and the links to each table's bank. Each
    slip's version adds to the console's version, so that a slip's step re-renders it (live.js keeps the newest)."""
    slips = list(ChipSlip.objects.filter(table__pit=pit)
                 .exclude(state__in=(ChipSlip.State.RECEIVED, ChipSlip.State.VOIDED))
                 .select_related("table").order_by("pk"))
    return {"slips": slips, "bank_tables": tables}


def _active_dealers():
    from django.contrib.auth import get_user_model

    from casino.roles import Role

    return (get_user_model().objects.filter(is_active=True, groups__name=Role.DEALER)
            .order_by("first_name", "username").distinct())


def alert_text(alert) -> str:
    """An alert in the viewer's language, the engine's notes and the award's name included (as the tablet's)."""
    return reads.alert_text(alert)


def pit_fragment(pit: Pit, user, notice: dict | None = None) -> str:
    return render_to_string("tables/_pit_fragment.html", pit_context(pit, user, notice))


# --------------------------------------------------------------------------- player's phone


@lru_cache(maxsize=16)
def paytable_view(paytable: Paytable) -> dict[str, Any]:
    """The Bonus paytable with each award's exact chance and the bet's house edge (counted, not simulated)."""
    odds = paytable_odds(paytable)
    return {
        "name": paytable.label,
        "awards": [{"key": a.award, "label": AWARD_LABELS.get(a.award, a.award), "pays": a.pays,
                    "one_in": round(1 / a.probability) if a.probability else None} for a in odds.awards],
        "house_edge": float(odds.house_edge) * 100,
    }


# A finished hand never changes: each box's final result, by the hand's id and start time.
_results: BoundedCache[dict[int, dict[str, Any]]] = BoundedCache(4096)
# A session's finished hands with each box's result, by session and how far it has got (below).
_histories: BoundedCache[list] = BoundedCache(1024)
# Rendered parts of a phone's screen, by language, part and everything the part shows.
_phone_parts: BoundedCache[str] = BoundedCache(4096)
# A box's whole screen at a table version, by language (player_fragment_from_memory).
_phone_views: BoundedCache[str] = BoundedCache(2048)


def _finished_results(hand: Hand) -> dict[int, dict[str, Any]]:
    """Each box's final result in a finished hand."""

    def results() -> dict[int, dict[str, Any]]:
        state = reads.hand_state(hand)
        boxes = state.settlement.boxes if state.settlement else ()
        return {b.box: {"outcome": b.outcome.value, "net": b.net, "staked": b.staked,
                        "bonus_award": b.bonus.award} for b in boxes}

    return _results.get_or_make((hand.pk, hand.started_at), results)


def _history_key(session: TableSession, latest: Hand | None) -> tuple:
    return (session.pk, session.requested_at, latest.pk if latest else None,
            latest is not None and latest.is_finished)


def _session_results(session: TableSession, latest: Hand | None) -> list[tuple[int, dict[int, dict[str, Any]]]]:
    """``[(hand number, {box: result})]`` of the session's finished hands, latest first.

    A hand starts only once the one before is finished (THB-54), so the finished hands are known
    from the latest one: they are read again (one query) only when a hand finishes.
    """

    def read() -> list[tuple[int, dict[int, dict[str, Any]]]]:
        hands = session.hands.filter(pending_approvals=0, phase__in=("settled", "void")).order_by("-number")
        return [(hand.number, _finished_results(hand)) for hand in hands]

    return _histories.get_or_make(_history_key(session, latest), read)


def _history_of(seating, results: list[tuple[int, dict[int, dict[str, Any]]]]) -> dict[str, Any]:
    """The seating's results over its session's finished hands, latest first: its own box, and only the
    hands from its first one (the hands before belong to whoever sat there before)."""
    number, first = seating.box.number, seating.first_hand
    hands = [{**by_box[number], "number": hand_number} for hand_number, by_box in results
             if number in by_box and hand_number >= first]
    return {"hands": hands, "total": sum(h["net"] for h in hands)}


def _phone_part(template: str, key: tuple, context: Callable[[], dict[str, Any]]) -> str:
    """One part of a phone's screen, rendered once per language and content in this process.

    ``key`` holds everything the part shows, so the phones of a table that re-render after one push
    share the work: the paytable never changes, the history changes when a hand finishes, and the
    hand's part is the same for every box with no bet.
    """
    full_key = (template, translation.get_language(), *key)
    return _phone_parts.get_or_make(full_key, lambda: render_to_string(template, context()))


def _history_rows(history: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**h, "outcome_label": OUTCOME_LABELS[h["outcome"]],
             "bonus_award_label": AWARD_LABELS.get(h["bonus_award"]) if h["bonus_award"] else None}
            for h in history["hands"]]


def player_fragment(seating, link=None, *, version: int | None = None) -> str:
    """The phone of one player at a box: ``#player-view`` carrying the table's version, in four parts.

    ``version``: the version a push announced (the snapshot most screens of the table share);
    without it the table is read now. Only this box's projection reaches a template
    (``player_projection``): no other box's cards, no dealer's card before the reveal, no shoe; and
    only the hands of this player's seating: none of whoever sat at the box before (issue #12).
    """
    snapshot = reads.snapshot_anywhere(seating.box.table, version)
    session = _seating_session(seating, snapshot)
    latest = snapshot.hand
    results = _session_results(session, latest) if session is not None else []
    return _phone_view(seating, snapshot, _history_of(seating, results))


def player_groups(seating) -> list[str]:
    """The table's group: every change at the table re-renders this seating's own projection. Loads the
    seating's box and table (in the socket's worker thread), which its pushes then use without reading."""
    return [seating.box.table.group_name]


def player_shared_read(seating, version: int):
    """One read per table version and process serves every phone of the table (``prepare_phones``)."""
    table = seating.box.table  # loaded when the socket was authorised; only its id and stamp are used
    return ("tables.phones", table.pk, table.created_at, version), lambda: prepare_phones(table, version)


def _seating_session(seating, snapshot: reads.Snapshot) -> TableSession | None:
    """The snapshot's session if it is the seating's own, else None: a seating sees nothing of another session."""
    session = snapshot.session
    return session if session is not None and session.pk == seating.session_id else None


def prepare_phones(table: Table, version: int) -> None:
    """Read, once in this process, what every phone of ``table`` shows at ``version``: the snapshot,
    the session's finished hands (every box's history) and the links that may watch. A worker
    thread's job; the phones then render from memory on the event loop (``player_fragment_from_memory``)."""
    snapshot = reads.snapshot_anywhere(table, version)
    if snapshot.session is not None:
        _session_results(snapshot.session, snapshot.hand)
    reads.watching_links(table, version)


def player_fragment_from_memory(seating, link, version: int) -> str | None:
    """``player_fragment(seating, link, version=version)`` from what this process already holds for that
    version (``prepare_phones``), touching no database, so a push renders it on the event loop. None
    when something is not held, or the link is not among the version's usable links: the caller then
    renders in a worker thread, which reads (and says goodbye to a revoked link)."""
    table = seating.box.table
    snapshot = reads.snapshot_in_process(table, version)
    links = reads.watching_links_in_process(table, version)
    if snapshot is None or links is None:
        return None
    expires_at = links.get(link.pk)
    if expires_at is None or expires_at <= timezone.now():
        return None
    # Two phones of one seating see the same screen: the second takes the first's (the link is checked above).
    key = (table.pk, table.created_at, version, seating.pk, translation.get_language())
    found = _phone_views.get(key)
    if found is not None:
        return found
    session = _seating_session(seating, snapshot)
    results = [] if session is None else _histories.get(_history_key(session, snapshot.hand))
    if results is None:
        return None
    return _phone_views.put(key, _phone_view(seating, snapshot, _history_of(seating, results)))


def _phone_view(seating, snapshot: reads.Snapshot, history: dict[str, Any]) -> str:
    """The four parts of a phone's screen from data already read (no database: see the callers)."""
    table, number = snapshot.table, seating.box.number
    hand = snapshot.hand
    state = snapshot.state
    if _seating_session(seating, snapshot) is None or (hand is not None and hand.number < seating.first_hand):
        hand, state = None, None  # the hand of another session, or of the player before at this box
    limits = _limits(table)
    head = _phone_part(
        "tables/player/_head.html", (table.name, table.status, limits["min_ante"], limits["max_ante"], number),
        lambda: {"table": table, "number": number, "limits": limits},
    )
    view = player_projection(state, number)
    shown = {k: v for k, v in view.items() if k != "box"}  # boxes with no bet share their part
    hand_part = _phone_part(
        "tables/player/_hand.html", (hand.number if hand else None, json.dumps(shown, sort_keys=True, default=str)),
        lambda: {"hand": hand, "view": shown},  # exactly what the key holds: nothing box-specific beyond it
    )
    history_key = tuple((h["number"], h["outcome"], h["net"], h["bonus_award"]) for h in history["hands"])
    history_part = _phone_part(
        "tables/player/_history.html", history_key,
        lambda: {"hands": _history_rows(history), "total": history["total"]},
    )
    # The paytable the latest hand was played under (a new version shows from the hand it starts).
    paytable = "" if snapshot.paytable is None else _phone_part(
        "tables/player/_paytable.html", (snapshot.paytable,), lambda: {"paytable": paytable_view(snapshot.paytable)}
    )
    return format_html(
        '<div id="player-view" data-version="{}" class="player">{}{}{}{}</div>',
        snapshot.version, mark_safe(head), mark_safe(hand_part),  # noqa: S308 - rendered by our templates
        mark_safe(history_part), mark_safe(paytable),  # noqa: S308
    )


# --------------------------------------------------------------------------- game recall

ACTION_LABELS = {
    "load-shoe": _("Shoe loaded (shuffled deck)"),
    "place-ante": _("Ante"),
    "place-bonus": _("Bonus"),
    "withdraw-bets": _("Bets withdrawn"),
    "close-bets": _("No more bets"),
    "deal-initial": _("Initial deal"),
    "bet-flop": _("Plays (va): flop bet"),
    "fold": _("Folds (no va)"),
    "deal-flop": _("Flop"),
    "bet-turn": _("Turn bet"),
    "pass-turn": _("Checks the turn"),
    "deal-turn": _("Turn"),
    "bet-river": _("River bet"),
    "pass-river": _("Checks the river"),
    "deal-river": _("River"),
    "reveal-dealer": _("Dealer's cards"),
    "reveal-box": _("Cards shown"),
    "approve-bonus": _("Bonus award approved"),
    "deny-bonus": _("Bonus award denied"),
    "report-dealer-card-exposed": _("Irregularity: a dealer's card exposed (THB-73)"),
    "report-face-up-card": _("Irregularity: face-up card(s) in the deck (THB-74)"),
    "report-box-wrong-card-count": _("Irregularity: a box dealt the wrong number of cards (THB-76)"),
    "report-dealer-wrong-card-count": _("Irregularity: the dealer dealt the wrong number of cards (THB-76)"),
    "void-hand": _("Hand void"),
    "undo": _("Undo"),
}


def _action_line(row) -> dict[str, Any]:
    record = row.record
    kind = record.get("action", row.kind)
    cards = record.get("cards") or ([record["card"]] if record.get("card") else [])
    if kind == "load-shoe":
        cards = []  # 52 cards in shuffled order: the replay file has them, the screen need not
    return {
        "seq": row.seq,
        "kind": kind,
        "label": ACTION_LABELS.get(kind, kind),
        "box": record.get("box"),
        "amount": record.get("amount"),
        "count": record.get("count") or record.get("cards_dealt"),
        "cards": [card_view(c) for c in cards],
        "actor": row.actor.get_username() if row.actor else "",
        "at": row.at,
        "reason": row.reason,
        "undone": row.undone,
        "undoes": record.get("seq") if kind == "undo" else None,
    }


def _has_history_record(hand: Hand) -> bool:
    """Whether the services can write this hand as a ``replay_hand`` line (a hand in play cannot)."""
    try:
        reads.hand_history_record(hand)
    except RuleViolation:
        return False
    return True


def recall_view(hand: Hand) -> dict[str, Any]:
    """One past hand as it was played: every action in order (undone ones marked), cards and results."""
    rows = list(hand.actions.select_related("actor").order_by("seq"))
    undone = {r.undoes_id for r in rows if r.undoes_id}
    for row in rows:
        row.undone = row.pk in undone
    state = reads.hand_state(hand)
    settlement = state.settlement
    over = state.phase in (Phase.SETTLED, Phase.VOID)
    boxes = []
    for box in state.boxes:
        settled = settlement.box(box.number) if settlement else None
        # A hand still in play shows only what is face up on the table (THB-73).
        shown = box.cards if (over or box.revealed) else None
        boxes.append({"box": box.number, "cards": [card_view(c) for c in shown or ()],
                      "result": box_result(settled) if settled else None})
    return {
        "hand": hand,
        "phase_label": phase_label(state),
        "actions": [_action_line(r) for r in rows],
        "board": [card_view(c) for c in state.board],
        "dealer_cards": [card_view(c) for c in state.dealer_cards or ()] if over else [],
        "boxes": boxes,
        "house_net": hand.house_net,  # set once final: not while an award waits for approval
        "downloadable": _has_history_record(hand),
        "void_reason": state.void_reason,
    }


def reconstruction_view(hand: Hand) -> list[dict[str, Any]]:
    """A finished hand rebuilt step by step from its stored actions, as the pit boss reconstructs a
    disputed hand (THB-71): each counted action with the table as it stood after it."""
    from casino.rules.holdem_bonus import replay

    rows = reads.effective_rows(hand.actions.select_related("actor").order_by("seq"))
    rules = reads.rules_of(hand)
    steps = []
    for n, row in enumerate(rows, start=1):
        row.undone = False
        state = replay(rules, [r.record for r in rows[:n]])
        steps.append({
            "line": _action_line(row),
            "phase_label": phase_label(state),
            "board": [card_view(c) for c in state.board],
            "dealer_cards": [card_view(c) for c in state.dealer_cards or ()],
            "boxes": [{"box": b.number, "cards": [card_view(c) for c in b.cards or ()], "staked": b.staked}
                      for b in state.boxes],
        })
    return steps
