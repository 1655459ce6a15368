"""Feed and sitemap entries as candidates for the re-check policy (pure).

Each entry with a usable link yields one :class:`EntryCandidate`: when it was discovered
(a parameter: the poll's time), a plausible publication date, and the source's
``updated`` claim. The shell turns these into :class:`quietedit.decide.recheck.Candidate`
values once it knows each link's document key.

A date is *plausible* when it was read, was not clamped (it did not lie in the future),
and is not before :data:`~quietedit.decide.recheck.EARLIEST_PLAUSIBLE` (1995: CMS
defaults such as 1970-01-01 are noise). The publication date is the entry's
``published``, else its ``updated``, else the discovery time — so an archive article that
enters a feed today keeps its real age.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from quietedit.decide.recheck import EARLIEST_PLAUSIBLE
from quietedit.feeds.dates import NormalizedDate
from quietedit.feeds.entries import Feed
from quietedit.feeds.sitemaps import Sitemap

PublishedFrom = Literal["published", "updated", "discovered"]


@dataclass(frozen=True, slots=True)
class EntryCandidate:
    """An article a feed or sitemap points to, with the dates the policy needs.

    ``published_at`` is always set (the discovery time when nothing plausible was given);
    ``published_from`` says where it came from. ``updated_claim`` is the source's plausible
    ``updated``/``lastmod`` for the entry, or None. ``entry_id`` is the feed entry's id
    (None for a sitemap URL).
    """

    url: str
    discovered_at: datetime
    published_at: datetime
    published_from: PublishedFrom
    updated_claim: datetime | None = None
    entry_id: str | None = None
    title: str | None = None


def feed_candidates(feed: Feed, *, discovered_at: datetime) -> tuple[EntryCandidate, ...]:
    """One candidate per entry of ``feed`` that has a link, in feed order (links unique).

    For an entry already known, the shell keeps its first ``discovered_at``.
    """
    if discovered_at.tzinfo is None:
        raise ValueError(f"discovered_at {discovered_at.isoformat()} has no timezone; pass UTC")
    candidates: dict[str, EntryCandidate] = {}
    for entry in feed.entries:
        if entry.link is None or entry.link in candidates:
            continue
        published, source = _published(entry.published, entry.updated, discovered_at)
        candidates[entry.link] = EntryCandidate(
            url=entry.link,
            discovered_at=discovered_at,
            published_at=published,
            published_from=source,
            updated_claim=plausible(entry.updated),
            entry_id=entry.id,
            title=entry.title or None,
        )
    return tuple(candidates.values())


def sitemap_candidates(sitemap: Sitemap, *, discovered_at: datetime) -> tuple[EntryCandidate, ...]:
    """One candidate per URL of a news sitemap: ``news:publication_date``, else ``lastmod``."""
    if discovered_at.tzinfo is None:
        raise ValueError(f"discovered_at {discovered_at.isoformat()} has no timezone; pass UTC")
    candidates: dict[str, EntryCandidate] = {}
    for entry in sitemap.entries:
        if entry.url in candidates:
            continue
        published, source = _published(entry.news_published, entry.lastmod, discovered_at)
        candidates[entry.url] = EntryCandidate(
            url=entry.url,
            discovered_at=discovered_at,
            published_at=published,
            published_from=source,
            updated_claim=plausible(entry.lastmod),
            title=entry.news_title,
        )
    return tuple(candidates.values())


def plausible(date: NormalizedDate | None) -> datetime | None:
    """``date``'s value if it can be believed (read, not clamped, not before 1995)."""
    if date is None or date.value is None or date.clamped or date.value < EARLIEST_PLAUSIBLE:
        return None
    return date.value


def _published(
    published: NormalizedDate | None, updated: NormalizedDate | None, discovered_at: datetime
) -> tuple[datetime, PublishedFrom]:
    if (value := plausible(published)) is not None:
        return value, "published"
    if (value := plausible(updated)) is not None:
        return value, "updated"
    return discovered_at, "discovered"
