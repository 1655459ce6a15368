"""Reading responses at the wire: URLs, redirects, statuses, bodies and httpx's errors.

Everything here turns what httpx hands over into quietedit's terms: a ``FetchError`` for
every failure (no httpx exception leaves ``quietedit.fetch``), the body decompressed under
its size cap, a redirect's target resolved and checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import httpx

from quietedit.errors import (
    ContentDecodingError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    NetworkError,
    ResponseTooLargeError,
    UnsupportedURLError,
)
from quietedit.fetch.cache import CachedResponse, ConditionalCache
from quietedit.fetch.decoding import BodyDecoder, DecodeError
from quietedit.fetch.document import RawDocument
from quietedit.fetch.retry import parse_retry_after


async def read_body(
    response: httpx.Response, url: str, *, limit: int, truncate: bool, counter: WireCounter
) -> bytes:
    """The decompressed body, read as it streams in, counting wire bytes into ``counter``.

    Past ``limit`` bytes (after decompression) it raises ``ResponseTooLargeError``, or with
    ``truncate`` keeps the first ``limit`` bytes and stops reading.
    """
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > limit and not truncate:
        raise _too_large(url, limit, f"declares {int(declared):,} bytes")
    decoder = BodyDecoder(response.headers.get("content-encoding"))
    pieces: list[bytes] = []
    total = 0
    try:
        async for raw in response.aiter_raw():
            counter.raw += len(raw)
            for piece in decoder.feed(raw):
                total += len(piece)
                if total > limit:
                    return _keep_or_refuse(pieces, piece, total, limit, url, truncate=truncate)
                pieces.append(piece)
        for piece in decoder.finish():
            total += len(piece)
            if total > limit:
                return _keep_or_refuse(pieces, piece, total, limit, url, truncate=truncate)
            pieces.append(piece)
    except DecodeError as exc:
        encoding = response.headers.get("content-encoding")
        raise ContentDecodingError(url, f"{exc} (Content-Encoding: {encoding})") from exc
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise translated(exc, url) from exc
    return b"".join(pieces)


@dataclass(slots=True)
class WireCounter:
    """Body bytes as they came over the wire (before decompression), for the ledger."""

    raw: int = 0


def _keep_or_refuse(
    pieces: list[bytes], piece: bytes, total: int, limit: int, url: str, *, truncate: bool
) -> bytes:
    if not truncate:
        raise _too_large(url, limit, "went past it while streaming")
    kept = limit - (total - len(piece))
    return b"".join([*pieces, piece[:kept]])


def _too_large(url: str, limit: int, how: str) -> ResponseTooLargeError:
    return ResponseTooLargeError(
        url,
        limit,
        f"body exceeds the {limit:,}-byte cap (counted after decompression; it {how}); "
        "raise settings.fetch.max_bytes if the document is genuinely this large",
    )


def parse_url(url: str) -> httpx.URL:
    if not isinstance(url, str):
        raise UnsupportedURLError(repr(url), "is not a string; pass the URL as text")
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsupportedURLError(url, f"is not a valid URL ({exc}); check its spelling") from exc
    if parsed.scheme not in ("http", "https"):
        raise UnsupportedURLError(
            url, f"scheme {parsed.scheme or '(none)'!r} is not supported; use http:// or https://"
        )
    if not parsed.host:
        raise UnsupportedURLError(url, "has no host; write it as https://host/path")
    return parsed.copy_with(fragment=None) if parsed.fragment else parsed


def redirect_target(response: httpx.Response, url: httpx.URL) -> httpx.URL:
    location = response.headers.get("location", "").strip()
    if not location:
        raise HTTPStatusError(
            str(url),
            response.status_code,
            f"HTTP {response.status_code} redirect without a Location header; "
            "the server is misconfigured",
        )
    try:
        target = url.join(location)
    except (httpx.InvalidURL, ValueError) as exc:
        raise UnsupportedURLError(
            location, f"is the invalid redirect target of {url} ({exc})"
        ) from exc
    if target.scheme not in ("http", "https"):
        raise UnsupportedURLError(
            str(target), f"redirect from {url} to an unsupported scheme; only http(s) is followed"
        )
    return target.copy_with(fragment=None) if target.fragment else target


def status_error(response: httpx.Response, url: str, *, now: datetime) -> HTTPStatusError:
    status = response.status_code
    reason = response.reason_phrase or "(no reason)"
    header = response.headers.get("retry-after")
    retry_after = parse_retry_after(header, now=now) if header else None
    if status == 429 or status >= 500:
        advice = "transient; retried, and a later run will try again"
    elif status == 304:
        advice = "the request was not conditional, so a 304 is a server error"
    elif status in (404, 410):
        advice = "the document is gone or the URL is wrong"
    elif status in (401, 403):
        advice = "access denied; check the feed's headers (credentials) or drop the URL"
    else:
        advice = "not retried"
    return HTTPStatusError(
        url, status, f"HTTP {status} {reason}; {advice}", retry_after=retry_after
    )


def _describe(error: BaseException) -> str:
    """The first non-empty message along the exception's chain (httpcore's are often empty)."""
    seen: BaseException | None = error
    while seen is not None:
        if str(seen):
            return str(seen) if seen is error else f"{type(seen).__name__}: {seen}"
        seen = seen.__cause__ or seen.__context__
    return "no detail"


def translated(error: Exception, url: str) -> FetchError:
    name = type(error).__name__
    detail = _describe(error)
    if isinstance(error, httpx.TimeoutException):
        return FetchTimeoutError(url, f"timed out ({name}: {detail})")
    if isinstance(error, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return UnsupportedURLError(url, f"cannot be requested ({detail})")
    if isinstance(error, httpx.LocalProtocolError):
        return FetchError(url, f"the request could not be sent ({detail})")
    return NetworkError(url, f"{name}: {detail}")


def header_pairs(response: httpx.Response) -> tuple[tuple[str, str], ...]:
    return tuple((name.lower(), value) for name, value in response.headers.multi_items())


def received_document(
    response: httpx.Response,
    url: str,
    body: bytes,
    *,
    requested_url: str,
    redirects: tuple[str, ...],
    attempts: int,
    elapsed: float,
) -> RawDocument:
    """The document a final 2xx response delivered."""
    headers = response.headers
    return RawDocument(
        url=url,
        status=response.status_code,
        content_type=headers.get("content-type"),
        body=body,
        etag=headers.get("etag"),
        last_modified=headers.get("last-modified"),
        requested_url=requested_url,
        redirects=redirects,
        headers=header_pairs(response),
        attempts=attempts,
        elapsed=elapsed,
    )


def not_modified_document(
    response: httpx.Response,
    url: str,
    cached: CachedResponse,
    *,
    requested_url: str,
    redirects: tuple[str, ...],
    attempts: int,
    elapsed: float,
) -> RawDocument:
    """The cached document a 304 confirmed, with any validators the 304 updated."""
    headers = response.headers
    return RawDocument(
        url=url,
        status=304,
        content_type=cached.content_type,
        body=cached.body,
        etag=headers.get("etag") or cached.etag,
        last_modified=headers.get("last-modified") or cached.last_modified,
        not_modified=True,
        requested_url=requested_url,
        redirects=redirects,
        headers=header_pairs(response),
        attempts=attempts,
        elapsed=elapsed,
    )


def remember(cache: ConditionalCache, key: str, document: RawDocument) -> None:
    """Store a final 200 under the URL asked for, if it carries a validator to revalidate."""
    if document.etag is None and document.last_modified is None:
        return
    cache.put(
        key,
        CachedResponse(
            url=document.url,
            body=document.body,
            content_type=document.content_type,
            etag=document.etag,
            last_modified=document.last_modified,
        ),
    )
