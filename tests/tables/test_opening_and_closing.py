"""Opening a table after the pit boss's deck check (THB-21, THB-22), and closing it likewise."""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from tables import reads, services, sessions
from tables.models import Alert, Table, TableSession

from .helpers import CLOSE_BETS, DEAL, act, ante, fold, open_for_play, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def test_the_dealers_request_waits_for_the_pit_bosss_deck_check_before_the_first_hand_THB_21(
    table_one, dealer_dana, pit_boss_pat
):
    act(sessions.request_opening, table_one, dealer_dana)
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.OPENING
    with pytest.raises(services.RuleViolation, match="deck check") as refused:
        act(services.start_hand, table_one, dealer_dana)
    assert refused.value.clause == "THB-21"

    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    table_one.refresh_from_db()
    session = reads.live_session(table_one)
    assert table_one.status == Table.Status.OPEN and session.status == TableSession.Status.OPEN
    assert session.requested_by == dealer_dana and session.deck_checked_by == pit_boss_pat
    assert session.deck_checked_at is not None and session.opened_at is not None
    confirmed = AuditEvent.objects.get(action="table.deck_check_confirmed")
    assert confirmed.actor == pit_boss_pat and confirmed.role == "pit_boss"


def test_only_the_dealer_on_duty_asks_to_open(table_one, dealer_diego, pit_boss_pat):
    for someone in (dealer_diego, pit_boss_pat):
        with pytest.raises(services.NotAllowed):
            act(sessions.request_opening, table_one, someone)


def test_a_table_cannot_be_asked_to_open_twice(table_one, dealer_dana):
    act(sessions.request_opening, table_one, dealer_dana)
    with pytest.raises(services.RuleViolation, match="already open or waiting"):
        act(sessions.request_opening, table_one, dealer_dana)
    assert TableSession.objects.count() == 1


def test_a_refused_deck_keeps_the_table_closed_and_alerts_for_the_subdirector_THB_22(
    table_one, dealer_dana, pit_boss_pat
):
    act(sessions.request_opening, table_one, dealer_dana)
    result = act(sessions.confirm_deck_check, table_one, pit_boss_pat, approve=False, note="7 of clubs missing")
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.CLOSED and reads.live_session(table_one) is None
    assert TableSession.objects.get().status == TableSession.Status.DECK_REFUSED
    alert = Alert.objects.get()
    text = reads.alert_text(alert)
    assert alert.kind == Alert.Kind.DECK and "Subdirector" in text and result.alerts == [text]
    assert AuditEvent.objects.get(action="table.deck_check_refused").details["note"] == "7 of clubs missing"
    act(sessions.request_opening, table_one, dealer_dana)  # with a new deck, the dealer asks again


def test_a_games_director_may_confirm_a_deck_check_too(table_one, dealer_dana, games_director_gloria):
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, games_director_gloria)
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.OPEN


def test_closing_waits_for_the_hand_in_play_then_for_the_pit_boss(open_table, dealer_dana, pit_boss_pat):
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10))
    with pytest.raises(services.RuleViolation, match="Finish the hand"):
        act(sessions.request_closing, open_table, dealer_dana)
    play(open_table, dealer_dana, CLOSE_BETS, DEAL, fold(1))
    act(sessions.request_closing, open_table, dealer_dana)
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.CLOSING
    with pytest.raises(services.RuleViolation, match="not open"):
        act(services.start_hand, open_table, dealer_dana)
    with pytest.raises(services.NotAllowed):
        act(sessions.confirm_closing, open_table, dealer_dana)

    act(sessions.confirm_closing, open_table, pit_boss_pat)
    open_table.refresh_from_db()
    session = TableSession.objects.get()
    assert open_table.status == Table.Status.CLOSED and session.status == TableSession.Status.CLOSED
    assert session.closed_by == pit_boss_pat and session.closing_requested_by == dealer_dana
    assert AuditEvent.objects.get(action="table.closed").details["house_net"] == 10
    assert reads.session_result(open_table) == 10  # the last session's result, after closing


def test_the_pit_boss_may_send_a_closing_table_back_to_play(open_table, dealer_dana, pit_boss_pat):
    act(sessions.request_closing, open_table, dealer_dana)
    act(sessions.confirm_closing, open_table, pit_boss_pat, approve=False)
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.OPEN
    act(services.start_hand, open_table, dealer_dana)


def test_a_new_session_after_closing_starts_its_result_at_zero(table_one, dealer_dana, pit_boss_pat):
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    act(services.start_hand, table_one, dealer_dana)
    play(table_one, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    act(sessions.request_closing, table_one, dealer_dana)
    act(sessions.confirm_closing, table_one, pit_boss_pat)
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    assert reads.session_result(table_one) == 0
    assert reads.current_hand(table_one) == (None, None)
    result = act(services.start_hand, table_one, dealer_dana)
    assert result.hand_id is not None and reads.current_hand(table_one)[0].number == 2
