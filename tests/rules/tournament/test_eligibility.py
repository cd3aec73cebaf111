"""Who may enter (CC-23..27, C-32, I-CC-11) and the exclusion register's CSV (CC-23)."""

from __future__ import annotations

from datetime import date

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament.eligibility import (
    Applicant,
    age_on,
    normalise_id_number,
    on_exclusion_list,
    parse_exclusion_csv,
    read_exclusion_csv,
    refusal,
)
from casino.rules.tournament.options import HouseOptions

EVENT_DAY = date(2026, 11, 23)
HOUSE = HouseOptions()


def person(**changes):
    values = {"id_type": "dni", "id_number": "30.123.456", "birth_date": date(1980, 5, 1)}
    values.update(changes)
    return Applicant(**values)


def clause(applicant, on=EVENT_DAY, options=HOUSE, **kwargs):
    refused = refusal(applicant, on=on, options=options, **kwargs)
    return refused.clause if refused else None


def test_an_adult_with_a_valid_dni_and_no_entry_yet_may_enter():
    assert refusal(person(), on=EVENT_DAY, options=HOUSE) is None


def test_cc23_eighteen_on_the_day_of_the_event_may_enter_but_not_the_day_before_his_birthday():
    assert clause(person(birth_date=date(2008, 11, 23))) is None
    refused = refusal(person(birth_date=date(2008, 11, 24)), on=EVENT_DAY, options=HOUSE)
    assert refused.clause == "CC-23" and "Under 18" in refused.message


def test_cc23_born_on_29_february_turns_eighteen_on_1_march_in_a_common_year():
    born = date(2008, 2, 29)
    assert age_on(born, date(2026, 2, 28)) == 17
    assert age_on(born, date(2026, 3, 1)) == 18
    assert clause(person(birth_date=born), on=date(2026, 2, 28)) == "CC-23"
    assert clause(person(birth_date=born), on=date(2026, 3, 1)) is None


def test_cc23_the_house_minimum_age_is_an_option():
    assert clause(person(birth_date=date(2006, 1, 1)), options=HouseOptions(minimum_age=21)) == "CC-23"
    assert clause(person(birth_date=date(2006, 1, 1))) is None


def test_cc23_a_missing_or_future_date_of_birth_is_refused():
    assert clause(person(birth_date=None)) == "CC-23"
    assert clause(person(birth_date=date(2030, 1, 1))) == "CC-23"


def test_cc23_someone_on_the_exclusion_register_may_not_enter():
    refused = refusal(person(excluded=True), on=EVENT_DAY, options=HOUSE)
    assert refused.clause == "CC-23" and "exclusion" in refused.message


def test_cc23_company_staff_and_inspectors_may_not_enter():
    refused = refusal(person(staff=True), on=EVENT_DAY, options=HOUSE)
    assert refused.clause == "CC-23" and "staff" in refused.message


@pytest.mark.parametrize("id_type, number", [("driving_licence", "30123456"), ("dni", ""), ("dni", "1234"),
                                             ("dni", "12/345/678"), ("passport", "A" * 21)])
def test_cc24_no_valid_id_is_refused(id_type, number):
    assert clause(person(id_type=id_type, id_number=number)) == "CC-24"


def test_i_cc11_the_accepted_id_types_are_a_list_the_house_sets():
    assert clause(person(id_type="carnet"), id_types=("carnet",)) is None
    assert clause(person(id_type="dni"), id_types=("carnet",)) == "CC-24"


def test_cc26_a_second_entry_is_refused_unless_the_event_allows_reentry():
    assert clause(person(entries_in_event=1)) == "CC-26"
    assert clause(person(entries_in_event=1), options=HouseOptions(reentry_allowed=True)) is None


def test_cc34_a_player_who_withdrew_may_not_enter_again_even_with_reentry_on():
    reentry_on = HouseOptions(reentry_allowed=True)
    assert clause(person(entries_in_event=1, withdrew=True), options=reentry_on) == "CC-34"
    assert clause(person(entries_in_event=1, withdrew=True)) == "CC-34"
    assert clause(person(entries_in_event=1), options=reentry_on) is None


def test_cc32_late_registration_is_open_through_its_level_and_refused_after_it():
    from casino.rules.tournament.eligibility import late_registration_refusal

    assert late_registration_refusal(levels_begun=0, until_level=4) is None  # before the start
    assert late_registration_refusal(levels_begun=4, until_level=4) is None
    refused = late_registration_refusal(levels_begun=5, until_level=4)
    assert refused is not None and refused.clause == "CC-32"
    assert late_registration_refusal(levels_begun=30, until_level=None) is None  # no end set


def test_the_id_check_comes_first():
    refused = refusal(person(id_number="", excluded=True, birth_date=date(2015, 1, 1)), on=EVENT_DAY, options=HOUSE)
    assert refused.clause == "CC-24"


def test_id_numbers_are_compared_without_spaces_dots_or_dashes_in_upper_case():
    assert normalise_id_number(" 30.123.456 ") == "30123456"
    assert normalise_id_number("aa-123 456") == "AA123456"


CSV = """id_type,id_number,listed_on,kind
dni,30.123.456,2024-03-01,self_exclusion

passport,ab-123456,2025-12-31,exclusion
"""


def test_the_exclusion_csv_gives_type_normalised_number_date_and_kind():
    assert parse_exclusion_csv(CSV) == [("dni", "30123456", date(2024, 3, 1), "self_exclusion"),
                                        ("passport", "AB123456", date(2025, 12, 31), "exclusion")]


def test_the_exclusion_csv_takes_its_columns_by_header_and_a_byte_order_mark():
    text = "\ufeffKind,listed_on,ID_NUMBER,id_type,note\nexclusion,2024-01-02,30123456,dni,court order\n"
    assert parse_exclusion_csv(text) == [("dni", "30123456", date(2024, 1, 2), "exclusion")]


def test_someone_on_the_imported_list_is_found_however_the_number_is_written():
    rows = parse_exclusion_csv(CSV)
    assert on_exclusion_list("dni", "30123456", rows)
    assert on_exclusion_list("passport", "AB 123-456", rows)
    assert not on_exclusion_list("cedula", "30123456", rows)


@pytest.mark.parametrize("text, message", [
    ("id_type,id_number\n", "Line 1: the header lacks the column(s) listed_on, kind"),
    ("", "Line 1"),
    (CSV + "dni,30123456,2024-13-01,exclusion\n", "Line 5: '2024-13-01' is not a date"),
    (CSV + "licence,30123456,2024-01-01,exclusion\n", "Line 5: 'licence' is not an accepted ID type"),
    (CSV + "dni,12,2024-01-01,exclusion\n", "Line 5: ID number '12'"),
    (CSV + "dni,30123456,2024-01-01,banned\n", "Line 5: 'banned' is neither"),
    (CSV + "dni,30123456\n", "Line 5: 2 columns, 4 expected"),
])
def test_a_bad_exclusion_csv_row_is_refused_naming_its_line(text, message):
    with pytest.raises(RuleViolation) as refused:
        parse_exclusion_csv(text)
    assert message in refused.value.message


def test_cc23_an_exclusion_csv_ended_by_cr_alone_or_crlf_reads_as_lines():
    rows = parse_exclusion_csv(CSV)
    assert parse_exclusion_csv(CSV.replace("\n", "\r")) == rows
    assert parse_exclusion_csv(CSV.replace("\n", "\r\n")) == rows


@pytest.mark.parametrize("text, message", [
    (CSV + "dni,301\r23457,2024-01-01,exclusion\n", "Line 5: a carriage return (CR) inside a field"),
    (CSV + "dni,30123457,2024-01-01,exclusion," + "n" * 140_000 + "\n", "Line 5: a field is longer than 128 KiB"),
    (CSV + "dni,3012\x003457,2024-01-01,exclusion\n", "Line 5: the file contains a NUL byte"),
])
def test_cc23_an_exclusion_csv_that_cannot_be_read_is_refused_whole_naming_its_line(text, message):
    with pytest.raises(RuleViolation) as refused:
        read_exclusion_csv(text)
    assert message in refused.value.message and refused.value.clause == "CC-23"


def test_cc23_each_bad_exclusion_row_is_refused_on_its_own_and_the_good_rows_are_read():
    read = read_exclusion_csv(CSV + "dni,12,2024-01-01,exclusion\ndni,30123457,2024-01-01,exclusion\n"
                              "dni," + "9" * 5000 + ",2024-01-01,exclusion\n")
    assert read.rows == [*parse_exclusion_csv(CSV), ("dni", "30123457", date(2024, 1, 1), "exclusion")]
    assert [refusal.message[:26] for refusal in read.refused] == ["Line 5: ID number '12' is ",
                                                                  "Line 7: ID number '9999999"]
    assert len(read.refused[1].message) < 120  # a long value is not quoted back whole
