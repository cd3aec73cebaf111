"""Template tags of the director's console and its receipts (tournaments.console)."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, reverse

from casino.templatetags.casino_forms import guard

register = template.Library()


@register.simple_tag
def tablet_act_url(tournament_id, table, action) -> str:
    """``{% url 'tournaments:tablet_act' tournament_id table action %}``, reversed once per process: a
    tablet's render names a dozen such URLs, each the same at every tap (the URLconf does not change
    while the process runs; the script prefix is in the key)."""
    return _tablet_act_url(get_script_prefix(), int(tournament_id), int(table), str(action))


@functools.lru_cache(maxsize=4096)
def _tablet_act_url(_prefix: str, tournament_id: int, table: int, action: str) -> str:
    return reverse("tournaments:tablet_act", args=[tournament_id, table, action])


# The forms' hidden fields, shared with the pit's screens: the same tag under the name the templates load.
register.simple_tag(guard)


@register.filter
def dealer_at(on_duty: dict, table) -> dict | None:
    """The dealer on duty at ``table`` (``console.dealers_on_duty``), or None."""
    return on_duty.get(table) if isinstance(on_duty, dict) else None
