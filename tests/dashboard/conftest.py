"""Headless Chromium (Debian's package, driven by Playwright; nothing downloaded) and the API server.

Chromium starts without the background services that would reach for the network (this
machine has none), in a fresh profile. A page that throws or logs an error fails its test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_server import server  # noqa: F401

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI needs the dashboard's browser: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium browser context at 1280x900 (a laptop screen), with a fresh user-data directory.

    Module-scoped: while it is open, Playwright's sync API keeps an event loop running on this thread,
    which would break asyncio.run() in the test modules collected after this one."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install playwright)")
    if not shutil.which(CHROMIUM):
        _missing(f"no {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900}, accept_downloads=True)
        context.set_default_timeout(30_000)
        yield context
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A new tab; a script error, a console error or a page file that fails to load fails the test.

    API errors (a 422 for a bad spec, a 404 for an unknown run) are the pages' to show, not errors here.
    """
    tab = browser.new_page()
    errors: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    def response(answer: Any) -> None:
        if answer.status >= 400 and "/api/" not in answer.url:
            errors.append(f"{answer.status} for {answer.url}")

    tab.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    tab.on("console", console)
    tab.on("response", response)
    yield tab
    tab.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def screenshots() -> Path | None:
    """Where the README's screenshots go: KERNELEVO_SCREENSHOTS (e.g. docs/), else nowhere."""
    folder = os.environ.get("KERNELEVO_SCREENSHOTS")
    return Path(folder) if folder else None
