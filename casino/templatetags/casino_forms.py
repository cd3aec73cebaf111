"""The hidden fields of every form that writes (docs/realtime.md, "Keys, refusals and the morph")."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, reverse
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


def reversed_once(name: str, *args) -> str:
    """``reverse(name, args=args)``, once per process: a screen's forms name the same action URLs at every
    render (the URLconf does not change while the process runs; the script prefix is in the key)."""
    return _reversed(get_script_prefix(), name, args)


@functools.lru_cache(maxsize=8192)
def _reversed(_prefix: str, name: str, args: tuple) -> str:
    return reverse(name, args=list(args))
