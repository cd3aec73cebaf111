"""NUL bytes: bad input, refused with a 400 before any view runs (issue #12, item 3).

No form, link or cookie of the casino ever holds a NUL character (U+0000), and PostgreSQL refuses
one in text: a NUL that reached a query (an idempotency key, a note, a username, a session cookie)
came back as a database error and an HTTP 500. The views check their own free-text fields and say
so in the screen's notice (tables.views); this middleware is the net under every other field,
the login form, the language form, player links and cookies.
"""

from __future__ import annotations

import logging

from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _

NUL = "\x00"


def has_nul(text: object) -> bool:
    return isinstance(text, str) and NUL in text


def nul_refusal(field: str) -> str:
    """The sentence that names the field a NUL was found in, in the viewer's language."""
    return _("The field “%(field)s” contains a character that is not allowed (NUL). Nothing was recorded.") % {
        "field": field.replace(NUL, "\\0")
    }


def first_field_with_nul(form) -> str | None:
    """The name of the first field of ``form`` (a QueryDict) whose name or a value holds a NUL, or None."""
    for name, values in form.lists():
        if has_nul(name) or any(has_nul(v) for v in values):
            return name
    return None


def checks_its_own_nul_bytes(view):
    """Marks a view that refuses NUL in its form itself, in its own answer (the tablet's and the console's
    taps say it in the screen's notice): the middleware leaves that view's form to it."""
    view.checks_its_own_nul_bytes = True
    return view


class RefuseNulBytesMiddleware:
    """After LocaleMiddleware, so that the refusal is in the viewer's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # The address, the query and the cookies before anything reads them (the session cookie is a
        # database key); the form once the view is known (process_view).
        if has_nul(request.path_info):
            return self._refuse(None)
        field = first_field_with_nul(request.GET)
        if field is None:
            field = next((name for name, value in request.COOKIES.items() if has_nul(name) or has_nul(value)), None)
        if field is not None:
            return self._refuse(field)
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or getattr(view_func, "checks_its_own_nul_bytes", False):
            return None
        # A body too big or with too many fields raises here: Django answers those with a 400 itself.
        field = first_field_with_nul(request.POST)
        return self._refuse(field) if field is not None else None

    @staticmethod
    def _refuse(field: str | None):
        # Django logs the 400 in one line ("Bad Request: <path>", control characters escaped): a stray
        # byte or a probe, not a fault of the casino's, needs no more.
        text = nul_refusal(field) if field is not None else _(
            "The address contains a character that is not allowed (NUL). Nothing was recorded.")
        return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")


class ClientErrorsWithoutTraceback(logging.Filter):
    """A request refused for the client's doing is logged in its one line, without a traceback.

    Django logs a PermissionDenied (a dealer at another table's URL) on ``django.request`` and a request it
    finds suspicious (a body too big, too many fields, a host not allowed) on ``django.security.*``, each
    with the exception's traceback, though the answer is a 4xx: the casino's log would fill with tracebacks
    that are no fault of the casino's and hide the real ones. Errors (5xx) keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security.") or (
            record.name == "django.request" and getattr(record, "status_code", 500) < 500
        ):
            record.exc_info = record.exc_text = None
        return True
