"""quietedit: catch silent edits to news articles.

The stable public API is re-exported here as each part lands; see README.md.
"""

from __future__ import annotations

__version__ = "0.1.0"

from quietedit.article.encoding import EncodingDecision, resolve_encoding
from quietedit.article.fingerprint import content_hash, fold_text
from quietedit.article.identity import canonical_url
from quietedit.errors import BlockedURLError, InvalidURLError
from quietedit.fetch import (
    CachedResponse,
    ConditionalCache,
    Fetcher,
    FetchPolicy,
    LedgerEntry,
    MemoryCache,
    RawDocument,
    RequestLedger,
    check_public_url,
    detect_kind,
    discovered_url_headers,
    fetch_document,
    parse_retry_after,
    robots_allowed,
)
from quietedit.model import Article, Block, Publisher

__all__ = [
    "Article",
    "Block",
    "BlockedURLError",
    "CachedResponse",
    "ConditionalCache",
    "EncodingDecision",
    "FetchPolicy",
    "Fetcher",
    "InvalidURLError",
    "LedgerEntry",
    "MemoryCache",
    "Publisher",
    "RawDocument",
    "RequestLedger",
    "__version__",
    "canonical_url",
    "check_public_url",
    "content_hash",
    "detect_kind",
    "discovered_url_headers",
    "fetch_document",
    "fold_text",
    "parse_retry_after",
    "resolve_encoding",
    "robots_allowed",
]
