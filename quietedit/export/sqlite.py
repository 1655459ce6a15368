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

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from quietedit.analysis.stories import story_sketch
from quietedit.archive.store import Archive
from quietedit.errors import ExportError, QuieteditError
from quietedit.export import rows
from quietedit.export.reading import read_listed
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
from quietedit.publish.changes import Comparison, compare_revisions, pair_key
from quietedit.publish.live import live_pairs
from quietedit.publish.stories import (
    Sketched,
    StoryState,
    group_by_day,
    saved_sketches,
)
from quietedit.publish.text import host_slug, safe_http_url

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

    def summary(self) -> str:
        counts = ", ".join(f"{n} {name}" for name, n in self.rows.items())
        return f"{self.out}: {counts}" + (
            f"; {len(self.failures)} documents could not be read" if self.failures else ""
        )


def gather_document(
    archive: Archive,
    partition: str,
    doc: str,
    *,
    configured: frozenset[str],
    site_cache: Path | None = None,
) -> DocumentData:
    """Gather one document and compare its revisions as the site does, taking the
    comparisons a site build saved in ``site_cache`` (its ``.quietedit-cache`` folder)
    where they are there for the same revisions and the same analysis version."""
    read = read_listed(archive, partition, doc)
    revisions, record, events = read.revisions, read.record, read.events
    live = live_pairs(events)
    saved = _saved_comparisons(site_cache, doc) if site_cache is not None and revisions else {}
    comparisons = []
    for old, new in pairwise(revisions):
        pair = live(old.number, new.number)
        found = saved.get(pair_key(old, new, live=pair))
        comparison = Comparison.from_record(found) if isinstance(found, dict) else None
        if comparison is None:
            comparison = compare_revisions(old, new, live=pair)
        comparisons.append((comparison.diff, comparison.classification))
    derived = read.derived
    if read.derived_problem is not None:  # the revisions stand without it; verify names it
        logger.warning("%s: derived records left out: %s", doc, read.derived_problem)
    return DocumentData(
        id=doc,
        partition=partition,
        source=source_of(record, configured),
        record=record,
        revisions=revisions,
        events=events,
        comparisons=comparisons,
        derived=derived,
    )


def _saved_comparisons(site_cache: Path, doc: str) -> dict[str, JSON]:
    """The comparisons a site build saved for ``doc`` (``diffs/<id>.json``), by pair key."""
    try:
        record = json.loads((site_cache / "diffs" / f"{doc}.json").read_bytes())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


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
    plan = _Plan(archive, sources, site_cache)
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
class _Plan:
    """What every worker needs to read a document (inherited by fork)."""

    archive: Archive
    sources: Sequence[SourceInfo]
    site_cache: Path | None
    feeds: dict[str, dict[str, JSON]] = field(default_factory=dict)

    @property
    def configured(self) -> frozenset[str]:
        return frozenset(s.slug for s in self.sources) or frozenset(self.feeds)


_PLAN: _Plan | None = None  # the plan of a worker process, set before it forks


def _rows_of_batch(batch: list[tuple[str, str]]) -> list[tuple[str, DocumentRows | str]]:
    """Read and turn into rows each document of ``batch``: its rows, or why it failed."""
    plan = _PLAN
    assert plan is not None  # noqa: S101 - set before the pool forks
    done: list[tuple[str, DocumentRows | str]] = []
    sketches = (
        saved_sketches(plan.site_cache, (doc for _, doc in batch))
        if plan.site_cache is not None
        else {}
    )
    for partition, doc in batch:
        try:
            data = gather_document(
                plan.archive,
                partition,
                doc,
                configured=plan.configured,
                site_cache=plan.site_cache,
            )
        except QuieteditError as exc:
            done.append((doc, str(exc)))
            continue
        done.append((doc, document_rows(data, sketch=sketches.get(doc))))
    return done


@dataclass(frozen=True, slots=True)
class DocumentRows:
    """One document's rows by table, each a tuple of the table's columns in order (texts
    numbered from 1, renumbered when written): tuples, not dicts, cross from a worker
    process to the writer, without every column's name pickled again in every row."""

    source: str
    tables: dict[str, list[tuple[Any, ...]]]
    story: Sketched | None = None  # what the story grouping needs of it
    removed: list[int] = field(default_factory=list)  # texts the newest revision lacks


def document_rows(data: DocumentData, *, sketch: tuple[int, ...] | None = None) -> DocumentRows:
    """Every row of one document, by table; ``sketch``, its story sketch as a site build
    saved it, saves making it again."""
    if not data.revisions:
        return DocumentRows(data.source, {})
    texts, blocks, removed = rows.text_and_block_rows(data)
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
        data.source, {table.name: _tuples(table, made) for table, made in found}, story, removed
    )


def _tuples(table: Table, found: Iterable[Row]) -> list[tuple[Any, ...]]:
    """``found`` as tuples of ``table``'s columns in order: a row made with its keys in
    that order (as :mod:`~quietedit.export.rows` makes them) gives its values as they are."""
    columns = _COLUMNS[table.name]
    return [
        tuple(row.values()) if tuple(row) == columns else tuple(row[c] for c in columns)
        for row in found
    ]


_COLUMNS: Final = {table.name: table.column_names for table in TABLES}


def _batches(listed: list[tuple[str, str]]) -> Iterator[list[tuple[str, str]]]:
    for start in range(0, len(listed), BATCH_DOCUMENTS):
        yield listed[start : start + BATCH_DOCUMENTS]


def _write(
    conn: sqlite3.Connection,
    plan: _Plan,
    report: ExportReport,
    *,
    jobs: int,
    stage: Path,
    progress: Callable[[int, int], None] | None,
) -> None:
    global _PLAN
    writer = Writer(conn, stage, report.rows)
    archive = plan.archive
    feeds = {slug: archive.read_feed(slug) or {} for slug in archive.feed_slugs()}
    plan = _Plan(archive, plan.sources, plan.site_cache, feeds)
    _PLAN = plan
    listed = archive.documents()
    stored: set[str] = set()
    used_sources: set[str] = set()
    sketches: dict[str, Sketched] = {}
    done = 0
    with streamed(jobs) as pool:
        for batch in pool(_rows_of_batch, _batches(listed)):
            for doc, found in batch:
                if isinstance(found, str):
                    logger.error("%s: %s", doc, found)
                    report.failures.append(f"{doc}: {found}")
                elif found.tables:
                    writer.add_document(found.tables, found.removed)
                    stored.add(doc)
                    used_sources.add(found.source)
                    if found.story is not None:
                        sketches[doc] = found.story
            done += len(batch)
            writer.flush()
            if progress is not None:
                progress(done, len(listed))
    known = {s.slug: s for s in plan.sources}
    writer.add(SOURCES, _tuples(SOURCES, _source_rows(known, feeds, used_sources)))
    with forked(jobs) as mapper:
        stories = group_by_day(_story_state(sketches, plan.site_cache), mapper=mapper)
        entries = mapper(_feed_entries, sorted(feeds))
    _PLAN = None
    story_rows = rows.story_rows(stories, {d: s.source for d, s in sketches.items()})
    writer.add(STORIES, _tuples(STORIES, story_rows))
    for feed_rows in entries:
        for row in feed_rows:
            if row["document"] not in stored:
                row["document"] = None
        writer.add(FEED_ENTRIES, _tuples(FEED_ENTRIES, feed_rows))
    writer.finish()


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
    (the writer keeps only those archived): canonicalising every link is the costly part."""
    plan = _PLAN
    assert plan is not None  # noqa: S101 - set before the pool forks
    record = with_departed(plan.archive, slug, plan.feeds[slug])  # and those that left it
    return list(rows.feed_entry_rows(slug, record, None))


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
