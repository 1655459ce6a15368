"""The static JSON API under ``api/``: the research export (layout in docs/json-api.md).

::

    api/index.json                  the days (archive partitions) and months folded away
    api/days/<YYYY>-<MM>-<DD>.json   every document first seen that day: counts and links
    api/sources.json                every source: slug, name, feed URL, counts
    api/documents/<id>.json         one published document: its revisions as block lists,
                                    the text of what changed, its events, each edit as
                                    block operations, and where each newest block comes from

Files are deterministic JSON (sorted keys, compact, trailing newline) with a
``schema`` number. A document's file lists each distinct block once in ``blocks``, as
``[kind, text]``; a revision is the list of its blocks' indexes there, and an edit's diff
is the documented Diff JSON without its word runs (``words``), copied texts (``text``) and
``kept`` entries: its ``old``/``new`` positions index the revisions' block lists. The
text is that of the blocks some edit touched (added, removed, changed or moved); a block
kept in place by every edit is ``null``: the archive publishes it (``data`` names the
document's folder there), and the site does not copy the whole article. A revision
carries ``url`` only when the page was read at another address than the document's, and
``title`` only when it differs from the revision before, and ``publisher`` whole on the
first revision, then only its fields that changed (``null``: no longer set). A
classification is the analysis's ``to_dict()`` form without the findings' ``sentences``
(the edit's page shows them), its ``signals`` an object of each checked signal's ``seen``
by name (what each saw is in the revisions' ``publisher`` fields and ``blocks``). A
revision's chain ``hash`` is in the archive's revision file, not here.
"""

from __future__ import annotations

import json
from typing import Final

from quietedit.analysis.provenance import block_provenance
from quietedit.model import JSON, format_timestamp
from quietedit.publish.changes import Comparison
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import Source
from quietedit.revisions import Event, Revision

API_SCHEMA: Final = 5
# schema 3: no revision ``hash`` (the archive's revision files carry it), and ``signals``
# as an object of name -> seen with ``signal_evidence`` beside it; schema 4: a day file's
# entry without the ``url`` and ``last_seen`` its document's file and the archive carry,
# and ``signals`` without the signals not checked (``null``); schema 5: a revision's
# ``publisher`` after the first only with the fields that changed, ``provenance`` only for
# the blocks that did not come from the first revision unchanged, and no
# ``signal_evidence`` (the publisher fields it worded are in the revisions)
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
    out (the blocks no entry names are kept, paired in order); its ``summary`` without the
    counts that are 0, a false ``title_changed`` and empty ``cutoffs``."""
    out: dict[str, JSON] = dict(diff)
    title = diff.get("title")
    if isinstance(title, dict):
        out["title"] = {k: v for k, v in title.items() if k not in _COPIED}
    summary = diff.get("summary")
    if isinstance(summary, dict):  # most counts of an edit are 0
        out["summary"] = {k: v for k, v in summary.items() if v not in (0, False, [])}
    blocks = diff.get("blocks")
    if isinstance(blocks, list):
        out["blocks"] = [
            {k: v for k, v in b.items() if k not in _COPIED}
            for b in blocks
            if isinstance(b, dict) and b.get("op") != "kept"
        ]
    return out


_PAGE_ONLY: Final = frozenset({"sentences", "restating"})
"""A finding's keys that only the edit's page reads."""


def lean_classification(classification: dict[str, JSON]) -> dict[str, JSON]:
    """The Classification JSON without the findings' ``sentences`` (whole sentences, the
    text the document's ``blocks`` and the edit's page carry) and ``restating`` (which
    evidence lines the page may leave out beside them: the API keeps every line), and its
    ``signals`` as an object of each checked signal's ``seen`` by name: a signal not
    checked (``null``) is left out, and so is each signal's ``evidence``, which words what
    the revisions' ``publisher`` fields and ``blocks`` hold (a dateModified that moved, an
    "Updated" line, a note) or says no more than ``seen`` (the feed entry's date, the
    sitemap's)."""
    out = dict(classification)
    findings = classification.get("findings")
    if isinstance(findings, dict):
        out["findings"] = {
            kind: {k: v for k, v in finding.items() if k not in _PAGE_ONLY}
            if isinstance(finding, dict)
            else finding
            for kind, finding in findings.items()
        }
    signals = classification.get("signals")
    if isinstance(signals, list):
        out["signals"] = {
            str(signal["name"]): signal.get("seen")
            for signal in signals
            # not checked (``seen`` null): left out (the vocabulary names every signal)
            if isinstance(signal, dict)
            and isinstance(signal.get("name"), str)
            and signal.get("seen") is not None
        }
    return out


def _touched(listed: list[tuple[int, ...]], diffs: list[dict[str, JSON]]) -> set[int]:
    """The blocks (indexes into the table) whose text the document file carries: those
    missing from some revision, and those some edit moved or changed in place."""
    everywhere = set(listed[0]).intersection(*listed[1:]) if listed else set()
    touched = {n for blocks in listed for n in blocks} - everywhere
    for n, diff in enumerate(diffs):
        entries = diff.get("blocks")
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or entry.get("op") == "kept":
                continue
            for side, rev in (("old", n), ("new", n + 1)):
                at = entry.get(side)  # a position, or a list of them (split, merged)
                for i in at if isinstance(at, list) else [at]:
                    if isinstance(i, int) and 0 <= i < len(listed[rev]):
                        touched.add(listed[rev][i])
    return touched


def publisher_fields(record: dict[str, JSON]) -> dict[str, JSON]:
    """A publisher record without its unset fields (``null``, empty lists)."""
    return {k: v for k, v in record.items() if v is not None and v != []}


def publisher_changes(before: dict[str, JSON], after: dict[str, JSON]) -> dict[str, JSON]:
    """The publisher fields that differ from the revision before: each changed or new
    field's value, ``null`` for one no longer set (a dateModified that moved is the
    usual change; the authors, address and dates it keeps are not repeated)."""
    changed: dict[str, JSON] = {k: v for k, v in after.items() if before.get(k) != v}
    changed.update({k: None for k in before if k not in after})
    return changed


def document_file(
    document: str,
    *,
    url: str | None,
    source: str,
    revisions: list[Revision],
    events: list[Event],
    comparisons: list[Comparison],
    data: str,
    reextracted: dict[int, str] | None = None,
) -> dict[str, JSON]:
    """``api/documents/<id>.json``: every revision, events and edits, with the text of
    what the edits touched; ``data`` is the document's folder in the archive.
    ``reextracted`` (a site built with the text as re-extracted) names the revisions whose
    text is a derived reading, and the extractor of each: ``"reextracted": {"2": ...}``."""
    table: dict[tuple[str, str], int] = {}
    listed: list[tuple[int, ...]] = []
    for rev in revisions:
        listed.append(
            tuple(table.setdefault((b.kind, b.text), len(table)) for b in rev.article.blocks)
        )
    touched = _touched(listed, [c.diff for c in comparisons])
    entries: list[JSON] = []
    previous: Revision | None = None
    for rev, blocks in zip(revisions, listed, strict=True):
        entry: dict[str, JSON] = {
            "blocks": list(blocks),
            "number": rev.number,
            "observed_at": format_timestamp(rev.observation.observed_at),
        }
        # the headline, the page's address and the publisher's metadata when they differ
        # from the revision before and the document's address (most revisions share them)
        if previous is None or rev.article.title != previous.article.title:
            entry["title"] = rev.article.title
        if rev.observation.url != url:
            entry["url"] = rev.observation.url
        publisher = publisher_fields(rev.article.publisher.to_record())
        if previous is None:
            entry["publisher"] = publisher
        elif changed := publisher_changes(
            publisher_fields(previous.article.publisher.to_record()), publisher
        ):
            entry["publisher"] = changed
        entries.append(entry)
        previous = rev
    shown: dict[str, JSON] = {}
    if reextracted is not None:
        shown["reextracted"] = {str(n): extractor for n, extractor in sorted(reextracted.items())}
    return {
        **shown,
        "blocks": [[kind, text] if n in touched else None for n, (kind, text) in enumerate(table)],
        "data": data,
        "diffs": [
            {
                "classification": lean_classification(comparison.classification),
                "diff": lean_diff(comparison.diff),
                "new": new.number,
                "old": old.number,
            }
            for old, new, comparison in zip(revisions[:-1], revisions[1:], comparisons, strict=True)
        ],
        "document": document,
        "provenance": provenance(revisions, comparisons),
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
        "revisions": entries,
        "schema": API_SCHEMA,
        "source": source,
        "url": url,
    }


def provenance(revisions: list[Revision], comparisons: list[Comparison]) -> list[JSON]:
    """``[position, first, changed]`` for each block of the newest revision that did not
    come from the first revision unchanged: the revision it first appeared in and the one
    its text last changed in (``null``: never changed), following the edits' diffs
    (:mod:`quietedit.analysis.provenance`). A block not listed is ``[1, null]``: most of an
    edited article is, so the list stays as short as the edits."""
    origins = block_provenance(
        [r.number for r in revisions],
        [len(r.article.blocks) for r in revisions],
        [c.diff for c in comparisons],
    )
    unchanged = [revisions[0].number, None]
    return [
        [position, *origin.to_list()]
        for position, origin in enumerate(origins)
        if origin.to_list() != unchanged
    ]


def index_entry(doc: DocumentSummary) -> dict[str, JSON]:
    """One published document in its day file. Its page is ``articles/<id>/``, its file
    ``api/documents/<id>.json`` and its folder in the archive ``documents/<YYYY>/<MM>/<DD>/
    <id>/``: derived from the id and the day, so not repeated; nor are its ``url`` (in its
    file) and when it was last seen (its record in the archive)."""
    return {
        "first_seen": doc.first_seen,
        "id": doc.id,
        "revisions": doc.revisions,
        "source": doc.source,
        "title": doc.title,
    }


def day_file(day: str, entries: list[JSON], unpublished: list[str]) -> dict[str, JSON]:
    """``api/days/<day>.json``: the documents first seen on ``day`` that have pages
    (``documents``), and the ids of the others (never edited: the archive holds them)."""
    ids: list[JSON] = [*unpublished]
    return {"day": day, "documents": entries, "schema": API_SCHEMA, "unpublished": ids}


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
