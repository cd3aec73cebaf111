"""The deck between the dealer and the pit boss: a deck count when its size is in doubt (THB-16) and a
discreet alert for cards that look marked or flawed (THB-17)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from casino.models import AuditEvent
from tables import reads, services
from tables.models import Alert, pit_group

from .helpers import CLOSE_BETS, DEAL, act, ante, play, play_to_settlement

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def count_deck(table, dealer, cards, note=""):
    return act(services.record_deck_count, table, dealer, cards=cards, note=note)


def test_a_count_of_52_is_logged_and_raises_no_alert_THB_16(open_table, dealer_dana):
    result = count_deck(open_table, dealer_dana, 52)
    assert not Alert.objects.filter(table=open_table).exists()
    assert result.alerts == ["52 cartas: la baraja está completa (THB-16)."]  # in the dealer's language
    event = AuditEvent.objects.get(action="table.deck_counted")
    assert event.details["cards"] == 52 and event.details["complete"] is True and event.actor == dealer_dana


def test_a_wrong_count_alerts_the_pit_boss_and_no_hand_starts_until_it_is_acknowledged_THB_16(
    open_table, dealer_dana, pit_boss_pat
):
    count_deck(open_table, dealer_dana, 51, note="one short after the shuffle")
    alert = Alert.objects.get(table=open_table)
    assert alert.kind == Alert.Kind.DECK_COUNT and "51 cartas en lugar de 52" in reads.alert_text(alert)
    assert "one short after the shuffle" in reads.alert_text(alert)
    assert AuditEvent.objects.get(action="table.deck_counted").details["complete"] is False
    with pytest.raises(services.RuleViolation, match="deck count was wrong") as refused:
        act(services.start_hand, open_table, dealer_dana)
    assert refused.value.clause == "THB-16"

    act(services.acknowledge_alert, open_table, pit_boss_pat, alert_id=alert.pk)  # the deck was replaced

    act(services.start_hand, open_table, dealer_dana)
    assert open_table.hands.count() == 1


def test_the_deck_is_counted_between_hands_only(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    with pytest.raises(services.RuleViolation, match="between hands"):
        count_deck(hand_started, dealer_dana, 52)
    assert not AuditEvent.objects.filter(action="table.deck_counted").exists()


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_after_a_settled_hand_the_deck_may_be_counted(hand_started, dealer_dana):
    play_to_settlement(hand_started, dealer_dana)
    count_deck(hand_started, dealer_dana, 52)
    assert AuditEvent.objects.filter(action="table.deck_counted").count() == 1


def test_only_the_dealer_on_duty_counts_the_deck(open_table, dealer_diego, pit_boss_pat):
    for someone in (dealer_diego, pit_boss_pat):
        with pytest.raises(services.NotAllowed):
            count_deck(open_table, someone, 52)


def test_a_count_that_is_not_a_number_of_cards_is_refused_before_anything_is_written(open_table, dealer_dana):
    version = open_table.version
    for wrong in (-1, 521, True, "52"):
        with pytest.raises(ValueError):
            count_deck(open_table, dealer_dana, wrong)
    open_table.refresh_from_db()
    assert open_table.version == version


def test_suspected_cards_alert_the_pit_boss_mid_hand_and_the_hand_goes_on_THB_17(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    hand, before = reads.current_hand(hand_started)

    result = act(services.report_suspect_cards, hand_started, dealer_dana, note="the queen of spades is nicked")

    alert = Alert.objects.get(table=hand_started)
    assert alert.kind == Alert.Kind.SUSPECT_CARDS and alert.hand == hand
    assert "the queen of spades is nicked" in reads.alert_text(alert) and "con discreción" in reads.alert_text(alert)
    # The tablet only says it was done: the alert's words are the pit boss's.
    assert result.alerts == ["Se ha avisado discretamente al jefe de mesa (THB-17)."]
    _hand, after = reads.current_hand(hand_started)
    assert after.phase is before.phase and len(after.actions) == len(before.actions)
    assert AuditEvent.objects.get(action="table.cards_suspected").details["hand"] == hand.number


def test_suspected_cards_are_told_to_the_pit_console_only_never_to_the_tables_screens_THB_17(
    open_table, dealer_dana, django_capture_on_commit_callbacks
):
    layer = get_channel_layer()
    table_channel = async_to_sync(layer.new_channel)()
    pit_channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(open_table.group_name, table_channel)  # the tablet's and the phones' group
    async_to_sync(layer.group_add)(pit_group(open_table.pit_id), pit_channel)

    with django_capture_on_commit_callbacks(execute=True):
        result = act(services.report_suspect_cards, open_table, dealer_dana)

    message = async_to_sync(layer.receive)(pit_channel)
    assert message["version"] == result.table_version and message["event"] == "cards-suspected"
    heard = async_to_sync(_receive_or_none)(layer, table_channel)
    assert heard is None


async def _receive_or_none(layer, channel):
    try:
        return await asyncio.wait_for(layer.receive(channel), 0.3)
    except TimeoutError:
        return None


def test_only_the_dealer_on_duty_reports_suspected_cards(open_table, dealer_diego):
    with pytest.raises(services.NotAllowed):
        act(services.report_suspect_cards, open_table, dealer_diego)
    assert not Alert.objects.exists()


def test_suspected_cards_are_reported_at_an_open_table(table_one, dealer_dana):
    with pytest.raises(services.RuleViolation, match="open table"):
        act(services.report_suspect_cards, table_one, dealer_dana)
    assert not Alert.objects.exists()
