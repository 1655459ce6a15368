"""The one HTTP client for feeds, articles and robots.txt (the shell: network, clock).

``fetch_document`` fetches one URL; a run shares one ``Fetcher`` (connection pool, SSRF
guard, per-host politeness, robots.txt cache and request ledger). The pure parts — address
classification, document kinds, Retry-After and backoff, robots rules, headers, decoders,
the ledger's records — live in their own modules and do no I/O. Names here load on first
use, so a pure module importing one of those parts never loads the client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quietedit.lazy import lazy_exports

if TYPE_CHECKING:
    from quietedit.fetch.cache import CachedResponse, ConditionalCache, MemoryCache
    from quietedit.fetch.client import Fetcher, fetch_document
    from quietedit.fetch.document import RawDocument
    from quietedit.fetch.guard import check_public_url
    from quietedit.fetch.headers import discovered_url_headers
    from quietedit.fetch.kinds import detect_kind
    from quietedit.fetch.ledger import LedgerEntry, RequestLedger
    from quietedit.fetch.policy import FetchPolicy
    from quietedit.fetch.politeness import Politeness
    from quietedit.fetch.retry import parse_retry_after
    from quietedit.fetch.robots import RobotsPolicy, robots_allowed

_EXPORTS = {
    "CachedResponse": "quietedit.fetch.cache",
    "ConditionalCache": "quietedit.fetch.cache",
    "MemoryCache": "quietedit.fetch.cache",
    "Fetcher": "quietedit.fetch.client",
    "fetch_document": "quietedit.fetch.client",
    "RawDocument": "quietedit.fetch.document",
    "check_public_url": "quietedit.fetch.guard",
    "discovered_url_headers": "quietedit.fetch.headers",
    "detect_kind": "quietedit.fetch.kinds",
    "LedgerEntry": "quietedit.fetch.ledger",
    "RequestLedger": "quietedit.fetch.ledger",
    "FetchPolicy": "quietedit.fetch.policy",
    "Politeness": "quietedit.fetch.politeness",
    "parse_retry_after": "quietedit.fetch.retry",
    "RobotsPolicy": "quietedit.fetch.robots",
    "robots_allowed": "quietedit.fetch.robots",
}

__all__ = [
    "CachedResponse",
    "ConditionalCache",
    "FetchPolicy",
    "Fetcher",
    "LedgerEntry",
    "MemoryCache",
    "Politeness",
    "RawDocument",
    "RequestLedger",
    "RobotsPolicy",
    "check_public_url",
    "detect_kind",
    "discovered_url_headers",
    "fetch_document",
    "parse_retry_after",
    "robots_allowed",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
