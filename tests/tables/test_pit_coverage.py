"""THB-72: a pit boss (jefe de mesa) covers at most four tables of one game, or two of mixed games.

The limit is the engine's (``verify_pit_coverage``); these tests hold every place a pit boss gets
tables to it: a table added to a pit, a table moved or given another game, a pit given to a pit boss
(who may already run another pit), and the admin's forms through ``full_clean``.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus.table_rules import MAX_TABLES_MIXED, MAX_TABLES_ONE_GAME, verify_pit_coverage
from tables.models import Game, Pit, Table

pytestmark = pytest.mark.django_db

THB, BLACKJACK = Game.TEXAS_HOLDEM_BONUS, Game.BLACKJACK


def _add(pit, n, game=THB):
    return Table.objects.create(pit=pit, name=f"{pit.name}-{n}", min_ante=5, max_ante=100, game=game)


def test_the_limits_are_the_manuals_four_of_one_game_and_two_mixed_thb_72():
    assert (MAX_TABLES_ONE_GAME, MAX_TABLES_MIXED) == (4, 2)


@pytest.mark.parametrize("games", [[THB] * 4, [THB, BLACKJACK], [BLACKJACK] * 3, []])
def test_the_engine_allows_what_one_pit_boss_may_cover_thb_72(games):
    verify_pit_coverage(games)


@pytest.mark.parametrize("games", [[THB] * 5, [THB, THB, BLACKJACK], [THB, BLACKJACK, Game.MINI_PUNTO_BANCO]])
def test_the_engine_refuses_more_citing_thb_72(games):
    with pytest.raises(RuleViolation) as refused:
        verify_pit_coverage(games)
    assert refused.value.clause == "THB-72"
    assert str(len(games)) in refused.value.message


def test_a_fifth_table_of_one_game_is_refused_and_not_saved_thb_72(pit_a):
    for n in range(1, 5):
        _add(pit_a, n)
    with pytest.raises(ValidationError, match="THB-72"):
        _add(pit_a, 5)
    assert pit_a.tables.count() == 4


def test_a_third_table_in_a_mixed_pit_is_refused_thb_72(pit_a):
    _add(pit_a, 1)
    _add(pit_a, 2, game=BLACKJACK)
    with pytest.raises(ValidationError, match="THB-72"):
        _add(pit_a, 3)
    assert pit_a.tables.count() == 2


def test_changing_a_tables_game_that_mixes_three_tables_is_refused_thb_72(pit_a):
    tables = [_add(pit_a, n) for n in range(1, 4)]
    tables[0].game = BLACKJACK
    with pytest.raises(ValidationError, match="THB-72"):
        tables[0].save()
    assert Table.objects.get(pk=tables[0].pk).game == THB


def test_moving_a_table_into_a_full_pit_is_refused_thb_72(pit_a, pit_boss_paula):
    for n in range(1, 5):
        _add(pit_a, n)
    other = _add(Pit.objects.create(name="Pit B", pit_boss=pit_boss_paula), 1)
    other.pit = pit_a
    with pytest.raises(ValidationError, match="THB-72"):
        other.save()
    # Saving a table where it is (a table already counted) is not a new table.
    table = pit_a.tables.first()
    table.name = "renamed"
    table.save()


def test_a_pit_boss_given_a_second_pit_counts_both_pits_tables_thb_72(pit_a, pit_boss_pat):
    for n in range(1, 4):
        _add(pit_a, n)
    pit_b = Pit.objects.create(name="Pit B")
    _add(pit_b, 1)
    _add(pit_b, 2)
    pit_b.pit_boss = pit_boss_pat
    with pytest.raises(ValidationError, match="THB-72"):
        pit_b.save()
    assert Pit.objects.get(pk=pit_b.pk).pit_boss_id is None


def test_a_table_added_to_another_pit_of_the_same_pit_boss_counts_thb_72(pit_a, pit_boss_pat):
    for n in range(1, 4):
        _add(pit_a, n)
    pit_b = Pit.objects.create(name="Pit B", pit_boss=pit_boss_pat)
    _add(pit_b, 1)
    with pytest.raises(ValidationError, match="THB-72"):
        _add(pit_b, 2)


def test_a_pit_boss_taking_over_a_full_pit_is_refused_when_they_already_cover_a_table_thb_72(
        pit_boss_pat, pit_boss_paula):
    mine = Pit.objects.create(name="Pit A", pit_boss=pit_boss_pat)
    _add(mine, 1)
    theirs = Pit.objects.create(name="Pit B", pit_boss=pit_boss_paula)
    for n in range(1, 5):
        _add(theirs, n)
    theirs.pit_boss = pit_boss_pat
    with pytest.raises(ValidationError, match="THB-72"):
        theirs.save()
    # Once Pat hands Pit A over, Pat may take Pit B's four tables.
    mine.pit_boss = None
    mine.save()
    theirs.save()
    assert set(pit_boss_pat.pits.values_list("name", flat=True)) == {"Pit B"}


def test_full_clean_reports_the_limit_as_a_form_would_thb_72(pit_a):
    for n in range(1, 5):
        _add(pit_a, n)
    table = Table(pit=pit_a, name="fifth", min_ante=5, max_ante=100)
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert "THB-72" in str(refused.value)


def test_the_demo_data_keeps_to_the_limit_thb_72(db):
    from django.core.management import call_command

    call_command("seed_demo", allow_production=True, verbosity=0)
    for boss_pits in Pit.objects.exclude(pit_boss=None).values_list("pit_boss", flat=True).distinct():
        games = list(Table.objects.filter(pit__pit_boss=boss_pits).values_list("game", flat=True))
        verify_pit_coverage(games)


# --- THB-72's "contiguas" (issue #38 item 5): the tables' places along the pit ----------------------------------


def test_the_engine_refuses_tables_that_are_not_next_to_each_other_thb_72():
    verify_pit_coverage([THB] * 3, [(1, 2), (1, 3), (1, 4)])
    with pytest.raises(RuleViolation) as refused:
        verify_pit_coverage([THB] * 3, [(1, 1), (1, 2), (1, 4)])
    assert refused.value.clause == "THB-72" and "not next to each other" in refused.value.message
    with pytest.raises(RuleViolation):
        verify_pit_coverage([THB, BLACKJACK], [(1, 1), (1, 3)])  # two mixed tables, apart


def test_a_table_added_to_a_pit_takes_the_next_place_thb_72(pit_a):
    assert [_add(pit_a, n).place for n in range(1, 4)] == [1, 2, 3]


def test_a_table_placed_away_from_the_pit_bosss_others_is_refused_and_not_saved_thb_72(pit_a):
    _add(pit_a, 1)
    _add(pit_a, 2)
    with pytest.raises(ValidationError, match="THB-72"):
        Table.objects.create(pit=pit_a, name="far", min_ante=5, max_ante=100, place=5)
    assert not Table.objects.filter(name="far").exists()
    Table.objects.create(pit=pit_a, name="next", min_ante=5, max_ante=100, place=3)


def test_moving_a_table_out_of_the_middle_of_a_pit_is_refused_thb_72(pit_a, pit_boss_paula):
    tables = [_add(pit_a, n) for n in range(1, 4)]
    table = tables[1]
    table.place = 9
    with pytest.raises(ValidationError, match="THB-72"):
        table.save()
    assert Table.objects.get(pk=table.pk).place == 2


def test_full_clean_reports_a_gap_as_a_form_would_thb_72(pit_a):
    _add(pit_a, 1)
    table = Table(pit=pit_a, name="apart", min_ante=5, max_ante=100, place=3)
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert "THB-72" in str(refused.value)
