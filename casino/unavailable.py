"""The answer when PostgreSQL does not: a clear "database unavailable, retry in a moment", status 503.

During an outage (or a restart) a request fails to get a connection from the pool within
``DATABASE_POOL_TIMEOUT`` seconds, or loses its connection mid-way; Django raises its
``OperationalError`` or ``InterfaceError``. Those used to reach the user as a 500 (or a traceback with
DEBUG on). Here a page says what happened and offers to try again; an htmx request (a tablet's tap)
gets the message alone, which ``static/js/live.js`` shows in the screen's status bar, and the screen
stays as it was. The status is 503 with ``Retry-After``, which a load balancer and a browser
understand. Nothing here reads the database: the page is rendered without the request (no context
processor, no user).
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import defaults

log = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def database_unavailable(request, error: Exception) -> HttpResponse:
    log.warning("database unavailable for %s %s: %s", request.method, request.path, error)
    message = _("The casino's database is not answering. Wait a moment and try again.")
    if request.headers.get("HX-Request"):
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
        response["X-Database-Unavailable"] = "1"
    else:
        page = render_to_string(
            "casino/database_unavailable.html", {"message": message, "retry_url": _retry_url(request)}
        )
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _retry_url(request) -> str:
    """The page again: this address for a GET, the page the form was on for anything else."""
    if request.method == "GET":
        return request.get_full_path()
    referer = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return referer
    return "/"


class DatabaseUnavailableMiddleware:
    """Turns a view's lost or unavailable database into the 503 page (with DEBUG on too)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_UNAVAILABLE):
            return database_unavailable(request, exception)
        return None


def server_error(request):
    """``handler500``: the same 503 for a database failure outside a view (a middleware's session save)."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_UNAVAILABLE):
        return database_unavailable(request, error)
    return defaults.server_error(request)
