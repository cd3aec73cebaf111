"""A table's write starts from the hand as recorded (issue #35: read under the table's lock, no copy of the
hand's state in Redis): a write in another process, or one rolled back, never leaves a tap to start from a
hand that is not the one recorded; the table's summary is left by the write for the screens."""

from __future__ import annotations

import json

import pytest
from django.core.cache import caches

from casino import reads
from casino.memo import another_process
from casino.rules.errors import RuleViolation
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments.reads import hands as hand_reads
from tournaments.rendering import phone as phone_screen
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def recorded(table) -> list[dict]:
    return [r.record for r in hand_reads.effective_rows(hand_in_play(table))]


def test_a_tap_after_a_write_in_another_process_reads_the_hand_as_recorded(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    folder = to_act(first_table)
    with another_process():  # another process records the next action
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": folder})
    # the folded player may not act again: the engine, started from the record, knows he folded
    with pytest.raises(RuleViolation):
        at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": folder})
    next_seat = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": next_seat})
    assert [r["action"] for r in recorded(first_table)][-3:] == ["call", "fold", "call"]


def test_a_refused_tap_leaves_nothing_for_the_next_one_to_start_from(first_table, dealer_dana_here):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    with pytest.raises(RuleViolation):
        at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": seat, "to": 60})  # < min
    at(first_table, dealing.act, dealer_dana_here, record={"action": "raise", "seat": seat, "to": 100})
    hand = hand_in_play(first_table)
    first_table.refresh_from_db()
    summary = hand_reads.table_summary(first_table)
    assert summary["pot"] == hand_reads.hand_state(hand).pot_total and summary["phase"] == hand.phase
    assert [r["action"] for r in recorded(first_table)][-1] == "raise"


@pytest.fixture
def shared_snapshots(settings):
    """The processes share snapshots through a cache that pickles as Redis does (a copy, never the object)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "tournament-summaries"}}
    settings.SHARE_SNAPSHOTS = True
    yield
    caches["default"].clear()


def test_the_tables_summary_is_left_by_the_write_for_both_processes_and_reads_nothing(
    first_table, dealer_dana_here, django_assert_num_queries, shared_snapshots
):
    at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    first_table.refresh_from_db()
    with django_assert_num_queries(0):
        from_the_write = hand_reads.table_summary(first_table)
    with another_process(), django_assert_num_queries(0):
        assert hand_reads.table_summary(first_table) == from_the_write  # from Redis
    caches["default"].clear()
    with another_process():
        assert hand_reads.table_summary(first_table) == from_the_write  # as read and replayed from the record
    assert from_the_write["to_act"] == to_act(first_table)


def test_a_summary_of_a_version_another_process_made_and_did_not_share_is_read_from_the_record(
    first_table, dealer_dana_here, settings
):
    settings.SHARE_SNAPSHOTS = False
    at(first_table, dealing.start_hand, dealer_dana_here)
    folder = to_act(first_table)
    with another_process():  # the fold is another process's write
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": folder})
    first_table.refresh_from_db()
    assert hand_reads.table_summary(first_table)["to_act"] == to_act(first_table) != folder


def test_the_shape_of_what_a_write_leaves_changes_with_a_field_added_or_renamed():
    from dataclasses import make_dataclass

    before = reads.shape_of(make_dataclass("Written", ["hand", "rows"]))
    assert reads.shape_of(make_dataclass("Written", ["hand", "rows"])) == before
    assert reads.shape_of(make_dataclass("Written", ["hand", "rows", "engine"])) != before
    assert reads.shape_of(make_dataclass("Written", ["hand", "records"])) != before


def test_a_taps_news_reads_only_the_links_where_the_write_shared_the_table(
    first_table, dealer_dana_here, shared_snapshots, event_in_play, director_dora, django_assert_num_queries
):
    """The phones' read of a tap (``phone_screen.read_tap``, once per tap and process) takes the table at the
    version its announcement names from what the write left: the table's row is not read again, only the
    links that may watch it."""
    from tournaments import services
    from tournaments.reads import event as event_reads
    from tournaments.reads import hands as hand_reads

    at(first_table, dealing.start_hand, dealer_dana_here)
    dealt = hand_reads.latest_hand(first_table).entries
    services.issue_entry_link(event_in_play.entries.get(number=next(iter(dealt.values()))), by=director_dora)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    first_table.refresh_from_db()
    with another_process():
        event_reads.board_at(event_in_play)  # the board this process's phones show
        phone_screen.read_tap(event_in_play.pk, first_table.pk, first_table.version - 1)  # knows the table by now
        with django_assert_num_queries(1) as queries:  # the links
            tap = phone_screen.read_tap(event_in_play.pk, first_table.pk, first_table.version)
    assert "casino_playerlink" in queries.captured_queries[0]["sql"]
    assert (tap.table.pk, tap.table.version) == (first_table.pk, first_table.version)
    assert json.loads(tap.message)["table_summary"]["hand"]["dealt"] == sorted(int(seat) for seat in dealt)
    assert len(tap.links) == 1
    assert phone_screen.read_tap(event_in_play.pk + 1, first_table.pk, first_table.version) is None  # not its event


def test_an_action_that_leaves_the_phase_does_not_write_the_hands_row_and_one_that_moves_it_does(
    first_table, dealer_dana_here
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    at(first_table, dealing.start_hand, dealer_dana_here)
    with CaptureQueriesContext(connection) as calling:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": to_act(first_table)})
    assert not [q for q in calling.captured_queries if q["sql"].startswith('UPDATE "tournaments_tablehand"')]
    assert hand_in_play(first_table).phase == "betting"
    while hand_in_play(first_table).phase == "betting":  # everyone calls or checks to the flop
        engine = hand_reads.hand_state(hand_in_play(first_table))
        move = "check" if engine.legal().call == 0 else "call"
        at(first_table, dealing.act, dealer_dana_here, record={"action": move, "seat": engine.to_act})
    assert hand_in_play(first_table).phase == hand_reads.hand_state(hand_in_play(first_table)).phase.value != "betting"
