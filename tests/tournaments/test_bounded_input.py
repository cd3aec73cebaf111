"""Issue #34, items 3 and 5: every number a director or the floor types is read as ASCII digits within what a
real event can hold; anything else is a 4xx naming the field, and nothing already recorded changes."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils import translation

from casino.form_input import BadInput
from tournaments import forms

pytestmark = pytest.mark.django_db

#: "²" passes str.isdigit() but not int(); 5,000 digits pass isdigit() and are past Python's int() limit.
BAD_NUMBERS = {"superscript-two": "²", "five-thousand-digits": "9" * 5000}


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


#: the named forms of issue #34 item 5: (action, its other fields, the field made bad, the field's name in the message)
TABLE_AND_ENTRY_FORMS = {
    "bust": ({"seats": "1"}, "table", "The table"),
    "button": ({"seat": "1"}, "table", "The table"),
    "colour-up": ({"denomination": "25"}, "table", "The table"),
    "seat": ({"entry": "1", "seat": "1", "reason": "wrong seat"}, "table", "The table"),
    "back-up-hand": ({"seq": "1", "table_version": "0", "reason": "ruling"}, "table", "The table"),
    "accredit": ({"id_type": "dni", "id_number": "30111222"}, "entry", "The entry number"),
    "hold-stack": ({"held": "1"}, "entry", "The entry number"),
    "pay": ({"id_type": "dni", "id_number": "30111222"}, "entry", "The entry number"),
}


@pytest.mark.parametrize("bad", BAD_NUMBERS.values(), ids=BAD_NUMBERS.keys())
@pytest.mark.parametrize("action", TABLE_AND_ENTRY_FORMS)
def test_it_refuses_a_number_that_is_not_ascii_digits_in_each_form_naming_the_field(
        sunday_event, director_dora, action, bad):
    others, field, named = TABLE_AND_ENTRY_FORMS[action]
    client = _client(director_dora)
    version = sunday_event.version
    response = client.post(reverse("tournaments:act", args=[sunday_event.pk, action]),
                           {**others, field: bad, "version": str(version), "key": uuid.uuid4().hex})
    assert response.status_code == 302 and response["X-Refused"] == "400"
    # back to the console (there is no such table or entry page), where the notice names the field
    assert response["Location"] == reverse("tournaments:console", args=[sunday_event.pk])
    shown = client.get(response["Location"]).content.decode()
    assert f"{named} must be a whole number" in shown
    sunday_event.refresh_from_db()
    assert sunday_event.version == version  # nothing recorded


def test_it_reads_only_ascii_digits_as_a_number_not_other_scripts_digits():
    # int() reads Arabic-Indic "١٢" as 12: a number the console shows back differently from what was typed
    with pytest.raises(BadInput, match="The table must be a whole number"):
        forms.whole("١٢", "The table")


def test_the_seating_display_reads_a_superscript_number_as_no_entry_number(sunday_event):
    anyone = Client()
    anyone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = anyone.get(reverse("tournaments:seating", args=[sunday_event.pk]), {"q": "²"})
    assert response.status_code == 200
    assert "Search by your entry number" in response.content.decode()


# --------------------------------------------------------------------------- payouts


@pytest.mark.parametrize("share", ["inf", "1e309", "-inf", "1e3", "33.333"])
def test_it_refuses_a_payout_share_that_is_not_a_percentage_with_two_decimals(share):
    with pytest.raises(BadInput, match="The share of place 1 must be a percentage"):
        forms.payout_shares(f"{share} 30 20")


def test_a_payout_share_of_inf_in_the_setup_form_is_a_400_naming_the_place(director_dora):
    post = _setup_post(payouts="inf 30 20")
    response = _client(director_dora).post(reverse("tournaments:new"), post)
    assert response.status_code == 400
    assert "The share of place 1 must be a percentage" in response.content.decode()


def test_it_refuses_a_payout_line_paying_more_places_than_it_has_entries():
    with pytest.raises(BadInput, match="pays 3 places with up to 2 entries"):
        forms.payout_table("2: 50 30 20")


# --------------------------------------------------------------------------- the setup's numbers


def _setup_post(**changes) -> QueryDict:
    post = QueryDict(mutable=True)
    post.update({"name": "Bounded", "starts_at": "2026-12-01T18:00", "buy_in": "100", "fee": "10",
                 "starting_stack": "10000", "seats_per_table": "9", "structure": "100/200 20\n200/400 20",
                 "denominations": "25 100", "key": uuid.uuid4().hex, **changes})
    return post


def test_it_refuses_a_level_of_a_hundred_quintillion_minutes_TDA_23(director_dora):
    response = _client(director_dora).post(reverse("tournaments:new"),
                                           _setup_post(structure="100/200 100000000000000000000"))
    assert response.status_code == 400
    assert "Line 1 of the structure: the minutes must be between 1 and 600" in response.content.decode()


def test_it_refuses_a_five_thousand_digit_blind_in_the_structure_naming_the_line():
    with pytest.raises(BadInput, match="Line 2 of the structure: the big blind must be between"):
        forms.structure_from_text("100/200 20\n200/" + "9" * 5000 + " 20", (25,))


def test_it_refuses_a_break_longer_than_600_minutes():
    with pytest.raises(BadInput, match="Line 1 of the structure: the minutes must be between 1 and 600"):
        forms.structure_from_text("break 601\n100/200 20", (25,))


@pytest.mark.parametrize(("field", "value", "named"), [
    ("buy_in", "10000000000", "The buy-in"),
    ("fee", "10000000000", "The fee"),
    ("starting_stack", "10000000000", "The starting stack"),
    ("break_order", "99999", "A table in the break order"),
])
def test_it_refuses_a_setup_number_no_real_event_holds(field, value, named):
    with pytest.raises(BadInput, match=f"{named} must be between"):
        forms.event_setup(_setup_post(**{field: value}))
