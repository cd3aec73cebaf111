"""The screens' projections: pure functions of the engine's HandState, no database.

The player's projection is where privacy is decided, so it is tested on its
own: at every step of whole hands (recorded and dealt), the JSON of box 1's
projection must hold no card it may not know.
"""

import json

import pytest
from django.utils import translation

from casino.rules.holdem_bonus import TableRules, new_hand
from casino.rules.shuffle import Shoe
from tables.projections import (
    card_view,
    dealer_projection,
    next_step,
    pit_summary,
    player_projection,
    used_cards,
)


def _codes(projection) -> set[str]:
    """Every card code anywhere in a projection (cards are dicts with a "code")."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            if "code" in value and "symbol" in value:
                found.add(value["code"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(projection)
    return found


def _recorded_hand_steps():
    """A whole recorded hand, step by step: box 1 A-A with a Bonus, box 3 plays, box 5 folds with a Bonus. Under
    THB-67's house option: only box 1's 1000 to 1 waits for the pit boss, box 5's Q-Q is paid at once."""
    rules = TableRules(min_ante=5, release_every_bonus=False)
    steps = [new_hand(rules)]

    def then(fn):
        steps.append(fn(steps[-1]))

    then(lambda h: h.place_ante(1, 10).place_bonus(1, 5).place_ante(3, 20).place_ante(5, 5).place_bonus(5, 5))
    then(lambda h: h.close_bets())
    then(lambda h: h.deal_initial())
    then(lambda h: h.bet_flop(1))
    then(lambda h: h.bet_flop(3))
    then(lambda h: h.fold(5))
    then(lambda h: h.deal_flop(["2c", "7d", "9h"]))
    then(lambda h: h.bet_turn(1).pass_turn(3))
    then(lambda h: h.deal_turn("Js"))
    then(lambda h: h.pass_river(1).bet_river(3))
    then(lambda h: h.deal_river("Kc"))
    then(lambda h: h.reveal_dealer(["Ah", "Ad"]))
    then(lambda h: h.reveal_box(5, ["Qs", "Qh"]))  # the folded box's Bonus, in its place 7 to 1 (C-31)
    then(lambda h: h.reveal_box(3, ["5h", "6h"]))
    then(lambda h: h.reveal_box(1, ["As", "Ac"]))
    return steps


def test_card_view_writes_ten_as_10_and_colours_hearts_and_diamonds():
    assert card_view("Th") == {"code": "Th", "rank": "10", "symbol": "♥", "red": True, "label": "10♥"}
    assert card_view("As")["red"] is False


def test_a_recorded_hand_shows_box_1_only_its_own_cards_and_the_dealers_after_he_turns_them():
    steps = _recorded_hand_steps()
    others = {"5h", "6h", "Qs", "Qh"}
    dealer = {"Ah", "Ad"}
    for index, state in enumerate(steps):
        view = player_projection(state, 1)
        codes = _codes(view)
        assert not codes & others, f"step {index} leaks another box's cards: {codes & others}"
        if not state.dealer_revealed:
            assert not codes & dealer, f"step {index} shows the dealer's cards before he turns them"
        json.dumps(view, default=str)  # plain values only
    final = player_projection(steps[-1], 1)
    assert [c["code"] for c in final["cards"]] == ["As", "Ac"]
    assert [c["code"] for c in final["dealer_cards"]] == ["Ah", "Ad"]
    result = final["result"]
    assert result["bonus_award"] == "aa-vs-dealer-aa" and result["blocked"] is True
    assert result["approval"] == "pending"


def test_a_box_that_is_not_in_the_hand_sees_the_board_and_nothing_of_the_boxes():
    state = _recorded_hand_steps()[-1]
    view = player_projection(state, 2)
    assert view["in_hand"] is False
    assert _codes(view) == {"2c", "7d", "9h", "Js", "Kc", "Ah", "Ad"}
    assert "result" not in view and "bets" not in view


def test_no_hand_yet_is_a_projection_too():
    assert player_projection(None, 4) == {"box": 4, "hand": False}


def test_a_dealt_hand_gives_box_1_its_own_hole_cards_at_once_and_never_the_shoe():
    shoe = Shoe.shuffled()
    state = new_hand(TableRules(min_ante=5)).load_shoe(shoe)
    state = state.place_ante(1, 10).place_ante(2, 10).close_bets().deal_initial()
    mine = {str(c) for c in state.box(1).cards}
    theirs = {str(c) for c in state.box(2).cards}
    dealer = {str(c) for c in state.dealer_cards}
    undealt = {str(c) for c in state.shoe.cards}
    seen = []
    state_steps = [state]
    state = state.bet_flop(1).bet_flop(2)
    state_steps.append(state)
    state = state.deal_flop()
    state_steps.append(state)
    state = state.pass_turn(1).pass_turn(2).deal_turn().pass_river(1).pass_river(2).deal_river()
    state_steps.append(state)
    for step in state_steps:
        view = player_projection(step, 1)
        codes = _codes(view)
        seen.append(codes)
        board = {str(c) for c in step.board}
        assert mine <= codes
        assert not codes & theirs
        assert not codes & dealer
        assert not (codes - mine - board)  # nothing else at all: not the discards, not the shoe
        assert not codes & (undealt - board)
    state = state.reveal_dealer()
    assert dealer <= _codes(player_projection(state, 1))
    state = state.reveal_box(2)
    # Box 2's cards are on the table face up now, but box 1's phone still does not receive them.
    assert not _codes(player_projection(state, 1)) & theirs


def test_next_step_follows_the_manuals_order():
    steps = _recorded_hand_steps()
    kinds = [(next_step(s)["kind"], next_step(s).get("box"), next_step(s).get("street")) for s in steps]
    assert kinds == [
        ("bets", None, None),
        ("bets", None, None),
        ("deal-initial", None, None),
        ("decision", 1, "flop"),
        ("decision", 3, "flop"),
        ("decision", 5, "flop"),
        ("street", None, "flop"),
        ("decision", 1, "turn"),
        ("street", None, "turn"),
        ("decision", 1, "river"),
        ("street", None, "river"),
        ("dealer-cards", None, None),
        ("box-cards", 5, None),
        ("box-cards", 3, None),
        ("box-cards", 1, None),
        ("approval", None, None),
    ]
    assert next_step(steps[0])["can_close"] is False
    assert next_step(steps[1])["can_close"] is True
    flop = next_step(steps[3])
    assert flop["bet_amount"] == 20 and flop["can_bet"] and flop["can_fold"]


def test_when_everybody_folds_the_bonus_cards_come_first_and_the_dealers_only_for_an_a_a():
    state = new_hand(TableRules(min_ante=5)).place_ante(2, 10).place_bonus(2, 5).close_bets().deal_initial()
    state = state.fold(2)
    assert next_step(state)["kind"] == "box-cards"
    state = state.reveal_box(2, ["As", "Ad"])
    assert next_step(state)["kind"] == "dealer-cards"
    state = state.reveal_dealer(["Ah", "Ac"])
    assert next_step(state)["kind"] == "approval"


def test_the_dealers_tablet_shows_face_up_cards_only():
    steps = _recorded_hand_steps()
    before_showdown = dealer_projection(steps[10])
    assert before_showdown["dealer_cards"] is None
    assert all(row.get("cards") is None for row in before_showdown["boxes"])
    final = dealer_projection(steps[-1])
    assert [r["box"] for r in final["results"]] == [5, 3, 1]  # paid from box 7 down to box 1
    box_1 = final["results"][2]
    # A-A against the dealer's A-A on this board is a tie (THB-68): the main bets push, and the 1000 to 1
    # Bonus is held, not paid, until the pit boss approves it (THB-54).
    assert box_1["outcome"] == "push" and box_1["pay"] == 0 and box_1["held"] == 5000 and box_1["take"] == 0
    box_5 = final["results"][0]
    assert box_5["take"] == 5 and box_5["pay"] == 50  # ante lost on the fold, Q-Q Bonus pays 10 to 1
    assert {"2c", "Ah", "As"} <= set(final["used"])


def test_used_cards_in_dealt_mode_leave_out_the_face_down_ones():
    state = new_hand(TableRules(min_ante=5)).load_shoe(Shoe.shuffled()).place_ante(1, 10).close_bets()
    state = state.deal_initial()
    assert used_cards(state) == set()


def test_pit_summary_counts_boxes_in_play_and_the_amount_at_risk():
    steps = _recorded_hand_steps()
    summary = pit_summary(steps[7])  # after the flop: box 5 folded
    assert summary["boxes_in_play"] == [1, 3]
    assert summary["at_risk"] == (10 + 5 + 20) + (20 + 40) + (5 + 5)
    assert pit_summary(steps[-1])["pending"] == [1]
    assert pit_summary(None) == {"hand": False, "boxes_in_play": [], "at_risk": 0}


@pytest.mark.parametrize("language,label", [("es", "Hagan sus apuestas"), ("en", "Place your bets")])
def test_labels_are_in_the_viewers_language(language, label):
    view = player_projection(new_hand(TableRules(min_ante=5)), 1)
    with translation.override(language):
        assert str(view["phase_label"]) == label


def test_the_tablet_asks_for_the_showdown_cards_in_the_engines_order():
    state = (new_hand(TableRules(min_ante=5)).place_ante(3, 10).place_bonus(3, 5).place_ante(5, 10).close_bets()
             .deal_initial().fold(3).bet_flop(5, 20).deal_flop(["2c", "7d", "9h"]).pass_turn(5).deal_turn("Js")
             .pass_river(5).deal_river("Kc"))
    asked = []
    for cards in (["3h", "4s"], ["8s", "8d"], ["5c", "5d"]):
        step = next_step(state)
        asked.append((step["kind"], step.get("box")))
        assert state.showdown_order[0] == ("dealer" if step["kind"] == "dealer-cards" else "box", step.get("box"))
        state = state.reveal_dealer(cards) if step["kind"] == "dealer-cards" else state.reveal_box(step["box"], cards)
    assert asked == [("dealer-cards", None), ("box-cards", 5), ("box-cards", 3)]
    assert next_step(state)["kind"] == "approval"  # box 3's folded 5-5 won its Bonus: the pit boss releases it
    assert next_step(state.approve_bonus(3, approver="pat"))["kind"] == "settled"
