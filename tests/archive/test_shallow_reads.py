"""The archive's shallow reads for the site build: stamps, content keys, unhashed revisions."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.errors import ArchiveError
from tests.conftest import STORY, T0, observation, seed_story


def test_stamps_list_every_document_with_a_record_and_nothing_else(archive: Archive) -> None:
    assert archive.document_stamps() == {}
    doc = seed_story(archive, revisions=1)
    (archive.layout.documents_dir / "half-made").mkdir()  # a folder without a record
    stamps = archive.document_stamps()
    assert list(stamps) == [doc] == archive.document_ids()


def test_a_new_revision_or_event_moves_the_stamp_and_the_content_key(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    stamp, key = archive.document_stamps()[doc], archive.content_key(doc)
    assert archive.document_stamps()[doc] == stamp and archive.content_key(doc) == key
    archive.append_revision(doc, observation("A new lede.", *STORY[1:], at=T0 + timedelta(hours=5)))
    assert archive.document_stamps()[doc] != stamp
    assert archive.content_key(doc) != key
    stamp, key = archive.document_stamps()[doc], archive.content_key(doc)
    archive.append_event(doc, "gone", observed_at=T0 + timedelta(hours=6), detail={"status": 410})
    assert archive.document_stamps()[doc] != stamp
    assert archive.content_key(doc) != key


def test_a_rewritten_record_changes_the_content_key(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    key = archive.content_key(doc)
    record = archive.read_document(doc) or {}
    archive.write_document(doc, {**record, "feeds": ["courier"]})
    assert archive.content_key(doc) != key


def test_moved_times_change_the_stamp_but_not_the_content_key(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    stamp, key = archive.document_stamps()[doc], archive.content_key(doc)
    os.utime(archive.revisions_dir(doc), ns=(1_000_000_000, 1_000_000_000))
    assert archive.document_stamps()[doc] != stamp
    assert archive.content_key(doc) == key


def test_the_content_key_depends_on_the_content_not_the_folder(tmp_path: Path) -> None:
    one, two = Archive(tmp_path / "one"), Archive(tmp_path / "two")
    doc = seed_story(one)
    seed_story(two)
    assert one.content_key(doc) == two.content_key(doc)


def test_an_unreadable_document_raises_an_archive_error(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    archive.document_file(doc).unlink()
    with pytest.raises(ArchiveError, match="cannot read"):
        archive.content_key(doc)


def test_shallow_revisions_equal_the_checked_ones(archive: Archive) -> None:
    doc = seed_story(archive, revisions=3)
    assert archive.revisions(doc, shallow=True) == archive.revisions(doc)


def test_shallow_read_skips_the_hash_but_not_the_shape(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    path = archive.revision_file(doc, 2)
    record = json.loads(path.read_bytes())
    path.chmod(0o644)
    path.write_text(json.dumps({**record, "hash": "sha256:" + "0" * 64}), encoding="utf-8")
    assert archive.revisions(doc, shallow=True)[1].hash == "sha256:" + "0" * 64
    with pytest.raises(ArchiveError):
        archive.revisions(doc)  # the full read checks the record's own hash
    path.write_text(json.dumps({**record, "blocks": "not a list"}), encoding="utf-8")
    with pytest.raises(ArchiveError, match="blocks: wrong type; run quietedit verify"):
        archive.revisions(doc, shallow=True)
    path.write_text(json.dumps({"title": "no other field"}), encoding="utf-8")
    with pytest.raises(ArchiveError, match="not a revision record"):
        archive.revisions(doc, shallow=True)


def test_shallow_read_refuses_a_gap_in_the_numbers(archive: Archive) -> None:
    doc = seed_story(archive, revisions=3)
    archive.revision_file(doc, 2).unlink()
    with pytest.raises(ArchiveError, match="expected revision 2 here"):
        archive.revisions(doc, shallow=True)
