"""A build's documents rendered: the search index planned beside them, each chunk of pages
merged into the build's rows, and rendered again those whose pages a figure of the whole
archive moved.

:class:`Rendering` holds what rendering adds to a build: a row per document rendered
(``state``), the stamp each was rendered at (``stamps``), its edits' listing items and its
story sketch. Documents are rendered in forked workers (``batches``), grouped by search
shard so that Pagefind indexes each shard as soon as its pages are written
(:meth:`Rendering.start_search`, :meth:`Rendering.render`). Two choices wait for every
document's row, once the build cache is open for writing, and are made again there, each
rendering (in this process: a fork must not copy the open cache) the documents it moves:
which edits get a share image (:meth:`Rendering.reshare`, ``share``) and which months are
folded (:meth:`Rendering.refold`, ``folding``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from quietedit.model import format_timestamp
from quietedit.publish import folding, plan, search
from quietedit.publish.batches import Chunk, forks, render_documents
from quietedit.publish.buildcache import BuildState
from quietedit.publish.cacherows import DocumentEntry
from quietedit.publish.catalog import NEWEST_OBSERVATION, Catalog
from quietedit.publish.documents import DocumentPages, document_folders
from quietedit.publish.paths import SiteWriter
from quietedit.publish.scan import Scan, published_rows
from quietedit.publish.share import moved_out_or_in, share_cutoff
from quietedit.publish.stories import Sketched, StoryState
from quietedit.publish.storyrows import StoryRows

logger = logging.getLogger(__name__)


def newest_observation(pages: DocumentPages, documents: Iterable[str], *, since: str = "") -> str:
    """The newest of ``since`` and the observations of the latest revisions of
    ``documents`` (RFC 3339, compared as the build cache compares its rows'). A document
    whose revision cannot be read is left out: it fails when rendered, and the cutoff
    made of this is checked once every row is written (:meth:`Rendering.reshare`)."""
    newest = since
    for doc in documents:
        try:
            latest = pages.archive.latest_revision(doc, shallow=True)
        except Exception as exc:  # noqa: BLE001 - reported when the document is rendered
            logger.debug("%s: latest revision unread before rendering: %s", doc, exc)
            continue
        if latest is not None:
            newest = max(newest, format_timestamp(latest.observation.observed_at))
    return newest


def decide_share_since(
    pages: DocumentPages, previous: BuildState, scanned: Scan, *, fingerprint: str,
    hourly: bool, share_days: int,
) -> str | None:  # fmt: skip
    """Set ``pages.share_since``, the cutoff the documents are rendered under, and return
    the one the pages kept from the ``previous`` build were made with.

    Which edits get share images depends on the archive's newest observation. An
    ``hourly`` build knows it before rendering: the newest of the previous build's rows
    and of the latest revisions of the documents it renders (``scanned.todo``), so each
    is rendered once, under the cutoff it keeps (:meth:`Rendering.reshare` checks it once
    every row is written). A build that trusts no row guesses: the previous build's
    cutoff, or the end of the newest partition's day (of ``scanned.present``)."""
    same = previous.loaded and previous.fingerprint == fingerprint
    if hourly:
        (row,) = previous.query(NEWEST_OBSERVATION) or [("",)]
        newest = newest_observation(pages, scanned.todo, since=str(row[0] or ""))
        pages.share_since = share_cutoff(newest, share_days)
    elif same:
        pages.share_since = previous.share_since or None
    elif scanned.present:
        newest_day = scanned.present[-1].replace("/", "-") + "T23:59:59Z"
        pages.share_since = share_cutoff(newest_day, share_days)
    return (previous.share_since or None) if same else pages.share_since


@dataclass(slots=True)
class Rendering:
    """One build's rendering: ``state`` and ``failures`` are the build's, filled in as
    chunks come back; ``items``: each rendered edit's listing item, by (document, number);
    ``rendered``: documents rendered; ``indexing``: the search index being made."""

    pages: DocumentPages
    writer: SiteWriter
    fingerprint: str
    story_state: StoryState | StoryRows
    state: dict[str, DocumentEntry]
    failures: dict[str, str]
    stamps: dict[str, str] = field(default_factory=dict)  # of the documents rendered
    items: dict[tuple[str, int], str] = field(default_factory=dict)
    rendered: int = 0
    indexing: search.SearchIndexing | None = None
    recorded: search.Recorded | None = None  # the previous build's search bundles
    search_before: str = ""  # the bound of the last plan's runs (``search.runs_before``)

    def plan_search(
        self, scanned: Scan, previous: BuildState, *, hourly: bool
    ) -> list[search.Shard]:
        """The search shards of every document with pages: in an ``hourly`` build, those
        the ``previous`` cache has (the fold is its own) less those gone; those kept
        (``scanned.state``); and ``scanned.todo``, the documents to render.

        When the previous build's article folders are complete (``scanned.search_before``,
        ``pagesrecord``), the cache was asked only for the documents of the partitions
        from its runs' bound on: its runs are kept (``search.Runs``) unless a document
        before that bound is rendered, gone or failing, or the bound moved (a new week);
        then every document with pages is asked for."""
        folded = self.pages.folded

        def base(rows: list[Any]) -> dict[str, tuple[str, str]]:
            gone = scanned.gone
            found = {str(d): (str(s), str(p)) for d, _, s, p in rows if d not in gone}
            found.update(plan.with_pages(scanned.state, folded))
            return found

        if not hourly:
            return self._shards(base([]), scanned.todo)
        before = scanned.search_before
        if not before:
            return self._shards(base(scanned.published), scanned.todo)
        left = scanned.gone | scanned.failures.keys()
        runs = None
        if not any(e.partition < before for d, e in scanned.cached.items() if d in left):
            runs = search.previous_runs(self.writer, before)
        if runs is not None:
            planned, earliest = self._planned(base(scanned.published), scanned.todo)
            if earliest >= before and search.runs_before(planned) == before:
                self.search_before = before
                return search.plan_shards(planned, runs=runs)
        return self._shards(base(published_rows(previous)), scanned.todo)

    def start_search(
        self, shards: list[search.Shard], todo: dict[str, str], *, workers: int, rebuild: bool,
        recorded: search.Recorded | None = None,
    ) -> None:  # fmt: skip
        """Plan the index's work: the ``shards`` of ``todo`` changed; every one when
        ``rebuild``; ``recorded``: the previous build's bundles. Pagefind starts at once
        when no worker is forked (a fork must not copy its thread); else as the first
        shard is written."""
        if not search.search_available():
            logger.warning("search: pagefind is not installed; the search page says so")
            return
        self.recorded = recorded
        self.indexing = search.SearchIndexing(
            self.writer, shards, changed=set(todo), rebuild=rebuild, recorded=recorded
        )
        if not forks(len(todo), workers):
            self.indexing.start()  # no worker to fork: Pagefind can start while this renders

    def abort_search(self) -> None:
        """Stop Pagefind (a build that fails must not leave it running: ``quietedit serve``
        goes on rebuilding in the same process)."""
        if self.indexing is not None:
            self.indexing.abort()

    def render(
        self, todo: dict[str, str], shards: list[search.Shard], *, workers: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:  # fmt: skip
        """Render ``todo`` (id → stamp) in ``workers`` processes, shard by shard so that each
        shard can be indexed as soon as its pages are written."""
        order = {doc: n for n, shard in enumerate(shards) for doc in shard.documents}
        ids = sorted(todo, key=lambda d: (order.get(d, len(shards)), d))
        self.stamps = dict(todo)
        done, total = len(self.state), len(self.state) + len(ids)
        for chunk in render_documents(self.pages, ids, writer=self.writer, workers=workers):
            self._merge(chunk)
            if self.indexing is not None:
                files_now = set(chunk.written)
                changed = {d for d in chunk.documents if f"articles/{d}/index.html" in files_now}
                self.indexing.rendered(chunk.documents, changed=frozenset(changed))
            done += len(chunk.documents)
            self.rendered += len(chunk.results)
            if progress is not None:
                progress(done, total)

    def reshare(self, catalog: Catalog, *, share_days: int, kept_since: str | None) -> None:
        """Render again, and write again into ``catalog``, the documents with an edit that
        gains or loses its share image now that the archive's newest observation is known:
        those rendered in this build under a cutoff that turned out wrong, and those kept
        from the previous build (rendered under ``kept_since``) when the window moved.
        A document rendered in this build under the right cutoff is not rendered again."""
        pages = self.pages
        share_since = share_cutoff(catalog.newest_observation(), share_days)
        redo: set[str] = set()
        table = catalog.edit_table(frozenset())
        # (the cutoff its pages were made with, whether rendered in this build)
        for before, now in ((pages.share_since, True), (kept_since, False)):
            window = plan.share_window(before, share_since)
            if before == share_since or window is None:
                continue
            around = table.moved_candidates(*window)
            redo |= {
                doc
                for doc in moved_out_or_in(around, before, share_since)
                if (doc in self.stamps) == now
            }
        pages.share_since = share_since
        if not redo:
            return
        entries = {doc: catalog.entry(doc) for doc in sorted(redo) if doc not in self.failures}
        ids = [doc for doc, entry in entries.items() if plan.has_pages(entry, pages.folded)]
        for doc in ids:
            self.writer.unclaim(document_folders(doc))
            self.stamps.setdefault(doc, entries[doc].stamp)
        # a week-old edit's document is rarely in the hourly checkout: fetched at once,
        # from the partitions the cache places them in (no index shard fetched first)
        pages.archive.prefetch(ids, placed={doc: entries[doc].partition for doc in ids})
        self._render_here(ids)
        catalog.write({doc: self.state[doc] for doc in ids if doc in self.state})

    def refold(
        self, catalog: Catalog, *, max_bytes: int, todo: Iterable[str], rebuild: bool
    ) -> tuple[frozenset[str], set[str]]:
        """Fold the months that keep the site within ``max_bytes`` (``folding``): when the
        fold moved (a month more, or fewer after ``max_bytes`` grew), the documents of the
        months folded now lose their pages and those of months no longer folded get theirs
        (and the search index is planned again). Returns the months folded and the
        documents that failed on being rendered again (gone)."""
        pages, writer = self.pages, self.writer
        folded = folding.months_to_fold(catalog.month_sizes(), max_bytes=max_bytes)
        if folded == pages.folded:
            return folded, set()
        logger.info("site: months folded: %s", ", ".join(sorted(folded)) or "none")
        pages.folded = folded
        losing, reopened = catalog.refolded(folded)
        for doc, entry in losing.items():
            paths = document_folders(doc)
            for path in [p for p in writer.claimed if p.startswith(paths)]:
                del writer.claimed[path]
            writer.remove_unclaimed(paths)
            self.state[doc] = entry.unlisted()
        self.stamps.update((doc, catalog.entry(doc).stamp) for doc in reopened)
        if self.indexing is not None:  # planned with the old fold: planned again, after
            self.indexing.abort()
        pages.archive.prefetch(
            sorted(reopened), placed={doc: catalog.entry(doc).partition for doc in reopened}
        )
        self._render_here(reopened)
        catalog.write({d: e for d, e in self.state.items() if d in losing or d in self.stamps})
        catalog.delete(doc for doc in reopened if doc in self.failures)
        gone = {doc for doc in reopened if doc in self.failures}
        if self.indexing is not None:
            self.indexing = search.SearchIndexing(
                writer,
                self._shards(catalog.shard_sources(folded), {}),
                changed=set(todo) | set(reopened),
                rebuild=rebuild,
                recorded=self.recorded,
            )
            self.indexing.start()
        return folded, gone

    def _render_here(self, ids: list[str]) -> None:
        """Render ``ids`` in this process (the cache is open for writing)."""
        for chunk in render_documents(self.pages, ids, writer=self.writer, workers=1):
            self._merge(chunk)
            self.rendered += len(chunk.results)

    def _merge(self, chunk: Chunk) -> None:
        """Take in what a run of documents rendered: the files it claimed, wrote and
        removed, its failures, and each document's row, listing items and sketch."""
        for path, digest in chunk.claimed.items():
            self.writer.claim(path, digest)  # two documents claiming one path fail here
        self.writer.written.extend(chunk.written)
        self.writer.removed.extend(chunk.removed)
        self.failures.update(chunk.failures)
        for doc, result in chunk.results.items():
            key = plan.document_key(self.fingerprint, result.content)
            self.state[doc] = DocumentEntry.of(
                self.stamps[doc], result.content, key, result.files, summary=result.summary,
                edits=result.edits, refs=result.refs, size=result.size,
            )  # fmt: skip
            self.items.update(((doc, n), html) for n, html in result.items.items())
            summary = result.summary
            self.story_state.documents[doc] = Sketched(
                summary.source, summary.first_seen, result.sketch, self.pages.stories.get(doc, "")
            )

    def _shards(
        self, sources: dict[str, tuple[str, str]], todo: Iterable[str]
    ) -> list[search.Shard]:
        """The search shards of every document with pages: ``sources`` (id → source and
        partition) and the documents to render (``_planned``)."""
        planned, _ = self._planned(sources, todo)
        self.search_before = search.runs_before(planned)
        return search.plan_shards(planned)

    def _planned(
        self, sources: dict[str, tuple[str, str]], todo: Iterable[str]
    ) -> tuple[dict[str, tuple[str, str]], str]:
        """``sources`` (id → source and partition) with the documents to render as their
        record and file names say (read here once; a record that cannot be read fails
        later), less the failures; and the earliest partition of a document to render
        (``""`` when one's record cannot be read: it may be anywhere; ``"~"``: none)."""
        pages = self.pages
        sources = dict(sources)
        earliest = "~"  # after every partition's name
        for doc in todo:
            try:
                source, partition, published = pages.plan_of_document(doc)
            except Exception as exc:  # noqa: BLE001 - reported when the document is rendered
                logger.debug("%s: source unknown before rendering: %s", doc, exc)
                sources.pop(doc, None)
                earliest = ""
                continue
            earliest = min(earliest, partition)
            if published and partition[:7].replace("/", "-") not in pages.folded:
                sources[doc] = (source, partition)
            else:
                sources.pop(doc, None)
        return {d: s for d, s in sources.items() if d not in self.failures}, earliest
