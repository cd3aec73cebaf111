"""The dealers' rotation in the tournament room (issue #38 item 5; RP-07): the floor sets it from the console, the
table's dealer on duty follows it between hands, never in the 90 s before a level change or a break.

Time passing is the rotation's start moved back (the schedule is a function of its start, the clock and now)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from tests.conftest import _staff
from tests.tournaments.conftest import act, english_client, form_guard
from tournaments import services
from tournaments.models import DealerRotation
from tournaments.reads import hands as hand_reads
from tournaments.reads import rotation as rotation_reads
from tournaments.services import dealing, rotation

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dealer_diego(django_user_model, quick_passwords):
    return _staff(django_user_model, "diego", "dealer", "Diego")


def at(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def rotate(event, by, dealers, tables, down=20):
    return act(rotation.set_rotation, event, by, dealers=dealers, tables=tables, down_minutes=down)


def minutes_pass(event, minutes):
    """The rotation started ``minutes`` earlier than it did: that much time has passed for it."""
    row = DealerRotation.objects.get(tournament=event)
    row.starts_at -= timedelta(minutes=minutes)
    row.save(update_fields=["starts_at"])


def fold_to_the_end(table, by):
    hand = hand_reads.latest_hand(table)
    while (state := hand_reads.hand_state(hand)).to_act is not None and state.phase.value == "betting":
        at(table, dealing.act, by, record={"action": "fold", "seat": state.to_act})
        hand = hand_reads.latest_hand(table)
    at(table, dealing.act, by, record={"action": "award-pots"})
    return hand


def test_the_floor_sets_the_rotation_audited_and_its_first_dealer_takes_the_table_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):
    rotate(event_in_play, floor_fede, [dealer_diego, dealer_dana_here], [first_table.number])
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk
    assert AuditEvent.objects.filter(action="tournament.dealer_rotation_set", details__down_minutes=20).exists()
    handed = AuditEvent.objects.get(action="tournament.table_dealer_assigned", details__rotation=True)
    assert handed.details["dealer_id"] == dealer_diego.pk and handed.details["relieved"] == "dana"


def test_a_change_due_during_a_hand_waits_for_the_hands_end_TDA_23(first_table, event_in_play, floor_fede,
                                                                   dealer_diego, dealer_dana_here):
    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego], [first_table.number])
    at(first_table, dealing.start_hand, dealer_dana_here)
    minutes_pass(event_in_play, 21)
    hand = hand_reads.latest_hand(first_table)
    # mid-hand: Dana deals on, and no hand-over is made
    seat = hand_reads.hand_state(hand).to_act
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_dana_here.pk
    with pytest.raises(RuleViolation) as refused:
        at(first_table, rotation.hand_over, dealer_dana_here)
    assert refused.value.clause == "TDA-23"
    fold_to_the_end(first_table, dealer_dana_here)
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk  # at the hand's end
    at(first_table, dealing.start_hand, dealer_diego)


def test_a_relieved_dealer_deals_no_new_hand_and_hands_the_table_over_RP_07(first_table, event_in_play, floor_fede,
                                                                           dealer_diego, dealer_dana_here):
    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego], [first_table.number])
    with pytest.raises(RuleViolation) as refused:
        at(first_table, rotation.hand_over, dealer_dana_here)  # nothing due yet
    assert refused.value.clause == "RP-07"
    minutes_pass(event_in_play, 21)
    with pytest.raises(RuleViolation, match="Diego") as refused:
        at(first_table, dealing.start_hand, dealer_dana_here)
    assert refused.value.clause == "RP-07" and hand_reads.latest_hand(first_table) is None
    at(first_table, rotation.hand_over, dealer_dana_here)
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk
    at(first_table, dealing.start_hand, dealer_diego)


def test_no_change_is_made_in_the_90_seconds_before_a_level_change_RP_07(first_table, event_in_play, floor_fede,
                                                                         director_dora, dealer_diego,
                                                                         dealer_dana_here):
    # the level now ends in 60 s; the rotation's first change falls due now: it waits for the level change
    reading = rotation_reads.clock_reading(event_in_play)
    act(services.clock_command, event_in_play, director_dora, kind="adjust", seconds=-(reading.seconds_left - 60))
    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego], [first_table.number])
    minutes_pass(event_in_play, 20)
    plan = rotation_reads.schedule_at(event_in_play, timezone.now())
    assert plan.current.index == 0
    level_ends = rotation_reads.clock_reading(event_in_play).step_ends_at
    assert plan.next_at == level_ends
    with pytest.raises(RuleViolation) as refused:
        at(first_table, rotation.hand_over, floor_fede)
    assert refused.value.clause == "RP-07"
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_dana_here.pk
    at(first_table, dealing.start_hand, dealer_dana_here)  # she is not relieved


def test_a_change_just_outside_the_90_seconds_is_made_RP_07(first_table, event_in_play, floor_fede, director_dora,
                                                            dealer_diego, dealer_dana_here):
    reading = rotation_reads.clock_reading(event_in_play)
    act(services.clock_command, event_in_play, director_dora, kind="adjust", seconds=-(reading.seconds_left - 100))
    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego], [first_table.number])
    minutes_pass(event_in_play, 20)
    at(first_table, rotation.hand_over, floor_fede)
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk


def test_a_rotation_without_a_dealer_for_every_table_is_refused_and_nothing_is_stored_THB_72(
        first_table, event_in_play, floor_fede):
    with pytest.raises(RuleViolation) as refused:
        rotate(event_in_play, floor_fede, [], [first_table.number])
    assert refused.value.clause == "THB-72"
    assert not DealerRotation.objects.exists()


def test_only_the_casinos_active_dealers_rotate(first_table, event_in_play, floor_fede, django_user_model):
    pit_boss = _staff(django_user_model, "pat", "pit_boss", "Pat")
    with pytest.raises(RuleViolation, match="not one of the casino's active dealers"):
        rotate(event_in_play, floor_fede, [pit_boss], [first_table.number])
    assert not DealerRotation.objects.exists()


def test_a_dealer_does_not_set_the_rotation(first_table, event_in_play, dealer_dana_here, dealer_diego):
    from casino.writes import NotAllowed

    with pytest.raises(NotAllowed):
        rotate(event_in_play, dealer_dana_here, [dealer_dana_here, dealer_diego], [first_table.number])


def test_the_console_sets_the_rotation_and_shows_who_deals_where_and_the_next_change_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):
    client = english_client(floor_fede)
    page = client.get(f"/tournaments/{event_in_play.pk}/").content.decode()
    assert 'data-action="set-rotation"' in page
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/set-rotation/",
                         {**form_guard(event_in_play), "dealers": [dealer_dana_here.pk, dealer_diego.pk],
                          "tables": str(first_table.number), "down_minutes": "25"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'data-rotation-table="{first_table.number}"' in html and "Dana" in html and "Diego" in html
    assert "Next change at" in html
    row = DealerRotation.objects.get(tournament=event_in_play)
    assert row.down_minutes == 25 and row.dealers == [dealer_dana_here.pk, dealer_diego.pk]


@pytest.mark.parametrize("fields", [{"dealers": ["abc"]}, {"dealers": []}, {"tables": ""}, {"down_minutes": "0"},
                                    {"dealers": ["999999"]}])
def test_a_rotation_form_the_console_cannot_read_is_refused_with_a_message(first_table, event_in_play, floor_fede,
                                                                           dealer_diego, fields):
    client = english_client(floor_fede)
    post = {**form_guard(event_in_play), "dealers": [dealer_diego.pk], "tables": str(first_table.number),
            "down_minutes": "20", **fields}
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/set-rotation/", post, HTTP_HX_REQUEST="true")
    assert answer.status_code in (400, 422)
    assert not DealerRotation.objects.exists()


def test_the_tablet_says_when_the_next_change_is_and_the_relieved_dealers_tap_says_who_took_over_RP_07(
        first_table, event_in_play, floor_fede, dealer_diego, dealer_dana_here):
    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego],
           [first_table.number])
    client = english_client(dealer_dana_here)
    path = f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/"
    page = client.get(path).content.decode()
    assert "Next dealer change at" in page and "Diego" in page and "then your break" in page
    at(first_table, dealing.start_hand, dealer_dana_here)
    minutes_pass(event_in_play, 21)
    hand = hand_reads.latest_hand(first_table)
    while (state := hand_reads.hand_state(hand)).to_act is not None and state.phase.value == "betting":
        first_table.refresh_from_db()
        answer = client.post(path + "fold/", {"version": first_table.version, "key": uuid.uuid4().hex,
                                              "seat": state.to_act}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        hand = hand_reads.latest_hand(first_table)
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_dana_here.pk  # the hand is not over until its pot is awarded
    answer = client.post(path + "award-pots/", {"version": first_table.version, "key": uuid.uuid4().hex},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "data-handed-over" in html and "Diego deals here now" in html and "Your break." in html
    assert client.get(path).status_code == 403


def test_the_audit_log_agrees_with_the_dealers_the_rotation_put_on_duty(first_table, event_in_play, floor_fede,
                                                                        dealer_diego, dealer_dana_here):
    from django.core.management import call_command

    rotate(event_in_play, floor_fede, [dealer_dana_here, dealer_diego], [first_table.number])
    minutes_pass(event_in_play, 21)
    at(first_table, rotation.hand_over, floor_fede)
    call_command("verify_audit")  # raises on a table whose dealer on duty the log does not name
