"""A build with nothing recorded into a site folder that holds an older site: the folder
ends as a build into an empty one makes it, and nothing else of it is touched."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.errors import PublishError
from quietedit.publish.paths import CACHE_DIR
from tests.publish.conftest import write_archive
from tests.publish.test_folding import data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build


def site_files(out: Path) -> set[str]:
    """The site's files (the build cache left out)."""
    return {
        path.relative_to(out).as_posix()
        for path in out.rglob("*")
        if path.is_file() and CACHE_DIR not in path.parts
    }


def delete(root: Path, doc: str) -> None:
    """Remove ``doc`` from the archive: its folder and its index entry."""
    archive = Archive(root)
    shutil.rmtree(archive.document_dir(doc))
    shard = archive.layout.index_file(doc[-16:-13])
    record = json.loads(shard.read_text(encoding="utf-8"))
    del record["documents"][doc]
    shard.write_text(json.dumps(record), encoding="utf-8")


def test_a_build_without_a_cache_removes_the_pages_of_a_deleted_document(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The cache is lost (or damaged) and a document was deleted since the site was
    built: its pages and API file go, as do the other files no build makes now; a file
    placed beside the site (``CNAME``) and dot-files stay, and so does a file outside."""
    out = tmp_path / "site"
    build(data, out)
    doc = september(data)[0]
    assert (out / "articles" / doc / "index.html").is_file()
    delete(data, doc)
    shutil.rmtree(out / CACHE_DIR)
    (out / "CNAME").write_text("watch.example.org\n", encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")
    (out / "articles" / "old-page.html").write_text("left by an older build", encoding="utf-8")
    beside = tmp_path / "beside.html"
    beside.write_text("not the site's", encoding="utf-8")

    report = build(data, out)
    fresh = tmp_path / "fresh"
    build(data, fresh)

    assert report.failures == ()
    assert not (out / "articles" / doc).exists()
    assert f"articles/{doc}/index.html" in report.removed
    assert site_files(out) - {"CNAME", ".nojekyll"} == site_files(fresh)
    assert (out / "CNAME").is_file()
    assert (out / ".nojekyll").is_file()
    assert beside.is_file()


@pytest.mark.parametrize("search", [False, True])
def test_a_full_build_keeps_every_file_it_makes(
    data: Path,  # noqa: F811
    tmp_path: Path,
    search: bool,
) -> None:
    """``--full`` into a built site, cache or not: nothing the build makes (the search
    index included) is removed."""
    out = tmp_path / "site"
    build(data, out, search=search)
    before = site_files(out)
    assert build(data, out, full=True, search=search).removed == ()
    shutil.rmtree(out / CACHE_DIR)
    assert build(data, out, search=search).removed == ()
    assert site_files(out) == before


@pytest.mark.parametrize("inside", ["", "site"])
def test_a_site_folder_that_is_the_archive_or_inside_it_is_refused(
    tmp_path: Path, inside: str
) -> None:
    """``--out`` naming the archive folder (or a folder in it): the build refuses before
    writing or removing anything, rather than removing the archive's feed records as
    files of an older site (the site writes a ``feeds/`` folder too)."""
    archive = tmp_path / "data"
    write_archive(archive)
    before = {p: p.read_bytes() for p in archive.rglob("*") if p.is_file()}
    assert any(p.parent.name == "feeds" for p in before)  # the archive's feed records
    with pytest.raises(PublishError, match="archive"):
        build(archive, archive / inside)
    assert {p: p.read_bytes() for p in archive.rglob("*") if p.is_file()} == before
