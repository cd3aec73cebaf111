"""Rewriting history behind the application's back is caught by verify_audit (issue #12, item 6).

The attacker here holds the tables' owner's credentials (the application's own role cannot even try:
tests/casino/test_db_roles.py), so the append-only triggers are out of the way: each rewrite is what
the issue reproduced, and verify_audit must now say the log is broken.
"""

import json
from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.models import KEYED, UNKEYED, AuditEvent
from tables import services
from tables.models import HandAction
from tests.tables.helpers import act, play_to_settlement

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_hands_played(bonus_paid_without_release, open_table, dealer_dana, quick_passwords):
    """THB-1 with two hands settled (Box 1's Bonus is 5 in each), its stream anchored as the periodic
    `anchor_audit` would."""
    for _ in range(2):
        act(services.start_hand, open_table, dealer_dana)
        play_to_settlement(open_table, dealer_dana)
    call_command("anchor_audit")
    return open_table


@contextmanager
def past_the_append_only_trigger(table):
    """What the table's owner can do: switch the trigger off."""
    with connection.cursor() as cursor:
        # The test's transaction still holds the deferred foreign-key checks of the hands just played.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only")
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only")


def _first_bonus_bet(table):
    return HandAction.objects.filter(hand__table=table, kind="place-bonus", record__box=1).order_by("hand_id", "seq")[0]


def _raise_the_bonus_in_the_hand_actions(row, amount):
    with past_the_append_only_trigger("tables_handaction"), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_handaction SET record = %s WHERE id = %s",
                       [json.dumps({**row.record, "amount": amount}), row.pk])


def _verify_fails(match):
    with pytest.raises(CommandError, match=match) as failure:
        call_command("verify_audit")
    return str(failure.value)


def test_verify_audit_passes_on_an_untouched_casino_with_hands_played(two_hands_played, capsys):
    call_command("verify_audit")
    out = capsys.readouterr().out
    assert "Audit log intact:" in out
    assert "Anchors: 1 checked against the log" in out
    assert "Hands: 2 checked against the actions the log recorded for them." in out


def test_a_bonus_bet_changed_in_the_hand_actions_fails_verify_audit(two_hands_played):
    bonus = _first_bonus_bet(two_hands_played)
    _raise_the_bonus_in_the_hand_actions(bonus, 100)
    assert HandAction.objects.get(pk=bonus.pk).record["amount"] == 100
    failure = _verify_fails(rf"hand 1 \(id \d+\), action #{bonus.seq} \(place-bonus\): the stored action differs "
                            "from the one the audit log recorded")
    # What the issue saw: the replayed house net no longer matches the one the hand was settled with.
    assert "hand 1" in failure and "its stored result ({'phase': 'settled', 'pending_approvals': 0, 'house_net': " in (
        failure)


def test_a_hand_result_changed_in_the_hands_table_fails_verify_audit(two_hands_played):
    from tables.models import Hand

    hand = two_hands_played.hands.get(number=2)
    Hand.objects.filter(pk=hand.pk).update(house_net=hand.house_net + 1000)
    _verify_fails(rf"hand 2 \(id \d+\): its stored result \(.*'house_net': {hand.house_net + 1000}\}}\) is not what "
                  rf"its actions replay to \(.*'house_net': {hand.house_net}\}}\)")


def test_a_hand_action_the_log_never_recorded_fails_verify_audit(two_hands_played, dealer_dana):
    """An extra row slipped into a settled hand with INSERT, which the application's role may do."""
    from django.utils import timezone

    hand = two_hands_played.hands.get(number=2)
    HandAction.objects.create(hand=hand, seq=99, kind="place-bonus", record={"action": "place-bonus", "box": 3,
                              "amount": 25}, actor=dealer_dana, role="dealer", at=timezone.now(), key="forged")
    _verify_fails(r"hand 2 \(id \d+\), action #99 \(place-bonus\): the audit log never recorded this action")


def test_a_dealt_hand_with_an_undo_verifies_and_its_shoe_is_checked_by_its_hash(two_hands_played, dealer_dana,
                                                                                  capsys):
    from tests.tables.helpers import ante, play

    act(services.start_hand, two_hands_played, dealer_dana, mode="dealt")
    play(two_hands_played, dealer_dana, ante(1, 10))
    act(services.undo_last_action, two_hands_played, dealer_dana, reason="wrong box")
    play(two_hands_played, dealer_dana, ante(2, 10))
    call_command("verify_audit")
    assert "Hands: 3 checked" in capsys.readouterr().out
    shoe = HandAction.objects.get(hand__number=3, hand__table=two_hands_played, kind="load-shoe")
    cards = shoe.record["cards"]
    with past_the_append_only_trigger("tables_handaction"), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_handaction SET record = %s WHERE id = %s",
                       [json.dumps({**shoe.record, "cards": [cards[1], cards[0], *cards[2:]]}), shoe.pk])
    _verify_fails(r"hand 3 \(id \d+\), action #1 \(load-shoe\): the stored action differs")


def _rewrite_the_stream_from(event, details, *, scheme, key=None):
    """Edit ``event`` and recompute every following hash so that each event points to the one before."""
    later = list(AuditEvent.objects.filter(stream=event.stream, seq__gte=event.seq).order_by("seq"))
    prev_hash = event.prev_hash
    with past_the_append_only_trigger("casino_auditevent"):
        for each in later:
            if each.pk == event.pk:
                each.details = details
            each.prev_hash, each.scheme = prev_hash, scheme
            each.hash = each.compute_hash(key)
            AuditEvent.objects.filter(pk=each.pk).update(details=each.details, prev_hash=each.prev_hash,
                                                         scheme=each.scheme, hash=each.hash)
            prev_hash = each.hash


@pytest.mark.parametrize(
    ("how", "found"),
    [
        # Without the key: plain SHA-256 under the keyed label, or as an event from before the key.
        ("sha256 under the keyed label", "its content does not match its hash"),
        ("downgraded to unkeyed", "hashed without the audit key after keyed event #1"),
        # An insider who holds the key too: only the anchor written before tells.
        ("with the audit key", "its hash differs from the one anchored at .*: the chain was rewritten"),
    ],
)
def test_an_edited_event_with_the_following_hashes_recomputed_fails_verify_audit(two_hands_played, settings,
                                                                                  how, found):
    bonus = _first_bonus_bet(two_hands_played)
    event = AuditEvent.objects.get(action="hand.action", object_id=str(bonus.hand_id), details__seq=bonus.seq)
    details = {**event.details, "record": {**event.details["record"], "amount": 100}}
    # The attacker changes the stored bet too, so that the hand and its audit event agree.
    _raise_the_bonus_in_the_hand_actions(bonus, 100)
    if how == "with the audit key":
        _rewrite_the_stream_from(event, details, scheme=KEYED, key=settings.AUDIT_KEY.encode())
    elif how == "downgraded to unkeyed":
        _rewrite_the_stream_from(event, details, scheme=UNKEYED)
    else:
        _rewrite_the_stream_from(event, details, scheme=KEYED, key=b"a guess at the key")
    _verify_fails(found)


def test_a_deleted_tail_of_a_stream_fails_verify_audit(two_hands_played):
    stream = f"tables.table.{two_hands_played.pk}"
    last = AuditEvent.objects.filter(stream=stream).order_by("-seq")[0]
    with past_the_append_only_trigger("casino_auditevent"):
        AuditEvent.objects.filter(stream=stream, seq__gt=last.seq - 3).delete()
    _verify_fails(rf"stream {stream} ends at event #{last.seq - 3} but event #{last.seq} was anchored at .*: "
                  "its tail was deleted")
