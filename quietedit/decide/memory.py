"""What ingest remembers between runs, as the archive's mutable records (pure).

A document record (``documents/<id>/document.json``) holds the article's identity (its
canonical ``url``, the ``links`` feeds gave for it, its ``feeds``), the re-check
``schedule`` the policy reads, what the last observation ``seen`` was (for flip-flops and
cut-down texts), its ``status`` (``active``, ``gone``, ``redirected``) and the HTTP
validators of its page. A feed record (``feeds/<slug>.json``) holds the feed's catalogue
entry, its validators, its poll health, its claims' ``trust``, the newest snapshot of
every entry it carries and digests of those that left it within ``ENTRY_MEMORY``
(:mod:`quietedit.decide.departed`), and for a homepage the headlines of its links
(:mod:`quietedit.decide.homepage`); a document of a live blog keeps its ledger of posts
(``live``, :mod:`quietedit.decide.liveblog`). Revisions, not these records, are the truth
about content: everything here can be lost without losing an edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.decide.departed import (
    Departed,
    days_naming,
    index_from_record,
    index_to_record,
    kept,
    newest,
    remember,
)
from quietedit.decide.homepage import HeadlineHistory, history_from_record, history_to_record
from quietedit.decide.liveblog import LiveLedger, ledger_from_record, ledger_to_record
from quietedit.decide.recheck import Candidate, FeedTrust
from quietedit.feeds.edits import EntrySnapshot
from quietedit.fetch.ledger import LedgerEntry
from quietedit.model import JSON, format_timestamp, parse_timestamp

MAX_LINKS: Final = 20
"""Links remembered per document (feeds rewrite tracking parameters; the first ones count)."""

LEDGER_KEEP: Final = timedelta(hours=2)
"""Requests kept one by one: the hourly budget needs the last hour, exactly."""
ROLLUP_DAYS: Final = 90
"""Older requests are summed per host and day, and those sums kept this many days."""

FEED_RETRY_BASE: Final = 600.0
FEED_RETRY_MAX: Final = 86400.0
"""A failing feed is polled again after 10 min x 2^(failures-1), at most a day: never given up."""


@dataclass(frozen=True, slots=True)
class Seen:
    """The last observation of a document's page, when it differs from its newest revision.

    ``last_seen`` and ``anomaly_hash`` are plain content hashes of the page as extracted,
    whatever host profile judged it (see :mod:`quietedit.decide.profiles`); a record from
    an older version may hold a hash without a profile's furniture, which then simply
    matches nothing."""

    last_seen: str | None = None
    anomaly_hash: str | None = None
    anomaly_count: int = 0
    revisions: int = 0  # revisions this record knows of; fewer than stored after a crash


@dataclass(frozen=True, slots=True)
class DocumentState:
    """Ingest's record of one document."""

    id: str
    url: str
    candidate: Candidate
    links: tuple[str, ...] = ()
    feeds: tuple[str, ...] = ()
    title: str | None = None
    status: str = "active"
    location: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    seen: Seen = field(default_factory=Seen)
    live: LiveLedger | None = None  # the stream of a live blog (decide.liveblog)

    def with_link(self, link: str, *, feed: str | None) -> DocumentState:
        links = self.links if link in self.links else (*self.links, link)[:MAX_LINKS]
        feeds = self.feeds
        if feed is not None and feed not in feeds:
            feeds = tuple(sorted((*feeds, feed)))
        return replace(self, links=links, feeds=feeds)


def document_to_record(state: DocumentState) -> dict[str, JSON]:
    """The document record (without the envelope the archive adds)."""
    c = state.candidate
    record: dict[str, JSON] = {
        "url": state.url,
        "host": c.host,
        "links": list(state.links),
        "feeds": list(state.feeds),
        "title": state.title,
        "discovered_at": format_timestamp(c.discovered_at),
        "published_at": _time(c.published_at),
        "status": state.status,
        "location": state.location,
        "http": {"etag": state.etag, "last_modified": state.last_modified},
        "schedule": {
            "last_checked_at": _time(c.last_checked_at),
            "last_changed_at": _time(c.last_changed_at),
            "changes": c.changes,
            "failures": c.failures,
            "last_failure_at": _time(c.last_failure_at),
            "claimed_at": _time(c.claimed_at),
            "claimed_by": c.feed,
        },
        "seen": {
            "last_seen": state.seen.last_seen,
            "anomaly_hash": state.seen.anomaly_hash,
            "anomaly_count": state.seen.anomaly_count,
            "revisions": state.seen.revisions,
        },
    }
    if state.live is not None:  # only pages with a stream of entries have one
        record["live"] = ledger_to_record(state.live)
    return record


def document_from_record(document: str, record: Mapping[str, JSON]) -> DocumentState:
    """Read a document record back; missing or malformed parts take their defaults.

    A record written by an older or broken run must never stop ingest: the worst case is
    an article checked once more than needed.
    """
    schedule = _mapping(record.get("schedule"))
    seen = _mapping(record.get("seen"))
    http = _mapping(record.get("http"))
    url = _text(record.get("url")) or ""
    discovered = _parse(record.get("discovered_at")) or _parse(record.get("first_seen"))
    candidate = Candidate(
        key=document,
        host=_text(record.get("host")) or "",
        discovered_at=discovered or parse_timestamp("1970-01-01T00:00:00Z"),
        published_at=_parse(record.get("published_at")),
        # the feed whose claims count for this article: the one that made the last claim
        feed=_text(schedule.get("claimed_by")) or (_strings(record.get("feeds")) or (None,))[0],
        last_checked_at=_parse(schedule.get("last_checked_at")),
        last_changed_at=_parse(schedule.get("last_changed_at")),
        changes=_count(schedule.get("changes")),
        failures=_count(schedule.get("failures")),
        last_failure_at=_parse(schedule.get("last_failure_at")),
        claimed_at=_parse(schedule.get("claimed_at")),
    )
    return DocumentState(
        id=document,
        url=url,
        candidate=candidate,
        links=_strings(record.get("links")),
        feeds=_strings(record.get("feeds")),
        title=_text(record.get("title")),
        status=_text(record.get("status")) or "active",
        location=_text(record.get("location")),
        etag=_text(http.get("etag")),
        last_modified=_text(http.get("last_modified")),
        seen=Seen(
            last_seen=_text(seen.get("last_seen")),
            anomaly_hash=_text(seen.get("anomaly_hash")),
            anomaly_count=_count(seen.get("anomaly_count")),
            revisions=_count(seen.get("revisions")),
        ),
        live=ledger_from_record(record.get("live")),
    )


@dataclass(frozen=True, slots=True)
class FeedState:
    """Ingest's record of one feed of the catalogue."""

    slug: str
    url: str
    name: str
    enabled: bool = True
    active: bool = True  # false once the feed left feeds.yaml (its record and documents stay)
    resolved_url: str | None = None  # the feed a configured web page advertised
    kind: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    polls: int = 0
    not_modified: int = 0
    failures: int = 0  # in a row
    failures_total: int = 0
    last_polled_at: datetime | None = None
    last_success_at: datetime | None = None
    last_error: str | None = None
    entries_seen: int = 0
    problems: tuple[str, ...] = ()
    trust: FeedTrust = field(default_factory=FeedTrust)
    entries: Mapping[str, EntrySnapshot] = field(default_factory=dict)  # those it carries
    homepage: HeadlineHistory | None = None  # a homepage's headlines (decide.homepage)
    departed: Departed = field(default_factory=dict)  # digests of those that left, by day
    leaving: Mapping[str, EntrySnapshot] = field(default_factory=dict)
    """The snapshots of the entries that left the feed at this run's poll: they go to the
    day file of the run's day before the record that forgets them (:func:`leaving_kept`)."""
    returning: Mapping[str, EntrySnapshot] = field(default_factory=dict)
    """Snapshots read back from day files for this poll: entries it lists may be those."""

    def next_poll_at(self) -> datetime | None:
        """When a failing feed may be polled again; ``None`` when it is not failing."""
        if not self.failures or self.last_polled_at is None:
            return None
        wait = min(FEED_RETRY_BASE * 2 ** min(self.failures - 1, 40), FEED_RETRY_MAX)
        return self.last_polled_at + timedelta(seconds=wait)


def feed_to_record(state: FeedState, *, now: datetime) -> dict[str, JSON]:
    """The feed record: the snapshots of the entries the feed carries (those older than
    ``ENTRY_MEMORY`` forgotten, and beyond ``MAX_SNAPSHOTS`` the oldest, as for a record of
    an older version that still holds departed ones), and the digests of those that left
    it, the :func:`leaving_kept` ones under today (:mod:`quietedit.decide.departed`)."""
    snapshots = kept(state.entries, now=now)
    entries: dict[str, JSON] = {key: snapshot.to_record() for key, snapshot in snapshots.items()}
    departed = remember(state.departed, leaving_kept(state, now=now).values(), now=now)
    record: dict[str, JSON] = {
        "url": state.url,
        "name": state.name,
        "enabled": state.enabled,
        "active": state.active,
        "resolved_url": state.resolved_url,
        "kind": state.kind,
        "http": {"etag": state.etag, "last_modified": state.last_modified},
        "health": {
            "polls": state.polls,
            "not_modified": state.not_modified,
            "failures": state.failures,
            "failures_total": state.failures_total,
            "last_polled_at": _time(state.last_polled_at),
            "last_success_at": _time(state.last_success_at),
            "last_error": state.last_error,
            "entries_seen": state.entries_seen,
            "problems": list(state.problems),
        },
        "trust": {
            "unproductive_claims": state.trust.unproductive_claims,
            "last_probe_at": _time(state.trust.last_probe_at),
        },
        "entries": entries,
        "departed": index_to_record(departed),
    }
    if state.homepage is not None:  # only a homepage's record has one
        record["homepage"] = history_to_record(state.homepage)
    return record


def feed_from_record(slug: str, record: Mapping[str, JSON]) -> FeedState:
    """Read a feed record back; malformed parts take their defaults (see above)."""
    http = _mapping(record.get("http"))
    health = _mapping(record.get("health"))
    trust = _mapping(record.get("trust"))
    entries: dict[str, EntrySnapshot] = {}
    for entry_id, snapshot in _mapping(record.get("entries")).items():
        if isinstance(snapshot, dict):
            try:
                entries[entry_id] = EntrySnapshot.from_record(snapshot)
            except ValueError:
                continue  # a damaged snapshot only makes that entry look new once
    return FeedState(
        slug=slug,
        url=_text(record.get("url")) or "",
        name=_text(record.get("name")) or slug,
        enabled=record.get("enabled") is not False,
        active=record.get("active") is not False,
        resolved_url=_text(record.get("resolved_url")),
        kind=_text(record.get("kind")),
        etag=_text(http.get("etag")),
        last_modified=_text(http.get("last_modified")),
        polls=_count(health.get("polls")),
        not_modified=_count(health.get("not_modified")),
        failures=_count(health.get("failures")),
        failures_total=_count(health.get("failures_total")),
        last_polled_at=_parse(health.get("last_polled_at")),
        last_success_at=_parse(health.get("last_success_at")),
        last_error=_text(health.get("last_error")),
        entries_seen=_count(health.get("entries_seen")),
        problems=_strings(health.get("problems")),
        trust=FeedTrust(
            unproductive_claims=_count(trust.get("unproductive_claims")),
            last_probe_at=_parse(trust.get("last_probe_at")),
        ),
        entries=entries,
        homepage=history_from_record(record.get("homepage")),
        departed=index_from_record(record.get("departed")),
    )


def leaving_kept(state: FeedState, *, now: datetime) -> dict[str, EntrySnapshot]:
    """The snapshots of the entries that left ``state``'s feed at this poll that the day
    file of ``now`` keeps: those seen within ``ENTRY_MEMORY`` (a record of an older
    version hands over every departed entry it held at once)."""
    return kept(state.leaving, now=now)


@dataclass(frozen=True, slots=True)
class SourceIndex:
    """Each feed's newest entry snapshots by link, to tell what the sources listing an
    article claim about it; ``sitemaps`` are the feeds that are sitemaps."""

    by_link: Mapping[str, Mapping[str, EntrySnapshot]]
    sitemaps: frozenset[str]

    @classmethod
    def of(
        cls,
        feeds: Mapping[str, FeedState],
        departed: Mapping[str, Mapping[str, EntrySnapshot]] | None = None,
    ) -> SourceIndex:
        """The index of ``feeds`` as this run polled them (a sharded run polls every feed,
        so the claims of another shard's feed are as fresh as an unsharded run's), with
        the snapshots ``departed`` gives per feed: those of the day files that
        :meth:`days_needed` names, read."""
        by_link = {}
        for slug, feed in feeds.items():
            known = newest((departed or {}).get(slug, {}), feed.leaving, feed.entries)
            by_link[slug] = {s.link: s for _, s in sorted(known.items()) if s.link}
        sitemaps = frozenset(slug for slug, feed in feeds.items() if feed.kind == "sitemap")
        return cls(by_link, sitemaps)

    @staticmethod
    def days_needed(
        feeds: Mapping[str, FeedState], states: Iterable[DocumentState]
    ) -> dict[str, list[str]]:
        """Per feed, the day files to read for the claims about the articles of ``states``:
        those whose digests name a link of an article the feed lists no longer."""
        wanted: dict[str, set[str]] = {}
        listed: dict[str, set[str | None]] = {}
        for state in states:
            for slug in state.feeds:
                feed = feeds.get(slug)
                if feed is None or not feed.departed:
                    continue
                if slug not in listed:
                    carried = (*feed.entries.values(), *feed.leaving.values())
                    listed[slug] = {snapshot.link for snapshot in carried}
                links = [link for link in state.links if link not in listed[slug]]
                wanted.setdefault(slug, set()).update(days_naming(feed.departed, links))
        return {slug: sorted(days) for slug, days in sorted(wanted.items()) if days}

    def claims(self, state: DocumentState) -> dict[str, JSON] | None:
        """The revision ``signals`` of ``state``'s article (data/README.md): per kind, the
        date the first of its feeds listing it gives (the claiming feed first, then by
        slug), ``None`` when no known feed lists it."""
        first = state.candidate.feed
        slugs = sorted(state.feeds, key=lambda slug: (slug != first, slug))
        found: dict[str, JSON] = {}
        for slug in slugs:
            kind = "sitemap_lastmod" if slug in self.sitemaps else "feed_updated"
            if kind in found:
                continue
            entries = self.by_link.get(slug, {})
            for link in state.links:
                snapshot = entries.get(link)
                if snapshot is not None:
                    found[kind] = {"feed": slug, "value": snapshot.updated}
                    break
        return found or None


def ledger_record(
    entries: Iterable[LedgerEntry], previous: Mapping[str, JSON], *, now: datetime
) -> dict[str, JSON]:
    """The request ledger to persist: the last ``LEDGER_KEEP`` of requests one by one, older
    ones added to per-host daily sums (``requests``, ``bytes``, ``errors``) that are kept
    ``ROLLUP_DAYS`` days, so the file stays bounded however long the archive runs."""
    daily: dict[str, dict[str, dict[str, int]]] = {}
    for host, stored_days in _mapping(previous.get("daily")).items():
        for day, stored in _mapping(stored_days).items():
            daily.setdefault(host, {})[day] = {
                key: _count(value) for key, value in _mapping(stored).items()
            }
    kept: list[JSON] = []
    for entry in entries:
        if entry.at >= now - LEDGER_KEEP:
            kept.append(entry.to_record())
            continue
        sums = daily.setdefault(entry.host, {}).setdefault(entry.at.date().isoformat(), {})
        sums["requests"] = sums.get("requests", 0) + 1
        sums["bytes"] = sums.get("bytes", 0) + entry.bytes
        sums["errors"] = sums.get("errors", 0) + (entry.error is not None)
    oldest = (now - timedelta(days=ROLLUP_DAYS)).date().isoformat()
    rolled: dict[str, JSON] = {}
    for host, days in sorted(daily.items()):
        recent: dict[str, JSON] = {
            day: dict(totals) for day, totals in sorted(days.items()) if day >= oldest
        }
        if recent:
            rolled[host] = recent
    return {"requests": kept, "daily": rolled}


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else format_timestamp(moment)


def _parse(value: JSON | None) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        return None


def _mapping(value: JSON | None) -> Mapping[str, JSON]:
    return value if isinstance(value, dict) else {}


def _text(value: JSON | None) -> str | None:
    return value if isinstance(value, str) and value else None


def _count(value: JSON | None) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _strings(value: JSON | None) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(item for item in value if isinstance(item, str))
