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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from pathlib import Path
from typing import Any, Final

from quietedit.analysis.stories import story_sketch
from quietedit.archive import treeids
from quietedit.archive.store import Archive
from quietedit.errors import ExportError, QuieteditError
from quietedit.export import numbering, rows, state
from quietedit.export.gather import gather_document
from quietedit.export.rows import DocumentData, Row
from quietedit.export.schema import (
    BLOCKS,
    DERIVED,
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
    STORIES,
    TABLES,
    TEXTS,
    Table,
)
from quietedit.export.workers import forked, streamed
from quietedit.export.writer import Writer, staging_path
from quietedit.ingest.feedrecords import with_departed
from quietedit.model import JSON, format_timestamp
from quietedit.publish.stories import (
    Sketched,
    StoryState,
    group_by_day,
    saved_sketches,
)

logger = logging.getLogger(__name__)

BATCH_DOCUMENTS: Final = 200
"""Documents read and compared as one unit of work, whose rows are written together."""


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
    note: str = ""
    """How an update went (``quietedit export sqlite --update``): what it read again, or
    why it exported the archive whole."""

    def summary(self) -> str:
        counts = ", ".join(f"{n} {name}" for name, n in self.rows.items())
        return (
            f"{self.out}: "
            + (f"{self.note}; rows written: " if self.note else "")
            + counts
            + (f"; {len(self.failures)} documents could not be read" if self.failures else "")
        )


def export_sqlite(
    archive: Archive,
    out: Path,
    *,
    sources: Sequence[SourceInfo] = (),
    site_cache: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ExportReport:
    """Write the archive to the SQLite database ``out`` (replaced atomically when done).

    ``sources`` are feeds.yaml's (their names win over the feed records'); ``site_cache``
    a site build's cache folder, whose saved comparisons are reused; ``jobs`` how many
    processes read and compare documents (the database is the same for any number);
    ``progress`` is called with (documents done, documents) after each batch. Documents
    that cannot be read are listed in the report's ``failures`` and left out.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    stage = staging_path(tmp)
    report = ExportReport(out)
    plan = Plan(archive, sources, site_cache)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            _write(conn, plan, report, jobs=jobs, stage=stage, progress=progress)
        finally:
            conn.close()
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, out)
    except sqlite3.Error as exc:
        raise ExportError(out, f"SQLite failed: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
        stage.unlink(missing_ok=True)
    return report


@dataclass(frozen=True, slots=True)
class Plan:
    """What every worker needs to read a document (inherited by fork)."""

    archive: Archive
    sources: Sequence[SourceInfo]
    site_cache: Path | None
    feeds: dict[str, dict[str, JSON]] = field(default_factory=dict)
    stamps: dict[str, str] = field(default_factory=dict)
    """The documents' stamps known before they are read (their git tree ids); the others
    are stamped by their content as they are read (:mod:`~quietedit.export.state`)."""
    slots: dict[str, int] = field(default_factory=dict)
    """Each document's slot, which numbers its texts (:mod:`~quietedit.export.numbering`)."""
    urls: dict[str, str] = field(default_factory=dict)
    """The documents exported, by their canonical URLs (for the feed entries' links)."""

    @property
    def configured(self) -> frozenset[str]:
        return frozenset(s.slug for s in self.sources) or frozenset(self.feeds)


_PLAN: Plan | None = None  # the plan of a worker process, set before it forks


def set_plan(plan: Plan | None) -> None:
    """Set the plan the worker processes forked next read documents by (``None``: done)."""
    global _PLAN
    _PLAN = plan


def feed_records(archive: Archive) -> dict[str, dict[str, JSON]]:
    """Every feed record of the archive, by slug."""
    return {slug: archive.read_feed(slug) or {} for slug in archive.feed_slugs()}


def rows_of_batch(batch: list[tuple[str, str]]) -> list[tuple[str, DocumentRows | str]]:
    """Read and turn into rows each document of ``batch``: its rows, or why it failed."""
    plan = _PLAN
    assert plan is not None  # noqa: S101 - set before the pool forks
    done: list[tuple[str, DocumentRows | str]] = []
    layout = plan.archive.layout
    sketches = (
        saved_sketches(plan.site_cache, (doc for _, doc in batch))
        if plan.site_cache is not None
        else {}
    )
    for partition, doc in batch:
        try:
            # stamped before it is read: a change made while it is read shows next time
            stamp = plan.stamps.get(doc) or state.content_stamp(layout, partition, doc)
            data = gather_document(
                plan.archive,
                partition,
                doc,
                configured=plan.configured,
                site_cache=plan.site_cache,
            )
            found = document_rows(data, slot=plan.slots[doc], sketch=sketches.get(doc))
        except QuieteditError as exc:
            done.append((doc, str(exc)))
            continue
        found.stamp = stamp
        done.append((doc, found))
    return done


@dataclass(slots=True)
class DocumentRows:
    """One document's rows by table, each a tuple of the table's columns in order:
    tuples, not dicts, cross from a worker process to the writer, without every column's
    name pickled again in every row."""

    source: str
    tables: dict[str, list[tuple[Any, ...]]]
    story: Sketched | None = None  # what the story grouping needs of it
    removed: list[int] = field(default_factory=list)  # texts the newest revision lacks
    stamp: str = state.FAILED  # its files' stamp, taken before they were read

    def recorded(self, partition: str) -> state.Recorded:
        """Its row of the update state."""
        story = self.story
        if story is None:
            return state.Recorded(partition, self.stamp, self.source, "", None)
        return state.Recorded(partition, self.stamp, self.source, story.first_seen, story.packed)


def document_rows(
    data: DocumentData, *, slot: int, sketch: tuple[int, ...] | None = None
) -> DocumentRows:
    """Every row of one document, by table, its texts numbered from its ``slot``
    (:mod:`~quietedit.export.numbering`); ``sketch``, its story sketch as a site build
    saved it, saves making it again. ``ExportError`` for a document of too many texts."""
    if not data.revisions:
        return DocumentRows(data.source, {})
    texts, blocks, removed = rows.text_and_block_rows(data, slot=slot)
    origins = data.provenance()
    first = data.revisions[0]
    seen = data.record.get("discovered_at", data.record.get("first_seen"))
    story = Sketched(  # as the site sketches it: the first revision, first sight
        data.source,
        seen if isinstance(seen, str) and seen else format_timestamp(first.observation.observed_at),
        sketch
        if sketch is not None
        else story_sketch(first.article.title, [block.text for block in first.article.blocks]),
    )
    found: tuple[tuple[Table, Iterable[Row]], ...] = (
        (DOCUMENTS, [rows.document_row(data, origins)]),
        (REVISIONS, rows.revision_rows(data)),
        (TEXTS, texts),
        (BLOCKS, blocks),
        (EDITS, rows.edit_rows(data)),
        (EDIT_OPS, rows.edit_op_rows(data)),
        (EDIT_KINDS, rows.edit_kind_rows(data)),
        (EDIT_SIGNALS, rows.edit_signal_rows(data)),
        (EVENTS, rows.event_rows(data)),
        (PROVENANCE, rows.provenance_rows(data, origins)),
        (DERIVED, rows.derived_rows(data)),
    )
    return DocumentRows(
        data.source,
        {table.name: _in_key_order(table, made) for table, made in found},
        story,
        removed,
    )


def _in_key_order(table: Table, found: Iterable[Row]) -> list[tuple[Any, ...]]:
    """A document's rows of ``table`` as tuples (:func:`_tuples`), sorted by key for a
    table stored in its key's order, which the writer appends them to
    (:mod:`~quietedit.export.writer`): ``<id>/10`` sorts before ``<id>/2``."""
    made = _tuples(table, found)
    if table.without_rowid and len(made) > 1:
        made.sort(key=_KEYS[table.name])
    return made


def _tuples(table: Table, found: Iterable[Row]) -> list[tuple[Any, ...]]:
    """``found`` as tuples of ``table``'s columns in order: a row made with its keys in
    that order (as :mod:`~quietedit.export.rows` makes them) gives its values as they are."""
    columns = _COLUMNS[table.name]
    return [
        tuple(row.values()) if tuple(row) == columns else tuple(row[c] for c in columns)
        for row in found
    ]


_COLUMNS: Final = {table.name: table.column_names for table in TABLES}
_DOCUMENT_URL: Final = DOCUMENTS.column_names.index("url")
_KEYS: Final = {
    table.name: itemgetter(*(table.column_names.index(c) for c in table.pk)) for table in TABLES
}


def batches(listed: list[tuple[str, str]]) -> Iterator[list[tuple[str, str]]]:
    for start in range(0, len(listed), BATCH_DOCUMENTS):
        yield listed[start : start + BATCH_DOCUMENTS]


def _write(
    conn: sqlite3.Connection,
    plan: Plan,
    report: ExportReport,
    *,
    jobs: int,
    stage: Path,
    progress: Callable[[int, int], None] | None,
) -> None:
    global _PLAN
    writer = Writer(conn, stage, report.rows)
    state.create(conn)
    plan, trees = prepared(plan)
    listed = plan.archive.documents()
    plan = replace(plan, slots=numbering.slots(listed))
    # in id order, the order of every table keyed by document (the writer appends to it)
    listed.sort(key=_document_id)
    _PLAN = plan
    stored: dict[str, str | None] = {}
    used_sources: set[str] = set()
    sketches: dict[str, Sketched] = {}
    recorded: dict[str, state.Recorded] = {}
    done = 0
    with streamed(jobs) as pool:
        for batch, found_rows in zip(
            batches(listed), pool(rows_of_batch, batches(listed)), strict=True
        ):
            for (partition, doc), (_, found) in zip(batch, found_rows, strict=True):
                if isinstance(found, str):
                    logger.error("%s: %s", doc, found)
                    report.failures.append(f"{doc}: {found}")
                    recorded[doc] = state.Recorded(partition, state.FAILED, "", "", None)
                    continue
                recorded[doc] = found.recorded(partition)
                if found.tables:
                    writer.add_document(found.tables, found.removed)
                    stored[doc] = found.tables[DOCUMENTS.name][0][_DOCUMENT_URL]
                    used_sources.add(found.source)
                    if found.story is not None:
                        sketches[doc] = found.story
            done += len(batch)
            writer.flush()
            if progress is not None:
                progress(done, len(listed))
    stories = _story_state(sketches, plan.site_cache)
    shared_rows(writer.add, plan, stories, stored, used_sources, jobs=jobs)
    _PLAN = None
    state.write_meta(conn, fingerprint(plan, trees))
    state.write_documents(conn, recorded)
    state.write_folders(conn, trees.folders if trees is not None else {})
    state.write_days(conn, stories.chunks)
    writer.finish()


def _document_id(listed: tuple[str, str]) -> str:
    return listed[1]


def prepared(plan: Plan) -> tuple[Plan, treeids.Trees | None]:
    """``plan`` with the feed records and the git stamps of the documents on disk, and
    the archive's git trees (``None`` outside git)."""
    archive = plan.archive
    feeds = feed_records(archive)
    trees = treeids.read(archive.root)
    found = state.git_stamps(archive.layout, archive.partitions(), trees) if trees else {}
    return Plan(archive, plan.sources, plan.site_cache, feeds, found), trees


def fingerprint(plan: Plan, trees: treeids.Trees | None) -> dict[str, str]:
    """What the export of ``plan`` is made with (:func:`state.fingerprint`)."""
    sources = [(s.slug, s.name, s.url, s.kind) for s in plan.sources]
    return state.fingerprint(state.sources_key(sources, plan.configured), git=trees is not None)


Add = Callable[[Table, list[tuple[Any, ...]]], None]


def shared_rows(
    add: Add,
    plan: Plan,
    stories: StoryState,
    stored: dict[str, str | None],
    used_sources: set[str],
    *,
    jobs: int,
) -> None:
    """The rows of the tables not keyed by document (sources, stories, feed entries),
    given to ``add``; ``stories.chunks`` updated. ``stored``: the documents exported and
    their URLs, ``used_sources`` their sources. Sets :data:`_PLAN` to ``plan`` with the
    documents' URLs."""
    global _PLAN
    urls = {url: doc for doc, url in stored.items() if url}
    _PLAN = replace(plan, urls=urls)  # the feed entries' workers fork next
    known = {s.slug: s for s in plan.sources}
    add(SOURCES, _tuples(SOURCES, _source_rows(known, plan.feeds, used_sources)))
    with forked(jobs) as mapper:
        grouped = group_by_day(stories, mapper=mapper)
        entries = mapper(_feed_entries, sorted(plan.feeds))
    sources = {d: s.source for d, s in stories.documents.items()}
    add(STORIES, _tuples(STORIES, rows.story_rows(grouped, sources)))
    for feed_rows in entries:
        for row in feed_rows:
            if row["document"] not in stored:
                row["document"] = None
        add(FEED_ENTRIES, _tuples(FEED_ENTRIES, feed_rows))


def _story_state(sketches: dict[str, Sketched], site_cache: Path | None) -> StoryState:
    """The grouping's input: the documents' sketches, with the days a site build grouped
    and the rows it grouped them from (its ``stories.sqlite``): a day none of whose inputs
    differs from the build's keeps the build's stories, neither grouped again nor its
    inputs hashed again to check them."""
    state = StoryState(documents=sketches)
    if site_cache is not None:
        saved = StoryState.load(site_cache)
        state.chunks, state.loaded = saved.chunks, saved.loaded
    return state


def _feed_entries(slug: str) -> list[Row]:
    """A feed record's entries, each with the document its link names, archived or not
    (the writer keeps only those archived)."""
    plan = _PLAN
    assert plan is not None  # noqa: S101 - set before the pool forks
    record = with_departed(plan.archive, slug, plan.feeds[slug])  # and those that left it
    return list(rows.feed_entry_rows(slug, record, None, plan.urls))


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
