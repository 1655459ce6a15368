"""The demo site, built once, served by ``quietedit serve``'s own server, opened in Chromium.

The demo is built for the site tests' project-site address (``BASE_URL``, under
``/quietedit/``) so the link checker in ``tests/publish/sitecheck.py`` applies unchanged and
the browser sees the same URL layout as a GitHub Pages project site.

The browser is Debian's (or any) Chromium driven by Playwright, found from ``CHROMIUM_PATH``
(not ``QUIETEDIT_*``: the config check rejects unknown variables of that prefix), else on
PATH. Without Playwright or a browser the browser tests skip and say which is missing.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from quietedit.cli import cli
from quietedit.publish.serve import make_server
from tests.publish.conftest import BASE_URL

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Error, Page

BROWSER_ENV: Final = "CHROMIUM_PATH"
BROWSER_NAMES: Final = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""Debian's package, Ubuntu's, and the Chrome that GitHub's runners ship."""
BROWSER_ARGS: Final = (
    # root in a container without user namespaces; no GPU; /dev/shm is small in containers;
    # and no calls home on a closed network (see research/ecosystem.md §5)
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
VIEWPORTS: Final = {"desktop": (1280, 900), "phone": (390, 844)}
ARTEFACTS: Final = Path(__file__).parent / "artefacts"
"""Screenshots, kept after the run for a person (or CI's artefact upload) to look at."""

_saved: list[Path] = []


@pytest.fixture(scope="package")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's site folder, built for ``BASE_URL``."""
    root = tmp_path_factory.mktemp("browser-demo")
    site = root / "site"
    args = ["demo", "--data", str(root / "data"), "--out", str(site), "--base-url", BASE_URL]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return site


@pytest.fixture(scope="package")
def site_url(demo_site: Path) -> Iterator[str]:
    """The demo site on a free loopback port, under the base path it was built for."""
    base_path = urlsplit(BASE_URL).path
    server = make_server(demo_site, port=0, base_path=base_path)
    thread = threading.Thread(target=server.serve_forever, name="browser-site", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host!s}:{port}{base_path}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def find_browser() -> str | None:
    """``$CHROMIUM_PATH``, else the first Chromium or Chrome on PATH."""
    configured = os.environ.get(BROWSER_ENV)
    if configured:
        return configured
    return next((found for name in BROWSER_NAMES if (found := shutil.which(name))), None)


@pytest.fixture(scope="package")
def browser(demo_site: Path) -> Iterator[Browser]:
    """Chromium, for this package's tests only.

    Playwright's sync API keeps an asyncio loop running in this thread until it stops, and
    the build indexes with ``asyncio.run``, which refuses to start inside a running loop: so
    the demo is built first, and the browser is closed before any other package's tests.
    """
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="needs playwright: pip install -e '.[test]'"
    )
    executable = find_browser()
    if executable is None:
        pytest.skip(
            f"no Chromium: set {BROWSER_ENV} or install chromium (apt-get install chromium)"
        )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=list(BROWSER_ARGS)
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Tab:
    """A page in a fresh context, with every console error and uncaught exception it saw."""

    page: Page
    base: str
    errors: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path.lstrip("/")

    def screenshot(self, name: str) -> Path:
        """A full-page screenshot under ``ARTEFACTS``, listed at the end of the run."""
        ARTEFACTS.mkdir(exist_ok=True)
        path = ARTEFACTS / f"{name}.png"
        self.page.screenshot(path=path, full_page=True)
        _saved.append(path)
        return path


def open_tab(
    browser: Browser, base: str, viewport: str = "desktop", *, bypass_csp: bool = False
) -> Tab:
    """A page in a new context sized ``viewport``; ``bypass_csp`` lets a test inject tools
    (axe) into pages whose Content-Security-Policy allows no inline script."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=bypass_csp
    )
    # a loopback site answers in milliseconds; fail in seconds rather than Playwright's 30
    context.set_default_timeout(10_000)
    tab = Tab(page=context.new_page(), base=base)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            tab.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def on_page_error(error: Error) -> None:
        tab.errors.append(f"uncaught: {error.message}")

    tab.page.on("console", on_console)
    tab.page.on("pageerror", on_page_error)
    return tab


@pytest.fixture
def tab(browser: Browser, site_url: str) -> Iterator[Tab]:
    """A desktop-sized tab on the demo site; closed after the test."""
    opened = open_tab(browser, site_url)
    try:
        yield opened
    finally:
        opened.page.context.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _saved:
        terminalreporter.write_sep("-", f"{len(_saved)} browser screenshots")
        for path in _saved:
            terminalreporter.write_line(str(path))
