"""Listings, filters and statistics over every edit of the archive (pure).

Pagination is *stable*: archive pages are numbered from the oldest edit, so page 3 holds
the same edits tomorrow as today and a new edit changes only the newest pages (which
keeps incremental builds small and permalinks honest). The front page of each listing
shows the newest edits and links to the archive page that continues it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Final, NamedTuple

from quietedit.model import JSON, parse_timestamp
from quietedit.publish.pages import Edit, Source

PAGE_SIZE: Final = 50
"""Edits per listing page: a screenful of excerpts on a phone is about ten, fifty keeps the
page under ~100 KB and the page count of a 40,000-edit archive under a thousand."""

CHART_DAYS: Final = 30
"""Days shown by the edits-per-day chart, ending on the newest edit's day (never the clock)."""

DELAY_BUCKETS: Final = (
    ("under 1 hour", 3600),
    ("1 to 6 hours", 6 * 3600),
    ("6 to 24 hours", 86400),
    ("1 to 3 days", 3 * 86400),
    ("3 to 7 days", 7 * 86400),
    ("over 7 days", None),
)
"""Bins of the time from publication to edit; the publisher's datePublished is the start."""


class EditRef(NamedTuple):
    """What listings, feeds, sitemaps and stats need of an :class:`Edit`, and a digest of
    all of it: the build keeps one per edit of the archive and materialises the full
    ``Edit`` only for the pages it renders.

    A named tuple rather than a dataclass: tens of thousands are made per build, and its
    natural order is the listing order (day, significance, time, identity), so sorting
    needs no key function.
    """

    day: str
    rank: int
    observed_at: str
    document: str
    number: int
    source: str
    kinds: tuple[str, ...]
    delay: int  # index into DELAY_BUCKETS; -1 when the article gives no publication date
    silent: bool | None
    digest: str  # of every field of the Edit: what its list item and feed entry show

    @classmethod
    def of(cls, edit: Edit) -> EditRef:
        """The reference of ``edit``."""
        text = json.dumps(edit.to_row(), ensure_ascii=False, separators=(",", ":"))
        return cls(
            edit.day,
            edit.rank,
            edit.observed_at,
            edit.document,
            edit.number,
            edit.source,
            edit.kinds,
            delay_bucket(edit.published, edit.observed_at),
            edit.silent,
            hashlib.blake2b(text.encode(), digest_size=12).hexdigest(),
        )


def delay_bucket(published: str | None, observed_at: str) -> int:
    """The index in :data:`DELAY_BUCKETS` of the time from ``published`` to ``observed_at``
    (-1 when ``published`` is ``None``)."""
    if published is None:
        return -1
    seconds = (parse_timestamp(observed_at) - parse_timestamp(published)).total_seconds()
    for index, (_, limit) in enumerate(DELAY_BUCKETS):
        if limit is None or seconds < limit:
            return index
    return len(DELAY_BUCKETS) - 1  # unreachable: the last bucket has no limit


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    """What site-wide pages need to know about a document without reading its revisions."""

    id: str
    url: str | None
    title: str
    source: str
    revisions: int
    first_seen: str
    last_seen: str
    events: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ListingPage:
    """One page of a listing: its output folder, heading, edits, neighbours."""

    path: str  # "" for the home page, else e.g. "edits/3" or "sources/x/edits/2"
    heading: str
    edits: tuple[EditRef, ...]  # in listing order
    total: int | None  # edits in the whole listing, on the front page only (archive pages
    # stay byte-identical as the listing grows)
    number: int | None = None  # archive page number, None for a listing's front page
    older: str | None = None
    newer: str | None = None

    @property
    def groups(self) -> tuple[tuple[str, tuple[EditRef, ...]], ...]:
        """The edits grouped by day (made when asked: most pages of a build are kept)."""
        return _grouped(self.edits)


def ordered(edits: list[EditRef]) -> list[EditRef]:
    """Newest day first; within a day the most significant first, then the newest (the
    order of :meth:`Edit.order_key`, which is the references' own)."""
    return sorted(edits, reverse=True)


def _grouped(edits: tuple[EditRef, ...]) -> tuple[tuple[str, tuple[EditRef, ...]], ...]:
    groups: list[tuple[str, list[EditRef]]] = []
    for edit in edits:
        day = edit[0]  # its day, without an attribute look-up per edit
        if not groups or groups[-1][0] != day:
            groups.append((day, []))
        groups[-1][1].append(edit)
    return tuple((day, tuple(items)) for day, items in groups)


def _join(base: str, tail: str) -> str:
    return f"{base}/{tail}" if base else tail


def paginate(
    edits: list[EditRef], *, base: str, heading: str, size: int = PAGE_SIZE
) -> list[ListingPage]:
    """The front page at ``base`` and, past ``size`` edits, archive pages ``base/edits/N``.

    ``edits`` must be in :func:`ordered` order. Archive page 1 holds the oldest ``size``
    edits; the last archive page may be partly full.
    """
    total = len(edits)
    oldest_first = edits[::-1]
    chunks = [oldest_first[i : i + size] for i in range(0, total, size)] if total > size else []
    pages = []
    front_older = None
    if chunks:
        continuing = total - size - 1  # oldest-first index of the first edit not on the front
        front_older = _join(base, f"edits/{continuing // size + 1}")
    pages.append(ListingPage(base, heading, tuple(edits[:size]), total, older=front_older))
    for number, chunk in enumerate(chunks, start=1):
        pages.append(
            ListingPage(
                _join(base, f"edits/{number}"),
                f"{heading} — page {number}",
                tuple(chunk[::-1]),
                None,
                number=number,
                older=_join(base, f"edits/{number - 1}") if number > 1 else None,
                newer=_join(base, f"edits/{number + 1}") if number < len(chunks) else base,
            )
        )
    return pages


def by_source(edits: list[EditRef]) -> dict[str, list[EditRef]]:
    """Edits per source slug, each list in the order given."""
    groups: dict[str, list[EditRef]] = {}
    for edit in edits:
        groups.setdefault(edit.source, []).append(edit)
    return groups


def by_kind(edits: list[EditRef]) -> dict[str, list[EditRef]]:
    """Edits per kind name (an edit of several kinds is in each), in the order given."""
    groups: dict[str, list[EditRef]] = {}
    for edit in edits:
        for kind in edit.kinds:
            groups.setdefault(kind, []).append(edit)
    return dict(sorted(groups.items()))


@dataclass(frozen=True, slots=True)
class Stats:
    """The numbers behind the stats page and its charts."""

    days: tuple[str, ...]
    per_day: dict[str, tuple[int, ...]]  # source slug → count per day of ``days``
    delays: tuple[tuple[str, int], ...]  # bucket label → edits
    undated: int  # edits whose article gives no readable publication date
    kinds: tuple[tuple[str, int], ...]
    verdicts: tuple[tuple[str, int], ...]
    documents: int
    revisions: int
    edits: int


def compute_stats(edits: list[EditRef], documents: list[DocumentSummary]) -> Stats:
    """Aggregate ``edits`` for the charts; days end on the newest edit's day."""
    days: tuple[str, ...] = ()
    per_day: dict[str, list[int]] = {}
    if edits:
        last = date.fromisoformat(max(e.day for e in edits))
        days = tuple((last - timedelta(days=n)).isoformat() for n in range(CHART_DAYS - 1, -1, -1))
        index = {day: i for i, day in enumerate(days)}
        for edit in edits:
            slot = index.get(edit.day)
            if slot is not None:
                per_day.setdefault(edit.source, [0] * len(days))[slot] += 1
    buckets = Counter(edit.delay for edit in edits)
    undated = buckets.pop(-1, 0)
    kinds = Counter(kind for edit in edits for kind in edit.kinds)
    verdicts = Counter(
        "silent" if e.silent else "acknowledged" if e.silent is False else "not judged"
        for e in edits
    )
    return Stats(
        days=days,
        per_day={slug: tuple(counts) for slug, counts in sorted(per_day.items())},
        delays=tuple((label, buckets[n]) for n, (label, _) in enumerate(DELAY_BUCKETS)),
        undated=undated,
        kinds=tuple(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
        verdicts=tuple((name, verdicts[name]) for name in ("silent", "acknowledged", "not judged")),
        documents=len(documents),
        revisions=sum(d.revisions for d in documents),
        edits=len(edits),
    )


@dataclass(frozen=True, slots=True)
class SourceHealth:
    """A source's counts from the archive and its feed's state, as far as they are known."""

    source: Source
    documents: int
    revisions: int
    edits: int
    events: dict[str, int]
    feed_state: tuple[tuple[str, str], ...]  # scalar fields of data/feeds/<slug>.json

    @property
    def extraction_success(self) -> float | None:
        """Share of stored fetches that were not anomalies (broken, walled, cut off)."""
        anomalies = self.events.get("anomaly", 0)
        total = self.revisions + anomalies
        return self.revisions / total if total else None


def source_health(
    source: Source,
    documents: list[DocumentSummary],
    edits: int,
    feed_record: dict[str, JSON] | None,
) -> SourceHealth:
    """Health of ``source`` from its documents' summaries and its feed state record."""
    events: Counter[str] = Counter()
    for doc in documents:
        events.update(doc.events)
    state: list[tuple[str, str]] = []
    for key, value in sorted((feed_record or {}).items()):
        if key in {"schema", "type", "slug"} or isinstance(value, dict | list) or value is None:
            continue
        state.append((key.replace("_", " "), str(value)))
    return SourceHealth(
        source=source,
        documents=len(documents),
        revisions=sum(d.revisions for d in documents),
        edits=edits,
        events=dict(sorted(events.items())),
        feed_state=tuple(state),
    )
