"""A whole hand at a live table, through the one write path, to its settlement."""

from __future__ import annotations

import pytest

from casino.audit import verify_chain
from casino.models import AuditEvent, object_label
from casino.rules.holdem_bonus import Phase
from tables import reads, services
from tables.models import Hand, HandAction

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bonus,
    fold,
    play,
    play_to_settlement,
    reveal_box,
    reveal_dealer,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_whole_recorded_hand_settles_and_the_house_net_is_minus_the_players_nets_THB_47_to_50(
    hand_started, dealer_dana
):
    result = play_to_settlement(hand_started, dealer_dana)
    hand, state = reads.current_hand(hand_started)

    assert state.phase is Phase.SETTLED
    nets = {b.box: b.net for b in state.settlement.boxes}
    # Box 1: flop 20 + turn 10 won, ante pushes below a straight (THB-50), A-A Bonus 5 x 30 (THB-53).
    # Box 3: straight wins ante 20, flop 40, river 20. Box 5 folds: ante 5 and Bonus 2 lost (THB-56, C-31).
    assert nets == {1: 180, 3: 80, 5: -7}
    assert state.settlement.house_net == -sum(nets.values()) == -253
    assert result.hand_id == hand.pk and hand.phase == "settled" and hand.is_finished
    assert hand.house_net == -253 and hand.settled_at is not None
    assert reads.session_result(hand_started) == -253


def test_every_action_is_a_frozen_row_with_its_actor_and_an_audit_event_in_the_tables_chain(
    hand_started, dealer_dana
):
    play_to_settlement(hand_started, dealer_dana)
    hand = Hand.objects.get(table=hand_started)
    rows = list(hand.actions.all())
    assert [r.seq for r in rows] == list(range(1, 21))
    assert {r.actor_id for r in rows} == {dealer_dana.pk} and {r.role for r in rows} == {"dealer"}
    assert rows[0].record == {"action": "place-ante", "box": 1, "amount": 10}
    audited = AuditEvent.objects.filter(stream=object_label(hand_started), action="hand.action")
    assert audited.count() == 20
    assert verify_chain(object_label(hand_started))[1] is None


def test_the_table_version_goes_up_by_one_per_write_and_the_result_says_which(hand_started, dealer_dana):
    before = hand_started.version
    result = play(hand_started, dealer_dana, ante(2, 10))
    hand_started.refresh_from_db()
    assert result.table_version == hand_started.version == before + 1
    assert result.duplicate is False and result.alerts == []


def test_a_refused_action_records_nothing_and_keeps_the_version_THB_57(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    hand_started.refresh_from_db()
    version, rows = hand_started.version, HandAction.objects.count()
    with pytest.raises(services.RuleViolation) as refused:
        play(hand_started, dealer_dana, bet_flop(1, 30))
    assert refused.value.clause == "THB-57"
    hand_started.refresh_from_db()
    assert hand_started.version == version and HandAction.objects.count() == rows


def test_an_ante_above_the_table_maximum_is_refused_with_the_clause_THB_18(hand_started, dealer_dana):
    with pytest.raises(services.RuleViolation, match="above the table maximum of 100") as refused:
        play(hand_started, dealer_dana, ante(1, 150))
    assert refused.value.clause == "THB-18"


def test_when_everybody_folds_the_hand_settles_at_once_and_only_the_antes_are_lost_THB_56_THB_69(
    hand_started, dealer_dana
):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 5), CLOSE_BETS, DEAL, fold(1), fold(2))
    hand, state = reads.current_hand(hand_started)
    assert state.phase is Phase.SETTLED and hand.house_net == 15


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_folded_bonus_is_still_settled_on_the_players_cards_C_31(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL, fold(1, "Kh Kd"))
    hand, state = reads.current_hand(hand_started)
    box = state.settlement.box(1)
    assert box.bonus.award == "kk-qq-jj" and box.bonus.wager.net == 50  # 10:1 (THB-53)
    assert hand.house_net == -(50 - 10)


def test_the_next_hand_starts_only_when_the_last_is_finished(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    with pytest.raises(services.RuleViolation, match="not finished"):
        act(services.start_hand, hand_started, dealer_dana)
    play(hand_started, dealer_dana, CLOSE_BETS, DEAL, fold(1))
    second = act(services.start_hand, hand_started, dealer_dana)
    assert Hand.objects.get(pk=second.hand_id).number == 2


def test_hands_are_played_under_the_rules_of_their_start_even_if_the_table_changes_later(
    hand_started, dealer_dana
):
    hand_started.max_ante, hand_started.house_options = 50, {"max_ante_multiple": 10}  # THB-18's house option
    hand_started.save()
    play(hand_started, dealer_dana, ante(1, 100))  # the hand started with 5/100
    hand, state = reads.current_hand(hand_started)
    assert state.box(1).ante == 100 and hand.rules["max_ante"] == 100


def test_a_dealt_hand_loads_a_shuffled_shoe_and_needs_no_card_entry_THB_40_to_45(open_table, dealer_dana):
    result = act(services.start_hand, open_table, dealer_dana, mode="dealt")
    hand = Hand.objects.get(pk=result.hand_id)
    load = hand.actions.get()
    assert load.kind == "load-shoe" and len(load.record["cards"]) == 52
    play(open_table, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL, bet_flop(1, 20), bet_flop(2, 20),
         {"action": "deal-flop"}, {"action": "pass-turn", "box": 1}, {"action": "pass-turn", "box": 2},
         {"action": "deal-turn"}, {"action": "pass-river", "box": 1}, {"action": "pass-river", "box": 2},
         {"action": "deal-river"}, reveal_dealer(), reveal_box(2), reveal_box(1))
    hand.refresh_from_db()
    state = reads.hand_state(hand)
    assert state.phase is Phase.SETTLED and len(state.board) == 5
    assert hand.house_net == -sum(b.net for b in state.settlement.boxes)
    # The audit log keeps the shoe's hash, never its order (staff read it during the hand).
    event = AuditEvent.objects.get(action="hand.action", details__record__action="load-shoe")
    assert set(event.details["record"]) == {"action", "sha256"}


def test_the_replay_of_stored_records_is_the_state_the_services_built(hand_started, dealer_dana):
    play_to_settlement(hand_started, dealer_dana)
    hand, state = reads.current_hand(hand_started)
    again = reads.hand_state(Hand.objects.get(pk=hand.pk))
    assert again.settlement == state.settlement and again.actions == state.actions


def test_recent_hands_recall_at_least_the_last_ten_latest_first(open_table, dealer_dana):
    for _ in range(11):
        act(services.start_hand, open_table, dealer_dana)
        play(open_table, dealer_dana, ante(1, 5), CLOSE_BETS, DEAL, fold(1))
    numbers = [h.number for h in reads.recent_hands(open_table)]
    assert numbers == list(range(11, 1, -1))
    assert reads.session_result(open_table) == 55


@pytest.mark.django_db(transaction=True)  # outside a transaction, as a screen reads
def test_screens_share_one_replay_per_change_and_never_see_a_stale_state(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10))
    hand = Hand.objects.get(table=hand_started)
    first = reads.hand_state(hand)
    assert reads.hand_state(hand) is first  # the second screen reuses the replay
    play(hand_started, dealer_dana, ante(2, 10))
    after = reads.hand_state(hand)
    assert after is not first and after.box(2).ante == 10
    act(services.undo_last_action, hand_started, dealer_dana, reason="box 2 withdrew")
    assert reads.hand_state(hand).box(2) is None
