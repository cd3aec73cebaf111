"""The dealer's tablet at a tournament table (issue #15): hands dealt through the Hold'em engine, their
end written into the event by itself (stacks, buttons, busts, the balancing that follows)."""

from __future__ import annotations

import uuid

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.holdem.replay import replay_holdem_hand
from casino.writes import NotAllowed
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import TableHand
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import corrections, dealing, play

pytestmark = pytest.mark.django_db(transaction=True)


def state(t):
    t.refresh_from_db()
    return event_reads.tournament_state(t)


def at(table, fn, by, **kwargs):
    """One tap on the tablet: a fresh key and the version the tablet shows."""
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def hand_in_play(table) -> TableHand:
    return hand_reads.latest_hand(table)


def to_act(table) -> int:
    return hand_reads.hand_state(hand_in_play(table)).to_act


def test_a_new_hand_posts_the_levels_blinds_where_the_button_says_TDA_23_C_25(first_table, dealer_dana_here,
                                                                              event_in_play):
    seats = state(event_in_play).table(first_table.number)
    at(first_table, dealing.start_hand, dealer_dana_here)
    hand = hand_in_play(first_table)
    engine = hand_reads.hand_state(hand)
    assert hand.number == 1 and hand.level["small_blind"] == 25 and hand.level["big_blind"] == 50
    assert set(engine.setup.stacks) == {s for s, _ in seats.players}
    posted = {s: 10_000 - c for s, c in engine.stacks.items() if c != 10_000}
    assert posted == {engine.setup.sb_seat: 25, engine.setup.bb_seat: 50}
    assert AuditEvent.objects.filter(action="tournament.table_hand_started").exists()


def test_a_hand_folded_to_the_big_blind_goes_into_the_event_with_its_stacks_and_button(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    hand = hand_in_play(first_table)
    bb = hand_reads.hand_state(hand).setup.bb_seat
    while hand_reads.hand_state(hand_in_play(first_table)).to_act is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    hand = hand_in_play(first_table)
    assert hand.phase == "complete" and hand.reported_seq is not None
    reported = event_reads.tournament_record(event_in_play)[hand.reported_seq - 1]
    assert reported["type"] == "hand" and reported["hand"] == 1 and reported["button"] == hand.level["where"]["button"]
    by_seat = {p["seat"]: p for p in reported["players"]}
    assert by_seat[bb]["end"] == 10_025 and sum(p["end"] for p in reported["players"]) == 40_000
    bb_entry = state(event_in_play).table(first_table.number).occupied()[bb]
    assert state(event_in_play).entry(bb_entry).stack == 10_025
    # The next hand: the button moved on (C-25).
    at(first_table, dealing.start_hand, dealer_dana_here)
    second = hand_in_play(first_table)
    assert second.number == 2 and second.level["where"]["button"] != hand.level["where"]["button"]


def test_the_award_locks_the_event_last_so_other_tables_hands_wait_only_for_its_report_and_commit(
    first_table, dealer_dana_here, event_in_play
):
    """Every table's hand's end goes into the one event, under the event's lock: the award takes it after the
    rest of its own write (its row, its audit event, its version, its request), not before. Hands that end
    together queue on it (docs/decisions/2026-11-27-event-lock-last.md)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    at(first_table, dealing.start_hand, dealer_dana_here)
    while hand_reads.hand_state(hand_in_play(first_table)).to_act is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    with CaptureQueriesContext(connection) as queries:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    statements = [q["sql"] for q in queries.captured_queries]
    locked = next(i for i, sql in enumerate(statements)
                  if 'FROM "tournaments_tournament"' in sql and "FOR UPDATE" in sql)
    after = statements[locked:]
    assert not any('"tournaments_dealttable"' in sql or '"tournaments_tablerequest"' in sql for sql in after)
    assert not any(f"tournaments.dealttable.{first_table.pk}'" in sql for sql in after)  # the table's audit
    hand = hand_in_play(first_table)
    assert hand.phase == "complete" and hand.reported_seq is not None  # and the hand did go into the event
    assert event_reads.tournament_record(event_in_play)[hand.reported_seq - 1]["type"] == "hand"


def test_an_absent_big_blinds_hand_is_killed_and_the_blinds_go_to_the_last_live_hand_TDA_30_CC_29(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    setup = hand_reads.hand_state(hand_in_play(first_table)).setup
    sb, bb = setup.sb_seat, setup.bb_seat
    at(first_table, dealing.act, dealer_dana_here, record={"action": "kill-hand", "seat": bb})
    while (seat := to_act(first_table)) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    hand = hand_in_play(first_table)
    reported = {p["seat"]: p for p in event_reads.tournament_record(event_in_play)[hand.reported_seq - 1]["players"]}
    assert reported[bb]["end"] == 9_950 and reported[sb]["end"] == 10_050  # the dead blind stays in the pot
    # The hand line writes the dead hand as the dealer's act, and replays to the recorded stacks.
    line = hand_reads.hand_line(hand)
    assert {"seat": bb, "act": "kill-hand"} in line["actions"]
    replayed = replay_holdem_hand(line)
    assert {int(s): c for s, c in replayed["stacks"].items()} == {s: p["end"] for s, p in reported.items()}


def test_a_hand_is_killed_only_at_the_end_of_the_deal_TDA_30(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    last = hand_reads.hand_state(hand_in_play(first_table)).setup.bb_seat
    with pytest.raises(RuleViolation) as late:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "kill-hand", "seat": last})
    assert late.value.clause == "TDA-30"


def test_an_illegal_amount_is_refused_with_its_clause_and_nothing_is_recorded_TDA_43(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    rows = hand_in_play(first_table).actions.count()
    seat = to_act(first_table)
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": seat, "to": 75})
    assert refused.value.clause.startswith("TDA-")  # a raise to 75 over a 50 big blind is short of the minimum
    assert hand_in_play(first_table).actions.count() == rows
    other = next(s for s in hand_reads.hand_state(hand_in_play(first_table)).setup.stacks if s != seat)
    with pytest.raises(RuleViolation):  # out of turn
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": other})
    assert hand_in_play(first_table).actions.count() == rows


def test_only_the_tablets_verbs_are_recorded_TDA_03(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "post-blinds"})
    assert refused.value.clause == "TDA-03"


def test_an_all_in_called_goes_to_showdown_the_engine_picks_the_winner_and_a_bust_ranks_in_the_event_CC_19(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    first = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "all-in", "seat": first})
    second = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": second})
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    for street, cards in (("deal-flop", {"cards": ["2c", "7d", "9h"]}), ("deal-turn", {"card": "Js"}),
                          ("deal-river", {"card": "Kc"})):
        at(first_table, dealing.act, dealer_dana_here, record={"action": street, **cards})
    engine = hand_reads.hand_state(hand_in_play(first_table))
    order = engine.showdown_order()
    shown = {first: ["As", "Ad"], second: ["3h", "4s"]}
    for seat in order:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "show", "seat": seat, "cards": shown[seat]})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    hand = hand_in_play(first_table)
    assert hand_reads.hand_state(hand).stacks[second] == 0
    busted_entry = hand.entries[str(second)]
    assert state(event_in_play).entry(busted_entry).status == "busted"
    assert state(event_in_play).players_left == 3
    # The exported hand replays to the stacks the tablet recorded.
    answer = replay_holdem_hand(hand_reads.hand_line(hand))
    assert answer["stacks"] == {str(s): c for s, c in sorted(hand_reads.hand_state(hand).stacks.items())}
    # A hand with a bust is the director's to correct in the record, not the dealer's to undo (TDA-01).
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.undo_last, dealer_dana_here, reason="wrong winner")
    assert refused.value.clause == "TDA-01" and state(event_in_play).entry(busted_entry).status == "busted"


def test_the_last_action_is_undone_with_a_reason_audited_and_the_start_is_not_CC_43(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
    with pytest.raises(RuleViolation, match="Say why"):
        at(first_table, dealing.undo_last, dealer_dana_here, reason=" ")
    at(first_table, dealing.undo_last, dealer_dana_here, reason="wrong seat tapped")
    assert to_act(first_table) == seat
    event = AuditEvent.objects.get(action="tournament.table_action_undone")
    assert event.details["reason"] == "wrong seat tapped" and event.details["undone"]["action"] == "fold"
    with pytest.raises(RuleViolation, match="misdeal"):
        at(first_table, dealing.undo_last, dealer_dana_here, reason="again")


def test_a_hand_ends_into_the_event_even_when_the_event_moved_on_in_the_same_moment_CC_19_C_15(
    first_table, dealer_dana_here, director_dora, event_in_play, monkeypatch
):
    """At a hundred tables another table's hand often ends (or the director pauses the clock) in the very
    moment a dealer awards a pot: the report goes into the event as it is at its lock, and the dealer's tap
    is not refused as a conflict for something that happened elsewhere."""
    # the director's pause commits between what the table's write knew of the event and its report
    monkeypatch.setattr(play, "report_hand", _after_a_clock_command(play.report_hand, event_in_play,
                                                                    director_dora, "pause"))
    at(first_table, dealing.start_hand, dealer_dana_here)
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    hand = hand_in_play(first_table)
    assert hand.phase == "complete" and hand.reported_seq is not None
    record = event_reads.tournament_record(event_in_play)
    assert record[hand.reported_seq - 1]["type"] == "hand" and record[hand.reported_seq - 2]["kind"] == "pause"
    # undoing the award takes it out of the event as it is then, too (C-15)
    monkeypatch.setattr(corrections, "withdraw_hand", _after_a_clock_command(corrections.withdraw_hand,
                                                                             event_in_play, director_dora, "resume"))
    at(first_table, dealing.undo_last, dealer_dana_here, reason="pushed the pot to the wrong seat")
    assert hand_in_play(first_table).reported_seq is None
    assert event_reads.tournament_record(event_in_play)[-1]["voids"] == hand.reported_seq


def _after_a_clock_command(service, tournament, by, kind):
    """``service`` as the dealing module calls it, the director's clock command committed just before."""

    def wrapped(**kwargs):
        act(services.clock_command, tournament, by, kind=kind)
        return service(**kwargs)
    return wrapped


def test_the_award_is_undone_until_the_next_deal_and_the_hand_leaves_the_record_C_15_CC_43(
    first_table, dealer_dana_here, event_in_play
):
    from casino.rules.tournament.record import verify_record

    at(first_table, dealing.start_hand, dealer_dana_here)
    before = {e.entry: e.stack for e in state(event_in_play).entries}
    while to_act(first_table) is not None:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": to_act(first_table)})
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    reported = hand_in_play(first_table).reported_seq
    assert {e.entry: e.stack for e in state(event_in_play).entries} != before
    at(first_table, dealing.undo_last, dealer_dana_here, reason="pushed the pot to the wrong seat")
    hand = hand_in_play(first_table)
    assert hand.phase == "award-pots" and hand.reported_seq is None
    correction = event_reads.tournament_record(event_in_play)[-1]
    assert correction["type"] == "correction" and correction["voids"] == reported
    assert {e.entry: e.stack for e in state(event_in_play).entries} == before  # the stacks before the hand
    assert AuditEvent.objects.filter(action="tournament.hand_withdrawn", details__voids=reported).exists()
    # awarded again, the hand goes back into the record; the record replays alone
    at(first_table, dealing.act, dealer_dana_here, record={"action": "award-pots"})
    again = hand_in_play(first_table).reported_seq
    assert again is not None and again != reported
    assert verify_record(event_reads.tournament_record(event_in_play)).ok
    # once the next deal starts, the hand stands (CC-43): the new hand's start is not undone
    at(first_table, dealing.start_hand, dealer_dana_here)
    with pytest.raises(RuleViolation) as locked:
        at(first_table, dealing.undo_last, dealer_dana_here, reason="too late")
    assert locked.value.clause == "CC-43"
    assert again not in state(event_in_play).voided


def test_the_next_hand_waits_for_the_hand_in_play_and_for_a_event_in_play_clock_CC_43_TDA_23(
    first_table, dealer_dana_here, event_in_play, director_dora
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    with pytest.raises(RuleViolation, match="not finished"):
        at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "misdeal"})
    act(services.clock_command, event_in_play, director_dora, kind="pause")
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.start_hand, dealer_dana_here)
    assert refused.value.clause == "TDA-23"


def test_a_misdeal_is_dealt_again_with_the_same_button_and_nothing_goes_into_the_event(
    first_table, dealer_dana_here, event_in_play
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    first = hand_in_play(first_table)
    events = len(event_reads.tournament_record(event_in_play))
    at(first_table, dealing.act, dealer_dana_here, record={"action": "misdeal"})
    assert hand_in_play(first_table).phase == "misdeal" and len(event_reads.tournament_record(event_in_play)) == events
    at(first_table, dealing.start_hand, dealer_dana_here)
    again = hand_in_play(first_table)
    assert again.number == 2 and again.level["where"]["button"] == first.level["where"]["button"]


def test_a_player_at_the_desk_cannot_drive_a_table(first_table, django_user_model):
    nobody = django_user_model.objects.create_user("walter", password="x")
    with pytest.raises(NotAllowed):
        at(first_table, dealing.start_hand, nobody)
