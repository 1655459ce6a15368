"""fetch_document against a real server on loopback: retries, waits, validators, redirects,
credentials, cancellation, deadlines and size caps."""

from __future__ import annotations

import asyncio
import gzip
import socket
import threading
import time
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.errors import (
    BlockedURLError,
    ContentDecodingError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidHeaderError,
    NetworkError,
    ResponseTooLargeError,
    TooManyRedirectsError,
    UnsupportedURLError,
)
from quietedit.fetch import CachedResponse, Fetcher, MemoryCache, RawDocument, fetch_document
from quietedit.fetch.headers import DEFAULT_ACCEPT
from tests.fetch.conftest import (
    CDN,
    NEWS,
    Resolver,
    raw_server,
    recording_sleep,
    run,
    settings,
)

RSS = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<rss version="2.0"><channel><title>Lokales</title></channel></rss>\n'
)


def fetch(url: str, resolver: Resolver, **options: Any) -> RawDocument:
    """fetch_document with the guard relaxed for loopback and no real DNS."""
    options.setdefault("allow_private", True)
    options.setdefault("sleep", recording_sleep([]))
    return run(fetch_document(url, resolve=resolver, **options))


def at(port: int, path: str, host: str = NEWS) -> str:
    return f"http://{host}:{port}{path}"


def requests_to(server: HTTPServer, path: str) -> list[Request]:
    return [request for request, _ in server.log if request.path == path]


# ---- the document and its headers ----------------------------------------------------------


def test_document_carries_final_url_status_type_body_and_validators(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(
        RSS,
        content_type="application/rss+xml; charset=utf-8",
        headers={"ETag": '"v1"', "Last-Modified": "Mon, 30 Nov 2026 06:00:00 GMT"},
    )
    document = fetch(at(port, "/feed.xml"), resolver)
    assert document.url == at(port, "/feed.xml")
    assert (document.status, document.body, document.not_modified) == (200, RSS, False)
    assert document.content_type == "application/rss+xml; charset=utf-8"
    assert (document.etag, document.last_modified) == ('"v1"', "Mon, 30 Nov 2026 06:00:00 GMT")
    assert document.header("ETag") == '"v1"'
    assert document.attempts == 1


def test_identifying_user_agent_and_feed_preferring_accept_are_sent(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(RSS)
    fetch(at(port, "/feed.xml"), resolver)
    (request,) = requests_to(server, "/feed.xml")
    assert request.headers["User-Agent"].startswith("quietedit/")
    assert "(+https://" in request.headers["User-Agent"]
    assert request.headers["Accept"] == DEFAULT_ACCEPT
    assert request.headers["Accept"].startswith("application/atom+xml, application/rss+xml")
    assert "gzip" in request.headers["Accept-Encoding"]
    assert "Cookie" not in request.headers


def test_caller_headers_are_lowercased_and_override_user_agent_and_accept(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(RSS)
    fetch(
        at(port, "/feed.xml"),
        resolver,
        headers={"USER-AGENT": "Newsroom-Monitor/2", "Accept": "application/rss+xml", "X-Key": "k"},
    )
    (request,) = requests_to(server, "/feed.xml")
    assert request.headers["User-Agent"] == "Newsroom-Monitor/2"
    assert request.headers["Accept"] == "application/rss+xml"
    assert request.headers["X-Key"] == "k"


def test_a_header_quietedit_sets_itself_is_refused_before_any_request(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    with pytest.raises(InvalidHeaderError, match="'host' is set by quietedit"):
        fetch(at(port, "/feed.xml"), resolver, headers={"Host": "other.example"})
    with pytest.raises(InvalidHeaderError, match="control character"):
        fetch(at(port, "/feed.xml"), resolver, headers={"X-A": "1\r\nX-Injected: 2"})
    assert not server.log


# ---- retry classification ------------------------------------------------------------------


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_5xx_and_429_are_retried(
    server: HTTPServer, port: int, resolver: Resolver, status: int
) -> None:
    server.expect_ordered_request("/feed.xml").respond_with_data("busy", status=status)
    server.expect_ordered_request("/feed.xml").respond_with_data(RSS)
    waits: list[float] = []
    document = fetch(at(port, "/feed.xml"), resolver, sleep=recording_sleep(waits))
    assert document.body == RSS and document.attempts == 2
    assert len(waits) == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 451])
def test_other_4xx_are_not_retried(
    server: HTTPServer, port: int, resolver: Resolver, status: int
) -> None:
    server.expect_request("/feed.xml").respond_with_data("no", status=status)
    with pytest.raises(HTTPStatusError) as caught:
        fetch(at(port, "/feed.xml"), resolver, retries=3)
    assert caught.value.status == status and not caught.value.transient
    assert len(requests_to(server, "/feed.xml")) == 1


def test_persistent_5xx_raises_the_last_error_after_every_retry(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data("down", status=503)
    with pytest.raises(HTTPStatusError) as caught:
        fetch(at(port, "/feed.xml"), resolver, retries=2)
    assert caught.value.status == 503 and caught.value.transient
    assert len(requests_to(server, "/feed.xml")) == 3


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_network_errors_are_retried(resolver: Resolver) -> None:
    waits: list[float] = []
    with pytest.raises(NetworkError) as caught:
        fetch(at(closed_port(), "/feed.xml"), resolver, retries=2, sleep=recording_sleep(waits))
    assert caught.value.transient
    assert len(waits) == 2  # three attempts


def test_a_name_that_does_not_resolve_is_a_network_error(resolver: Resolver) -> None:
    with pytest.raises(NetworkError, match=r"cannot resolve 'gone\.example\.test'"):
        fetch("http://gone.example.test/feed.xml", resolver, retries=0)


@pytest.mark.parametrize(
    "url",
    ["ftp://news.example.test/feed.xml", "file:///etc/passwd", "http://", "not a url", ""],
)
def test_unsupported_urls_are_refused_without_a_request(
    server: HTTPServer, resolver: Resolver, url: str
) -> None:
    with pytest.raises(UnsupportedURLError):
        fetch(url, resolver)
    assert not server.log and not resolver.lookups


def test_credentials_in_the_url_are_refused(resolver: Resolver, port: int) -> None:
    with pytest.raises(UnsupportedURLError, match="send credentials in headers"):
        fetch(f"http://editor:secret@{NEWS}:{port}/feed.xml", resolver)


# ---- waiting -------------------------------------------------------------------------------


def test_retry_after_in_seconds_is_honoured(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_ordered_request("/feed.xml").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "7"}
    )
    server.expect_ordered_request("/feed.xml").respond_with_data(RSS)
    waits: list[float] = []
    fetch(at(port, "/feed.xml"), resolver, sleep=recording_sleep(waits))
    assert waits == [7.0]


def test_retry_after_as_an_http_date_is_honoured(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=12), usegmt=True)
    server.expect_ordered_request("/feed.xml").respond_with_data(
        "maintenance", status=503, headers={"Retry-After": later}
    )
    server.expect_ordered_request("/feed.xml").respond_with_data(RSS)
    waits: list[float] = []
    fetch(at(port, "/feed.xml"), resolver, sleep=recording_sleep(waits))
    assert len(waits) == 1 and 9.0 < waits[0] <= 12.0


@pytest.mark.parametrize(("value", "expected"), [("3600", 30.0), ("86400000", 30.0)])
def test_retry_after_is_capped_at_30_seconds(
    server: HTTPServer, port: int, resolver: Resolver, value: str, expected: float
) -> None:
    server.expect_ordered_request("/feed.xml").respond_with_data(
        "", status=429, headers={"Retry-After": value}
    )
    server.expect_ordered_request("/feed.xml").respond_with_data(RSS)
    waits: list[float] = []
    fetch(at(port, "/feed.xml"), resolver, sleep=recording_sleep(waits))
    assert waits == [expected]


def test_unreadable_retry_after_falls_back_to_backoff(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_ordered_request("/feed.xml").respond_with_data(
        "", status=429, headers={"Retry-After": "soon"}
    )
    server.expect_ordered_request("/feed.xml").respond_with_data(RSS)
    waits: list[float] = []
    fetch(at(port, "/feed.xml"), resolver, sleep=recording_sleep(waits), jitter=lambda: 0.0)
    assert waits == [0.25]


@pytest.mark.parametrize(("draw", "low", "high"), [(0.0, 0.5, 0.5), (0.999999, 0.5, 1.0)])
def test_backoff_is_full_jitter_exponential_within_bounds(
    server: HTTPServer, port: int, resolver: Resolver, draw: float, low: float, high: float
) -> None:
    server.expect_request("/feed.xml").respond_with_data("", status=500)
    waits: list[float] = []
    with pytest.raises(HTTPStatusError):
        fetch(
            at(port, "/feed.xml"),
            resolver,
            retries=3,
            backoff=2.0,
            sleep=recording_sleep(waits),
            jitter=lambda: draw,
        )
    # base 2 s: 2 * 2**attempt * U[0.5, 1), capped at 30 s
    assert len(waits) == 3
    for attempt, wait in enumerate(waits):
        assert 2.0 * 2**attempt * low <= wait <= min(30.0, 2.0 * 2**attempt * high)


def test_backoff_is_capped_at_max_wait(server: HTTPServer, port: int, resolver: Resolver) -> None:
    server.expect_request("/feed.xml").respond_with_data("", status=500)
    waits: list[float] = []
    with pytest.raises(HTTPStatusError):
        fetch(
            at(port, "/feed.xml"), resolver, retries=2, backoff=100.0, sleep=recording_sleep(waits)
        )
    assert waits == [30.0, 30.0]


# ---- conditional requests ------------------------------------------------------------------

V1 = {"ETag": '"rev-41"', "Last-Modified": "Mon, 30 Nov 2026 06:00:00 GMT"}


def test_a_304_returns_the_cached_body_marked_not_modified(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    cache = MemoryCache()
    server.expect_ordered_request("/feed.xml").respond_with_data(
        RSS, content_type="application/rss+xml", headers=V1
    )
    server.expect_ordered_request(
        "/feed.xml",
        headers={"If-None-Match": '"rev-41"', "If-Modified-Since": V1["Last-Modified"]},
    ).respond_with_data("", status=304)
    first = fetch(at(port, "/feed.xml"), resolver, cache=cache)
    second = fetch(at(port, "/feed.xml"), resolver, cache=cache, retries=3)
    assert not first.not_modified
    assert second.not_modified and second.status == 304
    assert second.body == RSS and second.content_type == "application/rss+xml"
    assert second.etag == '"rev-41"'
    assert len(requests_to(server, "/feed.xml")) == 2  # a 304 is a success, never retried


def test_validators_go_only_to_the_first_hop(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    cache = MemoryCache()
    cache.put(at(port, "/old"), CachedResponse(at(port, "/new"), RSS, None, '"rev-41"', None))
    server.expect_request("/old").respond_with_data("", status=301, headers={"Location": "/new"})
    server.expect_request("/new").respond_with_data(RSS)
    fetch(at(port, "/old"), resolver, cache=cache)
    (first,) = requests_to(server, "/old")
    (second,) = requests_to(server, "/new")
    assert first.headers["If-None-Match"] == '"rev-41"'
    assert "If-None-Match" not in second.headers


def test_validators_are_resent_on_every_retry(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    cache = MemoryCache()
    cache.put(at(port, "/feed.xml"), CachedResponse(at(port, "/feed.xml"), RSS, None, '"v"', None))
    server.expect_ordered_request("/feed.xml").respond_with_data("", status=503)
    server.expect_ordered_request("/feed.xml").respond_with_data("", status=304)
    document = fetch(at(port, "/feed.xml"), resolver, cache=cache)
    assert document.not_modified
    assert [r.headers.get("If-None-Match") for r in requests_to(server, "/feed.xml")] == ['"v"'] * 2


def test_caller_headers_never_override_the_conditional_ones(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    cache = MemoryCache()
    cache.put(at(port, "/a"), CachedResponse(at(port, "/a"), RSS, None, '"cached"', None))
    server.expect_request("/a").respond_with_data("", status=304)
    server.expect_request("/b").respond_with_data(RSS)
    forged = {"If-None-Match": '"forged"', "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}
    fetch(at(port, "/a"), resolver, cache=cache, headers=forged)
    fetch(at(port, "/b"), resolver, cache=cache, headers=forged)
    (a,) = requests_to(server, "/a")
    (b,) = requests_to(server, "/b")
    assert a.headers["If-None-Match"] == '"cached"' and "If-Modified-Since" not in a.headers
    assert "If-None-Match" not in b.headers and "If-Modified-Since" not in b.headers


def test_the_cache_is_written_only_on_a_final_200(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    cache = MemoryCache()
    server.expect_request("/moved").respond_with_data(
        "", status=302, headers={"Location": "/feed.xml", **V1}
    )
    server.expect_request("/feed.xml").respond_with_data(RSS, headers={"ETag": '"final"'})
    server.expect_request("/partial").respond_with_data(RSS, status=203, headers=V1)
    server.expect_request("/gone").respond_with_data("", status=404, headers=V1)
    fetch(at(port, "/moved"), resolver, cache=cache)
    fetch(at(port, "/partial"), resolver, cache=cache)
    with pytest.raises(HTTPStatusError):
        fetch(at(port, "/gone"), resolver, cache=cache)
    assert len(cache) == 1
    entry = cache.get(at(port, "/moved"))  # keyed by the URL asked for
    assert entry is not None and entry.etag == '"final"' and entry.url == at(port, "/feed.xml")


def test_a_304_to_an_unconditional_request_is_an_error(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data("", status=304)
    with pytest.raises(HTTPStatusError, match="not conditional"):
        fetch(at(port, "/feed.xml"), resolver, cache=MemoryCache())


# ---- redirects -----------------------------------------------------------------------------


def redirect_chain(server: HTTPServer, hops: int) -> None:
    for n in range(hops):
        server.expect_request(f"/r{n}").respond_with_data(
            "", status=(301, 302, 303, 307, 308)[n % 5], headers={"Location": f"/r{n + 1}"}
        )
    server.expect_request(f"/r{hops}").respond_with_data(RSS)


def test_five_redirect_hops_are_followed(server: HTTPServer, port: int, resolver: Resolver) -> None:
    redirect_chain(server, 5)
    document = fetch(at(port, "/r0"), resolver)
    assert document.url == at(port, "/r5") and document.body == RSS
    assert document.redirects == tuple(at(port, f"/r{n}") for n in range(5))
    assert document.requested_url == at(port, "/r0")


def test_a_sixth_redirect_hop_is_refused_and_not_retried(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    redirect_chain(server, 6)
    with pytest.raises(TooManyRedirectsError):
        fetch(at(port, "/r0"), resolver, retries=3)
    assert len(server.log) == 6 and not requests_to(server, "/r6")


def test_location_is_resolved_against_the_current_url(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/politics/2026/story").respond_with_data(
        "", status=301, headers={"Location": "../news/story?x=1#top"}
    )
    server.expect_request("/politics/news/story").respond_with_data(RSS)
    document = fetch(at(port, "/politics/2026/story"), resolver)
    assert document.url == at(port, "/politics/news/story?x=1")


def test_a_redirect_to_another_scheme_is_refused(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/a").respond_with_data(
        "", status=302, headers={"Location": "file:///etc/passwd"}
    )
    with pytest.raises(UnsupportedURLError, match="unsupported scheme"):
        fetch(at(port, "/a"), resolver, retries=3)
    assert len(server.log) == 1


def test_a_redirect_without_location_is_an_error(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/a").respond_with_data("", status=302)
    with pytest.raises(HTTPStatusError, match="without a Location"):
        fetch(at(port, "/a"), resolver)


def test_validate_runs_on_every_hop_before_its_request_and_is_not_retried(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    seen: list[str] = []

    def validate(url: str) -> None:
        seen.append(url)
        if "/internal/" in url:
            raise ValueError("internal paths are off limits")

    server.expect_request("/a").respond_with_data("", status=302, headers={"Location": "/b"})
    server.expect_request("/b").respond_with_data(
        "", status=302, headers={"Location": "/internal/admin"}
    )
    with pytest.raises(BlockedURLError, match="off limits"):
        fetch(at(port, "/a"), resolver, validate=validate, retries=3)
    assert seen == [at(port, "/a"), at(port, "/b"), at(port, "/internal/admin")]
    assert [r.path for r, _ in server.log] == ["/a", "/b"]


def test_an_async_validate_hook_is_awaited(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    async def validate(url: str) -> None:
        await asyncio.sleep(0)
        raise BlockedURLError(url, "not on the allow list")

    with pytest.raises(BlockedURLError, match="allow list"):
        fetch(at(port, "/a"), resolver, validate=validate)
    assert not server.log


@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/",
        "http://2852039166/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/latest/meta-data/",
        "http://[fe80::1]/",
        "http://224.0.0.1/",
        "http://0.0.0.0/",
    ],
)
def test_a_redirect_to_a_blocked_address_is_refused_before_connecting(
    server: HTTPServer, port: int, resolver: Resolver, location: str
) -> None:
    # Even with loopback allowed, link-local (cloud metadata), multicast and "this
    # network" addresses stay refused, in every notation.
    server.expect_request("/story").respond_with_data(
        "", status=302, headers={"Location": location}
    )
    with pytest.raises(BlockedURLError, match="SSRF guard"):
        fetch(at(port, "/story"), resolver, retries=2)
    assert len(server.log) == 1
    assert resolver.lookups == [NEWS]  # the blocked hop never reached DNS or a socket


# ---- credentials across origins ------------------------------------------------------------

SECRETS = {"Authorization": "Bearer feed-token", "Cookie": "session=abc", "X-Edition": "de"}


def test_credentials_are_kept_on_a_same_origin_redirect(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/a").respond_with_data("", status=302, headers={"Location": "/b"})
    server.expect_request("/b").respond_with_data(RSS)
    fetch(at(port, "/a"), resolver, headers=SECRETS)
    (b,) = requests_to(server, "/b")
    assert b.headers["Authorization"] == "Bearer feed-token"
    assert b.headers["Cookie"] == "session=abc"


def test_credentials_are_dropped_when_a_redirect_changes_host(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/a").respond_with_data(
        "", status=302, headers={"Location": at(port, "/b", host=CDN)}
    )
    server.expect_request("/b").respond_with_data(RSS)
    fetch(at(port, "/a"), resolver, headers=SECRETS)
    (a,) = requests_to(server, "/a")
    (b,) = requests_to(server, "/b")
    assert a.headers["Authorization"] == "Bearer feed-token"
    assert b.headers["Host"] == f"{CDN}:{port}"
    assert "Authorization" not in b.headers and "Cookie" not in b.headers
    assert b.headers["X-Edition"] == "de"  # other caller headers still go along


def test_credentials_are_dropped_when_a_redirect_changes_port(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    other = HTTPServer(host="127.0.0.1", port=0)
    other.start()
    try:
        other.expect_request("/b").respond_with_data(RSS)
        server.expect_request("/a").respond_with_data(
            "", status=307, headers={"Location": at(other.port, "/b")}
        )
        fetch(at(port, "/a"), resolver, headers={"Proxy-Authorization": "Basic eA==", **SECRETS})
        ((b, _),) = other.log
    finally:
        other.clear()
        other.stop()
    for name in ("Authorization", "Proxy-Authorization", "Cookie"):
        assert name not in b.headers


def test_credentials_stay_dropped_after_the_chain_returns_to_the_origin(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/a").respond_with_data(
        "", status=302, headers={"Location": at(port, "/hop", host=CDN)}
    )
    server.expect_request("/hop").respond_with_data(
        "", status=302, headers={"Location": at(port, "/c")}
    )
    server.expect_request("/c").respond_with_data(RSS)
    fetch(at(port, "/a"), resolver, headers=SECRETS)
    (c,) = requests_to(server, "/c")
    assert c.headers["Host"] == f"{NEWS}:{port}"
    assert "Authorization" not in c.headers  # the other host chose this URL


# ---- cancellation, timeouts, deadlines -----------------------------------------------------


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at teardown, so handlers blocked on it return and free their threads."""
    event = threading.Event()
    yield event
    event.set()


def blocking_handler(release: threading.Event, calls: list[str], answered: list[str]) -> Any:
    """Records each call, then holds its answer until ``release`` (at most 5 s) and records
    that it answered: a client that gave up first saw no answer."""

    def handler(request: Request) -> Response:
        calls.append(request.path)
        release.wait(5)
        answered.append(request.path)
        return Response(RSS)

    return handler


def test_caller_cancellation_propagates_at_once_and_is_not_retried(
    server: HTTPServer, port: int, resolver: Resolver, release: threading.Event
) -> None:
    calls: list[str] = []
    answered: list[str] = []
    server.expect_request("/slow").respond_with_handler(blocking_handler(release, calls, answered))

    async def scenario() -> None:
        task = asyncio.create_task(
            fetch_document(at(port, "/slow"), allow_private=True, resolve=resolver, retries=5)
        )
        while not calls:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(scenario())
    assert answered == []  # the task ended while the server was still holding its answer
    release.set()
    time.sleep(0.05)
    assert len(calls) == 1


def test_an_attempt_timeout_is_a_retried_fetch_timeout_not_a_cancellation(
    server: HTTPServer, port: int, resolver: Resolver, release: threading.Event
) -> None:
    calls: list[str] = []
    answered: list[str] = []
    server.expect_request("/slow").respond_with_handler(blocking_handler(release, calls, answered))
    with pytest.raises(FetchTimeoutError) as caught:
        fetch(at(port, "/slow"), resolver, timeout=0.2, retries=1)
    assert caught.value.transient and not caught.value.deadline
    assert len(calls) == 2
    assert answered == []  # both attempts gave up before the server answered


def trickle(
    release: threading.Event, finished: list[str], chunk: bytes = b"<p>", every: float = 0.05
) -> Any:
    """A body of a chunk every ``every`` seconds for ~10 s; ``finished`` records a body sent
    whole. Stops as soon as the test ends (``release``)."""

    def handler(request: Request) -> Response:
        def body() -> Iterator[bytes]:
            for _ in range(200):
                if release.wait(every):
                    return
                yield chunk
            finished.append(request.path)

        return Response(body(), content_type="text/html")

    return handler


def test_a_trickling_body_cannot_outlast_the_attempt_timeout(
    server: HTTPServer, port: int, resolver: Resolver, release: threading.Event
) -> None:
    finished: list[str] = []
    server.expect_request("/story").respond_with_handler(trickle(release, finished))
    with pytest.raises(FetchTimeoutError, match="attempt 1"):
        fetch(at(port, "/story"), resolver, timeout=0.3, retries=0)
    assert finished == []  # given up while the body was still coming


def test_a_trickling_body_cannot_outlast_the_deadline_even_without_a_timeout(
    server: HTTPServer, port: int, resolver: Resolver, release: threading.Event
) -> None:
    finished: list[str] = []
    server.expect_request("/story").respond_with_handler(trickle(release, finished))
    with pytest.raises(FetchTimeoutError) as caught:
        fetch(at(port, "/story"), resolver, timeout=0, deadline=0.4, retries=3)
    assert caught.value.deadline and "deadline" in str(caught.value)
    assert finished == []


def test_no_retry_is_started_when_its_wait_would_pass_the_deadline(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(
        "", status=503, headers={"Retry-After": "20"}
    )
    waits: list[float] = []
    with pytest.raises(HTTPStatusError):
        fetch(at(port, "/feed.xml"), resolver, deadline=5, sleep=recording_sleep(waits))
    assert waits == [] and len(server.log) == 1


# ---- size cap ------------------------------------------------------------------------------

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    return gzip.compress(b"\0" * (32 * MIB), compresslevel=9)  # ~32 KB on the wire


def test_a_gzip_bomb_stops_at_the_cap_without_holding_the_expansion(
    server: HTTPServer, port: int, resolver: Resolver, gzip_bomb: bytes
) -> None:
    server.expect_request("/bomb").respond_with_data(
        gzip_bomb, headers={"Content-Encoding": "gzip"}, content_type="text/html"
    )
    with pytest.raises(ResponseTooLargeError) as caught:
        fetch(at(port, "/bomb"), resolver, max_bytes=MIB, retries=2)
    assert caught.value.limit == MIB and "after decompression" in str(caught.value)
    assert len(requests_to(server, "/bomb")) == 1  # not retried

    # Memory, measured against a server outside werkzeug (whose thread tracemalloc would
    # count too): the 32 MiB of zeros are never held, only about the cap.
    head = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n"
    with raw_server(head + b"Content-Length: %d\r\n\r\n" % len(gzip_bomb) + gzip_bomb) as bomb:
        peaks = []
        for _ in range(2):  # the first run also loads modules and the TLS context
            tracemalloc.start()
            try:
                with pytest.raises(ResponseTooLargeError):
                    fetch(at(bomb, "/bomb"), resolver, max_bytes=MIB, retries=0)
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
        peak = peaks[-1]
    assert peak < 4 * MIB


def test_a_brotli_bomb_stops_at_the_cap(server: HTTPServer, port: int, resolver: Resolver) -> None:
    brotli = pytest.importorskip("brotli")
    bomb = brotli.compress(b"\0" * (64 * MIB), quality=1)
    server.expect_request("/bomb").respond_with_data(bomb, headers={"Content-Encoding": "br"})
    with pytest.raises(ResponseTooLargeError):
        fetch(at(port, "/bomb"), resolver, max_bytes=MIB)
    (request,) = requests_to(server, "/bomb")
    assert "br" in request.headers["Accept-Encoding"]


def test_an_endless_chunked_body_stops_at_the_cap(
    server: HTTPServer, port: int, resolver: Resolver, release: threading.Event
) -> None:
    def endless(request: Request) -> Response:
        def body() -> Iterator[bytes]:
            for _ in range(10_000):  # 640 MiB if nobody stopped reading
                if release.is_set():
                    return
                yield b"<p>" + b"x" * 65_533

        return Response(body(), content_type="text/html")

    server.expect_request("/endless").respond_with_handler(endless)
    with pytest.raises(ResponseTooLargeError, match="while streaming"):
        fetch(at(port, "/endless"), resolver, max_bytes=2 * MIB)


def test_a_declared_length_over_the_cap_is_refused_before_reading(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/big").respond_with_data(b"x" * (2 * MIB))
    with pytest.raises(ResponseTooLargeError, match="declares 2,097,152 bytes"):
        fetch(at(port, "/big"), resolver, max_bytes=MIB)


def test_a_body_exactly_at_the_cap_is_accepted(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/exact").respond_with_data(
        gzip.compress(b"y" * 4096), headers={"Content-Encoding": "gzip"}
    )
    assert fetch(at(port, "/exact"), resolver, max_bytes=4096).body == b"y" * 4096


def test_a_corrupt_gzip_body_is_a_decoding_error_and_not_retried(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/broken").respond_with_data(
        b"\x1f\x8b\x08\x00garbage-not-deflate", headers={"Content-Encoding": "gzip"}
    )
    with pytest.raises(ContentDecodingError, match="corrupt gzip"):
        fetch(at(port, "/broken"), resolver, retries=3)
    assert len(server.log) == 1


@pytest.mark.parametrize(
    "reply",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nshort",  # ends mid-body
        b"SSH-2.0-OpenSSH_9.6\r\n",  # not HTTP at all
        b"",  # closes without a word
    ],
)
def test_broken_responses_are_network_errors_and_no_httpx_exception_escapes(
    resolver: Resolver, reply: bytes
) -> None:
    with raw_server(reply) as raw_port, pytest.raises(FetchError) as caught:
        fetch(at(raw_port, "/feed.xml"), resolver, retries=0)
    assert isinstance(caught.value, NetworkError) and caught.value.transient
    assert isinstance(caught.value.__cause__, Exception)


def test_a_kept_alive_connection_the_server_closed_is_not_reused(resolver: Resolver) -> None:
    """The server answers as if keeping the connection, then closes it; the next fetch must
    notice (the stream reports itself readable) and open a new one, not fail."""
    reply = b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<rss/>"
    with raw_server(reply) as raw_port:

        async def twice() -> list[bytes]:
            async with Fetcher(settings(retries=0), allow_private=True, resolve=resolver) as f:
                first = await f.fetch_feed(at(raw_port, "/feed.xml"))
                await asyncio.sleep(0.1)  # the server has closed its end by now
                second = await f.fetch_feed(at(raw_port, "/feed.xml"))
                return [first.body, second.body]

        assert run(twice()) == [b"<rss/>", b"<rss/>"]
