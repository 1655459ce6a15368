"""What a build starts from: the archive's documents, what changed since the previous build,
and the previous build's record of them (the "gather" of a build).

:func:`scan` takes each document's stamp (``stamps.document_stamps``), the git tree ids
of the partitions (``committed``), the previous build's rows (every row, or in an hourly
build only those of the partitions it reads and of the documents found elsewhere) and the
article folders on disk, and hands them to :mod:`~quietedit.publish.plan` to sort the
documents into kept, rendered and failed. The archive may be a sparse checkout: a
document it leaves out keeps its row and pages, unless they are missing or a commit
changed it while left out (``committed``). An hourly build reads only the partitions on
disk that moved since the previous build: one it read under the tree id the commit
still gives it, with no file that differs from the commit, is *settled*
(``committed.settled``), and its documents are kept as if left out, unlisted and
unstamped; so are those of a bucket of a partition read whose tree id is the one the
previous build's stamps of its documents make (a partition moves for its checks file
alone; a bucket only when one of its documents changes). When the previous build's
record of its pages says that no article folder was added or removed since
(``pagesrecord``), the article folders are not listed and the documents kept unread are
not looked up at all. After rendering, :func:`previous_places`
asks the previous build's cache where the documents whose rows change were, before the
cache is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.archive import sparse, stamps, treeids
from quietedit.archive.store import Archive
from quietedit.archive.treeids import Trees
from quietedit.errors import QuieteditError
from quietedit.publish import buckets, committed, pagesrecord, plan
from quietedit.publish.buildcache import BuildState
from quietedit.publish.cacherows import DocumentEntry
from quietedit.publish.catalog import not_folded as catalog_not_folded

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
_BY_ID: Final = 500
"""Ids asked of the cache per query (SQLite's limit of parameters is 999 on old builds)."""


@dataclass(slots=True)
class Scan:
    """The documents of a build, as gathered and sorted before rendering.

    ``found``: id → stamp of the documents on disk (but those of the ``settled``
    partitions, ``committed.settled``, and of the ``kept_buckets``: on disk, but neither
    listed nor looked up);
    ``cached``: the previous build's rows this build trusts (of the documents found, or
    all); ``gone``: deleted from the archive; ``state``: the rows kept (restamped) or kept
    unread; ``todo``: id → stamp of the documents to render; ``published``: in an hourly
    build, the cache's rows of :data:`_PUBLISHED` (id, stamp, source, partition), of the
    partitions from ``search_before`` on when that is set (``pagesrecord``: the previous
    build's article folders are complete, and the search index keeps its older runs);
    ``kept_buckets``: in an hourly build, the buckets (``YYYY/MM/DD/<bb>``) of the
    partitions read whose tree id is the one the previous build's stamps of their
    documents make (``committed.built_buckets``): their documents are kept unread, as
    those of a settled partition are."""

    found: dict[str, str]
    trees: Trees | None
    present: list[str]
    settled: set[str] = field(default_factory=set)
    cached: dict[str, DocumentEntry] = field(default_factory=dict)
    published: list[Any] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    state: dict[str, DocumentEntry] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    todo: dict[str, str] = field(default_factory=dict)
    search_before: str = ""
    kept_buckets: frozenset[str] = frozenset()


def scan(
    archive: Archive,
    previous: BuildState,
    *,
    out: Path,
    cache_root: Path,
    fingerprint: str,
    hourly: bool,
    full: bool,
    folded: frozenset[str],
) -> Scan:
    """Gather what the build starts from and sort the documents (``plan.sort_found``):
    ``hourly`` reads the cache's rows of the partitions on disk alone, ``full`` trusts
    none; ``folded``: the months the previous build folded."""
    # the previous build left every document with pages with its folder, and no article
    # folder was added or removed since: the folder is not listed (``pagesrecord``)
    record = pagesrecord.read(cache_root, previous.generation) if hourly else None
    complete = pagesrecord.complete(record, out)
    on_disk = set() if complete else article_folders(out)
    if not previous.loaded:
        # nothing recorded of the documents a sparse checkout leaves out (a lost or damaged
        # cache): without them the site would shrink, and stay shrunk; read them all
        sparse.check_out_everything(archive.root)
    before = committed.recorded(cache_root)
    trees = treeids.read(archive.root, before)  # None outside git
    present = sorted(set(archive.partitions()))
    # as the previous build read them, to the file: kept unread, as if left out
    settled = committed.settled(trees, before, present) if hourly else set()
    read = [p for p in present if p not in settled]
    # the folders git lists: those of the partitions whose tree id moved (and, hourly,
    # those read), but the buckets whose every document is as the previous build read it
    moved = committed.moved(trees, before)
    asked = sorted({*moved, *read}) if hourly else moved
    listing = None
    if trees is not None and previous.loaded:
        listing = trees.listing(asked, unchanged=committed.built_buckets(previous, asked))
    # on disk; hourly, the documents of those buckets are kept unread, as if left out
    found = stamps.document_stamps(
        archive.layout.documents_dir, read, trees, listing=listing if hourly else None
    )
    # their partitions, from their folders: no index shard fetched into a sparse checkout
    archive.documents(read)
    done = Scan(found, trees, present, settled=settled)
    if hourly and listing is not None:
        done.kept_buckets = listing.unchanged
    if complete:
        on_disk = set(found)  # those with pages have their folder
    outside = archive.outside_checkout()
    # changed by a commit while the checkout leaves them out: read again (``committed``)
    changed = committed.changed_outside(trees, before, previous, found, outside, listing=listing)
    if hourly:
        done.cached = _cached_rows(previous, read, found, done.kept_buckets)
        # missing from what is checked out: deleted; a document the checkout leaves out (a
        # sparse checkout of the documents still observed) keeps its row and pages
        done.gone = {
            doc
            for doc, entry in done.cached.items()
            if doc not in found and not outside(entry.partition, doc)
        }
        if complete and record is not None:
            # the documents left unread have their pages: only those of the search
            # index's newest bundles are asked for (``search.Runs`` keeps the others')
            done.search_before = record.search_before
            done.published = published_rows(previous, since=record.search_before)
        else:
            # the documents with pages as the cache has them: read once, for both uses
            done.published = published_rows(previous)
            kept_out = _kept_out(outside, settled, done.kept_buckets)
            _missing_pages(done.published, found, kept_out, on_disk, done.todo)
    else:
        done.cached = {} if full else previous.documents
        _keep_absent(previous, found, outside, on_disk, fingerprint=fingerprint, scanned=done)
    for doc, doc_stamp in changed.items():
        done.state.pop(doc, None)
        done.todo[doc] = doc_stamp
    contents: dict[str, str] = {}
    unreadable: dict[str, str] = {}
    for doc in plan.to_reread(found, done.cached):
        try:
            contents[doc] = archive.content_key(doc)
        except QuieteditError as exc:
            unreadable[doc] = str(exc)
    sorted_ = plan.sort_found(
        found, done.cached, contents, unreadable,
        fingerprint=fingerprint, on_disk=on_disk, folded=folded,
    )  # fmt: skip
    done.failures.update(sorted_.failures)
    done.state.update(
        (doc, done.cached[doc].restamped(stamp)) for doc, stamp in sorted_.kept.items()
    )
    done.todo.update(sorted_.render)
    return done


def published_rows(previous: BuildState, *, since: str = "") -> list[Any]:
    """The previous build's rows of :data:`_PUBLISHED`, of the partitions from ``since`` on
    (every one when ``""``)."""
    where, params = catalog_not_folded(previous.folded)
    if since:
        where, params = f"{where} AND partition >= ?", (*params, since)
    return previous.query(_PUBLISHED.format(where), params)


def _cached_rows(
    previous: BuildState,
    present: list[str],
    found: dict[str, str],
    kept_buckets: frozenset[str] = frozenset(),
) -> dict[str, DocumentEntry]:
    """The cache's rows of the partitions on disk but those of the ``kept_buckets``, and
    of the documents found elsewhere."""
    places = ", ".join("?" * len(present))
    where = f"WHERE partition IN ({places})"
    params: tuple[str, ...] = tuple(present)
    if kept_buckets:
        # the bucket as ``buckets.bucket_key`` names it, in SQL
        where += (
            " AND partition || '/' || substr(id, -16, 2) NOT IN (SELECT value FROM json_each(?))"
        )
        params += (json.dumps(sorted(kept_buckets)),)
    cached = previous.select(where, params)
    elsewhere = sorted(set(found) - set(cached))  # not where the cache had them
    for start in range(0, len(elsewhere), _BY_ID):
        part = elsewhere[start : start + _BY_ID]
        cached.update(previous.select(f"WHERE id IN ({', '.join('?' * len(part))})", tuple(part)))
    return cached


def _kept_out(
    outside: Callable[[str, str], bool], settled: set[str], kept: frozenset[str]
) -> Callable[[str, str], bool]:
    """``outside``, and true too for a document of a ``settled`` partition or of one of
    the ``kept`` buckets, known unchanged (kept unread)."""
    if not settled and not kept:
        return outside
    return lambda partition, doc: (
        partition in settled
        or buckets.bucket_key(partition, doc) in kept
        or outside(partition, doc)
    )


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
    scanned: Scan,
) -> None:
    """The documents the checkout leaves out (``outside``: their partition is not on disk,
    or a sparse checkout of the documents still observed, as an hourly job clones it, does
    not hold their folder), for a build that cannot trust the cache's keys (a full build,
    another fingerprint): kept as the previous build left them (``scanned.state``) when
    their pages are in the site folder and were made by this code and these templates;
    else read again (``scanned.todo``), which brings their folder into a sparse git
    checkout (``Archive``'s on-demand fetch) or, outside git, fails them with a reported
    error. A document missing from what is checked out was deleted: its pages go."""
    if not previous.loaded:
        return
    for doc, entry in previous.documents.items():
        partition = entry.partition
        if doc in stamps or not partition or not outside(partition, doc):
            continue
        current = plan.is_current(entry, entry.content, fingerprint=fingerprint)
        if current and (doc in on_disk or not plan.has_pages(entry, previous.folded)):
            scanned.state[doc] = entry
        else:
            scanned.todo[doc] = entry.stamp


def previous_places(
    previous: BuildState,
    cached: dict[str, DocumentEntry],
    gone: set[str],
    rendered: dict[str, str],
    *,
    hourly: bool,
    rebuild: bool,
) -> tuple[set[str], list[tuple[str, str]]]:
    """Asked of the previous build's cache before it is written: the partitions of the
    documents ``gone``, and where the documents whose rows change (``gone``, ``rendered``)
    sat in its order of articles (the sitemap keeps its chunks before the earliest)."""
    partitions = {e.partition for d, e in cached.items() if d in gone}
    if hourly and gone:
        found_gone = previous.query(_PARTITIONS_OF, (json.dumps(sorted(gone)),))
        partitions |= {str(p) for (p,) in found_gone}
    earlier: list[tuple[str, str]] = []
    if not rebuild and (gone or rendered):
        asked = json.dumps(sorted(gone | set(rendered)))
        earlier = [(str(f), str(d)) for f, d in previous.query(_PLACES_OF, (asked,))]
    return partitions, earlier


def article_folders(out: Path) -> set[str]:
    """The documents whose article folder is on disk: a cache restored without the site,
    as in CI, must not leave documents out. (One listing, not a look at each article page:
    that would cost as much as the rest of a one-revision build's scan.)"""
    try:
        return set(os.listdir(out / "articles"))
    except (FileNotFoundError, NotADirectoryError):
        return set()
