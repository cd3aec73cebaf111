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


@register.filter
def id_type_label(code) -> str:
    """An ID document's code as the desk names it ("passport" -> "Pasaporte")."""
    from tournaments.record_text import id_type_label as label

    return label(code)


@register.filter
def stage_label(code) -> str:
    """Where a dealt hand stands ("complete", "misdeal", "preflop"...) in the viewer's language."""
    from tournaments.record_text import stage_label as label

    return label(code)


@register.filter
def note_text(note) -> str:
    """An engine note (a plan's warning, TDA-11-D) in the viewer's language, with its clause."""
    from casino.i18n import explain_note

    return explain_note(note)
