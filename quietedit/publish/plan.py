"""What a build renders, keeps and deletes, from what it gathered (pure: values in, values out).

The build (:mod:`~quietedit.publish.build`) gathers each document's stamp and, where the
stamp moved, its content key (``scan``), and the rows the previous build left in its
cache; these functions decide from those values alone:

- which documents are kept as the previous build left them (their key is this build's and
  their pages are on disk, or they have none) and which are rendered (:func:`sort_found`);
- which kept documents are rendered again because the story their article page links to
  moved (:func:`relinked`);
- which documents are gone once rendering is done (:func:`gone_after_rendering`), and from
  which partitions and which place in the order of articles the site-wide pages change
  (:func:`site_changes`);
- between which two cutoffs an edit may gain or lose its share image
  (:func:`share_window`).

A document's row is read through :class:`Recorded`, which the build cache's
``DocumentEntry`` satisfies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from quietedit.article.identity import is_document_id


class Recorded(Protocol):
    """What a decision reads of a document's row (``buildcache.DocumentEntry``)."""

    @property
    def stamp(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def partition(self) -> str: ...
    @property
    def month(self) -> str: ...
    @property
    def published(self) -> bool: ...
    @property
    def first_seen(self) -> str: ...


class Linked(Protocol):
    """What :func:`relinked` reads of a document's sketch (``stories.Sketched``)."""

    @property
    def story(self) -> str: ...


def document_key(fingerprint: str, content: str) -> str:
    """The key of a document's pages: its content key under this build's fingerprint."""
    return hashlib.sha256(f"{fingerprint}\0{content}".encode()).hexdigest()


def has_pages(entry: Recorded, folded: frozenset[str]) -> bool:
    """Whether the document has pages on a site that folded ``folded``."""
    return entry.published and entry.month not in folded


def is_current(entry: Recorded, content: str, *, fingerprint: str) -> bool:
    """Whether the pages the row stands for were made by this build's code and templates
    from the document's content as it is now (``content``: its content key)."""
    return entry.key == document_key(fingerprint, content)


@dataclass(slots=True)
class Sorted:
    """The documents on disk, sorted: ``kept`` (id → new stamp) as the cache has them,
    ``render`` (id → stamp) rendered, ``failures`` (id → message) left out. Each in the
    order they were found."""

    kept: dict[str, str] = field(default_factory=dict)
    render: dict[str, str] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)


def sort_found(
    found: Mapping[str, str],
    cached: Mapping[str, Recorded],
    contents: Mapping[str, str],
    unreadable: Mapping[str, str],
    *,
    fingerprint: str,
    on_disk: set[str],
    folded: frozenset[str],
) -> Sorted:
    """Sort the documents ``found`` on disk (id → stamp). ``cached``: their rows in the
    previous build's cache, where trusted; ``contents``: the content key of each cached one
    whose stamp moved (:func:`to_reread`), or in ``unreadable`` why it could not be read. A
    document without a row is rendered (its worker takes its content key); one whose key
    is this build's keeps its row, restamped, when its article folder is ``on_disk`` or it
    has no pages; the rest are rendered. An id that is not a document id fails."""
    out = Sorted()
    for doc, stamp in found.items():
        if not is_document_id(doc):
            out.failures[doc] = f"{doc}: not a document id (expected <host>-<16 hex digits>)"
            continue
        entry = cached.get(doc)
        if entry is None:
            out.render[doc] = stamp
            continue
        if doc in unreadable:
            out.failures[doc] = f"{doc}: {unreadable[doc]}"
            continue
        content = entry.content if entry.stamp == stamp else contents[doc]
        if is_current(entry, content, fingerprint=fingerprint) and (
            doc in on_disk or not has_pages(entry, folded)
        ):
            out.kept[doc] = stamp
        else:
            out.render[doc] = stamp
    return out


def to_reread(found: Mapping[str, str], cached: Mapping[str, Recorded]) -> list[str]:
    """The documents ``found`` on disk (id → stamp) whose row in ``cached`` has another
    stamp: their content key is read again (a moved stamp need not mean new content)."""
    return [
        doc
        for doc, stamp in found.items()
        if is_document_id(doc) and (entry := cached.get(doc)) is not None and entry.stamp != stamp
    ]


def relinked(
    sketches: Mapping[str, Linked],
    links: Mapping[str, str],
    kept: Mapping[str, tuple[str, int]],
    todo: Mapping[str, str],
) -> dict[str, str]:
    """The documents kept unread (``kept``: id → stamp and count of revisions) whose
    article page links to another story than the one its sketch was last rendered with
    (``links``: id → story, as grouped now): rendered again. Id → stamp."""
    return {
        doc: kept[doc][0]
        for doc, sketched in sketches.items()
        if links.get(doc, "") != sketched.story and doc in kept and doc not in todo
    }


def with_pages(
    entries: Mapping[str, Recorded], folded: frozenset[str]
) -> dict[str, tuple[str, str]]:
    """Id → source and partition of the ``entries`` with pages on a site that folded
    ``folded`` (the search shards' documents)."""
    return {d: (e.source, e.partition) for d, e in entries.items() if has_pages(e, folded)}


def gone_after_rendering(
    gone: set[str],
    failures: Iterable[str],
    rendered: Mapping[str, Recorded],
    previous: Iterable[str] | None,
) -> set[str]:
    """``gone`` and the documents that failed and have no row now (``rendered``), and,
    when ``previous`` (every id of a cache this build writes whole) is given, its
    documents this build has no row for. Ids that are not document ids are never gone:
    they have no pages."""
    gone = gone | {doc for doc in failures if doc not in rendered and is_document_id(doc)}
    if previous is not None:
        gone |= {doc for doc in previous if doc not in rendered and is_document_id(doc)}
    return gone


def site_changes(
    state: Mapping[str, Recorded],
    stamps: Iterable[str],
    gone_partitions: set[str],
    earlier: Iterable[tuple[str, str]],
    *,
    after_all: tuple[str, str],
) -> tuple[set[str], tuple[str, str]]:
    """The partitions whose documents changed (rendered or gone: ``gone_partitions``) and
    the earliest place (``(first_seen, id)``) of a document whose row changed, from its
    place in the previous build (``earlier``) or now; ``after_all`` when none did."""
    now = [doc for doc in stamps if doc in state]
    changed = {state[doc].partition for doc in now} | gone_partitions
    places = [(state[doc].first_seen, doc) for doc in now]
    return changed, min([after_all, *earlier, *places])


def share_window(before: str | None, after: str | None) -> tuple[str, str | None] | None:
    """The edits that may get a share image under one of the cutoffs ``before`` and
    ``after`` and not under the other are those observed from the first of the returned
    pair on, up to its second when it is given (both cutoffs given); ``None``: no cutoff."""
    cutoffs = sorted(c for c in (before, after) if c is not None)
    if not cutoffs:
        return None
    return cutoffs[0], cutoffs[-1] if len(cutoffs) == 2 else None


def document_of(path: str) -> str:
    """The document whose files hold the site path ``path`` (``document_folders``), or
    ``""``."""
    parts = path.split("/")
    if parts[0] == "articles" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["api", "documents"] and len(parts) > 2:
        return parts[2].removesuffix(".json") if len(parts) == 3 else parts[2]
    return ""
