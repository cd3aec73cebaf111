"""The dealer on duty at a tournament table (issue #15): the floor puts a dealer there from the console,
and only that dealer (besides the floor and the director) deals there or opens its tablet."""

from __future__ import annotations

import uuid

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tests.conftest import _staff
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dealer_diego(django_user_model, quick_passwords):
    return _staff(django_user_model, "diego", "dealer", "Diego")


def at(table, fn, by, **kwargs):
    table.refresh_from_db()
    return fn(table=table, by=by, key=uuid.uuid4().hex, expected_version=table.version, **kwargs)


def test_a_dealer_not_on_duty_at_the_table_deals_nothing_there(first_table, dealer_diego):
    with pytest.raises(NotAllowed, match="dealer on duty"):
        at(first_table, dealing.start_hand, dealer_diego)
    assert hand_reads.latest_hand(first_table) is None


def test_the_dealer_on_duty_the_floor_and_the_director_deal_there(first_table, dealer_dana_here, floor_fede,
                                                                   director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    hand = hand_reads.latest_hand(first_table)
    at(first_table, dealing.act, floor_fede, record={"action": "fold", "seat": hand_reads.hand_state(hand).to_act})
    at(first_table, dealing.act, director_dora, record={"action": "fold", "seat": hand_reads.hand_state(hand).to_act})
    folds = [row.by for row in hand_reads.effective_rows(hand) if row.record["action"] == "fold"]
    assert folds == [floor_fede, director_dora]


def test_the_floor_puts_a_dealer_on_duty_audited_and_the_one_before_is_off(first_table, dealer_dana_here,
                                                                            dealer_diego, floor_fede):
    at(first_table, dealing.assign_dealer, floor_fede, dealer=dealer_diego)
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk
    assert AuditEvent.objects.filter(action="tournament.table_dealer_assigned",
                                     details__dealer=dealer_diego.username).exists()
    with pytest.raises(NotAllowed):
        at(first_table, dealing.start_hand, dealer_dana_here)
    at(first_table, dealing.start_hand, dealer_diego)


def test_only_the_casinos_active_dealers_are_put_on_duty(first_table, floor_fede, django_user_model):
    pit_boss = _staff(django_user_model, "pat", "pit_boss", "Pat")
    with pytest.raises(RuleViolation, match="not one of the casino's active dealers"):
        at(first_table, dealing.assign_dealer, floor_fede, dealer=pit_boss)


def test_a_dealer_does_not_assign_the_dealers(first_table, dealer_dana_here, dealer_diego):
    with pytest.raises(NotAllowed):
        at(first_table, dealing.assign_dealer, dealer_dana_here, dealer=dealer_diego)


def test_the_console_assigns_a_dealer_and_the_dealers_home_leads_to_the_tablet(
    client, first_table, dealer_diego, floor_fede, event_in_play
):
    client.force_login(floor_fede)
    console = client.get(f"/tournaments/{event_in_play.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-action="assign-dealer"' in console and f'value="{dealer_diego.pk}"' in console
    event_in_play.refresh_from_db()
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/assign-dealer/",
                         {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
                          "dealer": dealer_diego.pk}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert f'data-dealer-on-duty="{first_table.number}"' in answer.content.decode()
    first_table.refresh_from_db()
    assert first_table.dealer_id == dealer_diego.pk

    client.force_login(dealer_diego)
    home = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/" in home
    tablet = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/")
    assert tablet.status_code == 200


@pytest.mark.parametrize("chosen", ["abc", "999999"])
def test_a_dealer_the_console_does_not_know_is_refused_with_a_message(client, first_table, floor_fede,
                                                                      event_in_play, chosen):
    client.force_login(floor_fede)
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/assign-dealer/",
                         {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
                          "dealer": chosen}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    first_table.refresh_from_db()
    assert first_table.dealer is not None and first_table.dealer.username == "dana"


def test_a_dealer_not_on_duty_cannot_open_the_tablet_nor_tap_it(client, first_table, dealer_diego, event_in_play):
    client.force_login(dealer_diego)
    path = f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/"
    assert client.get(path).status_code == 403
    tapped = client.post(path + "new-hand/", {"version": first_table.version, "key": uuid.uuid4().hex},
                         HTTP_HX_REQUEST="true")
    assert tapped.status_code == 403
    assert hand_reads.latest_hand(first_table) is None


def test_the_console_refuses_a_person_who_is_not_a_dealer_with_the_services_reason(
    client, first_table, floor_fede, event_in_play, django_user_model
):
    pit_boss = _staff(django_user_model, "pat", "pit_boss", "Pat")
    client.force_login(floor_fede)
    answer = client.post(f"/tournaments/{event_in_play.pk}/act/assign-dealer/",
                         {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
                          "dealer": pit_boss.pk}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 422
    assert "Pat is not one of the casino&#x27;s active dealers." in answer.content.decode()
    first_table.refresh_from_db()
    assert first_table.dealer.username == "dana"
