"""Polling one feed, decided: what was known and what was fetched -> the feed's new state
and what it says of its articles (pure).

A poll is gather -> decide -> apply. The shell first asks :func:`skipped` whether the feed
is polled at all, then fetches (conditionally, finding the feed a web page advertises and
the newest child sitemaps of an index) and parses into a :class:`Polled`;
:func:`plan_poll` turns that into a :class:`PollResult`: the feed's new state (poll
health, validators, entry snapshots), the candidates it lists, the entries whose title or
teaser the feed edited, and the links whose ``updated``/``lastmod`` changed (claims).
Registering those (:mod:`quietedit.decide.registration`) is the poll's plan of writes.

A failing feed backs off exponentially up to a day and is never given up
(:meth:`~quietedit.decide.memory.FeedState.next_poll_at`); a 304 costs no parsing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final, Literal

from quietedit.article.identity import canonical_url
from quietedit.config.catalogue import FeedConfig
from quietedit.config.patterns import UrlFilter
from quietedit.decide.candidates import EntryCandidate, feed_candidates, sitemap_candidates
from quietedit.decide.homepage import ClosedLink, headline_history
from quietedit.decide.memory import FeedState
from quietedit.errors import InvalidURLError
from quietedit.feeds.edits import EntryChange, EntrySnapshot, compare_feed
from quietedit.feeds.entries import Feed
from quietedit.feeds.homepage import Homepage
from quietedit.feeds.sitemaps import Sitemap, SitemapEntry, SitemapRef
from quietedit.fetch.cache import CachedResponse

MAX_CHILD_SITEMAPS: Final = 3
"""Child sitemaps of a sitemap index read per poll, newest first (news sitemaps are few)."""

MAX_PROBLEMS: Final = 10
"""Problems a feed record keeps of its last poll, the first ones."""

PollStatus = Literal["polled", "not-modified", "failed", "skipped"]


@dataclass(frozen=True, slots=True)
class PollResult:
    """What one poll found. ``claims`` are the links whose ``updated``/``lastmod`` changed
    since the previous poll; ``changes`` the entries whose title or teaser was edited;
    ``closed`` the links of a homepage whose headline history is complete, to keep as
    events of their documents."""

    feed: FeedState
    status: PollStatus
    candidates: tuple[EntryCandidate, ...] = ()
    changes: tuple[EntryChange, ...] = ()
    claims: frozenset[str] = frozenset()
    error: str | None = None
    closed: tuple[ClosedLink, ...] = ()


@dataclass(frozen=True, slots=True)
class Polled:
    """What a poll's gathering found: the feed or (merged) sitemap read as ``source``, or
    ``not_modified`` (a 304), or the ``error`` that ended it. ``resolved_url`` is the feed
    a configured web page advertised, when this poll found it; ``validators`` those of the
    polled URL after the fetch (``None``: none known)."""

    source: Feed | Sitemap | Homepage | None = None
    not_modified: bool = False
    error: str | None = None
    resolved_url: str | None = None
    validators: CachedResponse | None = None


def skipped(state: FeedState, config: FeedConfig, *, now: datetime) -> PollResult | None:
    """The result of a poll not made at ``now`` (disabled, backing off), else ``None``."""
    if not config.enabled:
        return PollResult(state, "skipped", error="disabled in feeds.yaml")
    retry_at = state.next_poll_at()
    if retry_at is not None and now < retry_at:
        return PollResult(state, "skipped", error=f"backing off until {retry_at.isoformat()}")
    return None


def plan_poll(
    state: FeedState, polled: Polled, *, now: datetime, links: UrlFilter | None = None
) -> PollResult:
    """The feed's new state and findings after a poll at ``now`` that found ``polled``;
    ``links`` (the feed's ``include``/``exclude``) leaves the links it does not track out
    of the candidates, claims and entry edits (the feed's own state keeps every entry)."""
    state = replace(state, polls=state.polls + 1, last_polled_at=now)
    if polled.resolved_url is not None:
        state = replace(state, resolved_url=polled.resolved_url)
    if polled.error is not None:
        failed = replace(
            state,
            failures=state.failures + 1,
            failures_total=state.failures_total + 1,
            last_error=polled.error,
        )
        return PollResult(failed, "failed", error=polled.error)
    if polled.not_modified or polled.source is None:
        done = replace(state, not_modified=state.not_modified + 1, failures=0)
        if done.homepage is not None:  # the same page: every headline shown is seen now
            done = replace(done, homepage=replace(done.homepage, polled_at=now))
        return PollResult(replace(done, last_success_at=now, last_error=None), "not-modified")
    source = polled.source
    if isinstance(source, Homepage):
        result = _read_homepage(state, source, now=now, links=links)
    elif isinstance(source, Sitemap):
        result = _read_sitemap(state, source, now=now)
    else:
        result = _read_feed(state, source, now=now)
    if links is not None and links.active:
        result = _tracked_only(result, links)
    validators = polled.validators
    done = replace(
        result.feed,
        failures=0,
        last_success_at=now,
        last_error=None,
        etag=validators.etag if validators else None,
        last_modified=validators.last_modified if validators else None,
    )
    return replace(result, feed=done)


def is_sitemap(body: bytes) -> bool:
    """Whether ``body`` is a sitemap or sitemap index (by its root element)."""
    head = body[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    return b"<urlset" in head or b"<sitemapindex" in head


def sitemap_children(index: Sitemap) -> tuple[SitemapRef, ...]:
    """The child sitemaps of ``index`` a poll reads: the newest ``MAX_CHILD_SITEMAPS``."""
    return tuple(
        sorted(
            index.sitemaps,
            key=lambda ref: (
                ref.lastmod.value.isoformat() if ref.lastmod and ref.lastmod.value else ""
            ),
            reverse=True,
        )[:MAX_CHILD_SITEMAPS]
    )


def merged_sitemap(index: Sitemap, children: Sequence[Sitemap]) -> Sitemap:
    """One ``urlset`` of the entries of ``children`` (in order), with every problem."""
    entries: list[SitemapEntry] = [entry for child in children for entry in child.entries]
    problems = [*index.problems, *(problem for child in children for problem in child.problems)]
    return Sitemap(index.url, "urlset", tuple(entries), (), tuple(problems))


def feed_states(
    configs: tuple[FeedConfig, ...], records: Mapping[str, FeedState]
) -> dict[str, FeedState]:
    """Catalogue sync: every configured feed gets a state with its current name, URL and
    switch; a feed no longer configured is kept, marked inactive, never deleted.

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


def tracks(links: UrlFilter, url: str) -> bool:
    """Whether ``links`` tracks ``url``, matched in its canonical form (as written, for a
    URL that has none)."""
    if not links.active:  # every link: no canonical form to work out (a run asks per document)
        return True
    try:
        return links.tracks(canonical_url(url))
    except InvalidURLError:
        return links.tracks(url)


def tracked_by_feeds(url: str, feeds: Sequence[str], configs: Mapping[str, FeedConfig]) -> bool:
    """Whether a document at ``url`` listed by ``feeds`` is still tracked: yes unless every
    one of its feeds that ``feeds.yaml`` still lists leaves it out (a document whose
    feeds are all gone keeps its schedule and retires in its time)."""
    listed = [configs[slug] for slug in feeds if slug in configs]
    return not listed or any(tracks(config.links, url) for config in listed)


def _tracked_only(result: PollResult, links: UrlFilter) -> PollResult:
    candidates = tuple(c for c in result.candidates if tracks(links, c.url))
    kept = {c.url for c in candidates}
    return replace(
        result,
        candidates=candidates,
        changes=tuple(c for c in result.changes if c.entry.link in kept),
        claims=frozenset(url for url in result.claims if url in kept),
    )


def _read_feed(state: FeedState, feed: Feed, *, now: datetime) -> PollResult:
    compared = compare_feed(state.entries, feed, observed_at=now, returning=state.returning)
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
        leaving=compared.departed,
        returning={},
        entries_seen=len(feed.entries),
        problems=problems[:MAX_PROBLEMS],
    )
    return PollResult(
        fresh,
        "polled",
        candidates=feed_candidates(feed, discovered_at=now),
        changes=tuple(c for c in compared.changes if c.kind == "edited"),
        claims=compared.claims,
    )


def _read_homepage(
    state: FeedState, page: Homepage, *, now: datetime, links: UrlFilter | None
) -> PollResult:
    """A homepage's poll: its tracked links are candidates (archived as a feed's entries
    are) and their headlines go into the feed's history (:mod:`quietedit.decide.homepage`)."""
    tracked = [
        link for link in page.links if links is None or not links.active or tracks(links, link.url)
    ]
    history, closed = headline_history(state.homepage, tracked, now=now)
    fresh = replace(
        state,
        kind="homepage",
        homepage=history,
        entries_seen=len(page.links),
        problems=page.problems[:MAX_PROBLEMS],
    )
    candidates = tuple(
        EntryCandidate(
            url=link.url,
            discovered_at=now,
            published_at=now,
            published_from="discovered",
            title=link.headline,
        )
        for link in tracked
    )
    return PollResult(fresh, "polled", candidates=candidates, closed=closed)


def _read_sitemap(state: FeedState, sitemap: Sitemap, *, now: datetime) -> PollResult:
    snapshots: dict[str, EntrySnapshot] = {}
    claims: set[str] = set()
    for entry in sitemap.entries:
        lastmod = entry.lastmod.raw if entry.lastmod else None
        before = state.entries.get(entry.url) or state.returning.get(entry.url)
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
    leaving = {url: snap for url, snap in state.entries.items() if url not in snapshots}
    fresh = replace(
        state,
        kind="sitemap",
        entries=snapshots,
        leaving=leaving,
        returning={},
        entries_seen=len(sitemap.entries),
        problems=sitemap.problems[:MAX_PROBLEMS],
    )
    return PollResult(
        fresh,
        "polled",
        candidates=sitemap_candidates(sitemap, discovered_at=now),
        claims=frozenset(claims),
    )
