"""Archive text made safe to publish (pure): no control characters, only http(s) links."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

_ILLEGAL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` without the control characters XML 1.0 forbids (and DEL, and lone surrogates)."""
    return _ILLEGAL.sub("", text)


def safe_http_url(url: object) -> str | None:
    """``url`` if it is an http(s) URL with a host and no control characters, else ``None``."""
    if not isinstance(url, str) or _ILLEGAL.search(url) or any(c.isspace() for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        return None
    return url


def host_slug(url: str | None) -> str:
    """A source slug from a URL's host (``www.example.org`` → ``example-org``)."""
    host = (urlsplit(url).hostname or "") if url else ""
    host = host.removeprefix("www.")
    slug = re.sub(r"[^a-z0-9]+", "-", host.lower()).strip("-")[:63].strip("-")
    return slug or "unknown-source"
