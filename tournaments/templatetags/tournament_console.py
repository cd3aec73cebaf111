"""Template tags of the director's console and its receipts (tournaments.rendering.console)."""

from __future__ import annotations

from django import template

from casino.templatetags.casino_forms import guard, reversed_once

register = template.Library()


@register.simple_tag
def tablet_act_url(tournament_id, table, action) -> str:
    """``{% url 'tournaments:tablet_act' tournament_id table action %}``, reversed once per process: a
    tablet's render names a dozen such URLs, each the same at every tap (the URLconf does not change
    while the process runs; the script prefix is in the key)."""
    return reversed_once("tournaments:tablet_act", int(tournament_id), int(table), str(action))


# The forms' hidden fields, shared with the pit's screens: the same tag under the name the templates load.
register.simple_tag(guard)


@register.filter
def dealer_at(on_duty: dict, table) -> dict | None:
    """The dealer on duty at ``table`` (``rendering.console.dealers_on_duty``), or None."""
    return on_duty.get(table) if isinstance(on_duty, dict) else None
