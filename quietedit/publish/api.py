"""The static JSON API under ``api/``: the research export (layout in docs/json-api.md).

::

    api/index.json                  the days (archive partitions) and months folded away
    api/days/<YYYY>-<MM>-<DD>.json   every document first seen that day: counts and links
    api/sources.json                every source: slug, name, feed URL, counts
    api/documents/<id>.json         one published document: each revision's text once,
                                    its events, and each edit as block operations

Files are deterministic JSON (sorted keys, compact, trailing newline) with a
``schema`` number. A document's file carries each distinct block (kind and text) once in
``blocks``; a revision is the list of its blocks' indexes there, and an edit's diff is the
documented Diff JSON without its word runs (``words``), copied texts (``text``) and
``kept`` entries: its ``old``/``new`` positions index the revisions' block lists, so the
text of every revision and of every change is published once. Classifications are the
analysis's ``to_dict()`` form, unchanged.
"""

from __future__ import annotations

import json
from typing import Final

from quietedit.model import JSON, format_timestamp
from quietedit.publish.changes import Comparison
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import Source
from quietedit.revisions import Event, Revision

API_SCHEMA: Final = 2
_COPIED: Final = frozenset({"words", "text"})
"""Diff JSON keys that copy text the document's ``blocks`` already carry."""


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


def document_path(document: str) -> str:
    """``api/documents/<id>.json``: the file of a published document."""
    return f"api/documents/{document}.json"


def day_path(day: str) -> str:
    """``api/days/<YYYY>-<MM>-<DD>.json`` for ``day`` (an ISO date)."""
    return f"api/days/{day}.json"


def lean_diff(diff: dict[str, JSON]) -> dict[str, JSON]:
    """The Diff JSON without what the revisions' block lists already say: ``words`` and
    ``text`` dropped from the title and the block entries, and the ``kept`` entries left
    out (the blocks no entry names are kept, paired in order)."""
    out: dict[str, JSON] = dict(diff)
    title = diff.get("title")
    if isinstance(title, dict):
        out["title"] = {k: v for k, v in title.items() if k not in _COPIED}
    blocks = diff.get("blocks")
    if isinstance(blocks, list):
        out["blocks"] = [
            {k: v for k, v in b.items() if k not in _COPIED}
            for b in blocks
            if isinstance(b, dict) and b.get("op") != "kept"
        ]
    return out


def publisher_fields(record: dict[str, JSON]) -> dict[str, JSON]:
    """A publisher record without its unset fields (``null``, empty lists)."""
    return {k: v for k, v in record.items() if v is not None and v != []}


def document_file(
    document: str,
    *,
    url: str | None,
    source: str,
    revisions: list[Revision],
    events: list[Event],
    comparisons: list[Comparison],
) -> dict[str, JSON]:
    """``api/documents/<id>.json``: every revision (its text once), events and edits."""
    table: dict[tuple[str, str], int] = {}
    listed: list[tuple[int, ...]] = []
    for rev in revisions:
        listed.append(
            tuple(table.setdefault((b.kind, b.text), len(table)) for b in rev.article.blocks)
        )
    return {
        "blocks": [[kind, text] for kind, text in table],
        "diffs": [
            {
                "classification": comparison.classification,
                "diff": lean_diff(comparison.diff),
                "new": new.number,
                "observed_at": format_timestamp(new.observation.observed_at),
                "old": old.number,
            }
            for old, new, comparison in zip(revisions[:-1], revisions[1:], comparisons, strict=True)
        ],
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
                "blocks": list(blocks),
                "content_hash": rev.content_hash,
                "hash": rev.hash,
                "number": rev.number,
                "observed_at": format_timestamp(rev.observation.observed_at),
                "publisher": publisher_fields(rev.article.publisher.to_record()),
                "title": rev.article.title,
                "url": rev.observation.url,
            }
            for rev, blocks in zip(revisions, listed, strict=True)
        ],
        "schema": API_SCHEMA,
        "source": source,
        "url": url,
    }


def index_entry(doc: DocumentSummary, *, published: bool, data: str) -> dict[str, JSON]:
    """One document in its day file: ``file`` and ``page`` are ``null`` for a document
    without pages (never edited) and ``data`` is its folder in the archive."""
    return {
        "data": data,
        "file": document_path(doc.id) if published else None,
        "first_seen": doc.first_seen,
        "id": doc.id,
        "last_seen": doc.last_seen,
        "page": f"articles/{doc.id}/" if published else None,
        "revisions": doc.revisions,
        "source": doc.source,
        "title": doc.title,
        "url": doc.url,
    }


def day_file(day: str, entries: list[JSON]) -> dict[str, JSON]:
    """``api/days/<day>.json``: the entries of the documents first seen on ``day``."""
    return {"day": day, "documents": entries, "schema": API_SCHEMA}


def index_file(
    days: list[tuple[str, int, int]], folded: list[tuple[str, str, int, int]]
) -> dict[str, JSON]:
    """``api/index.json``: ``days`` as (day, documents, published) with their files, and
    the ``folded`` months as (month, archive page, documents, published)."""
    return {
        "days": [
            {"day": day, "documents": count, "file": day_path(day), "published": published}
            for day, count, published in days
        ],
        "folded": [
            {"documents": count, "month": month, "page": page, "published": published}
            for month, page, count, published in folded
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
