"""An hourly build's API day files: a day whose documents changed gets the previous
build's file with their entries put in, not every row of the day read again from the
build cache; a file that is not the one the cache recorded is made from every row."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.publish.catalog import Catalog
from quietedit.publish.listing import DocumentSummary
from tests.publish.test_folding import story
from tests.publish.test_incremental import build, files
from tests.publish.test_share_once import revise

DAY = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
DAY_FILE = "api/days/2026-11-01.json"


@pytest.fixture
def site(tmp_path: Path) -> tuple[Archive, list[str], Path]:
    archive = Archive(tmp_path / "data")
    docs = [
        story(archive, f"https://news.example.org/world/2026/11/s{n}", DAY, edits=n % 2)
        for n in range(4)
    ]
    story(archive, "https://news.example.org/world/2026/11/next", DAY + timedelta(days=1), edits=1)
    out = tmp_path / "site"
    assert build(archive.root, out).failures == ()
    return archive, docs, out


def days_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The partitions whose every row the build reads for its API day files."""
    read: list[str] = []
    original = Catalog.day_documents

    def day_documents(self: Catalog, partition: str) -> list[DocumentSummary]:
        read.append(partition)
        return original(self, partition)

    monkeypatch.setattr(Catalog, "day_documents", day_documents)
    return read


def same_as_full(archive: Archive, out: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    build(archive.root, fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_a_changed_day_file_is_patched_not_read_whole(
    site: tuple[Archive, list[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, docs, out = site
    unedited = docs[0]  # no edit yet: listed among the day's unpublished ids
    assert unedited in json.loads((out / DAY_FILE).read_text())["unpublished"]
    revise(archive, unedited, DAY + timedelta(days=1, hours=2))
    revise(archive, docs[1], DAY + timedelta(days=1, hours=3))
    read = days_read(monkeypatch)

    report = build(archive.root, out)

    assert report.failures == ()
    assert DAY_FILE in report.written
    assert read == []  # the old code read the day's every row
    day = json.loads((out / DAY_FILE).read_text())
    assert unedited in [e["id"] for e in day["documents"]]
    assert unedited not in day["unpublished"]
    same_as_full(archive, out, tmp_path)


def test_a_day_file_changed_since_the_build_is_made_from_every_row(
    site: tuple[Archive, list[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, docs, out = site
    (out / DAY_FILE).write_text('{"documents": [], "unpublished": []}\n')
    revise(archive, docs[1], DAY + timedelta(days=1, hours=3))
    read = days_read(monkeypatch)

    assert build(archive.root, out).failures == ()

    assert read == ["2026/11/01"]
    same_as_full(archive, out, tmp_path)


def test_a_gone_document_leaves_its_day_file(
    site: tuple[Archive, list[str], Path], tmp_path: Path
) -> None:
    archive, docs, out = site
    gone = docs[1]
    shutil.rmtree(archive.document_dir(gone))
    revise(archive, docs[2], DAY + timedelta(days=1, hours=3))

    assert build(archive.root, out).failures == ()

    day = json.loads((out / DAY_FILE).read_text())
    assert gone not in [e["id"] for e in day["documents"]] + day["unpublished"]
    same_as_full(archive, out, tmp_path)
