"""A NUL byte in a form is bad input, never a 500 (issue #12, item 3).

PostgreSQL refuses NUL in text, so a NUL in the idempotency key or in a free-text field used to reach
the database and come back as an error page. Every one is now a 400 that names the field, and nothing
of the tap is recorded. The screens are read in English here so that the sentences checked stay true
once the Spanish catalogue has them.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from casino.models import AuditEvent
from tables.models import Alert, TableRequest

from .screens import console, tablet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def _in_english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def pad(client, table_one, dealer_dana):
    return tablet(_in_english(client), dealer_dana, table_one)


@pytest.fixture
def boss(table_one, pit_boss_pat):
    return console(_in_english(Client()), pit_boss_pat, table_one)


@pytest.fixture
def open_pad(pad, boss):
    pad.tap("open")
    boss.refresh()
    boss.tap("deck-check", approve="1")
    pad.refresh()
    return pad


def _what_is_recorded(table):
    table.refresh_from_db()
    return table.version, TableRequest.objects.count(), AuditEvent.objects.count(), Alert.objects.count()


def test_a_nul_in_the_request_key_is_a_400_and_records_nothing(open_pad, table_one):
    before = _what_is_recorded(table_one)
    open_pad.tap("start-hand", mode="recorded", key="a\x00b", expect=400)
    assert "key" in open_pad.notice and "reload the page" in open_pad.notice
    assert _what_is_recorded(table_one) == before


@pytest.mark.parametrize(
    ("in_a_hand", "action", "data", "field"),
    [
        (False, "deck-count", {"cards": "50", "note": "two\x00missing"}, "The note"),
        (True, "suspect-cards", {"note": "marked\x00queen"}, "The note"),
        (True, "undo", {"reason": "wrong-amount", "detail": "50\x00 not 5"}, "The detail"),
    ],
)
def test_a_nul_in_a_free_text_field_is_a_400_naming_the_field_and_records_nothing(open_pad, table_one, in_a_hand,
                                                                                   action, data, field):
    if in_a_hand:  # the deck is counted between hands; the rest is said during one
        open_pad.tap("start-hand", mode="recorded")
        open_pad.tap("bet", box="1", spot="ante", amount="10")
    before = _what_is_recorded(table_one)
    open_pad.tap(action, expect=400, **data)
    assert field in open_pad.notice and "not allowed" in open_pad.notice
    assert _what_is_recorded(table_one) == before


def test_a_nul_in_the_award_reason_on_the_console_is_a_400_naming_it(open_pad, boss, table_one):
    before = _what_is_recorded(table_one)
    boss.refresh()
    boss.tap("award", hand="1", box="2", approve="0", reason="no\x00way", expect=400)
    assert "The reason" in boss.notice
    assert _what_is_recorded(table_one) == before


def test_a_nul_in_any_other_field_or_field_name_of_a_tap_is_a_400(open_pad, table_one):
    before = _what_is_recorded(table_one)
    open_pad.tap("start-hand", mode="recorded\x00", expect=400)
    open_pad.tap("bet", box="1\x00", spot="ante", amount="10", expect=400)
    response = open_pad.client.post(f"/tables/{table_one.pk}/act/start-hand/",
                                    {"version": open_pad.version, "key": "k-1", "mo\x00de": "recorded"},
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert _what_is_recorded(table_one) == before
