"""The one shape every feed dialect comes out in: :class:`Feed` and :class:`FeedEntry` (pure).

A dialect reader (feedparser for the XML dialects, :mod:`.feeds_json` for JSON Feed)
collects what it finds as :class:`RawEntry` values; :func:`assemble_feed` cleans them the
same way for every dialect: plain text, safe links, normalised dates, stable ids, no
duplicate ids, a cap on the number of entries, and every repair recorded in ``problems``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Literal

from quietedit.feeds.dates import NormalizedDate, normalize_date
from quietedit.feeds.fields import (
    MAX_SUMMARY_CHARS,
    MAX_TITLE_CHARS,
    capped_problems,
    clean_id,
    plain_text,
    safe_link,
    text_hash_id,
    unique_texts,
)

FeedKind = Literal["atom", "rss", "rdf", "jsonfeed"]
IdSource = Literal["id", "link", "hash"]

MAX_ENTRIES: Final = 2_000
"""Entries read per feed. News feeds carry 10-300; ten thousand is an archive dump or an
attack, and every entry read becomes a candidate to fetch."""


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One entry of a feed, whatever its dialect.

    ``id`` is the feed's own id (RSS ``guid``, Atom/JSON ``id``); without one, the link;
    without a link, ``sha256:`` of the folded title and summary — ``id_source`` says which.
    ``link`` is absolute http(s) or ``None``. ``title`` and ``summary`` are plain text
    (``summary`` is the teaser: RSS ``description``, Atom ``summary`` or else ``content``,
    JSON ``summary`` or else the content). Dates keep the raw text beside their UTC value.
    """

    id: str
    id_source: IdSource
    link: str | None
    title: str
    summary: str
    published: NormalizedDate | None = None
    updated: NormalizedDate | None = None
    authors: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Feed:
    """A parsed feed: its entries in document order and what was repaired to read them.

    ``kind`` is ``atom``, ``rss``, ``rdf`` or ``jsonfeed``; ``dialect`` the exact version
    (feedparser's names such as ``rss20``, ``atom03``, ``rss10``; ``jsonfeed10`` or
    ``jsonfeed11``). ``problems`` are one-line notes on everything recovered from (ill-formed
    XML, a lying charset, a dropped ``javascript:`` link); an empty tuple means a clean feed.
    """

    url: str
    kind: FeedKind
    dialect: str
    title: str
    link: str | None
    updated: NormalizedDate | None
    entries: tuple[FeedEntry, ...]
    problems: tuple[str, ...] = ()


@dataclass(slots=True)
class RawEntry:
    """An entry as a dialect reader found it, before cleaning (mutable scratch, not a value).

    ``*_html`` says whether the text is markup; dates are the raw text as written.
    """

    id: str | None = None
    link: str | None = None
    title: str = ""
    title_html: bool = False
    summary: str = ""
    summary_html: bool = False
    published: str | None = None
    updated: str | None = None
    authors: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RawFeed:
    """Feed-level facts as a dialect reader found them (mutable scratch)."""

    kind: FeedKind
    dialect: str
    title: str = ""
    title_html: bool = False
    link: str | None = None
    updated: str | None = None
    entries: list[RawEntry] = field(default_factory=list)


def assemble_feed(
    raw: RawFeed,
    *,
    url: str,
    fetched_at: datetime | None,
    max_entries: int,
    problems: list[str],
) -> Feed:
    """Clean ``raw`` into a :class:`Feed`; repairs are appended to ``problems`` and kept."""
    if len(raw.entries) > max_entries:
        problems.append(
            f"{len(raw.entries)} entries; only the first {max_entries} are read "
            "(raise max_entries if the feed is genuine)"
        )
    entries: list[FeedEntry] = []
    seen: set[str] = set()
    duplicates = 0
    for index, item in enumerate(raw.entries[:max_entries]):
        entry = _entry(item, index=index, url=url, fetched_at=fetched_at, problems=problems)
        if entry is None:
            continue
        if entry.id in seen:
            duplicates += 1
            continue
        seen.add(entry.id)
        entries.append(entry)
    if duplicates:
        problems.append(f"{duplicates} entries repeat an earlier entry's id; the first is kept")
    link, why = safe_link(raw.link, base=url)
    if why:
        problems.append(f"feed {why}")
    return Feed(
        url=url,
        kind=raw.kind,
        dialect=raw.dialect,
        title=plain_text(raw.title, html=raw.title_html, limit=MAX_TITLE_CHARS),
        link=link,
        updated=_date(raw.updated, fetched_at=fetched_at),
        entries=tuple(entries),
        problems=capped_problems(problems),
    )


def _entry(
    item: RawEntry, *, index: int, url: str, fetched_at: datetime | None, problems: list[str]
) -> FeedEntry | None:
    title = plain_text(item.title, html=item.title_html, limit=MAX_TITLE_CHARS)
    summary = plain_text(item.summary, html=item.summary_html, limit=MAX_SUMMARY_CHARS)
    link, why = safe_link(item.link, base=url)
    if why:
        problems.append(f"entry {index + 1}: {why}")
    own_id, note = clean_id(item.id) if item.id is not None else ("", None)
    if note:
        problems.append(f"entry {index + 1}: {note}")
    id_source: IdSource
    if own_id:
        entry_id, id_source = own_id, "id"
    elif link:
        entry_id, id_source = link, "link"
    elif title or summary:
        entry_id, id_source = text_hash_id(title, summary), "hash"
    else:
        problems.append(f"entry {index + 1}: no id, link, title or summary; skipped")
        return None
    return FeedEntry(
        id=entry_id,
        id_source=id_source,
        link=link,
        title=title,
        summary=summary,
        published=_date(item.published, fetched_at=fetched_at),
        updated=_date(item.updated, fetched_at=fetched_at),
        authors=unique_texts([plain_text(a, html=False, limit=200) for a in item.authors]),
        categories=unique_texts([plain_text(c, html=False, limit=200) for c in item.categories]),
    )


def _date(raw: str | None, *, fetched_at: datetime | None) -> NormalizedDate | None:
    """The normalised date for ``raw``, or None when the entry has no such date.

    feedparser's own ``*_parsed`` values are not used even where ours fail: it drops the
    zone it read, and reads what it does not know as nonsense (a Unix timestamp as
    2015-07-03, a Hungarian date as 1 November).
    """
    if raw is None or not raw.strip():
        return None
    return normalize_date(plain_text(raw, html=False, limit=200), fetched_at=fetched_at)
