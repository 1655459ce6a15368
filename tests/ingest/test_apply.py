"""Applying a check's plan to a real archive: the writes in the crash-safe order, verified."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from quietedit.archive.evidence import EvidenceLog, check_evidence
from quietedit.archive.records import digest
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.fingerprint import content_hash
from quietedit.decide.check import Gathered, Needs, plan_check
from quietedit.decide.memory import DocumentState, document_from_record, document_to_record
from quietedit.decide.reading import PageReading
from quietedit.decide.versioning import body_words
from quietedit.errors import ArchiveError
from quietedit.fetch.document import RawDocument
from quietedit.ingest.check import apply_check, load_stored
from quietedit.model import Article, Block
from quietedit.revisions import EvidenceRef
from tests.conftest import STORY_URL, T0, seed_story

NOW = T0 + timedelta(days=1)
WARC = "2026-12/quietedit-20261201T060000Z.warc.gz"
BODY = b"<html><p>the corrected story</p></html>"
CORRECTED = Article(
    title="Council approves budget",
    blocks=tuple(
        Block(f"Paragraph {n}: the council approved a budget of 5.1 million euros on Monday.")
        for n in range(8)
    ),
)


def known(archive: Archive, doc: str, *, status: str = "active") -> DocumentState:
    record = archive.read_document(doc)
    assert record is not None
    return replace(document_from_record(doc, record), url=STORY_URL, status=status)


def gathered(archive: Archive, state: DocumentState) -> Gathered:
    """The corrected page fetched and read, and the stored revisions loaded."""
    reading = PageReading(CORRECTED, content_hash(CORRECTED), {}, body_words(CORRECTED))
    headers = (("content-type", "text/html"), ("content-encoding", "br"), ("ETag", '"v3"'))
    page = RawDocument(STORY_URL, 200, "text/html", BODY, '"v3"', None, headers=headers)
    stored = load_stored(archive, state.id, Needs(page=True))
    return Gathered(page, STORY_URL, reading=reading, stored=stored)


def test_a_planned_revision_is_stored_with_its_evidence_its_events_and_the_record(
    archive: Archive, tmp_path: Path
) -> None:
    doc = seed_story(archive, revisions=2)
    state = known(archive, doc, status="gone")
    plan = plan_check(state, gathered(archive, state), now=NOW)
    with EvidenceLog(tmp_path / "evidence", WARC) as evidence:
        result = apply_check(archive, plan, evidence=evidence)
    assert (result.status, result.revision) == ("new-revision", 3)
    [*_, newest] = archive.revisions(doc)
    kept = newest.observation.evidence
    assert isinstance(kept, EvidenceRef)
    assert (newest.number, kept.file, kept.sha256) == (3, WARC, digest(BODY))
    assert check_evidence(tmp_path / "evidence", verify_archive(archive.root).references) == []
    with (tmp_path / "evidence" / WARC).open("rb") as stream:
        records = [
            (r.rec_type, r.rec_headers, r.http_headers, r.raw_stream.read())
            for r in ArchiveIterator(stream)
        ]
    [(_, warc, http, body)] = [record for record in records if record[0] == "response"]
    assert warc.get_header("WARC-Record-ID") == f"<{kept.record}>"
    assert warc.get_header("WARC-Target-URI") == STORY_URL
    assert (http.statusline, http.get_header("ETag")) == ("200 OK", '"v3"')
    assert http.get_header("X-Archive-Orig-content-encoding") == "br"
    assert body == BODY
    [restored] = archive.events(doc)
    assert (restored.kind, restored.revision) == ("restored", 3)
    assert archive.read_document(doc) == {
        **document_to_record(result.state),
        "schema": 2,
        "type": "document",
        "id": doc,
    }
    assert verify_archive(archive.root).problems == ()


def test_a_plan_the_archive_numbers_otherwise_is_refused_before_the_record(
    archive: Archive,
) -> None:
    doc = seed_story(archive, revisions=1)
    state = known(archive, doc)
    stale = plan_check(state, gathered(archive, state), now=NOW)
    before = archive.read_document(doc)
    # another writer stores a revision between the gathering and the writes
    other = replace(CORRECTED, title="Council budget: the vote is delayed")
    archive.append_revision(doc, replace(archive.revisions(doc)[0].observation, article=other))
    with pytest.raises(ArchiveError, match="planned as 2"):
        apply_check(archive, stale)
    assert archive.read_document(doc) == before  # the record waits for a sound check
    assert archive.events(doc) == []


def test_no_revision_is_stored_when_its_evidence_cannot_be_kept(
    archive: Archive, tmp_path: Path
) -> None:
    doc = seed_story(archive, revisions=2)
    state = known(archive, doc, status="gone")
    plan = plan_check(state, gathered(archive, state), now=NOW)
    (tmp_path / "evidence").write_text("a file where the evidence folder should be")
    with (
        EvidenceLog(tmp_path / "evidence", WARC) as evidence,
        pytest.raises(ArchiveError, match="evidence"),
    ):
        apply_check(archive, plan, evidence=evidence)
    assert len(archive.revisions(doc)) == 2
    assert archive.events(doc) == []
