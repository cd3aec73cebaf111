"""A hand's start and level in the record and the export (issue #36 item 11; TDA-23): the record's ``hand``
event and the exported hand line say when the hand started and at which level, every other field kept."""

from __future__ import annotations

import json

import pytest

from casino.rules.holdem.replay import replay_holdem_hand
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services, writing
from tournaments.reads import event as event_reads
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)

#: The hand event's fields before issue #36: the record only gains ``started_at`` and ``level``.
HAND_FIELDS_BEFORE = {"seq", "at", "type", "table", "hand", "button", "small_blind", "big_blind", "players",
                      "hand_for_hand_hand"}


def a_hand_folded_to_the_big_blind(table, dealer):
    at(table, dealing.start_hand, dealer)
    while to_act(table) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": to_act(table)})
    at(table, dealing.act, dealer, record={"action": "award-pots"})
    return hand_in_play(table)


def test_tda23_the_records_hand_event_says_when_the_hand_started_and_at_which_level(first_table, dealer_dana_here,
                                                                                    event_in_play):
    hand = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    event = event_reads.tournament_record(event_in_play)[hand.reported_seq - 1]
    assert event["type"] == "hand" and set(event) == HAND_FIELDS_BEFORE | {"started_at", "level"}
    assert event["level"] == 1
    assert event["started_at"] == writing._iso(hand.started_at)
    assert event["started_at"] <= event["at"]  # it started before its award was recorded


def test_tda23_the_exported_hand_line_carries_its_start_and_level_and_still_replays(first_table, dealer_dana_here,
                                                                                   event_in_play):
    hand = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    (text,) = list(hand_reads.hand_lines_text(event_in_play))
    line = json.loads(text)
    assert line["level"] == 1 and line["started_at"] == writing._iso(hand.started_at)
    assert {"game", "hand", "blinds", "button", "stacks", "actions", "rules", "mode"} <= set(line)
    replayed = replay_holdem_hand(line)
    assert "error" not in replayed and replayed["stacks"]


def test_tda23_a_hand_the_floor_reports_carries_its_start_and_level_when_given(event_in_play, floor_fede):
    from datetime import UTC, datetime

    from tests.tournaments.conftest import act

    table = event_reads.tournament_state(event_in_play).tables[0]
    (sa, _a), (sb, _b) = table.players[:2]
    started = datetime(2026, 11, 29, 18, 5, tzinfo=UTC)
    act(services.report_hand, event_in_play, floor_fede, table=table.table, hand=1, button=sa, small_blind_seat=sa,
        big_blind_seat=sb, stacks_at_start={sa: 10_000, sb: 10_000}, stacks_at_end={sa: 9_975, sb: 10_025},
        started_at=started, level=1)
    event = event_reads.tournament_record(event_in_play)[-1]
    assert event["started_at"] == "2026-11-29T18:05:00Z" and event["level"] == 1
    act(services.report_hand, event_in_play, floor_fede, table=table.table, hand=2, button=sb, small_blind_seat=sb,
        big_blind_seat=sa, stacks_at_start={}, stacks_at_end={})
    assert "started_at" not in event_reads.tournament_record(event_in_play)[-1]  # not known: not invented
