"""Full-text search with Pagefind, indexed in-process through its Python API.

Pagefind's chunked index keeps what a visitor downloads small however large the archive
grows. The index is *sharded by source* and by time: each source's articles, in the order
they were first seen, form Pagefind bundles of :data:`SHARD_SIZE` articles under
``search/index/<source>/<n>/``. The search page merges every bundle with Pagefind's
``mergeIndex`` and tags each with ``mergeFilter: {source: <name>}``, which gives the
"filter by source" without filter data in the index. That matters twice: Pagefind writes
filter chunks in a different order on every run (so a filtered index is never
byte-identical), and an incremental build re-indexes only the shards whose articles
changed where Pagefind reads them (``searchparts``). Only article pages are indexed
(documents with an edit or an event: the others have no page), scoped by their
``data-pagefind-body``: the page's header, so an article is found by its outlet,
headline and byline (not by its addresses, dates or edits).
Pagefind builds an index from pages and writes it whole; it cannot add pages to an index
it wrote, so a changed bundle is indexed again from its pages, and the cut by time keeps
that small.

:class:`SearchIndexing` is one build's index: it plans the shards, keeps the unchanged ones
and hands each of the others to an :class:`Indexer` (Pagefind's command, run from a
background thread) as soon as its changed articles are written, so indexing runs beside
rendering.
"""

from __future__ import annotations

import logging
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Final, Protocol

from quietedit.errors import PublishError
from quietedit.publish.paths import CACHE_DIR, SiteWriter, file_digest
from quietedit.publish.searchparts import search_part

logger = logging.getLogger(__name__)

BUNDLE_ROOT: Final = "search/index"
SHARDS_FILE: Final = "search/index/shards.txt"
"""Which articles each search bundle holds: the next build compares it to decide what to
re-index (and researchers can see how the index is cut)."""

SHARD_SIZE: Final = 1_000
"""Articles per search bundle: a source's articles are cut, in the order they were first
seen, into runs of this many (about a second for Pagefind to index). Edits land mostly on
recent articles, so an hourly build re-indexes the newest bundle or two of a source,
however old the archive: the time stays flat as it grows."""


def search_available() -> bool:
    """Whether Pagefind's binary is installed (``pagefind[bin]``)."""
    return pagefind_binary() is not None


def pagefind_binary() -> str | None:
    """The path of the Pagefind binary its Python wheels ship (the extended build first,
    as Pagefind's own Python API looks for it); ``None`` when neither is installed."""
    for module in ("pagefind_bin_extended", "pagefind_bin"):
        try:
            found = __import__(module).get_executable()
        except (ImportError, FileNotFoundError):
            continue
        if found is not None and os.path.isfile(found):
            return str(found)
    return None


@dataclass(frozen=True, slots=True)
class Shard:
    """One Pagefind bundle: a run of a source's articles, in the order first seen."""

    source: str  # the source's slug
    part: str  # "1", "2", ...: the run's number, from the oldest; "week": this week's
    documents: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"{BUNDLE_ROOT}/{self.source}/{self.part}/"


@dataclass(frozen=True, slots=True)
class Runs:
    """A plan's runs of older articles (its numbered bundles), kept as they are: those
    first seen before the partition ``before`` (:func:`runs_before`)."""

    before: str
    shards: tuple[Shard, ...]


def runs_before(documents: dict[str, tuple[str, str]]) -> str:
    """The partition before which :func:`plan_shards` cuts ``documents`` into runs: the
    Monday of the week before the newest partition's."""
    newest = max((p for _, p in documents.values()), default="")
    return _week_before(week_start(newest))


def plan_shards(documents: dict[str, tuple[str, str]], *, runs: Runs | None = None) -> list[Shard]:
    """The bundles for ``documents`` (id → (source slug, partition)): each source's
    articles first seen before the week before the newest partition's, by partition and
    id, cut into runs of :data:`SHARD_SIZE`; those of the week before in a bundle of their
    own (``last-week``), and those of the newest partition's week in another (``week``);
    sorted.

    Edits land mostly on the last days' articles, so an hourly build re-indexes a bundle of
    a week's articles at most, at day 7 as at day 365, on a Monday too (when yesterday's
    articles are last week's); the week before's articles join the runs once, in the
    first build of the next week (Monday, UTC).

    ``runs``: the previous plan's runs, when none of their articles changed and their
    bound is this plan's (the caller knows): kept as they are, and the ``documents``
    before their bound are not read (an hourly build asks only for the newer ones)."""
    newest = max((p for _, p in documents.values()), default="")
    week = week_start(newest)
    before = _week_before(week)
    by_source: dict[str, list[tuple[str, str]]] = {}
    for doc, (source, partition) in documents.items():
        by_source.setdefault(source, []).append((partition, doc))
    kept: dict[str, list[Shard]] = {}
    for shard in runs.shards if runs is not None else ():
        kept.setdefault(shard.source, []).append(shard)
    shards = []
    for source in sorted(by_source.keys() | kept.keys()):
        docs = sorted(by_source.get(source, []))
        if runs is not None:
            shards += kept.get(source, [])
        else:
            old = [doc for partition, doc in docs if partition < before]
            for n, start in enumerate(range(0, len(old), SHARD_SIZE), start=1):
                run = tuple(sorted(old[start : start + SHARD_SIZE]))
                shards.append(Shard(source, str(n), run))
        previous = sorted(doc for partition, doc in docs if before <= partition < week)
        if previous:
            shards.append(Shard(source, LAST_WEEK_PART, tuple(previous)))
        recent = sorted(doc for partition, doc in docs if partition >= week)
        if recent:
            shards.append(Shard(source, WEEK_PART, tuple(recent)))
    return shards


def _week_before(week: str) -> str:
    """The Monday a week before the Monday ``week`` (a partition name; itself when it is
    not a day)."""
    try:
        day = date.fromisoformat(week.replace("/", "-"))
    except ValueError:
        return week
    return (day - timedelta(days=7)).strftime("%Y/%m/%d")


LAST_WEEK_PART: Final = "last-week"
"""The bundle of the articles first seen the week before this week."""
WEEK_PART: Final = "week"
"""The bundle of the articles first seen this week (Monday to Sunday, UTC)."""


def week_start(partition: str) -> str:
    """The partition (``YYYY/MM/DD``) of the Monday of ``partition``'s week; ``""`` for
    none (or a name that is not a day: every partition then counts as older)."""
    try:
        day = date.fromisoformat(partition.replace("/", "-"))
    except ValueError:
        return "~" if partition else ""
    return (day - timedelta(days=day.weekday())).strftime("%Y/%m/%d")


def _pages_folder(root: str, shard: Shard, folder: Path) -> Path:
    """``folder``, made to hold the article pages of ``shard`` alone, at their paths in the
    site at ``root`` (hard links; copies across file systems), for Pagefind to index as it
    would index them in the site: the same pages, paths and order."""
    for doc in shard.documents:  # document ids are [a-z0-9-]: safe as folder names
        source = os.path.join(root, "articles", doc, "index.html")
        if not os.path.isfile(source):
            continue  # no page: the site's walk would have found none either
        target = folder / "articles" / doc
        target.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target / "index.html")
        except OSError:
            shutil.copyfile(source, target / "index.html")
    folder.mkdir(parents=True, exist_ok=True)  # a shard without pages: an empty index
    return folder


UNUSED_FILES: Final = frozenset(
    {
        "pagefind-component-ui.css",
        "pagefind-component-ui.js",
        "pagefind-modular-ui.css",
        "pagefind-modular-ui.js",
        "pagefind-highlight.js",
    }
)
"""Pagefind's other user interfaces and its highlighter, which the search page never
loads: about 280 KB a bundle, left out of the site."""

RUNTIME_FILES: Final = frozenset(
    {
        "pagefind.js",
        "pagefind-worker.js",
        "pagefind-ui.js",
        "pagefind-ui.css",
        "wasm.en.pagefind",
    }
)
"""Pagefind's code (its UI, its search code and worker, the WebAssembly it runs): the
search page loads it from the first bundle alone, whose instance every other bundle is
merged into (a merged bundle's instance needs only its entry, metadata, index and
fragments). Kept in the first bundle only: about 300 KB less for every other bundle."""
UNKNOWN_WASM: Final = "wasm.unknown.pagefind"
"""For pages without a language: every page of the site is English (``lang="en"``)."""

ABORT_WAIT: Final = 30.0
"""Seconds a failed build waits for Pagefind to finish the shard in hand and exit."""

BUNDLE_TIMEOUT: Final = 600.0
"""Seconds Pagefind may take for one bundle (a full bundle of :data:`SHARD_SIZE` pages
takes about a second) before the build fails, naming it."""


class Indexer:
    """Pagefind at work beside the build: a background thread runs Pagefind's command on
    each shard handed to :meth:`add` (once its article pages are written) while the build
    goes on; :meth:`finish` waits and returns ``{shard path: {name: its file}}``.

    Pagefind is a process of its own, so indexing overlaps with rendering on another
    core. Its command, not its Python API: the API's service reads each answer after a
    tenth of a second's sleep, four answers a bundle, so an hourly build that indexed
    ten bundles waited four seconds for about half a second of work (day 7 of
    ``bench/year.py``); the command indexes a bundle of tens of pages in about 0.05 s and
    writes the same files. Failures surface from :meth:`finish` as ``PublishError``.
    """

    def __init__(self, site: Path, *, work: Path | None = None) -> None:
        self.root = str(site.resolve())
        self.binary = pagefind_binary()
        self.queue: queue.SimpleQueue[Shard | None] = queue.SimpleQueue()
        self.shards: list[Shard] = []
        # on the site's file system when given, so finished files move instead of copying
        if work is not None:
            work.mkdir(parents=True, exist_ok=True)
        # absolute: Pagefind runs in it, and is given paths in it
        self.work = Path(tempfile.mkdtemp(prefix="search-", dir=work)).resolve()
        self.error: BaseException | None = None
        self._ended = False  # the end of the queue was read
        self.thread = threading.Thread(target=self._run, name="quietedit-search", daemon=True)
        self.thread.start()

    def add(self, shard: Shard) -> None:
        """Index ``shard`` (its article pages must be written by now)."""
        self.shards.append(shard)
        self.queue.put(shard)

    def finish(self) -> dict[str, dict[str, Path]]:
        """Wait for the index: ``{shard path: {file name: its file}}`` (no files for a
        shard without pages). The files stay until :meth:`close`; raises
        ``PublishError`` when Pagefind failed."""
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            self.close()
            raise PublishError(f"search: Pagefind failed: {self.error}") from self.error
        results: dict[str, dict[str, Path]] = {}
        for n, shard in enumerate(self.shards):
            folder = self.work / str(n)
            files = sorted(
                p for p in folder.rglob("*") if p.is_file() and p.name not in UNUSED_FILES
            )
            results[shard.path] = {p.relative_to(folder).as_posix(): p for p in files}
        return results

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)

    def abort(self) -> None:
        """End the index of a build that failed: Pagefind stops after the shard in hand,
        and the work folder goes. Harmless after :meth:`finish`."""
        self.queue.put(None)
        self.thread.join(timeout=ABORT_WAIT)
        self.close()

    def _run(self) -> None:
        try:
            n = 0
            while (shard := self.queue.get()) is not None:
                self._ended = False
                self._index(shard, n)
                n += 1
            self._ended = True
        except (OSError, PublishError, subprocess.SubprocessError) as exc:
            self.error = exc
            while not self._ended:  # drain what add() queues until finish() ends it
                self._ended = self.queue.get() is None

    def _index(self, shard: Shard, n: int) -> None:
        """Index ``shard``'s pages into the folder ``n`` of the work folder (none for a
        shard without pages: Pagefind makes no index of no pages)."""
        if self.binary is None:
            raise PublishError("the pagefind binary is not installed (pagefind[bin])")
        # Pagefind walks the folder it is given: the site's would be every article folder
        # of the site for each bundle (363,000 at a year of bench/year.py)
        pages = _pages_folder(self.root, shard, self.work / f"pages-{n}")
        if not any(pages.iterdir()):
            shutil.rmtree(pages)
            return
        done = subprocess.run(  # noqa: S603 - Pagefind's own binary, fixed arguments, no shell
            [self.binary, "--site", str(pages), "--output-path", str(self.work / str(n)),
             "--force-language", "en", "--silent"],
            # no configuration file of the caller's folder, no PAGEFIND_* settings of
            # its environment: the index is the pages' alone
            cwd=self.work, env=_clean_env(), capture_output=True, text=True,
            timeout=BUNDLE_TIMEOUT, check=False,
        )  # fmt: skip
        shutil.rmtree(pages)
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()
            raise PublishError(
                f"{shard.path}: exit status {done.returncode}" + (f": {said[-1]}" if said else "")
            )
        logger.debug("search %s: indexed", shard.path)


def _clean_env() -> dict[str, str]:
    """This process's environment without Pagefind's own settings (``PAGEFIND_*``)."""
    return {k: v for k, v in os.environ.items() if not k.upper().startswith("PAGEFIND_")}


class SearchIndexing:
    """The search index of one build: shards planned at once; unchanged ones kept, the
    others handed to Pagefind (:class:`~quietedit.publish.Indexer`) as soon as
    their changed documents are rendered, so indexing overlaps with rendering."""

    def __init__(
        self,
        writer: SiteWriter,
        shards: list[Shard],
        *,
        changed: set[str],
        rebuild: bool,
        recorded: Recorded | None = None,
    ) -> None:
        self.writer = writer
        self.shards = shards
        previous = _previous_shards(writer)
        # the previous build's bundles: the files of those indexed again, dropped or with
        # files to drop are read (``loaded``, and known to the writer); the others are
        # kept whole (``whole``), their files neither read nor claimed one by one
        bundles = recorded.bundles if recorded is not None and not rebuild else frozenset()
        self.loaded: dict[str, tuple[str, str]] = {}
        self.whole: set[str] = set()

        def files_of(bundle: str) -> dict[str, str]:
            if recorded is None or bundle not in bundles:
                return {}
            rows = recorded.bundle_site(bundle)
            self.loaded.update(rows)
            known = {p: d for p, (d, _) in rows.items()}
            writer.known.update(known)
            return known

        planned = {shard.path for shard in shards}
        for bundle in sorted(bundles - planned):  # gone: its files removed (not claimed)
            files_of(bundle)
        self.indexer: Indexer | None = None
        self.waiting: dict[str, tuple[Shard, set[str]]] = {}  # shard path → ...
        self.shard_of: dict[str, str] = {}  # changed document → its shard's path
        # files of unchanged shards, claimed by finish(): a plan dropped by abort() (the
        # build folded a month more) leaves no claim behind
        self.kept: dict[str, str] = {}
        # shards to index whatever their documents' pages turn out to be; the others
        # wait on documents rendered again, and are kept if none of their pages changed
        # (a document whose record moved without a change of content, say)
        self.dirty: set[str] = set()
        self.unless: dict[str, dict[str, str]] = {}  # waiting shard → the files it keeps
        # a document of such a shard → what Pagefind read of its page (``searchparts``)
        self.parts: dict[str, bytes | None] = {}
        for n, shard in enumerate(shards):
            entry = shard.path + "pagefind-entry.json"
            pending = set(shard.documents) & changed
            # the first bundle carries Pagefind's code; one that became first without it
            # (the bundle first before is gone) is indexed again
            runtime = os.path.isfile(os.path.join(writer.root, shard.path + "pagefind.js"))
            forced = (
                rebuild
                or previous.get(shard.path) != shard.documents
                or shard.path not in bundles
                or not os.path.isfile(os.path.join(writer.root, entry))
                or (n == 0 and not runtime)
            )
            # Pagefind's code left by an older build in a bundle not first: dropped
            dropped = {UNKNOWN_WASM} | (RUNTIME_FILES if n else frozenset())
            stray = (n and runtime) or os.path.isfile(
                os.path.join(writer.root, shard.path + UNKNOWN_WASM)
            )
            if not (forced or pending or stray):
                self.whole.add(shard.path)
                continue
            kept = files_of(shard.path)
            keep = {p: d for p, d in kept.items() if p.rsplit("/", 1)[1] not in dropped}
            if forced or pending:
                self.waiting[shard.path] = (shard, pending)
                self.shard_of.update((doc, shard.path) for doc in pending)
                if forced:
                    self.dirty.add(shard.path)
                else:
                    self.unless[shard.path] = keep
                    self.parts.update((doc, self._part(doc)) for doc in pending)
            else:
                self.kept.update(keep)
        # started by start() or the first rendered(): after the render workers are forked,
        # since forking a process that runs threads is unsafe
        self.idle = not self.dirty

    def start(self) -> None:
        """Start Pagefind if there is anything to index (its start-up then overlaps with
        rendering); never before the render workers are forked."""
        if self.indexer is None and not self.idle:
            self.indexer = Indexer(self.writer.root, work=self.writer.root / CACHE_DIR)

    def rendered(self, documents: list[str], *, changed: frozenset[str] = frozenset()) -> None:
        """``documents`` are written (or failed), the article pages of ``changed`` with
        new bytes: index each shard that waited only on them and has a changed page (or
        had to be indexed anyway); keep the others as they are."""
        self.start()
        for doc in documents:
            path = self.shard_of.pop(doc, None)
            if path is not None:
                self.waiting[path][1].discard(doc)
                if doc in changed and not self._same_part(doc):
                    self.dirty.add(path)
        for path, (shard, pending) in list(self.waiting.items()):
            if pending:
                continue
            del self.waiting[path]
            if path not in self.dirty:
                self.kept.update(self.unless.pop(path, {}))
                continue
            if self.indexer is None:
                self.idle = False
                self.start()
            assert self.indexer is not None  # noqa: S101 - started just above
            self.indexer.add(shard)

    def _part(self, doc: str) -> bytes | None:
        """What Pagefind reads of ``doc``'s article page as it is now (``None``: none)."""
        try:
            with open(os.path.join(self.writer.root, f"articles/{doc}/index.html"), "rb") as f:
                return search_part(f.read())
        except OSError:
            return None

    def _same_part(self, doc: str) -> bool:
        """Whether ``doc``'s page, written again with other bytes, holds what Pagefind
        read of it before: its bundle then need not be indexed again for it."""
        before = self.parts.pop(doc, None)
        return before is not None and before == self._part(doc)

    def abort(self) -> None:
        """Stop indexing for a build that failed before :meth:`finish` (no-op after it)."""
        if self.indexer is not None:
            self.indexer.abort()

    def finish(self) -> list[Shard]:
        """Wait for the index, write its files, and return the shards with an index
        (raises its error): not one whose every page failed to render the first time,
        which Pagefind had nothing to index for (the next build indexes it again)."""
        self.rendered([])
        empty: set[str] = set()
        for path, digest in sorted(self.kept.items()):
            self.writer.claim(path, digest)
        if self.waiting and self.indexer is None:
            self.idle = False
            self.start()
        if self.indexer is not None:
            for shard, _ in self.waiting.values():  # a document of it failed: index the rest
                self.indexer.add(shard)
            self.waiting.clear()
            try:
                first = self.shards[0].path if self.shards else ""
                for path, found in self.indexer.finish().items():
                    if not found:
                        empty.add(path)
                    for name, file in sorted(found.items()):
                        if name == UNKNOWN_WASM or (path != first and name in RUNTIME_FILES):
                            continue
                        self.writer.adopt(path + name, file)
            finally:
                self.indexer.close()
        self.writer.write(
            SHARDS_FILE, "".join(f"{s.path} {' '.join(s.documents)}\n" for s in self.shards)
        )
        return [shard for shard in self.shards if shard.path not in empty]


class Recorded(Protocol):
    """What the index asks of the previous build's cache (``buildcache.BuildState``)."""

    @property
    def bundles(self) -> frozenset[str]: ...
    def bundle_site(self, bundle: str) -> dict[str, tuple[str, str]]: ...


def previous_runs(writer: SiteWriter, before: str) -> Runs | None:
    """The numbered bundles of the previous build's plan (``SHARDS_FILE``) as its runs of
    the articles before ``before`` (its bound), when the file holds the bytes the cache
    recorded; ``None`` otherwise."""
    try:
        with open(os.path.join(writer.root, SHARDS_FILE), "rb") as handle:
            body = handle.read()
    except OSError:
        return None
    if not before or file_digest(body) != writer.known.get(SHARDS_FILE):
        return None
    shards = []
    for line in body.decode("utf-8").splitlines():
        path, _, docs = line.partition(" ")
        source, _, part = path.removeprefix(BUNDLE_ROOT + "/").rstrip("/").partition("/")
        if part.isdigit():
            shards.append(Shard(source, part, tuple(docs.split())))
    return Runs(before, tuple(shards))


def _previous_shards(writer: SiteWriter) -> dict[str, tuple[str, ...]]:
    """Which documents each shard held in the previous build (from ``SHARDS_FILE``)."""
    path = os.path.join(writer.root, SHARDS_FILE)
    if SHARDS_FILE not in writer.known or not os.path.isfile(path):
        return {}
    found: dict[str, tuple[str, ...]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            name, _, docs = line.rstrip("\n").partition(" ")
            found[name] = tuple(docs.split())
    return found
