"""Durations as the screens say them."""

from __future__ import annotations

from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def whole_minutes(duration: timedelta | None) -> int:
    """A duration in whole minutes, rounded up (a 90-second wait is "2 minutes", never "1")."""
    if not duration:
        return 0
    return -(-int(duration.total_seconds()) // 60)
