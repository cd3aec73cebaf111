"""Payout tables, prizes and the ranking (CC-14..21, CC-34, CC-47, RP-08-A/ex1, C-20)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.rules.errors import RuleViolation
from casino.rules.tournament.prizes import (
    Elimination,
    MoneyStage,
    check_shares,
    default_payout_shares,
    money_stage,
    place_prizes,
    results,
)


def by_entry(ranking):
    return {entry: (result.places, result.prize(entry)) for result in ranking for entry in result.entries}


# ------------------------------------------------------------------ the payout table


@pytest.mark.parametrize("entries", [0, 1, 2, 7, 8, 11, 12, 19, 20, 50, 100, 333, 1000])
def test_cc14_the_default_table_sums_to_the_whole_pool_and_never_pays_a_lower_place_more(entries):
    shares = default_payout_shares(entries)
    assert sum(shares) == 10_000
    assert all(higher >= lower for higher, lower in zip(shares, shares[1:]))
    assert all(share > 0 for share in shares)


def test_the_default_table_pays_one_place_in_a_small_field_and_about_an_eighth_of_a_large_one():
    assert default_payout_shares(7) == (10_000,)
    assert len(default_payout_shares(100)) == 13
    assert 0.10 <= len(default_payout_shares(400)) / 400 <= 0.15


def test_the_default_table_for_two_places_is_roughly_65_35():
    first, second = default_payout_shares(12)
    assert 6_300 <= first <= 6_700 and first + second == 10_000


def test_cc14_an_edited_table_not_summing_to_10000_is_refused():
    with pytest.raises(RuleViolation, match="9999"):
        check_shares((5_000, 4_999))


def test_cc17_an_edited_table_paying_a_lower_place_more_is_refused():
    with pytest.raises(RuleViolation, match="Place 3 would be paid more than place 2"):
        check_shares((5_000, 2_000, 3_000))


def test_an_empty_or_negative_table_is_refused():
    with pytest.raises(RuleViolation):
        check_shares(())
    with pytest.raises(RuleViolation):
        check_shares((10_500, -500))


# ------------------------------------------------------------------ each place's prize


def test_prizes_are_rounded_down_to_the_unit_and_the_whole_units_left_go_to_place_1_then_2():
    # 1,000 at 50/30/20 in units of 30: 500->480, 300->300, 200->180; 40 left = one unit (30) to place 1, 10 to place 1.
    assert place_prizes(1_000, (5_000, 3_000, 2_000), unit=30) == (520, 300, 180)


def test_the_whole_units_left_over_are_handed_out_from_place_1_down():
    # 100 in thirds (3334/3333/3333) of units of 10: 33.34->30, 33.33->30, 33.33->30; 10 left -> one unit to place 1.
    assert place_prizes(100, (3_334, 3_333, 3_333), unit=10) == (40, 30, 30)
    # 95 in units of 1 at 3334/3333/3333: 31 each (31.67 rounded down) then 2 left -> places 1 and 2.
    assert place_prizes(95, (3_334, 3_333, 3_333)) == (32, 32, 31)


@given(pool=st.integers(0, 10**9), unit=st.sampled_from([1, 5, 10, 100, 1000]),
       entries=st.integers(1, 600))
def test_the_prizes_always_add_up_to_the_pool_and_never_increase_down_the_places(pool, unit, entries):
    prizes = place_prizes(pool, default_payout_shares(entries), unit)
    assert sum(prizes) == pool
    assert all(higher >= lower for higher, lower in zip(prizes, prizes[1:]))
    assert all(prize % unit == 0 for prize in prizes[1:])


# ------------------------------------------------------------------ the ranking


def test_cc17_cc18_the_first_eliminated_ranks_last_and_the_last_one_with_chips_wins():
    ranking = results(4, [Elimination(10, 1), Elimination(20, 2), Elimination(30, 3)], (40,), (600, 300, 100))
    assert by_entry(ranking) == {40: ((1,), 600), 30: ((2,), 300), 20: ((3,), 100), 10: ((4,), 0)}
    assert [result.places for result in ranking] == [(1,), (2,), (3,), (4,)]


def test_while_several_are_still_in_only_the_eliminated_are_ranked():
    ranking = results(4, [Elimination(10, 1)], (20, 30, 40), (600, 300, 100))
    assert by_entry(ranking) == {10: ((4,), 0)}


def test_cc19_more_chips_at_the_start_of_the_hand_ranks_higher():
    out = [Elimination(1, 1, table=3, hand=40, stack_at_start=5_000),
           Elimination(2, 2, table=3, hand=40, stack_at_start=9_000)]
    ranking = by_entry(results(4, out, (3, 4), (500, 300, 200)))
    assert ranking == {2: ((3,), 200), 1: ((4,), 0)}


def test_cc19_equal_stacks_at_the_start_of_the_hand_split_the_places():
    out = [Elimination(1, 1, table=3, hand=40, stack_at_start=5_000),
           Elimination(2, 2, table=3, hand=40, stack_at_start=5_000)]
    ranking = results(3, out, (3,), (500, 300, 200))
    assert ranking[1].places == (2, 3) and ranking[1].prize_each == 250


def test_cc21_players_out_at_different_tables_in_one_hand_for_hand_hand_split_equally():
    out = [Elimination(1, 1, table=1, hand_for_hand_hand=7, stack_at_start=100),
           Elimination(2, 2, table=2, hand_for_hand_hand=7, stack_at_start=9_000)]
    ranking = results(4, out, (3, 4), (600, 300, 100))
    assert ranking[0].places == (3, 4) and ranking[0].prize_each == 50


def test_cc20_when_the_stacks_are_not_known_the_order_cannot_be_told_and_the_places_split():
    out = [Elimination(1, 1, table=3, hand=40), Elimination(2, 2, table=3, hand=40, stack_at_start=1)]
    ranking = results(4, out, (3, 4), (600, 300, 100))
    assert ranking[0].places == (3, 4)


def test_cc20_busts_in_hands_at_different_tables_recorded_at_one_instant_share_their_places():
    """The simulator deals a round at every table at one instant (issue #38 item 15): which of these busts came
    first cannot be told, so the places are shared, whichever was written first."""
    from datetime import UTC, datetime

    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    out = [Elimination(1, 1, table=1, hand=12, stack_at_start=9_000, at=now),
           Elimination(2, 2, table=2, hand=15, stack_at_start=100, at=now)]
    ranking = results(4, out, (3, 4), (600, 300, 100))
    assert ranking[0].places == (3, 4) and ranking[0].entries == (2, 1) and ranking[0].prize_each == 50


def test_cc18_busts_at_different_tables_at_different_instants_keep_their_order():
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    out = [Elimination(1, 1, table=1, hand=12, stack_at_start=9_000, at=now),
           Elimination(2, 2, table=2, hand=15, stack_at_start=100, at=now + timedelta(microseconds=1))]
    assert by_entry(results(4, out, (3, 4), (600, 300, 100))) == {2: ((3,), 100), 1: ((4,), 0)}


def test_cc19_cc20_two_out_at_one_table_and_one_at_another_at_the_same_instant_all_share():
    """Two busts of one hand at one table are ranked by their stacks (CC-19) only against each other; a bust
    at another table at the same instant cannot be placed between or around them: the three share (as in a
    hand-for-hand hand, RP-08-A)."""
    from datetime import UTC, datetime

    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    out = [Elimination(1, 1, table=1, hand=12, stack_at_start=100, at=now),
           Elimination(2, 2, table=1, hand=12, stack_at_start=9_000, at=now),
           Elimination(3, 3, table=2, hand=15, stack_at_start=500, at=now)]
    ranking = results(5, out, (4, 5), (600, 300, 100))
    assert [(r.places, set(r.entries)) for r in ranking] == [((3, 4, 5), {1, 2, 3})]


def test_a_withdrawal_at_the_same_instant_as_a_bust_elsewhere_keeps_its_own_place_CC_34():
    from datetime import UTC, datetime

    now = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    out = [Elimination(1, 1, table=1, hand=12, at=now), Elimination(2, 2, how="withdrawal", table=2, at=now)]
    assert by_entry(results(4, out, (3, 4), (600, 300, 100))) == {2: ((3,), 100), 1: ((4,), 0)}


def test_busts_in_different_hands_at_one_table_are_not_grouped():
    out = [Elimination(1, 1, table=3, hand=40, stack_at_start=9), Elimination(2, 2, table=3, hand=41, stack_at_start=1)]
    assert by_entry(results(3, out, (3,), (600, 300, 100))) == {3: ((1,), 600), 2: ((2,), 300), 1: ((3,), 100)}


def test_rp08_ex1_fifty_paid_fifty_two_left_three_out_in_the_hand_split_the_50th_prize():
    prizes = tuple(1_000 - place for place in range(1, 51))  # 50 places paid; place 50 pays 950
    earlier = [Elimination(entry, entry) for entry in range(1, 49)]  # 100 entries, 52 left
    hand = [Elimination(49, 49, table=1, hand_for_hand_hand=1),
            Elimination(50, 50, table=2, hand_for_hand_hand=1),
            Elimination(51, 51, table=4, hand_for_hand_hand=1)]
    ranking = results(100, earlier + hand, tuple(range(52, 101)), prizes)
    (shared,) = [result for result in ranking if 50 in result.entries]
    assert shared.places == (50, 51, 52)
    assert shared.prize_each * 3 + shared.remainder == prizes[49]
    assert shared.prize_each == 316 and shared.remainder == 2 and shared.remainder_to == 51


def test_a_split_remainder_is_rounded_to_the_unit_and_goes_to_the_first_listed():
    out = [Elimination(1, 1, table=1, hand_for_hand_hand=1), Elimination(2, 2, table=2, hand_for_hand_hand=1)]
    ranking = results(3, out, (3,), (700, 250, 150), unit=50)
    split = ranking[1]
    assert split.prize_each == 200 and split.remainder == 0  # 400 / 2
    ranking = results(3, out, (3,), (650, 300, 50), unit=100)
    split = ranking[1]
    assert (split.prize_each, split.remainder, split.remainder_to) == (100, 150, 2)
    assert split.prize(2) == 250 and split.prize(1) == 100


def test_cc34_a_withdrawal_ranks_as_an_elimination_at_that_moment_and_keeps_its_prize():
    out = [Elimination(1, 1), Elimination(2, 2, how="withdrawal", table=1, hand=5), Elimination(3, 3)]
    assert by_entry(results(4, out, (4,), (500, 300, 200))) == {4: ((1,), 500), 3: ((2,), 300),
                                                               2: ((3,), 200), 1: ((4,), 0)}


def test_cc47_a_disqualified_player_gets_nothing_and_his_prize_is_shared_by_those_still_in():
    # 5 entries, 3 paid. 5 busts, then 4 is disqualified in 3rd place: his 200 goes to the 2 still in.
    out = [Elimination(5, 1), Elimination(3, 2), Elimination(4, 3, how="disqualification"), Elimination(2, 4)]
    ranking = results(5, out, (1,), (500, 300, 200))
    assert by_entry(ranking) == {1: ((1,), 600), 2: ((2,), 400), 4: ((3,), 0), 3: ((4,), 0), 5: ((5,), 0)}
    assert ranking[2].how == "disqualification"


def test_cc47_a_player_out_before_the_disqualification_gets_no_share():
    out = [Elimination(3, 1), Elimination(2, 2, how="disqualification")]
    ranking = by_entry(results(3, out, (1,), (500, 300, 200)))
    assert ranking == {1: ((1,), 800), 2: ((2,), 0), 3: ((3,), 200)}


def test_cc47_an_uneven_forfeited_prize_leaves_its_remainder_to_the_winner():
    out = [Elimination(4, 1, how="disqualification"), Elimination(3, 2), Elimination(2, 3)]
    ranking = results(4, out, (1,), (500, 300, 100, 100), unit=1)
    assert by_entry(ranking) == {1: ((1,), 534), 2: ((2,), 333), 3: ((3,), 133), 4: ((4,), 0)}


def test_a_disqualification_outside_the_money_changes_nothing():
    out = [Elimination(3, 1, how="disqualification"), Elimination(2, 2)]
    assert by_entry(results(3, out, (1,), (700, 300))) == {1: ((1,), 700), 2: ((2,), 300), 3: ((3,), 0)}


def test_an_inconsistent_count_or_a_double_elimination_is_refused():
    with pytest.raises(RuleViolation, match="do not make the 5 entries"):
        results(5, [Elimination(1, 1)], (2, 3), (100,))
    with pytest.raises(RuleViolation, match="twice"):
        results(3, [Elimination(1, 1), Elimination(1, 2)], (2,), (100,))
    with pytest.raises(RuleViolation, match="unknown way"):
        results(2, [Elimination(1, 1, how="vanished")], (2,), (100,))


@st.composite
def finished_events(draw):
    entries = draw(st.integers(2, 40))
    order = draw(st.permutations(range(1, entries + 1)))
    out, hand = [], 0
    for seq, entry in enumerate(order[:-1], start=1):
        if not draw(st.booleans()):
            hand += 1  # a new hand; otherwise out in the same hand as the previous one
        kind = draw(st.sampled_from(["table", "hand_for_hand", "none", "withdrawal", "disqualification"]))
        if kind in ("withdrawal", "disqualification"):
            out.append(Elimination(entry, seq, how=kind))
        elif kind == "table":
            out.append(Elimination(entry, seq, table=1, hand=hand, stack_at_start=draw(st.integers(1, 3))))
        elif kind == "hand_for_hand":
            out.append(Elimination(entry, seq, table=draw(st.integers(1, 3)), hand_for_hand_hand=hand,
                                   stack_at_start=draw(st.integers(1, 3))))
        else:
            out.append(Elimination(entry, seq))
    unit = draw(st.sampled_from([1, 10, 100]))
    pool = draw(st.integers(0, 10**6))
    prizes = place_prizes(pool, default_payout_shares(entries), unit)
    return entries, out, (order[-1],), prizes, unit


@given(finished_events())
def test_the_prizes_of_a_finished_event_always_add_up_to_the_pool_and_every_place_is_taken_once(event):
    entries, out, survivors, prizes, unit = event
    ranking = results(entries, out, survivors, prizes, unit=unit)
    assert sum(result.total for result in ranking) == sum(prizes)
    assert sorted(place for result in ranking for place in result.places) == list(range(1, entries + 1))
    assert sorted(entry for result in ranking for entry in result.entries) == list(range(1, entries + 1))
    assert all(result.total == 0 for result in ranking if result.how == "disqualification")


def test_cc47_a_second_disqualified_player_forfeits_his_share_of_the_first_ones_prize_too():
    # 4 entries, all paid 400/300/200/100. 4 is disqualified in 4th: 100 to the 3 still in (33 each, 1 to
    # the winner). Then 3 is disqualified in 3rd: his 200 and his 33 go to the 2 still in (116 each, 1 left).
    out = [Elimination(4, 1, how="disqualification"), Elimination(3, 2, how="disqualification"), Elimination(2, 3)]
    ranking = results(4, out, (1,), (400, 300, 200, 100))
    assert by_entry(ranking) == {1: ((1,), 400 + 33 + 116 + 1 + 1), 2: ((2,), 300 + 33 + 116),
                                 3: ((3,), 0), 4: ((4,), 0)}
    assert sum(result.total for result in ranking) == 1_000


# ------------------------------------------------------------------ the bubble


def test_RP_08_A_ex1_with_50_paid_52_left_is_outside_51_the_bubble_and_50_in_the_money():
    assert money_stage(52, 50) is MoneyStage.OUTSIDE
    assert money_stage(51, 50) is MoneyStage.BUBBLE
    assert money_stage(50, 50) is MoneyStage.IN_THE_MONEY
    assert money_stage(1, 50) is MoneyStage.IN_THE_MONEY


def test_RP_08_A_there_is_no_bubble_before_any_place_is_paid_or_when_the_field_is_all_paid():
    assert money_stage(120, 0) is None  # the pool is not fixed yet (CC-14)
    assert money_stage(0, 3) is None
    assert money_stage(3, 3) is MoneyStage.IN_THE_MONEY


@given(st.integers(1, 500), st.integers(1, 100))
def test_RP_08_A_the_stage_only_moves_towards_the_money_as_players_bust(left, paid):
    order = list(MoneyStage)
    stages = [money_stage(n, paid) for n in range(left, 0, -1)]
    assert [order.index(s) for s in stages] == sorted(order.index(s) for s in stages)
    assert stages.count(MoneyStage.BUBBLE) == (1 if left > paid else 0)
