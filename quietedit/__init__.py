"""quietedit: catch silent edits to news articles.

The stable public API (docs/python-api.md) is importable from here. Names are loaded
on first use, so ``import quietedit`` — and every command — pays only for what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quietedit.lazy import lazy_exports
from quietedit.version import __version__

# public name -> the module that defines it
_EXPORTS = {
    "Article": "quietedit.model",
    "Block": "quietedit.model",
    "Publisher": "quietedit.model",
    "BlockedURLError": "quietedit.errors",
    "FeedParseError": "quietedit.errors",
    "HostProfileError": "quietedit.errors",
    "InvalidURLError": "quietedit.errors",
    "EncodingDecision": "quietedit.article.encoding",
    "resolve_encoding": "quietedit.article.encoding",
    "content_hash": "quietedit.article.fingerprint",
    "fold_text": "quietedit.article.fingerprint",
    "canonical_url": "quietedit.article.identity",
    "extract_article": "quietedit.article.extract",
    "HostProfile": "quietedit.article.template",
    "learn_host_profile": "quietedit.article.template",
    "CachedResponse": "quietedit.fetch",
    "ConditionalCache": "quietedit.fetch",
    "FetchPolicy": "quietedit.fetch",
    "Fetcher": "quietedit.fetch",
    "LedgerEntry": "quietedit.fetch",
    "MemoryCache": "quietedit.fetch",
    "RawDocument": "quietedit.fetch",
    "RequestLedger": "quietedit.fetch",
    "check_public_url": "quietedit.fetch",
    "detect_kind": "quietedit.fetch",
    "discovered_url_headers": "quietedit.fetch",
    "fetch_document": "quietedit.fetch",
    "parse_retry_after": "quietedit.fetch",
    "robots_allowed": "quietedit.fetch",
    "EntryCandidate": "quietedit.decide.candidates",
    "feed_candidates": "quietedit.decide.candidates",
    "sitemap_candidates": "quietedit.decide.candidates",
    "EntryChange": "quietedit.feeds.edits",
    "EntrySnapshot": "quietedit.feeds.edits",
    "entry_changes": "quietedit.feeds.edits",
    "NormalizedDate": "quietedit.feeds.dates",
    "normalize_date": "quietedit.feeds.dates",
    "DiscoveredFeed": "quietedit.feeds.discovery",
    "discover_feeds": "quietedit.feeds.discovery",
    "Feed": "quietedit.feeds.entries",
    "FeedEntry": "quietedit.feeds.entries",
    "parse_feed": "quietedit.feeds.parse",
    "Sitemap": "quietedit.feeds.sitemaps",
    "SitemapEntry": "quietedit.feeds.sitemaps",
    "SitemapRef": "quietedit.feeds.sitemaps",
    "parse_sitemap": "quietedit.feeds.sitemaps",
    "Classification": "quietedit.analysis",
    "ExternalSignals": "quietedit.analysis",
    "RevisionDiff": "quietedit.analysis",
    "Significance": "quietedit.analysis",
    "classify_change": "quietedit.analysis",
    "diff_revisions": "quietedit.analysis",
}

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
    "HostProfile",
    "HostProfileError",
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
    "extract_article",
    "feed_candidates",
    "fetch_document",
    "fold_text",
    "learn_host_profile",
    "normalize_date",
    "parse_feed",
    "parse_retry_after",
    "parse_sitemap",
    "resolve_encoding",
    "robots_allowed",
    "sitemap_candidates",
]


__getattr__ = lazy_exports(__name__, _EXPORTS)


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from quietedit.analysis import (
        Classification,
        ExternalSignals,
        RevisionDiff,
        Significance,
        classify_change,
        diff_revisions,
    )
    from quietedit.article.encoding import EncodingDecision, resolve_encoding
    from quietedit.article.extract import extract_article
    from quietedit.article.fingerprint import content_hash, fold_text
    from quietedit.article.identity import canonical_url
    from quietedit.article.template import HostProfile, learn_host_profile
    from quietedit.decide.candidates import (
        EntryCandidate,
        feed_candidates,
        sitemap_candidates,
    )
    from quietedit.errors import (
        BlockedURLError,
        FeedParseError,
        HostProfileError,
        InvalidURLError,
    )
    from quietedit.feeds.dates import NormalizedDate, normalize_date
    from quietedit.feeds.discovery import DiscoveredFeed, discover_feeds
    from quietedit.feeds.edits import EntryChange, EntrySnapshot, entry_changes
    from quietedit.feeds.entries import Feed, FeedEntry
    from quietedit.feeds.parse import parse_feed
    from quietedit.feeds.sitemaps import Sitemap, SitemapEntry, SitemapRef, parse_sitemap
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
