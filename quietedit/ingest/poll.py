"""Polling one feed of the catalogue: fetch, find the feed behind a page, parse, compare.

A ``feeds.yaml`` entry may name a feed (RSS, Atom, RDF, JSON Feed), a news sitemap or a
web page; for a page the feed it advertises (``<link rel="alternate">``) is found once,
remembered as ``resolved_url`` and polled from then on, fetched without the page's
credentials when it lives on another origin. Polls are conditional (a 304 costs no
parsing), a failing feed backs off exponentially up to a day and is never given up, and
one broken feed never stops the run: every failure becomes data on the result.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final, Literal

from quietedit.config import FeedConfig
from quietedit.decide.candidates import EntryCandidate, feed_candidates, sitemap_candidates
from quietedit.decide.memory import FeedState
from quietedit.errors import FeedParseError, FetchError
from quietedit.feeds.discovery import discover_feeds
from quietedit.feeds.edits import EntryChange, EntrySnapshot, compare_feed
from quietedit.feeds.parse import parse_feed
from quietedit.feeds.sitemaps import Sitemap, SitemapEntry, parse_sitemap
from quietedit.fetch import CachedResponse, Fetcher, RawDocument, detect_kind
from quietedit.fetch.headers import discovered_url_headers

logger = logging.getLogger(__name__)

MAX_CHILD_SITEMAPS: Final = 3
"""Child sitemaps of a sitemap index read per poll, newest first (news sitemaps are few)."""

PollStatus = Literal["polled", "not-modified", "failed", "skipped"]


@dataclass(frozen=True, slots=True)
class PollResult:
    """What one poll found. ``claims`` are the links whose ``updated``/``lastmod`` changed
    since the previous poll; ``changes`` the entries whose title or teaser was edited."""

    feed: FeedState
    status: PollStatus
    candidates: tuple[EntryCandidate, ...] = ()
    changes: tuple[EntryChange, ...] = ()
    claims: frozenset[str] = frozenset()
    error: str | None = None


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


async def poll_feed(
    fetcher: Fetcher, state: FeedState, config: FeedConfig, *, now: datetime
) -> PollResult:
    """Poll ``config``'s feed once; never raises for anything the feed or network does."""
    if not config.enabled:
        return PollResult(state, "skipped", error="disabled in feeds.yaml")
    retry_at = state.next_poll_at()
    if retry_at is not None and now < retry_at:
        return PollResult(state, "skipped", error=f"backing off until {retry_at.isoformat()}")
    url = state.resolved_url or config.url
    cache = ValidatorCache(url, etag=state.etag, last_modified=state.last_modified)
    polled = replace(state, polls=state.polls + 1, last_polled_at=now)
    try:
        raw = await fetcher.fetch_feed(url, cache=cache, headers=config.headers)
        if raw.not_modified:
            done = replace(polled, not_modified=polled.not_modified + 1, failures=0)
            return PollResult(replace(done, last_success_at=now, last_error=None), "not-modified")
        if detect_kind(raw.content_type, raw.body) == "html" and not _is_sitemap(raw.body):
            raw, polled = await _discover(fetcher, raw, polled, config)
        result = await _read(fetcher, raw, polled, config, now=now)
    except (FetchError, FeedParseError) as exc:
        logger.warning("feed %s: %s", config.slug, exc)
        failed = replace(
            polled,
            failures=polled.failures + 1,
            failures_total=polled.failures_total + 1,
            last_error=str(exc),
        )
        return PollResult(failed, "failed", error=str(exc))
    validators = cache.entry
    done = replace(
        result.feed,
        failures=0,
        last_success_at=now,
        last_error=None,
        etag=validators.etag if validators else None,
        last_modified=validators.last_modified if validators else None,
    )
    return replace(result, feed=done)


async def _discover(
    fetcher: Fetcher, page: RawDocument, state: FeedState, config: FeedConfig
) -> tuple[RawDocument, FeedState]:
    """The feed a web page advertises, fetched; the page's own URL if it advertises none."""
    found = discover_feeds(page.body, page_url=page.url)
    if not found:
        raise FeedParseError(page.url, "a web page that advertises no feed", source="page")
    feed = found[0]
    headers = discovered_url_headers(config.headers, found_on=page.url, url=feed.url)
    logger.info("feed %s: the page advertises %s", config.slug, feed.url)
    raw = await fetcher.fetch_feed(feed.url, headers=headers)
    return raw, replace(state, resolved_url=feed.url)


async def _read(
    fetcher: Fetcher, raw: RawDocument, state: FeedState, config: FeedConfig, *, now: datetime
) -> PollResult:
    if _is_sitemap(raw.body):
        return await _read_sitemap(fetcher, raw, state, config, now=now)
    feed = parse_feed(raw.body, url=raw.url, content_type=raw.content_type, fetched_at=now)
    compared = compare_feed(state.entries, feed, observed_at=now)
    problems = feed.problems
    if compared.renamed * 2 > len(feed.entries):
        problems = (
            f"{compared.renamed} of {len(feed.entries)} entries changed their id since the "
            "last poll; entries are matched by link",
            *problems,
        )
    fresh = replace(
        state,
        kind=feed.kind,
        entries=compared.snapshots,
        entries_seen=len(feed.entries),
        problems=problems[:10],
    )
    return PollResult(
        fresh,
        "polled",
        candidates=feed_candidates(feed, discovered_at=now),
        changes=tuple(c for c in compared.changes if c.kind == "edited"),
        claims=compared.claims,
    )


async def _read_sitemap(
    fetcher: Fetcher, raw: RawDocument, state: FeedState, config: FeedConfig, *, now: datetime
) -> PollResult:
    sitemap = parse_sitemap(raw.body, url=raw.url, content_type=raw.content_type, fetched_at=now)
    if sitemap.kind == "sitemapindex":
        children = sorted(
            sitemap.sitemaps,
            key=lambda ref: (
                ref.lastmod.value.isoformat() if ref.lastmod and ref.lastmod.value else ""
            ),
            reverse=True,
        )[:MAX_CHILD_SITEMAPS]
        entries: list[SitemapEntry] = []
        problems = list(sitemap.problems)
        for ref in children:
            headers = discovered_url_headers(config.headers, found_on=raw.url, url=ref.url)
            child_raw = await fetcher.fetch_feed(ref.url, headers=headers)
            child = parse_sitemap(
                child_raw.body,
                url=child_raw.url,
                content_type=child_raw.content_type,
                fetched_at=now,
            )
            entries.extend(child.entries)
            problems.extend(child.problems)
        sitemap = Sitemap(raw.url, "urlset", tuple(entries), (), tuple(problems))
    snapshots: dict[str, EntrySnapshot] = dict(state.entries)
    claims: set[str] = set()
    for entry in sitemap.entries:
        lastmod = entry.lastmod.raw if entry.lastmod else None
        before = state.entries.get(entry.url)
        if before is not None and lastmod is not None and before.updated != lastmod:
            claims.add(entry.url)
        snapshots[entry.url] = EntrySnapshot(
            id=entry.url,
            observed_at=now,
            title=entry.news_title or "",
            summary="",
            link=entry.url,
            updated=lastmod,
        )
    fresh = replace(
        state,
        kind="sitemap",
        entries=snapshots,
        entries_seen=len(sitemap.entries),
        problems=sitemap.problems[:10],
    )
    return PollResult(
        fresh,
        "polled",
        candidates=sitemap_candidates(sitemap, discovered_at=now),
        claims=frozenset(claims),
    )


def _is_sitemap(body: bytes) -> bool:
    head = body[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    return b"<urlset" in head or b"<sitemapindex" in head


def feed_states(
    configs: tuple[FeedConfig, ...], records: Mapping[str, FeedState]
) -> dict[str, FeedState]:
    """Catalogue sync (pure): every configured feed gets a state with its current name, URL
    and switch; a feed no longer configured is kept, marked inactive, never deleted.

    A changed URL forgets the validators and the feed a page advertised: they belonged to
    the old address.
    """
    states: dict[str, FeedState] = {}
    for config in configs:
        known = records.get(config.slug)
        if known is None:
            states[config.slug] = FeedState(config.slug, config.url, config.name, config.enabled)
            continue
        moved = known.url != config.url
        states[config.slug] = replace(
            known,
            url=config.url,
            name=config.name,
            enabled=config.enabled,
            active=True,
            resolved_url=None if moved else known.resolved_url,
            etag=None if moved else known.etag,
            last_modified=None if moved else known.last_modified,
            failures=0 if moved else known.failures,  # a corrected URL is polled at once
        )
    for slug, known in records.items():
        if slug not in states:
            states[slug] = replace(known, active=False)
    return states
