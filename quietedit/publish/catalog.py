"""The build cache as a build writes and queries it: every document's row, up to date.

An hourly build reads and renders the documents that changed, not the year behind them:
what the site-wide pages need of every document (how many there are per source and per
day, the months' sizes, the articles of a sitemap, the edits of a listing page or a
feed) is asked of the cache database (``buildcache``; the edits of its ``edits`` table,
``edittable``) once this build's rows are in it, so that SQLite, not Python, walks the
year's rows. :meth:`Catalog.begin` opens the database for writing once every render
worker has been forked:

- after a build that left a cache, in place, in one transaction: the rows of documents
  this build rendered (or restamped) are written, those of documents gone deleted, the
  rest left as they are;
- otherwise (a full build, no usable cache) a fresh file under a temporary name, with
  every document's row, renamed over the old one by :meth:`Catalog.finish`.

Either way a build that fails or is killed before :meth:`Catalog.finish` leaves the
previous cache (the transaction rolls back; the temporary file is dropped).

Rows read whole are checked against their checksum (``CacheDamagedError`` otherwise: the
build starts again in full); sums and counts trust SQLite's own structure checks, and the
edit references every listing needs are checked for their shape and document alone.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import zlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from quietedit.publish import buckets, folding
from quietedit.publish.buckets import bucket_key
from quietedit.publish.buildcache import (
    INSERT_DOCUMENT,
    JOURNALS,
    STATE_FILE,
    BuildState,
    check_schema,
    create_tables,
    drop_leftovers,
    stored_row,
)
from quietedit.publish.cacherows import COLUMNS, CacheDamagedError, DocumentEntry
from quietedit.publish.edittable import (
    EditTable,
    check_edits,
    delete_edits,
    insert_edits,
    replace_edits,
    row_counts,
)
from quietedit.publish.listing import DocumentSummary, EditRef

logger = logging.getLogger(__name__)

_MONTH = "replace(substr(partition, 1, 7), '/', '-')"
"""SQL for a document's month, ``2026-09``, from its partition ``2026/09/30``."""


_PARTITIONS_OF: Final = (
    "SELECT id, partition FROM documents WHERE id IN (SELECT value FROM json_each(?))"
)
_ARTICLES_FROM = "SELECT COUNT(*) FROM documents WHERE published = 1 AND (first_seen, id) >= (?, ?)"
"""How many documents with pages come from a place on, in the order first seen."""


def not_folded(folded: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    """An SQL condition (and its parameters) for documents outside the ``folded`` months."""
    if not folded:
        return "1", ()
    return f"{_MONTH} NOT IN ({', '.join('?' * len(folded))})", tuple(sorted(folded))


NEWEST_OBSERVATION: Final = (
    "SELECT MAX(newest) FROM (SELECT MAX(last_seen) AS newest FROM documents"
    " WHERE published = 0 UNION ALL"
    " SELECT MAX(last_seen) FROM documents WHERE published = 1)"
)
"""The newest last sight of any document, each half from the end of the index
``documents_seen`` (not a scan of every row)."""


class Catalog:
    """The cache database opened for writing by one build (see the module docstring)."""

    def __init__(self, db: sqlite3.Connection, path: Path, tmp: Path | None) -> None:
        self.db = db
        self.path = path
        self.tmp = tmp  # the fresh file written whole, renamed over ``path`` at the end
        # the edit references this build added, removed or changed (``None``: written
        # whole, so any may have)
        self.changes: set[EditRef] | None = None if tmp is not None else set()
        self.inserted: set[str] = set()  # the documents written to a fresh file
        # the buckets of the documents whose rows were written, restamped or deleted in
        # place: their ``buckets`` rows are made anew (``buckets.refresh``)
        self.touched: set[str] = set()

    @property
    def fresh(self) -> bool:
        """Whether this is a new file, holding only the rows written to it."""
        return self.tmp is not None

    @classmethod
    def begin(cls, cache_root: Path, previous: BuildState, *, whole: bool) -> Catalog:
        """Open the cache for this build's writes: in place, unless ``whole`` or the
        previous cache cannot be written (then a fresh file)."""
        cache_root.mkdir(parents=True, exist_ok=True)
        path = cache_root / STATE_FILE
        if not whole and previous.loaded and path.is_file():
            db = sqlite3.connect(path, isolation_level=None)
            try:
                db.execute("BEGIN IMMEDIATE")
                check_schema(db)
                check_edits(db)
            except sqlite3.Error as exc:
                db.close()
                logger.warning("build cache %s: %s; writing it whole", path, exc)
            else:
                if previous.reader is not None:
                    previous.reader.via = cls(db, path, None).rows
                return cls(db, path, None)
        tmp = cache_root / f"{STATE_FILE}.{os.getpid()}.tmp"
        tmp.unlink(missing_ok=True)
        db = sqlite3.connect(tmp, isolation_level=None)
        # a fresh file renamed into place when complete: no journal needed
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        create_tables(db)
        db.execute("BEGIN")
        return cls(db, path, tmp)

    # -- writes

    def write(self, entries: dict[str, DocumentEntry]) -> None:
        """Store the rows of ``entries`` (by id); in place, only those not read unchanged
        from this very cache."""
        written = {
            doc: entry for doc, entry in sorted(entries.items()) if self.fresh or entry.row is None
        }
        rows = [stored_row(d, e) for d, e in written.items()]  # before: some read the old
        self.touched.update(
            bucket_key(e.partition, d) for d, e in entries.items() if d in written or e.restamp
        )
        self.db.executemany("DELETE FROM documents WHERE id = ?", [(d,) for d in written])
        self.db.executemany(INSERT_DOCUMENT, rows)
        if self.changes is None:  # a fresh file: rows of edits only of what it was given
            delete_edits(self.db, [doc for doc in written if doc in self.inserted])
            self.inserted.update(written)
            insert_edits(self.db, [(d, e.month, e.refs) for d, e in written.items() if e.has_edits])
        else:
            for doc, entry in written.items():
                self.changes |= replace_edits(self.db, doc, entry.month, entry.refs)
        if not self.fresh:  # a new stamp alone: the row stays, its stamp and checksum move
            self.db.executemany(
                "UPDATE documents SET stamp = ?, crc32 = ? WHERE id = ?",
                [(e.stamp, e.crc, doc) for doc, e in sorted(entries.items()) if e.restamp],
            )

    def delete(self, ids: Iterable[str]) -> None:
        docs = sorted(ids)
        places = self.db.execute(_PARTITIONS_OF, (json.dumps(docs),)).fetchall()
        self.touched.update(bucket_key(str(partition), str(doc)) for doc, partition in places)
        self.db.executemany("DELETE FROM documents WHERE id = ?", [(d,) for d in docs])
        gone = delete_edits(self.db, docs)
        if self.changes is not None:
            self.changes |= gone

    def edit_table(self, folded: frozenset[str]) -> EditTable:
        """The queries of the site-wide pages on every edit (``edittable``), for a site
        that folded the months ``folded``."""
        return EditTable(self.db, folded)

    def newest_observation(self) -> str:
        """When the newest revision of any document was observed ("" when none was)."""
        (newest,) = self.db.execute(NEWEST_OBSERVATION).fetchone()
        return str(newest or "")

    def finish(
        self,
        *,
        site: dict[str, tuple[str, str]],
        previous_site: dict[str, tuple[str, str]],
        folded: frozenset[str],
        fingerprint: str,
        share_since: str | None = None,
        listings: str = "",
        generation: str = "",
        bundles: Iterable[str] = (),
    ) -> int:
        """Write the site-wide files' rows (those of ``previous_site`` not in ``site``
        deleted, those of ``site`` written; the rest, a search bundle's kept whole, left)
        and the meta data (``bundles``: the search bundles whose files have rows), and make
        it all the cache. Returns how many site-wide files it records."""
        db = self.db
        old = {} if self.fresh else previous_site
        db.executemany("DELETE FROM site WHERE path = ?", [(p,) for p in old if p not in site])
        db.executemany(
            "INSERT OR REPLACE INTO site VALUES (?, ?, ?)",
            [(p, d, k) for p, (d, k) in sorted(site.items()) if old.get(p) != (d, k)],
        )
        meta = {
            "folded": json.dumps(sorted(folded)),
            "fingerprint": fingerprint,
            "share_since": share_since or "",  # the pages' share images (``share``)
            "listings": listings,  # what listing pages show besides their edits (``sitewide``)
            "generation": generation,  # which build wrote it (``storyrows``)
            "edit_rows": row_counts(db),  # checked when the next build opens it
            "bundles": json.dumps(sorted(bundles)),  # the search bundles' rows (``search``)
        }
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(meta.items()))
        buckets.refresh(db, None if self.fresh else self.touched)
        (files,) = db.execute("SELECT COUNT(*) FROM site").fetchone()
        db.execute("COMMIT")
        db.close()
        if self.tmp is not None:
            # a journal beside the old file belongs to it: beside the new one it would be
            # "rolled back" into it
            for suffix in JOURNALS:
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
            self.tmp.replace(self.path)
        drop_leftovers(self.path.parent)
        return int(files)

    def abort(self) -> None:
        """Leave the previous cache as it was (a build that failed)."""
        with contextlib.suppress(sqlite3.Error):
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            self.db.close()
        if self.tmp is not None:
            self.tmp.unlink(missing_ok=True)

    # -- reads

    def _select(self, where: str, params: tuple[object, ...] = ()) -> dict[str, DocumentEntry]:
        query = f"SELECT {COLUMNS}, crc32 FROM documents {where}"  # noqa: S608 - our own text
        out = {}
        for *fields, crc in self.db.execute(query, params).fetchall():
            try:
                doc, entry = DocumentEntry.from_row(tuple(fields), crc, self.rows)
            except ValueError as exc:
                raise CacheDamagedError(f"build cache: {exc}") from exc
            out[doc] = entry
        return out

    def rows(self, doc: str) -> str:
        """The edits' rows of ``doc`` (checked against their checksum)."""
        found = self.db.execute(
            "SELECT rows, rows_crc32 FROM documents WHERE id = ?", (doc,)
        ).fetchone()
        if found is None or zlib.crc32(str(found[0]).encode()) != found[1]:
            raise CacheDamagedError(f"build cache: edits of {doc!r} missing or damaged")
        return str(found[0])

    def entry(self, doc: str) -> DocumentEntry:
        """``doc``'s entry (``KeyError`` when it has none)."""
        return self._select("WHERE id = ?", (doc,))[doc]

    def ids(self) -> set[str]:
        return {doc for (doc,) in self.db.execute("SELECT id FROM documents")}

    def totals(self) -> tuple[int, int, int]:
        """Documents, their revisions and their files on the site."""
        count, revisions, files = self.db.execute(
            "SELECT TOTAL(documents), TOTAL(revisions), TOTAL(files) FROM document_sums"
        ).fetchone()
        return int(count), int(revisions), int(files)

    def sources(self) -> list[str]:
        """The source slugs of every document (from the sums: a few rows per day)."""
        query = "SELECT DISTINCT source FROM document_sums ORDER BY source"
        return [slug for (slug,) in self.db.execute(query)]

    def source_totals(self) -> dict[str, tuple[int, int, dict[str, int]]]:
        """Per source slug: documents, revisions and event counts."""
        events: dict[str, Counter[str]] = {}
        query = "SELECT source, events FROM documents WHERE events != '{}' ORDER BY id"
        for slug, text in self.db.execute(query):
            counts = json.loads(text)
            if not isinstance(counts, dict):
                raise CacheDamagedError("build cache: event counts of the wrong shape")
            events.setdefault(slug, Counter()).update(counts)
        query = (
            "SELECT source, TOTAL(documents), TOTAL(revisions) FROM document_sums GROUP BY source"
        )
        return {
            slug: (int(count), int(revisions), dict(sorted(events.get(slug, Counter()).items())))
            for slug, count, revisions in self.db.execute(query)
        }

    def days(self) -> list[tuple[str, int, int]]:
        """Per partition (``2026/09/30``, in order): documents and those with pages."""
        query = (
            "SELECT partition, TOTAL(documents), TOTAL(published) FROM document_sums"
            " GROUP BY partition ORDER BY partition"
        )
        return [(p, int(count), int(shown)) for p, count, shown in self.db.execute(query)]

    def day_documents(self, partition: str) -> list[DocumentSummary]:
        """The summaries of the documents first seen in ``partition``, by id."""
        found = self._select("WHERE partition = ? ORDER BY id", (partition,))
        return [entry.summary for entry in found.values()]

    def month_documents(self, month: str) -> list[DocumentSummary]:
        """The summaries of the documents with pages of ``month`` (``2026-09``), by id."""
        found = self._select(f"WHERE published = 1 AND {_MONTH} = ? ORDER BY id", (month,))
        return [entry.summary for entry in found.values()]

    def articles(self, folded: frozenset[str]) -> list[tuple[str, str]]:
        """``(id, last_seen)`` of the documents with pages outside ``folded`` months, in
        the order they were first seen."""
        where, params = not_folded(folded)
        query = (
            f"SELECT id, last_seen FROM documents WHERE published = 1 AND {where}"  # noqa: S608
            " ORDER BY first_seen, id"
        )
        return self.db.execute(query, params).fetchall()

    def articles_before(self, folded: frozenset[str], place: tuple[str, str]) -> int:
        """How many documents with pages outside ``folded`` months come before ``place``
        (``(first_seen, id)``) in the order of :meth:`articles`."""
        where, params = not_folded(folded)
        if not folded:  # all of them less those from ``place`` on: an hour's few, recent
            (every,) = self.db.execute("SELECT TOTAL(published) FROM document_sums").fetchone()
            (after,) = self.db.execute(_ARTICLES_FROM, place).fetchone()
            return int(every) - int(after)
        query = (
            f"SELECT COUNT(*) FROM documents WHERE published = 1 AND {where}"  # noqa: S608
            " AND (first_seen, id) < (?, ?)"
        )
        (count,) = self.db.execute(query, (*params, *place)).fetchone()
        return int(count)

    def articles_from(self, folded: frozenset[str], start: int) -> list[tuple[str, str]]:
        """:meth:`articles` from the ``start``-th on (counting from 0)."""
        where, params = not_folded(folded)
        query = (
            f"SELECT id, last_seen FROM documents WHERE published = 1 AND {where}"  # noqa: S608
            " ORDER BY first_seen, id LIMIT -1 OFFSET ?"
        )
        return self.db.execute(query, (*params, start)).fetchall()

    def newest_article(self, folded: frozenset[str]) -> str | None:
        """The newest last sight of the documents of :meth:`articles` (``None``: none)."""
        where, params = not_folded(folded)
        query = f"SELECT MAX(last_seen) FROM documents WHERE published = 1 AND {where}"  # noqa: S608
        (newest,) = self.db.execute(query, params).fetchone()
        return None if newest is None else str(newest)

    def shard_sources(self, folded: frozenset[str]) -> dict[str, tuple[str, str]]:
        """id → (source, partition) of the documents with pages outside ``folded`` months."""
        return shard_sources(self.db, folded)

    def month_sizes(self) -> dict[str, folding.MonthSize]:
        """Each month's estimated bytes with pages and folded (``folding``)."""
        query = (
            f"SELECT {_MONTH}, TOTAL(open_size), TOTAL(folded_size) FROM document_sums"  # noqa: S608
            " GROUP BY 1 ORDER BY 1"
        )
        return {m: folding.MonthSize(int(o), int(f)) for m, o, f in self.db.execute(query)}

    def refolded(self, folded: frozenset[str]) -> tuple[dict[str, DocumentEntry], list[str]]:
        """For a fold that moved to ``folded``: the entries of documents with files in a
        folded month (to lose them), and the documents with pages but no files outside
        them (to be rendered again)."""
        where, params = not_folded(folded)
        losing = {
            doc: entry
            for doc, entry in self._select("WHERE files > 0").items()
            if entry.month in folded
        }
        query = (
            f"SELECT id FROM documents WHERE published = 1 AND files = 0 AND {where}"  # noqa: S608
            " ORDER BY id"
        )
        return losing, [doc for (doc,) in self.db.execute(query, params)]


def shard_sources(db: sqlite3.Connection, folded: frozenset[str]) -> dict[str, tuple[str, str]]:
    """id → (source, partition) of the documents with pages outside ``folded`` months."""
    where, params = not_folded(folded)
    query = f"SELECT id, source, partition FROM documents WHERE published = 1 AND {where}"  # noqa: S608
    return {doc: (source, partition) for doc, source, partition in db.execute(query, params)}


def prune_diffs(cache_root: Path, alive: set[str] | None, gone: set[str]) -> None:
    """Drop the computed comparisons of documents gone (of every document not ``alive``,
    when given: a full build looks at each file), and what an older cache layout or an
    interrupted search index left in the cache folder."""
    folder = cache_root / "diffs"
    for doc in gone:
        (folder / f"{doc}.json").unlink(missing_ok=True)
    if alive is not None and folder.is_dir():
        for path in folder.glob("*.json"):
            if path.stem not in alive:
                path.unlink()
    shutil.rmtree(cache_root / "documents", ignore_errors=True)  # an older cache layout
    for leftover in cache_root.glob("search-*"):  # the work of an interrupted search index
        shutil.rmtree(leftover, ignore_errors=True)
