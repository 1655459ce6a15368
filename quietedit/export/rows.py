"""The rows of the export's tables, one function per table (pure).

Each function takes what was read of one document (:class:`DocumentData`: its record, its
revisions and events, and the comparisons of its consecutive revisions, the very ones the
site shows) or of one feed record, and returns plain rows for the table of the same name
in :mod:`quietedit.export.schema`. Rows are dicts of str, int, float or None, in a fixed
order, so the same archive gives the same rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any, Final, TypeAlias

from quietedit.analysis.provenance import BlockOrigin, block_provenance
from quietedit.analysis.stories import Story
from quietedit.archive.derived import DerivedReading
from quietedit.article.identity import canonical_url, document_id
from quietedit.errors import InvalidURLError
from quietedit.export.numbering import text_number
from quietedit.model import JSON, format_timestamp
from quietedit.revisions import Event, EvidenceRef, Revision

Row: TypeAlias = dict[str, Any]

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
OPS: Final = ("kept", "added", "removed", "changed", "moved", "split", "merged")


@dataclass(frozen=True, slots=True)
class DocumentData:
    """One document as the export reads it: ``comparisons`` holds, for each pair of
    consecutive revisions, its Diff JSON and Classification JSON (``(diff,
    classification)``)."""

    id: str
    partition: str
    source: str
    record: Mapping[str, JSON]
    revisions: Sequence[Revision]
    events: Sequence[Event]
    comparisons: Sequence[tuple[dict[str, JSON], dict[str, JSON]]]
    derived: Sequence[DerivedReading] = ()

    def revision_id(self, number: int) -> str:
        return f"{self.id}/{number}"

    def provenance(self) -> tuple[BlockOrigin, ...]:
        """Where each block of the newest revision comes from."""
        return block_provenance(
            [r.number for r in self.revisions],
            [len(r.article.blocks) for r in self.revisions],
            [diff for diff, _ in self.comparisons],
        )


def text(value: object) -> str | None:
    """A string safe for SQLite and UTF-8 (a lone surrogate, which a hostile page's JSON
    escape can carry, becomes U+FFFD); ``None`` for anything but a string."""
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else None


def as_json(value: JSON) -> str:
    """A value as compact, sorted, deterministic JSON text."""
    dumped = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return _SURROGATE.sub("\ufffd", dumped)


def utc(value: object) -> str | None:
    """A publisher's date as UTC RFC 3339, when it is ISO 8601 with a time zone."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return format_timestamp(moment.astimezone(UTC)) if moment.tzinfo is not None else None


def document_row(doc: DocumentData, origins: Sequence[BlockOrigin]) -> Row:
    """The document's row; ``origins``, its newest blocks' provenance, gives its counts."""
    first, last = doc.revisions[0], doc.revisions[-1]
    record = doc.record
    return {
        "id": doc.id,
        "source": doc.source,
        "url": text(record.get("url")),
        "partition": doc.partition,
        "status": text(record.get("status")),
        "discovered_at": text(record.get("discovered_at", record.get("first_seen"))),
        "published": utc(first.article.publisher.date_published),
        "first_observed": format_timestamp(first.observation.observed_at),
        "last_observed": format_timestamp(last.observation.observed_at),
        "revisions": len(doc.revisions),
        "edits": len(doc.revisions) - 1,
        "title": text(last.article.title),
        "language": text(last.article.publisher.language),
        "blocks": len(origins),
        "blocks_not_in_first": sum(origin.revision != 1 for origin in origins),
        "blocks_changed_since": sum(origin.basis == "last-changed" for origin in origins),
    }


def revision_rows(doc: DocumentData) -> Iterator[Row]:
    for rev in doc.revisions:
        evidence = rev.observation.evidence
        ref = evidence if isinstance(evidence, EvidenceRef) else None
        publisher = rev.article.publisher
        yield {
            "id": doc.revision_id(rev.number),
            "document": doc.id,
            "number": rev.number,
            "observed_at": format_timestamp(rev.observation.observed_at),
            "title": text(rev.article.title),
            "url": text(rev.observation.url),
            "blocks": len(rev.article.blocks),
            "content_hash": rev.content_hash,
            "hash": rev.hash,
            "previous": rev.previous,
            "extractor": text(rev.observation.extractor),
            "evidence_file": ref.file if ref else None,
            "evidence_record": ref.record if ref else None,
            "evidence_sha256": ref.sha256 if ref else text(evidence),
            "date_published": text(publisher.date_published),
            "date_modified": text(publisher.date_modified),
            "updated_line": text(publisher.updated_line),
            "authors": as_json(list(publisher.authors)),
            "notes": as_json(list(publisher.notes)),
        }


def text_and_block_rows(doc: DocumentData, *, slot: int) -> tuple[list[Row], list[Row], list[int]]:
    """The document's ``texts`` rows, each distinct text once, numbered in the order they
    first appear in its revisions from the document's ``slot``
    (:func:`~quietedit.export.numbering.text_number`), its ``blocks`` rows, and the
    numbers of the texts its newest revision no longer has (removed, or changed into
    another text), ascending. ``ExportError`` for a document of too many texts."""
    ids: dict[str, int] = {}
    texts: list[Row] = []
    blocks: list[Row] = []
    for rev in doc.revisions:
        for position, block in enumerate(rev.article.blocks):
            number = ids.get(block.text)
            if number is None:
                number = ids[block.text] = text_number(slot, len(ids), document=doc.id)
                texts.append({"id": number, "document": doc.id, "text": text(block.text)})
            blocks.append(
                {
                    "revision": doc.revision_id(rev.number),
                    "position": position,
                    "document": doc.id,
                    "number": rev.number,
                    "kind": block.kind,
                    "text": number,
                }
            )
    newest = {ids[block.text] for block in doc.revisions[-1].article.blocks} if ids else set()
    return texts, blocks, [n for n in ids.values() if n not in newest]


def edit_rows(doc: DocumentData) -> Iterator[Row]:
    for (old, new), (diff, classification) in zip(
        pairwise(doc.revisions), doc.comparisons, strict=True
    ):
        summary = _dict(diff.get("summary"))
        title = _dict(diff.get("title"))
        yield {
            "id": doc.revision_id(new.number),
            "document": doc.id,
            "old_revision": doc.revision_id(old.number),
            "new_revision": doc.revision_id(new.number),
            "old_number": old.number,
            "new_number": new.number,
            "observed_at": format_timestamp(new.observation.observed_at),
            "significance": text(classification.get("significance")),
            "silent": _flag(classification.get("silent")),
            "kinds": as_json(classification.get("kinds", [])),
            "title_changed": _flag(summary.get("title_changed")),
            "old_title": text(old.article.title),
            "new_title": text(new.article.title),
            **{op: _int(summary.get(op)) for op in OPS},
            "words_added": _int(summary.get("words_added")),
            "words_removed": _int(summary.get("words_removed")),
            "title_words": as_json(title["words"]) if "words" in title else None,
            "cutoffs": as_json(summary.get("cutoffs", [])),
        }


def edit_op_rows(doc: DocumentData) -> Iterator[Row]:
    for new, (diff, _) in zip(doc.revisions[1:], doc.comparisons, strict=True):
        entries = diff.get("blocks")
        for position, entry in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(entry, dict) or entry.get("op") == "kept":
                continue
            yield {
                "edit": doc.revision_id(new.number),
                "position": position,
                "op": text(entry.get("op")),
                "old": as_json(entry["old"]) if "old" in entry else None,
                "new": as_json(entry["new"]) if "new" in entry else None,
                "kind": as_json(entry.get("kind")),
                "old_kind": text(entry.get("old_kind")),
                "similarity": _float(entry.get("similarity")),
                "words": as_json(entry["words"]) if "words" in entry else None,
                "text": text(entry.get("text")),
            }


def edit_kind_rows(doc: DocumentData) -> Iterator[Row]:
    for new, (_, classification) in zip(doc.revisions[1:], doc.comparisons, strict=True):
        findings = _dict(classification.get("findings"))
        for kind in sorted(findings):
            finding = _dict(findings[kind])
            yield {
                "edit": doc.revision_id(new.number),
                "kind": kind,
                "significance": text(finding.get("significance")),
                "evidence": as_json(finding.get("evidence", [])),
                "sentences": as_json(finding.get("sentences", [])),
            }


def edit_signal_rows(doc: DocumentData) -> Iterator[Row]:
    for new, (_, classification) in zip(doc.revisions[1:], doc.comparisons, strict=True):
        signals = classification.get("signals")
        for position, signal in enumerate(signals if isinstance(signals, list) else []):
            found = _dict(signal)
            yield {
                "edit": doc.revision_id(new.number),
                "position": position,
                "name": text(found.get("name")),
                "seen": _flag(found.get("seen")),
                "evidence": text(found.get("evidence")),
            }


def event_rows(doc: DocumentData) -> Iterator[Row]:
    numbers = {r.number for r in doc.revisions}
    for event in doc.events:
        yield {
            "id": f"{doc.id}/e{event.number}",
            "document": doc.id,
            "number": event.number,
            "kind": event.kind,
            "observed_at": format_timestamp(event.observed_at),
            "revision": doc.revision_id(event.revision) if event.revision in numbers else None,
            "detail": as_json(event.detail),
        }


def provenance_rows(doc: DocumentData, origins: Sequence[BlockOrigin]) -> Iterator[Row]:
    """The provenance of the newest revision's blocks (``origins``: ``doc.provenance()``)."""
    newest = doc.revision_id(doc.revisions[-1].number)
    for position, origin in enumerate(origins):
        yield {
            "document": doc.id,
            "position": position,
            "revision": newest,
            "first_appeared": origin.first,
            "last_changed": origin.changed,
            "since": doc.revision_id(origin.revision),
            "basis": origin.basis,
        }


def derived_rows(doc: DocumentData) -> Iterator[Row]:
    for reading in doc.derived:
        yield {
            "id": f"{doc.id}/d{reading.number}",
            "document": doc.id,
            "number": reading.number,
            "revision": doc.revision_id(reading.revision),
            "extractor": reading.extractor,
            "title": text(reading.article.title),
            "blocks": as_json([block.text for block in reading.article.blocks]),
            "content_hash": reading.content_hash,
            "evidence_file": reading.evidence.file,
            "evidence_record": reading.evidence.record,
            "hash": reading.hash,
        }


def story_rows(stories: Iterable[Story], sources: Mapping[str, str]) -> Iterator[Row]:
    """One row per article of each story; ``sources`` maps each document to its source."""
    for story in stories:
        for document in story.documents:
            yield {"document": document, "story": story.id, "source": sources[document]}


def source_row(slug: str, *, name: str | None, url: str | None, kind: str, active: object) -> Row:
    return {
        "slug": slug,
        "name": text(name) or slug,
        "url": text(url),
        "kind": kind,
        "active": _flag(active),
    }


def feed_entry_rows(
    slug: str,
    record: Mapping[str, JSON],
    documents: set[str] | None,
    urls: Mapping[str, str] | None = None,
) -> Iterator[Row]:
    """The entries of a feed record; ``documents`` are the ids archived, so an entry's
    ``document`` always names a row of ``documents`` (``None``: the id its link makes,
    for the caller to check). ``urls``, the archived documents by their canonical URLs,
    spares canonicalising a link that is one of them (see :func:`document_of_link`)."""
    entries = _dict(record.get("entries"))
    for key in sorted(entries):
        entry = _dict(entries[key])
        link = text(entry.get("link"))
        yield {
            "feed": slug,
            "entry": text(entry.get("id")) or text(key),
            "link": link,
            "title": text(entry.get("title")),
            "summary": text(entry.get("summary")),
            "published": text(entry.get("published")),
            "updated": text(entry.get("updated")),
            "observed_at": text(entry.get("observed_at")),
            "document": document_of_link(link, documents, urls or {}),
        }


def document_of_link(
    link: str | None, documents: set[str] | None, urls: Mapping[str, str]
) -> str | None:
    """The id of the document ``link`` names (its canonical URL's), if it is one of
    ``documents`` (any without them). A link that is the canonical URL of a document of
    ``urls`` whose id it makes is that document's: canonicalising it again would give it
    back unchanged (:func:`canonical_url` is idempotent), and canonicalising costs 0.13 ms
    a link, about 10 s of a year's feed entries (most of them links that left a feed)."""
    if not link:
        return None
    known = urls.get(link)
    doc = document_id(link) if known is not None else None
    if doc is None or doc != known:
        try:
            doc = document_id(canonical_url(link))
        except InvalidURLError:
            return None
    return doc if documents is None or doc in documents else None


def _dict(value: JSON) -> dict[str, JSON]:
    return value if isinstance(value, dict) else {}


def _flag(value: object) -> int | None:
    return int(value) if isinstance(value, bool) else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
