"""Small helpers for the tables' screens: request keys, cards and signed amounts."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from casino.templatetags.casino_forms import guard, reversed_once

register = template.Library()

@register.simple_tag
def act_url(table_id, action: str) -> str:
    """``{% url 'tables:dealer_act' table_id action %}``, remembered per table and action."""
    return reversed_once("tables:dealer_act", table_id, action)


# The forms' hidden fields, shared with the tournaments' screens: the same tag under the name the templates load.
register.simple_tag(guard)


@register.filter
def signed(amount) -> str:
    """+10, −10 or 0: a net result as the dealer reads it (a real minus sign, not a hyphen)."""
    try:
        amount = int(amount)
    except (TypeError, ValueError):
        return ""
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"\u2212{-amount}"
    return "0"


@register.simple_tag
def card(view=None, size="", back=False):
    """One card face from a projection's card dict, a face-down back, or an empty spot.

    Built here rather than by an included template: a screen draws dozens of cards on every push.
    """
    size_class = f" pc-{size}" if size else ""
    if view:
        red = " pc-red" if view["red"] else ""
        return format_html(
            '<span class="pc{}{}" data-card="{}"><span class="pc-rank">{}</span><span class="pc-suit">{}</span></span>',
            red, size_class, view["code"], view["rank"], view["symbol"],
        )
    kind = "pc-back" if back else "pc-empty"
    return format_html('<span class="pc {}{}" aria-hidden="true"></span>', kind, size_class)


@register.filter
def get_item(mapping, key):
    """``mapping|get_item:"some-key"``: a dict lookup with a key that is not an identifier."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def engine_note(text):
    """An engine note (why a hand is void, an irregularity applied) in the viewer's language."""
    from tables.refusals import engine_note as translate

    return translate(text or "")
