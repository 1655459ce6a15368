"""The build cache's ``edits`` table: every edit's reference, kept up to date row by row,
and the bounded queries the site-wide pages are made from.

One row per edit of the archive (an :class:`~quietedit.publish.listing.EditRef` in
columns, with its document's month for the fold), one row per edit and kind in
``edit_kinds``, and one per edit (not an event) and watched term it added or removed in
``edit_terms``. :mod:`~quietedit.publish.catalog` rewrites a document's rows when it
writes the document's own (the documents this build rendered), and deletes them with it,
so the tables always hold what the ``documents`` table's references say; each write
notes the references that changed (added, removed or shown differently), which tell an
hourly build from where on a listing's archive pages can have moved.

The queries are each bounded by what a page shows, through indexes in the listings'
orders: a listing's front page is its newest edits by significance (``LIMIT``), a feed
the newest by time (a filtered feed's from an index of its own edits, of the site or of
one source), an archive page a slice of the edits by time from the page of the
earliest change on; the counts and the statistics are sums SQLite makes from its
indexes. No query brings the year's edits into Python.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final

from quietedit.publish.cacherows import CacheDamagedError
from quietedit.publish.cachesums import check_sums
from quietedit.publish.feedsets import SIGNIFICANT, FeedFilter
from quietedit.publish.listing import BY_TIME, CHART_DAYS, DELAY_BUCKETS, EditRef, Stats

_REF: Final = (
    "e.day, e.rank, e.observed_at, e.document, e.number, e.source, e.kinds, e.delay,"
    " e.silent, e.digest, e.headline, e.watched, e.event"
)
"""An :class:`EditRef`'s columns, in its fields' order."""


_FILTERED: Final = (
    ("silent", "silent = 1"),
    ("headline", "headline = 1"),
    ("significant", f"rank >= {SIGNIFICANT:d}"),
)
"""The filtered feeds whose edits have indexes of their own (``feedsets``): name and the
condition on an edit's row (an event is in none)."""
FEED_INDEXES: Final = tuple(
    f"CREATE INDEX edits_{name}{by} ON edits ({columns}observed_at, document, number)"
    f" WHERE event = '' AND {condition}"
    for name, condition in _FILTERED
    for by, columns in (("", ""), ("_by_source", "source, "))
)
"""Partial indexes of the filtered feeds' edits, newest last, of the whole site and per
source: a feed's newest entries are the end of its index, not a walk back through every
edit until enough of a rare kind are found (SQLite takes them for the queries of
:func:`_feed_conditions`, whose conditions are the indexes' own)."""


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _row(ref: EditRef, month: str) -> tuple[object, ...]:
    silent = None if ref.silent is None else int(ref.silent)
    return (
        ref.document, ref.number, ref.day, ref.rank, ref.observed_at, ref.source,
        _dump(list(ref.kinds)), ref.delay, silent, ref.digest, int(ref.headline),
        _dump(list(ref.watched)), ref.event, month,
    )  # fmt: skip


def _ref(row: Sequence[object]) -> EditRef:
    """The reference of a row of :data:`_REF` (``CacheDamagedError`` when it is not one)."""
    try:
        day, rank, observed_at, doc, number, source, kinds, delay, silent, digest = row[:10]
        headline, watched, event = row[10:13]
        kinds_list, watched_list = json.loads(str(kinds)), json.loads(str(watched))
        if not (
            isinstance(kinds_list, list)
            and isinstance(watched_list, list)
            and all(isinstance(k, str) for k in (*kinds_list, *watched_list))
            and isinstance(rank, int)
            and isinstance(number, int)
            and isinstance(delay, int)
            and silent in (None, 0, 1)
        ):
            raise ValueError("columns of the wrong shape")
        return EditRef(
            str(day), rank, str(observed_at), str(doc), number, str(source),
            tuple(kinds_list), delay, None if silent is None else bool(silent), str(digest),
            bool(headline), tuple(watched_list), str(event),
        )  # fmt: skip
    except (TypeError, ValueError) as exc:
        raise CacheDamagedError(f"build cache: an edit's row is damaged: {exc}") from exc


def replace_edits(
    db: sqlite3.Connection, doc: str, month: str, refs: Iterable[EditRef]
) -> set[EditRef]:
    """Make ``doc``'s rows ``refs`` (of a document of ``month``); returns the references
    that changed: those removed or added (an edit shown differently is both)."""
    old = set(_of_document(db, doc))
    new = set(refs)
    if old == new:
        return set()
    delete_edits(db, [doc])
    insert_edits(db, [(doc, month, sorted(new))])
    return old ^ new


def insert_edits(
    db: sqlite3.Connection, documents: Iterable[tuple[str, str, Iterable[EditRef]]]
) -> None:
    """Add the rows of the edits of ``documents`` (id, month, references), none of which
    has rows yet."""
    rows, kinds, terms = [], [], []
    for _, month, refs in documents:
        for ref in refs:
            rows.append(_row(ref, month))
            at, doc, number, source = ref.observed_at, ref.document, ref.number, ref.source
            kinds += [
                (k, at, doc, number, ref.day, ref.rank, ref.event, month, source) for k in ref.kinds
            ]
            if not ref.event:  # a term's feed lists edits, not events
                terms += [(term, at, doc, number, source, month) for term in ref.watched]
    db.executemany(f"INSERT INTO edits VALUES ({', '.join('?' * 14)})", rows)  # noqa: S608
    db.executemany("INSERT OR IGNORE INTO edit_kinds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", kinds)
    db.executemany("INSERT OR IGNORE INTO edit_terms VALUES (?, ?, ?, ?, ?, ?)", terms)


def delete_edits(db: sqlite3.Connection, docs: Iterable[str]) -> set[EditRef]:
    """Remove the rows of the edits of ``docs``; returns their references."""
    gone: set[EditRef] = set()
    for doc in docs:
        gone.update(_of_document(db, doc))
        db.execute("DELETE FROM edit_kinds WHERE document = ?", (doc,))
        db.execute("DELETE FROM edit_terms WHERE document = ?", (doc,))
        db.execute("DELETE FROM edits WHERE document = ?", (doc,))
    return gone


def row_counts(db: sqlite3.Connection) -> str:
    """The number of rows of ``edits``, ``edit_kinds`` and ``edit_terms``, as the cache's
    ``meta`` stores them (``edit_rows``) when a build ends. SQLite counts from its smallest
    index: a few milliseconds at a year's edits."""
    counts = [
        db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608
        for table in ("edits", "edit_kinds", "edit_terms")
    ]
    return " ".join(str(n) for n in counts)


_KIND_COUNTS: Final = (
    "SELECT TOTAL(edits), TOTAL(edits * (event = 0)) FROM kind_sums WHERE kind = ?"
)


def check_edits(db: sqlite3.Connection) -> None:
    """``sqlite3.DatabaseError`` unless the ``edits``, ``edit_kinds`` and ``edit_terms``
    tables hold as many rows as the build that wrote them left (rows deleted or added
    since, by hand or by a damaged disk: the tables are then written whole from the
    documents' checksummed references), and the sums the triggers keep (``edit_sums``,
    ``kind_sums``, ``document_sums``) count as many rows as their tables hold, every
    trigger there. (A sum changed by hand while the totals stay is not found, as a row
    changed by hand to other valid values is not.) A row changed in place is found when
    it is read (``CacheDamagedError``) if it is of the wrong shape; the cache is the
    build's own, and ``build --full`` trusts none of it."""
    stored = db.execute("SELECT value FROM meta WHERE key = 'edit_rows'").fetchone()
    counts = row_counts(db)
    if stored is None or stored[0] != counts:
        raise sqlite3.DatabaseError("its edits tables differ from the build that wrote them")
    edits, kinds, _ = (int(n) for n in counts.split())
    check_sums(db, edits, kinds)  # and the sums kept of them and of the documents


def _of_document(db: sqlite3.Connection, doc: str) -> list[EditRef]:
    query = f"SELECT {_REF} FROM edits e WHERE e.document = ? ORDER BY e.number"  # noqa: S608
    return [_ref(row) for row in db.execute(query, (doc,))]


_TABLE_OF: Final = {"kind": "edit_kinds", "term": "edit_terms"}
"""The table of the edits of one kind, and of one watched term."""


@dataclass(frozen=True, slots=True)
class Scope:
    """A listing's edits: every edit, one source's or one kind's."""

    source: str | None = None
    kind: str | None = None

    def holds(self, ref: EditRef) -> bool:
        """Whether ``ref`` belongs to this listing."""
        if self.source is not None:
            return ref.source == self.source
        if self.kind is not None:
            return self.kind in ref.kinds
        return True


EVERY: Final = Scope()


class EditTable:
    """The queries of the site-wide pages on the ``edits`` table of ``db``, for a site
    that folded the months ``folded`` (their edits are counted, not shown)."""

    def __init__(self, db: sqlite3.Connection, folded: frozenset[str]) -> None:
        self.db = db
        self.folded = folded
        # the counts asked for, once each: the tables do not change while the site-wide
        # pages are made (a count is the one query here that reads a whole index)
        self.counts: dict[tuple[Scope, bool, bool], int] = {}

    def _from(
        self,
        scope: Scope,
        *,
        visible: bool = False,
        extra: Sequence[tuple[str, object]] = (),
        rows: bool = True,
        of: tuple[str, str] | None = None,
    ) -> tuple[str, str, list[object]]:
        """``FROM … WHERE …`` of ``scope`` (with only edits outside folded months when
        ``visible``, and the conditions ``extra``, where ``{t}`` stands for the alias of
        the table with the listing's orders or times, its events and months), its
        parameters, and that alias. A kind's listing reads ``edit_kinds``; so do the edits
        ``of`` one kind (``("kind", name)``) of every source or ``scope``'s, and those of a
        watched term (``("term", slug)``) ``edit_terms``; each joined to ``edits`` when the
        edits' ``rows`` are wanted (their columns under the alias ``e``)."""
        conditions: list[str] = []
        params: list[object] = []
        if scope.kind is not None:
            if of is not None:
                raise ValueError("a kind's listing has no filtered feeds")
            of = ("kind", scope.kind)
        if of is not None:
            column, name = of
            sql, t = f"FROM {_TABLE_OF[column]} t", "t"
            if rows:
                sql += " JOIN edits e ON e.document = t.document AND e.number = t.number"
            conditions.append(f"t.{column} = ?")
            params.append(name)
            if scope.source is not None:
                conditions.append("t.source = ?")
                params.append(scope.source)
        else:
            sql, t = "FROM edits e", "e"
            if scope.source is not None:
                conditions.append("e.source = ?")
                params.append(scope.source)
        if visible and self.folded:
            conditions.append(f"{t}.month NOT IN ({', '.join('?' * len(self.folded))})")
            params += sorted(self.folded)
        for condition, value in extra:
            conditions.append(condition.format(t=t))
            if value is not None:
                params.append(value)
        where = " WHERE " + " AND ".join(conditions) if conditions else ""
        return sql + where, t, params

    def _refs(self, sql: str, params: Sequence[object]) -> list[EditRef]:
        return [_ref(row) for row in self.db.execute(sql, params)]

    def count(
        self, scope: Scope = EVERY, *, visible: bool = False, edits_only: bool = False
    ) -> int:
        """The edits of ``scope`` (only those outside folded months when ``visible``; not
        the events listed among them when ``edits_only``)."""
        known = self.counts.get((scope, visible, edits_only))
        if known is None:  # both counts in one pass
            if visible and self.folded:  # counted: the sums are not by month
                sql, t, params = self._from(scope, visible=visible, rows=False)
                query = f"SELECT COUNT(*), TOTAL({t}.event = '') {sql}"
            elif scope.kind is not None:
                query = _KIND_COUNTS
                params = [scope.kind]
            else:
                query = "SELECT TOTAL(edits), TOTAL(edits * (event = 0)) FROM edit_sums"
                params = []
                if scope.source is not None:
                    query += " WHERE source = ?"
                    params.append(scope.source)
            every, edits = self.db.execute(query, params).fetchone()
            self.counts[scope, visible, False] = int(every)
            self.counts[scope, visible, True] = int(edits)
            known = self.counts[scope, visible, edits_only]
        return known

    def front(self, scope: Scope, limit: int) -> list[EditRef]:
        """The first ``limit`` edits outside folded months in listing order (newest day
        first, then the most significant, then the newest: :func:`listing.ordered`)."""
        sql, t, params = self._from(scope, visible=True)
        order = ", ".join(
            f"{t}.{c} DESC" for c in ("day", "rank", "observed_at", "document", "number")
        )
        return self._refs(f"SELECT {_REF} {sql} ORDER BY {order} LIMIT ?", [*params, limit])

    def newest(
        self, scope: Scope, limit: int, *, visible: bool = True, feed: FeedFilter | None = None
    ) -> list[EditRef]:
        """The ``limit`` newest edits of ``scope`` (every edit's or a source's) by time (a
        feed's entries), outside folded months when ``visible``; with ``feed``, only its
        edits (no events)."""
        if feed is not None and feed.what in ("kind", "term"):
            # read from the kind's or the term's own rows, newest first (the site's or the
            # source's index), not from every edit until enough of a rare one are found;
            # edit_terms holds no events
            extra = [("{t}.event = ''", None)] if feed.what == "kind" else []
            of = (feed.what, feed.value)
            sql, t, params = self._from(scope, visible=visible, extra=extra, of=of)
        else:
            sql, t, params = self._from(scope, visible=visible, extra=_feed_conditions(feed))
        order = ", ".join(f"{t}.{c} DESC" for c in ("observed_at", "document", "number"))
        return self._refs(f"SELECT {_REF} {sql} ORDER BY {order} LIMIT ?", [*params, limit])

    def position(self, scope: Scope, key: tuple[str, str, int]) -> int:
        """How many edits of ``scope`` (folded or not) come before ``key`` (an edit's
        ``BY_TIME``) by time: all of them less those from ``key`` on, which an hourly
        build's changes, recent, make few to count."""
        extra = [("({t}.observed_at, {t}.document, {t}.number) >= (?, ?, ?)", None)]
        sql, _, params = self._from(scope, extra=extra, rows=False)
        (found,) = self.db.execute(f"SELECT COUNT(*) {sql}", [*params, *key]).fetchone()
        return self.count(scope) - int(found)

    def by_time(self, scope: Scope, start: int) -> list[tuple[EditRef, str]]:
        """The edits of ``scope`` (folded or not) by time, oldest first, from the
        ``start``-th on (counting from 0), each with its document's month."""
        after = self.count(scope) - start  # found from the newest: an hour reads the last
        if after <= 0:
            return []
        sql, t, params = self._from(scope, rows=False)
        columns = f"{t}.observed_at, {t}.document, {t}.number"
        newest_first = ", ".join(f"{c} DESC" for c in columns.split(", "))
        query = f"SELECT {columns} {sql} ORDER BY {newest_first} LIMIT 1 OFFSET ?"
        found = self.db.execute(query, [*params, after - 1]).fetchone()  # from the index
        if found is None:
            return []
        extra = [(f"({columns}) >= (?, ?, ?)", None)]
        sql, t, params = self._from(scope, extra=extra)
        query = f"SELECT {_REF}, e.month {sql} ORDER BY {columns}"
        return [(_ref(row), str(row[13])) for row in self.db.execute(query, [*params, *found])]

    def kinds(self) -> list[tuple[str, int]]:
        """Every kind with edits (folded or not, events included), by name, with its
        count."""
        query = "SELECT kind, TOTAL(edits) FROM kind_sums GROUP BY kind ORDER BY kind"
        return [(str(kind), int(count)) for kind, count in self.db.execute(query)]

    def source_counts(self, *, edits_only: bool = False) -> dict[str, int]:
        """Per source slug, its edits (folded or not; without events when ``edits_only``)."""
        where = "WHERE event = 0" if edits_only else ""
        query = (
            f"SELECT source, TOTAL(edits) FROM edit_sums {where}"  # noqa: S608
            " GROUP BY source ORDER BY source"
        )
        return {str(slug): int(count) for slug, count in self.db.execute(query)}

    def moved_candidates(self, low: str, high: str | None) -> list[EditRef]:
        """The edits observed in the second from ``low`` to ``high`` (to the end when
        ``None``), both by their first 19 characters (``2026-09-01T06:00:00``): a superset
        of those on either side of a move of the share images' cutoff."""
        query = f"SELECT {_REF} FROM edits e WHERE substr(e.observed_at, 1, 19) >= ?"  # noqa: S608
        params: list[object] = [low[:19]]
        if high is not None:
            query += " AND substr(e.observed_at, 1, 19) <= ?"
            params.append(high[:19])
        return self._refs(query, params)

    def stats(self) -> Stats:
        """What :func:`listing.compute_stats` makes of every edit but the events (the
        documents' figures left at 0: the cache sums them apart)."""
        db = self.db
        # the newest day from the end of the index in the listings' order; the counts
        # from the sums the triggers keep (``buildcache``)
        found = db.execute(
            "SELECT day FROM edits INDEXED BY edits_order WHERE event = ''"
            " ORDER BY day DESC LIMIT 1"
        ).fetchone()
        newest = None if found is None else found[0]
        (edits,) = db.execute("SELECT TOTAL(edits) FROM edit_sums WHERE event = 0").fetchone()
        days: tuple[str, ...] = ()
        per_day: dict[str, list[int]] = {}
        if newest is not None:
            last = date.fromisoformat(str(newest))
            days = tuple(
                (last - timedelta(days=n)).isoformat() for n in range(CHART_DAYS - 1, -1, -1)
            )
            index = {day: i for i, day in enumerate(days)}
            query = (
                "SELECT source, day, COUNT(*) FROM edits INDEXED BY edits_order"
                " WHERE event = '' AND day >= ? GROUP BY source, day"
            )
            for source, day, count in db.execute(query, (days[0],)):
                slot = index.get(str(day))
                if slot is not None:
                    per_day.setdefault(str(source), [0] * len(days))[slot] += int(count)
        buckets = dict(
            db.execute("SELECT delay, TOTAL(edits) FROM edit_sums WHERE event = 0 GROUP BY delay")
        )
        kinds = db.execute(
            "SELECT kind, TOTAL(edits) FROM kind_sums WHERE event = 0 GROUP BY kind"
        ).fetchall()
        verdicts = dict(
            db.execute("SELECT silent, TOTAL(edits) FROM edit_sums WHERE event = 0 GROUP BY silent")
        )
        return Stats(
            days=days,
            per_day={slug: tuple(counts) for slug, counts in sorted(per_day.items())},
            delays=tuple(
                (label, int(buckets.get(n, 0))) for n, (label, _) in enumerate(DELAY_BUCKETS)
            ),
            undated=int(buckets.get(-1, 0)),
            kinds=tuple(
                sorted(((str(k), int(c)) for k, c in kinds), key=lambda kv: (-kv[1], kv[0]))
            ),
            verdicts=(
                ("silent", int(verdicts.get(1, 0))),
                ("acknowledged", int(verdicts.get(0, 0))),
                ("not judged", int(verdicts.get(-1, 0))),  # stored as -1 in the sums
            ),
            documents=0,
            revisions=0,
            edits=int(edits),
        )


def _feed_conditions(feed: FeedFilter | None) -> list[tuple[str, object]]:
    """The SQL conditions of a silent, headline or significant feed's edits (see
    ``feedsets``)."""
    if feed is None:
        return []
    found: list[tuple[str, object]] = [("e.event = ''", None)]
    if feed.what == "silent":  # each as its index has it (``FEED_INDEXES``)
        found.append(("e.silent = 1", None))
    elif feed.what == "headlines":
        found.append(("e.headline = 1", None))
    elif feed.what == "significant":
        found.append(("e.rank >= ?", SIGNIFICANT))
    else:  # pragma: no cover - the filters are ours (kinds' and terms' have tables)
        raise ValueError(f"unknown feed filter {feed.what!r}")
    return found


def time_key(ref: EditRef) -> tuple[str, str, int]:
    """``ref``'s place by time (:data:`listing.BY_TIME`)."""
    key: tuple[str, str, int] = BY_TIME(ref)
    return key
