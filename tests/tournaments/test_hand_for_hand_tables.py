"""Hand-for-hand synchronises several tables (issue #36 item 9; CC-11, RP-08-F): one table alone is never put
hand-for-hand and deals its all-in board at once; at two tables a board is held only while the other table's
hand of the deal still runs; when one table is left, hand-for-hand ends by itself."""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)

FLOP = {"action": "deal-flop", "cards": ["2c", "7d", "9h"]}


def state(t):
    t.refresh_from_db()
    return event_reads.tournament_state(t)


def all_in_and_called(table, dealer):
    at(table, dealing.act, dealer, record={"action": "all-in", "seat": to_act(table)})
    at(table, dealing.act, dealer, record={"action": "call", "seat": to_act(table)})
    while to_act(table) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": to_act(table)})


def fold_to_the_big_blind(table, dealer):
    while to_act(table) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": to_act(table)})
    at(table, dealing.act, dealer, record={"action": "award-pots"})


def test_cc11_at_one_table_hand_for_hand_is_never_required(first_table, dealer_dana_here, event_in_play,
                                                            director_dora):
    event_in_play.refresh_from_db()
    version = event_in_play.version
    with pytest.raises(RuleViolation) as refused:
        act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    assert refused.value.clause == "CC-11"
    event_in_play.refresh_from_db()
    assert event_in_play.version == version and not state(event_in_play).hand_for_hand
    # the table deals on, and an all-in board is dealt at once
    at(first_table, dealing.start_hand, dealer_dana_here)
    all_in_and_called(first_table, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record=FLOP)
    assert len(hand_reads.hand_state(hand_in_play(first_table)).board) == 3


def test_rp08f_the_board_is_held_while_the_other_tables_hand_runs_and_dealt_once_it_ends(
    two_dealt_tables, dealer_dana_here, two_tables_in_play, director_dora
):
    one, other = two_dealt_tables
    act(services.clock_command, two_tables_in_play, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, two_tables_in_play, director_dora, kind="hand_for_hand_hand")
    at(one, dealing.start_hand, dealer_dana_here)
    at(other, dealing.start_hand, dealer_dana_here)
    all_in_and_called(one, dealer_dana_here)
    with pytest.raises(RuleViolation) as refused:
        at(one, dealing.act, dealer_dana_here, record=FLOP)
    assert refused.value.clause == "RP-08-F"
    fold_to_the_big_blind(other, dealer_dana_here)  # the other table's hand of this deal is over
    at(one, dealing.act, dealer_dana_here, record=FLOP)  # nothing left to wait for: no release needed
    assert len(hand_reads.hand_state(hand_in_play(one)).board) == 3
    assert not AuditEvent.objects.filter(action="tournament.table_board_released").exists()


def test_cc11_hand_for_hand_ends_by_itself_when_the_final_table_is_drawn(two_tables_in_play, director_dora,
                                                                        floor_fede):
    act(services.clock_command, two_tables_in_play, director_dora, kind="hand_for_hand_on")
    e = state(two_tables_in_play).entry(1)
    act(services.record_bust, two_tables_in_play, floor_fede, table=e.table, seat=e.seat, hand=1)
    assert state(two_tables_in_play).hand_for_hand  # two tables still play until the moves are made
    pending = state(two_tables_in_play).pending_plan
    act(services.confirm_plan, two_tables_in_play, floor_fede, proposed=pending[0])
    after = state(two_tables_in_play)
    assert sum(1 for t in after.tables if t.count >= 2) == 1
    assert not after.hand_for_hand
    assert event_reads.tournament_record(two_tables_in_play)[-1]["kind"] == "hand_for_hand_off"
