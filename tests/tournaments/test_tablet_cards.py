"""What the dealer's tablet shows of a hand's cards and its award (issue #36, items 3 and 4):
``tournaments.rendering.tablet_cards``, read from the engine's state."""

from __future__ import annotations

from django.utils import translation

from casino.rules.holdem import Phase
from tests.rules.holdem.helpers import new_hand
from tournaments.rendering.tablet_cards import card_grid, cards_face_up, hand_results

NAMES = {1: "Pia Paz", 2: "Quique Quiroga", 3: "Rita Rey"}


def _to_the_award(short_hand: str, big_hand: str):
    """Three-handed: the button folds, the short small blind moves all in, the big blind calls; the board
    2c 7d 9h Js Kc, the small blind shows ``short_hand`` and the big blind ``big_hand``."""
    hand = new_hand({1: 1000, 2: 500, 3: 1000}, button=1)
    hand = hand.fold(1).all_in(2).call(3)
    hand = hand.deal_flop(["2c", "7d", "9h"]).deal_turn("Js").deal_river("Kc")
    for seat in hand.showdown_order():
        hand = hand.show_hand(seat, {2: short_hand, 3: big_hand}[seat].split())
    assert hand.phase is Phase.AWARD
    return hand


def test_the_award_names_who_collects_with_which_hand_and_who_busts_not_who_collects_nothing():
    hand = _to_the_award("3h 4s", "As Ad")
    with translation.override("en"):
        results = hand_results(hand, NAMES)
    assert results["winners"] == [{"seat": 3, "name": "Rita Rey", "chips": 1000, "hand": "Pair",
                                   "cards": "Ad As Kc Js 9h"}]
    assert results["busts"] == [{"seat": 2, "name": "Quique Quiroga"}]


def test_the_hands_name_is_in_the_viewers_language_and_the_hand_over_says_the_same():
    finished = _to_the_award("3h 4s", "As Ad").award_pots()
    with translation.override("es"):
        results = hand_results(finished, NAMES)
    assert results["winners"][0]["hand"] == "Pareja"
    assert [b["seat"] for b in results["busts"]] == [2]


def test_a_pot_won_uncontested_names_no_hand_and_busts_no_one():
    # the big blind's uncalled 100 goes back to his stack: he collects the 200 matched
    hand = new_hand({1: 1000, 2: 1000, 3: 1000}, button=1).fold(1).fold(2)
    results = hand_results(hand, NAMES)
    assert results == {"winners": [{"seat": 3, "name": "Rita Rey", "chips": 200, "hand": "", "cards": ""}],
                       "busts": []}


def test_before_the_award_there_is_nothing_to_say():
    assert hand_results(new_hand({1: 1000, 2: 1000, 3: 1000}, button=1), NAMES) is None


def test_the_picker_greys_out_the_board_and_the_hands_shown_TDA_35():
    hand = _to_the_award("3h 4s", "As Ad")
    up = cards_face_up(hand)
    assert up == {"2c", "7d", "9h", "Js", "Kc", "3h", "4s", "As", "Ad"}
    grid = card_grid(up)
    assert [len(row) for row in grid] == [13, 13, 13, 13]
    assert grid[0][0] == {"code": "As", "rank": "A", "symbol": "♠", "red": False, "used": True}
    assert sum(c["used"] for row in grid for c in row) == 9


def test_a_busted_player_is_named_though_he_has_left_the_seats(client, first_table, dealer_dana_here):
    """The award's names come from the hand's entries: the table's seats no longer list the busted player."""
    from tournaments.reads import hands as hand_reads
    from tournaments.rendering.tablet import tablet_context
    from tournaments.services import dealing

    table, engine = first_table, None
    dealing.start_hand(table=table, by=dealer_dana_here, key="start", expected_version=table.version)
    while True:
        table.refresh_from_db()
        engine = hand_reads.hand_state(hand_reads.latest_hand(table))
        if engine.phase is not Phase.BETTING:
            break
        seat = engine.legal().seat
        record = {"action": "all-in" if engine.can_all_in(seat) else "call", "seat": seat}
        dealing.act(table=table, by=dealer_dana_here, key=f"{seat}-{engine.pot_total}", expected_version=table.version,
                    record=record)
    board = iter(["2c", "7d", "9h", "Js", "Kc"])
    holes = iter(["As Ad", "3h 4s", "5c 6c", "8d 8c"])
    while engine.phase is not Phase.AWARD:
        if engine.phase is Phase.BOARD:
            record = {"action": "deal-flop", "cards": [next(board) for _ in range(3)]} if not engine.board else \
                {"action": "deal-turn" if len(engine.board) == 3 else "deal-river", "card": next(board)}
        else:
            seat = engine.showdown_order()[sum(engine.shown)]
            record = {"action": "show", "seat": seat, "cards": next(holes).split()}
        dealing.act(table=table, by=dealer_dana_here, key=f"{record}", expected_version=table.version, record=record)
        table.refresh_from_db()
        engine = hand_reads.hand_state(hand_reads.latest_hand(table))
    dealing.act(table=table, by=dealer_dana_here, key="award", expected_version=table.version,
                record={"action": "award-pots"})
    table.refresh_from_db()
    with translation.override("en"):
        results = tablet_context(table)["results"]
    assert results["busts"] and all(b["name"] for b in results["busts"])
    assert results["winners"][0]["name"] and results["winners"][0]["hand"] == "Pair"
