"""``quietedit export sqlite --update``: a database brought up to date (I/O).

A year's archive takes minutes of CPU to export whole, and a week changes a few
thousand of its documents. The update opens the database an export wrote (last week's
release asset), finds the documents whose files changed since (their stamps,
:mod:`quietedit.export.state`), and replaces just their rows:

1. **Gather.** In a git checkout, a day's folder whose tree id is the one recorded (and
   none of whose documents differ from the commit) is unchanged whole: its documents
   keep their rows, unread. In the other days, a document whose folder's tree id is the
   one recorded is unchanged. Outside git every document's content key is computed
   (a read of its record and newest files).
2. **Decide.** New documents and those whose stamp moved are read again (as the full
   export reads them, in ``jobs`` processes), and so are those whose texts' numbers
   moved (the documents of a day that gained or lost one, and of the days after a day
   that outgrew its room: :mod:`~quietedit.export.numbering`); documents no longer in the
   archive go.
3. **Apply**, in one SQLite transaction: each such document's rows are deleted from
   every table keyed by document, with their entries in the full-text indexes, and its
   new rows inserted (their texts numbered by the document's slot, as a full export
   numbers them: :mod:`~quietedit.export.numbering`); the stories of the days whose
   articles changed are grouped again; sources and feed entries, which any document may
   change, are written again whole.

The result holds the same rows as a full export of the same archive (a test compares
every table after rounds of changes); its bytes differ (pages freed and reused, index
segments not merged), so a full export stays the reference for byte-for-byte checks.

**One transaction, not a copy.** The database is changed in place inside one
transaction, in SQLite's rollback-journal mode: the journal holds the original of each
page the update changes, a few hundred MB for a week of a year's archive, where a copy
of the file to change and rename would need the whole file again (6 GB for a year).
An update that is interrupted leaves the journal beside the database, and SQLite rolls
it back the next time the file is opened: OUT is the old database, never a half-updated
one. Anything that makes the old rows untrustworthy (no database at OUT, a damaged or
foreign file, another export version, analysis version, feeds.yaml's sources, or a git
checkout then but not now) gives a full export instead, with the reason.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.archive import treeids
from quietedit.archive.store import Archive
from quietedit.article.identity import is_document_id
from quietedit.errors import ArchiveError, ExportError
from quietedit.export import numbering, state
from quietedit.export import sqlite as full
from quietedit.export.schema import (
    BLOCKS,
    DERIVED,
    DOCUMENTS,
    EDIT_KINDS,
    EDIT_OPS,
    EDIT_SIGNALS,
    EDITS,
    EVENTS,
    PROVENANCE,
    REVISIONS,
    TABLES,
    TEXTS,
    Table,
)
from quietedit.export.sqlite import DocumentRows, ExportReport, SourceInfo
from quietedit.export.workers import forked, streamed
from quietedit.export.writer import CACHE_KIB, REMOVED_FTS
from quietedit.publish.stories import Sketched, StoryState

logger = logging.getLogger(__name__)

BY_PREFIX: Final = (
    (REVISIONS, "id"),
    (BLOCKS, "revision"),
    (EDITS, "id"),
    (EDIT_OPS, "edit"),
    (EDIT_KINDS, "edit"),
    (EDIT_SIGNALS, "edit"),
    (EVENTS, "id"),
    (DERIVED, "id"),
)
"""Tables whose rows of a document are keyed ``<document>/…`` in the column named."""
BY_DOCUMENT: Final = ((PROVENANCE, "document"), (DOCUMENTS, "id"))
"""Tables whose rows of a document have its id in the (first key) column named."""
KEYED_BY_DOCUMENT: Final = frozenset(t.name for t, _ in (*BY_PREFIX, *BY_DOCUMENT)) | {TEXTS.name}
"""Every table whose rows belong to one document; the others (sources, stories, feed
entries) are written again whole by an update."""

_STAMP_CHUNK: Final = 2000
"""Documents a worker stamps by their content at a time (outside git)."""


@dataclass(frozen=True, slots=True)
class Changes:
    """What an update reads again and deletes."""

    read: list[tuple[str, str]]  # (partition, document): new, or changed since
    removed: list[str]  # recorded, no longer in the archive
    unchanged: int
    stamps: dict[str, str]  # the current stamps of those read again, where known
    slots: dict[str, int] = field(default_factory=dict)  # every document's, as listed now
    renumbered: int = 0  # read again only because their texts' numbers moved


def update_sqlite(
    archive: Archive,
    out: Path,
    *,
    sources: Sequence[SourceInfo] = (),
    site_cache: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    optimize: bool = False,
) -> ExportReport:
    """Bring the database an export wrote at ``out`` up to date with ``archive`` (module
    docstring), or export the archive whole to ``out`` when its rows cannot be trusted
    (the report's ``note`` says why). Arguments as :func:`~quietedit.export.sqlite.
    export_sqlite`'s; ``progress`` is called with (documents read, documents to read).
    ``optimize``: then merge each full-text index into one segment, as a full export
    leaves it (:func:`merge_text_indexes`)."""
    reason = state.readable(out)
    conn: sqlite3.Connection | None = None
    previous: state.Previous | str = reason or ""
    if reason is None:
        try:
            conn = sqlite3.connect(out, isolation_level=None)
            previous = state.read_previous(conn)
        except sqlite3.Error as exc:
            previous = f"it cannot be opened ({exc})"
    plan = full.Plan(archive, sources, site_cache, full.feed_records(archive))
    trees: treeids.Trees | None = None
    if isinstance(previous, state.Previous):
        trees = treeids.read(archive.root, previous.folders or None)
        reason = previous.mismatch(full.fingerprint(plan, trees))
    else:
        reason = previous
    if reason is not None or conn is None or not isinstance(previous, state.Previous):
        if conn is not None:
            conn.close()
        logger.warning("%s: exporting the whole archive: %s", out, reason)
        report = full.export_sqlite(
            archive, out, sources=sources, site_cache=site_cache, jobs=jobs, progress=progress
        )
        report.note = f"exported whole: {reason}"
        return report
    report = ExportReport(out)
    try:
        changes = find_changes(archive, previous, trees, jobs=jobs)
        _apply(conn, plan, trees, previous, changes, report, jobs=jobs, progress=progress)
        if optimize:
            merge_text_indexes(conn)
    except sqlite3.Error as exc:
        raise ExportError(out, f"SQLite failed: {exc}; the database is as it was") from exc
    finally:
        conn.close()
    renumbered = (
        f"; {changes.renumbered} of them for their texts' numbers" if changes.renumbered else ""
    )
    report.note = (
        f"updated: {len(changes.read)} documents read again (new or changed{renumbered}), "
        f"{len(changes.removed)} removed, {changes.unchanged} unchanged"
        + ("; full-text indexes merged" if optimize else "")
    )
    return report


TEXT_INDEXES: Final = (*(f"{t.name}_fts" for t in TABLES if t.search), REMOVED_FTS)
"""Every full-text index of the database."""


def merge_text_indexes(conn: sqlite3.Connection) -> None:
    """Merge each full-text index into one segment (FTS5's ``optimize``), in a transaction
    of its own after the update's: an update adds a segment to each index every week,
    which searches then read one by one, where a full export leaves one. The rows do not
    change; an interrupted merge leaves the updated database as it was."""
    conn.execute("BEGIN IMMEDIATE")
    for name in TEXT_INDEXES:
        conn.execute(f'INSERT INTO "{name}"("{name}") VALUES (\'optimize\')')  # noqa: S608 - schema names
    conn.execute("COMMIT")


def find_changes(
    archive: Archive, previous: state.Previous, trees: treeids.Trees | None, *, jobs: int
) -> Changes:
    """The documents to read again and to delete (module docstring, step 1)."""
    recorded = previous.documents
    partitions = archive.partitions()
    if trees is None:
        listed = archive.documents(partitions)
        current = _content_stamps(archive, listed, jobs=jobs)
    else:
        dirty = set()
        for doc in trees.dirty:  # folders whose files differ from the commit
            if not is_document_id(doc):
                continue  # a day's checks file: no row of the export comes from it
            seen = recorded.get(doc)
            where = seen.partition if seen is not None else archive.partition(doc)
            if where is None:  # a folder the index does not know: look at every day
                dirty.update(partitions)
            else:
                dirty.add(where)
        folders = trees.partitions
        moved = [
            p
            for p in partitions
            if p in dirty or p not in folders or folders[p] != previous.folders.get(p)
        ]
        kept = set(partitions) - set(moved)
        listed = sorted(
            [(r.partition, doc) for doc, r in recorded.items() if r.partition in kept]
            + archive.documents(moved)
        )
        current = {doc: r.stamp for doc, r in recorded.items() if r.partition in kept}
        current.update(state.git_stamps(archive.layout, moved, trees))
        for partition, doc in listed:
            if doc not in current:  # differs from the commit, or not committed
                try:
                    current[doc] = state.content_stamp(archive.layout, partition, doc)
                except ArchiveError:
                    current[doc] = state.FAILED  # read again: the read says what is wrong
    # a day that gained or lost a document numbers its texts anew, and the days after it
    # too when it outgrew its room (quietedit.export.numbering)
    slots = numbering.slots(listed)
    before = numbering.slots((r.partition, doc) for doc, r in recorded.items())
    read = []
    renumbered = 0
    for partition, doc in listed:
        seen = recorded.get(doc)
        stamp = current.get(doc, state.FAILED)
        if (
            seen is None
            or seen.partition != partition
            or stamp in (state.FAILED, "")
            or (seen.stamp != stamp)
        ):
            read.append((partition, doc))
        elif before[doc] != slots[doc]:
            read.append((partition, doc))
            renumbered += 1
    present = {doc for _, doc in listed}
    removed = sorted(doc for doc in recorded if doc not in present)
    stamps = {doc: current[doc] for _, doc in read if current.get(doc)}
    return Changes(read, removed, len(listed) - len(read), stamps, slots, renumbered)


def _content_stamps(
    archive: Archive, listed: list[tuple[str, str]], *, jobs: int
) -> dict[str, str]:
    """Every listed document's content stamp (those that cannot be read left out)."""
    chunks = [listed[i : i + _STAMP_CHUNK] for i in range(0, len(listed), _STAMP_CHUNK)]
    global _ARCHIVE
    _ARCHIVE = archive
    try:
        with forked(jobs) as mapper:
            found: dict[str, str] = {}
            for part in mapper(_stamp_chunk, chunks):
                found.update(part)
    finally:
        _ARCHIVE = None
    return found


_ARCHIVE: Archive | None = None  # the archive of a stamping worker, set before it forks


def _stamp_chunk(chunk: list[tuple[str, str]]) -> dict[str, str]:
    archive = _ARCHIVE
    assert archive is not None  # noqa: S101 - set before the pool forks
    found = {}
    for partition, doc in chunk:
        try:
            found[doc] = state.content_stamp(archive.layout, partition, doc)
        except ArchiveError:
            continue  # read again: the read says what is wrong
    return found


def _apply(
    conn: sqlite3.Connection,
    plan: full.Plan,
    trees: treeids.Trees | None,
    previous: state.Previous,
    changes: Changes,
    report: ExportReport,
    *,
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Steps 2 and 3 of the module docstring, in one transaction."""
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    conn.execute("PRAGMA journal_mode = DELETE")  # as a full export leaves it
    conn.execute("BEGIN IMMEDIATE")
    counts = report.rows
    for table in TABLES:
        counts[table.name] = 0
    stories = StoryState(
        documents={
            doc: Sketched(r.source, r.first_seen, r.sketch)
            for doc, r in previous.documents.items()
            if r.sketch
        },
        chunks=dict(previous.days),
        loaded={
            doc: (r.source, r.first_seen, r.sketch, "")
            for doc, r in previous.documents.items()
            if r.sketch
        },
    )
    for doc in changes.removed:
        delete_document(conn, doc)
        stories.documents.pop(doc, None)
    # all old rows out before any new ones go in: a document renumbered may take numbers
    # another document read again had
    for _, doc in changes.read:
        if doc in previous.documents:
            delete_document(conn, doc)
    state.delete_documents(conn, changes.removed)
    plan = full.Plan(
        plan.archive, plan.sources, plan.site_cache, plan.feeds, changes.stamps, changes.slots
    )
    full.set_plan(plan)
    try:
        recorded: dict[str, state.Recorded] = {}
        done = 0
        with streamed(jobs) as pool:
            for batch, found_rows in zip(
                full.batches(changes.read),
                pool(full.rows_of_batch, full.batches(changes.read)),
                strict=True,
            ):
                for (partition, doc), (_, found) in zip(batch, found_rows, strict=True):
                    stories.documents.pop(doc, None)
                    if isinstance(found, str):
                        logger.error("%s: %s", doc, found)
                        report.failures.append(f"{doc}: {found}")
                        recorded[doc] = state.Recorded(partition, state.FAILED, "", "", None)
                        continue
                    recorded[doc] = found.recorded(partition)
                    if found.tables:
                        insert_document(conn, found, counts)
                        if found.story is not None:
                            stories.documents[doc] = found.story
                done += len(batch)
                if progress is not None:
                    progress(done, len(changes.read))
        state.write_documents(conn, recorded)
        stored: dict[str, str | None] = dict(conn.execute('SELECT id, url FROM "documents"'))
        used = {source for (source,) in conn.execute('SELECT DISTINCT source FROM "documents"')}
        before = dict(stories.chunks)
        full.shared_rows(_Rewrite(conn, counts), plan, stories, stored, used, jobs=jobs)
    finally:
        full.set_plan(None)
    state.write_meta(conn, full.fingerprint(plan, trees))
    state.write_folders(conn, trees.folders if trees is not None else {})
    state.write_days(conn, stories.chunks, before)
    conn.execute("COMMIT")


class _Rewrite:
    """Writes a table not keyed by document again whole: its rows deleted at the first
    call, then each call's rows inserted."""

    def __init__(self, conn: sqlite3.Connection, counts: dict[str, int]) -> None:
        self.conn = conn
        self.counts = counts
        self.cleared: set[str] = set()

    def __call__(self, table: Table, found: list[tuple[Any, ...]]) -> None:
        if table.name not in self.cleared:
            self.conn.execute(f'DELETE FROM "{table.name}"')  # noqa: S608 - a schema name
            self.cleared.add(table.name)
        _insert(self.conn, table, found)
        self.counts[table.name] += len(found)


def _insert(conn: sqlite3.Connection, table: Table, found: list[tuple[Any, ...]]) -> None:
    names = ", ".join(f'"{c}"' for c in table.column_names)
    marks = ", ".join("?" for _ in table.columns)
    conn.executemany(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', found)  # noqa: S608


def _span(doc: str) -> tuple[str, str]:
    """The bounds of the keys ``<doc>/…``: '0' follows '/', and an id holds no '/'."""
    return f"{doc}/", f"{doc}0"


def _marks(values: list[int]) -> Iterator[tuple[str, list[int]]]:
    for start in range(0, len(values), 500):
        part = values[start : start + 500]
        yield ", ".join("?" for _ in part), part


def delete_document(conn: sqlite3.Connection, doc: str) -> None:
    """Every row of ``doc`` in the tables keyed by document, with its entries in the
    full-text indexes (an index of external content is told the values it indexed)."""
    low, high = _span(doc)
    texts = [
        t
        for (t,) in conn.execute(
            'SELECT DISTINCT "text" FROM "blocks" WHERE revision >= ? AND revision < ?',
            (low, high),
        )
    ]
    (newest,) = conn.execute(
        'SELECT max(number) FROM "revisions" WHERE document = ?', (doc,)
    ).fetchone()
    kept = {
        t
        for (t,) in conn.execute(
            'SELECT "text" FROM "blocks" WHERE revision = ?', (f"{doc}/{newest}",)
        )
    }
    for marks, part in _marks(sorted(texts)):
        select = f'SELECT id, "text" FROM "texts" WHERE id IN ({marks})'  # noqa: S608 - marks only
        found = conn.execute(select, part).fetchall()
        conn.executemany(
            "INSERT INTO texts_fts (texts_fts, rowid, \"text\") VALUES ('delete', ?, ?)", found
        )
        conn.executemany(
            f"INSERT INTO {REMOVED_FTS} ({REMOVED_FTS}, rowid, \"text\") VALUES ('delete', ?, ?)",  # noqa: S608
            [row for row in found if row[0] not in kept],
        )
        conn.execute(f'DELETE FROM "texts" WHERE id IN ({marks})', part)  # noqa: S608 - marks only
    titles = conn.execute(
        'SELECT rowid, title FROM "revisions" WHERE id >= ? AND id < ?', (low, high)
    ).fetchall()
    conn.executemany(
        "INSERT INTO revisions_fts (revisions_fts, rowid, title) VALUES ('delete', ?, ?)", titles
    )
    for table, column in BY_PREFIX:
        conn.execute(
            f'DELETE FROM "{table.name}" WHERE "{column}" >= ? AND "{column}" < ?',  # noqa: S608
            (low, high),
        )
    for table, column in BY_DOCUMENT:
        conn.execute(f'DELETE FROM "{table.name}" WHERE "{column}" = ?', (doc,))  # noqa: S608


_TEXT_ID: Final = TEXTS.column_names.index("id")
_TEXT_BODY: Final = TEXTS.column_names.index("text")
_REVISION_ID: Final = REVISIONS.column_names.index("id")


def insert_document(conn: sqlite3.Connection, found: DocumentRows, counts: dict[str, int]) -> None:
    """A document's rows, with their entries in the full-text indexes."""
    for table in TABLES:
        made = found.tables.get(table.name)
        if not made:
            continue
        _insert(conn, table, made)
        counts[table.name] += len(made)
    texts = [(row[_TEXT_ID], row[_TEXT_BODY]) for row in found.tables.get(TEXTS.name, [])]
    conn.executemany('INSERT INTO texts_fts (rowid, "text") VALUES (?, ?)', texts)
    removed = set(found.removed)
    conn.executemany(
        f'INSERT INTO {REMOVED_FTS} (rowid, "text") VALUES (?, ?)',  # noqa: S608 - a constant
        [row for row in texts if row[0] in removed],
    )
    for row in found.tables.get(REVISIONS.name, []):
        conn.execute(
            "INSERT INTO revisions_fts (rowid, title) "
            'SELECT rowid, title FROM "revisions" WHERE id = ?',
            (row[_REVISION_ID],),
        )
