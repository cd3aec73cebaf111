"""The dealers' rotation of a pit (issue #38 item 5; RP-07): the pit boss sets it, each table's dealer on duty
follows it between hands, never mid-hand, and no change lands in the 90 s before the rotation's own breaks.

Time passing is the rotation's start moved back (the schedule is a function of its start, its breaks and now)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tables import services
from tables.models import Hand, PitRotation, Table
from tables.reads import pit_rotation_board, pit_schedule

from .helpers import act, play_to_settlement

pytestmark = pytest.mark.django_db(transaction=True)


def minutes_pass(pit, minutes):
    row = PitRotation.objects.get(pit=pit)
    row.starts_at -= timedelta(minutes=minutes)
    row.breaks = [[(timezone.datetime.fromisoformat(a) - timedelta(minutes=minutes)).isoformat(),
                   (timezone.datetime.fromisoformat(b) - timedelta(minutes=minutes)).isoformat()]
                  for a, b in row.breaks]
    row.save(update_fields=["starts_at", "breaks"])


def test_the_pit_boss_sets_the_rotation_audited_and_its_first_dealer_takes_the_table_RP_07(
        open_table, pit_boss_pat, dealer_dana, dealer_diego):
    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_diego, dealer_dana],
                              tables=[open_table], down_minutes=20)
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_diego.pk
    assert AuditEvent.objects.filter(action="table.dealer_rotation_set").exists()
    assert AuditEvent.objects.get(action="table.dealer_rotated").details["relieved"] == "dana"
    board = pit_rotation_board(open_table.pit_id, timezone.now())
    assert board["tables"][0]["dealer"] == "Diego" and board["resting"] == ["Dana"]


def test_a_change_due_during_a_hand_waits_for_the_hands_end_RP_07(open_table, pit_boss_pat, dealer_dana,
                                                                    dealer_diego):
    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                              tables=[open_table], down_minutes=20)
    act(services.start_hand, open_table, dealer_dana)
    minutes_pass(open_table.pit, 21)
    with pytest.raises(RuleViolation):
        act(services.hand_over_pit_table, open_table, dealer_dana)
    play_to_settlement(open_table, dealer_dana)
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_dana.pk  # box 1's A-A Bonus waits for the pit boss (THB-54)
    hand = Hand.objects.get(table=open_table)
    act(services.decide_award, open_table, pit_boss_pat, hand_id=hand.pk, box=1, approve=True)
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_diego.pk  # the hand is over
    act(services.start_hand, open_table, dealer_diego)


def test_a_relieved_dealer_starts_no_hand_and_hands_the_table_over_RP_07(open_table, pit_boss_pat, dealer_dana,
                                                                         dealer_diego):
    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                              tables=[open_table], down_minutes=20)
    minutes_pass(open_table.pit, 21)
    with pytest.raises(RuleViolation) as refused:
        act(services.start_hand, open_table, dealer_dana)
    assert refused.value.clause == "RP-07"
    act(services.hand_over_pit_table, open_table, dealer_dana)
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_diego.pk


def test_no_change_in_the_90_seconds_before_the_pits_break_nor_during_it_RP_07(open_table, pit_boss_pat,
                                                                              dealer_dana, dealer_diego):
    now = timezone.now()
    # the down ends at now + 20 min, 60 s before a break of 10 minutes: the change waits for the break's end
    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                              tables=[open_table], down_minutes=20,
                              breaks=[(now + timedelta(minutes=21), now + timedelta(minutes=31))])
    plan = pit_schedule(open_table.pit_id, timezone.now())
    assert plan.next_at == now + timedelta(minutes=31)  # the break's end
    minutes_pass(open_table.pit, 20)
    with pytest.raises(RuleViolation) as refused:
        act(services.hand_over_pit_table, open_table, pit_boss_pat)
    assert refused.value.clause == "RP-07"
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_dana.pk


def test_a_rotation_of_another_pits_table_or_by_a_dealer_is_refused_and_nothing_stored(
        open_table, pit_boss_pat, dealer_dana, dealer_diego):
    from tables.models import Pit

    other = Pit.objects.create(name="Pit B")
    far = Table.objects.create(pit=other, name="B-1", min_ante=5, max_ante=100)
    with pytest.raises(RuleViolation):
        services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                                  tables=[open_table, far], down_minutes=20)
    with pytest.raises(NotAllowed):
        services.set_pit_rotation(pit=open_table.pit, by=dealer_dana, dealers=[dealer_dana, dealer_diego],
                                  tables=[open_table], down_minutes=20)
    with pytest.raises(RuleViolation) as refused:
        services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[], tables=[open_table],
                                  down_minutes=20)
    assert refused.value.clause == "THB-72"
    assert not PitRotation.objects.exists()


def _console_client(user):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def test_the_pit_console_sets_the_rotation_and_shows_who_deals_where_RP_07(open_table, pit_boss_pat, dealer_dana,
                                                                             dealer_diego):
    client = _console_client(pit_boss_pat)
    page = client.get(f"/tables/pit/{open_table.pit_id}/").content.decode()
    assert 'data-action="set-rotation"' in page
    answer = client.post(f"/tables/pit/{open_table.pit_id}/rotation/",
                         {"dealers": [dealer_dana.pk, dealer_diego.pk], "tables": [open_table.pk],
                          "down_minutes": "30", "break_at": "23:30", "break_minutes": "15"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'data-rotation-table="{open_table.pk}"' in html and "Next change at" in html
    row = PitRotation.objects.get(pit=open_table.pit)
    assert row.dealers == [dealer_dana.pk, dealer_diego.pk] and row.down_minutes == 30 and len(row.breaks) == 1


@pytest.mark.parametrize("fields", [{"dealers": ["x"]}, {"dealers": []}, {"down_minutes": "0"},
                                    {"break_at": "25:99"}, {"dealers": ["999999"]}])
def test_a_rotation_form_the_pit_console_cannot_read_is_refused_with_a_message(open_table, pit_boss_pat,
                                                                                 dealer_dana, fields):
    client = _console_client(pit_boss_pat)
    post = {"dealers": [dealer_dana.pk], "tables": [open_table.pk], "down_minutes": "30", **fields}
    answer = client.post(f"/tables/pit/{open_table.pit_id}/rotation/", post, HTTP_HX_REQUEST="true")
    assert answer.status_code in (400, 422)
    assert not PitRotation.objects.exists()


def test_a_dealer_cannot_set_the_pits_rotation(open_table, dealer_dana):
    client = _console_client(dealer_dana)
    answer = client.post(f"/tables/pit/{open_table.pit_id}/rotation/",
                         {"dealers": [dealer_dana.pk], "tables": [open_table.pk], "down_minutes": "30"})
    assert answer.status_code == 403
    assert not PitRotation.objects.exists()


def test_the_pit_boss_hands_an_idle_table_over_from_the_console_when_the_change_is_due_RP_07(
        open_table, pit_boss_pat, dealer_dana, dealer_diego):
    import uuid

    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                              tables=[open_table], down_minutes=20)
    client = _console_client(pit_boss_pat)
    open_table.refresh_from_db()
    post = {"version": open_table.version, "key": uuid.uuid4().hex}
    early = client.post(f"/tables/{open_table.pk}/pit/hand-over/", post, HTTP_HX_REQUEST="true")
    assert early.status_code == 422 and "RP-07" in early.content.decode()
    minutes_pass(open_table.pit, 21)
    answer = client.post(f"/tables/{open_table.pk}/pit/hand-over/", {**post, "key": uuid.uuid4().hex},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    open_table.refresh_from_db()
    assert open_table.dealer_id == dealer_diego.pk


def test_a_dealer_sees_where_the_rotation_puts_him_now_and_next_on_his_home_RP_07(open_table, pit_boss_pat,
                                                                                   dealer_dana, dealer_diego):
    services.set_pit_rotation(pit=open_table.pit, by=pit_boss_pat, dealers=[dealer_dana, dealer_diego],
                              tables=[open_table], down_minutes=20)
    home = _console_client(dealer_diego).get("/tables/").content.decode()
    assert "The rotation puts you on your break now." in home and f"Next: {open_table.name} at" in home
    home = _console_client(dealer_dana).get("/tables/").content.decode()
    assert f"The rotation puts you at {open_table.name} now." in home and "Next: your break at" in home
