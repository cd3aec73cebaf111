"""Game recall: a played hand exported in the replay_hand format replays to its live settlement;
and the one-tap repeat of the last hand's bets."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from casino.rules.holdem_bonus.record import thb_answer
from casino.rules.replay import replay_record
from tables import services
from tables.models import Hand

from .conftest import (
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
from .test_bonus_awards_and_approvals import play_aces_against_aces

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def replays_to_its_settlement(hand: Hand) -> dict:
    """Export the hand, replay it as ``replay_hand`` does, and compare with the live settlement."""
    record = services.hand_history_record(hand)
    json.dumps(record)  # JSON-safe as it is
    live = thb_answer(services.hand_state(hand), record)
    assert replay_record(record) == live
    return record


def test_a_recorded_hand_exported_replays_to_the_same_settlement(hand_started, dealer_dana):
    result = play_to_settlement(hand_started, dealer_dana)
    record = replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))
    assert record["hand"] == "THB-1#1" and record["limits"]["max_ante"] == 100
    assert record["boxes"][2] == {"box": 5, "ante": 5, "bonus": 2, "cards": ["3d", "4d"], "flop": "fold"}


def test_a_dealt_hand_exported_replays_to_the_same_settlement(open_table, dealer_dana):
    act(services.start_hand, open_table, dealer_dana, mode="dealt")
    result = play(open_table, dealer_dana, ante(1, 10), bonus(1, 5), ante(4, 50), ante(6, 5), CLOSE_BETS, DEAL,
                  bet_flop(1, 20), fold(4), bet_flop(6, 10), {"action": "deal-flop"},
                  {"action": "bet-turn", "box": 1, "amount": 10}, {"action": "pass-turn", "box": 6},
                  {"action": "deal-turn"}, {"action": "pass-river", "box": 1},
                  {"action": "bet-river", "box": 6, "amount": 5}, {"action": "deal-river"}, reveal_dealer(),
                  reveal_box(6), reveal_box(1))
    replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))


def test_an_approved_1000_to_1_hand_replays_with_its_award(hand_started, dealer_dana, pit_boss_pat):
    result = play_aces_against_aces(hand_started, dealer_dana)
    act(services.decide_award, hand_started, pit_boss_pat, hand_id=result.hand_id, box=1, approve=True)
    record = replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))
    assert replay_record(record)["boxes"][0]["bonus"] == 5000


def test_a_hand_everybody_folded_replays_too_THB_69(hand_started, dealer_dana):
    result = play(hand_started, dealer_dana, ante(2, 10), bonus(2, 3), ante(3, 10), CLOSE_BETS, DEAL,
                  fold(2, "8c 8d"), fold(3))
    record = replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))
    assert record["board"] == [] and "dealer" not in record


def test_manage_py_replay_hand_reproduces_the_recalled_hands(open_table, dealer_dana, tmp_path, capsys):
    for _ in range(3):
        act(services.start_hand, open_table, dealer_dana)
        play_to_settlement(open_table, dealer_dana)
    hands = services.recent_hands(open_table)
    path = tmp_path / "recall.jsonl"
    path.write_text("".join(json.dumps(services.hand_history_record(h)) + "\n" for h in hands))
    call_command("replay_hand", str(path))
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [thb_answer(services.hand_state(h), services.hand_history_record(h)) for h in hands]
    assert answers == expected


def test_a_void_or_unfinished_hand_has_no_replay_record_THB_24(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS)
    hand = services.current_hand(hand_started)[0]
    with pytest.raises(services.RuleViolation, match="not settled yet"):
        services.hand_history_record(hand)
    act(services.report_irregularity, hand_started, dealer_dana, record={"action": "void-hand", "reason": "misdeal"})
    with pytest.raises(services.RuleViolation, match="void hand"):
        services.hand_history_record(hand)


def test_one_tap_repeats_the_last_hands_antes_and_bonus_bets(open_table, dealer_dana):
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), bonus(1, 5), ante(4, 25), CLOSE_BETS, DEAL, fold(1, "2h 3h"), fold(4))
    act(services.start_hand, open_table, dealer_dana)
    result = act(services.repeat_last_bets, open_table, dealer_dana)
    state = services.current_hand(open_table)[1]
    assert [(b.number, b.ante, b.bonus) for b in state.boxes] == [(1, 10, 5), (4, 25, 0)]
    assert result.alerts == []
    rows = list(Hand.objects.get(pk=result.hand_id).actions.all())
    assert len(rows) == 3 and len({r.key for r in rows}) == 1  # one tap, one request, three bets


def test_repeat_skips_bets_the_limits_no_longer_allow_and_boxes_already_bet_THB_19(
    open_table, dealer_dana, pit_boss_pat
):
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), ante(2, 100), bonus(2, 10), ante(3, 5), CLOSE_BETS, DEAL,
         fold(1), fold(2, "4c 5c"), fold(3))
    open_table.max_ante = 50  # the house lowered the limit between hands
    open_table.save()
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(3, 20))
    result = act(services.repeat_last_bets, open_table, dealer_dana)
    state = services.current_hand(open_table)[1]
    assert [(b.number, b.ante, b.bonus) for b in state.boxes] == [(1, 10, 0), (3, 20, 0)]
    assert len(result.alerts) == 1 and "THB-18" in result.alerts[0] and "Box 2" in result.alerts[0]


def test_repeat_needs_a_previous_hand_and_open_bets_THB_30_THB_31(open_table, dealer_dana):
    act(services.start_hand, open_table, dealer_dana)
    with pytest.raises(services.RuleViolation, match="no previous hand"):
        act(services.repeat_last_bets, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), CLOSE_BETS)
    with pytest.raises(services.RuleViolation) as refused:
        act(services.repeat_last_bets, open_table, dealer_dana)
    assert refused.value.clause == "THB-31"
