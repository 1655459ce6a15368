"""``quietedit build``: the archive in, the static site out — deterministic and incremental.

:func:`_build` runs the phases in order. Gather: the options checked, the previous
build's cache and stories file loaded (:func:`_open`), the archive's documents and what
changed (``scan``). Decide: what to keep, render and delete (``plan``, pure; the pages
themselves are the pure models of ``pages``, ``diffview`` and ``listing``) and the
stories (``storyrows.link_stories``). Apply: the documents rendered (``rendering``), their
rows written into the cache (``catalog``), the share images and the fold decided on every
document's row and what they move rendered again, the site-wide pages written
(``sitewide``, ``stories``, ``homepages``), the cache saved and the build reported. Every
file goes through :class:`~quietedit.publish.paths.SiteWriter`.

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
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quietedit.analysis.stories import Story
from quietedit.archive.store import Archive
from quietedit.config.settings import SiteSettings
from quietedit.errors import PublishError
from quietedit.publish import committed, homepages, pagesrecord, plan, sitewide
from quietedit.publish.buildcache import (
    STATE_FILE,
    BuildState,
    bundle_of,
    code_fingerprint,
    is_bundle_file,
)
from quietedit.publish.cacherows import CacheDamagedError, DocumentEntry
from quietedit.publish.catalog import Catalog, prune_diffs
from quietedit.publish.changes import ANALYSIS_VERSION
from quietedit.publish.documents import DocumentPages, document_folders, unconfigured_source
from quietedit.publish.edittable import EditTable
from quietedit.publish.listing import EditRef
from quietedit.publish.pages import Edit, Source
from quietedit.publish.paths import CACHE_DIR, SiteWriter
from quietedit.publish.render import Renderer, SiteURLs, template_dirs
from quietedit.publish.rendering import Rendering, decide_share_since
from quietedit.publish.scan import Scan, previous_places, scan
from quietedit.publish.siteindexes import DayChanges
from quietedit.publish.stories import StoryState
from quietedit.publish.storypages import write_story_pages
from quietedit.publish.storyrows import StoryRows, link_stories, next_generation
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


@dataclass(slots=True)
class _Build:
    """What every phase of one build works with, made by :func:`_open`."""

    options: BuildOptions
    on_exit: contextlib.ExitStack
    renderer: Renderer
    archive: Archive
    fingerprint: str
    cache_root: Path
    previous: BuildState  # the cache as the previous build left it
    hourly: bool  # the cache was made by this code for this site: read in part
    trusted: BuildState  # what this build trusts of it (nothing with --full)
    writer: SiteWriter
    pages: DocumentPages
    story_state: StoryState | StoryRows
    generation: str

    @property
    def rebuild(self) -> bool:
        """Nothing recorded can be trusted: every site-wide file and search shard is made."""
        return self.options.full or not self.previous.loaded


def _build(
    options: BuildOptions,
    progress: Callable[[int, int], None] | None,
    on_exit: contextlib.ExitStack,
    written: list[str],
) -> BuildReport:
    """One attempt: gather (the cache, the archive's documents), decide (what to render,
    keep and delete; the stories), apply (render, write the cache, decide the share
    images and the fold on every document's row, write the site-wide pages, save)."""
    build = _open(options, on_exit, written)
    scanned = scan(
        build.archive, build.previous, out=options.out, cache_root=build.cache_root,
        fingerprint=build.fingerprint, hourly=build.hourly, full=options.full,
        folded=build.pages.folded,
    )  # fmt: skip
    # the documents to read that a sparse checkout leaves out, fetched at once rather
    # than one each as they are read (by the stories, then by the workers)
    build.archive.prefetch(sorted(d for d in scanned.todo if d not in scanned.found))
    # stories first: an article page links to its story's page
    shown = link_stories(
        build.pages, build.story_state, build.previous, state=scanned.state,
        found=scanned.found, gone=scanned.gone, todo=scanned.todo, failures=scanned.failures,
        hourly=build.hourly,
    )  # fmt: skip
    build.archive.prefetch(sorted(d for d in scanned.todo if d not in scanned.found))
    kept_since = decide_share_since(
        build.pages, build.previous, scanned, fingerprint=build.fingerprint,
        hourly=build.hourly, share_days=options.share_days,
    )  # fmt: skip
    rendering = _render(build, scanned, progress)
    catalog, places = _record(build, scanned, rendering)
    rendering.reshare(catalog, share_days=options.share_days, kept_since=kept_since)
    folded, failed = rendering.refold(
        catalog, max_bytes=options.max_bytes, todo=scanned.todo, rebuild=build.rebuild
    )
    scanned.gone |= failed
    for doc in sorted(scanned.gone):  # a document gone from the archive, or failing now
        build.writer.remove_unclaimed(document_folders(doc))
    site, table, site_failures = _write_site_wide(
        build, scanned, rendering, catalog, folded=folded, places=places, shown=shown
    )
    return _finish(
        build, scanned, rendering, catalog, site, table, folded=folded, failures=site_failures
    )


def _open(options: BuildOptions, on_exit: contextlib.ExitStack, written: list[str]) -> _Build:
    """Check the folders, load the previous build's cache and the stories file, and make
    the renderer and the site's writer (recording in ``written`` what it rewrites)."""
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
    renderer = Renderer(template_dirs(options.templates), urls=SiteURLs.parse(options.base_url))
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
    story_state: StoryState | StoryRows | None = None
    if hourly:
        story_state = StoryRows.open(cache_root, previous.generation)
    if story_state is None:
        story_state = StoryState() if options.full else StoryState.load(cache_root)
    # the months the previous build folded: its documents are rendered (and searched)
    # as then; the choice is made again once every document's size is known (``refold``)
    pages.folded = trusted.folded
    pages.site_name = str(renderer.env.globals["site_name"])
    return _Build(
        options, on_exit, renderer, archive, fingerprint, cache_root, previous, hourly,
        trusted, writer, pages, story_state, next_generation(previous.generation),
    )  # fmt: skip


def _render(build: _Build, scanned: Scan, progress: Callable[[int, int], None] | None) -> Rendering:
    """Render the documents to render, the search index made beside them."""
    options, pages = build.options, build.pages
    rendering = Rendering(
        pages, build.writer, build.fingerprint, build.story_state, scanned.state,
        scanned.failures,
    )  # fmt: skip
    shards = rendering.plan_search(scanned, build.previous, hourly=build.hourly)
    if options.search:
        # a build that fails (a template error, Ctrl-C) must not leave Pagefind running
        build.on_exit.callback(rendering.abort_search)
        rendering.start_search(
            shards, scanned.todo, workers=options.workers, rebuild=build.rebuild,
            recorded=build.trusted,
        )  # fmt: skip
    rendering.render(scanned.todo, shards, workers=options.workers, progress=progress)
    return rendering


def _record(
    build: _Build, scanned: Scan, rendering: Rendering
) -> tuple[Catalog, tuple[set[str], list[tuple[str, str]]]]:
    """Every worker forked: open the cache for this build's writes and write the rows of
    the documents rendered or kept, less those gone. Returns it, and what the previous
    cache said of the documents whose rows changed (``scan.previous_places``)."""
    previous, hourly = build.previous, build.hourly
    whole_write = previous.documents.keys() if not hourly and previous.loaded else None
    scanned.gone = plan.gone_after_rendering(
        scanned.gone, scanned.failures, scanned.state, whole_write
    )
    places = previous_places(
        previous, scanned.cached, scanned.gone, rendering.stamps, hourly=hourly,
        rebuild=build.rebuild,
    )  # fmt: skip
    catalog = Catalog.begin(build.cache_root, previous, whole=not hourly)
    build.on_exit.callback(catalog.abort)  # a no-op once finished
    if catalog.fresh and hourly:  # the cache could not be written in place: whole, then
        catalog.write({d: e for d, e in previous.documents.items() if d not in scanned.gone})
    catalog.write(scanned.state)
    catalog.delete(scanned.gone)
    return catalog, places


def _write_site_wide(
    build: _Build,
    scanned: Scan,
    rendering: Rendering,
    catalog: Catalog,
    *,
    folded: frozenset[str],
    places: tuple[set[str], list[tuple[str, str]]],
    shown: tuple[Story, ...],
) -> tuple[sitewide.SiteWide, EditTable, list[str]]:
    """Write the site-wide pages, the story pages and the homepages' pages; returns the
    pages' writer, every edit's table and the failures that did not stop the build."""
    options, pages, state = build.options, build.pages, scanned.state
    read: dict[str, DocumentEntry] = {}  # documents whose edits are shown again, unchanged

    def entry_of(doc: str) -> DocumentEntry | None:
        entry = state.get(doc) or read.get(doc)
        if entry is None:
            try:
                entry = read[doc] = catalog.entry(doc)
            except KeyError:  # gone, or failing now
                return None
        return entry

    def edit_of(ref: EditRef) -> Edit:
        entry = state.get(ref.document) or read.get(ref.document)
        if entry is None:
            entry = read[ref.document] = catalog.entry(ref.document)
        return entry.edit(ref.number)

    site = sitewide.SiteWide(
        renderer=build.renderer, writer=build.writer, archive=build.archive,
        fingerprint=build.fingerprint, keys={p: e[1] for p, e in build.trusted.site.items()},
        edit_of=edit_of, items=rendering.items, watch=options.watch,
    )  # fmt: skip
    # the partitions whose documents changed (rendered, gone): the others' API day files
    # stay as they are; every one when nothing recorded can be trusted or the fold moved
    changed: set[str] | None = None
    since = sitewide.AFTER_ALL  # the earliest place of a document whose row changed
    if not build.rebuild and folded == build.trusted.folded:
        gone_partitions, earlier = places
        changed, since = plan.site_changes(
            state, rendering.stamps, gone_partitions, earlier, after_all=sitewide.AFTER_ALL
        )
    table = catalog.edit_table(folded)
    # the edits that changed, for the listings to keep their archive pages before the
    # earliest: only when the previous build's pages were made by this code, as now
    changes = catalog.changes if build.hourly and changed is not None else None
    # an hourly build's API day files: the previous ones with the rows it wrote put in
    day_changes = None
    if changes is not None:
        rows = {doc: state[doc].summary for doc in rendering.stamps if doc in state}
        day_changes = DayChanges(rows, frozenset(scanned.gone))
    sources = dict(sorted({**pages.sources, **_sources_of(pages, catalog)}.items()))
    failures = site.write_all(
        catalog, table, sources=sources,
        indexing=rendering.indexing, folded=folded, data_url=options.data_url,
        database_url=options.database_url, changed=changed, since=since, changes=changes,
        listings=build.previous.listings if build.hourly else "", day_changes=day_changes,
    )  # fmt: skip
    write_story_pages(site, pages, entry_of, shown, trusted=build.trusted)
    # the homepages' headline pages, from their feed records (a few files, read each build)
    homepages.write_homepages(site, build.archive, dict(sorted(pages.sources.items())))
    return site, table, failures


def _finish(
    build: _Build,
    scanned: Scan,
    rendering: Rendering,
    catalog: Catalog,
    site: sitewide.SiteWide,
    table: EditTable,
    *,
    folded: frozenset[str],
    failures: list[str],
) -> BuildReport:
    """Remove the files this build no longer makes, make the cache the new one (the rows,
    the stories, the tree ids, the comparisons of documents still there) and report."""
    writer, previous, cache_root = build.writer, build.previous, build.cache_root
    document_files = {p for p in writer.claimed if p.startswith(("articles/", "api/documents/"))}
    new_site = {
        path: (digest, site.new_keys.get(path, ""))
        for path, digest in writer.claimed.items()
        if path not in document_files
    }
    # the search bundles' rows read (of bundles indexed again or gone), and the bundles
    # kept whole, whose rows stay as they are (``search.SearchIndexing``)
    indexing = rendering.indexing
    loaded, whole = (indexing.loaded, indexing.whole) if indexing is not None else ({}, set())
    if indexing is None:  # no index this time: every bundle's files go
        for bundle in sorted(previous.bundles):
            loaded.update(previous.bundle_site(bundle))
    if catalog.fresh:  # a cache written whole: the rows of the bundles kept whole too
        for bundle in sorted(whole):
            new_site.update(previous.bundle_site(bundle))
    previous_site = {**previous.site, **loaded}
    stale = {p: "" for p in previous_site if p not in new_site and p not in document_files}
    bundles = whole | {bundle_of(p) for p in new_site if is_bundle_file(p)}
    if build.options.full or not previous.loaded:
        # what no record names (no cache, or one not trusted): the site folder is made
        # what a build into an empty folder makes, but for the pages of documents kept
        # unread (left out of the checkout, pages made by this code)
        unread = {doc for doc in scanned.state if doc not in rendering.stamps}
        writer.remove_unowned(lambda path: plan.document_of(path) in unread)
    removed = writer.removed + writer.remove_stale(stale)
    documents, _, files = catalog.totals()
    edit_count = table.count(edits_only=True)  # not the events listed among them
    alive = catalog.ids() if not build.hourly else None
    committed.forget(cache_root)  # until written again below, for the rows written now
    pagesrecord.forget(cache_root)
    site_files = catalog.finish(
        site=new_site, previous_site=previous_site, folded=folded,
        fingerprint=build.fingerprint, share_since=build.pages.share_since,
        listings=site.listings_key, generation=build.generation, bundles=bundles,
    )  # fmt: skip
    # a document whose rows the cache lost this late (it failed) keeps its sketch: the
    # next build reads the stories whole, and drops it if it is gone by then
    dropped_late = any(doc in build.story_state.documents for doc in scanned.gone)
    build.story_state.save(cache_root, "" if dropped_late else build.generation)
    unsure = committed.failed_partitions(build.archive, scanned.failures)
    committed.record(cache_root, scanned.trees, unsure=unsure)
    # last: every article folder is made or removed by now; the runs are kept only
    # where this build wrote the plan they come from (``search.previous_runs``)
    before = rendering.search_before if indexing is not None else ""
    pagesrecord.write(
        cache_root, build.options.out, generation=build.generation, search_before=before
    )
    prune_diffs(cache_root, alive, scanned.gone)
    site_failures = tuple(scanned.failures[doc] for doc in sorted(scanned.failures))
    return BuildReport(
        documents=documents,
        rendered=rendering.rendered,
        edits=edit_count,
        files=site_files + files,
        written=tuple(writer.written),
        removed=tuple(removed),
        failures=site_failures + tuple(failures),
    )


def _sources_of(pages: DocumentPages, catalog: Catalog) -> dict[str, Source]:
    return {slug: pages.source(slug) for slug in catalog.sources()}


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
