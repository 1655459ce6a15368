"""Building from a sparse checkout: the hourly job has only the partitions still observed.

The documents of the partitions that are not on disk keep the pages and the cache entries
the previous build made; the site is the same as a build of the whole archive.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive.layout import Layout
from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.publish.buildcache import STATE_FILE, BuildState
from quietedit.publish.paths import CACHE_DIR
from quietedit.revisions import Observation
from tests.conftest import git
from tests.publish.test_folding import NOVEMBER, data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build, files


def hide(root: Path, tmp_path: Path) -> Path:
    """Move September's partitions out of the archive, as a sparse checkout leaves them."""
    month = root / "documents" / "2026" / "09"
    away = tmp_path / "away"
    shutil.move(month, away)
    return away


def test_partitions_not_checked_out_keep_their_pages(data: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "site"
    build(data, out)
    gone = september(data)
    away = hide(data, tmp_path)
    archive = Archive(data)
    doc = archive.document_ids()[0]  # a November story gets an edit meanwhile
    last = archive.revisions(doc)[-1]
    archive.append_revision(
        doc,
        Observation(
            url=last.observation.url,
            observed_at=NOVEMBER + timedelta(days=3),
            article=Article(
                last.article.title, (*last.article.blocks, Block("Late.")), Publisher()
            ),
            extractor="tests/1",
        ),
    )
    report = build(data, out)
    assert report.removed == () and report.rendered == 1
    # September's three edited stories keep their pages (the fourth never had any)
    assert sum((out / "articles" / d / "index.html").is_file() for d in gone) == 3
    assert report.documents == 6  # every document, checked out or not
    shutil.move(away, data / "documents" / "2026" / "09")
    build(data, tmp_path / "fresh")
    assert {p: v[2] for p, v in files(out).items()} == {
        p: v[2] for p, v in files(tmp_path / "fresh").items()
    }


def test_without_the_site_folder_the_documents_not_checked_out_are_read_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Outside git nothing can bring a missing partition back: each of its documents with
    pages is a reported failure (in a sparse git clone the archive fetches the partition)."""
    out = tmp_path / "site"
    build(data, out)
    edited = sorted(d for d in september(data) if (out / "articles" / d).is_dir())
    away = hide(data, tmp_path)
    for item in out.iterdir():  # the cache folder alone, restored
        if item.name != ".quietedit-cache":
            shutil.rmtree(item) if item.is_dir() else item.unlink()
    report = build(data, out)
    assert sorted(f.split(":")[0] for f in report.failures) == edited
    shutil.move(away, data / "documents" / "2026" / "09")
    assert build(data, out).failures == ()
    assert sum((out / "articles" / d).is_dir() for d in september(data)) == 3


def test_folded_months_that_come_back_are_read_again(data: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "site"
    build(data, out, max_bytes=1)  # September folded
    away = hide(data, tmp_path)
    report = build(data, out)  # the default bound brings September back: read again
    assert len(report.failures) == 3  # outside git, they cannot be: reported
    home = (out / "index.html").read_text(encoding="utf-8")
    assert not any(doc in home for doc in september(data))  # and linked nowhere
    shutil.move(away, data / "documents" / "2026" / "09")
    assert build(data, out).failures == ()
    assert sum((out / "articles" / d).is_dir() for d in september(data)) == 3


def sparse_clone(root: Path, tmp_path: Path, out: Path, *, index: bool = True) -> tuple[str, str]:
    """Make the archive a sparse git checkout of some documents of a September partition,
    as the hourly clone is: one document with pages left out of it, another (with pages)
    deleted from a folder it holds; returns the two. ``index``: the index is checked out
    (the hourly clone leaves it out)."""
    archive = Archive(root)
    left_out, deleted = [d for d in september(root) if (out / "articles" / d).is_dir()][:2]
    home = archive.partition(left_out) or ""
    # its partition's checks file: on disk in the clone, as cone mode brings it along
    archive.checks.put(home, left_out, {"schedule": {"failures": 0}}, writer="")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "data")
    git(tmp_path, "commit", "-qm", "archive")
    cone = ["data/documents/2026/11", f"data/documents/{home}/another-story"]
    cone += ["data/index"] if index else []
    cone += [f"data/documents/{archive.partition(d)}/{d[-16:-14]}/{d}" for d in september(root)]
    cone.remove(f"data/documents/{home}/{left_out[-16:-14]}/{left_out}")
    git(tmp_path, "sparse-checkout", "set", "--cone", *cone)
    assert (root / "documents" / home / "checks.json").is_file()
    assert not (root / "documents" / home / left_out[-16:-14] / left_out).exists()
    shutil.rmtree(archive.document_dir(deleted))
    return left_out, deleted


def test_in_a_sparse_git_checkout_a_document_left_out_keeps_its_pages_a_deleted_one_not(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The hourly clone holds some documents of a partition: the others keep their pages;
    a document missing from a folder the checkout holds was deleted, and its pages go."""
    out = tmp_path / "site"
    build(data, out)
    left_out, deleted = sparse_clone(data, tmp_path, out)

    report = build(data, out)

    assert (out / "articles" / left_out / "index.html").is_file()
    assert not (out / "articles" / deleted).exists()
    assert any(path.startswith(f"articles/{deleted}/") for path in report.removed)
    assert report.failures == ()


def test_a_build_in_a_checkout_without_the_index_fetches_no_shard(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hourly clone leaves the index out: the documents on disk are found through
    their folders, and those left out keep their pages without a shard fetched for each."""
    out = tmp_path / "site"
    build(data, out)
    left_out, deleted = sparse_clone(data, tmp_path, out, index=False)
    assert not (data / "index").exists()
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))

    report = build(data, out)

    assert (out / "articles" / left_out / "index.html").is_file()
    assert not (out / "articles" / deleted).exists()
    assert report.failures == ()
    started = trace.read_text(encoding="utf-8") if trace.exists() else ""
    assert '"sparse-checkout","add"' not in started.replace(" ", "")
    assert not (data / "index").exists()


def cached_rows(out: Path) -> dict[str, tuple[object, ...]]:
    """Each document's row in the build cache, as stored."""
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        return {row[0]: row for row in db.execute("SELECT * FROM documents")}


def test_an_hourly_build_keeps_the_row_of_a_document_left_out_and_drops_a_deleted_one(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An hourly build (same code, site and sources) reads the cache's rows of the
    partitions on disk only: one of those partitions' documents the checkout leaves out is
    not taken for deleted; its row and pages stay as they were, twice over."""
    out = tmp_path / "site"
    build(data, out)
    left_out, deleted = sparse_clone(data, tmp_path, out)
    before = cached_rows(out)
    page = (out / "articles" / left_out / "index.html").read_bytes()

    def read_whole(self: BuildState) -> None:
        raise AssertionError("an hourly build read the whole cache")

    monkeypatch.setattr(BuildState, "documents", property(read_whole))
    for _ in range(2):
        report = build(data, out)
        assert report.failures == ()
        assert report.documents == len(before) - 1
        assert not any(path.startswith(f"articles/{left_out}/") for path in report.written)
        after = cached_rows(out)
        assert after[left_out] == before[left_out]
        assert deleted not in after
        assert (out / "articles" / left_out / "index.html").read_bytes() == page
        assert not (out / "articles" / deleted).exists()
    home = (out / "index.html").read_text(encoding="utf-8")
    assert deleted not in home


def test_a_document_deleted_with_its_index_entry_loses_its_pages_outside_the_checkout_too(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A document removed from the archive (its folder and its index entry) that the
    checkout leaves out is deleted, not left out: the index, which every checkout holds,
    no longer names it."""
    out = tmp_path / "site"
    build(data, out)
    left_out, _ = sparse_clone(data, tmp_path, out)
    shard = Layout(data).index_file(left_out[-16:-13])
    record = json.loads(shard.read_text(encoding="utf-8"))
    del record["documents"][left_out]
    shard.write_text(json.dumps(record), encoding="utf-8")

    report = build(data, out)

    assert not (out / "articles" / left_out).exists()
    assert left_out not in (out / "index.html").read_text(encoding="utf-8")
    assert report.failures == ()


def test_a_damaged_cache_in_a_sparse_checkout_checks_out_everything_and_builds_it_all(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Nothing recorded of the documents the checkout leaves out: the build checks the
    whole archive out rather than publish a site without them."""
    out = tmp_path / "site"
    whole = build(data, out).documents
    left_out, _ = sparse_clone(data, tmp_path, out)
    (out / CACHE_DIR / STATE_FILE).write_bytes(b"garbage")

    report = build(data, out)

    assert Archive(data).document_dir(left_out).is_dir()
    assert report.documents == whole - 1  # all but the one deleted from the checkout
    assert (out / "articles" / left_out / "index.html").is_file()
    assert report.failures == ()
