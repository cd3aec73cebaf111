import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import CHROMIUM


def off_the_browser_thread(fn, *args, **kwargs):
    """Run ORM work (and its after-commit announcements) outside Playwright's event loop.

    Playwright's sync API keeps an event loop in the test's thread, where Django
    refuses synchronous database access and async_to_sync cannot run.

    The worker thread closes its database connections before it ends: with the connection pool
    (casino.database_pool) a thread that ends holding one never gives it back, and after enough
    browser tests the in-process socket tests that follow waited for a connection until they timed out
    (session 9: eleven consumer tests failed in CI after four more browser tests).
    """
    from django.db import connections

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def wait_until(page, expression: str, timeout: float = 30000) -> None:
    """Wait until ``expression`` is true in the page, as ``page.wait_for_function`` would: that one evaluates
    its string with eval() in the page, which the casino's Content-Security-Policy (rightly) refuses, while
    ``page.evaluate`` runs through the browser's debugging protocol, outside the page's policy."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"!!({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout:.0f} ms: {expression}")
        page.wait_for_timeout(50)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 360, "height": 740}


class PolicyWatchedBrowser:
    """The browser, whose every page reports what the Content-Security-Policy refused.

    Chromium says "Refused to ..." on the console for each script, style, socket or frame the policy
    blocks: a screen that needed one would be broken in the casino, so the test fails on any."""

    def __init__(self, browser):
        self._browser = browser
        self.refusals: list[str] = []

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        page.on("console", self._note)
        return page

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.on("console", self._note)  # every page of the context
        return context

    def _note(self, message) -> None:
        if "Content Security Policy" in message.text or message.text.startswith("Refused to"):
            self.refusals.append(message.text)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture
def browser():
    """Request it last in a test's arguments, so that data fixtures run before the loop starts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        watched = PolicyWatchedBrowser(browser)
        yield watched
        browser.close()
    assert not watched.refusals, "the Content-Security-Policy refused: " + "\n".join(watched.refusals)


@pytest.fixture
def screenshots():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "test-results")
    os.makedirs(path, exist_ok=True)
    return path
