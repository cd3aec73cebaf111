"""Every page the app makes is ``Cache-Control: no-store`` (issue #12, item 9).

A tablet's back button, or a shared browser's history, must never show a table, a console or a
player's hand as it was: each screen is live and asks the server. Static files are served by
whitenoise above this middleware and keep their long cache; a view that sets its own
Cache-Control (the player's pages and /healthz are ``never_cache``) keeps it.
"""

from __future__ import annotations

from django.utils.cache import add_never_cache_headers


class NeverStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response
