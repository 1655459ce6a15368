"""The export's reading of a listed document: what the archive's API reads, with its errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quietedit.archive.layout import revision_name
from quietedit.archive.readings import derived_readings
from quietedit.archive.store import Archive
from quietedit.errors import ArchiveError
from quietedit.export.reading import read_listed
from tests.export.conftest import STORIES, write_archive


def test_each_listed_document_reads_as_the_archive_s_api_reads_it(
    archive_ids: tuple[Path, dict[str, str]],
) -> None:
    root, _ = archive_ids
    archive = Archive(root)
    listed = archive.documents()
    assert len(listed) == len(STORIES)
    for partition, doc in listed:
        read = read_listed(archive, partition, doc)
        assert read.record == archive.read_document(doc)
        assert read.revisions == archive.revisions(doc, shallow=True)
        assert read.events == archive.events(doc)
        assert read.derived == derived_readings(archive, doc) and read.derived_problem is None
    assert any(read_listed(archive, p, d).events for p, d in listed)  # the bakery's gone


def test_a_gap_in_the_revisions_or_a_broken_event_is_the_api_s_error(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_archive(root)
    archive = Archive(root)
    listed = archive.documents()
    edited = [(p, d) for p, d in listed if len(archive.revisions(d)) > 2]
    partition, doc = edited[0]
    sorted(archive.revisions_dir(doc).glob("*.json"))[1].unlink()  # revision 2
    with pytest.raises(ArchiveError, match="expected revision 2 here") as api:
        archive.revisions(doc, shallow=True)
    with pytest.raises(ArchiveError, match="expected revision 2 here") as ours:
        read_listed(archive, partition, doc)
    assert ours.value.path == api.value.path
    gone = next((p, d) for p, d in listed if archive.events(d))
    next(archive.events_dir(gone[1]).glob("*.json")).write_text('{"schema": 2}', "utf-8")
    with pytest.raises(ArchiveError, match="missing fields"):
        read_listed(archive, *gone)


def test_a_document_the_index_places_elsewhere_is_read_through_the_api(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_archive(root)
    archive = Archive(root)
    partition, doc = archive.documents()[0]
    moved = root / "documents" / "2020" / "01" / "01" / doc
    moved.parent.mkdir(parents=True)
    shutil.copytree(archive.document_dir(doc), moved)
    shutil.rmtree(moved / "revisions")  # a stray copy: the index names the real folder
    read = read_listed(archive, "2020/01/01", doc)
    assert read.revisions == archive.revisions(doc, shallow=True) and read.revisions
    assert partition != "2020/01/01"


def test_a_broken_derived_record_is_named_and_the_revisions_stand(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_archive(root)
    archive = Archive(root)
    partition, doc = archive.documents()[0]
    folder = archive.document_dir(doc) / "derived"
    folder.mkdir()
    (folder / revision_name(doc, 1)).write_text("{not json", "utf-8")
    read = read_listed(archive, partition, doc)
    assert read.revisions == archive.revisions(doc, shallow=True) and not read.derived
    assert isinstance(read.derived_problem, ArchiveError)
    with pytest.raises(ArchiveError) as api:
        derived_readings(archive, doc)
    assert str(read.derived_problem) == str(api.value)
