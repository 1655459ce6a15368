"""The archive's write rules: create-only revisions, a hash chain, atomic state, safe paths."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive.records import check_revision_record, record_hash
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.errors import (
    ArchiveError,
    RevisionExistsError,
    UnchangedContentError,
    UnsafePathError,
)
from tests.conftest import STORY, STORY_URL, T0, observation, seed_story


def test_revisions_are_numbered_and_chained_by_their_predecessors_hash(archive: Archive) -> None:
    doc = seed_story(archive, revisions=3)
    first, second, third = archive.revisions(doc)
    assert [r.number for r in (first, second, third)] == [1, 2, 3]
    assert first.previous is None
    assert second.previous == first.hash
    assert third.previous == second.hash
    assert len({first.content_hash, second.content_hash, third.content_hash}) == 3


def test_stored_revision_round_trips_and_its_hash_covers_the_record(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    path = archive.revision_file(doc, 1)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert check_revision_record(record) == []
    assert record["hash"] == record_hash(record)
    assert record["blocks"][1]["text"] == STORY[1]  # typographic quotes kept as observed
    assert archive.latest_revision(doc) == archive.revisions(doc)[0]


def test_file_bytes_are_deterministic(tmp_path: Path) -> None:
    one, two = Archive(tmp_path / "one"), Archive(tmp_path / "two")
    doc = seed_story(one)
    seed_story(two)
    for number in (1, 2, 3):
        relative = one.revision_file(doc, number).relative_to(one.root)
        data = (one.root / relative).read_bytes()
        assert data == (two.root / relative).read_bytes()
        assert data.endswith(b"}\n")
        assert "“a fair compromise”".encode() in data  # UTF-8, not \u escapes


def test_unchanged_content_is_refused(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    same_text_new_spacing = observation(
        STORY[0].replace(" ", "  "), *STORY[1:], at=T0 + timedelta(hours=5)
    )
    with pytest.raises(UnchangedContentError, match="unchanged since revision 1"):
        archive.append_revision(doc, same_text_new_spacing)
    assert len(archive.revisions(doc)) == 1


def test_an_existing_revision_file_is_never_overwritten(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    target = archive.revision_file(doc, 2)
    target.write_text("taken by another writer\n", encoding="utf-8")
    with pytest.raises(RevisionExistsError, match="never rewritten"):
        archive._create(target, b"{}\n")
    assert target.read_text(encoding="utf-8") == "taken by another writer\n"


def test_revision_needs_its_document_record_first(archive: Archive) -> None:
    with pytest.raises(ArchiveError, match="write_document"):
        archive.append_revision(document_id(STORY_URL), observation())


def test_state_files_are_replaced_atomically_and_leave_no_temp_files(archive: Archive) -> None:
    archive.write_feed("city-desk", {"etag": '"a"', "failures": 0})
    archive.write_feed("city-desk", {"etag": '"b"', "failures": 1})
    archive.write_state("ledger", {"hosts": {"news.example.org": [1, 2]}})
    assert archive.read_feed("city-desk") == {
        "etag": '"b"',
        "failures": 1,
        "schema": 2,
        "slug": "city-desk",
        "type": "feed",
    }
    assert archive.read_state("ledger") is not None
    assert archive.read_feed("unknown") is None
    assert list(archive.layout.tmp_dir.iterdir()) == []


@pytest.mark.parametrize(
    "hostile",
    ["../../etc", "..", "a/b", "", "Example-COM-0123456789abcdef", "x" * 300, "doc-0123\x00"],
)
def test_hostile_ids_and_slugs_never_become_paths(archive: Archive, hostile: str) -> None:
    with pytest.raises(UnsafePathError):
        archive.document_dir(hostile)
    with pytest.raises(UnsafePathError):
        archive.write_feed(hostile, {})
    with pytest.raises(UnsafePathError):
        archive.write_state(hostile, {})


def test_a_corrupt_revision_is_reported_not_trusted(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    path = archive.revision_file(doc, 2)
    path.write_text(path.read_text(encoding="utf-8").replace("4.3", "9.9"), encoding="utf-8")
    with pytest.raises(ArchiveError, match="hash: recorded"):
        archive.latest_revision(doc)
    path.write_bytes(b"\xff\xfe not json")
    with pytest.raises(ArchiveError, match="not valid UTF-8 JSON"):
        archive.revisions(doc)


def test_document_ids_lists_only_documents_with_a_record(archive: Archive) -> None:
    assert archive.document_ids() == []
    doc = seed_story(archive, revisions=1)
    (archive.layout.documents_dir / "stray").mkdir()
    assert archive.document_ids() == [doc]


def test_a_revision_reads_back_exactly_as_it_was_appended(archive: Archive) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    appended = archive.append_revision(doc, observation())
    assert archive.revisions(doc) == [appended]
    assert appended.article.publisher.authors == ("Ana Ruiz",)
    record = json.loads(archive.revision_file(doc, 1).read_text(encoding="utf-8"))
    assert record["publisher"]["authors"] == ["Ana Ruiz"]
    assert record["publisher"]["date_modified"] is None


def test_events_are_numbered_create_only_records_of_a_known_document(archive: Archive) -> None:
    with pytest.raises(ArchiveError, match="write_document"):
        archive.append_event(document_id(STORY_URL), "gone", observed_at=T0)
    doc = seed_story(archive, revisions=1)
    first = archive.append_event(doc, "flip-flop", observed_at=T0, revision=1)
    second = archive.append_event(doc, "gone", observed_at=T0, detail={"status": 404})
    assert (first.number, second.number) == (1, 2)
    assert archive.events(doc) == [first, second]
    with pytest.raises(ValueError, match="event kind 'deleted'"):
        archive.append_event(doc, "deleted", observed_at=T0)


def test_event_numbers_continue_after_the_highest_even_with_a_gap(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    archive.append_event(doc, "gone", observed_at=T0)
    archive.append_event(doc, "restored", observed_at=T0)
    archive.event_file(doc, 1).unlink()
    assert archive.append_event(doc, "gone", observed_at=T0).number == 3


def test_sweep_temp_clears_leftovers_but_keeps_the_lock(archive: Archive) -> None:
    archive.layout.tmp_dir.mkdir(parents=True)
    (archive.layout.tmp_dir / "000001.json.x").write_text("half")
    (archive.layout.tmp_dir / "ingest.lock").write_text("")
    assert archive.sweep_temp() == 1
    assert [p.name for p in archive.layout.tmp_dir.iterdir()] == ["ingest.lock"]
