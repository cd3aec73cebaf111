"""The hidden fields of every form that writes (docs/realtime.md, "Keys, refusals and the morph")."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def guard(version) -> str:
    """The version the screen showed, and an empty field for the request's idempotency key.

    The browser fills the key as the form is sent (static/js/casino.js): a fragment goes to every viewer who
    may see it, so it must carry nothing of one viewer's. A form sent without script has no key and is
    refused as incomplete (400), with nothing recorded.
    """
    return format_html(
        '<input type="hidden" name="version" value="{}"><input type="hidden" name="key" value="">', version,
    )
