"""The one HTTP client for feeds, articles and robots.txt (the shell: network, clock).

``fetch_document`` fetches one URL; a run shares one ``Fetcher`` (connection pool, SSRF
guard, per-host politeness, robots.txt cache and request ledger). The pure parts — address
classification, document kinds, Retry-After and backoff, robots rules, headers, decoders,
the ledger's records — live in their own modules and do no I/O.
"""

from __future__ import annotations

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
