"""Archives written file by file, as quietedit writes them, in the schema-2 layout and in
the schema-1 layout that ``quietedit migrate`` reads: real records (real hashes, real
chains), without going through the store, so the checks are tested against the format
itself."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from quietedit.archive.eventrecords import event_to_record
from quietedit.archive.layout import INDEX_SCHEMA, Layout, index_shard, partition_of
from quietedit.archive.records import (
    digest,
    dump_json,
    new_revision,
    record_hash,
    revision_to_record,
)
from quietedit.article.identity import document_id
from quietedit.model import JSON, format_timestamp
from quietedit.revisions import Event, EvidenceRef, Revision
from tests.conftest import STORY, T0, observation


def story_url(n: int) -> str:
    return f"https://news.example.org/politics/2026/11/30/story-{n}"


def revisions_of(
    url: str, count: int, *, schema: int, start: datetime = T0, pages: bool = True
) -> list[tuple[Revision, bytes | None]]:
    """``count`` successive revisions of the story at ``url`` in ``schema``, each with the
    raw page behind it (schema 1 names it by hash; schema 2 by a WARC record)."""
    doc = document_id(url)
    found: list[tuple[Revision, bytes | None]] = []
    previous: Revision | None = None
    for n in range(count):
        page = f"<html><p>{url} version {n}</p></html>".encode() if pages else None
        evidence: EvidenceRef | str | None = None
        if page is not None:
            evidence = (
                digest(page)
                if schema == 1
                else EvidenceRef(
                    file="2026-11/quietedit-20261130T060000Z.warc.gz",
                    record=f"urn:uuid:00000000-0000-5000-8000-{n:012d}",
                    sha256=digest(page),
                )
            )
        lede = STORY[0].replace("4.2", f"4.{2 + n}")
        seen = observation(lede, *STORY[1:], at=start + timedelta(hours=n), url=url)
        revision = new_revision(doc, replace(seen, evidence=evidence), previous=previous)
        if schema != revision.schema:
            revision = replace(revision, schema=schema)
            revision = replace(revision, hash=record_hash(revision_to_record(revision)))
        found.append((revision, page))
        previous = revision
    return found


def document_record(url: str, *, schema: int, discovered: datetime = T0) -> dict[str, JSON]:
    return {
        "discovered_at": format_timestamp(discovered),
        "id": document_id(url),
        "schema": schema,
        "type": "document",
        "url": url,
    }


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def add_index_entry(root: Path, doc: str, partition: str) -> None:
    path = Layout(root).index_file(index_shard(doc))
    entries: dict[str, JSON] = {}
    if path.exists():
        entries = json.loads(path.read_text(encoding="utf-8"))["documents"]
    entries[doc] = partition
    record: dict[str, JSON] = {
        "documents": dict(sorted(entries.items())),
        "schema": INDEX_SCHEMA,
        "shard": index_shard(doc),
        "type": "index",
    }
    write(path, dump_json(record))


def write_story(
    root: Path,
    url: str = story_url(0),
    *,
    revisions: int = 3,
    discovered: datetime = T0,
    revision_schema: int = 2,
    events: int = 0,
) -> str:
    """A schema-2 document: index entry, record, ``revisions`` revisions (of
    ``revision_schema``: schema-1 revisions are what migrate leaves), ``events`` events."""
    layout = Layout(root)
    doc = document_id(url)
    partition = partition_of(discovered)
    add_index_entry(root, doc, partition)
    record = document_record(url, schema=2, discovered=discovered)
    write(layout.document_file(doc, partition), dump_json(record))
    stored = revisions_of(url, revisions, schema=revision_schema, start=discovered)
    for revision, _ in stored:
        path = layout.revision_file(doc, partition, revision.number)
        write(path, dump_json(revision_to_record(revision)))
    for n in range(1, events + 1):
        event = Event(doc, n, "gone", discovered, revision=revisions or None, schema=2)
        write(layout.event_file(doc, partition, n), dump_json(event_to_record(event)))
    return doc


def write_legacy_story(
    root: Path,
    url: str = story_url(0),
    *,
    revisions: int = 3,
    discovered: datetime = T0,
    events: int = 1,
    record: dict[str, JSON] | None = None,
) -> str:
    """A schema-1 document folder ``documents/<id>/``: record, revisions, events and the
    raw pages in ``evidence/``, as quietedit 0.x wrote them."""
    layout = Layout(root)
    doc = document_id(url)
    folder = layout.legacy_document_dir(doc)
    written = record or document_record(url, schema=1, discovered=discovered)
    write(folder / "document.json", dump_json(written))
    for revision, page in revisions_of(url, revisions, schema=1, start=discovered):
        write(
            folder / "revisions" / f"{revision.number:06d}.json",
            dump_json(revision_to_record(revision)),
        )
        if page is not None:
            write(layout.legacy_evidence_file(doc, digest(page)), page)
    for n in range(1, events + 1):
        event = Event(doc, n, "gone", discovered, revision=revisions or None, schema=1)
        write(folder / "events" / f"{n:06d}.json", dump_json(event_to_record(event)))
    return doc


def write_legacy_state(root: Path) -> None:
    """Schema-1 feed and state files."""
    feed: dict[str, JSON] = {"etag": None, "schema": 1, "slug": "city-desk", "type": "feed"}
    write(root / "feeds" / "city-desk.json", dump_json(feed))
    ledger: dict[str, JSON] = {"name": "ledger", "requests": [], "schema": 1, "type": "state"}
    write(root / "state" / "ledger.json", dump_json(ledger))
