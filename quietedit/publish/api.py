"""The static JSON API under ``api/``: the research export (layout in docs/json-api.md).

::

    api/index.json                          every document: id, url, title, source, counts, links
    api/sources.json                        every source: slug, name, feed URL, counts
    api/documents/<id>/revisions.json       every revision of one document, with its events
    api/documents/<id>/diffs.json           the diff and classification of each consecutive pair

Files are deterministic JSON (sorted keys, compact, trailing newline) with a
``schema`` number; diffs and classifications are the analysis's documented ``to_dict()``
forms, unchanged.
"""

from __future__ import annotations

import json
from typing import Final

from quietedit.model import JSON, format_timestamp
from quietedit.publish.changes import Comparison
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import Source
from quietedit.revisions import Event, Revision

API_SCHEMA: Final = 1


def dump(record: dict[str, JSON]) -> str:
    """The API's one serialisation: sorted keys, compact, UTF-8, a trailing newline.

    Compact rather than indented: the files are for programs, a third smaller, and
    serialised by the C encoder (an indented dump runs in pure Python, ten times slower).
    """
    return (
        json.dumps(
            record, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
        )
        + "\n"
    )


def revisions_path(document: str) -> str:
    return f"api/documents/{document}/revisions.json"


def diffs_path(document: str) -> str:
    return f"api/documents/{document}/diffs.json"


def revisions_file(
    document: str, *, url: str | None, source: str, revisions: list[Revision], events: list[Event]
) -> dict[str, JSON]:
    """``api/documents/<id>/revisions.json``: the text and metadata of every revision."""
    return {
        "document": document,
        "events": [
            {
                "detail": event.detail,
                "kind": event.kind,
                "number": event.number,
                "observed_at": format_timestamp(event.observed_at),
                "revision": event.revision,
            }
            for event in events
        ],
        "revisions": [
            {
                "blocks": [{"kind": b.kind, "text": b.text} for b in rev.article.blocks],
                "content_hash": rev.content_hash,
                "hash": rev.hash,
                "number": rev.number,
                "observed_at": format_timestamp(rev.observation.observed_at),
                "publisher": rev.article.publisher.to_record(),
                "title": rev.article.title,
                "url": rev.observation.url,
            }
            for rev in revisions
        ],
        "schema": API_SCHEMA,
        "source": source,
        "url": url,
    }


def diffs_file(
    document: str, *, revisions: list[Revision], comparisons: list[Comparison]
) -> dict[str, JSON]:
    """``api/documents/<id>/diffs.json``: one entry per consecutive pair, oldest first."""
    return {
        "diffs": [
            {
                "classification": comparison.classification,
                "diff": comparison.diff,
                "new": new.number,
                "observed_at": format_timestamp(new.observation.observed_at),
                "old": old.number,
            }
            for old, new, comparison in zip(revisions[:-1], revisions[1:], comparisons, strict=True)
        ],
        "document": document,
        "schema": API_SCHEMA,
    }


def index_file(documents: list[DocumentSummary]) -> dict[str, JSON]:
    """``api/index.json``: one entry per document, sorted by id; paths relative to the site."""
    return {
        "documents": [
            {
                "diffs": diffs_path(doc.id),
                "first_seen": doc.first_seen,
                "id": doc.id,
                "last_seen": doc.last_seen,
                "page": f"articles/{doc.id}/",
                "revisions": doc.revisions,
                "revisions_file": revisions_path(doc.id),
                "source": doc.source,
                "title": doc.title,
                "url": doc.url,
            }
            for doc in sorted(documents, key=lambda d: d.id)
        ],
        "schema": API_SCHEMA,
    }


def sources_file(
    sources: list[Source], *, documents: dict[str, int], edits: dict[str, int]
) -> dict[str, JSON]:
    """``api/sources.json``: every source with its document and edit counts."""
    return {
        "schema": API_SCHEMA,
        "sources": [
            {
                "documents": documents.get(s.slug, 0),
                "edits": edits.get(s.slug, 0),
                "feed_url": s.url,
                "name": s.name,
                "slug": s.slug,
            }
            for s in sorted(sources, key=lambda s: s.slug)
        ],
    }
