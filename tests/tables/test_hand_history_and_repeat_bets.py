"""Game recall: a played hand exported in the replay_hand format replays to its live settlement
(void hands, void boxes and decided awards included); and the one-tap repeat of the last hand's bets."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.utils import translation

from casino.rules.holdem_bonus import Phase
from casino.rules.holdem_bonus.record import thb_answer
from casino.rules.replay import replay_record
from tables import reads, services
from tables.models import Hand

from .helpers import (
    CLOSE_BETS,
    DEAL,
    act,
    ante,
    bet_flop,
    bet_river,
    bet_turn,
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
from .test_bonus_awards_and_approvals import play_aces_against_aces

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def replays_to_its_settlement(hand: Hand) -> dict:
    """Export the hand, replay it as ``replay_hand`` does, and compare with the live settlement."""
    record = reads.hand_history_record(hand)
    json.dumps(record)  # JSON-safe as it is
    state = reads.hand_state(hand)
    live = thb_answer(state, record)
    answer = replay_record(record)
    assert answer == live
    # And straight against the engine's own settlement of the live hand, bet by bet.
    settled = {b.box: b for b in state.settlement.boxes}
    assert {b["box"] for b in answer["boxes"]} == set(settled)
    for box in answer["boxes"]:
        result = settled[box["box"]]
        assert box["outcome"] == result.outcome.value and box["net"] == result.net
        assert all(box[name] == wager.net for name, wager in result.wagers.items())
    assert ("void" in answer) == (state.phase is Phase.VOID) == state.settlement.void
    return record


def replay_hand_command_reproduces(hands, path, capsys) -> list[dict]:
    """``python manage.py replay_hand`` on the downloaded lines answers each hand as it was settled live."""
    path.write_text("".join(json.dumps(reads.hand_history_record(h)) + "\n" for h in hands))
    call_command("replay_hand", str(path))
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers == [thb_answer(reads.hand_state(h), reads.hand_history_record(h)) for h in hands]
    return answers


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
    assert record["approvals"] == {"1": "approved"}
    box = replay_record(record)["boxes"][0]
    assert (box["bonus"], box["needs_approval"], box["approval"], box["net"]) == (5000, True, "approved", 5000)


def test_a_denied_1000_to_1_award_replays_not_paid_with_its_stake_returned_THB_54(
    hand_started, dealer_dana, pit_boss_pat
):
    result = play_aces_against_aces(hand_started, dealer_dana)
    act(services.decide_award, hand_started, pit_boss_pat, hand_id=result.hand_id, box=1, approve=False,
        reason="the shoe is being checked")
    hand = Hand.objects.get(pk=result.hand_id)
    record = replays_to_its_settlement(hand)
    assert record["approvals"] == {"1": "denied"}
    box = replay_record(record)["boxes"][0]
    assert (box["bonus"], box["bonus_award"], box["needs_approval"], box["approval"], box["net"]) == (
        0, "aa-vs-dealer-aa", True, "denied", 0)
    assert hand.house_net == 0  # the live result: the award not paid, the Bonus stake returned
    record.pop("approvals")  # without the decision the same hand is the award still held
    held = replay_record(record)["boxes"][0]
    assert held["bonus"] == 5000 and "approval" not in held


def test_an_award_still_held_exports_with_no_decision(hand_started, dealer_dana):
    result = play_aces_against_aces(hand_started, dealer_dana)
    record = replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))
    assert "approvals" not in record
    assert replay_record(record)["boxes"][0]["needs_approval"] is True


def test_a_hand_everybody_folded_replays_too_THB_69(hand_started, dealer_dana):
    result = play(hand_started, dealer_dana, ante(2, 10), bonus(2, 3), ante(3, 10), CLOSE_BETS, DEAL,
                  fold(2, "8c 8d"), fold(3))
    record = replays_to_its_settlement(Hand.objects.get(pk=result.hand_id))
    assert record["board"] == [] and "dealer" not in record


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_manage_py_replay_hand_reproduces_the_recalled_hands(open_table, dealer_dana, tmp_path, capsys):
    for _ in range(3):
        act(services.start_hand, open_table, dealer_dana)
        play_to_settlement(open_table, dealer_dana)
    hands = reads.recent_hands(open_table)
    replay_hand_command_reproduces(hands, tmp_path / "recall.jsonl", capsys)


def test_an_unfinished_hand_has_no_replay_record(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS)
    hand = reads.current_hand(hand_started)[0]
    with translation.override("en"), pytest.raises(services.RuleViolation, match="not settled yet"):
        reads.hand_history_record(hand)


def void_by(table, by, record):
    act(services.report_irregularity, table, by, record=record)
    hand, state = reads.current_hand(table)
    assert state.phase is Phase.VOID
    return hand


def test_a_hand_void_for_a_dealers_card_shown_replays_void_with_every_stake_returned_THB_73(
    hand_started, dealer_dana
):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), ante(2, 20), ante(4, 5), CLOSE_BETS, DEAL,
         bet_flop(1, 20), fold(2, "9c 9d"))
    hand = void_by(hand_started, dealer_dana, {"action": "report-dealer-card-exposed"})
    record = replays_to_its_settlement(hand)
    assert record["void"] == {"clause": "THB-73", "reason": "A dealer's card was shown before every player had "
                                                            "decided"}
    assert record["boxes"] == [{"box": 1, "ante": 10, "bonus": 5, "flop": "bet"},
                               {"box": 2, "ante": 20, "cards": ["9c", "9d"], "flop": "fold"},
                               {"box": 4, "ante": 5}]
    answer = replay_record(record)
    assert answer["void"] == record["void"] and answer["dealer"] == {}
    assert [(b["outcome"], b["net"]) for b in answer["boxes"]] == [("void", 0)] * 3


@pytest.mark.parametrize(("irregularity", "clause"), [
    ({"action": "report-face-up-card", "count": 3}, "THB-74"),
    ({"action": "report-dealer-wrong-card-count", "cards_dealt": 3}, "THB-76"),
    ({"action": "void-hand", "reason": "cards dealt out of order"}, "THB-24"),
    ({"action": "void-hand", "reason": "two queens of spades in the deck", "clause": "C-35"}, "C-35"),
])
def test_a_hand_void_after_the_flop_replays_void_for_its_clause(hand_started, dealer_dana, irregularity, clause):
    play(hand_started, dealer_dana, ante(1, 10), ante(3, 20), bonus(3, 5), CLOSE_BETS, DEAL, bet_flop(1, 20),
         bet_flop(3, 40), flop("2c 7d 9h"), bet_turn(1, 10))
    hand = void_by(hand_started, dealer_dana, irregularity)
    record = replays_to_its_settlement(hand)
    assert record["void"]["clause"] == clause and record["board"] == ["2c", "7d", "9h"]
    assert record["boxes"][0] == {"box": 1, "ante": 10, "flop": "bet", "turn": "bet"}


def test_a_hand_void_at_the_showdown_replays_with_the_cards_shown_so_far_C_35(
    hand_started, dealer_dana, pit_boss_pat
):
    play(hand_started, dealer_dana, ante(1, 10), ante(3, 20), CLOSE_BETS, DEAL, bet_flop(1, 20), bet_flop(3, 40),
         flop("2c 7d 9h"), pass_turn(1), pass_turn(3), turn("Js"), pass_river(1), bet_river(3, 20), river("Kc"),
         reveal_dealer("Qh Qd"), reveal_box(3, "8s Ts"))
    hand = void_by(hand_started, pit_boss_pat,
                   {"action": "void-hand", "reason": "the deck was found defective", "clause": "C-35"})
    record = replays_to_its_settlement(hand)
    assert record["dealer"] == ["Qh", "Qd"] and "cards" not in record["boxes"][0]
    assert record["boxes"][1]["cards"] == ["8s", "Ts"]


def test_a_hand_voided_with_bets_open_and_no_box_replays_too_THB_24(hand_started, pit_boss_pat):
    hand = void_by(hand_started, pit_boss_pat, {"action": "void-hand", "reason": "the shoe jammed"})
    record = replays_to_its_settlement(hand)
    assert record["boxes"] == [] and replay_record(record)["boxes"] == []


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_box_dealt_three_cards_replays_void_and_the_others_as_they_played_THB_76(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), bonus(1, 5), ante(3, 20), bonus(3, 5), ante(5, 5), CLOSE_BETS,
         DEAL, bet_flop(1, 20), bet_flop(3, 40), fold(5, "3d 4d"), flop("2c 7d 9h"))
    act(services.report_irregularity, hand_started, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 3, "cards_dealt": 3})
    result = play(hand_started, dealer_dana, bet_turn(1, 10), turn("Js"), pass_river(1), river("Kc"),
                  reveal_dealer("Qh Qd"), reveal_box(1, "As Ac"))
    hand = Hand.objects.get(pk=result.hand_id)
    record = replays_to_its_settlement(hand)
    assert record["boxes"][1] == {"box": 3, "ante": 20, "bonus": 5, "flop": "bet", "void": True}
    answer = replay_record(record)
    assert "void" not in answer
    assert [(b["box"], b["outcome"], b["net"]) for b in answer["boxes"]] == [
        (1, "win", 20 + 10 + 150), (3, "void", 0), (5, "fold", -5)]
    assert hand.house_net == -sum(b["net"] for b in answer["boxes"])


def test_every_box_void_makes_the_hand_void_and_it_replays_so_THB_76(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(2, 10), ante(6, 10), CLOSE_BETS, DEAL)
    for number in (2, 6):
        act(services.report_irregularity, hand_started, dealer_dana,
            record={"action": "report-box-wrong-card-count", "box": number, "cards_dealt": 1})
    hand, state = reads.current_hand(hand_started)
    assert state.phase is Phase.VOID
    record = replays_to_its_settlement(hand)
    assert record["void"] == {"clause": "THB-76", "reason": "Every box's hand is void"}
    assert all(b["void"] is True for b in record["boxes"])


def test_a_dealt_hand_exports_only_the_cards_that_were_shown(open_table, dealer_dana, tmp_path, capsys):
    act(services.start_hand, open_table, dealer_dana, mode="dealt")
    play(open_table, dealer_dana, ante(1, 10), bonus(1, 5), ante(2, 10), ante(4, 10), CLOSE_BETS, DEAL)
    act(services.report_irregularity, open_table, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 2, "cards_dealt": 3})
    play(open_table, dealer_dana, bet_flop(1, 20), fold(4), {"action": "deal-flop"})
    hand = void_by(open_table, dealer_dana, {"action": "report-face-up-card", "count": 2})
    record = replays_to_its_settlement(hand)
    assert "dealer" not in record and len(record["board"]) == 3
    assert all("cards" not in b for b in record["boxes"])  # dealt by the engine, never shown
    act(services.start_hand, open_table, dealer_dana, mode="dealt")
    play(open_table, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL)
    act(services.report_irregularity, open_table, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 2, "cards_dealt": 3})
    result = play(open_table, dealer_dana, bet_flop(1, 20), {"action": "deal-flop"}, pass_turn(1),
                  {"action": "deal-turn"}, pass_river(1), {"action": "deal-river"}, reveal_dealer(), reveal_box(1))
    settled = Hand.objects.get(pk=result.hand_id)
    record = replays_to_its_settlement(settled)
    assert record["boxes"][1] == {"box": 2, "ante": 10, "void": True}
    replay_hand_command_reproduces([hand, settled], tmp_path / "dealt.jsonl", capsys)


def test_manage_py_replay_hand_reproduces_void_hands_void_boxes_and_decided_awards(
    open_table, dealer_dana, pit_boss_pat, tmp_path, capsys
):
    """The pit boss's recall, downloaded as one file: each hand replays to exactly its live settlement."""
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), bonus(1, 5), ante(2, 20), CLOSE_BETS, DEAL, bet_flop(1, 20))
    void_by(open_table, dealer_dana, {"action": "report-dealer-card-exposed"})
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), ante(3, 20), CLOSE_BETS, DEAL)
    act(services.report_irregularity, open_table, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 3, "cards_dealt": 3})
    play(open_table, dealer_dana, bet_flop(1, 20), flop("2c 7d 9h"), pass_turn(1), turn("Js"), pass_river(1),
         river("Kc"), reveal_dealer("Qh Qd"), reveal_box(1, "8s Ts"))
    for approve in (False, True):
        act(services.start_hand, open_table, dealer_dana)
        result = play_aces_against_aces(open_table, dealer_dana)
        act(services.decide_award, open_table, pit_boss_pat, hand_id=result.hand_id, box=1, approve=approve,
            reason="" if approve else "the dealer's aces were not shown to the camera")
    hands = list(reversed(reads.recent_hands(open_table)))
    for hand in hands:
        replays_to_its_settlement(hand)
    answers = replay_hand_command_reproduces(hands, tmp_path / "recall.jsonl", capsys)
    assert [a["hand"] for a in answers] == ["THB-1#1", "THB-1#2", "THB-1#3", "THB-1#4"]
    assert answers[0]["void"]["clause"] == "THB-73"
    assert [b["outcome"] for b in answers[1]["boxes"]] == ["win", "void"]
    assert [(a["boxes"][0]["approval"], a["boxes"][0]["bonus"]) for a in answers[2:]] == [
        ("denied", 0), ("approved", 5000)]
    assert [a["boxes"][0]["net"] for a in answers] == [0, 10 + 20 + 0 + 0, 0, 5000]
    assert [-sum(b["net"] for b in a["boxes"]) for a in answers] == [h.house_net for h in hands]


def test_one_tap_repeats_the_last_hands_antes_and_bonus_bets(open_table, dealer_dana):
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(1, 10), bonus(1, 5), ante(4, 25), CLOSE_BETS, DEAL, fold(1, "2h 3h"), fold(4))
    act(services.start_hand, open_table, dealer_dana)
    result = act(services.repeat_last_bets, open_table, dealer_dana)
    state = reads.current_hand(open_table)[1]
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
    # the house lowered the limit between hands (10 times the minimum: THB-18's house option)
    open_table.max_ante, open_table.house_options = 50, {"max_ante_multiple": 10}
    open_table.save()
    act(services.start_hand, open_table, dealer_dana)
    play(open_table, dealer_dana, ante(3, 20))
    result = act(services.repeat_last_bets, open_table, dealer_dana)
    state = reads.current_hand(open_table)[1]
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
