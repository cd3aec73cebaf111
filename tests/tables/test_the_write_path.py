"""The one write path: lock, idempotency key, version, role and object, announce after commit."""

from __future__ import annotations

import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from casino.writes import KeyUsedElsewhere
from tables import services, sessions
from tables.models import HandAction, Table, TableRequest, pit_group

from .helpers import CLOSE_BETS, DEAL, act, ante, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def test_a_double_tap_with_the_same_key_is_applied_once_and_answered_as_a_duplicate(hand_started, dealer_dana):
    request = {"table": hand_started, "by": dealer_dana, "key": "tap-1", "expected_version": hand_started.version,
               "record": ante(1, 10)}
    first = services.record_action(**request)
    again = services.record_action(**request)
    assert first.duplicate is False and again.duplicate is True
    assert again.table_version == first.table_version and again.hand_id == first.hand_id
    assert HandAction.objects.filter(kind="place-ante").count() == 1
    hand_started.refresh_from_db()
    assert hand_started.version == first.table_version


def test_a_retry_after_the_table_moved_on_is_still_a_duplicate_not_a_stale_version(hand_started, dealer_dana):
    version = hand_started.version
    first = services.record_action(table=hand_started, by=dealer_dana, key="k", expected_version=version,
                                   record=ante(1, 10))
    play(hand_started, dealer_dana, ante(2, 10))
    retry = services.record_action(table=hand_started, by=dealer_dana, key="k", expected_version=version,
                                   record=ante(1, 10))
    assert retry.duplicate and retry.table_version == first.table_version


def test_a_key_is_unique_per_table_in_the_database_itself(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    stored = TableRequest.objects.filter(table=hand_started).last()
    with pytest.raises(IntegrityError), transaction.atomic():
        TableRequest.objects.create(table=hand_started, key=stored.key, action="x", by=dealer_dana, at=stored.at,
                                    table_version=1)


def test_the_same_key_at_another_table_is_another_request(hand_started, table_two, dealer_dana, dealer_diego):
    sessions.request_opening(table=table_two, by=dealer_diego, key="same",
                             expected_version=table_two.version)
    result = services.record_action(table=hand_started, by=dealer_dana, key="same",
                                    expected_version=hand_started.version, record=ante(1, 10))
    assert result.duplicate is False


def test_someone_elses_key_is_refused(hand_started, dealer_dana, pit_boss_pat):
    services.record_action(table=hand_started, by=dealer_dana, key="mine", expected_version=hand_started.version,
                           record=ante(1, 10))
    with pytest.raises(services.NotAllowed):
        services.record_action(table=hand_started, by=pit_boss_pat, key="mine", expected_version=0,
                               record=ante(1, 10))


def test_a_key_used_for_another_action_is_refused_and_nothing_is_applied(hand_started, dealer_dana):
    """Issue #34: the same person's key reused for another action was answered with the first action's stored
    result: the screen said the second was done. It is refused (the screens answer 409) and nothing changes."""
    play(hand_started, dealer_dana, ante(2, 10))
    hand_started.refresh_from_db()
    services.record_action(table=hand_started, by=dealer_dana, key="reused", expected_version=hand_started.version,
                           record=ante(1, 10))
    hand_started.refresh_from_db()
    version = hand_started.version
    with pytest.raises(KeyUsedElsewhere) as refused:
        services.undo_last_action(table=hand_started, by=dealer_dana, key="reused", expected_version=version,
                                  reason="wrong box")
    assert refused.value.message == "This request was already used for something else."
    hand_started.refresh_from_db()
    assert hand_started.version == version
    assert HandAction.objects.filter(record__box=1).count() == 1
    assert not HandAction.objects.filter(kind="undo").exists()


def test_the_tablet_answers_a_key_used_for_another_action_with_409(client, table_one, dealer_dana, pit_boss_pat):
    from django.test import Client

    from .screens import console, tablet

    pad, boss = tablet(client, dealer_dana, table_one), console(Client(), pit_boss_pat, table_one)
    pad.tap("open")
    boss.refresh()
    boss.tap("deck-check", approve="1")
    pad.refresh()
    pad.tap("start-hand", mode="recorded")
    pad.tap("bet", box="1", spot="ante", amount="10", key="reused")
    version = pad.version
    pad.tap("close-bets", key="reused", expect=409)
    assert "Esta petición ya se usó para otra cosa." in pad.html  # the dealer's language (es by default)
    table_one.refresh_from_db()
    assert table_one.version == version


def test_a_stale_version_is_refused_with_the_current_version_and_nothing_is_applied(hand_started, dealer_dana):
    seen = hand_started.version
    play(hand_started, dealer_dana, ante(1, 10))  # another screen acted first
    with pytest.raises(services.StaleVersion) as stale:
        services.record_action(table=hand_started, by=dealer_dana, key=uuid.uuid4().hex, expected_version=seen,
                               record=ante(2, 10))
    assert stale.value.current_version == seen + 1
    assert "refreshing" in str(stale.value)
    assert not HandAction.objects.filter(record__box=2).exists()


def test_the_dealer_of_another_table_is_refused(hand_started, dealer_diego):
    with pytest.raises(services.NotAllowed) as refused:
        act(services.record_action, hand_started, dealer_diego, record=ante(1, 10))
    assert isinstance(refused.value, PermissionDenied)


def test_a_pit_boss_cannot_record_a_dealers_action(hand_started, pit_boss_pat):
    with pytest.raises(services.NotAllowed):
        act(services.record_action, hand_started, pit_boss_pat, record=ante(1, 10))


def test_a_pit_boss_of_another_pit_cannot_confirm_the_deck_check_THB_21(table_one, dealer_dana, pit_boss_paula):
    act(sessions.request_opening, table_one, dealer_dana)
    with pytest.raises(services.NotAllowed):
        act(sessions.confirm_deck_check, table_one, pit_boss_paula)
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.OPENING


def test_the_dealer_cannot_approve_or_report_through_the_wrong_door(hand_started, dealer_dana):
    with pytest.raises(services.NotAllowed, match="pit boss's console"):
        act(services.record_action, hand_started, dealer_dana, record={"action": "approve-bonus", "box": 1})
    with pytest.raises(services.RuleViolation, match="irregularity menu"):
        act(services.record_action, hand_started, dealer_dana, record={"action": "report-dealer-card-exposed"})
    with pytest.raises(services.RuleViolation, match="not one of the irregularities"):
        act(services.report_irregularity, hand_started, dealer_dana, record=ante(1, 10))


def test_a_malformed_record_is_refused_by_the_engine(hand_started, dealer_dana):
    with pytest.raises(services.RuleViolation, match="not a Texas Hold'em Bonus action"):
        act(services.record_action, hand_started, dealer_dana, record={"action": "shuffle-up-and-deal"})
    with pytest.raises(services.RuleViolation, match="whole number"):
        act(services.record_action, hand_started, dealer_dana, record={"action": "place-ante", "box": 1,
                                                                       "amount": "10"})


def test_a_write_without_an_idempotency_key_is_a_programming_error(hand_started, dealer_dana):
    with pytest.raises(ValueError, match="idempotency key"):
        services.record_action(table=hand_started, by=dealer_dana, key="", expected_version=hand_started.version,
                               record=ante(1, 10))


def test_the_new_version_is_announced_to_the_table_and_its_pit_after_commit_only(
    hand_started, dealer_dana, django_capture_on_commit_callbacks
):
    layer = get_channel_layer()
    table_channel = async_to_sync(layer.new_channel)()
    pit_channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(hand_started.group_name, table_channel)
    async_to_sync(layer.group_add)(pit_group(hand_started.pit_id), pit_channel)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        result = play(hand_started, dealer_dana, ante(1, 10))
    announcements = [c for c in callbacks if "announce_change" in c.__qualname__]
    assert len(announcements) == 1  # one callback for both groups, and nothing is sent before commit
    for callback in announcements:
        callback()
    for channel in (table_channel, pit_channel):
        message = async_to_sync(layer.receive)(channel)
        assert message["version"] == result.table_version and message["table"] == hand_started.pk
        assert message["hand"] == result.hand_id and message["event"] == "hand-action"
        # Ids and a version only: never state, never cards (docs/realtime.md).
        assert set(message) == {"type", "group", "version", "event", "table", "hand"}


def test_a_refused_write_announces_nothing(hand_started, dealer_dana, django_capture_on_commit_callbacks):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(services.RuleViolation):
        play(hand_started, dealer_dana, ante(2, 10))
    assert callbacks == []
