"""The tablet's template helpers give exactly what Django's own tags would."""

from __future__ import annotations

from django.template import Context, Template
from django.urls import clear_script_prefix, reverse, set_script_prefix


def test_an_action_url_is_the_one_reverse_gives_even_under_a_script_prefix():
    page = Template("{% load table_screens %}{% act_url 7 'close-bets' %}|{% act_url 7 'undo' as u %}{{ u }}")
    assert page.render(Context()) == (
        reverse("tables:dealer_act", args=[7, "close-bets"]) + "|" + reverse("tables:dealer_act", args=[7, "undo"])
    )
    set_script_prefix("/casino/")  # served under a path: the remembered URLs of "/" must not leak into it
    try:
        assert page.render(Context()).startswith("/casino/tables/7/act/close-bets/")
    finally:
        clear_script_prefix()
    assert page.render(Context()).startswith("/tables/7/act/close-bets/")
