"""What the archive flushes to disk: every content before its name, every name a later
write may refer to before the write returns; only a unit's final replace skips its folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.errors import ArchiveError
from tests.conftest import STORY_URL, observation

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd")

DOC = document_id(STORY_URL)


@pytest.fixture
def flushed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths ``os.fsync`` is called on, in order (temp files by their folder name)."""
    paths: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        target = Path(os.readlink(f"/proc/self/fd/{fd}"))
        paths.append(".tmp" if target.parent.name == ".tmp" else str(target))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return paths


def test_a_documents_first_record_is_flushed_with_its_name_even_when_final(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_document(DOC, {"url": STORY_URL}, final=True)
    assert flushed == [".tmp", str(archive.layout.document_dir(DOC))]


def test_a_final_replace_flushes_the_content_but_not_the_folder(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_document(DOC, {"url": STORY_URL})
    flushed.clear()
    archive.write_document(DOC, {"url": STORY_URL, "checks": 2}, final=True)
    assert flushed == [".tmp"]
    assert archive.read_document(DOC) == {
        "url": STORY_URL,
        "checks": 2,
        "schema": 1,
        "type": "document",
        "id": DOC,
    }


def test_a_replace_that_later_writes_depend_on_flushes_its_folder(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_feed("herald", {"polls": 1})
    archive.write_feed("herald", {"polls": 2})
    archive.write_state("ledger", {"requests": []}, final=True)
    feeds = str(archive.root / "feeds")
    assert flushed == [".tmp", feeds, ".tmp", feeds, ".tmp", str(archive.root / "state")]


def test_evidence_and_revision_names_are_flushed_before_the_write_returns(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_document(DOC, {"url": STORY_URL})
    flushed.clear()
    evidence = archive.put_evidence(DOC, b"<html>story</html>")
    archive.append_revision(DOC, observation(evidence=evidence))
    assert flushed == [
        ".tmp",
        str(archive.layout.evidence_dir(DOC)),
        ".tmp",
        str(archive.layout.revisions_dir(DOC)),
    ]


def test_files_need_a_record_even_after_another_archive_object_wrote_one(
    archive: Archive,
) -> None:
    with pytest.raises(ArchiveError, match="write_document"):
        archive.put_evidence(DOC, b"<html>orphan</html>")
    Archive(archive.root).write_document(DOC, {"url": STORY_URL})
    evidence = archive.put_evidence(DOC, b"<html>story</html>")
    assert archive.append_revision(DOC, observation(evidence=evidence)).number == 1
    assert archive.append_event(DOC, "gone", observed_at=observation().observed_at).number == 1
