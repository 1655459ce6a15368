"""What the archive flushes to disk: every content before its name, every name a later
write may refer to before the write returns; only a unit's final replace skips its folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from quietedit.archive.layout import index_shard
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
    archive.write_document(
        DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"}, final=True
    )
    # the index entry first, so no folder is ever unknown to the index; each new folder's
    # name flushed into its parent before anything is written into it
    data, home = archive.root, archive.document_dir(DOC)
    assert flushed == [
        ".tmp",
        str(data),
        str(archive.layout.index_dir),
        str(archive.layout.index_folder(index_shard(DOC)).parent),
        str(archive.layout.index_folder(index_shard(DOC))),
        ".tmp",
        str(data),
        *(str(folder) for folder in reversed(home.parents[:5])),
        str(home),
    ]
    assert home.parents[4] == data / "documents"


def test_a_final_replace_flushes_the_content_but_not_the_folder(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    flushed.clear()
    archive.write_document(
        DOC, {"url": STORY_URL, "checks": 2, "discovered_at": "2026-11-30T06:00:00Z"}, final=True
    )
    assert flushed == [".tmp"]
    assert archive.read_document(DOC) == {
        "url": STORY_URL,
        "checks": 2,
        "discovered_at": "2026-11-30T06:00:00Z",
        "schema": 2,
        "type": "document",
        "id": DOC,
    }


def test_a_replace_that_later_writes_depend_on_flushes_its_folder(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_feed("herald", {"polls": 1})
    archive.write_feed("herald", {"polls": 2})
    archive.write_state("ledger", {"requests": []}, final=True)
    data, feeds = str(archive.root), str(archive.root / "feeds")
    state = str(archive.root / "state")
    assert flushed == [".tmp", data, feeds, ".tmp", feeds, ".tmp", data, state]


def test_revision_names_are_flushed_before_the_write_returns(
    archive: Archive, flushed: list[str]
) -> None:
    archive.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    flushed.clear()
    archive.append_revision(DOC, observation())
    # the new revisions folder's name, then the revision's
    assert flushed == [".tmp", str(archive.document_dir(DOC)), str(archive.revisions_dir(DOC))]


def test_files_need_a_record_even_after_another_archive_object_wrote_one(
    archive: Archive,
) -> None:
    with pytest.raises(ArchiveError, match="write_document"):
        archive.append_revision(DOC, observation())
    Archive(archive.root).write_document(
        DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"}
    )
    assert archive.append_revision(DOC, observation()).number == 1
    assert archive.append_event(DOC, "gone", observed_at=observation().observed_at).number == 1
