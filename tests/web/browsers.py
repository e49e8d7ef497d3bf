"""What the browser tests share: a live server in a thread, and Debian's Chromium.

Each test file keeps its own app (pages, settings, monkeypatches); this module only
holds the mechanics. Playwright is imported by the tests themselves, so the files that
mix plain tests with a browser test still run without it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
#: The project's Chromium flags: no sandbox (containers), no GPU, no calls home.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: A phone's viewport (CSS pixels).
PHONE = {"width": 412, "height": 915}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artefacts" / "screenshots"

#: Skip a test (or a module, in `pytestmark`) where Chromium is not installed.
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"Debian's chromium is not installed at {CHROMIUM}"
)


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Serve `app` with werkzeug on a free loopback port in a thread; gives the base URL."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=5)


def launch(playwright: Any) -> Any:
    """Headless Chromium (Debian's, with the project's flags) from a sync Playwright."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)


@contextmanager
def chromium() -> Iterator[Any]:
    """A running Playwright and its Chromium (see `launch`), both closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot of `page` as artefacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
