"""Pages that need JavaScript: rendered in headless Chromium, every request through the Fetcher.

A feed with ``render: chromium`` in feeds.yaml has its article pages rendered: the page is
fetched as any article is (:meth:`Fetcher.fetch_article`: the SSRF guard and robots.txt on
every hop), then loaded into a fresh browser context where the browser itself touches no
network. Every request the page makes is intercepted (Playwright's ``route``) and either

- answered from the response already fetched (the page itself), or
- fetched through the same :class:`~quietedit.fetch.client.Fetcher` with robots.txt obeyed:
  the SSRF guard checks each hop and each resolved address, robots.txt of each origin must
  allow it, politeness and the size cap apply, redirects are followed by the fetcher
  (scripts and style sheets, fetched so once, are kept for the run's later pages); or
- refused: images, media, fonts and other types that carry no text, requests other than
  GET, schemes other than http(s), requests past :data:`MAX_REQUESTS`. WebSockets are
  closed unopened, service workers are blocked, WebRTC may not send UDP, and the browser
  resolves no host name itself (``--host-resolver-rules``), so nothing it might try
  outside the interception reaches the network either.

The rendered DOM (``page.content()`` once the page has loaded and the network has been
quiet, or :data:`SETTLE_TIME` has passed) becomes the body that is read; the server's
response stays attached (:class:`~quietedit.fetch.document.Rendering`), and both are kept
as evidence, the DOM labelled as rendered. Bounds: :data:`RENDER_TIMEOUT` per page,
:data:`MAX_CONCURRENT` pages at once, a V8 heap of :data:`HEAP_MB` per renderer process,
and the fetch size cap on the DOM as on any body. One browser serves a whole run; it is
started on the first render and closed with the :class:`Renderer`.

Playwright is an optional dependency (``pip install 'quietedit[render]'``) and Chromium is
the system's (``apt-get install chromium``), found as ``$CHROMIUM_PATH`` or on ``PATH``:
Playwright's own browser download is never used. Without either, a render fails with a
:class:`~quietedit.errors.RenderError` that says what to install.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urldefrag

from quietedit.errors import (
    BlockedURLError,
    FetchError,
    HostDeferredError,
    HTTPStatusError,
    RenderError,
    RobotsDisallowedError,
    UnsupportedURLError,
)
from quietedit.fetch.document import RawDocument, Rendering

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright, Request, Route, WebSocketRoute

    from quietedit.fetch.client import Fetcher

logger = logging.getLogger(__name__)

RENDER_TIMEOUT: Final = 30.0
"""Seconds one page may take, from opening it to its DOM: a page slower than this is a
failed check (retried on the next run), never a run held up."""

SETTLE_TIME: Final = 5.0
"""After the ``load`` event, how long to wait at most for the network to stay quiet for
half a second (Playwright's ``networkidle``): pages fetch their text after loading."""

MAX_REQUESTS: Final = 150
"""Requests one page may have fetched for it; the rest are refused. A news page's text
needs its scripts and an API call or two, not its hundreds of ad and tracking requests."""

MAX_CONCURRENT: Final = 2
"""Pages rendered at once: each renderer process may take a few hundred MB."""

HEAP_MB: Final = 256
"""The JavaScript heap of a renderer process (V8's ``--max-old-space-size``): a script
that allocates without end dies there instead of taking the machine's memory."""

ASSET_CACHE_BYTES: Final = 32 * 1024 * 1024
"""Scripts and style sheets kept for the run's later pages: a site's pages share them, and
fetching its app bundle once instead of once per article spares the host's budget."""

CACHED_TYPES: Final = frozenset({"script", "stylesheet"})
"""What the asset cache holds; ``fetch``/XHR answers are the page's text and never cached."""

MAX_REFUSED_KEPT: Final = 40
"""Refused requests listed in a rendering's record; the count is always complete."""

FETCHED_TYPES: Final = frozenset({"document", "script", "xhr", "fetch", "stylesheet"})
"""Resource types fetched for a page: what can put text into the DOM. Images, media, fonts,
beacons and the rest are refused unrequested."""

FORWARDED_HEADERS: Final = frozenset({"accept", "x-requested-with"})
"""Request headers of the page passed on to the fetcher (an API may answer JSON only to
``Accept: application/json``); cookies and the rest are the fetcher's own business."""

_RESPONSE_HEADERS_DROPPED: Final = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "set-cookie"}
)
"""The fetcher hands over decoded bodies and keeps no cookies: these headers would lie."""

BROWSER_ENV: Final = "CHROMIUM_PATH"
BROWSER_NAMES: Final = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""Debian's package, Ubuntu's, and the Chrome GitHub's runners ship."""

BROWSER_ARGS: Final = (
    "--disable-gpu",
    "--disable-dev-shm-usage",  # /dev/shm is small in containers
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--dns-prefetch-disable",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # the browser resolves nothing itself
    # WebRTC's STUN goes over UDP to any address a page names, outside the interception and
    # the resolver: with no proxy, this leaves it no socket to send from
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--renderer-process-limit=2",
    f"--js-flags=--max-old-space-size={HEAP_MB}",
)


def find_browser(environ: Mapping[str, str] | None = None) -> str | None:
    """``$CHROMIUM_PATH``, else the first Chromium or Chrome on ``PATH``, else None."""
    configured = (os.environ if environ is None else environ).get(BROWSER_ENV)
    if configured:
        return configured
    return next((found for name in BROWSER_NAMES if (found := shutil.which(name))), None)


@dataclass
class _Log:
    """What one render did with the page's requests."""

    served_page: bool = False
    requests: int = 0
    skipped: int = 0
    refused: list[str] = field(default_factory=list)

    def refuse(self, reason: str, url: str) -> None:
        if len(self.refused) < MAX_REFUSED_KEPT:
            self.refused.append(f"{reason}: {url[:300]}")


class Renderer:
    """Renders pages in one headless Chromium, for the lifetime of an ``async with`` block.

    ``fetcher`` makes every request the pages make. ``executable`` is the browser (default:
    :func:`find_browser`); ``timeout`` the seconds per page; ``max_bytes`` the size cap on
    a rendered DOM (default: the fetcher's). The browser starts on the first
    :meth:`render`, so a run whose feeds render nothing never starts one.
    """

    def __init__(
        self,
        fetcher: Fetcher,
        *,
        executable: str | None = None,
        timeout: float = RENDER_TIMEOUT,
        max_requests: int = MAX_REQUESTS,
        max_bytes: int | None = None,
    ) -> None:
        self._fetcher = fetcher
        self._executable = executable
        self.timeout = timeout
        self.max_requests = max_requests
        self.max_bytes = max_bytes if max_bytes is not None else fetcher.policy.max_bytes
        self._slots = asyncio.Semaphore(MAX_CONCURRENT)
        self._start = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._unavailable: str | None = None
        self._assets: dict[str, RawDocument] = {}
        self._asset_bytes = 0

    async def __aenter__(self) -> Renderer:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the browser and Playwright's driver, if they were started."""
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        if browser is not None:
            with contextlib.suppress(Exception):
                await browser.close()
        if playwright is not None:
            with contextlib.suppress(Exception):
                await playwright.stop()

    async def render(self, page: RawDocument) -> RawDocument:
        """``page`` (fetched as an article) rendered: a document whose body is the DOM as
        UTF-8 HTML, with ``page`` in its ``rendering``. Raises :class:`RenderError`."""
        async with self._slots:
            browser = await self._started(page.url)
            log = _Log()
            try:
                async with asyncio.timeout(self.timeout):
                    html, final_url = await self._load(browser, page, log)
            except TimeoutError as exc:
                raise RenderError(
                    page.url, f"rendering took longer than {self.timeout:g} s", transient=True
                ) from exc
            except RenderError:
                raise
            except Exception as exc:  # Playwright's errors: the browser or its driver failed
                message = str(getattr(exc, "message", "") or exc).splitlines()[0][:300]
                raise RenderError(
                    page.url, f"Chromium failed: {type(exc).__name__}: {message}", transient=True
                ) from exc
        body = html.encode("utf-8")
        if len(body) > self.max_bytes:
            raise RenderError(
                page.url,
                f"the rendered page is {len(body)} bytes, over the limit of {self.max_bytes}; "
                "raise fetch.max_bytes if the page is genuine",
            )
        logger.info(
            "rendered %s: %d requests fetched, %d refused, %d skipped",
            page.url,
            log.requests,
            len(log.refused),
            log.skipped,
        )
        rendering = Rendering(
            original=page,
            browser=f"chromium {browser.version}",
            requests=log.requests,
            refused=tuple(log.refused),
            skipped=log.skipped,
        )
        return replace(
            page,
            url=final_url,
            status=page.status,
            content_type="text/html; charset=utf-8",
            body=body,
            rendering=rendering,
        )

    async def _started(self, url: str) -> Browser:
        """The run's browser, launched on first use; a launch failure fails every render."""
        async with self._start:
            if self._browser is None and self._unavailable is None:
                launched = await self._launch()
                if isinstance(launched, str):
                    self._unavailable = launched
                else:
                    self._browser = launched
            if self._browser is None:
                raise RenderError(url, self._unavailable or "the browser is closed")
            return self._browser

    async def _launch(self) -> Browser | str:
        """Start Playwright and Chromium: the browser, or why it could not start."""
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            return "rendering needs Playwright: pip install 'quietedit[render]'"
        executable = self._executable or find_browser()
        if executable is None:
            return (
                f"no Chromium to render with: install it (apt-get install chromium) or set "
                f"{BROWSER_ENV} to the browser's path"
            )
        try:
            self._playwright = await async_playwright().start()
            return await self._playwright.chromium.launch(
                executable_path=executable,
                headless=True,
                args=list(BROWSER_ARGS),
                # the sandbox needs user namespaces, which root in a container lacks
                chromium_sandbox=os.geteuid() != 0,
            )
        except Exception as exc:  # noqa: BLE001 - any launch failure is reported the same way
            await self.aclose()
            return f"Chromium at {executable} did not start: {exc}".splitlines()[0][:300]

    async def _load(self, browser: Browser, page: RawDocument, log: _Log) -> tuple[str, str]:
        """Open ``page`` in a fresh context and return its DOM and final URL."""
        context = await browser.new_context(
            user_agent=self._fetcher.user_agent,
            service_workers="block",
            accept_downloads=False,
        )
        try:

            async def route(route: Route, request: Request) -> None:
                await self._answer(route, request, page=page, log=log)

            async def refuse_socket(socket: WebSocketRoute) -> None:
                log.refuse("websocket", socket.url)
                await socket.close()

            await context.route("**/*", route)
            await context.route_web_socket("**/*", refuse_socket)
            tab = await context.new_page()
            await tab.goto(page.url, wait_until="load")
            with contextlib.suppress(Exception):  # a page that never goes quiet is read as is
                await tab.wait_for_load_state("networkidle", timeout=SETTLE_TIME * 1000)
            html = await tab.content()
            final = tab.url if tab.url.startswith(("http://", "https://")) else page.url
            return html, final
        finally:
            with contextlib.suppress(Exception):
                await context.close()

    async def _answer(
        self, route: Route, request: Request, *, page: RawDocument, log: _Log
    ) -> None:
        """Answer one request of the page (see the module docstring); never raises."""
        url = request.url
        try:
            if (
                not log.served_page
                and request.is_navigation_request()
                and request.frame.parent_frame is None
                and urldefrag(url)[0] == urldefrag(page.url)[0]
            ):
                log.served_page = True
                await _fulfil(route, page)
                return
            if (
                request.resource_type not in FETCHED_TYPES
                or request.method != "GET"
                or not url.startswith(("http://", "https://"))
            ):
                log.skipped += 1
                await route.abort("blockedbyclient")
                return
            if log.requests >= self.max_requests:
                log.refuse("budget", url)
                await route.abort("blockedbyclient")
                return
            log.requests += 1
            await self._fetch_for_page(route, request, log)
        except Exception as exc:  # noqa: BLE001 - a closed page or context: nothing to answer
            logger.debug("render: no answer to %s: %r", url, exc)

    async def _fetch_for_page(self, route: Route, request: Request, log: _Log) -> None:
        url = request.url
        cached = self._assets.get(url)
        if cached is not None:
            await _fulfil(route, cached)
            return
        headers = {k: v for k, v in request.headers.items() if k.lower() in FORWARDED_HEADERS}
        try:
            fetched = await self._fetcher.fetch(url, headers=headers, obey_robots=True)
        except RobotsDisallowedError:
            log.refuse("robots.txt", url)
            await route.abort("blockedbyclient")
        except (BlockedURLError, UnsupportedURLError):
            log.refuse("guard", url)
            await route.abort("addressunreachable")
        except HostDeferredError:
            log.refuse("politeness", url)
            await route.abort("blockedbyclient")
        except HTTPStatusError as exc:
            await route.fulfill(status=exc.status, body=b"")
        except FetchError as exc:
            log.refuse(type(exc).__name__, url)
            await route.abort("failed")
        else:
            if request.resource_type in CACHED_TYPES and fetched.status == 200:
                self._keep_asset(url, fetched)
            await _fulfil(route, fetched)

    def _keep_asset(self, url: str, document: RawDocument) -> None:
        if self._asset_bytes + len(document.body) <= ASSET_CACHE_BYTES:
            self._assets[url] = document
            self._asset_bytes += len(document.body)


async def _fulfil(route: Route, document: RawDocument) -> None:
    headers: dict[str, str] = {}
    for name, value in document.headers:
        if name.lower() not in _RESPONSE_HEADERS_DROPPED:
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
    options: dict[str, Any] = {"status": document.status or 200, "headers": headers}
    if document.content_type and "content-type" not in {k.lower() for k in headers}:
        options["content_type"] = document.content_type
    await route.fulfill(body=document.body, **options)
