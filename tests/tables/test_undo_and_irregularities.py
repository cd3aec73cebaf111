"""Undoing the last action before the hand moves on, and the manual's irregularities (THB-24, THB-73..76)."""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from casino.rules.holdem_bonus import Phase
from tables import reads, services
from tables.models import Alert, HandAction

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    flop,
    fold,
    pass_river,
    pass_turn,
    play,
    play_to_settlement,
    reveal_box,
    reveal_dealer,
    river,
    turn,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def undo(table, dealer, reason="wrong box"):
    return act(services.undo_last_action, table, dealer, reason=reason)


def test_a_mistaken_ante_is_undone_by_an_appended_row_with_the_reason_audited(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 25))
    undo(hand_started, dealer_dana, reason="the 25 was box 3's")
    hand, state = reads.current_hand(hand_started)
    assert state.box(2) is None and state.box(1).ante == 10
    rows = list(hand.actions.all())
    assert [r.kind for r in rows] == ["place-ante", "place-ante", "undo"]  # nothing deleted: append-only
    assert rows[2].undoes == rows[1] and rows[2].reason == "the 25 was box 3's"
    event = AuditEvent.objects.get(action="hand.action_undone")
    assert event.details["reason"] == "the 25 was box 3's" and event.details["record"] == ante(2, 25)
    assert event.actor == dealer_dana
    play(hand_started, dealer_dana, ante(3, 25))


def test_an_undo_needs_a_reason(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    with pytest.raises(services.RuleViolation, match="Say why"):
        undo(hand_started, dealer_dana, reason="  ")


def test_undoing_twice_takes_back_the_two_last_bets_of_the_same_phase(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5))
    undo(hand_started, dealer_dana)
    undo(hand_started, dealer_dana)
    assert reads.current_hand(hand_started)[1].boxes == ()
    with pytest.raises(services.RuleViolation, match="nothing to undo"):
        undo(hand_started, dealer_dana)


def test_bets_cannot_be_undone_after_no_more_bets_THB_31(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS)
    with pytest.raises(services.RuleViolation, match="moved on"):
        undo(hand_started, dealer_dana)  # "no va más" itself is a step of the procedure


def test_a_flop_decision_is_undone_until_the_flop_is_dealt_then_it_stands_THB_41_THB_42(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL, bet_flop(1, 20), fold(2))
    undo(hand_started, dealer_dana, reason="box 2 said va")
    play(hand_started, dealer_dana, bet_flop(2, 20), flop("2c 7d 9h"), pass_turn(1))
    undo(hand_started, dealer_dana, reason="box 1 bet the turn")  # a turn decision, before the turn card
    undo(hand_started, dealer_dana, reason="the 9 was a 6")  # the flop entry, now the last thing done
    with pytest.raises(services.RuleViolation, match="moved on"):
        undo(hand_started, dealer_dana)  # box 2's flop bet: the flop was dealt after it


def test_a_mistyped_flop_is_corrected_but_the_decisions_before_it_stay_THB_42(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20), flop("2c 7d 9h"))
    undo(hand_started, dealer_dana, reason="the 9 was a 6")
    with pytest.raises(services.RuleViolation, match="moved on"):
        undo(hand_started, dealer_dana)  # box 1's flop bet was taken before the flop: it stands
    play(hand_started, dealer_dana, flop("2c 7d 6h"))
    assert [str(c) for c in reads.current_hand(hand_started)[1].board] == ["2c", "7d", "6h"]


def test_a_settled_hand_is_final_even_its_last_card_entry_THB_64(hand_started, dealer_dana):
    play_to_settlement(hand_started, dealer_dana)
    with pytest.raises(services.RuleViolation, match="record is final") as refused:
        undo(hand_started, dealer_dana, reason="box 1 holds As Ad")
    assert refused.value.clause == "THB-64"


def test_a_fold_that_ended_the_hand_is_final_too_THB_69(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    with pytest.raises(services.RuleViolation, match="record is final"):
        undo(hand_started, dealer_dana, reason="box 1 said va")


def test_the_last_box_shown_is_corrected_before_the_showdown_completes_THB_62(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL, bet_flop(1, 20), bet_flop(2, 20),
         flop("2c 7d 9h"), pass_turn(1), pass_turn(2), turn("Js"), pass_river(1), pass_river(2), river("Kc"),
         reveal_dealer("Qh Qd"), reveal_box(2, "8s Ts"))
    undo(hand_started, dealer_dana, reason="box 2 holds 8s Th")
    play(hand_started, dealer_dana, reveal_box(2, "8s Th"))
    state = reads.current_hand(hand_started)[1]
    assert [str(c) for c in state.box(2).cards] == ["8s", "Th"] and state.phase is Phase.SHOWDOWN


def test_a_dealt_hands_engine_deal_is_not_a_card_entry_to_correct(open_table, dealer_dana):
    act(services.start_hand, open_table, dealer_dana, mode="dealt")
    play(open_table, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20), {"action": "deal-flop"})
    with pytest.raises(services.RuleViolation, match="moved on"):
        undo(open_table, dealer_dana)


def test_a_dealer_card_shown_before_the_decisions_voids_the_hand_returns_every_stake_and_alerts_THB_73(
    hand_started, dealer_dana
):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), ante(2, 20), CLOSE_BETS, DEAL, bet_flop(1, 20))
    result = act(services.report_irregularity, hand_started, dealer_dana,
                 record={"action": "report-dealer-card-exposed"})
    hand, state = reads.current_hand(hand_started)
    assert state.phase is Phase.VOID and hand.phase == "void" and hand.is_finished
    for box in state.settlement.boxes:
        assert box.net == 0 and box.returned == box.staked  # every stake back, Bonus included
    assert hand.house_net == 0
    alert = Alert.objects.get()
    assert alert.kind == Alert.Kind.VOID and alert.hand == hand and "THB-73" in reads.alert_text(alert)
    assert result.alerts == [reads.alert_text(alert)]
    assert reads.open_alerts(hand_started) == [alert]
    with pytest.raises(services.RuleViolation, match="record is final"):
        undo(hand_started, dealer_dana)  # a void hand is over


def test_one_face_up_card_in_the_deck_is_burned_and_the_hand_goes_on_with_an_alert_THB_74(
    hand_started, dealer_dana
):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20))
    act(services.report_irregularity, hand_started, dealer_dana,
        record={"action": "report-face-up-card", "count": 1, "card": "Qs"})
    hand, state = reads.current_hand(hand_started)
    assert state.phase is Phase.FLOP_DECISIONS and Alert.objects.get().kind == Alert.Kind.IRREGULARITY
    with pytest.raises(services.RuleViolation, match="moved on"):
        undo(hand_started, dealer_dana)  # an irregularity stands: the dealer does not undo it
    with pytest.raises(services.RuleViolation, match="already in the discards"):
        play(hand_started, dealer_dana, flop("Qs 7d 9h"))


def test_a_box_dealt_three_cards_is_void_alone_THB_76(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL)
    act(services.report_irregularity, hand_started, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 2, "cards_dealt": 3})
    state = reads.current_hand(hand_started)[1]
    assert state.box(2).void and not state.box(1).void and state.phase is not Phase.VOID


def test_the_pit_boss_may_void_a_hand_and_acknowledges_the_alert_THB_24(hand_started, dealer_dana, pit_boss_pat,
                                                                         pit_boss_paula):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    act(services.report_irregularity, hand_started, pit_boss_pat,
        record={"action": "void-hand", "reason": "cards dealt out of order"})
    alert = Alert.objects.get()
    with pytest.raises(services.NotAllowed):
        act(services.acknowledge_alert, hand_started, pit_boss_paula, alert_id=alert.pk)
    with pytest.raises(services.NotAllowed):
        act(services.acknowledge_alert, hand_started, dealer_dana, alert_id=alert.pk)
    act(services.acknowledge_alert, hand_started, pit_boss_pat, alert_id=alert.pk)
    alert.refresh_from_db()
    assert alert.acknowledged_by == pit_boss_pat and alert.acknowledged_at is not None
    assert reads.open_alerts(hand_started) == []
    with pytest.raises(services.RuleViolation, match="already acknowledged"):
        act(services.acknowledge_alert, hand_started, pit_boss_pat, alert_id=alert.pk)


def test_the_dealer_of_another_table_cannot_report_here(hand_started, dealer_diego):
    with pytest.raises(services.NotAllowed):
        act(services.report_irregularity, hand_started, dealer_diego, record={"action": "report-dealer-card-exposed"})


def test_hand_actions_cannot_be_edited_or_deleted_through_the_orm(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    row = HandAction.objects.get()
    row.record = ante(1, 100)
    with pytest.raises(TypeError, match="append-only"):
        row.save()
    with pytest.raises(TypeError, match="append-only"):
        row.delete()
    with pytest.raises(TypeError, match="append-only"):
        HandAction.objects.filter(pk=row.pk).update(record=ante(1, 100))
