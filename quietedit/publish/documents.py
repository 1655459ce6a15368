"""One document's pages: read it, compare each pair of revisions once, render, write.

:class:`DocumentPages` is handed to the render workers (``batches``) by fork; each
document it renders writes its article page, one diff page per pair and its API file
(its edits are in the feeds of its source, of their kinds and of the whole site: a feed
per article would cost more than its pages), saves its comparisons in the build cache
(``comparecache``), keeps or draws its share images (``shareimages``) and removes files
of its own that this build no longer makes.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from quietedit.analysis.stories import story_sketch
from quietedit.archive.derived import current_readings, with_reading
from quietedit.archive.layout import document_path
from quietedit.archive.readings import derived_readings
from quietedit.archive.store import Archive
from quietedit.errors import QuieteditError
from quietedit.model import JSON, format_timestamp
from quietedit.publish import api
from quietedit.publish.changes import Comparison
from quietedit.publish.classification import findings_of, verdict_of
from quietedit.publish.comparecache import (
    SHARE_KEY,
    compare_pairs,
    comparisons_file,
    read_comparisons,
    save_comparisons,
)
from quietedit.publish.diffview import (
    DiffRow,
    collapsed,
    diff_rows,
    title_segments,
)
from quietedit.publish.listing import DocumentSummary, EditRef
from quietedit.publish.live import (
    LIVE_KIND,
    PAGE_UPDATES,
    live_pairs,
    live_updates,
    render_live_feed,
)
from quietedit.publish.pages import (
    Edit,
    Source,
    clean_text,
    event_entry,
    event_line,
    headline_history,
    host_slug,
    make_edit,
    observed,
    safe_http_url,
    web_copies,
)
from quietedit.publish.paths import SiteWriter
from quietedit.publish.render import Renderer, output_file
from quietedit.publish.share import is_shared
from quietedit.publish.shareimages import ShareImages
from quietedit.publish.storypages import story_path
from quietedit.revisions import Event, Revision

logger = logging.getLogger(__name__)


def document_folders(doc: str) -> tuple[str, ...]:
    """The output folders and files that hold a document's files, and nothing else's (the
    folder ``api/documents/<id>/`` is where sites built before API schema 2 kept them)."""
    return f"articles/{doc}/", api.document_path(doc), f"api/documents/{doc}/"


@dataclass(slots=True)
class DocumentResult:
    """What rendering one document produced, for the site-wide pages and the cache."""

    summary: DocumentSummary
    edits: list[Edit]
    files: int  # files the document's pages consist of
    content: str  # its content key, taken before reading it (``Archive.content_key``)
    items: dict[int, str] = field(default_factory=dict)  # edit number → its list item
    refs: tuple[EditRef, ...] = ()  # one per edit (made here, in the render worker)
    size: int = 0  # bytes of its files (measured also when they are folded away)
    sketch: tuple[int, ...] = ()  # of its first revision, for the story pages (``stories``)


class DocumentPages:
    """Renders documents' pages through a writer (one per unit of work)."""

    def __init__(
        self,
        archive: Archive,
        renderer: Renderer,
        sources: dict[str, Source],
        cache_root: Path,
        *,
        full: bool,
        reextracted: bool = False,
        watch: tuple[str, ...] = (),
    ) -> None:
        self.archive = archive
        self.watch = watch  # terms watched in every source (settings.watch)
        self.reextracted = reextracted  # show the derived readings' text (quietedit reextract)
        self.renderer = renderer
        self.sources = sources
        # feeds.yaml's sources, fixed at the start: which source a document belongs to must
        # not depend on what this process happened to render before it
        self.configured = frozenset(sources)
        self.cache_root = cache_root
        self.full = full
        self.writer: SiteWriter | None = None
        self.reread: dict[int, str] = {}  # of the document being rendered
        self.stories: dict[str, str] = {}  # document → the story page its page links to
        self.folded: frozenset[str] = frozenset()  # months whose documents get no pages
        # edits observed at or after this time get a share image (``share.share_cutoff``)
        self.share_since: str | None = None
        self.site_name = "quietedit"
        self.shares = ShareImages(self.site_name)  # of the document being rendered

    def plan_of_document(self, doc: str) -> tuple[str, str, bool]:
        """The document's source, its partition and whether it will have pages, from a
        quick read of its record and its file names (checked when it is rendered): the
        build plans the search shards with them before rendering."""
        record = self.archive.read_document(doc) or {}
        source = self._source_of(record, safe_http_url(record.get("url")))
        counts = [_count(folder) for folder in self.archive_folders(doc)]
        partition = self.archive.partition(doc) or ""
        return source, partition, counts[0] > 1 or counts[1] > 0

    def story_input(self, doc: str) -> tuple[str, str, tuple[int, ...], int]:
        """What the story grouping needs of a document not rendered before: its source,
        first sight, the sketch of its first revision and its number of edits."""
        record = self.archive.read_document(doc) or {}
        revisions = self.archive.revisions(doc, shallow=True)
        if not revisions:
            return self._source_of(record, safe_http_url(record.get("url"))), "", (), 0
        first = revisions[0].article
        return (
            self._source_of(record, safe_http_url(record.get("url"))),
            _first_seen(record, revisions[0]),
            story_sketch(first.title, [block.text for block in first.blocks]),
            len(revisions) - 1,
        )

    def revision_count(self, doc: str) -> int:
        """How many revisions the document has, from its file names."""
        return _count(self.archive.revisions_dir(doc))

    def archive_folders(self, doc: str) -> tuple[Path, Path]:
        """The document's revision and event folders in the archive."""
        return self.archive.revisions_dir(doc), self.archive.events_dir(doc)

    def render(self, doc: str, writer: SiteWriter) -> DocumentResult | None:
        """Read, compare and render the document through ``writer``; ``None`` when it has
        no revision yet. Its files from earlier builds that it no longer makes are removed
        (listed in ``writer.removed``)."""
        self.writer = writer
        # taken before reading: a revision stored meanwhile is rendered by the next build
        content = self.archive.content_key(doc)
        folders = document_folders(doc)
        # a folder made by this build holds nothing stale: walk only the older ones
        existing = tuple(f for f in folders if os.path.exists(os.path.join(writer.root, f)))
        # shape-checked, not re-hashed: ``quietedit verify`` checks hashes and chains
        revisions = self.archive.revisions(doc, shallow=True)
        if not revisions:
            writer.remove_unclaimed(existing)
            return None
        first = revisions[0].article  # as first observed: a sketch never changes
        sketch = story_sketch(first.title, [block.text for block in first.blocks])
        reread: dict[int, str] = {}  # revision → the extractor whose reading is shown
        if self.reextracted:
            current = current_readings(derived_readings(self.archive, doc))
            reread = {n: r.extractor for n, r in sorted(current.items()) if n <= len(revisions)}
            revisions = [with_reading(rev, current.get(rev.number)) for rev in revisions]
        self.reread = reread
        record = self.archive.read_document(doc) or {}
        events = self.archive.events(doc)
        url = safe_http_url(record.get("url"))
        source = self._source_of(record, url)
        cache_file = comparisons_file(self.cache_root, doc)
        kept = None if self.full else read_comparisons(cache_file)
        self.shares = ShareImages.kept_in(kept, site=self.site_name)
        # a live blog's posts: no part of its edits
        comparisons, stored = compare_pairs(revisions, live=live_pairs(events), kept=kept)
        terms = self.terms(source)
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
                watch=terms,
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
            partition=self.archive.partition(doc) or "",
        )
        files: dict[str, int] = {}
        if summary.published and summary.month not in self.folded:
            files = self._write_pages(doc, summary, revisions, events, comparisons, edits, rows)
        elif summary.published:
            # folded away: rendered only to be measured, so that the choice of what to
            # fold depends on the archive alone, never on what an earlier build wrote
            files = self._write_pages(
                doc, summary, revisions, events, comparisons, edits, rows, measure=True
            )
        writer.remove_unclaimed(existing)
        if self.shares.made and stored:
            stored[SHARE_KEY] = dict(self.shares.made)
        names = {source: self.source(source).name}
        # the takedowns and flip-flops are listed among the edits, as entries of their own
        listed = [event_entry(doc, e, revisions, url=url, source=source) for e in events]
        edits = edits + [e for e in listed if e is not None]
        items = {
            e.number: self.renderer.render("_edit_item.html", edit=e, names=names) for e in edits
        }
        save_comparisons(cache_file, stored)
        refs = tuple(EditRef.of(e) for e in edits)
        size = sum(files.values())
        shown = len(files) if summary.month not in self.folded else 0
        return DocumentResult(summary, edits, shown, content, items, refs, size, sketch)

    def terms(self, slug: str) -> tuple[str, ...]:
        """The terms watched in the articles of the source ``slug``: every source's, then
        its own (a term of both once)."""
        own = self.source(slug).watch
        return self.watch + tuple(t for t in own if t not in self.watch) if own else self.watch

    def source(self, slug: str) -> Source:
        """The source named ``slug``: from feeds.yaml, else from its feed state, else bare."""
        if slug not in self.sources:
            self.sources[slug] = unconfigured_source(self.archive, slug)
        return self.sources[slug]

    def _source_of(self, record: dict[str, JSON], url: str | None) -> str:
        feeds = record.get("feeds")
        if isinstance(feeds, list):
            slugs = [f for f in feeds if isinstance(f, str)]
            for slug in slugs:
                if slug in self.configured:
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
        *,
        measure: bool = False,
    ) -> dict[str, int]:
        """Write the document's pages (``measure``: only count their bytes); returns the
        size of each file by its path."""
        typed_events = events
        source = self.source(summary.source)
        base = f"articles/{doc}/"
        timeline = [{"revision": revisions[0], "observed": observed(revisions[0]), "edit": None}]
        verdicts = [verdict_of(c.classification) for c in comparisons]
        for index, new in enumerate(revisions[1:]):
            classification = comparisons[index].classification
            timeline.append(
                {
                    "revision": new,
                    "observed": observed(new),
                    "edit": edits[index],
                    "inline": collapsed(rows[index]),
                    "title_segments": title_segments(comparisons[index].diff),
                    "verdict": verdicts[index],
                    "findings": findings_of(classification),
                }
            )
        # the signals with nothing to tell, when every edit has the same: told once
        plain = {(v.nothing, v.unchecked) for v in verdicts}
        shared = plain.pop() if len(verdicts) > 1 and len(plain) == 1 else None
        written: dict[str, int] = {}

        writer = self.writer
        assert writer is not None  # noqa: S101 - set by render()

        def put(path: str, text: str) -> None:
            data = text.encode()
            if not measure:
                writer.write(path, data)
            written[path] = len(data)

        # a folded document has no pages, so no images: measured without them
        shares = {
            edit.number: self.shares.write(writer, base, edit, outlet=source.name, written=written)
            for edit in edits
            if not measure and is_shared(edit.observed_at, self.share_since)
        }
        publisher = revisions[-1].article.publisher
        updates = live_updates(typed_events)
        put(
            output_file(base),
            self.renderer.render(
                "article.html",
                doc=summary,
                source=source,
                publisher=publisher,
                first_publisher=revisions[0].article.publisher,
                timeline=timeline,
                shared_signals=shared,
                headlines=headline_history(revisions),
                events=[
                    (
                        e,
                        event_line(e),
                        safe_http_url(e.detail.get("location") or e.detail.get("snapshot")),
                    )
                    for e in typed_events
                    if e.kind != LIVE_KIND  # listed as live updates
                ],
                live=updates[::-1][:PAGE_UPDATES],
                live_runs=len(updates),
                live_total=sum(u.count for u in updates),
                text_shown=text_note(self.reread if self.reextracted else None),
                story=story_path(self.stories[doc]) if doc in self.stories else None,
                copies=web_copies(typed_events),
                page_path=base,
                share=shares.get(edits[-1].number) if edits else None,
            ),
        )
        for edit in edits:
            # an edit's own address, from when each edit had a page: a redirect to its
            # place in the timeline; the edit's permalink, whose card is its share image
            put(
                output_file(f"{base}diff/{edit.number}/"),
                self.renderer.render(
                    "redirect.html",
                    title=f"Revision {edit.number - 1} → {edit.number}",
                    page=None,  # the article page, where it leads, has the canonical link
                    target=f"../../#r{edit.number}",  # relative: the same under any base path
                    edit=edit,
                    outlet=source.name,
                    permalink=f"{base}diff/{edit.number}/",
                    share=shares.get(edit.number),
                ),
            )
        if updates:
            put(
                *render_live_feed(
                    self.renderer,
                    document=doc,
                    title=summary.title,
                    url=summary.url,
                    updates=updates,
                )
            )
        put(
            api.document_path(doc),
            api.dump(
                api.document_file(
                    doc,
                    url=summary.url,
                    source=summary.source,
                    revisions=revisions,
                    events=typed_events,
                    comparisons=comparisons,
                    data=f"{document_path(doc, summary.partition)}/" if summary.partition else "",
                    reextracted=self.reread if self.reextracted else None,
                )
            ),
        )
        return written


def unconfigured_source(archive: Archive, slug: str) -> Source:
    """A source missing from feeds.yaml: named by its feed state's ``name``, else its slug."""
    try:
        state = archive.read_feed(slug) or {}
    except QuieteditError:
        state = {}
    name, url = state.get("name"), safe_http_url(state.get("url"))
    return Source(slug, clean_text(name) if isinstance(name, str) and name.strip() else slug, url)


def _first_seen(record: dict[str, JSON], first: Revision) -> str:
    value = record.get("discovered_at", record.get("first_seen"))
    return (
        value
        if isinstance(value, str) and value
        else format_timestamp(first.observation.observed_at)
    )


def _count(folder: Path) -> int:
    try:
        return sum(name.endswith(".json") for name in os.listdir(folder))
    except FileNotFoundError:
        return 0


def text_note(reread: dict[int, str] | None) -> str:
    """What a page says of the text it shows: as first observed (``reread`` is ``None``:
    the default build), or as re-extracted, naming the revisions read again by a later
    extractor (``reread``: revision → extractor; empty when none reads differently)."""
    if reread is None:
        return "as first observed"
    if not reread:
        return "as re-extracted: every revision reads as first observed"
    by: dict[str, list[str]] = {}
    for number, extractor in sorted(reread.items()):
        by.setdefault(extractor, []).append(str(number))
    parts = [
        f"revision{'s' if len(numbers) > 1 else ''} {', '.join(numbers)} by {extractor}"
        for extractor, numbers in sorted(by.items())
    ]
    return f"as re-extracted from the stored pages ({'; '.join(parts)}; the rest as first observed)"
