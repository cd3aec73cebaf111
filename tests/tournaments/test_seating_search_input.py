"""The public seating search with a query no receipt carries: never a 500 (issue #34's fuzz run found
'²' and '³', which pass ``str.isdigit()`` but not ``int()``). Such a query is not an entry number: a
passer-by is told to search by the number on the receipt."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", ["²", "#³", "1²"])
def test_a_query_of_digits_that_are_not_an_entry_number_is_answered_not_a_500(sunday_event, query):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the assertion reads the English source string
    response = client.get(f"/tournaments/{sunday_event.pk}/seating/", {"q": query})

    assert response.status_code == 200
    assert "Search by your entry number" in response.content.decode()
