"""A small cookie-keeping HTTP client for tests against real daphne servers."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.parse
import urllib.request

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class LiveSession:
    def __init__(self, base_url: str):
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base_url + path, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, path: str, data: dict, *, token_from: str | None = None) -> tuple[int, str]:
        """POST a form with the CSRF token taken from the page at ``token_from`` (default: ``path``)."""
        _status, page = self.get(token_from or path)
        match = TOKEN.search(page)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": match.group(1) if match else ""}).encode()
        try:
            with self.opener.open(self.base_url + path, data=body, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def login(self, username: str, password: str) -> None:
        status, page = self.post("/login/", {"username": username, "password": password})
        if "/login/" in page and 'name="password"' in page:
            raise AssertionError(f"login as {username} failed ({status})")

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)
