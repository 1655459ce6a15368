"""Building from a sparse checkout: the hourly job has only the partitions still observed.

The documents of the partitions that are not on disk keep the pages and the cache entries
the previous build made; the site is the same as a build of the whole archive.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.errors import PublishError
from quietedit.model import Article, Block, Publisher
from quietedit.revisions import Observation
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


def test_a_sparse_archive_without_the_site_folder_is_refused(data: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "site"
    build(data, out)
    hide(data, tmp_path)
    for item in out.iterdir():  # the cache folder alone, restored
        if item.name != ".quietedit-cache":
            shutil.rmtree(item) if item.is_dir() else item.unlink()
    with pytest.raises(PublishError, match="git sparse-checkout add data"):
        build(data, out)


def test_folded_months_that_come_back_must_be_checked_out(data: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "site"
    build(data, out, max_bytes=1)  # September folded
    away = hide(data, tmp_path)
    with pytest.raises(PublishError, match=r"2026/09/10.*git sparse-checkout add data"):
        build(data, out)  # the default bound brings September back, but it is not here
    shutil.move(away, data / "documents" / "2026" / "09")
    assert build(data, out).failures == ()
    assert sum((out / "articles" / d).is_dir() for d in september(data)) == 3
