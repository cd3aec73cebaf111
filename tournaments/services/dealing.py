"""The commands of a tournament table dealt from a tablet (issue #15): each hand through the Hold'em engine.

A tournament table (``DealtTable``) is an aggregate of its own, written through the one write path
(``casino.writes.write``): its row is locked, the engine (``casino.rules.holdem``) decides, the hand's
records are appended, the version is bumped and the table's screens hear of it after commit. A hundred
tables deal at once, each on its own lock; only the end of a hand writes into the tournament's record
(``services.play.report_hand``, in the same transaction): its button and blinds, each seat's stack at the
start and the end, and the busts, which the event ranks (CC-19) and balances (the plan the floor
confirms). The floor enters nothing by hand.

* ``start_hand``: the next hand where the dead button puts it (C-25), at the level in play when it
  starts (TDA-23), with the blinds and the ante the house's ante mode takes (C-02, CC-50..53, RP-11):
  ``casino.rules.tournament.table_hand.next_hand_setup``. The engine posts them and deals.
* ``act``: each action in turn with the TDA's verbs (TDA-03) or the dealer's own steps (the board's
  cards, the hands shown or mucked at the showdown, the pots awarded, a misdeal); the engine refuses
  what the rules refuse, naming the clause.
* ``undo_last``: the last action, before the next one, with its reason (audited); the hand's start is
  not undone (a misdeal is declared instead); the last hand's award until the next deal starts (its
  report leaves the event's record), unless a player busted in it: that is the director's (TDA-01).
* ``back_up_hand``: the director's ruling (TDA-01): the hand in play goes back to before any of its
  actions, with his reason (audited).
* ``call_clock`` / ``clock_ran_out``: the clock on the player in turn (C-04) and the house's outcome
  when it runs out (C-05).
* ``rule_skipped_hand``: the director's ruling on a hand skipped by out-of-turn action that substantial
  action followed (TDA-53-B): dead, or limited to checking, calling or folding. The acts out of turn
  themselves are the dealer's (``act`` with ``{"action": "out-of-turn", ...}``, TDA-53-A, CC-134, C-08).
* ``release_board``: the director lets a hand-for-hand all-in's board be dealt (RP-08-F); each
  hand-for-hand deal waits for his release (CC-11, in ``start_hand``).
* ``pause_table`` / ``resume_table``: the director stops play at a table with his reason (TDA-01).
* ``assign_dealer``: the floor puts a dealer on duty at a table; only that dealer deals there
  (``access.may_deal_at``), besides the floor and the director.

Each write on a hand audits the rows it appended and digests of the hand's entries, level, setup and
rules (``writing.audit_hand``); each dealer assigned is audited with his id: ``verify_audit`` checks both.

Every refusal is a ``RuleViolation`` (or ``NotAllowed``) a dealer can read; nothing is half-recorded.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext

from casino import decks
from casino.models import Deck
from casino.roles import Role, has_role
from casino.rules import decks as deck_rules
from casino.rules.errors import N_, RuleViolation
from casino.rules.holdem import HoldemHand, Phase, action_from_dict
from casino.rules.holdem.actions import BETTING_KINDS
from casino.rules.holdem.hand import ENDED
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import chip_race, clock, record
from casino.rules.tournament.structure import Structure
from casino.rules.tournament.table_hand import clock_expiry_record, next_hand_setup
from casino.writes import NotAllowed, asked_for
from tournaments.access import runs_the_floor
from tournaments.models import (
    DealtTable,
    TableHand,
    TableHandAction,
    Tournament,
    TournamentEvent,
)
from tournaments.reads import event as event_reads
from tournaments.reads.hands import (
    BOARD_KINDS,
    DEALER_KINDS,
    START_KINDS,
    another_hand_still_running,
    effective_rows,
    hand_for_hand_release,
    hand_state,
    latest_hand,
    part_of_the_deal,
    replayed,
    tables_playing,
)
from tournaments.services import corrections, play, rotation
from tournaments.writing import TableResult, TableWrite, append_records, audit_hand, hand_in_play, write_at_table


def _sitting_out(table: DealtTable, last: TableHand | None) -> list[int]:
    """Seats whose players were moved here onto the button's seat, or between the button and the small
    blind, since this table's last hand was reported: they sit the next hand out (C-03, CC-53, CC-57)."""
    events = TournamentEvent.objects.filter(tournament_id=table.tournament_id, type="seated",
                                            data__table=table.number, data__sits_out=True)
    if last is not None and last.reported_seq is not None:
        events = events.filter(seq__gt=last.reported_seq)
    return sorted({seat for seat in events.values_list("data__seat", flat=True)})


def start_hand(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """New hand (TDA-23, C-24: the hand's start, from which a level change applies): the engine posts the
    blinds and antes of the level in play and deals, where the dead button says (C-25)."""

    def work(w: TableWrite) -> None:
        last = latest_hand(w.table)
        if last is not None and Phase(last.phase) not in ENDED:
            raise RuleViolation(N_("The hand in play is not finished."), "CC-43")
        rotation.verify_not_relieved(w)  # issue #38 item 5: a dealer the rotation relieved hands the table over
        tournament = Tournament.objects.get(pk=w.table.tournament_id)
        state = event_reads.tournament_state(tournament)
        if state.finished or state.setup is None:
            raise RuleViolation(N_("The tournament is not in play."), "CC-04")
        seats = state.table(w.table.number)
        if w.table.number in state.halted:
            raise RuleViolation(N_("Table %(table)s is halted until the floor balances it."), "CC-59",
                                table=w.table.number)
        if state.pending_plan is not None and _plan_touches(state.pending_plan[1], w.table.number):
            raise RuleViolation(N_("Players are to move at table %(table)s: the floor confirms the moves first."),
                                "TDA-11", table=w.table.number)
        release = None
        if state.hand_for_hand and len(tables_playing(state)) > 1:
            # CC-11, RP-08: each hand-for-hand deal starts at every table together, when the director
            # releases it (the clock's "hand_for_hand_hand", which also takes the hand's time off the level).
            # A table that has played its hand of this deal waits; a misdeal is dealt again.
            release = hand_for_hand_release(state)
            played = w.table.hands.filter(phase=Phase.COMPLETE.value).order_by("-number").first()
            if release is None or (played is not None and played.level.get("hand_for_hand_release") == release):
                raise RuleViolation(N_("Hand-for-hand: every table finishes its hand and waits; the next deal starts "
                                       "at every table together, when the director releases it."), "CC-11")
        setup = state.setup
        structure = Structure.from_dict(setup.structure)
        events = list(state.clock_events)
        reading = clock.clock_at(structure, events, w.now, hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        if not reading.started or reading.paused or reading.finished:
            raise RuleViolation(N_("The clock is not running: no hand is dealt."), "TDA-23")
        if reading.on_break:
            raise RuleViolation(N_("The tournament is on a break: the next hand is dealt when it ends."), "TDA-23")
        if chip_race.races_due(state, w.now, tables=(w.table.number,)):
            # issue #36: the stacks left off the smallest chip in play are raced first, in one tap
            raise RuleViolation(N_("Table %(table)s races its odd chips first: the colour-up (TDA-24-A)."),
                                "TDA-24-A", table=w.table.number)
        level = clock.level_for_hand(structure, events, w.now,
                                     hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
        deck = _deck_for_the_hand(w.table, setup.options, reading.level_number)
        # the stacks of the players at this table, not the whole field's (issue #37)
        chips = {n: e.stack for n, e in ((n, state.entry(n)) for _s, n in seats.players)
                 if e.status in record.IN_PLAY}
        unit = min(structure.denominations_at(reading.step), default=1)
        plan = next_hand_setup(seats, chips, level, options=setup.options, chip_unit=unit,
                               players_in_event=state.players_left, sitting_out=_sitting_out(w.table, last))
        if plan is None:
            raise RuleViolation(N_("A hand needs at least two players dealt in"), "CC-77")
        hand = TableHand.objects.create(
            table=w.table, number=(last.number + 1) if last else 1, setup=plan.setup.to_dict(),
            rules=plan.rules.to_dict(), entries={str(s): e for s, e in plan.entries.items()},
            level={"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante,
                   "level_number": reading.level_number,
                   # where the dead button put the hand (C-25), as the event's record keeps it
                   "where": {"button": plan.where.button, "small_blind": plan.where.small_blind,
                             "small_blind_position": plan.where.small_blind_position,
                             "big_blind": plan.where.big_blind},
                   "sitting_out": list(plan.sitting_out), "hand_for_hand_release": release},
            phase=Phase.ANTES.value, started_at=w.now, deck=deck)
        # The engine posts and deals (cards unknown: the dealer records them only at the showdown).
        dealt = HoldemHand(plan.setup, plan.rules)
        if dealt.can_post_antes():
            dealt = dealt.post_antes()
        dealt = dealt.post_blinds().deal_hole_cards()
        # TDA-71-D, CC-46: a player serving a penalty is dealt in and posted, and his hand is killed at the
        # end of the deal (the last live hand is never killed: it takes the pot).
        penalised = []
        for seat, entry in sorted(plan.entries.items()):
            if state.penalty_hands_left(entry) and dealt.can_kill_hand(seat):
                dealt = dealt.kill_hand(seat)
                penalised.append(seat)
        made = append_records(w, hand, [a.to_dict() for a in dealt.actions], last=0)
        w.seen = (made, dealt, made[-1].seq)
        hand.phase = dealt.phase.value
        fields = ["phase"]
        if penalised:
            hand.level = {**hand.level, "penalised": penalised}
            fields.append("level")
        hand.save(update_fields=fields)
        w.hand = hand
        w.event = "hand-started"
        audit_hand(w, "tournament.table_hand_started", hand, table=w.table.number, hand=hand.number,
                level=hand.level, stacks=plan.setup.to_dict()["stacks"],
                **({"deck": deck.serial, "deck_id": deck.pk} if deck is not None else {}))

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="start_hand", work=work)


def _board_held(w: TableWrite, hand: TableHand, before: HoldemHand, action) -> bool:
    """RP-08-F: during hand-for-hand, after an all-in and a call (every hand tabled, no more betting) no
    card is dealt until the director says so (``release_board``)."""
    if (action.kind not in BOARD_KINDS and action.kind != "four-card-flop") or not before.cards_up \
            or hand.level.get("board_released"):
        return False
    tournament = Tournament.objects.get(pk=w.table.tournament_id)
    state = event_reads.tournament_state(tournament)
    # issue #36: the board waits only for another table's hand of this deal (CC-11); alone, nothing to wait for
    return state.hand_for_hand and another_hand_still_running(state, w.table)


def _plan_touches(plan, number: int) -> bool:
    return (number in plan.broken or number in plan.halted or bool(plan.redraw)
            or any(number in (m.to_table, m.from_table) for m in plan.moves))


def act(*, table: DealtTable, by, key: str, expected_version: int, record: dict,
        rng=SYSTEM_RANDOM) -> TableResult:
    """One action of the hand in play, as the tablet sends it: a player's act in turn (``{"action":
    "raise", "seat": 4, "to": 1000}``, TDA-03) or the dealer's step (``{"action": "deal-flop", "cards":
    [...]}``). The engine verifies it (TDA-40..62 for amounts); the hand's end goes into the event, with
    the plan that follows a bust drawn with ``rng`` (the simulator's seeded one; the system's otherwise)."""
    if not isinstance(record, dict) or record.get("action") not in BETTING_KINDS | DEALER_KINDS:
        raise RuleViolation(N_("%(action)r is not something the tablet records"), "TDA-03",
                            action=record.get("action") if isinstance(record, dict) else record)
    action = action_from_dict(record)

    def work(w: TableWrite) -> None:
        hand, before, rows, last = hand_in_play(w)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: start the next hand."), "TDA-23")
        if _board_held(w, hand, before, action):
            raise RuleViolation(N_("Hand-for-hand: after an all-in and a call no card is dealt until the other "
                                   "tables' hands of this deal are over or the director releases the board."),
                                "RP-08-F")
        after = _apply(w, hand, before, action, rng, last=last, rows=rows)
        audit_hand(w, "tournament.table_action", hand, table=w.table.number, hand=hand.number,
                    record=action.to_dict())
        if after.phase in ENDED:
            rotation.follow_rotation(w)  # issue #38 item 5: a change due during the hand is made at its end

    # each tap is one record: a key sent again with another record is not its retry (issue #34)
    return write_at_table(table, by=by, key=key, expected_version=expected_version,
                     action=asked_for(str(record["action"]), record), work=work)


def _apply(w: TableWrite, hand: TableHand, before: HoldemHand, action, rng, *, last: int,
           rows: list[TableHandAction]) -> HoldemHand:
    """The engine applies ``action``; its records are appended after row ``last`` (the hand's effective
    rows were ``rows``), the hand saved, its end reported. A clock called on the player in turn stops: he
    has acted (or his time ran out)."""
    after = before.apply(action)
    made = append_records(w, hand, [a.to_dict() for a in after.actions[len(before.actions):]], last=last)
    w.seen = ([*rows, *made], after, made[-1].seq if made else last)
    # most actions leave the phase as it was (a check, a call): the row is written only when it changes
    fields = ["phase"] if hand.phase != after.phase.value else []
    hand.phase = after.phase.value
    if "clock" in hand.level:
        hand.level = {k: v for k, v in hand.level.items() if k != "clock"}
        fields.append("level")
    if after.phase in ENDED:
        hand.ended_at = w.now
        fields.append("ended_at")
    w.hand = hand
    if after.phase is Phase.COMPLETE:
        # The hand's end goes into the event as the write's last step: the event's lock, which every table's
        # hand's end takes, is then held for the report and the commit only, not for the rest of this table's write
        # too (hands that end together queue on it: docs/decisions/2026-11-27-event-lock-last.md).
        def report_the_hand() -> None:
            hand.reported_seq = _report(w, hand, after, rng, award=made[-1].seq)
            hand.save(update_fields=[*fields, "reported_seq"])

        w.at_the_end(report_the_hand)
    elif fields:
        hand.save(update_fields=fields)
    return after


def _report(w: TableWrite, hand: TableHand, state: HoldemHand, rng, *, award: int) -> int | None:
    """The hand's end into the tournament's record, in this transaction: its button and blinds, the stacks
    at its start and end, and the busts (CC-19 ranks them by the stacks at the start). ``award``: the
    award's row, in the report's key (a hand whose award was undone is reported again).

    On the event as it is at its lock, not at a version read before it: the table's own version was checked,
    and at a large event another table's hand often ends in the same moment. Read before the lock, the
    event's version would be stale whenever one did, and the dealer's award would be refused as a conflict
    (docs/decisions/2026-11-26-report-at-the-locked-version.md); ``report_hand`` checks the report against
    the event it locked."""
    starts = dict(state.setup.stacks)
    ends = dict(state.stacks)
    where = hand.level["where"]
    result = play.report_hand(
        tournament=w.table.tournament_id, by=w.by, key=f"dealt-hand-{hand.pk}-{award}", expected_version=None,
        table=w.table.number, hand=hand.number, button=where["button"],
        small_blind_seat=where["small_blind_position"], big_blind_seat=where["big_blind"],
        stacks_at_start=starts, stacks_at_end=ends, busts=[s for s, c in sorted(ends.items()) if c == 0],
        penalised=hand.level.get("penalised", ()), who="table", rng=rng,
        started_at=hand.started_at, level=hand.level.get("level_number"))
    return result.seqs[0] if result.seqs else None


def undo_last(*, table: DealtTable, by, key: str, expected_version: int, reason: str) -> TableResult:
    """Undo the hand's last action before the next one (CC-43), with its reason, audited. The last hand's
    award is undone too until the next deal starts (C-15): its report leaves the event's record
    (``corrections.withdraw_hand``), unless a player busted in it (the director corrects that)."""
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation(N_("Say why the action is undone."), "CC-43")

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None:
            raise RuleViolation(N_("There is nothing to undo."), "CC-43")
        rows = effective_rows(hand)
        if not rows or rows[-1].record.get("action") in START_KINDS:
            raise RuleViolation(N_("The hand's start is not undone: declare a misdeal instead."), "CC-43")
        if rows[-1].record.get("action") == "skipped-hand" and not runs_the_floor(w.by, w.table):
            # TDA-53-B: the director's ruling is his to take back (or the floor's for him), not the dealer's
            raise NotAllowed(N_("The director's ruling on a skipped hand is undone by the director."))
        if part_of_the_deal(rows[-1], hand):  # what is left of the deal: a penalty's dead hand
            raise RuleViolation(N_("Seat %(seat)s is serving a penalty: the hand stays dead (the director ends "
                                   "the penalty)."), "TDA-71-D", seat=rows[-1].record["seat"])
        if hand.reported_seq is not None:
            # The award of the table's last hand, before the next deal (CC-43, C-15): its report leaves the
            # event's record too, in this transaction (refused for a hand with a bust: the director's).
            # on the event as it is at its lock, as the report was (``_report``)
            corrections.withdraw_hand(tournament=w.table.tournament_id, by=w.by, key=f"undo-{w.key}"[:100],
                                   expected_version=None, seq=hand.reported_seq, reason=reason)
            hand.reported_seq = None
        undone = rows[-1]
        append_records(w, hand, [{"action": "undo"}], undoes=undone, reason=reason[:200])
        hand.phase = hand_state(hand).phase.value
        hand.ended_at = None
        hand.save(update_fields=["phase", "ended_at", "reported_seq"])
        w.hand = hand
        audit_hand(w, "tournament.table_action_undone", hand, table=w.table.number, hand=hand.number,
                undone=undone.record, reason=reason[:200])

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="undo", work=work)


def back_up_hand(*, table: DealtTable, by, key: str, expected_version: int, to_seq: int,
                 reason: str) -> TableResult:
    """The director's ruling on the hand in play (TDA-01: fairness before a technical rule; C-15, CC-43: a
    hand is corrected until the next deal starts): the hand goes back to just before its action ``to_seq``
    (a row of its record), every action from there on undone, newest first, each an ``undo`` row with the
    reason (the record keeps what was undone). The dealer then enters the hand again from there. The hand's
    start (posts, the deal, a penalty's dead hand) is never undone: a misdeal is declared instead. Only the
    director or the floor for him rules (``runs_the_floor``); audited."""
    reason = (reason or "").strip()[:200]
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor rules on a hand."))
    if not reason:
        raise RuleViolation(N_("Say why the hand goes back."), "TDA-01")

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: a hand already in the tournament's record is corrected "
                                   "there."), "CC-43")
        rows = effective_rows(hand)
        undone = [r for r in rows if r.seq >= to_seq]
        if not undone or undone[0].seq != to_seq:
            raise RuleViolation(N_("That action is not in the hand in play."), "TDA-01")
        if any(part_of_the_deal(r, hand) for r in undone):
            raise RuleViolation(N_("The hand's start is not undone: declare a misdeal instead."), "CC-43")
        last = hand.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
        w.appended += TableHandAction.objects.bulk_create([
            TableHandAction(hand=hand, seq=last + i, record={"action": "undo"}, undoes=row, reason=reason,
                            by=w.by, at=w.now)
            for i, row in enumerate(reversed(undone), start=1)
        ])
        hand.phase = hand_state(hand).phase.value
        hand.ended_at = None
        hand.level = {k: v for k, v in hand.level.items() if k != "clock"}  # the clock was on the action undone
        hand.save(update_fields=["phase", "ended_at", "level"])
        w.hand = hand
        audit_hand(w, "tournament.table_hand_backed_up", hand, table=w.table.number, hand=hand.number,
                undone=[r.record for r in undone], reason=reason)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="back_up", work=work)


def rule_skipped_hand(*, table: DealtTable, by, key: str, expected_version: int, seat: int, ruling: str,
                      rng=SYSTEM_RANDOM) -> TableResult:
    """The director's ruling (or the floor's for him) on the hand of the player skipped when substantial action
    followed out of turn to his left (TDA-53-B): ``"dead"`` or ``"non-aggressive"``. The engine refuses it
    unless that hand waits for a ruling; the acts out of turn bind as made. Audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor rules on a skipped hand."))
    action = action_from_dict({"action": "skipped-hand", "seat": seat, "ruling": ruling})

    def work(w: TableWrite) -> None:
        hand, before, rows, last = hand_in_play(w)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: start the next hand."), "TDA-23")
        _apply(w, hand, before, action, rng, last=last, rows=rows)
        audit_hand(w, "tournament.table_skipped_hand_ruled", hand, table=w.table.number, hand=hand.number,
                   seat=seat, ruling=ruling)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="skipped_hand",
                          work=work)


def release_board(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """The director (or the floor for him) lets the dealer deal the board of a hand-for-hand all-in that
    was called (RP-08-F), audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor releases the board."))

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        if hand is None or Phase(hand.phase) in ENDED:
            raise RuleViolation(N_("No hand is in play: start the next hand."), "TDA-23")
        hand.level = {**hand.level, "board_released": True}
        hand.save(update_fields=["level"])
        w.hand = hand
        audit_hand(w, "tournament.table_board_released", hand, table=w.table.number, hand=hand.number)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="release_board", work=work)


def _options(table: DealtTable):
    tournament = Tournament.objects.get(pk=table.tournament_id)
    return event_reads.tournament_state(tournament).setup.options


def call_clock(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """The clock called on the player in turn (C-04: by the director, the floor, or the dealer when a player
    at the table asks, CC-115): the house's seconds (30, the last 10 counted aloud; or TDA-29's 25 + 5),
    on the tablet; when they run out the dealer records it (``clock_ran_out``). Audited."""

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        engine = hand_state(hand) if hand is not None else None
        if engine is None or engine.to_act is None:
            raise RuleViolation(N_("Nobody is to act: the clock runs on the player in turn"), "C-04")
        if "clock" in hand.level:
            raise RuleViolation(N_("The clock is already running on seat %(seat)s"), "C-04",
                                seat=hand.level["clock"]["seat"])
        options = _options(w.table)
        ends_at = w.now + timedelta(seconds=options.clock_seconds)
        hand.level = {**hand.level, "clock": {"seat": engine.to_act, "ends_at": ends_at.isoformat(),
                                              "seconds": options.clock_seconds,
                                              "countdown": options.clock_countdown_seconds}}
        hand.save(update_fields=["level"])
        w.hand = hand
        audit_hand(w, "tournament.table_clock_called", hand, table=w.table.number, hand=hand.number,
                seat=engine.to_act, seconds=options.clock_seconds)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="call_clock", work=work)


def clock_ran_out(*, table: DealtTable, by, key: str, expected_version: int, rng=SYSTEM_RANDOM) -> TableResult:
    """The clock called on the player in turn has run out (the server checks the time): the engine applies
    the house's outcome (C-05): his hand is dead, or, not facing a bet where the house follows TDA-29, he
    checks. Audited."""

    def work(w: TableWrite) -> None:
        hand = latest_hand(w.table)
        called = hand.level.get("clock") if hand is not None else None
        if called is None:
            raise RuleViolation(N_("No clock is running at this table."), "C-04")
        left = (datetime.fromisoformat(called["ends_at"]) - w.now).total_seconds()
        if left > 0:
            raise RuleViolation(N_("The clock still has %(seconds)s seconds to run."), "C-04",
                                seconds=int(left) + (left % 1 > 0))
        before, rows, last = replayed(hand)
        record = clock_expiry_record(before, _options(w.table))
        _apply(w, hand, before, action_from_dict(record), rng, last=last, rows=rows)
        audit_hand(w, "tournament.table_clock_ran_out", hand, table=w.table.number, hand=hand.number,
                seat=called["seat"], record=record)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="clock_ran_out", work=work)


def pause_table(*, table: DealtTable, by, key: str, expected_version: int, reason: str) -> TableResult:
    """The director (or the floor for him) stops play at a table, with the reason, until he resumes it
    (TDA-01): the tablet records nothing meanwhile. Audited."""
    reason = (reason or "").strip()[:200]
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor pauses a table."))
    if not reason:
        raise RuleViolation(N_("Say why play stops at this table."), "TDA-01")

    def work(w: TableWrite) -> None:
        w.table.paused_reason = reason
        w.audit("tournament.table_paused", table=w.table.number, reason=reason)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="pause", work=work)


def assign_dealer(*, table: DealtTable, by, key: str, expected_version: int, dealer) -> TableResult:
    """The floor (or the director) puts a dealer on duty at a table, or takes the one there off (``dealer``
    None): from then on only that dealer, the floor and the director deal there. A dealer rotating to the
    next table is put on duty there before the next dealer takes this one, so a dealer may be on duty at
    two tables for that moment. Audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor assigns the dealers."))
    if dealer is not None and not (dealer.is_active and has_role(dealer, Role.DEALER)):
        raise RuleViolation(N_("%(name)s is not one of the casino's active dealers."), None,
                            name=dealer.get_full_name() or dealer.get_username())

    def work(w: TableWrite) -> None:
        w.table.dealer = dealer
        # dealer_id: verify_audit compares the table's dealer on duty with the last one assigned (issue #34).
        w.audit("tournament.table_dealer_assigned", table=w.table.number,
                dealer=dealer.get_username() if dealer is not None else None,
                dealer_id=dealer.pk if dealer is not None else None)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="assign_dealer", work=work)


def resume_table(*, table: DealtTable, by, key: str, expected_version: int) -> TableResult:
    """Play goes on at a paused table (TDA-01). Audited."""
    if not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor resumes a table."))

    def work(w: TableWrite) -> None:
        if not w.table.paused_reason:
            raise RuleViolation(N_("Play is not paused at this table."), "TDA-01")
        w.table.paused_reason = ""
        w.audit("tournament.table_resumed", table=w.table.number)

    return write_at_table(table, by=by, key=key, expected_version=expected_version, action="resume", work=work)


# --- The table's deck (issue #39): changed as the house sets (C-17, TDA-26, CC-71), never at a player's request
# (CC-76); a defective one voids the hand (CC-72, CC-73, TDA-35-E, C-35) ------------------------------------


def deck_change_due(table: DealtTable, deck: Deck | None, options, level_now: int | None) -> str | None:
    """Why the table's deck must change before the next hand (``"level"``, ``"dealer_change"``), or None:
    the house's option C-17 against the level and the dealer it went into play with (CC-71, TDA-26)."""
    if deck is None or deck.state != Deck.State.IN_PLAY:
        return None
    return deck_rules.change_due(options.deck_change_on, level_in_play=deck.in_play_at.get("level"),
                                 level_now=level_now, dealer_in_play=deck.in_play_at.get("dealer"),
                                 dealer_now=table.dealer_id)


def _deck_for_the_hand(table: DealtTable, options, level_now: int | None) -> Deck | None:
    """The deck the next hand is dealt with: the table's, unless it was found defective (CC-72) or its change
    is due (C-17): then the dealer changes it first. A table with no deck recorded deals as before (None)."""
    if table.deck_id is None:
        return None
    deck = Deck.objects.get(pk=table.deck_id)
    if deck.state != Deck.State.IN_PLAY:
        raise RuleViolation(N_("Deck %(serial)s is out of play: put a new deck in play before the next hand."),
                            "CC-72", serial=deck.serial)
    due = deck_change_due(table, deck, options, level_now)
    if due == "level":
        raise RuleViolation(N_("The level changed: change the deck before the next hand."), "CC-71")
    if due == "dealer_change":
        raise RuleViolation(N_("The dealer changed: change the deck before the next hand."), "TDA-26")
    return deck


def _level_now(w: TableWrite) -> int | None:
    tournament = Tournament.objects.get(pk=w.table.tournament_id)
    state = event_reads.tournament_state(tournament)
    if state.setup is None:
        return None
    structure = Structure.from_dict(state.setup.structure)
    return clock.clock_at(structure, list(state.clock_events), w.now,
                          hand_for_hand_seconds=state.setup.options.hand_for_hand_seconds).level_number


def change_deck(*, table: DealtTable, by, key: str, expected_version: int, deck: Deck | int,
                reason: str) -> TableResult:
    """The table's deck changed between hands: the one in play retired, ``deck`` (issued to this table and
    checked, THB-21) put in play, with the level and the dealer it starts under. ``reason``: ``"level"`` or
    ``"dealer_change"`` (the change due, as the house sets: C-17, TDA-26, CC-71), ``"director"`` (his word:
    only he or the floor for him), ``"player"`` (refused: CC-76) or, for the first deck or one out of play,
    anything. Audited; the hands from then on name the new deck."""
    reason = str(reason or "")
    if reason == "director" and not runs_the_floor(by, table):
        raise NotAllowed(N_("Only the tournament director or the floor orders a deck change."))

    def work(w: TableWrite) -> None:
        last = latest_hand(w.table)
        if last is not None and Phase(last.phase) not in ENDED:
            raise RuleViolation(N_("The deck changes between hands: finish the hand in play."), "CC-71")
        new = Deck.objects.select_for_update().filter(pk=getattr(deck, "pk", deck)).first()
        if new is None or new.place != w.table.group_name:
            raise RuleViolation(N_("That deck was not issued to this table."), "THB-21")
        old = Deck.objects.select_for_update().get(pk=w.table.deck_id) if w.table.deck_id else None
        options = _options(w.table)
        level = _level_now(w)
        if old is not None and old.state == Deck.State.IN_PLAY:
            deck_rules.verify_change(reason, options.deck_change_on)  # a player's request: CC-76
            due = deck_change_due(w.table, old, options, level)
            if reason in ("level", "dealer_change") and due != reason:
                raise RuleViolation(N_("No %(reason)s since this deck went into play: the house changes it then "
                                       "or when the director says."), "C-17",
                                    reason=deck_rules.CHANGE_PHRASES.get(reason, reason))
        context = {"level": level, "dealer": w.table.dealer_id, "table": w.table.number}
        decks.change_decks(old=old, new=new, by=w.by, key=w.key, place=w.table.group_name, reason=reason,
                           context=context)
        w.table.deck = new
        w.audit("tournament.table_deck_changed", table=w.table.number, deck=new.serial, deck_id=new.pk,
                old=old.serial if old is not None else None, reason=reason, level=level)

    return write_at_table(table, by=by, key=key, expected_version=expected_version,
                          action=asked_for("change_deck", {"deck": getattr(deck, "pk", deck), "reason": reason}),
                          work=work)


def declare_defective_deck(*, table: DealtTable, by, key: str, expected_version: int, defect: str,
                           reason: str = "", rng=SYSTEM_RANDOM) -> TableResult:
    """The table's deck found defective (CC-72: two identical cards, different backs, missing or extra cards):
    a hand in play is stopped and every bet returned (TDA-35-E, CC-73, C-35: the engine's defective deck), the
    deck retired as defective with its reason, and the floor told at once (the console's group, the alert).
    The next hand waits for a new deck. Audited."""
    reason = (reason or "").strip()[:200]

    def work(w: TableWrite) -> None:
        if w.table.deck_id is None:
            raise RuleViolation(N_("No deck is recorded in play at this table."), "CC-72")
        old = Deck.objects.select_for_update().get(pk=w.table.deck_id)
        decks.engine_deck(old).verify_declare_defective(defect)
        hand, before, rows, last = hand_in_play(w)
        voided = None
        if hand is not None and Phase(hand.phase) not in ENDED:
            _apply(w, hand, before, action_from_dict({"action": "defective-deck"}), rng, last=last, rows=rows)
            voided = hand.number
        decks.declare_defective(deck=old, by=w.by, key=f"{w.key}:defective"[:100], expected_version=None,
                                defect=defect, reason=reason)
        w.event = "deck-defective"
        w.alerts.append(gettext("Defective deck: the hand is void and every bet returned; the floor is told (CC-72)."))
        details = {"table": w.table.number, "deck": old.serial, "deck_id": old.pk, "defect": defect, "reason": reason}
        if voided is not None:  # the rows the engine appended are audited with the hand's digests
            audit_hand(w, "tournament.table_deck_defective", hand, hand=voided, **details)
        else:
            w.audit("tournament.table_deck_defective", **details)

    return write_at_table(table, by=by, key=key, expected_version=expected_version,
                          action=asked_for("defective_deck", {"defect": defect}), work=work)
