"""Driving the tables' screens over HTTP as htmx does: the version the screen shows and a fresh key per tap."""

from __future__ import annotations

import re
import uuid

VERSION = re.compile(r'id="(?:dealer-table|pit-\d+)"[^>]*data-version="(\d+)"')


class Screen:
    """One person's screen (tablet or console) in a Django test client, acting as htmx would.

    Every tap posts the version the screen last showed and a new idempotency key, with the
    ``HX-Request`` header, and the answer (a fragment) becomes what the screen shows.
    """

    def __init__(self, client, user, url: str, act_url: str, language: str | None = None):
        self.client = client
        self.user = user
        self.url = url
        self.act_url = act_url
        # the browser's language (Accept-Language); None: the house's, Spanish
        self.headers = {"HTTP_HX_REQUEST": "true", **({"HTTP_ACCEPT_LANGUAGE": language} if language else {})}
        client.force_login(user)
        self.html = ""
        self.refresh()

    def refresh(self):
        response = self.client.get(self.url, **self.headers)
        assert response.status_code == 200, response.status_code
        self.html = response.content.decode()
        return response

    @property
    def version(self) -> int:
        return int(VERSION.search(self.html).group(1))

    def tap(self, action: str, *, expect: int = 200, key: str | None = None, version: int | None = None, **data):
        payload = {"version": self.version if version is None else version, "key": key or uuid.uuid4().hex, **data}
        response = self.client.post(self.act_url.format(action=action), payload, **self.headers)
        assert response.status_code == expect, (response.status_code, _notice(response.content.decode()))
        self.html = response.content.decode()
        return response

    @property
    def notice(self) -> str:
        return _notice(self.html)


def _notice(html: str) -> str:
    found = re.search(r'class="notice[^"]*"[^>]*>(.*?)</p>', html, re.S)
    return found.group(1).strip() if found else ""


def tablet(client, dealer, table, language: str | None = None) -> Screen:
    return Screen(client, dealer, f"/tables/{table.pk}/", f"/tables/{table.pk}/act/{{action}}/", language)


def console(client, boss, table, language: str | None = None) -> Screen:
    return Screen(client, boss, f"/tables/pit/{table.pit_id}/", f"/tables/{table.pk}/pit/{{action}}/", language)
