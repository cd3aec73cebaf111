"""The hands of a live Texas Hold'em Bonus table: the dealer's records, undo, irregularities, held
Bonus awards and their approval (C-30), alerts, the deck count and suspect cards (THB-16, THB-17).

Every command runs through ``tables.writing.write_at_table`` (the casino's one write path with what is
a table's; its module docstring gives the order of the steps). A table's sessions and the players at
its boxes are ``tables.sessions``'s commands; what the screens read is ``tables.reads``.

No game logic lives here beyond asking the engine: which records a dealer may send, what may
be undone, and who may approve are procedure, not rules of the game.
"""

from __future__ import annotations

import copy
import hashlib

from django.conf import settings
from django.db.models import Max
from django.utils.translation import gettext, gettext_noop

from casino import decks as deck_commands
from casino.audit import record_event
from casino.models import Deck, object_label
from casino.roles import APPROVE_PAYOUT, Role, can, has_role
from casino.rules.errors import N_, Note, RuleViolation
from casino.rules.holdem_bonus import (
    Action,
    ApproveBonus,
    DenyBonus,
    HandState,
    LoadShoe,
    Phase,
    PlaceAnte,
    PlaceBonus,
    action_from_dict,
    replay,
)
from casino.rules.shuffle import Shoe
from casino.writes import NotAllowed, StaleVersion, asked_for
from tables.access import is_dealer_at
from tables.models import Alert, Hand, HandAction, Table
from tables.reads import (
    STATES,
    deck_count_pending,
    effective_rows,
    hand_state,
    latest_live_hand,
    rules_of,
    snapshot_from_redis,
    snapshot_in_process,
    state_key,
    table_rules,
)
from tables.refusals import alert_notes
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
    "APPROVER_ROLES", "ActionResult", "BETS_AND_DECISIONS", "DEALER_KINDS", "IRREGULARITY_KINDS", "NotAllowed",
    "RuleViolation", "StaleVersion", "acknowledge_alert", "audit_details", "award_approver_role",
    "award_decision_refusal", "decide_award", "record_action", "record_deck_count", "repeat_last_bets",
    "replayed_columns", "report_irregularity", "report_suspect_cards", "start_hand", "undo_last_action",
    "set_pit_rotation", "follow_pit_rotation", "hand_over_pit_table",
]


# --- What a dealer may send, and what an undo may take back ---------------------------------------

#: Bets and decisions: the dealer records them box by box, in the current phase.
BETS_AND_DECISIONS = frozenset({
    "place-ante", "place-bonus", "withdraw-bets", "bet-flop", "fold", "bet-turn", "pass-turn", "bet-river",
    "pass-river",
})
#: Steps of the procedure that move the hand on: "no va más", the deal, the streets, the showdown.
PROCEDURE_STEPS = frozenset({
    "close-bets", "deal-initial", "deal-flop", "deal-turn", "deal-river", "reveal-dealer", "reveal-box",
    "concede-box",
})
#: The dealer's own records through ``record_action``.
DEALER_KINDS = BETS_AND_DECISIONS | PROCEDURE_STEPS
#: Irregularities from the manual's cases (THB-24, THB-73..76), through ``report_irregularity``.
IRREGULARITY_KINDS = frozenset({
    "report-dealer-card-exposed", "report-face-up-card", "report-box-wrong-card-count",
    "report-dealer-wrong-card-count", "void-hand",
})
#: Card entries a dealer may correct right after typing them (recorded mode only): the entry is
#: the last thing done, so nothing was decided on the wrong card yet.
CORRECTABLE_CARD_ENTRIES = frozenset({"deal-flop", "deal-turn", "deal-river", "reveal-dealer", "reveal-box"})


def may_undo_last(state: HandState | None, mode: str) -> bool:
    """Whether the hand's last action is one an undo takes back (the tablet offers "Undo" only then).

    A bet or a decision, or in recorded mode a card entry; never once the hand is settled, an award
    waiting for approval included, or void (THB-64). ``undo_last_action`` refuses the rest.
    """
    if state is None or not state.actions or state.phase in (Phase.SETTLED, Phase.VOID):
        return False
    kind = state.actions[-1].kind
    return kind in BETS_AND_DECISIONS or (kind in CORRECTABLE_CARD_ENTRIES and mode == Hand.Mode.RECORDED)

#: One French deck (THB-03): what a deck count must find (THB-16).
DECK_SIZE = 52

#: Who may approve a held Bonus award (C-30): a table's house option, else ``settings.AWARD_APPROVER_ROLE``.
APPROVER_ROLES = (Role.PIT_BOSS, Role.GAMES_DIRECTOR)


def award_approver_role(table: Table) -> str:
    """The role that approves held Bonus awards at this table (house option, C-30)."""
    role = (table.house_options or {}).get("award_approver_role") or settings.AWARD_APPROVER_ROLE
    return role if role in APPROVER_ROLES else Role.PIT_BOSS


def award_decision_refusal(by, hand: Hand, table: Table) -> NotAllowed | None:
    """Why ``by`` may not approve or deny ``hand``'s held award (C-30), or None if they may.

    The one answer both ``decide_award`` (which raises it) and the pit console (which shows it in
    place of the buttons) use. The approver is the table's approver role with ``approve_payout``:
    with the pit boss as the house's approver, the pit boss of that table's pit or a games director
    (THB-54 names the games direction itself, who ranks above); with the games director, only a
    games director. Never whoever recorded the hand's bets, cards or decisions, nor the table's
    dealer on duty: they asked for the award (a pit boss who only reported an irregularity did not).
    """
    approver = award_approver_role(table)
    may = can(by, APPROVE_PAYOUT) and (
        has_role(by, Role.GAMES_DIRECTOR)
        or (approver == Role.PIT_BOSS and has_role(by, Role.PIT_BOSS) and table.pit.pit_boss_id == by.pk)
    )
    if not may:
        return NotAllowed(N_("Only the %(role)s can approve this award (C-30)."), role=Role(approver).label)
    if table.dealer_id == by.pk or hand.actions.filter(actor=by, kind__in=DEALER_KINDS).exists():
        return NotAllowed(N_("The dealer who asked for the award can never approve it (C-30)."))
    return None


# --- Hands ------------------------------------------------------------------------------------------------


def _hand_and_state_in_play(w: TableWrite) -> tuple[Hand, HandState]:
    """The hand every dealer action goes to, with its state, as ``_hand_in_play`` and ``hand_state``.

    Without reading, when this process holds the snapshot of the version the table row is locked at, or
    the process that made that version left it in Redis: every write bumps the version under this lock,
    so a snapshot of the locked version is exactly what the database holds.
    """
    version = w.table.version
    known = snapshot_in_process(w.table, version)
    if known is None or known.version != version:  # kept under ``version``, it may show a later one
        known = snapshot_from_redis(w.table, version)
    if known is not None and known.hand is not None and (
        known.session is not None and getattr(known.hand, "_last_seq", None) is not None
    ):
        # The snapshot's hand is shared with the screens rendering it: this write changes a copy.
        hand = copy.copy(known.hand)
        w.hand, w.session = hand, known.session
        return hand, known.state
    hand = _hand_in_play(w)
    return hand, hand_state(hand)


def _hand_in_play(w: TableWrite) -> Hand:
    """The latest hand of the table's session: the one every dealer action goes to."""
    # One read for the session and its latest hand. The table's row lock, held by this write, already
    # keeps every other write (session changes included) out until commit.
    hand = latest_live_hand(w.table)
    if hand is None:
        raise RuleViolation(N_("No hand is in play: start a hand first."))
    w.hand, w.session = hand, hand.session
    return hand


def _next_seq(hand: Hand) -> int:
    """The seq of the hand's next row. Under the table lock, ``hand_state`` has just read the last one."""
    last = getattr(hand, "_last_seq", None)
    if last is None:
        last = hand.actions.aggregate(m=Max("seq"))["m"] or 0
    hand._last_seq = last + 1
    return last + 1


def audit_details(record: dict) -> dict:
    """The record as audited; a shoe's order is kept only as its hash (the audit log is read by staff
    while the hand is live, and the order is what a cheat would want)."""
    if record.get("action") == LoadShoe.kind:
        order = " ".join(record["cards"])
        return {"action": LoadShoe.kind, "sha256": hashlib.sha256(order.encode()).hexdigest()}
    return dict(record)


def _append(w: TableWrite, hand: Hand, state: HandState, action: Action) -> HandState:
    """Engine check, then apply, then the frozen row and its audit event."""
    state.verify(action)
    after = state.apply(action)
    record = action.to_dict()
    row = HandAction.objects.create(
        hand=hand, seq=_next_seq(hand), kind=action.kind, record=record, actor=w.by, role=w.role, at=w.now, key=w.key,
    )
    w.audit("hand.action", obj=hand, hand=hand.number, seq=row.seq, record=audit_details(record))
    # The screens that re-render after this write find the new state without replaying it.
    STATES.remember(state_key(hand), row.seq, after)
    return after


def _is_over(state: HandState) -> bool:
    return state.phase in (Phase.SETTLED, Phase.VOID)


def replayed_columns(state: HandState) -> dict:
    """The hand's console columns as its replay says (``_sync_hand`` keeps them; verify_audit checks them)."""
    pending = state.settlement.pending_approvals if state.settlement else ()
    return {
        "phase": state.phase.value,
        "pending_approvals": len(pending),
        "house_net": state.settlement.house_net if (_is_over(state) and not pending) else None,
    }


def _sync_hand(w: TableWrite, hand: Hand, before: HandState, after: HandState) -> None:
    """Keep the hand's console columns equal to the replay, and alert for awards newly held (THB-54)."""
    pending = after.settlement.pending_approvals if after.settlement else ()
    held_before = set(before.settlement.pending_approvals) if before.settlement else set()
    for number in pending:
        if number not in held_before:
            bonus = after.settlement.box(number).bonus
            raise_alert(w, Alert.Kind.APPROVAL, gettext_noop(
                "%(table)s, hand %(hand)d: box %(box)d's Bonus award (%(award)s, %(payout)d) waits for approval."
            ), {"table": w.table.name, "hand": hand.number, "box": number, "award": bonus.award,
                "payout": bonus.wager.net}, hand=hand)
    # An award no longer held (decided, or its card entry undone) no longer needs the console's eye.
    # Approval alerts are open only while the hand's column counts held awards: none, nothing to close.
    if hand.pending_approvals or held_before:
        for alert in hand.alerts.filter(kind=Alert.Kind.APPROVAL, acknowledged_at__isnull=True):
            if alert.params.get("box") not in pending:
                alert.acknowledged_at = w.now
                alert.acknowledged_by = w.by if w.action == "decide_award" else None
                alert.save(update_fields=["acknowledged_at", "acknowledged_by"])
    columns = {**replayed_columns(after), "settled_at": (hand.settled_at or w.now) if _is_over(after) else None}
    changed = [name for name, value in columns.items() if getattr(hand, name) != value]
    for name in changed:
        setattr(hand, name, columns[name])
    if changed:  # most actions leave the phase and the result as they were: no UPDATE for them
        hand.save(update_fields=changed)
    w.state = after


# --- The deck and the cards between the pit boss and the dealer (THB-16, THB-17) ---------------------


def _deck_counted(w: TableWrite, serial: str) -> Deck | None:
    """The deck in play at the table that the dealer counted (issue #39): the one named, or the only one in play;
    None at a table whose decks were not named at its opening (it counts as before)."""
    in_play = list(Deck.objects.select_for_update().filter(place=object_label(w.table), state=Deck.State.IN_PLAY)
                   .order_by("serial"))
    if serial:
        deck = next((d for d in in_play if d.serial == serial), None)
        if deck is None:
            raise RuleViolation(N_("Deck %(serial)s is not in play at this table."), "THB-16", serial=serial)
        return deck
    if len(in_play) > 1:
        raise RuleViolation(N_("Two decks are in play: say which one was counted."), "THB-16")
    return in_play[0] if in_play else None


def record_deck_count(*, table, by, key: str, expected_version: int, cards: int, note: str = "",
                      deck: str = "") -> ActionResult:
    """The dealer counted the whole deck because its size was in doubt (THB-16), between hands.

    52 cards: logged, nothing else (a deck's life has no step for a good count). Any other count: the pit boss
    is alerted and no hand starts until they have replaced the deck and acknowledged the alert (a defective deck
    is not played, THB-22); the deck counted (``deck``, its serial, or the only one in play) is declared
    defective, missing or extra cards (CC-72), reason "count N", in the same write: the inspector's records say so.
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("The deck is counted at an open table."), "THB-16")
        if unfinished_hand(w.table.hands) is not None:
            raise RuleViolation(N_("Count the deck between hands, once the cards are collected."), "THB-16")
        if not isinstance(cards, int) or isinstance(cards, bool) or not 0 <= cards <= 520:
            raise ValueError(f"a deck count is a number of cards from 0 to 520, not {cards!r}")
        complete = cards == DECK_SIZE
        counted = _deck_counted(w, deck)
        w.event = "deck-counted"
        if complete:
            w.alerts.append(gettext("52 cards: the deck is complete (THB-16)."))
        else:
            message = gettext_noop(
                "%(table)s: the dealer counted %(cards)d cards instead of 52 (THB-16). Replace the deck and check "
                "it (THB-22); the next hand starts once this alert is acknowledged."
            ) if not note else gettext_noop(
                "%(table)s: the dealer counted %(cards)d cards instead of 52 (THB-16): “%(note)s”. Replace the deck "
                "and check it (THB-22); the next hand starts once this alert is acknowledged."
            )
            raise_alert(w, Alert.Kind.DECK_COUNT, message, {"table": w.table.name, "cards": cards, "note": note})
            if counted is not None:
                deck_commands.declare_defective(
                    deck=counted, by=w.by, key=f"{w.key}:count:{counted.pk}"[:100], expected_version=None,
                    defect="missing" if cards < DECK_SIZE else "extra", reason=f"count {cards}")
        w.audit("table.deck_counted", cards=cards, complete=complete, note=note,
                **({"deck": counted.serial} if counted is not None else {}))

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="record_deck_count", work=work)


def report_suspect_cards(*, table, by, key: str, expected_version: int, note: str = "") -> ActionResult:
    """The dealer discreetly tells the pit boss that cards look marked or flawed (THB-17).

    At any moment of an open table, a hand in play included; the hand goes on as it was. Only the
    pit's consoles are told: the table's screens, the players' phones among them, hear nothing.
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("Cards are reported at an open table."), "THB-17")
        hand = unfinished_hand(w.table.hands)
        params = {"table": w.table.name, "note": note}
        message = gettext_noop(
            "%(table)s: the dealer suspects marked or flawed cards (THB-17). Go to the table discreetly."
        ) if not note else gettext_noop(
            "%(table)s: the dealer suspects marked or flawed cards (THB-17): “%(note)s”. Go to the table discreetly."
        )
        raise_alert(w, Alert.Kind.SUSPECT_CARDS, message, params, hand=hand)
        # The dealer's tablet says only that it was done: the alert's words are for the pit boss.
        w.alerts[-1] = gettext("The pit boss has been told discreetly (THB-17).")
        w.tell_only_the_pit()
        w.event = "cards-suspected"
        w.audit("table.cards_suspected", hand=hand.number if hand else None, note=note)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="report_suspect_cards", work=work)


def start_hand(*, table, by, key: str, expected_version: int, mode: str = Hand.Mode.RECORDED) -> ActionResult:
    """"Hagan sus apuestas": a new hand with bets open (THB-30), under the table's rules of now.

    Dealt mode loads a freshly shuffled shoe through the engine; its order is stored as the hand's
    first record, so the hand replays exactly (THB-32, ``casino.rules.shuffle``).
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if mode not in Hand.Mode.values:
            raise ValueError(f"mode is one of {', '.join(Hand.Mode.values)}, not {mode!r}")
        if w.table.status != Table.Status.OPEN:
            raise RuleViolation(N_("The table is not open: the pit boss confirms the deck check first."), "THB-21")
        session = live_session_locked(w.table)
        last = unfinished_hand(session.hands)
        if last is not None:
            if last.is_over:
                raise RuleViolation(N_("The last hand's Bonus award waits for approval: the next hand starts "
                                      "once it is decided."), "THB-54")
            raise RuleViolation(N_("The hand in play is not finished."))
        verify_not_relieved_at_pit(w)  # issue #38 item 5: a dealer the rotation relieved hands the table over
        if deck_count_pending(w.table):
            raise RuleViolation(N_("The last deck count was wrong: the pit boss replaces the deck and acknowledges "
                                  "the alert before the next hand."), "THB-16")
        rules = table_rules(w.table)
        number = next_hand_number(w.table)
        hand = Hand.objects.create(table=w.table, session=session, number=number, mode=mode, rules=rules.to_dict(),
                                   started_by=w.by, started_at=w.now)
        hand._last_seq = 0  # no row yet (_next_seq)
        w.hand, w.session, w.state = hand, session, HandState(rules=rules)
        w.event = "hand-started"
        w.audit("hand.started", obj=hand, hand=number, mode=mode, rules=rules.to_dict())
        if mode == Hand.Mode.DEALT:
            state = HandState(rules=rules)
            after = _append(w, hand, state, LoadShoe(Shoe.shuffled().cards))
            _sync_hand(w, hand, state, after)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="start_hand", work=work)


def _read_record(record: dict) -> Action:
    if isinstance(record, Action):
        return record
    return action_from_dict(record)


def record_action(*, table, by, key: str, expected_version: int, record: dict) -> ActionResult:
    """Any dealer action of the hand in play, as its engine record (``action.to_dict()``).

    Bets, "no va más", the deal, each box's decision, the community cards, the dealer's and the
    boxes' cards. Awards are decided with ``decide_award``, irregularities reported with
    ``report_irregularity``; the shoe is loaded by ``start_hand``.
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        action = _read_record(record)
        if action.kind in (ApproveBonus.kind, DenyBonus.kind):
            raise NotAllowed(N_("A held Bonus award is approved or denied from the pit boss's console (C-30)."))
        if action.kind in IRREGULARITY_KINDS:
            raise RuleViolation(N_("Report an irregularity from the irregularity menu."))
        if action.kind not in DEALER_KINDS:
            raise RuleViolation(N_("The shoe is loaded when a dealt hand starts."), "THB-32")
        hand, before = _hand_and_state_in_play(w)
        after = _append(w, hand, before, action)
        _sync_hand(w, hand, before, after)
        w.event = "hand-action"
        if _is_over(after) and not hand.pending_approvals:
            follow_pit_rotation(w)  # issue #38 item 5: a change due during the hand is made at its end

    # each tap is one record: a key sent again with another record is not its retry (issue #34)
    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action=asked_for("record_action", record), work=work)


def _previous_hand(hand: Hand) -> Hand | None:
    return hand.session.hands.filter(number__lt=hand.number).order_by("-number").first()


def repeat_last_bets(*, table, by, key: str, expected_version: int) -> ActionResult:
    """One tap: the last hand's antes and Bonus bets placed again in their boxes, those the limits
    allow (THB-19, THB-20, THB-26) and only in boxes with no bet yet; the others are listed."""

    def work(w: TableWrite) -> None:
        require_dealer(w)
        hand, before = _hand_and_state_in_play(w)
        state = before
        if state.phase is not Phase.BETS_OPEN:
            raise RuleViolation(N_("Bets are closed ('no va más'): they can no longer be placed."), "THB-31")
        previous = _previous_hand(hand)
        if previous is None:
            raise RuleViolation(N_("There is no previous hand in this session to repeat."), "THB-30")
        placed = 0
        for box in hand_state(previous).boxes:
            if state.box(box.number) is not None:
                continue  # the dealer has already taken this box's bet for this hand
            bets = [PlaceAnte(box.number, box.ante)] + ([PlaceBonus(box.number, box.bonus)] if box.bonus else [])
            for bet in bets:
                try:
                    state = _append(w, hand, state, bet)
                    placed += 1
                except RuleViolation as refused:
                    w.alerts.append(str(refused))
                    break  # no Bonus without its ante (THB-52)
        if not placed:
            raise RuleViolation(
                N_("No bet of the last hand could be repeated: %(why)s"), "THB-30", why=" ".join(w.alerts)
            )
        _sync_hand(w, hand, before, state)
        w.event = "hand-action"

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="repeat_last_bets", work=work)


def undo_last_action(*, table, by, key: str, expected_version: int, reason: str) -> ActionResult:
    """Take back the hand's last action before the hand moves on, with the reason (append-only).

    What may be undone: a bet or a box's decision, while no step of the procedure ("no va más",
    a deal, a card, a reveal, an irregularity) has come after it; or, in recorded mode, a card
    entry that is the very last thing done (a mistyped card, before anyone decided on it). Never
    once the hand is settled or void. The undo is a new row pointing at the undone one; replay
    skips both.
    """

    def work(w: TableWrite) -> None:
        require_dealer(w)
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation(N_("Say why the action is undone."))
        hand = _hand_in_play(w)
        if hand.is_over:
            # Once settled the amounts are paid out and final (a recorded payout is never altered
            # afterwards); a dispute is a reconstruction with the pit boss (THB-71), not an undo.
            raise RuleViolation(N_("The hand is over: its record is final and can no longer be undone."), "THB-64")
        rows = list(hand.actions.order_by("seq"))
        effective = effective_rows(rows)
        if not effective:
            raise RuleViolation(N_("There is nothing to undo in this hand."))
        target = effective[-1]
        moved_on = [r for r in rows if r.seq > target.seq and r.kind != HandAction.UNDO and r.kind not in
                    BETS_AND_DECISIONS]
        correctable = target.kind in CORRECTABLE_CARD_ENTRIES and hand.mode == Hand.Mode.RECORDED
        if moved_on or not (target.kind in BETS_AND_DECISIONS or correctable):
            raise RuleViolation(N_("The hand has moved on since that action: it can no longer be undone. "
                                  "Report an irregularity instead."))
        before = replay(rules_of(hand), [r.record for r in effective])
        after = replay(rules_of(hand), [r.record for r in effective[:-1]])
        HandAction.objects.create(
            hand=hand, seq=_next_seq(hand), kind=HandAction.UNDO, record={"action": HandAction.UNDO, "seq": target.seq},
            actor=w.by, role=w.role, at=w.now, key=w.key, undoes=target, reason=reason.strip(),
        )
        _sync_hand(w, hand, before, after)
        w.event = "undo"
        w.audit("hand.action_undone", obj=hand, hand=hand.number, seq=target.seq, record=audit_details(target.record),
                reason=reason.strip())

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="undo_last_action", work=work)


def report_irregularity(*, table, by, key: str, expected_version: int, record: dict) -> ActionResult:
    """One of the manual's irregularities (THB-24, THB-73..76): the engine's outcome applied (a void
    hand returns every stake) and the pit boss alerted. The dealer on duty or the pit boss reports."""

    def work(w: TableWrite) -> None:
        if not is_dealer_at(w.by, w.table):
            require_supervisor(w)
        action = _read_record(record)
        if action.kind not in IRREGULARITY_KINDS:
            raise RuleViolation(N_("That is not one of the irregularities of the manual."), "THB-24")
        hand, before = _hand_and_state_in_play(w)
        after = _append(w, hand, before, action)
        params = {"table": w.table.name, "hand": hand.number}
        if after.phase is Phase.VOID:
            # The engine's reason is a Note: kept as template and values too, for each viewer's language.
            reason = after.void_reason
            if isinstance(reason, Note):
                params.update(alert_notes({"reason": Note(reason.template, after.void_clause, **reason.params)}))
            else:  # what the pit boss typed (THB-24, C-35), shown as typed: no note of the engine in it
                params.update(reason=f"{reason} ({after.void_clause})", notes={})
            raise_alert(w, Alert.Kind.VOID, gettext_noop(
                "%(table)s, hand %(hand)d is void: %(reason)s. Every stake is returned."), params, hand=hand)
        else:
            params.update(alert_notes({"note": after.irregularities[-1]}))
            raise_alert(w, Alert.Kind.IRREGULARITY, gettext_noop("%(table)s, hand %(hand)d: %(note)s"), params,
                         hand=hand)
        _sync_hand(w, hand, before, after)
        w.event = "irregularity"
        w.audit("hand.irregularity", obj=hand, hand=hand.number, record=action.to_dict(), phase=after.phase.value)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="report_irregularity", work=work)


def decide_award(*, table, by, key: str, expected_version: int, hand_id: int, box: int, approve: bool,
                 reason: str = "") -> ActionResult:
    """Approve or deny a held Bonus award (THB-54): by the house option's role (C-30), never by the
    dealer who asked; approver, role, time and decision go to the audit log."""

    def work(w: TableWrite) -> None:
        hand = Hand.objects.filter(pk=hand_id, table=w.table).first()
        if hand is None:
            raise NotAllowed(N_("That hand is not at this table."))
        w.hand = hand
        refusal = award_decision_refusal(w.by, hand, w.table)
        if refusal is not None:
            raise refusal
        before = hand_state(hand)
        waiting = before.settlement is not None and box in before.settlement.pending_approvals
        if waiting and not approve and not (isinstance(reason, str) and reason.strip()):
            # A denied award is a player's prize withheld: the record says why (issue #16).
            raise RuleViolation(N_("Say why the award is denied: the reason goes on the record."), "THB-54")
        approver = w.by.get_username()
        decision = ApproveBonus(box, approver) if approve else DenyBonus(box, approver, reason)
        after = _append(w, hand, before, decision)
        _sync_hand(w, hand, before, after)
        bonus = before.settlement.box(box).bonus
        w.event = "award-decided"
        w.audit("hand.award_approved" if approve else "hand.award_denied", obj=hand, hand=hand.number, box=box,
                decision="approved" if approve else "denied", approver=approver, role=w.role,
                at=w.now.isoformat(), award=bonus.award, stake=bonus.wager.stake, payout=bonus.wager.net,
                reason=reason)
        if _is_over(after) and not hand.pending_approvals:
            follow_pit_rotation(w)  # issue #38 item 5: the hand is over once its last held award is decided

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="decide_award", work=work)


def acknowledge_alert(*, table, by, key: str, expected_version: int, alert_id: int) -> ActionResult:
    """The pit boss has seen an alert of one of their tables."""

    def work(w: TableWrite) -> None:
        require_supervisor(w)
        alert = Alert.objects.select_for_update().filter(pk=alert_id, table=w.table).first()
        if alert is None:
            raise NotAllowed(N_("That alert is not of this table."))
        if alert.acknowledged_at is not None:
            raise RuleViolation(N_("That alert was already acknowledged."))
        alert.acknowledged_by, alert.acknowledged_at = w.by, w.now
        alert.save(update_fields=["acknowledged_by", "acknowledged_at"])
        w.hand = alert.hand
        w.event = "alert-acknowledged"
        w.audit("alert.acknowledged", obj=alert, kind=alert.kind, message=alert.message, params=alert.params)

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version,
                          action="acknowledge_alert", work=work)



def record_reconstruction(*, hand: Hand, by, reason: str, director, pit_boss) -> None:
    """A disputed hand reconstructed from its record "en presencia del Jefe de Mesa" and after informing
    the games director (THB-71): who recorded it, the table's pit boss who signed it, which hand, why and
    which director, on the table's audit stream.

    Two people: ``by`` (the games director or an administrator at the console) records it and ``pit_boss``,
    the pit boss of the table's pit, signs it; the view authenticates the signer with his own password
    before calling this, so a name alone never signs. Only a finished (settled) or voided hand is
    reconstructed: one in play is still the table's. The reconstruction itself changes nothing: the hand
    replays from its stored actions.
    """
    if not isinstance(reason, str) or not reason.strip():
        raise RuleViolation(N_("Say what dispute the reconstruction is for."), "THB-71")
    if director is None or not has_role(director, Role.GAMES_DIRECTOR):
        raise RuleViolation(N_("Name the games director who was informed before the reconstruction."), "THB-71")
    if (pit_boss is None or not pit_boss.is_active or not has_role(pit_boss, Role.PIT_BOSS)
            or hand.table.pit.pit_boss_id != pit_boss.pk):
        raise RuleViolation(N_("The pit boss of this table's pit signs the reconstruction."), "THB-71")
    if pit_boss.pk == by.pk:
        raise RuleViolation(N_("The pit boss who signs is a second person: someone else records the "
                               "reconstruction."), "THB-71")
    if not hand.is_over:
        raise RuleViolation(N_("Hand %(hand)s is still in play: only a finished or voided hand is reconstructed."),
                            "THB-71", hand=hand.number)
    record_event(action="hand.reconstructed", actor=by, obj=hand, stream=object_label(hand.table),
                 details={"hand": hand.number, "reason": reason.strip()[:200], "recorded_by": by.get_username(),
                          "pit_boss_present": pit_boss.get_username(),
                          "games_director_informed": director.get_username()})


# --- The dealers' rotation of a pit (issue #38 item 5; RP-07) -------------------------------------------------


def set_pit_rotation(*, pit, by, dealers: list, tables: list, down_minutes: int, breaks=(), starts_at=None) -> None:
    """The pit boss (or a director) sets the pit's rotation, starting now (or at ``starts_at``): the dealers (users
    or ids) in their order, the tables (of this pit, ids or rows) in theirs, the down in minutes and the
    rotation's own breaks ((start, end) each: no change in the 90 s before one nor during it, RP-07). The pit's
    row is locked, the engine checks it, the row is saved and audited (``table.dealer_rotation_set``, on the
    pit's stream) and the pit's console told at commit; each table between hands then takes its first dealer."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from casino.realtime import announce_change
    from casino.rules import rotation as rotation_engine
    from tables.access import supervises_pit
    from tables.models import Pit, PitRotation, pit_group

    if not (supervises_pit(by, pit) and has_role(by, Role.PIT_BOSS, Role.GAMES_DIRECTOR, Role.ADMINISTRATOR)):
        raise NotAllowed(N_("Only the pit's boss or a director sets its dealers' rotation."))
    dealer_ids = [getattr(d, "pk", d) for d in dealers]
    table_ids = [getattr(t, "pk", t) for t in tables]
    users = get_user_model().objects.in_bulk(dealer_ids)
    for pk in dealer_ids:
        user = users.get(pk)
        if user is None or not user.is_active or not has_role(user, Role.DEALER):
            raise RuleViolation(N_("Choose the casino's active dealers."), None)
    start = starts_at or timezone.now()
    setup = rotation_engine.RotationSetup(dealers=tuple(dealer_ids), tables=tuple(table_ids),
                                          down_minutes=down_minutes, starts_at=start, breaks=tuple(breaks))
    rotation_engine.verify_setup(setup)
    with transaction.atomic():
        locked = Pit.objects.select_for_update().get(pk=pit.pk)
        if set(Table.objects.filter(pk__in=table_ids, pit=locked).values_list("pk", flat=True)) != set(table_ids):
            raise RuleViolation(N_("The rotation's tables are tables of this pit."), "THB-72")
        PitRotation.objects.update_or_create(pit=locked, defaults={
            "dealers": dealer_ids, "tables": table_ids, "down_minutes": down_minutes, "starts_at": start,
            "breaks": [[a.isoformat(), b.isoformat()] for a, b in breaks]})
        record_event(action="table.dealer_rotation_set", actor=by, obj=locked,
                     details={"dealers": [users[pk].get_username() for pk in dealer_ids], "dealer_ids": dealer_ids,
                              "tables": table_ids, "down_minutes": down_minutes, "starts_at": start.isoformat(),
                              "breaks": [[a.isoformat(), b.isoformat()] for a, b in breaks]})
        announce_change(pit_group(locked.pk), version=0, event="rotation")
    follow_pit_rotation_at(table_ids, by=by)


def follow_pit_rotation_at(table_ids: list, *, by) -> list:
    """Each of these tables between hands takes the dealer the rotation puts there now (one write at each); the
    others follow at their hand's end. The tables handed over."""
    import uuid

    done = []
    for table in Table.objects.filter(pk__in=table_ids):
        try:
            hand_over_pit_table(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version)
        except (RuleViolation, NotAllowed):
            continue
        done.append(table.pk)
    return done


def _between_hands(w: TableWrite) -> bool:
    session = live_session_locked(w.table)
    return session is None or unfinished_hand(session.hands) is None


def follow_pit_rotation(w: TableWrite) -> bool:
    """Inside a write at a table between hands: the table takes the dealer its pit's rotation puts there now.
    Whether its dealer changed; audited (``table.dealer_rotated``, with the dealer relieved)."""
    from django.contrib.auth import get_user_model

    from tables.reads import due_pit_dealer

    in_rotation, due = due_pit_dealer(w.table, w.now)
    if not in_rotation or due is None or due == w.table.dealer_id:
        return False
    dealer = get_user_model().objects.filter(pk=due, is_active=True).first()
    if dealer is None or not has_role(dealer, Role.DEALER):
        return False
    relieved = w.table.dealer
    w.table.dealer = dealer
    w.audit("table.dealer_rotated", dealer=dealer.get_username(), dealer_id=dealer.pk,
            relieved=relieved.get_username() if relieved is not None else None)
    return True


def hand_over_pit_table(*, table, by, key: str, expected_version: int) -> ActionResult:
    """The table takes the dealer its pit's rotation puts there now, between hands (never mid-hand): its dealer on
    duty, or its pit boss."""

    def work(w: TableWrite) -> None:
        if not (is_dealer_at(w.by, w.table) or supervises_pit(w.by, w.table.pit)):
            raise NotAllowed(N_("Only the dealer on duty at %(table)s or its pit boss can do this."),
                             table=w.table.name)
        if not _between_hands(w):
            raise RuleViolation(N_("The dealer changes when the hand in play is over."), "RP-07")
        if not follow_pit_rotation(w):
            raise RuleViolation(N_("No dealer change is due at this table (RP-07: the rotation's schedule)."),
                                "RP-07")
        w.event = "dealer-rotated"

    from tables.access import supervises_pit

    return write_at_table(table=table, by=by, key=key, expected_version=expected_version, action="hand_over",
                          work=work)


def verify_not_relieved_at_pit(w: TableWrite) -> None:
    """A dealer the pit's rotation has relieved starts no new hand at the table: he hands it over."""
    from tables.reads import due_pit_dealer

    in_rotation, due = due_pit_dealer(w.table, w.now)
    if in_rotation and due is not None and due != w.by.pk and w.table.dealer_id == w.by.pk:
        raise RuleViolation(N_("The rotation puts another dealer at this table now: hand it over."), "RP-07")
