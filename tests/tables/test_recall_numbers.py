"""The pit's game recall reads its filters' numbers as ASCII digits (issue #34, item 5): "²" passes
isdigit() but not int(), and was a 500; now the filter says what was wrong, or is left out."""

from __future__ import annotations

import pytest
from django.conf import settings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


@pytest.mark.parametrize(("name", "said"), [
    ("table", None),
    ("session", "The session must be chosen from the list."),
    ("hand", "The hand must be a number, not “²”."),
])
def test_the_recall_refuses_a_superscript_number_in_a_filter_THB_71(client, open_table, pit_boss_pat, name, said):
    client.force_login(pit_boss_pat)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(f"/tables/{open_table.pk}/hands/", {name: "²"})
    assert response.status_code == 200
    if said is not None:
        assert said in response.content.decode()
