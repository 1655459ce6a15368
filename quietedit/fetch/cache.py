"""Conditional requests: what a cache keeps per URL, its protocol, an in-memory one (pure).

The cache is always injected by the caller; the fetcher keeps no global state. The key is
the URL as asked for (not the final URL after redirects), and headers are not part of it:
do not share one cache between callers with different credentials for the same URL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class CachedResponse:
    """The last final 200 for a URL: its body, its type and the validators to revalidate it.

    ``url`` is the URL the body came from (after redirects).
    """

    url: str
    body: bytes
    content_type: str | None
    etag: str | None
    last_modified: str | None


@runtime_checkable
class ConditionalCache(Protocol):
    """Where conditional requests find validators and 304s find their body.

    ``get`` returns the entry stored for ``url`` or None; ``put`` replaces it. The fetcher
    calls ``put`` only after a final 200 that carried an ETag or Last-Modified. A persistent
    implementation (the archive's) must make ``put`` atomic.
    """

    def get(self, url: str) -> CachedResponse | None: ...

    def put(self, url: str, entry: CachedResponse) -> None: ...


class MemoryCache:
    """A ``ConditionalCache`` in a dict, for one process's lifetime."""

    def __init__(self) -> None:
        self._entries: dict[str, CachedResponse] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, url: str) -> CachedResponse | None:
        """The entry for ``url``, or None."""
        return self._entries.get(url)

    def put(self, url: str, entry: CachedResponse) -> None:
        """Store ``entry`` for ``url``, replacing any earlier one."""
        self._entries[url] = entry
