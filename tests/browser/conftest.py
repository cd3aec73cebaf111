import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import CHROMIUM


def off_the_browser_thread(fn, *args, **kwargs):
    """Run ORM work (and its after-commit announcements) outside Playwright's event loop.

    Playwright's sync API keeps an event loop in the test's thread, where Django
    refuses synchronous database access and async_to_sync cannot run.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


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


@pytest.fixture
def browser():
    """Request it last in a test's arguments, so that data fixtures run before the loop starts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def screenshots():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "test-results")
    os.makedirs(path, exist_ok=True)
    return path
