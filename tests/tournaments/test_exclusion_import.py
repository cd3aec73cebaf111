"""The exclusion list's import (CC-23, issue #34): in bulk, counted, and a file that cannot be read answered
4xx naming its line with nothing kept."""

from __future__ import annotations

from datetime import date

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from casino.models import AuditEvent
from tournaments import services
from tournaments.models import ExclusionListEntry

pytestmark = pytest.mark.django_db

HEADER = "id_type,id_number,listed_on,kind\n"
#: row by row was two statements a person; SQLite's cap of 999 parameters splits an INSERT in about 12
BOUNDED = 30


def _rows(count: int, *, start: int = 10_000_000, listed_on: str = "2025-01-01") -> str:
    return "".join(f"dni,{number},{listed_on},{_kind(number)}\n" for number in range(start, start + count))


def _kind(number: int) -> str:
    return "self_exclusion" if number % 3 else "exclusion"


def _upload(user, tournament, content: bytes):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client.post(reverse("tournaments:import_exclusions", args=[tournament.pk]),
                       {"csv": SimpleUploadedFile("lista.csv", content, content_type="text/csv")}, follow=True)


def test_cc23_two_thousand_people_are_imported_in_a_bounded_number_of_statements(
        director_dora, django_assert_max_num_queries):
    with django_assert_max_num_queries(BOUNDED):
        imported = services.import_exclusion_csv(by=director_dora, text=HEADER + _rows(2000), source="a.csv")
    assert (imported.added, imported.updated, imported.unchanged, imported.refused) == (2000, 0, 0, [])
    assert ExclusionListEntry.objects.count() == 2000
    excluded = [number for number in range(10_000_000, 10_002_000) if _kind(number) == "exclusion"]
    assert ExclusionListEntry.objects.filter(kind="exclusion").count() == len(excluded)


def test_cc23_a_second_import_updates_changed_dates_adds_the_new_and_deletes_nobody(
        director_dora, django_assert_max_num_queries):
    services.import_exclusion_csv(by=director_dora, text=HEADER + _rows(1500))
    # the first 1,000 again, 500 of them with a new date, and 700 people not listed before
    second = HEADER + _rows(500) + _rows(500, start=10_000_500, listed_on="2026-02-02") + _rows(700, start=20_000_000)
    with django_assert_max_num_queries(BOUNDED):
        imported = services.import_exclusion_csv(by=director_dora, text=second, source="b.csv")
    assert (imported.added, imported.updated, imported.unchanged) == (700, 500, 500)
    assert ExclusionListEntry.objects.count() == 2200  # the 500 missing from the second file stay listed
    assert ExclusionListEntry.objects.filter(listed_on=date(2026, 2, 2), source="b.csv").count() == 500


def test_cc23_the_import_is_audited_once_with_its_counts_and_a_digest_of_its_rows(director_dora):
    text = HEADER + _rows(3) + "dni,1,2025-01-01,exclusion\n"
    services.import_exclusion_csv(by=director_dora, text=text, source="c.csv")
    services.import_exclusion_csv(by=director_dora, text=text, source="c.csv")
    first, again = AuditEvent.objects.filter(action="tournament.exclusion_list_imported").order_by("pk")
    assert (first.details["added"], first.details["updated"], first.details["refused"]) == (3, 0, 1)
    assert (again.details["added"], again.details["unchanged"]) == (0, 3)
    assert len(first.details["rows_sha256"]) == 64 and first.details["rows_sha256"] == again.details["rows_sha256"]


def test_cc23_the_answer_says_how_many_were_added_updated_and_refused_naming_the_refused_lines(
        registering, director_dora):
    services.import_exclusion_csv(by=director_dora, text=HEADER + _rows(2))
    content = HEADER + _rows(1) + _rows(1, start=10_000_001, listed_on="2026-03-03") + _rows(2, start=30_000_000)
    content += "dni,12,2025-01-01,exclusion\n"
    response = _upload(director_dora, registering, content.encode())
    page = response.content.decode()
    assert response.status_code == 200
    assert "The exclusion list is imported: 2 added, 1 updated, 1 refused." in page
    assert "Line 6: ID number &#x27;12&#x27; is not 5 to 20 letters or digits" in page
    assert ExclusionListEntry.objects.count() == 4


def test_cc23_a_file_ended_by_cr_alone_is_read_line_by_line(registering, director_dora):
    response = _upload(director_dora, registering, (HEADER + _rows(3)).replace("\n", "\r").encode())
    assert "3 added, 0 updated, 0 refused" in response.content.decode()
    assert ExclusionListEntry.objects.count() == 3


@pytest.mark.parametrize("content, status, message", [
    (HEADER.encode() + b"dni,10000000,2025-01-01,exclusion\ndni,100\r00001,2025-01-01,exclusion\n", 422,
     "Line 3: a carriage return (CR) inside a field"),
    (HEADER.encode() + b"dni,10000000,2025-01-01,exclusion\n" + b"dni,10000001,2025-01-01,exclusion,"
     + b"n" * (129 * 1024) + b"\n", 422, "Line 3: a field is longer than 128 KiB"),
    (HEADER.encode() + b"dni,10000000,2025-01-01,exclusion\ndni,1000\x000001,2025-01-01,exclusion\n", 422,
     "Line 3: the file contains a NUL byte"),
    (HEADER.encode() + b"dni,10000000,2025-01-01,exclusion\ndni,10000001,2025-01-01,exclusi\xf3n\n", 400,
     "not text in UTF-8 (line 3)"),
    (b"", 400, "The file is empty"),
    (b"dni,10000000,2025-01-01,exclusion\n", 422, "Line 1: the header lacks the column(s)"),
])
def test_cc23_an_exclusion_file_that_cannot_be_read_is_answered_4xx_naming_its_line_and_nothing_is_kept(
        registering, director_dora, content, status, message):
    services.import_exclusion_csv(by=director_dora, text=HEADER + _rows(1, start=90_000_000))
    response = _upload(director_dora, registering, content)
    assert response.status_code == status
    assert message in response.content.decode()
    assert list(ExclusionListEntry.objects.values_list("id_number", flat=True)) == ["90000000"]
    assert AuditEvent.objects.filter(action="tournament.exclusion_list_imported").count() == 1
