"""Swagger UI and ReDoc render in headless Chromium from the server's own files, under its CSP, offline.

A file fetched from another host, or one the Content-Security-Policy blocks (Chromium logs a
console error for each), fails the test; but for ReDoc's "API docs by Redocly" logo, which its
bundle links from Redocly's CDN: the CSP blocks it, so nothing leaves the machine.
"""

from __future__ import annotations

import os
import shutil

import pytest
from api_server import Server

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _redocly_logo(message: str) -> bool:
    return "https://cdn.redoc.ly/redoc/logo-mini.svg" in message and "has been blocked" in message


def test_swagger_ui_and_redoc_render_from_the_package(quiet_server: Server, tmp_path) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("CI needs Playwright and Debian's chromium")
        pytest.skip("no Playwright or no chromium")
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                                headless=True, args=FLAGS)
        browser.set_default_timeout(30_000)
        page = browser.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" and not _redocly_logo(m.text)
                else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("response", lambda r: problems.append(f"fetched from another host: {r.url}")
                if not r.url.startswith((quiet_server.url, "data:", "blob:")) else None)
        page.goto(f"{quiet_server.url}/docs")
        page.wait_for_selector(".opblock-summary-path")  # the operations, listed
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert any("/api/runs/{run_id}/best" in p for p in paths), paths
        page.goto(f"{quiet_server.url}/redoc")
        page.get_by_text("Read Best").first.wait_for(state="attached")  # in ReDoc's menu (collapsed)
        page.locator("h1", has_text="kernelevo").first.wait_for()  # and its page, rendered
        browser.close()
    assert not problems, problems
