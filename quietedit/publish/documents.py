"""One document's pages: read it, diff it (each pair once), render and write its pages.

``DocumentPages.cached`` answers from the build cache when the document's key is unchanged;
``render_documents`` renders the others in order, in forked worker processes when there
are enough of them to pay for the fork. A document that fails is recorded in the chunk's
``failures`` and the rest go on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing as mp
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Final

from quietedit.archive.records import (
    OPTIONAL_REVISION_FIELDS,
    REVISION_FIELDS,
    revision_from_record,
)
from quietedit.archive.store import Archive, load_json
from quietedit.errors import ArchiveError, QuieteditError
from quietedit.model import JSON, Event, Revision, format_timestamp
from quietedit.publish import api
from quietedit.publish.atom import FeedSpec, render_feed
from quietedit.publish.changes import Comparison, compare_revisions, pair_key
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import (
    DiffRow,
    Edit,
    Source,
    clean_text,
    diff_rows,
    event_line,
    findings_of,
    headline_history,
    host_slug,
    make_edit,
    safe_http_url,
    side_by_side,
    title_segments,
    verdict_of,
)
from quietedit.publish.paths import SiteWriter
from quietedit.publish.render import Renderer, output_file

logger = logging.getLogger(__name__)

PARALLEL_THRESHOLD: Final = 200
"""Below this many documents to render, forking workers costs more than it saves."""
CHUNK_SIZE: Final = 50
"""Documents per unit of work handed to a worker: small enough to balance two cores."""


@dataclass(slots=True)
class DocumentResult:
    summary: DocumentSummary
    edits: list[Edit]
    files: dict[str, str] = field(default_factory=dict)  # path → digest
    rendered: bool = False
    items: dict[str, str] = field(default_factory=dict)  # edit number → its list item HTML
    record: dict[str, JSON] = field(default_factory=dict)  # its entry in summaries.json


@dataclass(slots=True)
class Chunk:
    """What rendering a run of documents produced, to be merged into the build."""

    results: list[DocumentResult]
    claimed: dict[str, str]
    written: list[str]
    failures: list[str]
    keys: dict[str, str]


_FORKED: list[tuple[DocumentPages, dict[str, str]]] = []
"""The context a forked worker inherits from the parent (set just before forking)."""


def render_documents(
    context: DocumentPages, ids: list[str], keys: dict[str, str], *, workers: int
) -> Iterator[Chunk]:
    """Render ``ids`` in chunks, in order; in ``workers`` forked processes when it pays."""
    chunks = [ids[i : i + CHUNK_SIZE] for i in range(0, len(ids), CHUNK_SIZE)]
    if workers <= 1 or len(ids) < PARALLEL_THRESHOLD or "fork" not in mp.get_all_start_methods():
        for chunk in chunks:
            yield _render_chunk(context, keys, chunk)
        return
    _FORKED[:] = [(context, keys)]
    try:
        with mp.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_render_forked, chunks)
    finally:
        _FORKED.clear()


def _render_forked(ids: list[str]) -> Chunk:
    context, keys = _FORKED[0]
    return _render_chunk(context, keys, ids)


def _render_chunk(context: DocumentPages, keys: dict[str, str], ids: list[str]) -> Chunk:
    """Render (or take from the cache) each document; a failing one is recorded, not raised."""
    context.writer = context.writer.fresh()
    chunk = Chunk([], {}, [], [], {})
    for doc in ids:
        try:
            result = context.render(doc)
        except Exception as exc:  # noqa: BLE001 - one bad document must not stop the build
            logger.error("%s: not published: %s", doc, exc)
            chunk.failures.append(f"{doc}: {exc}")
            continue
        chunk.keys[doc] = context.keys[doc]
        if result is not None:
            chunk.results.append(result)
    chunk.claimed = context.writer.claimed
    chunk.written = context.writer.written
    return chunk


class DocumentPages:
    """Renders one document's pages, or takes them from the cache when its key is unchanged."""

    def __init__(
        self,
        archive: Archive,
        renderer: Renderer,
        writer: SiteWriter,
        sources: dict[str, Source],
        fingerprint: str,
        cache_root: Path,
        full: bool,
    ) -> None:
        self.archive = archive
        self.renderer = renderer
        self.writer = writer
        self.sources = sources
        self.fingerprint = fingerprint
        self.cache_root = cache_root
        self.full = full
        self.keys: dict[str, str] = {}
        self.stamps: dict[str, tuple[str, str]] = {}  # doc → (stamp, content key)
        self.summaries: dict[str, JSON] = {}  # the previous build's summaries.json

    def cache_file(self, doc: str) -> Path:
        """``diffs/<id>.json``: the document's computed comparisons, read when it changed."""
        return self.cache_root / "diffs" / f"{doc}.json"

    def stamp(self, doc: str) -> str:
        """Modification times of the document's folders and record: a cheap "unchanged"
        test (a new revision or event changes its folder's time, a new record the
        document folder's) that saves re-hashing the files of an unchanged document.
        The content key stays the real key: the stamp only says when to recompute it."""
        home = str(self.archive.layout.document_dir(doc))  # validates the id
        times = []
        # document.json is replaced by a rename, which changes the folder's time too
        for name in ("", "revisions", "events"):
            path = os.path.join(home, name) if name else home
            try:
                times.append(str(os.stat(path).st_mtime_ns))
            except FileNotFoundError:
                times.append("-")
        return " ".join(times)

    def content_key(self, doc: str) -> str:
        """Hash of everything the document's pages depend on, without parsing revisions."""
        home = str(self.archive.layout.document_dir(doc))
        digest = hashlib.sha256()
        with open(os.path.join(home, "document.json"), "rb") as handle:
            digest.update(handle.read())
        for kind in ("revisions", "events"):
            folder = os.path.join(home, kind)
            try:
                names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
            except FileNotFoundError:
                names = []
            digest.update(f"\0{len(names)}\0".encode())
            if names:
                # create-only files: the names fix the set, the newest file's bytes (its
                # hash chains every older revision) fix the content
                with open(os.path.join(folder, names[-1]), "rb") as handle:
                    digest.update(handle.read())
        return digest.hexdigest()

    def cached(self, doc: str, keys: dict[str, str]) -> DocumentResult | None:
        """The document's result from the cache, or ``None`` when it must be rendered."""
        stamp = self.stamp(doc)
        entry = self.summaries.get(doc)
        if isinstance(entry, dict) and entry.get("stamp") == stamp and entry.get("content"):
            content = str(entry["content"])
        else:
            content = self.content_key(doc)
        key = hashlib.sha256(f"{self.fingerprint}\0{content}".encode()).hexdigest()
        self.keys[doc] = key
        self.stamps[doc] = (stamp, content)
        if self.full or not isinstance(entry, dict) or entry.get("key") != key:
            return None
        return self._from_cache(entry, keys, key)

    def render(self, doc: str) -> DocumentResult | None:
        """Read, compare and render the document (after :meth:`cached` said so)."""
        return self._render(doc, self.keys[doc])

    def _read_cache(self, doc: str) -> dict[str, JSON] | None:
        try:
            record = json.loads(self.cache_file(doc).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def _from_cache(
        self, cached: dict[str, JSON], keys: dict[str, str], key: str
    ) -> DocumentResult | None:
        files = cached.get("files")
        summary, edits = cached.get("summary"), cached.get("edits")
        if (
            not isinstance(files, dict)
            or not isinstance(summary, dict)
            or not isinstance(edits, list)
        ):
            return None
        root = str(self.writer.root)
        for path in files:
            if keys.get(path) != key or not os.path.isfile(os.path.join(root, path)):
                return None
        for path, digest in files.items():
            self.writer.claim(path, str(digest))
        return DocumentResult(
            DocumentSummary.from_record(summary),
            [Edit.from_record(e) for e in edits if isinstance(e, dict)],
            {p: str(d) for p, d in files.items()},
            record=cached,
        )

    def _render(self, doc: str, key: str) -> DocumentResult | None:
        record = self.archive.read_document(doc) or {}
        revisions = self._read_revisions(doc)
        if not revisions:
            return None
        events = self.archive.events(doc)
        url = safe_http_url(record.get("url"))
        source = self._source_of(record, url)
        old_comparisons = None if self.full else self._read_cache(doc)
        comparisons: list[Comparison] = []
        stored: dict[str, JSON] = {}
        for old, new in pairwise(revisions):
            pk = pair_key(old, new)
            found = old_comparisons.get(pk) if isinstance(old_comparisons, dict) else None
            comparison = Comparison.from_record(found) if isinstance(found, dict) else None
            if comparison is None:
                comparison = compare_revisions(old, new)
            comparisons.append(comparison)
            stored[pk] = comparison.to_record()
        rows = [
            diff_rows(c.diff, old, new)
            for old, new, c in zip(revisions[:-1], revisions[1:], comparisons, strict=True)
        ]
        edits = [
            make_edit(
                doc,
                old,
                new,
                diff=c.diff,
                classification=c.classification,
                url=url,
                source=source,
                rows=r,
            )
            for old, new, c, r in zip(revisions[:-1], revisions[1:], comparisons, rows, strict=True)
        ]
        latest = revisions[-1]
        summary = DocumentSummary(
            id=doc,
            url=url,
            title=clean_text(latest.article.title),
            source=source,
            revisions=len(revisions),
            first_seen=_first_seen(record, revisions[0]),
            last_seen=format_timestamp(latest.observation.observed_at),
            events={
                kind: sum(e.kind == kind for e in events)
                for kind in sorted({e.kind for e in events})
            },
        )
        files = self._write_pages(doc, summary, revisions, events, comparisons, edits, rows)
        names = {source: self.source(source).name}
        items = {
            str(e.number): self.renderer.render("_edit_item.html", edit=e, names=names)
            for e in edits
        }
        record = self._save_cache(doc, key, summary, edits, files, stored, items)
        return DocumentResult(summary, edits, files, rendered=True, items=items, record=record)

    def source(self, slug: str) -> Source:
        """The source named ``slug``: from feeds.yaml, else from its feed state, else bare."""
        if slug not in self.sources:
            self.sources[slug] = _unconfigured_source(self.archive, slug)
        return self.sources[slug]

    def _read_revisions(self, doc: str) -> list[Revision]:
        """The document's revisions, shape-checked but not re-hashed.

        Re-hashing every revision on every build would cost more than rendering it;
        ``quietedit verify`` checks hashes and chains (CI runs it before building), the
        build checks that each file is where it belongs and has a revision's fields.
        """
        layout = self.archive.layout
        folder = layout.revisions_dir(doc)
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
        found = []
        for number, path in enumerate(paths, start=1):
            if path != layout.revision_file(doc, number):
                raise ArchiveError(path, f"expected revision {number} here; run quietedit verify")
            record = load_json(path)
            known = set(REVISION_FIELDS) | set(OPTIONAL_REVISION_FIELDS)
            if not isinstance(record, dict) or not set(REVISION_FIELDS) <= set(record) <= known:
                raise ArchiveError(path, "not a revision record; run quietedit verify")
            wrong = [k for k, kind in REVISION_FIELDS.items() if not isinstance(record[k], kind)]
            if wrong:
                raise ArchiveError(path, f"{', '.join(wrong)}: wrong type; run quietedit verify")
            try:
                found.append(revision_from_record(record))
            except (TypeError, ValueError) as exc:
                raise ArchiveError(
                    path, f"unreadable revision ({exc}); run quietedit verify"
                ) from exc
        return found

    def _source_of(self, record: dict[str, JSON], url: str | None) -> str:
        feeds = record.get("feeds")
        if isinstance(feeds, list):
            slugs = [f for f in feeds if isinstance(f, str)]
            for slug in slugs:
                if slug in self.sources:
                    return slug
            for slug in slugs:
                safe = host_slug(f"https://{slug}")
                if safe == slug:
                    return slug
        return host_slug(url)

    def _write_pages(
        self,
        doc: str,
        summary: DocumentSummary,
        revisions: list[Revision],
        events: list[Event],
        comparisons: list[Comparison],
        edits: list[Edit],
        rows: list[tuple[DiffRow, ...]],
    ) -> dict[str, str]:
        typed_events = events
        source = self.source(summary.source)
        base = f"articles/{doc}/"
        timeline = [
            {
                "revision": rev,
                "observed": format_timestamp(rev.observation.observed_at),
                "edit": edits[rev.number - 2] if rev.number > 1 else None,
                "verdict": verdict_of(comparisons[rev.number - 2].classification)
                if rev.number > 1
                else None,
            }
            for rev in revisions
        ]
        written: dict[str, str] = {}

        def put(path: str, text: str) -> None:
            self.writer.write(path, text)
            written[path] = self.writer.claimed[path]

        publisher = revisions[-1].article.publisher
        put(
            output_file(base),
            self.renderer.render(
                "article.html",
                doc=summary,
                source=source,
                publisher=publisher,
                first_publisher=revisions[0].article.publisher,
                timeline=timeline,
                headlines=headline_history(revisions),
                events=[
                    (e, event_line(e), safe_http_url(e.detail.get("location")))
                    for e in typed_events
                ],
                page_path=base,
            ),
        )
        for index, (old, new) in enumerate(pairwise(revisions)):
            comparison = comparisons[index]
            path = f"{base}diff/{new.number}/"
            put(
                output_file(path),
                self.renderer.render(
                    "diff.html",
                    doc=summary,
                    source=source,
                    old=old,
                    new=new,
                    edit=edits[index],
                    rows=rows[index],
                    side=side_by_side(rows[index]),
                    title_segments=title_segments(comparison.diff),
                    verdict=verdict_of(comparison.classification),
                    findings=findings_of(comparison.classification),
                    count=len(revisions),
                    page_path=path,
                ),
            )
        spec = FeedSpec(f"{base}feed", f"Edits to “{summary.title}”", base, rss=False)
        for path, text in render_feed(self.renderer, spec, edits).items():
            put(path, text)
        put(
            api.revisions_path(doc),
            api.dump(
                api.revisions_file(
                    doc,
                    url=summary.url,
                    source=summary.source,
                    revisions=revisions,
                    events=typed_events,
                )
            ),
        )
        put(
            api.diffs_path(doc),
            api.dump(api.diffs_file(doc, revisions=revisions, comparisons=comparisons)),
        )
        return written

    def _save_cache(
        self,
        doc: str,
        key: str,
        summary: DocumentSummary,
        edits: list[Edit],
        files: dict[str, str],
        comparisons: dict[str, JSON],
        items: dict[str, str],
    ) -> dict[str, JSON]:
        """Write the document's comparisons; return its entry for ``summaries.json``."""
        path = self.cache_file(doc)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(comparisons, sort_keys=True, separators=(",", ":")), "utf-8")
        tmp.replace(path)
        stamp, content = self.stamps[doc]
        return {
            "content": content,
            "edits": [e.to_record() for e in edits],
            "files": dict[str, JSON](files),
            "key": key,
            "stamp": stamp,
            "summary": summary.to_record(),
        }

    def prune_cache(self, alive: set[str]) -> None:
        for kind in ("documents", "diffs"):  # documents/: this cache's older layout
            folder = self.cache_root / kind
            if folder.is_dir():
                for path in folder.glob("*.json"):
                    if path.stem not in alive:
                        path.unlink()


def _unconfigured_source(archive: Archive, slug: str) -> Source:
    """A source missing from feeds.yaml: named by its feed state's ``name``, else its slug."""
    try:
        state = archive.read_feed(slug) or {}
    except QuieteditError:
        state = {}
    name, url = state.get("name"), safe_http_url(state.get("url"))
    return Source(slug, clean_text(name) if isinstance(name, str) and name.strip() else slug, url)


def _first_seen(record: dict[str, JSON], first: Revision) -> str:
    value = record.get("first_seen")
    return (
        value
        if isinstance(value, str) and value
        else format_timestamp(first.observation.observed_at)
    )
