"""Feed discovery: the feeds a page links to with ``<link rel="alternate">`` (pure).

Only links whose ``rel`` contains ``alternate`` (and not ``stylesheet``) and whose
``type`` is a feed type count: RSS, Atom, RDF, JSON Feed (``application/feed+json``; plain
``application/json`` only when its title or URL says "feed", because WordPress links its
REST API that way from every page). They are resolved against the page URL and the page's
``<base href>``, kept only if http(s), and ordered by preference:

1. main feeds before comment feeds (a title or URL mentioning comments goes last);
2. Atom, then JSON Feed, then RSS, then RDF, then plain ``application/json`` — Atom and
   JSON Feed require ids and dates that RSS leaves optional;
3. document order.

``same_origin`` is false for a feed on another scheme, host or port: the fetcher must not
send the page's credentials (feed headers) there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from quietedit.feeds.fields import plain_text, safe_link

DiscoveredKind = Literal["atom", "rss", "rdf", "jsonfeed"]

MAX_DISCOVERY_BYTES: Final = 2 * 1024 * 1024
"""HTML read for discovery; feed links live in the ``<head>``, well inside this."""

MAX_DISCOVERED: Final = 50
"""Feeds returned at most; a page linking more is a feed directory, or an attack."""

_FEED_TYPES: Final[dict[str, tuple[DiscoveredKind, int]]] = {
    "application/atom+xml": ("atom", 0),
    "application/feed+json": ("jsonfeed", 1),
    "application/rss+xml": ("rss", 2),
    "application/x-rss+xml": ("rss", 2),
    "application/rdf+xml": ("rdf", 3),
    "application/json": ("jsonfeed", 4),
}
_FEED_WORD: Final = re.compile(r"feed", re.IGNORECASE)
_COMMENTS: Final = re.compile(r"comment|kommentar|commentaire|comentario", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DiscoveredFeed:
    """A feed a page links to; ``same_origin`` compares scheme, host and port with the page."""

    url: str
    kind: DiscoveredKind
    title: str
    same_origin: bool
    content_type: str


def discover_feeds(html: str | bytes, *, page_url: str) -> tuple[DiscoveredFeed, ...]:
    """The feeds ``html`` (fetched from ``page_url``) links to, most preferred first.

    Bytes are read as UTF-8 (feed URLs are ASCII in practice; anything else is replaced).
    Never raises on the page's content; a page without feed links gives ``()``.
    """
    if isinstance(html, bytes):
        html = html[:MAX_DISCOVERY_BYTES].decode("utf-8", errors="replace")
    tree = LexborHTMLParser(html[:MAX_DISCOVERY_BYTES])
    base_node = tree.css_first("base[href]")
    base, _ = safe_link(base_node.attributes.get("href") if base_node else None, base=page_url)
    base = base or page_url
    found: dict[str, tuple[tuple[int, int, int], DiscoveredFeed]] = {}
    for position, node in enumerate(tree.css("link[rel][href]")):
        attributes = node.attributes
        rel = (attributes.get("rel") or "").lower().split()
        if "alternate" not in rel or "stylesheet" in rel:
            continue
        content_type = (attributes.get("type") or "").partition(";")[0].strip().lower()
        if content_type not in _FEED_TYPES:
            continue
        url, _ = safe_link(attributes.get("href"), base=base)
        if url is None or url in found:
            continue
        kind, preference = _FEED_TYPES[content_type]
        title = plain_text(attributes.get("title") or "", html=False, limit=200)
        if content_type == "application/json" and not _FEED_WORD.search(title + " " + url):
            continue
        comments = bool(_COMMENTS.search(title) or _COMMENTS.search(urlsplit(url).path))
        feed = DiscoveredFeed(
            url=url,
            kind=kind,
            title=title,
            same_origin=_origin(url) == _origin(page_url),
            content_type=content_type,
        )
        found[url] = ((int(comments), preference, position), feed)
        if len(found) >= MAX_DISCOVERED:
            break
    return tuple(feed for _, feed in sorted(found.values(), key=lambda item: item[0]))


def _origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and effective port: what "same origin" compares."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ("", url, None)
    scheme = parts.scheme.lower()
    default = {"http": 80, "https": 443}.get(scheme)
    return (scheme, (parts.hostname or "").lower(), port if port is not None else default)
