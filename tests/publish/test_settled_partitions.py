"""An hourly build from a git checkout leaves unread the partitions it built before and
that no commit or working-tree change has touched since (``committed.settled``): their
documents are neither listed, stamped nor looked up in the cache; in a partition that
moved, so are the documents of the buckets whose tree id did not (a partition moves for
its checks file alone, as every hourly run's checks move about forty). The site must still
be what a full build makes, byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from quietedit.archive import stamps
from quietedit.archive.layout import bucket_of
from quietedit.archive.store import Archive
from quietedit.model import JSON
from quietedit.publish.committed import TREES_FILE
from quietedit.publish.paths import CACHE_DIR
from tests.conftest import git
from tests.publish.test_committed import clone, edit, neighbours, origin_of
from tests.publish.test_folding import data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build, files


def site(out: Path) -> dict[str, bytes]:
    """Every site file's bytes (the build cache left out)."""
    return {path: value[2] for path, value in files(out).items()}


def full_site(archive: Path, out: Path) -> dict[str, bytes]:
    """The site a full build of ``archive`` makes in a folder of its own."""
    report = build(archive, out, full=True)
    assert report.failures == ()
    return site(out)


def listed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The partitions whose documents the build lists and stamps (filled as it does)."""
    asked: list[str] = []
    original = stamps.document_stamps

    def spy(
        documents_dir: Path, partitions: list[str], trees: object = None, **options: Any
    ) -> dict[str, str]:
        asked.extend(partitions)
        return original(documents_dir, partitions, trees, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(stamps, "document_stamps", spy)
    return asked


def stamped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The documents the build stamps (filled as it does)."""
    found: list[str] = []
    original = stamps.document_stamps

    def spy(*args: Any, **options: Any) -> dict[str, str]:
        result = original(*args, **options)
        found.extend(result)
        return result

    monkeypatch.setattr(stamps, "document_stamps", spy)
    return found


def commit(origin: Path, message: str) -> None:
    git(origin, "add", "-A", "data")
    git(origin, "commit", "-qm", message)


def test_a_commit_touching_one_partition_reads_only_that_one_and_builds_the_full_site(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out).failures == ()
    changed = september(data)[0]
    partition = Archive(data).partition(changed)
    edit(Archive(data), changed)
    git(origin, "add", "data")
    git(origin, "commit", "-qm", "an edit")
    checkout = clone(origin, tmp_path / "second")
    asked = listed(monkeypatch)

    report = build(checkout, out)

    assert report.failures == ()
    assert asked == [partition]  # every other partition is as the last build read it
    assert f"articles/{changed}/index.html" in report.written
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_a_partition_built_from_files_not_committed_is_read_again_once_they_are_gone(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Built from a working-tree change, a partition is not recorded under its tree id:
    once the change is discarded (the tree id never moved), it is read again and the
    pages lose the edit that was never committed."""
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    out = tmp_path / "site"
    build(checkout, out)
    doc = september(checkout)[0]
    edit(Archive(checkout), doc)
    build(checkout, out)
    page = out / "articles" / doc / "index.html"
    assert "A correction was appended" in page.read_text(encoding="utf-8")
    git(checkout.parent, "checkout", "--", "data")
    git(checkout.parent, "clean", "-fdq", "data")

    report = build(checkout, out)

    assert report.failures == ()
    assert "A correction was appended" not in page.read_text(encoding="utf-8")
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_pages_missing_from_a_partition_left_unread_are_made_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    out = tmp_path / "site"
    build(clone(origin, tmp_path / "first"), out)
    lost = next(d for d in september(data) if (out / "articles" / d).is_dir())
    shutil.rmtree(out / "articles" / lost)
    checkout = clone(origin, tmp_path / "second")
    asked = listed(monkeypatch)

    report = build(checkout, out)

    assert asked == []  # nothing moved: no partition listed
    assert f"articles/{lost}/index.html" in report.written
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_without_a_record_of_the_tree_ids_every_partition_is_read(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record lost (or removed while a build writes the cache, and never written again
    because it stopped) settles nothing."""
    origin = origin_of(data)
    out = tmp_path / "site"
    build(clone(origin, tmp_path / "first"), out)
    (out / CACHE_DIR / TREES_FILE).unlink()
    checkout = clone(origin, tmp_path / "second")
    asked = listed(monkeypatch)

    report = build(checkout, out)

    assert report.written == ()
    assert sorted(asked) == sorted(Archive(checkout).partitions())


def test_a_partition_moved_by_its_checks_file_alone_stamps_no_document(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A check that found nothing new rewrites its partition's checks file: the partition's
    tree id moves, none of its buckets' does, and no document is read again."""
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out).failures == ()
    archive = Archive(data)
    checked, _ = neighbours(data)
    record = archive.read_document(checked)
    assert record is not None
    schedule: dict[str, JSON] = {
        "last_checked_at": "2026-11-30T12:00:00Z",
        "changes": 0,
        "failures": 0,
    }
    archive.write_document(checked, {**record, "schedule": schedule}, at_once=True)
    changes = git(origin, "status", "--porcelain", "-uall", "--", "data").splitlines()
    folder = f"data/documents/{archive.partition(checked)}/checks"
    assert changes and all(line[3:].startswith(folder) for line in changes)  # those alone
    commit(origin, "a check")
    checkout = clone(origin, tmp_path / "second")
    asked, found = listed(monkeypatch), stamped(monkeypatch)

    report = build(checkout, out)

    assert report.failures == ()
    assert asked == [archive.partition(checked)]  # the partition moved
    assert found == []  # but no bucket of it did
    assert report.written == ()
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_an_edit_stamps_only_the_documents_of_its_bucket(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out).failures == ()
    changed, neighbour = neighbours(data)
    edit(Archive(data), changed)
    commit(origin, "an edit")
    checkout = clone(origin, tmp_path / "second")
    found = stamped(monkeypatch)

    report = build(checkout, out)

    assert report.failures == ()
    assert changed in found and neighbour not in found
    assert all(bucket_of(doc) == bucket_of(changed) for doc in found)
    assert f"articles/{changed}/index.html" in report.written
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_a_document_deleted_beside_kept_buckets_loses_its_pages(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Its bucket's tree id moves (or the bucket goes, with its only document): its row
    is read and found gone, while its neighbours' buckets stay unread."""
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out).failures == ()
    deleted, neighbour = neighbours(data)
    assert (out / "articles" / deleted).is_dir() or (out / "articles" / neighbour).is_dir()
    git(origin, "rm", "-rq", str(Archive(data).document_dir(deleted)))
    commit(origin, "a document removed")
    checkout = clone(origin, tmp_path / "second")

    report = build(checkout, out)

    assert report.failures == ()
    assert not (out / "articles" / deleted).exists()
    assert site(out) == full_site(checkout, tmp_path / "full")
