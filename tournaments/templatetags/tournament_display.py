"""Filters of the tournament's screens: chips and money read from across the room, a clock's time."""

from __future__ import annotations

from django import template
from django.utils.formats import get_format

register = template.Library()


@register.filter
def chips(value) -> str:
    """An amount of chips or money with the language's thousands separator (12 500 in Spanish, 12,500 in English)."""
    if value is None or value == "":
        return ""
    # Django's number_format, as the languages the casino speaks group (by threes), without its general
    # machinery (decimal places, other groupings): a tablet and each phone format a dozen amounts a tap.
    return f"{int(value):,}".replace(",", get_format("THOUSAND_SEPARATOR"))


@register.filter
def clock_time(seconds) -> str:
    """Seconds as the clock shows them: 75 -> 1:15, 3725 -> 1:02:05 (as static/js/tournament_clock.js)."""
    total = max(0, int(seconds or 0))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
