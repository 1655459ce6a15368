"""Listings, filters and statistics over every edit of the archive (pure).

Pagination is *append-stable*: archive pages cut the edits in the order they were
observed and are numbered from the oldest, so page 3 holds the same edits tomorrow as
today and a new edit changes only the last page (which keeps incremental builds small and
permalinks honest). The front page of each listing
shows the newest edits and links to the archive page that continues it.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from operator import itemgetter
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
    # for the filtered feeds: whether it changed the headline; the slugs of the watched
    # terms it added or removed; "" or the event it stands for ("gone", "flip-flop")
    headline: bool = False
    watched: tuple[str, ...] = ()
    event: str = ""

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
            edit.headline,
            tuple(w[0] for w in edit.watched),
            edit.event,
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
    partition: str = ""  # the archive partition, "2026/11/30": the day it was first seen

    @property
    def published(self) -> bool:
        """Whether the document has pages of its own: an edit or an event to show (the
        design's rule: a page for every changed document)."""
        return self.revisions > 1 or bool(self.events)

    @property
    def month(self) -> str:
        """The month of its partition, ``2026-11``: the unit the site folds."""
        return self.partition[:7].replace("/", "-")


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
    compact: bool = False  # items without excerpt (archive pages of source and kind filters)

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


BY_TIME: Final = itemgetter(
    *(EditRef._fields.index(f) for f in ("observed_at", "document", "number"))
)
"""An :class:`EditRef`'s (observed_at, document, number): chronological order."""


def paginate(
    edits: list[EditRef],
    *,
    base: str,
    heading: str,
    size: int = PAGE_SIZE,
    hidden: Callable[[EditRef], bool] | None = None,
    folded: str | None = None,
) -> list[ListingPage]:
    """The front page at ``base`` and, past ``size`` edits, archive pages ``base/edits/N``.

    ``edits`` must be in :func:`ordered` order. Archive pages cut the edits in the order
    they were observed: page 1 holds the oldest ``size``, and a new edit (the newest) only
    ever lands on the last page, so every other page stays as it is (each page shows its
    edits in listing order). ``hidden`` edits (of folded months) are left out without
    moving the others: a page left empty is not made, and a link to it goes to
    ``folded`` (the archive of folded months) instead.
    """
    total = len(edits)
    count = sum(not e.event for e in edits)  # the edits, not the events listed among them
    shown = edits if hidden is None else [e for e in edits if not hidden(e)]
    gone = len(shown) < total
    pages: list[ListingPage] = []
    if total <= size:
        older = folded if gone else None
        return [ListingPage(base, heading, tuple(shown), count, older=older)]
    oldest_first = sorted(edits, key=BY_TIME)
    chunks = [oldest_first[i : i + size] for i in range(0, total, size)]
    kept: list[tuple[int, list[EditRef]]] = []
    for number, chunk in enumerate(chunks, start=1):
        visible = chunk if hidden is None else [e for e in chunk if not hidden(e)]
        if visible:
            kept.append((number, sorted(visible, reverse=True)))
    numbers = [number for number, _ in kept]
    front_older = folded if gone else None
    if len(shown) > size:  # the page of the newest edit the front page leaves out
        newest = max(shown[size:], key=BY_TIME)
        place = bisect.bisect_left(oldest_first, BY_TIME(newest), key=BY_TIME)
        front_older = _join(base, f"edits/{place // size + 1}")
    pages.append(ListingPage(base, heading, tuple(shown[:size]), count, older=front_older))
    for n, (number, items) in enumerate(kept):
        older = _join(base, f"edits/{numbers[n - 1]}") if n else None
        if n == 0 and number > 1 and gone:
            older = folded
        pages.append(
            ListingPage(
                _join(base, f"edits/{number}"),
                f"{heading} — page {number}",
                tuple(items),
                None,
                number=number,
                older=older,
                newer=_join(base, f"edits/{numbers[n + 1]}") if n + 1 < len(kept) else base,
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
