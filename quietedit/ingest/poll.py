"""Polling one feed of the catalogue: gather (fetch, find the feed behind a page, parse),
then :func:`quietedit.decide.poll.plan_poll` decides.

A ``feeds.yaml`` entry may name a feed (RSS, Atom, RDF, JSON Feed), a news sitemap, a
homepage (``kind: homepage``: its links and headlines, :mod:`quietedit.feeds.homepage`)
or a web page; for a page the feed it advertises (``<link rel="alternate">``) is found once,
remembered as ``resolved_url`` and polled from then on, fetched without the page's
credentials when it lives on another origin. Polls are conditional (a 304 costs no
parsing), and one broken feed never stops the run: every failure becomes data on the
result. What the poll found is written when its documents are registered
(:mod:`quietedit.ingest.register`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime

from quietedit.config import FeedConfig
from quietedit.decide.departed import days_naming, unknown_keys
from quietedit.decide.memory import FeedState
from quietedit.decide.poll import (
    Polled,
    PollResult,
    is_sitemap,
    merged_sitemap,
    plan_poll,
    sitemap_children,
    skipped,
)
from quietedit.errors import FeedParseError, FetchError
from quietedit.feeds.discovery import discover_feeds
from quietedit.feeds.edits import EntrySnapshot
from quietedit.feeds.entries import Feed
from quietedit.feeds.homepage import read_homepage
from quietedit.feeds.parse import parse_feed
from quietedit.feeds.sitemaps import Sitemap, parse_sitemap
from quietedit.fetch import CachedResponse, Fetcher, RawDocument, detect_kind
from quietedit.fetch.headers import discovered_url_headers

logger = logging.getLogger(__name__)


class ValidatorCache:
    """A ``ConditionalCache`` of one URL's validators, kept in the feed record.

    It holds no body: a 304 means "nothing new", and the poll skips parsing altogether.
    """

    def __init__(self, url: str, *, etag: str | None, last_modified: str | None) -> None:
        self.url = url
        self.entry = (
            CachedResponse(url, b"", None, etag, last_modified) if etag or last_modified else None
        )

    def get(self, url: str) -> CachedResponse | None:
        return self.entry if url == self.url else None

    def put(self, url: str, entry: CachedResponse) -> None:
        if url == self.url:
            self.entry = entry


DepartedReader = Callable[[str, list[str]], Mapping[str, EntrySnapshot]]
"""Reads the snapshots of a feed's day files (slug, days): those of entries that left it."""


async def poll_feed(
    fetcher: Fetcher,
    state: FeedState,
    config: FeedConfig,
    *,
    now: datetime,
    departed: DepartedReader | None = None,
) -> PollResult:
    """Poll ``config``'s feed once; never raises for anything the feed or network does.
    An entry the record does not hold whose id or link its digests name may be one that
    came back: ``departed`` reads the snapshots of the day files they name."""
    result = skipped(state, config, now=now)
    if result is not None:
        return result
    url = state.resolved_url or config.url
    cache = ValidatorCache(url, etag=state.etag, last_modified=state.last_modified)
    if config.kind == "homepage":
        return await _poll_homepage(fetcher, state, config, cache=cache, now=now)
    resolved = None
    try:
        raw = await fetcher.fetch_feed(url, cache=cache, headers=config.headers)
        if raw.not_modified:
            return plan_poll(state, Polled(not_modified=True), now=now, links=config.links)
        if detect_kind(raw.content_type, raw.body) == "html" and not is_sitemap(raw.body):
            raw, resolved = await _discover(fetcher, raw, config)
        source = await _read(fetcher, raw, config, now=now)
    except (FetchError, FeedParseError) as exc:
        logger.warning("feed %s: %s", config.slug, exc)
        return plan_poll(
            state, Polled(error=str(exc), resolved_url=resolved), now=now, links=config.links
        )
    if departed is not None and state.departed:
        days = days_naming(state.departed, unknown_keys(state.entries, source))
        if days:
            state = replace(state, returning=departed(state.slug, days))
    polled = Polled(source, resolved_url=resolved, validators=cache.entry)
    return plan_poll(state, polled, now=now, links=config.links)


async def _poll_homepage(
    fetcher: Fetcher,
    state: FeedState,
    config: FeedConfig,
    *,
    cache: ValidatorCache,
    now: datetime,
) -> PollResult:
    """Poll a front or section page (``kind: homepage``): fetched like an article
    (robots.txt on every hop, the SSRF guard), read for its links and headlines. A page
    without a single article link (a consent wall, an error page served as 200) is a
    failed poll: the links' history is left as it was."""
    try:
        raw = await fetcher.fetch(config.url, cache=cache, headers=config.headers, obey_robots=True)
        if raw.not_modified:
            return plan_poll(state, Polled(not_modified=True), now=now, links=config.links)
        page = read_homepage(raw.body, url=raw.url, content_type=raw.content_type)
        if not page.links:
            raise FeedParseError(raw.url, "; ".join(page.problems), source="page")
    except (FetchError, FeedParseError) as exc:
        logger.warning("homepage %s: %s", config.slug, exc)
        return plan_poll(state, Polled(error=str(exc)), now=now, links=config.links)
    polled = Polled(page, validators=cache.entry)
    return plan_poll(state, polled, now=now, links=config.links)


async def _discover(
    fetcher: Fetcher, page: RawDocument, config: FeedConfig
) -> tuple[RawDocument, str]:
    """The feed a web page advertises, fetched, and its URL."""
    found = discover_feeds(page.body, page_url=page.url)
    if not found:
        raise FeedParseError(page.url, "a web page that advertises no feed", source="page")
    feed = found[0]
    headers = discovered_url_headers(config.headers, found_on=page.url, url=feed.url)
    logger.info("feed %s: the page advertises %s", config.slug, feed.url)
    return await fetcher.fetch_feed(feed.url, headers=headers), feed.url


async def _read(
    fetcher: Fetcher, raw: RawDocument, config: FeedConfig, *, now: datetime
) -> Feed | Sitemap:
    """``raw`` parsed: a feed, or a sitemap (an index's newest children fetched, merged)."""
    if not is_sitemap(raw.body):
        return parse_feed(raw.body, url=raw.url, content_type=raw.content_type, fetched_at=now)
    sitemap = parse_sitemap(raw.body, url=raw.url, content_type=raw.content_type, fetched_at=now)
    if sitemap.kind != "sitemapindex":
        return sitemap
    children = []
    for ref in sitemap_children(sitemap):
        headers = discovered_url_headers(config.headers, found_on=raw.url, url=ref.url)
        child = await fetcher.fetch_feed(ref.url, headers=headers)
        children.append(
            parse_sitemap(
                child.body, url=child.url, content_type=child.content_type, fetched_at=now
            )
        )
    return merged_sitemap(sitemap, children)
