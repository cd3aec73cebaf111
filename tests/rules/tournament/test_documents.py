"""What an ID document holds (issue #34, item 8, CC-24): the desk's typing is checked against it before
anyone is looked up."""

from __future__ import annotations

from datetime import date

from casino.rules.tournament.eligibility import desk_refusal, id_number_as_on_a_document, name_as_on_a_document


def test_a_name_keeps_accents_apostrophes_hyphens_and_other_scripts_but_no_control_or_bidi_character():
    for real in ("María José O'Neill-Pérez", "Zoë D’Arcy", "Nguyễn Văn An", "Łukasz Żółw", "李小龙"):
        assert name_as_on_a_document(real), real
    for typed in ("Ana\x07", "\x1b[31mAna", "Ana\u202e", "\u2067Ana\u2069", "Ana\u2028Ruiz", "1234", "  "):
        assert not name_as_on_a_document(typed), repr(typed)


def test_an_id_number_is_letters_and_digits_with_the_separators_documents_print():
    for printed in ("30.123.456", "AB123456", "X-1234567-L", "12 345 678"):
        assert id_number_as_on_a_document(printed), printed
    for typed in ("<script>alert(1)</script>", "30123456;", "30\x1f123456", "３０１２３４５６", "30..123", "-30123"):
        assert not id_number_as_on_a_document(typed), repr(typed)


def test_the_desk_refusal_names_what_is_wrong_CC_24():
    good = {"name": "Ana Ruiz", "id_number": "30.123.456", "birth_date": date(1985, 4, 2)}
    assert desk_refusal(**good) is None
    assert desk_refusal(**{**good, "birth_date": date(1, 1, 1)}).clause == "CC-24"
    assert "ID number" in desk_refusal(**{**good, "id_number": "<b>1</b>"}).message
