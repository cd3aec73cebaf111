"""Template tags of the director's console and its receipts (tournaments.console)."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def guard(version) -> str:
    """The hidden fields every console form carries: the version it acted on and a fresh idempotency key
    (as the pit's tablet does: a double tap or a retried post is answered once, a stale screen refused)."""
    return format_html(
        '<input type="hidden" name="version" value="{}"><input type="hidden" name="key" value="{}">',
        version,
        uuid.uuid4().hex,
    )


@register.filter
def dealer_at(on_duty: dict, table) -> dict | None:
    """The dealer on duty at ``table`` (``console.dealers_on_duty``), or None."""
    return on_duty.get(table) if isinstance(on_duty, dict) else None
