"""quietedit: catch silent edits to news articles.

The stable public API is re-exported here as each part lands; see README.md.
"""

from __future__ import annotations

__version__ = "0.1.0"

from quietedit.analysis import (
    Classification,
    ExternalSignals,
    RevisionDiff,
    Significance,
    classify_change,
    diff_revisions,
)
from quietedit.article.encoding import EncodingDecision, resolve_encoding
from quietedit.article.fingerprint import content_hash, fold_text
from quietedit.article.identity import canonical_url
from quietedit.errors import BlockedURLError, FeedParseError, InvalidURLError
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
from quietedit.ingest.candidates import EntryCandidate, feed_candidates, sitemap_candidates
from quietedit.ingest.changes import EntryChange, EntrySnapshot, entry_changes
from quietedit.ingest.dates import NormalizedDate, normalize_date
from quietedit.ingest.discovery import DiscoveredFeed, discover_feeds
from quietedit.ingest.entries import Feed, FeedEntry
from quietedit.ingest.feeds import parse_feed
from quietedit.ingest.sitemaps import Sitemap, SitemapEntry, SitemapRef, parse_sitemap
from quietedit.model import Article, Block, Publisher

__all__ = [
    "Article",
    "Block",
    "BlockedURLError",
    "CachedResponse",
    "Classification",
    "ConditionalCache",
    "DiscoveredFeed",
    "EncodingDecision",
    "EntryCandidate",
    "EntryChange",
    "EntrySnapshot",
    "ExternalSignals",
    "Feed",
    "FeedEntry",
    "FeedParseError",
    "FetchPolicy",
    "Fetcher",
    "InvalidURLError",
    "LedgerEntry",
    "MemoryCache",
    "NormalizedDate",
    "Publisher",
    "RawDocument",
    "RequestLedger",
    "RevisionDiff",
    "Significance",
    "Sitemap",
    "SitemapEntry",
    "SitemapRef",
    "__version__",
    "canonical_url",
    "check_public_url",
    "classify_change",
    "content_hash",
    "detect_kind",
    "diff_revisions",
    "discover_feeds",
    "discovered_url_headers",
    "entry_changes",
    "feed_candidates",
    "fetch_document",
    "fold_text",
    "normalize_date",
    "parse_feed",
    "parse_retry_after",
    "parse_sitemap",
    "resolve_encoding",
    "robots_allowed",
    "sitemap_candidates",
]
