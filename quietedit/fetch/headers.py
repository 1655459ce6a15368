"""The headers of each request: who we are, what we accept, and whose credentials go where (pure).

Pure. Caller headers are lowercased and override the defaults (User-Agent, Accept). The
conditional headers belong to the cache: a caller's If-None-Match or If-Modified-Since is
ignored. Credentials (``authorization``, ``proxy-authorization``, ``cookie``) are sent only
while the chain of redirects stays on the origin (scheme, host, port) of the URL asked for;
once a hop leaves it they are dropped for the rest of the chain, so a token meant for
``api.example.com`` never rides along to whatever host a redirect names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final
from urllib.parse import urlsplit

from quietedit.errors import InvalidHeaderError

DEFAULT_ACCEPT: Final = (
    "application/atom+xml, application/rss+xml, application/feed+json, "
    "application/json;q=0.9, text/html;q=0.8, */*;q=0.5"
)
"""Feed formats first, then JSON, then HTML (the fetching seed's Accept)."""

CREDENTIAL_HEADERS: Final = frozenset({"authorization", "proxy-authorization", "cookie"})
CONDITIONAL_HEADERS: Final = frozenset({"if-none-match", "if-modified-since"})
# quietedit sets these itself: the host is the URL's, the body framing is the protocol's,
# and the decoder (with its size cap) only understands the encodings it advertises.
RESERVED_HEADERS: Final = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
        "accept-encoding",
    }
)
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}

Headers = tuple[tuple[str, str], ...]


def origin_of(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of ``url``, lowercased, with the scheme's default port filled in."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or _DEFAULT_PORTS.get(scheme)


def same_origin(first: str, second: str) -> bool:
    """Whether two URLs share scheme, host and port."""
    return origin_of(first) == origin_of(second)


def caller_headers(
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None, *, url: str
) -> Headers:
    """The caller's headers, checked and lowercased, conditional ones left out, in order.

    Raises ``InvalidHeaderError`` for a name that is not an HTTP token, a value with a line
    break or other control character, or a header quietedit sets itself (``host``, ...).
    """
    if headers is None:
        return ()
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    result: dict[str, str] = {}
    for raw_name, value in pairs:
        name = raw_name.strip().lower()
        if not _TOKEN.fullmatch(name):
            raise InvalidHeaderError(
                url, f"header name {raw_name!r} is not an HTTP token; use letters, digits and '-'"
            )
        if any((ord(ch) < 0x20 and ch != "\t") or ord(ch) == 0x7F for ch in value):
            raise InvalidHeaderError(
                url, f"header {name!r} has a control character or line break; remove it"
            )
        if not value.isascii():
            raise InvalidHeaderError(
                url, f"header {name!r} is not ASCII; percent- or RFC 8187-encode the value"
            )
        if name in RESERVED_HEADERS:
            raise InvalidHeaderError(url, f"header {name!r} is set by quietedit; remove it")
        if name not in CONDITIONAL_HEADERS:
            result[name] = value.strip()
    return tuple(result.items())


def request_headers(
    caller: Headers,
    *,
    user_agent: str,
    accept_encoding: str,
    credentials: bool,
    etag: str | None = None,
    last_modified: str | None = None,
) -> Headers:
    """One request's headers: defaults, then the caller's, then the cache's validators.

    ``credentials`` False drops the credential headers; ``etag`` and ``last_modified`` become
    If-None-Match and If-Modified-Since (only the first hop of a fetch passes them).
    """
    merged = {"user-agent": user_agent, "accept": DEFAULT_ACCEPT}
    merged.update(
        (name, value) for name, value in caller if credentials or name not in CREDENTIAL_HEADERS
    )
    merged["accept-encoding"] = accept_encoding
    if etag is not None:
        merged["if-none-match"] = etag
    if last_modified is not None:
        merged["if-modified-since"] = last_modified
    return tuple(merged.items())


def discovered_url_headers(
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None, *, found_on: str, url: str
) -> dict[str, str]:
    """The headers to fetch ``url`` with, when it was discovered on the page at ``found_on``.

    A page on one origin that points to another (a feed link, a canonical URL) gets that URL
    fetched without the credentials meant for the page's origin; other headers go along.
    """
    pairs = headers.items() if isinstance(headers, Mapping) else (headers or ())
    keep_credentials = same_origin(found_on, url)
    return {
        name: value
        for name, value in pairs
        if keep_credentials or name.strip().lower() not in CREDENTIAL_HEADERS
    }
