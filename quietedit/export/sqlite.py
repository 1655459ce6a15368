"""``quietedit export sqlite``: the archive as one SQLite database, ready for Datasette.

Gather, decide, apply, one document at a time: each document is read through the
archive's API (:class:`~quietedit.archive.store.Archive`), its consecutive revisions are
compared exactly as the site compares them (:func:`~quietedit.publish.changes.
compare_revisions`, live blogs included), its rows are made by
:mod:`quietedit.export.rows`, and they are written in batches, so memory holds one batch
of documents, never the archive. The tables are those of :mod:`quietedit.export.schema`;
full-text indexes (FTS5) are built at the end.

The database is written to a temporary file beside ``OUT`` and renamed over it only when
it is complete, so a crash never leaves half a database at ``OUT``. The same archive
gives the same database, byte for byte: rows go in sorted by document, in one order, with
a fixed page size, and nothing records the time of the export.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Final

import sqlite_utils

from quietedit.archive.store import Archive
from quietedit.errors import ExportError, QuieteditError
from quietedit.export import rows
from quietedit.export.rows import DocumentData, Row
from quietedit.export.schema import (
    BLOCKS,
    DOCUMENTS,
    EDIT_KINDS,
    EDIT_OPS,
    EDIT_SIGNALS,
    EDITS,
    EVENTS,
    FEED_ENTRIES,
    PROVENANCE,
    REVISIONS,
    SOURCES,
    TABLES,
    TEXTS,
    Table,
)
from quietedit.model import JSON
from quietedit.publish.changes import compare_revisions
from quietedit.publish.live import live_pairs
from quietedit.publish.text import host_slug, safe_http_url

logger = logging.getLogger(__name__)

PAGE_SIZE: Final = 4096
"""SQLite's default page size, fixed so the file does not depend on the library's build."""
BATCH_DOCUMENTS: Final = 500
"""Documents whose rows are held before they are written: a few MB of rows."""


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """A source as feeds.yaml names it."""

    slug: str
    name: str
    url: str
    kind: str = "feed"


@dataclass(slots=True)
class ExportReport:
    """What an export wrote: rows per table, and the documents it could not read."""

    out: Path
    rows: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        counts = ", ".join(f"{n} {name}" for name, n in self.rows.items())
        return f"{self.out}: {counts}" + (
            f"; {len(self.failures)} documents could not be read" if self.failures else ""
        )


def read_document(
    archive: Archive, partition: str, doc: str, *, configured: frozenset[str]
) -> DocumentData:
    """Gather one document and compare its revisions as the site does."""
    revisions = archive.revisions(doc, shallow=True)
    record = archive.read_document(doc) or {}
    events = archive.events(doc)
    live = live_pairs(events)
    comparisons = []
    for old, new in pairwise(revisions):
        comparison = compare_revisions(old, new, live=live(old.number, new.number))
        comparisons.append((comparison.diff, comparison.classification))
    return DocumentData(
        id=doc,
        partition=partition,
        source=source_of(record, configured),
        record=record,
        revisions=revisions,
        events=events,
        comparisons=comparisons,
    )


def source_of(record: dict[str, JSON], configured: frozenset[str]) -> str:
    """The source a document is listed under, as the site decides it: its first feed in
    ``configured``, else its first feed whose slug is a host's, else its URL's host."""
    feeds = record.get("feeds")
    slugs = [f for f in feeds if isinstance(f, str)] if isinstance(feeds, list) else []
    for slug in slugs:
        if slug in configured:
            return slug
    for slug in slugs:
        if host_slug(f"https://{slug}") == slug:
            return slug
    return host_slug(safe_http_url(record.get("url")))


def export_sqlite(
    archive: Archive,
    out: Path,
    *,
    sources: Sequence[SourceInfo] = (),
    progress: Callable[[int, int], None] | None = None,
) -> ExportReport:
    """Write the archive to the SQLite database ``out`` (replaced atomically when done).

    ``sources`` are feeds.yaml's (their names win over the feed records'); ``progress``
    is called with (documents done, documents) after each batch. Documents that cannot be
    read are listed in the report's ``failures`` and left out; the rest is written.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    report = ExportReport(out)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            _write(conn, archive, sources, report, progress)
        finally:
            conn.close()
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, out)
    except sqlite3.Error as exc:
        raise ExportError(out, f"SQLite failed: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return report


class _Writer:
    """Rows held per table, written in batches in the order they came."""

    def __init__(self, db: sqlite_utils.Database, report: ExportReport) -> None:
        self.db = db
        self.report = report
        self.held: dict[str, list[Row]] = {t.name: [] for t in TABLES}

    def add(self, table: Table, found: Iterable[Row]) -> None:
        self.held[table.name].extend(found)

    def flush(self) -> None:
        self.db.conn.execute("BEGIN")
        for table in TABLES:
            held = self.held[table.name]
            if held:
                columns = [c.name for c in table.columns]
                placeholders = ", ".join("?" for _ in columns)
                names = ", ".join(f'"{c}"' for c in columns)
                self.db.conn.executemany(
                    f'INSERT INTO "{table.name}" ({names}) VALUES ({placeholders})',  # noqa: S608 - names from the schema
                    ([row[c] for c in columns] for row in held),
                )
                self.report.rows[table.name] += len(held)
                held.clear()
        self.db.conn.execute("COMMIT")


def _write(
    conn: sqlite3.Connection,
    archive: Archive,
    sources: Sequence[SourceInfo],
    report: ExportReport,
    progress: Callable[[int, int], None] | None,
) -> None:
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = OFF")  # a temporary file: a crash discards it whole
    conn.execute("PRAGMA synchronous = OFF")
    db = sqlite_utils.Database(conn)
    for table in TABLES:
        db.table(table.name).create(
            table.column_types(),
            pk=table.pk[0] if len(table.pk) == 1 else table.pk,
            foreign_keys=list(table.foreign_keys),
        )
        report.rows[table.name] = 0
    writer = _Writer(db, report)
    known = {s.slug: s for s in sources}
    feed_records = {slug: archive.read_feed(slug) or {} for slug in archive.feed_slugs()}
    configured = frozenset(known) if known else frozenset(feed_records)
    listed = archive.documents()
    texts = rows.TextIds()
    stored: set[str] = set()
    used_sources: set[str] = set()
    for done, (partition, doc) in enumerate(listed, start=1):
        try:
            data = read_document(archive, partition, doc, configured=configured)
        except QuieteditError as exc:
            logger.error("%s: %s", doc, exc)
            report.failures.append(f"{doc}: {exc}")
            continue
        if data.revisions:
            _add_document(writer, data, texts)
            stored.add(doc)
            used_sources.add(data.source)
        if done % BATCH_DOCUMENTS == 0 or done == len(listed):
            writer.flush()
            if progress is not None:
                progress(done, len(listed))
    writer.add(SOURCES, _source_rows(known, feed_records, used_sources))
    for slug, record in sorted(feed_records.items()):
        writer.add(FEED_ENTRIES, rows.feed_entry_rows(slug, record, stored))
    writer.flush()
    for table in TABLES:
        for columns in table.indexes:
            db.table(table.name).create_index(list(columns))
        if table.search:
            db.table(table.name).enable_fts(list(table.search), create_triggers=False)
            db.table(table.name).populate_fts(list(table.search))
    conn.execute("PRAGMA journal_mode = DELETE")


def _add_document(writer: _Writer, data: DocumentData, texts: rows.TextIds) -> None:
    writer.add(DOCUMENTS, [rows.document_row(data)])
    writer.add(REVISIONS, rows.revision_rows(data))
    text_rows, block_rows = texts.rows(data)
    writer.add(TEXTS, text_rows)
    writer.add(BLOCKS, block_rows)
    writer.add(EDITS, rows.edit_rows(data))
    writer.add(EDIT_OPS, rows.edit_op_rows(data))
    writer.add(EDIT_KINDS, rows.edit_kind_rows(data))
    writer.add(EDIT_SIGNALS, rows.edit_signal_rows(data))
    writer.add(EVENTS, rows.event_rows(data))
    writer.add(PROVENANCE, rows.provenance_rows(data))


def _source_rows(
    known: dict[str, SourceInfo], feeds: dict[str, dict[str, JSON]], used: set[str]
) -> list[Row]:
    """feeds.yaml's sources, the feed records' and the hosts documents are listed under."""
    found = []
    for slug in sorted(set(known) | set(feeds) | used):
        record = feeds.get(slug, {})
        source = known.get(slug)
        name = source.name if source else record.get("name")
        url = source.url if source else record.get("url")
        if source is not None:
            kind = source.kind
        elif record:
            kind = "homepage" if record.get("kind") == "homepage" else "feed"
        else:
            kind = "host"
        found.append(
            rows.source_row(
                slug,
                name=name if isinstance(name, str) else None,
                url=url if isinstance(url, str) else None,
                kind=kind,
                active=record.get("active") if record else (True if source else None),
            )
        )
    return found
