"""Pages that write their text with JavaScript, rendered in the system Chromium on loopback.

Every request the page makes goes through the Fetcher: the tests read the server's log to
prove what the browser never asked for itself. Skipped without Playwright or Chromium.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pytest_httpserver import HTTPServer

from quietedit.config import parse_config
from quietedit.errors import RenderError
from quietedit.fetch import Fetcher, RawDocument
from quietedit.fetch.render import RENDER_TIMEOUT, Renderer, find_browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_browser() is None, reason="no Chromium (apt-get install chromium)"),
]
pytest.importorskip("playwright.async_api", reason="needs playwright: pip install -e '.[render]'")

T = TypeVar("T")

SHELL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loading…</title>
<link rel="stylesheet" href="/static/site.css">
<script src="/static/app.js" defer></script></head>
<body><header><a href="/">The Harbour Times</a></header>
<main id="story"><p class="loading">Loading the story…</p></main>
<img src="/img/harbour.jpg" alt="The harbour at dawn">
</body></html>"""

APP = """
async function load() {
  const answer = await fetch('/api/story.json', {headers: {Accept: 'application/json'}});
  const story = await answer.json();
  document.title = story.headline;
  const main = document.getElementById('story');
  main.innerHTML = '';
  const h1 = document.createElement('h1');
  h1.textContent = story.headline;
  main.appendChild(h1);
  for (const text of story.paragraphs) {
    const p = document.createElement('p');
    p.textContent = text;
    main.appendChild(p);
  }
  for (const url of ['/private/draft.json', 'http://169.254.169.254/latest/meta-data/']) {
    try {
      const r = await fetch(url);
      main.insertAdjacentHTML('beforeend', '<p>LEAKED ' + (await r.text()) + '</p>');
    } catch (e) { /* refused: as it should be */ }
  }
  try { new WebSocket('ws://' + location.host + '/socket'); } catch (e) {}
  navigator.sendBeacon('/beacon', 'seen');
}
load();
"""

STORY = {
    "headline": "Harbour dredging to start in spring",
    "paragraphs": [
        "The port authority approved a 14-month dredging programme on Tuesday.",
        "Fishing crews say the work will close the inner basin for six weeks.",
    ],
}


def run(job: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return asyncio.run(job())


def serve_site(server: HTTPServer) -> None:
    server.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
    )
    server.expect_request("/news/harbour").respond_with_data(SHELL, content_type="text/html")
    server.expect_request("/static/app.js").respond_with_data(APP, content_type="text/javascript")
    server.expect_request("/static/site.css").respond_with_data(
        "main{max-width:40em}", content_type="text/css"
    )
    server.expect_request("/api/story.json").respond_with_data(
        json.dumps(STORY), content_type="application/json"
    )
    for path in ("/private/draft.json", "/img/harbour.jpg", "/beacon", "/socket"):
        server.expect_request(path).respond_with_data("SECRET", content_type="text/plain")


async def render_all(urls: list[str], *, timeout: float = RENDER_TIMEOUT) -> list[RawDocument]:
    """Each page fetched as an article, then rendered, by one Renderer."""
    settings = parse_config(None, environ={}, source="-", base_dir=Path()).settings
    async with (
        Fetcher(settings, allow_private=True, politeness=False) as fetcher,
        Renderer(fetcher, timeout=timeout) as renderer,
    ):
        return [await renderer.render(await fetcher.fetch_article(url)) for url in urls]


async def render(url: str, *, timeout: float = RENDER_TIMEOUT) -> RawDocument:
    [page] = await render_all([url], timeout=timeout)
    return page


def test_pages_that_write_their_text_from_a_script_are_read_after_rendering(
    httpserver: HTTPServer,
) -> None:
    serve_site(httpserver)
    httpserver.expect_request("/news/harbour-2").respond_with_data(SHELL, content_type="text/html")
    urls = [httpserver.url_for("/news/harbour"), httpserver.url_for("/news/harbour-2")]
    rendered, second = run(lambda: render_all(urls))
    html = rendered.body.decode("utf-8")
    assert STORY["paragraphs"][0] in html and STORY["paragraphs"][1] in html
    assert "<title>Harbour dredging to start in spring</title>" in html
    assert "LEAKED" not in html
    assert rendered.content_type == "text/html; charset=utf-8"
    rendering = rendered.rendering
    assert rendering is not None
    assert rendering.original.body == SHELL.encode()  # the server's response, kept as sent
    assert rendering.browser.startswith("chromium ")
    assert "robots.txt: " + httpserver.url_for("/private/draft.json") in rendering.refused
    assert "guard: http://169.254.169.254/latest/meta-data/" in rendering.refused
    assert any(reason.startswith("websocket: ") for reason in rendering.refused)
    asked = [request.path for request, _ in httpserver.log]
    # each page once (by the fetcher, never by the browser), then what it needed
    assert asked.count("/news/harbour") == asked.count("/news/harbour-2") == 1
    assert {"/robots.txt", "/static/app.js", "/api/story.json"} <= set(asked)
    assert not {"/private/draft.json", "/img/harbour.jpg", "/beacon", "/socket"} & set(asked)
    # a second page of the site: its script comes from the run's cache, its text never does
    assert STORY["paragraphs"][0] in second.body.decode("utf-8")
    assert asked.count("/static/app.js") == 1
    assert asked.count("/api/story.json") == 2


def test_a_page_that_never_finishes_fails_within_the_time_bound(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/spin").respond_with_data(
        "<html><body><p>x</p><script>for (;;) {}</script></body></html>", content_type="text/html"
    )
    with pytest.raises(RenderError, match=r"rendering took longer than 2 s") as caught:
        run(lambda: render(httpserver.url_for("/spin"), timeout=2.0))
    assert caught.value.transient


def test_a_page_that_allocates_without_end_fails_and_the_run_goes_on(
    httpserver: HTTPServer,
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/hog").respond_with_data(
        "<html><body><script>const a = []; for (;;) a.push(new Array(1e6).fill(1.5));</script>"
        "</body></html>",
        content_type="text/html",
    )
    # V8's heap limit (HEAP_MB) kills the page long before the time bound
    with pytest.raises(RenderError, match=r"Chromium failed: .*crashed") as caught:
        run(lambda: render(httpserver.url_for("/hog"), timeout=25.0))
    assert caught.value.transient


def test_a_missing_browser_is_a_clear_render_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/a").respond_with_data("<p>a</p>", content_type="text/html")

    async def go() -> RawDocument:
        settings = parse_config(None, environ={}, source="-", base_dir=Path()).settings
        async with (
            Fetcher(settings, allow_private=True, politeness=False) as fetcher,
            Renderer(fetcher, executable="/nonexistent/chromium") as renderer,
        ):
            page = await fetcher.fetch_article(httpserver.url_for("/a"))
            return await renderer.render(page)

    with pytest.raises(RenderError, match=r"Chromium at /nonexistent/chromium did not start"):
        run(go)


def test_webrtc_sends_nothing_past_the_fetcher(httpserver: HTTPServer) -> None:
    """A page's peer connection would send STUN over UDP to any address it names, straight
    from the browser: an internal network probed behind the SSRF guard's back."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.settimeout(1.0)
    port = listener.getsockname()[1]
    probe = f"""<!doctype html><html><body><p>The ferry timetable changes on Monday.</p>
<script>
const pc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:{port}'}}]}});
pc.createDataChannel('probe');
pc.createOffer().then(offer => pc.setLocalDescription(offer));
</script></body></html>"""
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    httpserver.expect_request("/ferry").respond_with_data(probe, content_type="text/html")
    with listener:
        rendered = run(lambda: render(httpserver.url_for("/ferry")))
        assert "ferry timetable" in rendered.body.decode("utf-8")
        with pytest.raises(TimeoutError):
            listener.recvfrom(2048)
