"""The site's indexes of its documents: the JSON API's index, its file per day of
documents and its sources file; the sitemap, in chunks of articles; and the archive
pages of the months folded (``folding``).

Each is made from what the build cache's database sums and lists (:class:`SiteData`),
not from the documents' rows in Python, and through :class:`~quietedit.publish.sitewide.
SiteWide`'s pages (rendered only when their inputs changed). An hourly build keeps the
API day files of the partitions none of whose documents changed, and the sitemap's
chunks before its earliest changed article, as the previous build wrote them, unread;
and the day files of the partitions whose documents changed it makes from the previous
build's file and the rows of the documents that changed (``DayChanges``), not from every
document of the day.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, Protocol

from quietedit.archive.layout import document_path
from quietedit.model import JSON
from quietedit.publish import api
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import Source
from quietedit.publish.paths import file_digest

if TYPE_CHECKING:  # sitewide.py writes these through its pages: imported at run time there
    from quietedit.publish.sitewide import SiteWide

FOLDED_ROOT: Final = "archive"
"""Where the pages of folded months go: ``archive/`` and ``archive/<YYYY>/<MM>/``."""
SITEMAP_LIMIT: Final = 1_000
"""URLs per sitemap file (the protocol allows 50,000): small enough that re-rendering the
chunks a new edit touches is cheap (about as many articles as a week's at 100 a day: at
5,000 the newest chunk, made again each hour, cost 0.03 s of CPU at a year's 24,500
articles, against 0.003 s at a week's)."""


class SiteData(Protocol):
    """What the site-wide pages ask of every document, answered by the build cache's
    database (``catalog.Catalog``) without reading each document's row in Python."""

    def totals(self) -> tuple[int, int, int]: ...
    def source_totals(self) -> dict[str, tuple[int, int, dict[str, int]]]: ...
    def days(self) -> list[tuple[str, int, int]]: ...
    def day_documents(self, partition: str) -> list[DocumentSummary]: ...
    def month_documents(self, month: str) -> list[DocumentSummary]: ...
    def articles(self, folded: frozenset[str]) -> list[tuple[str, str]]: ...
    def articles_before(self, folded: frozenset[str], place: tuple[str, str]) -> int: ...
    def articles_from(self, folded: frozenset[str], start: int) -> list[tuple[str, str]]: ...
    def newest_article(self, folded: frozenset[str]) -> str | None: ...


@dataclass(frozen=True, slots=True)
class DayChanges:
    """What changed in the API day files since the previous build: the documents whose
    rows this build wrote (``documents``: id → summary) and those gone (``gone``)."""

    documents: Mapping[str, DocumentSummary]
    gone: frozenset[str]


def write_api(
    site: SiteWide,
    documents: SiteData,
    sources: dict[str, Source],
    totals: dict[str, tuple[int, int, dict[str, int]]],
    edit_counts: dict[str, int],
    folded: frozenset[str],
    changed: set[str] | None,
    day_changes: DayChanges | None = None,
) -> None:
    """``api/index.json``, a file per day of documents first seen (except in folded
    months: the archive holds them; and kept as it is when none of its documents
    changed) and ``api/sources.json``. With ``day_changes`` (and ``changed``), a changed
    day's file is the previous build's with the changed documents' entries put in, when
    it holds the bytes the cache recorded; else it is made from every row of the day."""
    days: list[tuple[str, int, int]] = []
    by_partition: dict[str, list[DocumentSummary]] = {}
    if day_changes is not None and changed is not None:
        for summary in day_changes.documents.values():
            by_partition.setdefault(summary.partition, []).append(summary)
    months: dict[str, tuple[int, int]] = {}
    for partition, count, published in documents.days():
        month = partition[:7].replace("/", "-")
        if month in folded:
            before, shown = months.get(month, (0, 0))
            months[month] = (before + count, shown + published)
            continue
        day = partition.replace("/", "-")
        days.append((day, count, published))
        path = api.day_path(day)
        if changed is not None and partition not in changed and site.reused(path):
            continue
        entries: list[JSON]
        patched = None
        if day_changes is not None and changed is not None:
            new = by_partition.get(partition, [])
            patched = _patched_day(site, path, new, day_changes.gone)
        if patched is not None:
            entries, hidden = patched
        else:
            docs = documents.day_documents(partition)
            entries = [api.index_entry(d) for d in docs if d.published]
            hidden = [d.id for d in docs if not d.published]
        # what the entries show, not the documents' keys: a document checked again
        # without a change (its record's schedule moved) leaves its day file alone
        if not site.kept((path,), f"day\0{entries!r}{hidden!r}"):
            site.writer.write(path, api.dump(api.day_file(day, entries, hidden)))
    folded_months = [
        (month, f"{FOLDED_ROOT}/{month.replace('-', '/')}/", count, shown)
        for month, (count, shown) in sorted(months.items())
    ]
    site.writer.write("api/index.json", api.dump(api.index_file(days, folded_months)))
    doc_counts = {slug: count for slug, (count, _, _) in totals.items()}
    site.writer.write(
        "api/sources.json",
        api.dump(api.sources_file(list(sources.values()), documents=doc_counts, edits=edit_counts)),
    )


def _patched_day(
    site: SiteWide, path: str, new: list[DocumentSummary], gone: frozenset[str]
) -> tuple[list[JSON], list[str]] | None:
    """The entries and hidden ids of the day file at ``path`` as the previous build wrote
    it, with those of ``gone`` and of the documents of ``new`` dropped and ``new``'s put
    in, in the order of ``day_documents`` (by id); ``None`` when the file is not the one
    the cache recorded, or not of the shape this code writes."""
    known = site.writer.known.get(path)
    try:
        with open(os.path.join(site.writer.root, path), "rb") as handle:
            body = handle.read()
    except OSError:
        return None
    if not known or file_digest(body) != known:
        return None
    found = json.loads(body)
    old, unpublished = found.get("documents"), found.get("unpublished")
    if not isinstance(old, list) or not isinstance(unpublished, list):
        return None
    drop = gone | {d.id for d in new}
    entries: list[JSON] = [e for e in old if isinstance(e, dict) and e.get("id") not in drop]
    entries += [api.index_entry(d) for d in new if d.published]
    entries.sort(key=lambda e: str(e["id"]) if isinstance(e, dict) else "")
    hidden = [str(i) for i in unpublished if i not in drop]
    hidden = sorted(hidden + [d.id for d in new if not d.published])
    return entries, hidden


def write_folded(
    site: SiteWide,
    documents: SiteData,
    folded: frozenset[str],
    data_url: str | None,
    nav: dict[str, Any],
) -> None:
    """The archive page of each folded month (its edited documents, with links to
    their data) and ``archive/``, the list of those months; none while none is."""
    if not folded:
        return
    months = []
    for month in sorted(folded):
        docs = documents.month_documents(month)
        docs.sort(key=attrgetter("first_seen", "id"))
        path = f"{FOLDED_ROOT}/{month.replace('-', '/')}/"
        rows = [
            (
                d.id, d.title, site.names.get(d.source, d.source), d.revisions,
                d.first_seen, d.last_seen, d.url, _data_path(d),
                f"{data_url}{_data_path(d)}" if data_url else None,
            )
            for d in docs
        ]  # fmt: skip
        site.page(path, "folded.html", month=month, rows=rows, months=None, **nav)
        months.append((month, path, len(docs)))
    site.page(f"{FOLDED_ROOT}/", "folded.html", month=None, rows=None, months=months, **nav)


def write_sitemap(
    site: SiteWide,
    documents: SiteData,
    sources: list[Source],
    kinds: list[tuple[str, str, int]],
    folded: frozenset[str],
    since: tuple[str, str] | None,
) -> None:
    """``sitemap.xml``: an index of ``sitemaps/pages.xml`` and chunks of articles in
    the order they appeared (``documents.articles``: every document with pages), so a
    new article changes only the newest chunk. An edit's own address
    (``articles/<id>/diff/<n>/``) redirects to its article's page and is not listed.

    With ``since`` (the place of the earliest document whose row changed), the chunks
    wholly before it are the previous build's, kept without being read: an hourly
    build reads the articles from the chunk of its oldest change on, not the year."""
    newest = documents.newest_article(folded)
    pages: list[tuple[str, str | None]] = [
        ("", newest),
        ("stats/", newest),
        ("sources/", newest),
        ("kinds/", newest),
    ]
    pages += [(f"sources/{s.slug}/", None) for s in sources]
    pages += [(f"kinds/{slug}/", None) for _, slug, _ in kinds]
    pages += [(f"{FOLDED_ROOT}/{m.replace('-', '/')}/", None) for m in sorted(folded)]
    files = ["sitemaps/pages.xml"]
    site.page("sitemaps/pages.xml", "sitemap.xml", entries=pages, index=None)
    first = 0  # the first chunk read
    if since is not None:
        first = documents.articles_before(folded, since) // SITEMAP_LIMIT
        for number in range(first):
            name = _sitemap_chunk(number)
            if not site.reused(name):  # its file is missing: read from here on
                first = number
                break
            files.append(name)
    articles = documents.articles_from(folded, first * SITEMAP_LIMIT)
    entries = [(f"articles/{doc}/", last_seen) for doc, last_seen in articles]
    for start in range(0, len(entries), SITEMAP_LIMIT):
        name = _sitemap_chunk(first + start // SITEMAP_LIMIT)
        chunk = entries[start : start + SITEMAP_LIMIT]
        site.page(name, "sitemap.xml", entries=chunk, index=None)
        files.append(name)
    site.page("sitemap.xml", "sitemap.xml", entries=[], index=files)


def _sitemap_chunk(number: int) -> str:
    """The file of the sitemap's chunk of articles ``number`` (counting from 0)."""
    return f"sitemaps/articles-{number + 1}.xml"


def _data_path(doc: DocumentSummary) -> str:
    """The document's folder in the archive, relative to the archive folder."""
    return f"{document_path(doc.id, doc.partition)}/"
