"""Rendering the tables' live fragments: the dealer's tablet, the pit console and the player's phone.

The same functions serve the HTTP views (first load, answers to POSTs) and the
websocket consumers (every push), so a screen looks the same however it got
its HTML. Each reads the database through ``tables.services`` and hands the
template a projection (``tables.projections``), never the engine's state.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.roles import APPROVE_PAYOUT, Role, can, has_role
from casino.rules.cards import RANKS, SUITS
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import HandState, Phase, paytable_odds
from casino.rules.holdem_bonus.paytable import get_paytable
from tables import services
from tables.models import Hand, Pit, Table, TableSession
from tables.projections import (
    AWARD_LABELS,
    BOX_NUMBERS,
    OUTCOME_LABELS,
    PHASE_LABELS,
    approval_view,
    box_result,
    card_view,
    dealer_projection,
    pit_summary,
    player_projection,
)
from tables.refusals import engine_note

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


# --------------------------------------------------------------------------- one replay per version

_SNAPSHOTS: OrderedDict[tuple, tuple] = OrderedDict()
_SNAPSHOTS_KEPT = 512
_snapshots_lock = threading.Lock()


def table_snapshot(table: Table) -> tuple[TableSession | None, Hand | None, HandState | None]:
    """The table's live session, its latest hand and that hand's state, replayed once per table version.

    Every screen of a table re-renders on each change (a tablet, a console, a phone per box): they
    all ask for the same version, so the hand is replayed once and shared. Every write bumps the
    version (tables.services), and the key also holds the live session's id and opening time, so a
    state is never served for another session or another database.
    """
    session = services.live_session(table)
    if session is None:
        return None, None, None
    key = (table.pk, table.version, session.pk, session.requested_at)
    with _snapshots_lock:
        found = _SNAPSHOTS.get(key)
        if found is not None:
            _SNAPSHOTS.move_to_end(key)
            return session, *found
    hand = session.hands.order_by("-number").first()
    state = services.hand_state(hand) if hand else None
    with _snapshots_lock:
        _SNAPSHOTS[key] = (hand, state)
        while len(_SNAPSHOTS) > _SNAPSHOTS_KEPT:
            _SNAPSHOTS.popitem(last=False)
    return session, hand, state


def _picker(used: set[str]) -> list[list[dict[str, Any]]]:
    """The 52 cards as rows of a suit, ranks from ace down, each marked used or free (THB-03)."""
    assert set(PICKER_SUITS) == set(SUITS)
    return [
        [{**card_view(rank + suit), "used": rank + suit in used} for rank in reversed(RANKS)]
        for suit in PICKER_SUITS
    ]


def _limits(table: Table) -> dict[str, Any]:
    rules = services.table_rules(table)
    return {"min_ante": rules.min_ante, "max_ante": rules.max_ante, "min_bonus": rules.min_bonus,
            "max_bonus": rules.max_bonus}


# --------------------------------------------------------------------------- dealer's tablet


def dealer_context(table: Table, user, notice: dict | None = None) -> dict[str, Any]:
    table = Table.objects.select_related("pit", "dealer").get(pk=table.pk)
    session, hand, state = table_snapshot(table)
    view = dealer_projection(state)
    finished = hand is None or hand.is_finished
    in_bets = state is not None and state.phase is Phase.BETS_OPEN
    boxes_with_ante = {row["box"] for row in view["boxes"] if row.get("in_hand")}
    next_box = next((n for n in BOX_NUMBERS if n not in boxes_with_ante), 1)
    return {
        "table": table,
        "session": session,
        "hand": hand,
        "view": view,
        "step": view["step"],
        "finished": finished,
        "can_start": table.status == Table.Status.OPEN and finished,
        "can_close_table": table.status == Table.Status.OPEN and finished,
        "can_repeat": in_bets and hand is not None and hand.number > 1 and
        session is not None and session.hands.filter(number__lt=hand.number).exists(),
        "can_undo": hand is not None and not finished and state is not None and bool(state.actions),
        "limits": _limits(table),
        "chips": CHIPS,
        "next_box": next_box,
        "picker": _picker(set(view["used"])) if state is not None else [],
        "undo_reasons": UNDO_REASONS,
        "box_numbers": BOX_NUMBERS,
        "live_boxes": [r["box"] for r in view["boxes"] if r.get("in_hand") and not r.get("void")],
        "notice": notice,
        "user": user,
    }


def dealer_fragment(table: Table, user, notice: dict | None = None) -> str:
    return render_to_string("tables/_dealer_fragment.html", dealer_context(table, user, notice))


# --------------------------------------------------------------------------- pit console


def _why_not_decide(user, hand: Hand, table: Table) -> str | None:
    """Why this viewer gets no approve/deny buttons, or None. The service refuses them anyway (C-30)."""
    approver = services.award_approver_role(table)
    own_pit = has_role(user, Role.PIT_BOSS) and table.pit.pit_boss_id == user.pk
    if not can(user, APPROVE_PAYOUT) or not (
        has_role(user, Role.GAMES_DIRECTOR) or (approver == Role.PIT_BOSS and own_pit)
    ):
        return gettext("At this table the %(role)s approves held awards (C-30).") % {"role": Role(approver).label}
    if table.dealer_id == user.pk or hand.actions.filter(actor=user, kind__in=services.DEALER_KINDS).exists():
        return gettext("You took part in this hand: another supervisor must decide on its award (C-30).")
    return None


def pit_context(pit: Pit, user, notice: dict | None = None) -> dict[str, Any]:
    pit = Pit.objects.select_related("pit_boss").get(pk=pit.pk)
    tables = list(pit.tables.select_related("dealer", "pit").order_by("name"))
    rows = []
    for table in tables:
        session, hand, state = table_snapshot(table)
        rows.append({
            "table": table,
            "session": session,
            "hand": hand,
            "summary": pit_summary(state),
            "session_result": services.session_result(table),
            "deck_check": session is not None and session.status == TableSession.Status.DECK_CHECK,
            "closing": session is not None and session.status == TableSession.Status.CLOSING,
        })
    by_table = {t.pk: t for t in tables}
    approvals = []
    for award in services.pending_approvals(pit):
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
              for a in services.open_alerts(pit)]
    return {
        "pit": pit,
        "rows": rows,
        "approvals": approvals,
        "alerts": alerts,
        # One number that grows with every change at any table of the pit (live.js drops older pushes).
        "version": sum(t.version for t in tables),
        "notice": notice,
        "user": user,
    }


def alert_text(alert) -> str:
    """An alert in the viewer's language, the engine's notes and the award's name included."""
    params = dict(alert.params or {})
    for name in ("note", "reason"):
        if isinstance(params.get(name), str):
            params[name] = engine_note(params[name])
    if params.get("award") in AWARD_LABELS:
        params["award"] = str(AWARD_LABELS[params["award"]])
    try:
        return gettext(alert.message) % params
    except (KeyError, TypeError, ValueError):
        return alert.text


def pit_fragment(pit: Pit, user, notice: dict | None = None) -> str:
    return render_to_string("tables/_pit_fragment.html", pit_context(pit, user, notice))


# --------------------------------------------------------------------------- player's phone


@lru_cache(maxsize=16)
def paytable_view(name: str) -> dict[str, Any]:
    """The Bonus paytable with each award's exact chance and the bet's house edge (counted, not simulated)."""
    odds = paytable_odds(get_paytable(name))
    return {
        "name": name,
        "awards": [{"key": a.award, "label": AWARD_LABELS.get(a.award, a.award), "pays": a.pays,
                    "one_in": round(1 / a.probability) if a.probability else None} for a in odds.awards],
        "house_edge": float(odds.house_edge) * 100,
    }


_RESULTS: OrderedDict[tuple, dict] = OrderedDict()
_RESULTS_KEPT = 4096


def _finished_results(hand: Hand) -> dict[int, dict[str, Any]]:
    """Each box's final result in a finished hand. A finished hand never changes, so it is kept in memory
    (keyed by its id and start time, which no other hand shares)."""
    key = (hand.pk, hand.started_at)
    with _snapshots_lock:
        results = _RESULTS.get(key)
    if results is None:
        state = services.hand_state(hand)
        boxes = state.settlement.boxes if state.settlement else ()
        results = {b.box: {"outcome": b.outcome.value, "net": b.net, "staked": b.staked,
                           "bonus_award": b.bonus.award} for b in boxes}
        with _snapshots_lock:
            _RESULTS[key] = results
            while len(_RESULTS) > _RESULTS_KEPT:
                _RESULTS.popitem(last=False)
    return results


def _box_history(session: TableSession | None, number: int) -> dict[str, Any]:
    """The box's results over this session's finished hands, latest first: their own box only."""
    if session is None:
        return {"hands": [], "total": 0}
    hands = []
    for hand in session.hands.filter(pending_approvals=0, phase__in=("settled", "void")).order_by("-number"):
        result = _finished_results(hand).get(number)
        if result is None:
            continue
        hands.append({**result, "number": hand.number, "outcome_label": OUTCOME_LABELS[result["outcome"]],
                      "bonus_award_label": AWARD_LABELS.get(result["bonus_award"]) if result["bonus_award"] else None})
    return {"hands": hands, "total": sum(h["net"] for h in hands)}


def player_context(box, link) -> dict[str, Any]:
    table = Table.objects.get(pk=box.table_id)
    session, hand, state = table_snapshot(table)
    return {
        "table": table,
        "box": box,
        "link": link,
        "hand": hand,
        "view": player_projection(state, box.number),
        "history": _box_history(session, box.number),
        "limits": _limits(table),
        "paytable": paytable_view(services.table_rules(table).paytable.name),
    }


def player_fragment(box, link) -> str:
    return render_to_string("tables/player_fragment.html", player_context(box, link))


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
        services.hand_history_record(hand)
    except RuleViolation:
        return False
    return True


def recall_view(hand: Hand) -> dict[str, Any]:
    """One past hand as it was played: every action in order (undone ones marked), cards and results."""
    rows = list(hand.actions.select_related("actor").order_by("seq"))
    undone = {r.undoes_id for r in rows if r.undoes_id}
    for row in rows:
        row.undone = row.pk in undone
    state = services.hand_state(hand)
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
        "phase_label": PHASE_LABELS[state.phase.value],
        "actions": [_action_line(r) for r in rows],
        "board": [card_view(c) for c in state.board],
        "dealer_cards": [card_view(c) for c in state.dealer_cards or ()] if over else [],
        "boxes": boxes,
        "house_net": hand.house_net,  # set once final: not while an award waits for approval
        "downloadable": _has_history_record(hand),
        "void_reason": state.void_reason,
    }
