"""Property tests (hypothesis): money is exact whatever the hand.

* every settlement returns exactly stake + net per bet, and the stakes are the bets placed;
* a void returns every stake, whenever it happens;
* the house result is minus the sum of the players' nets;
* each bet's net is one the rules allow (THB-47..53).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import full_deck
from casino.rules.holdem_bonus import MANUAL_PAYTABLE, Phase, TableRules, new_hand, replay
from casino.rules.holdem_bonus.record import hand_from_record
from casino.rules.shuffle import Shoe

RULES = TableRules(min_ante=5)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hands(draw):
    """A random recorded hand: 1-7 boxes, antes and Bonus bets within limits, any decisions, any cards."""
    numbers = sorted(draw(st.sets(st.integers(1, 7), min_size=1, max_size=7)))
    deck = draw(st.permutations(full_deck()))
    cards = iter(deck)
    boxes = []
    for number in numbers:
        entry = {"box": number, "ante": draw(st.integers(5, 100)), "cards": [str(next(cards)), str(next(cards))],
                 "flop": draw(st.sampled_from(["bet", "fold"]))}
        if draw(st.booleans()):
            entry["bonus"] = draw(st.integers(1, 100))
        if entry["flop"] == "bet":
            entry["turn"] = draw(st.sampled_from(["bet", "check"]))
            entry["river"] = draw(st.sampled_from(["bet", "check"]))
        boxes.append(entry)
    record = {"game": "texas-holdem-bonus", "boxes": boxes, "dealer": [str(next(cards)), str(next(cards))]}
    if any(b["flop"] == "bet" for b in boxes):
        record["board"] = [str(next(cards)) for _ in range(5)]
    return record


def placed(entry: dict) -> dict[str, int]:
    ante, plays = entry["ante"], entry["flop"] == "bet"
    return {
        "ante": ante,
        "flop": 2 * ante if plays else 0,
        "turn": ante if plays and entry["turn"] == "bet" else 0,
        "river": ante if plays and entry["river"] == "bet" else 0,
        "bonus": entry.get("bonus", 0),
    }


def play(record: dict):
    return hand_from_record(record, RULES)


@FAST
@given(hands())
def test_every_settlement_returns_exactly_stake_plus_net_per_bet(record):
    hand = play(record)
    assert hand.phase is Phase.SETTLED
    for entry in record["boxes"]:
        result = hand.settlement.box(entry["box"])
        stakes = placed(entry)
        for name, wager in result.wagers.items():
            assert wager.stake == stakes[name]
            assert wager.returned == wager.stake + wager.net >= 0
            assert isinstance(wager.net, int) and not isinstance(wager.net, bool)
        assert result.returned == result.staked + result.net


@FAST
@given(hands())
def test_the_house_result_is_minus_the_sum_of_the_players_nets(record):
    settlement = play(record).settlement
    assert settlement.house_net == -sum(b.net for b in settlement.boxes)
    staked = sum(b.staked for b in settlement.boxes)
    returned = sum(b.returned for b in settlement.boxes)
    assert settlement.house_net == staked - returned


@FAST
@given(hands())
def test_each_bet_nets_only_what_the_rules_allow_THB_47_to_53(record):
    settlement = play(record).settlement
    bonus_odds = set(MANUAL_PAYTABLE.pays.values())
    for entry in record["boxes"]:
        result = settlement.box(entry["box"])
        for name in ("ante", "flop", "turn", "river"):
            wager = getattr(result, name)
            assert wager.net in (-wager.stake, 0, wager.stake)
        if result.outcome.value == "lose":
            assert all(getattr(result, n).net == -getattr(result, n).stake for n in ("ante", "flop", "turn", "river"))
        bonus = result.bonus.wager
        assert bonus.net == -bonus.stake or (bonus.stake and bonus.net // bonus.stake in bonus_odds)


@FAST
@given(hands(), st.data())
def test_a_void_returns_every_stake_whenever_it_happens_THB_24(record, data):
    actions = list(play(record).actions)  # the records the hand took, in order
    start = 1 + actions.index(next(a for a in actions if a.kind == "close-bets"))
    cut = data.draw(st.integers(min_value=start, max_value=len(actions) - 1))
    hand = replay(RULES, actions[:cut])
    if hand.phase is Phase.SETTLED:
        return  # everyone folded before the cut: nothing left to void
    on_the_table = {b.number: b.staked for b in hand.boxes}
    hand = hand.void_hand("pit boss voids the round")
    assert hand.phase is Phase.VOID
    for result in hand.settlement.boxes:
        assert all(w.net == 0 and w.returned == w.stake for w in result.wagers.values())
        assert result.returned == result.staked == on_the_table[result.box]
        assert result.ante.stake == placed(next(e for e in record["boxes"] if e["box"] == result.box))["ante"]
    assert hand.settlement.house_net == 0


@FAST
@given(st.permutations(full_deck()), st.sets(st.integers(1, 7), min_size=1), st.data())
def test_a_dealt_hand_settles_and_replays_to_the_same_state(order, numbers, data):
    hand = new_hand(RULES)
    for number in sorted(numbers):
        hand = hand.place_ante(number, 10)
    hand = hand.load_shoe(Shoe(tuple(order))).close_bets().deal_initial()
    while hand.to_act is not None:
        street, box = hand.street, hand.to_act
        choice = data.draw(st.booleans())
        if street == "flop":
            hand = hand.bet_flop(box) if choice else hand.fold(box)
        elif street == "turn":
            hand = hand.bet_turn(box) if choice else hand.pass_turn(box)
        else:
            hand = hand.bet_river(box) if choice else hand.pass_river(box)
        if hand.to_act is None and hand.phase not in (Phase.SETTLED, Phase.SHOWDOWN):
            hand = {"flop": hand.deal_flop, "turn": hand.deal_turn, "river": hand.deal_river}[street]()
    if hand.phase is Phase.RIVER:
        hand = hand.reveal_dealer()
        for box in sorted((b.number for b in hand.boxes if b.plays), reverse=True):
            hand = hand.reveal_box(box)
    assert hand.phase is Phase.SETTLED
    assert replay(RULES, [a.to_dict() for a in hand.actions]) == hand


@FAST
@given(hands(), st.data())
def test_going_on_from_a_replayed_state_is_the_same_as_replaying_from_the_first_record(record, data):
    """The screens' cache applies only the records it has not seen yet (tables.reads.hand_state)."""
    actions = list(play(record).actions)  # the records the hand took, in order
    cut = data.draw(st.integers(0, len(actions)))
    whole = replay(RULES, actions)
    first_part = replay(RULES, actions[:cut])
    assert replay(RULES, actions[cut:], start=first_part) == whole
    assert replay(RULES, actions[:cut]) == first_part  # the start state was not changed by going on
