"""``quietedit build``: the archive in, the static site out — deterministic and incremental.

Gather (archive scan, config, the build cache), decide (pure page models in ``pages``,
``diffview`` and ``listing``), apply (render and write through
:class:`~quietedit.publish.paths.SiteWriter`).

An incremental build takes each document's stamp (``Archive.document_stamps``: its
folder's git tree id when its files are as committed, which survives a clone; else a few
``stat`` calls) and recomputes its content key (``Archive.content_key``) only where the
stamp moved; a document whose key (content key + the build's
fingerprint: builder and analysis code, templates, base URL, sources) is unchanged and
whose article folder is on disk is neither read nor rendered, and its edits stay light
references (``listing.EditRef``) unless a site-wide page shows them again. Changed
documents are rendered in forked workers, one per core (``batches``), grouped by search
shard: as soon as a shard's pages are written, Pagefind indexes it in its own process
while rendering goes on (with nothing to fork, Pagefind starts at once). Site-wide pages
are rendered only when the key of their inputs changed; files whose bytes are unchanged
are not rewritten, and files no longer produced are deleted.
``--full`` trusts nothing recorded (deleting the cache folder has the same effect); a build
that trusts no record deletes, below the folders it writes in, every file it did not make
(``SiteWriter.remove_unowned``), so an older site in the folder leaves nothing behind.

The archive may be a sparse checkout holding only the documents still observed (as an
hourly job clones it): the documents it leaves out keep the entries and pages the previous
build left, so an hourly build reads only what it has; one whose pages are missing or
stale is read again, which fetches its folder (``Archive``), and so is one a commit changed
while the checkout left it out (``committed``: git tree ids).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.archive import sparse, treeids
from quietedit.archive.store import Archive
from quietedit.article.identity import is_document_id
from quietedit.config.settings import SiteSettings
from quietedit.errors import PublishError, QuieteditError
from quietedit.publish import committed, folding, homepages, search, sitewide
from quietedit.publish.batches import Chunk, forks, render_documents
from quietedit.publish.buildcache import (
    STATE_FILE,
    BuildState,
    CacheDamagedError,
    DocumentEntry,
    code_fingerprint,
    document_key,
)
from quietedit.publish.catalog import Catalog
from quietedit.publish.catalog import not_folded as catalog_not_folded
from quietedit.publish.changes import ANALYSIS_VERSION
from quietedit.publish.documents import DocumentPages, document_folders, unconfigured_source
from quietedit.publish.listing import EditRef
from quietedit.publish.pages import Edit, Source
from quietedit.publish.paths import CACHE_DIR, SiteWriter
from quietedit.publish.render import Renderer, SiteURLs, template_dirs
from quietedit.publish.share import moved_out_or_in, share_cutoff
from quietedit.publish.stories import (
    Sketched,
    StoryState,
    group_stories_of,
    write_story_pages,
)
from quietedit.publish.storyrows import (
    StoryRows,
    group_stories_hourly,
    kept_rows,
    next_generation,
)
from quietedit.version import __version__

logger = logging.getLogger(__name__)

MAX_WORKERS: Final = 4
"""Processes rendering documents in parallel (one per core, at most this many)."""
DEFAULT_BASE_URL: Final = "http://127.0.0.1:8000/"
"""What ``quietedit serve`` serves on; a deployed site passes its own ``--base-url``."""
DEFAULT_MAX_BYTES: Final = SiteSettings().max_bytes
"""``settings.site.max_bytes``: above it the oldest months fold (``folding``)."""
DEFAULT_SHARE_DAYS: Final = SiteSettings().share_days
"""``settings.site.share_days``: edits observed this many days before the archive's newest
observation, or later, get a share image (``share``)."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build from and to. ``sources`` are feeds.yaml's feeds (may be empty)."""

    data: Path
    out: Path
    templates: Path | None = None
    base_url: str = DEFAULT_BASE_URL
    full: bool = False
    sources: tuple[Source, ...] = ()
    search: bool = True
    max_bytes: int = DEFAULT_MAX_BYTES
    data_url: str | None = None  # where the archive folder can be browsed, ending in "/"
    database_url: str | None = None  # where the SQLite export is published (the about page)
    reextracted: bool = False  # show the text as re-extracted (derived records), not as observed
    watch: tuple[str, ...] = ()  # terms watched in every source (settings.watch)
    share_days: int = DEFAULT_SHARE_DAYS  # edits this recent get a share image (``share``)
    workers: int = field(default_factory=lambda: min(os.cpu_count() or 1, MAX_WORKERS))


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did: counts, the files it rewrote and removed, and per-item failures."""

    documents: int
    rendered: int  # documents whose pages were rendered (the rest came from the cache)
    edits: int
    files: int  # files the site consists of
    written: tuple[str, ...]
    removed: tuple[str, ...]
    failures: tuple[str, ...] = ()


def build_site(
    options: BuildOptions, *, progress: Callable[[int, int], None] | None = None
) -> BuildReport:
    """Render the archive at ``options.data`` into ``options.out``; see the module docstring.

    One document that cannot be read or rendered is reported in ``failures`` and left out;
    the rest of the site is built. Template and output-path problems abort the build.
    """
    written: list[str] = []  # the files rewritten, by both attempts when there are two
    try:
        with contextlib.ExitStack() as on_exit:
            return _build(options, progress, on_exit, written)
    except CacheDamagedError as exc:
        # found only once used (values are checked as they are read): nothing of the
        # cache can be trusted, so the build starts again without it
        logger.warning("%s; building in full", exc)
        (options.out / CACHE_DIR / STATE_FILE).unlink(missing_ok=True)
        with contextlib.ExitStack() as on_exit:
            report = _build(dataclasses.replace(options, full=True), progress, on_exit, written)
        # what the first attempt wrote changed the site too, unless the second removed it
        changed = (p for p in dict.fromkeys(written) if (options.out / p).is_file())
        return dataclasses.replace(report, written=tuple(changed))


def _build(
    options: BuildOptions,
    progress: Callable[[int, int], None] | None,
    on_exit: contextlib.ExitStack,
    written: list[str],
) -> BuildReport:
    if not options.data.is_dir():
        raise PublishError(
            f"no archive at {options.data}; pass --data with the archive folder "
            "(or run quietedit ingest first)"
        )
    if options.out.resolve().is_relative_to(options.data.resolve()):
        # the site's folders (feeds/, api/, …) would mix with the archive's, and a build
        # with no cache removes the files in them it did not make: the archive's records
        raise PublishError(
            f"--out {options.out} is the archive folder {options.data} or inside it; "
            "build the site into a folder of its own (e.g. --out site)"
        )
    urls = SiteURLs.parse(options.base_url)
    renderer = Renderer(template_dirs(options.templates), urls=urls)
    archive = Archive(options.data)
    fingerprint = _fingerprint(renderer, options, archive)
    cache_root = options.out / CACHE_DIR
    previous = BuildState.load(cache_root)
    on_exit.callback(previous.close)
    # an hourly build: the cache was made by this code for this site, so each document's
    # row is read only where the archive holds the document (or its pages are missing)
    hourly = previous.loaded and not options.full and previous.fingerprint == fingerprint
    # --full trusts nothing recorded: every page is rendered and compared with the bytes on
    # disk; the previous state still says which files are stale
    trusted = BuildState() if options.full else previous
    options.out.mkdir(parents=True, exist_ok=True)
    writer = SiteWriter(options.out, known={p: e[0] for p, e in trusted.site.items()})
    writer.written = written
    pages = DocumentPages(
        archive,
        renderer,
        {s.slug: s for s in options.sources},
        cache_root,
        full=options.full,
        reextracted=options.reextracted,
        watch=options.watch,
    )
    # the stories file: read in part by an hourly build, when the previous build saved it
    generation = next_generation(previous.generation)
    story_state: StoryState | StoryRows | None = None
    if hourly:
        story_state = StoryRows.open(cache_root, previous.generation)
    if story_state is None:
        story_state = StoryState() if options.full else StoryState.load(cache_root)
    # the months the previous build folded: its documents are rendered (and searched)
    # as then; the choice is made again below, once every document's size is known
    pages.folded = trusted.folded
    state: dict[str, DocumentEntry] = {}  # the documents read or rendered by this build
    failures: dict[str, str] = {}
    todo: dict[str, str] = {}  # document to render → its stamp
    on_disk = _article_folders(options.out)
    if not previous.loaded:
        # nothing recorded of the documents a sparse checkout leaves out (a lost or damaged
        # cache): without them the site would shrink, and stay shrunk; read them all
        sparse.check_out_everything(options.data)
    before = committed.recorded(cache_root)
    trees = treeids.read(options.data, before)  # None outside git
    found = archive.document_stamps(trees)  # of the documents on disk
    present = sorted(set(archive.partitions()))
    pages.site_name = str(renderer.env.globals["site_name"])
    # which edits get share images depends on the archive's newest observation, known
    # once every document is read: rendered with a guess, and again below where it was
    # wrong. The pages kept from the previous build have its cutoff; with nothing kept
    # (another fingerprint), the end of the newest partition's day is a close guess
    if previous.loaded and previous.fingerprint == fingerprint:
        pages.share_since = previous.share_since or None
    elif present:
        newest_day = present[-1].replace("/", "-") + "T23:59:59Z"
        pages.share_since = share_cutoff(newest_day, options.share_days)
    outside = archive.outside_checkout()
    # changed by a commit while the checkout leaves them out: read again (``committed``)
    moved = committed.changed_outside(trees, before, previous, found, outside)
    published: list[Any] = []  # of the cache (an hourly build's)
    if hourly:
        places = ", ".join("?" * len(present))
        cached = previous.select(f"WHERE partition IN ({places})", tuple(present))
        elsewhere = sorted(set(found) - set(cached))  # not where the cache had them
        for start in range(0, len(elsewhere), 500):
            part = elsewhere[start : start + 500]
            cached.update(
                previous.select(f"WHERE id IN ({', '.join('?' * len(part))})", tuple(part))
            )
        # missing from what is checked out: deleted; a document the checkout leaves out (a
        # sparse checkout of the documents still observed) keeps its row and pages
        gone = {
            doc
            for doc, entry in cached.items()
            if doc not in found and not outside(entry.partition, doc)
        }
        # the documents with pages as the cache has them: read once, for both uses
        where, params = catalog_not_folded(previous.folded)
        published = previous.query(_PUBLISHED.format(where), params)
        _missing_pages(published, found, outside, on_disk, todo)
    else:
        cached = {} if options.full else previous.documents
        _keep_absent(
            previous, found, outside, on_disk, fingerprint=fingerprint, state=state, todo=todo
        )
        gone = set()
    for doc, doc_stamp in moved.items():
        state.pop(doc, None)
        todo[doc] = doc_stamp
    for doc, doc_stamp in found.items():
        if not is_document_id(doc):
            failures[doc] = f"{doc}: not a document id (expected <host>-<16 hex digits>)"
            continue
        entry = cached.get(doc)
        if entry is None:
            todo[doc] = doc_stamp  # rendered in any case: its worker takes its content key
            continue
        try:
            content = entry.content if entry.stamp == doc_stamp else archive.content_key(doc)
        except QuieteditError as exc:
            failures[doc] = f"{doc}: {exc}"
            continue
        if entry.key == document_key(fingerprint, content) and (
            doc in on_disk or not _has_pages(entry, pages.folded)
        ):
            state[doc] = entry.restamped(doc_stamp)
        else:
            todo[doc] = doc_stamp
    # stories first: an article page links to its story's page, so an article that joins
    # or leaves a story with a page is rendered again
    if isinstance(story_state, StoryRows):  # the stories' work, and rows, of the hour's
        kept_of = kept_rows(previous, state, found, gone, todo)
        shown = group_stories_hourly(
            pages, story_state, todo, gone | failures.keys(),
            lambda ids: {doc: revisions for doc, (_, revisions) in kept_of(ids).items()},
            failures,
        )  # fmt: skip
        links = {doc: story.id for story in shown for doc in story.documents}
        linked = story_state.linked() | links.keys()  # whose link may have moved
        story_state.fetch(linked)
        kept = kept_of(linked)
        sketches = {d: story_state.documents[d] for d in linked if d in story_state.documents}
    else:
        kept = {doc: (entry.stamp, entry.revisions) for doc, entry in state.items()}
        if hourly:  # and the documents of the cache this build does not read, less those gone
            for doc, doc_stamp, revisions in previous.query(_KEPT):
                if doc not in found and doc not in gone and doc not in todo:
                    kept[str(doc)] = (str(doc_stamp), int(revisions))
        revisions_of = {doc: revisions for doc, (_, revisions) in kept.items()}
        shown = group_stories_of(pages, revisions_of, todo, story_state, failures)
        links = {doc: story.id for story in shown for doc in story.documents}
        sketches = story_state.documents
    for doc, sketched in sketches.items():
        if links.get(doc, "") != sketched.story and doc in kept and doc not in todo:
            state.pop(doc, None)
            todo[doc] = kept[doc][0]
    pages.stories = links
    rebuild = options.full or not previous.loaded
    if hourly:
        # the documents with pages as the cache has them (the fold is the previous
        # build's), less those gone, and those the archive holds as they are now
        base = {str(d): (str(src), str(p)) for d, _, src, p in published if d not in gone}
    else:
        base = {d: (e.source, e.partition) for d, e in state.items() if _has_pages(e, pages.folded)}
    base.update(
        (d, (e.source, e.partition)) for d, e in state.items() if _has_pages(e, pages.folded)
    )
    shards = _shards(pages, base, todo, failures)
    indexing = None
    if options.search and search.search_available():
        indexing = search.SearchIndexing(writer, shards, changed=set(todo), rebuild=rebuild)
        # a build that fails (a template error, Ctrl-C) must not leave Pagefind running:
        # ``quietedit serve`` goes on rebuilding in the same process
        on_exit.callback(lambda: indexing.abort() if indexing is not None else None)
        if not forks(len(todo), options.workers):
            indexing.start()  # no worker to fork: Pagefind can start while this one renders
    elif options.search:
        logger.warning("search: pagefind is not installed; the search page says so")

    # grouped by shard, so that each shard can be indexed as soon as its pages are written
    order = {doc: n for n, shard in enumerate(shards) for doc in shard.documents}
    ids = sorted(todo, key=lambda d: (order.get(d, len(shards)), d))
    items: dict[tuple[str, int], str] = {}
    rendered = 0

    def merge(chunk: Chunk) -> None:
        for path, digest in chunk.claimed.items():
            writer.claim(path, digest)  # two documents claiming one path fail here
        writer.written.extend(chunk.written)
        writer.removed.extend(chunk.removed)
        failures.update(chunk.failures)
        for doc, result in chunk.results.items():
            key = document_key(fingerprint, result.content)
            state[doc] = DocumentEntry.of(
                stamps[doc], result.content, key, result.files, summary=result.summary,
                edits=result.edits, refs=result.refs, size=result.size,
            )  # fmt: skip
            items.update(((doc, n), html) for n, html in result.items.items())
            summary = result.summary
            story_state.documents[doc] = Sketched(
                summary.source, summary.first_seen, result.sketch, pages.stories.get(doc, "")
            )

    stamps = dict(todo)  # of the documents rendered
    done, total = len(state), len(state) + len(ids)
    for chunk in render_documents(pages, ids, writer=writer, workers=options.workers):
        merge(chunk)
        if indexing is not None:
            files_now = set(chunk.written)
            pages_changed = {d for d in chunk.documents if f"articles/{d}/index.html" in files_now}
            indexing.rendered(chunk.documents, changed=frozenset(pages_changed))
        done += len(chunk.documents)
        rendered += len(chunk.results)
        if progress is not None:
            progress(done, total)
    # every worker forked: the cache is opened for this build's writes
    gone |= {doc for doc in failures if doc not in state and is_document_id(doc)}
    if not hourly and previous.loaded:  # a whole write: what it leaves out is gone
        gone |= {doc for doc in previous.documents if doc not in state and is_document_id(doc)}
    # the partitions of the documents gone, asked before the cache is written
    gone_partitions = {e.partition for d, e in cached.items() if d in gone}
    if hourly and gone:
        found_gone = previous.query(_PARTITIONS_OF, (json.dumps(sorted(gone)),))
        gone_partitions |= {str(p) for (p,) in found_gone}
    # where the documents whose rows change sat in the previous build's order of articles
    # (the sitemap keeps its chunks before the earliest), asked before the cache is written
    earlier: list[tuple[str, str]] = []
    if not rebuild and (gone or stamps):
        asked = json.dumps(sorted(gone | set(stamps)))
        earlier = [(str(f), str(d)) for f, d in previous.query(_PLACES_OF, (asked,))]
    catalog = Catalog.begin(cache_root, previous, whole=not hourly)
    on_exit.callback(catalog.abort)  # a no-op once finished
    if catalog.fresh and hourly:  # the cache could not be written in place: whole, then
        catalog.write({d: e for d, e in previous.documents.items() if d not in gone})
    catalog.write(state)
    catalog.delete(gone)
    share_since = share_cutoff(catalog.newest_observation(), options.share_days)
    if share_since != pages.share_since:
        # the guess was wrong, or the window moved: the documents with an edit that gains
        # or loses its image are made again (in this process: the cache is open)
        redo = sorted(
            doc
            for doc in moved_out_or_in(
                _around(catalog, pages.share_since, share_since), pages.share_since, share_since
            )
            if doc not in failures and _has_pages(catalog.entry(doc), pages.folded)
        )
        pages.share_since = share_since
        for doc in redo:
            writer.unclaim(document_folders(doc))
            stamps.setdefault(doc, catalog.entry(doc).stamp)
        for chunk in render_documents(pages, redo, writer=writer, workers=1):
            merge(chunk)
            rendered += len(chunk.results)
        catalog.write({doc: state[doc] for doc in redo if doc in state})
    folded = _fold(catalog, options.max_bytes)
    if folded != pages.folded:
        # the fold moved (a month more, or fewer after max_bytes grew): documents of the
        # months folded now lose their pages, those of months no longer folded get theirs
        logger.info("site: months folded: %s", ", ".join(sorted(folded)) or "none")
        pages.folded = folded
        losing, reopened = catalog.refolded(folded)
        for doc, entry in losing.items():
            paths = document_folders(doc)
            for path in [p for p in writer.claimed if p.startswith(paths)]:
                del writer.claimed[path]
            writer.remove_unclaimed(paths)
            state[doc] = entry.unlisted()
        stamps.update((doc, catalog.entry(doc).stamp) for doc in reopened)
        if indexing is not None:  # planned with the old fold: planned again, after
            indexing.abort()
        # in this process: the cache is open for writing, which a fork must not copy
        for chunk in render_documents(pages, reopened, writer=writer, workers=1):
            merge(chunk)
            rendered += len(chunk.results)
        catalog.write({d: e for d, e in state.items() if d in losing or d in stamps})
        catalog.delete(doc for doc in reopened if doc in failures)
        gone |= {doc for doc in reopened if doc in failures}
        if indexing is not None:
            indexing = search.SearchIndexing(
                writer,
                _shards(pages, catalog.shard_sources(folded), {}, failures),
                changed=set(todo) | set(reopened),
                rebuild=rebuild,
            )
            indexing.start()
    for doc in sorted(gone):  # a document gone from the archive, or failing now
        writer.remove_unclaimed(document_folders(doc))
    read: dict[str, DocumentEntry] = {}  # documents whose edits are shown again, unchanged

    def edit_of(ref: EditRef) -> Edit:
        entry = state.get(ref.document) or read.get(ref.document)
        if entry is None:
            entry = read[ref.document] = catalog.entry(ref.document)
        return entry.edit(ref.number)

    site = sitewide.SiteWide(
        renderer=renderer,
        writer=writer,
        archive=archive,
        fingerprint=fingerprint,
        keys={p: e[1] for p, e in trusted.site.items()},
        edit_of=edit_of,
        items=items,
        watch=options.watch,
    )
    # the partitions whose documents changed (rendered, gone): the others' API day files
    # stay as they are; every one when nothing recorded can be trusted or the fold moved
    changed: set[str] | None = None
    since = sitewide.AFTER_ALL  # the earliest place of a document whose row changed
    if not rebuild and folded == trusted.folded:
        changed = {state[doc].partition for doc in stamps if doc in state}
        changed |= gone_partitions
        now = [(state[doc].first_seen, doc) for doc in stamps if doc in state]
        since = min([since, *earlier, *now])
    table = catalog.edit_table(folded)
    # the edits that changed, for the listings to keep their archive pages before the
    # earliest: only when the previous build's pages were made by this code, as now
    changes = catalog.changes if hourly and changed is not None else None
    site_failures = site.write_all(
        catalog,
        table,
        sources=dict(sorted({**pages.sources, **_sources_of(pages, catalog)}.items())),
        indexing=indexing,
        folded=folded,
        data_url=options.data_url,
        database_url=options.database_url,
        changed=changed,
        since=since,
        changes=changes,
        listings=previous.listings if hourly else "",
    )

    def entry_of(doc: str) -> DocumentEntry | None:
        entry = state.get(doc) or read.get(doc)
        if entry is None:
            try:
                entry = read[doc] = catalog.entry(doc)
            except KeyError:  # gone, or failing now
                return None
        return entry

    write_story_pages(site, pages, entry_of, shown, trusted=trusted)
    # the homepages' headline pages, from their feed records (a few files, read each build)
    homepages.write_homepages(site, archive, dict(sorted(pages.sources.items())))
    document_files = {p for p in writer.claimed if p.startswith(("articles/", "api/documents/"))}
    new_site = {
        path: (digest, site.new_keys.get(path, ""))
        for path, digest in writer.claimed.items()
        if path not in document_files
    }
    stale = {p: "" for p in previous.site if p not in new_site and p not in document_files}
    if options.full or not previous.loaded:
        # what no record names (no cache, or one not trusted): the site folder is made
        # what a build into an empty folder makes, but for the pages of documents kept
        # unread (left out of the checkout, pages made by this code)
        unread = {doc for doc in state if doc not in stamps}
        writer.remove_unowned(lambda path: _document_of(path) in unread)
    removed = writer.removed + writer.remove_stale(stale)
    documents, _, files = catalog.totals()
    edit_count = table.count(edits_only=True)  # not the events listed among them
    alive = catalog.ids() if not hourly else None
    catalog.finish(
        site=new_site,
        previous_site=previous.site,
        folded=folded,
        fingerprint=fingerprint,
        share_since=pages.share_since,
        listings=site.listings_key,
        generation=generation,
    )
    # a document whose rows the cache lost this late (it failed) keeps its sketch: the
    # next build reads the stories whole, and drops it if it is gone by then
    dropped_late = any(doc in story_state.documents for doc in gone)
    story_state.save(cache_root, "" if dropped_late else generation)
    committed.record(cache_root, trees, unsure=_failed_partitions(archive, failures))
    _prune_diffs(cache_root, alive, gone)
    return BuildReport(
        documents=documents,
        rendered=rendered,
        edits=edit_count,
        files=len(new_site) + files,
        written=tuple(writer.written),
        removed=tuple(removed),
        failures=tuple(failures[doc] for doc in sorted(failures)) + tuple(site_failures),
    )


_KEPT: Final = "SELECT id, stamp, revisions FROM documents"
"""Every document of the previous build's cache, with its stamp and count of revisions."""
_PUBLISHED: Final = "SELECT id, stamp, source, partition FROM documents WHERE published = 1 AND {}"
"""The documents with pages outside the months folded (a condition of ``catalog``)."""
_PARTITIONS_OF: Final = (
    "SELECT DISTINCT partition FROM documents WHERE id IN (SELECT value FROM json_each(?))"
)
"""The partitions of the documents of a JSON list of ids (in the previous build's cache)."""
_PLACES_OF: Final = (
    "SELECT first_seen, id FROM documents WHERE id IN (SELECT value FROM json_each(?))"
)
"""The first sight and id of the documents of a JSON list of ids (ditto)."""


def _missing_pages(
    published: list[Any],
    found: dict[str, str],
    outside: Callable[[str, str], bool],
    on_disk: set[str],
    todo: dict[str, str],
) -> None:
    """The documents the checkout leaves out (``outside``: their partition is not on disk,
    or a sparse checkout of the documents still observed does not hold their folder) whose
    pages are not in the site folder either (a cache restored without the site, as in
    CI): read again (``todo``), which brings their folder into a sparse git checkout
    (``Archive``'s on-demand fetch). The others stay as the previous build left them,
    unread. ``published``: the rows of :data:`_PUBLISHED` of the cache."""
    for doc, stamp, _, partition in published:
        if doc in on_disk or doc in found or not partition:
            continue
        if outside(str(partition), str(doc)):
            todo[str(doc)] = str(stamp)


def _keep_absent(
    previous: BuildState,
    stamps: dict[str, str],
    outside: Callable[[str, str], bool],
    on_disk: set[str],
    *,
    fingerprint: str,
    state: dict[str, DocumentEntry],
    todo: dict[str, str],
) -> None:
    """The documents the checkout leaves out (``outside``: their partition is not on disk,
    or a sparse checkout of the documents still observed, as an hourly job clones it, does
    not hold their folder), for a build that cannot trust the cache's keys (a full build,
    another fingerprint): kept as the previous build left them when their pages are in the
    site folder and were made by this code and these templates; else read again
    (``todo``), which brings their folder into a sparse git checkout (``Archive``'s
    on-demand fetch) or, outside git, fails them with a reported error. A document missing
    from what is checked out was deleted: its pages go."""
    if not previous.loaded:
        return
    for doc, entry in previous.documents.items():
        partition = entry.partition
        if doc in stamps or not partition or not outside(partition, doc):
            continue
        current = entry.key == document_key(fingerprint, entry.content)
        if current and (doc in on_disk or not _has_pages(entry, previous.folded)):
            state[doc] = entry
        else:
            todo[doc] = entry.stamp


def _failed_partitions(archive: Archive, failures: dict[str, str]) -> set[str]:
    """The partitions of the documents that failed (looked at again by the next build)."""
    found = set()
    for doc in failures:
        with contextlib.suppress(QuieteditError):
            partition = archive.partition(doc) if is_document_id(doc) else None
            if partition is not None:
                found.add(partition)
    return found


def _document_of(path: str) -> str:
    """The document whose files hold the site path ``path`` (``document_folders``), or
    ``""``."""
    parts = path.split("/")
    if parts[0] == "articles" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["api", "documents"] and len(parts) > 2:
        return parts[2].removesuffix(".json") if len(parts) == 3 else parts[2]
    return ""


def _has_pages(entry: DocumentEntry, folded: frozenset[str]) -> bool:
    """Whether the document has pages on a site that folded ``folded``."""
    return entry.published and entry.month not in folded


def _article_folders(out: Path) -> set[str]:
    """The documents whose article folder is on disk: a cache restored without the site,
    as in CI, must not leave documents out. (One listing, not a look at each article page:
    that would cost as much as the rest of a one-revision build's scan.)"""
    try:
        return set(os.listdir(out / "articles"))
    except (FileNotFoundError, NotADirectoryError):
        return set()


def _shards(
    pages: DocumentPages,
    sources: dict[str, tuple[str, str]],
    todo: dict[str, str],
    failures: dict[str, str],
) -> list[search.Shard]:
    """The search shards of every document with pages: ``sources`` (id → source and
    partition) and the documents to render, by their record and file names (read here
    once; a record that cannot be read fails later)."""
    sources = dict(sources)
    for doc in todo:
        try:
            source, partition, published = pages.plan_of_document(doc)
        except Exception as exc:  # noqa: BLE001 - reported when the document is rendered
            logger.debug("%s: source unknown before rendering: %s", doc, exc)
            sources.pop(doc, None)
            continue
        if published and partition[:7].replace("/", "-") not in pages.folded:
            sources[doc] = (source, partition)
        else:
            sources.pop(doc, None)
    return search.plan_shards({d: s for d, s in sources.items() if d not in failures})


def _around(catalog: Catalog, before: str | None, after: str | None) -> list[EditRef]:
    """The edits that may get a share image under one of the cutoffs ``before`` and
    ``after`` and not under the other (``share.moved_out_or_in`` tells): those observed
    from the earlier cutoff's second on (to the later's, when both are given)."""
    cutoffs = sorted(c for c in (before, after) if c is not None)
    if not cutoffs:
        return []
    high = cutoffs[-1] if len(cutoffs) == 2 else None
    return catalog.edit_table(frozenset()).moved_candidates(cutoffs[0], high)


def _fold(catalog: Catalog, max_bytes: int) -> frozenset[str]:
    """The months to fold so that the site stays within ``max_bytes`` (``folding``)."""
    return folding.months_to_fold(catalog.month_sizes(), max_bytes=max_bytes)


def _sources_of(pages: DocumentPages, catalog: Catalog) -> dict[str, Source]:
    return {slug: pages.source(slug) for slug in catalog.sources()}


def _prune_diffs(cache_root: Path, alive: set[str] | None, gone: set[str]) -> None:
    """Drop the computed comparisons of documents gone (of every document not ``alive``,
    when given: a full build looks at each file)."""
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


def _fingerprint(renderer: Renderer, options: BuildOptions, archive: Archive) -> str:
    """What every page depends on: the code, the templates, the base URL, the sources
    (from feeds.yaml, with their watched terms, and the names the archive's feed states
    give the others), which text is shown and the terms watched everywhere."""
    digest = hashlib.sha256()
    for part in (
        __version__,
        code_fingerprint(Path(__file__).parent),
        code_fingerprint(Path(__file__).parents[1] / "archive"),  # how revisions are read
        ANALYSIS_VERSION,
        renderer.fingerprint(),
        renderer.urls.base_url,
        repr(sorted(options.sources, key=lambda s: s.slug)),
        repr([unconfigured_source(archive, slug) for slug in archive.feed_slugs()]),
        *(["text re-extracted"] if options.reextracted else []),  # every page says which
        repr(options.watch),  # which edits an entry of a watched term's feed stands for
    ):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()
