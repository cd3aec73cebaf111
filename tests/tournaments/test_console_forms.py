"""The console's forms: the structure and the payout table typed as text, and bad input said plainly."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.utils import translation

from casino.form_input import BadInput
from casino.rules.tournament.structure import Break, Level
from tournaments import forms


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_a_structure_is_typed_one_step_a_line():
    structure = forms.structure_from_text("100/200 20\n200/400/400 20m\nbreak 10 25\n\n300/600/600 15", (25, 100))
    assert structure.steps == (Level(100, 200, 0, 20), Level(200, 400, 400, 20), Break(10, (25,)),
                               Level(300, 600, 600, 15))
    assert structure.denominations == (25, 100)


def test_a_structure_shown_for_editing_reads_back_the_same():
    text = "100/200 20\n200/400/400 20\nbreak 10 25 100\n300/600/600 15"
    assert forms.structure_as_text(forms.structure_from_text(text, (25,))) == text


def test_a_line_that_is_neither_a_level_nor_a_break_is_named():
    with pytest.raises(BadInput, match="Line 2 of the structure"):
        forms.structure_from_text("100/200 20\n100-200 twenty", (25,))


def test_an_empty_structure_is_refused():
    with pytest.raises(BadInput, match="at least one level"):
        forms.structure_from_text("# nothing\n", (25,))


def test_payouts_are_typed_as_percentages_and_kept_in_basis_points():
    assert forms.payout_shares("50 30 20") == (5000, 3000, 2000)
    assert forms.payout_shares("35.5%, 25.5, 20, 19") == (3550, 2550, 2000, 1900)


def test_the_payout_table_has_a_line_per_field_size_and_one_for_any_more():
    table = forms.payout_table("20: 65 35\n50: 50 30 20\n40 25 15 12 8")
    assert table == [[20, [6500, 3500]], [50, [5000, 3000, 2000]],
                     [forms.ANY_NUMBER_OF_ENTRIES, [4000, 2500, 1500, 1200, 800]]]
    assert forms.payout_table_as_text(table) == "20: 65 35\n50: 50 30 20\n40 25 15 12 8"
    assert forms.payout_table("") == []


def test_payouts_that_do_not_add_up_to_the_whole_pool_are_refused():
    with pytest.raises(BadInput, match="add up to 90%"):
        forms.payout_shares("50 30 10")


def test_a_lower_place_cannot_pay_more_than_a_higher_one():
    with pytest.raises(BadInput, match="more than the place above"):
        forms.payout_shares("30 50 20")


def test_a_registration_without_a_valid_birth_date_names_the_field():
    post = QueryDict(mutable=True)
    post.update({"player_name": "Ana", "id_type": "dni", "id_number": "30111222", "birth_date": "31/02/1990"})
    with pytest.raises(BadInput, match="The date of birth must be a date"):
        forms.registration(post)


def test_an_unknown_id_document_is_refused():
    post = QueryDict(mutable=True)
    post.update({"player_name": "Ana", "id_type": "library-card", "id_number": "1", "birth_date": "1990-01-01"})
    with pytest.raises(BadInput, match="the ID document"):
        forms.registration(post)
