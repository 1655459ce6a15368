"""The record of pages (``pagesrecord``) after the site is carried to the next run as the
hourly workflow carries it: saved by ``actions/cache`` (GNU tar, POSIX format) and
extracted into a fresh folder on another runner. The restored site is trusted, and the
hourly build makes the site a full build makes, byte for byte; a folder removed or added
after the build, or a cache of another build over the site, is seen: the build lists the
article folders and makes again what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from quietedit.publish import pagesrecord
from quietedit.publish.paths import CACHE_DIR
from tests.publish.test_committed import clone, origin_of
from tests.publish.test_folding import data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build
from tests.publish.test_pages_record import (
    commit_edit,
    listings,
    newest_documents,
    searched_site,
)
from tests.publish.test_settled_partitions import full_site, site

TAR = shutil.which("tar")
pytestmark = pytest.mark.skipif(TAR is None, reason="needs GNU tar, as actions/cache uses")


def save(site_folder: Path, archive: Path) -> None:
    """Save ``site_folder`` as ``actions/cache`` does on Linux (``createTar`` of
    actions/toolkit's ``packages/cache``): the paths in a manifest, relative to the
    folder holding them, in GNU tar's POSIX (pax) format. The action pipes the archive
    through zstd, which compresses its bytes and changes nothing tar recorded: left out."""
    assert TAR is not None
    archive.parent.mkdir(parents=True, exist_ok=True)
    manifest = archive.parent / "manifest.txt"
    manifest.write_text(site_folder.name, encoding="utf-8")
    command = [TAR, "--posix", "-cf", archive.name, "--exclude", archive.name, "-P"]
    command += ["-C", str(site_folder.parent), "--files-from", manifest.name]
    subprocess.run(command, cwd=archive.parent, check=True, capture_output=True)


def restore(archive: Path, workspace: Path, *members: str) -> None:
    """Extract ``archive`` into ``workspace`` as the action does (``extractTar``); only
    ``members`` when given."""
    assert TAR is not None
    workspace.mkdir(parents=True, exist_ok=True)
    command = [TAR, "-xf", str(archive), "-P", "-C", str(workspace), *members]
    subprocess.run(command, check=True, capture_output=True)


def test_a_site_restored_from_the_actions_cache_is_trusted_and_built_as_a_full_build(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    built = tmp_path / "runner-1" / "_site"
    assert build(clone(origin, tmp_path / "first"), built, search=True).failures == ()
    save(built, tmp_path / "cache" / "cache.tar")
    commit_edit(origin, newest_documents(data)[0])
    checkout = clone(origin, tmp_path / "second")
    restore(tmp_path / "cache" / "cache.tar", tmp_path / "runner-2")
    out = tmp_path / "runner-2" / "_site"
    # another folder, as on another runner: only what tar keeps is the same
    assert os.stat(out / "articles").st_ino != os.stat(built / "articles").st_ino
    shutil.rmtree(built)
    asked = listings(monkeypatch)

    report = build(checkout, out, search=True)

    assert report.failures == ()
    assert asked == []  # trusted: the article folders are not listed
    assert site(out) == searched_site(checkout, tmp_path / "full")


def test_an_article_folder_removed_from_a_restored_site_is_made_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    built = tmp_path / "runner-1" / "_site"
    build(clone(origin, tmp_path / "first"), built)
    save(built, tmp_path / "cache" / "cache.tar")
    restore(tmp_path / "cache" / "cache.tar", tmp_path / "runner-2")
    out = tmp_path / "runner-2" / "_site"
    lost = next(d for d in september(data) if (out / "articles" / d).is_dir())
    shutil.rmtree(out / "articles" / lost)
    checkout = clone(origin, tmp_path / "second")
    asked = listings(monkeypatch)

    report = build(checkout, out)

    assert asked == [out]
    assert f"articles/{lost}/index.html" in report.written
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_an_article_folder_added_to_a_restored_site_takes_the_full_check(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder added (here by hand) changes the folder's time: the build lists the
    folders; the folder added is no page of the build's and is left as it was."""
    origin = origin_of(data)
    built = tmp_path / "runner-1" / "_site"
    build(clone(origin, tmp_path / "first"), built)
    save(built, tmp_path / "cache" / "cache.tar")
    restore(tmp_path / "cache" / "cache.tar", tmp_path / "runner-2")
    out = tmp_path / "runner-2" / "_site"
    (out / "articles" / "added-by-hand").mkdir()
    checkout = clone(origin, tmp_path / "second")
    asked = listings(monkeypatch)

    report = build(checkout, out)

    assert report.failures == ()
    assert asked == [out]
    assert (out / "articles" / "added-by-hand").is_dir()
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_the_cache_of_a_later_build_over_an_earlier_site_is_not_trusted(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The site of one build with the cache (and its record) of the next: the record is
    of that cache's generation, but the article folders are not the ones it recorded (the
    next build gave a document its pages). The build lists them and makes that
    document's pages, which the cache says are there. (The site-wide pages are the
    cache's to vouch for, with or without the record: only the articles are compared.)"""
    origin = origin_of(data)
    built = tmp_path / "runner-1" / "_site"
    build(clone(origin, tmp_path / "first"), built)
    save(built, tmp_path / "cache-1" / "cache.tar")
    once = next(d for d in september(data) if not (built / "articles" / d).exists())
    commit_edit(origin, once)  # never edited until now: its first pages
    checkout = clone(origin, tmp_path / "second")
    assert build(checkout, built).failures == ()
    assert (built / "articles" / once).is_dir()
    save(built, tmp_path / "cache-2" / "cache.tar")
    workspace = tmp_path / "runner-2"
    restore(tmp_path / "cache-1" / "cache.tar", workspace)
    out = workspace / "_site"
    shutil.rmtree(out / CACHE_DIR)
    restore(tmp_path / "cache-2" / "cache.tar", workspace, f"_site/{CACHE_DIR}")
    asked = listings(monkeypatch)

    report = build(checkout, out)

    assert report.failures == ()
    assert asked == [out]
    assert f"articles/{once}/index.html" in report.written
    full = full_site(checkout, tmp_path / "full")
    assert articles(site(out)) == articles(full)
    assert f"articles/{once}/index.html" in full


def articles(files: dict[str, bytes]) -> dict[str, bytes]:
    return {path: bytes_ for path, bytes_ in files.items() if path.startswith("articles/")}


def test_the_signature_survives_a_restore_and_sees_a_folder_renamed(tmp_path: Path) -> None:
    """A rename keeps the count of links: the folder's time tells it. (The folder's time is
    set back a minute first, as a build's record is older than any later change.)"""
    built = tmp_path / "runner-1" / "_site"
    for doc in ("a", "b"):
        (built / "articles" / doc).mkdir(parents=True)
    earlier = os.stat(built / "articles").st_mtime_ns - 60 * 10**9
    os.utime(built / "articles", ns=(earlier, earlier))
    pagesrecord.write(built / CACHE_DIR, built, generation="3", search_before="")
    save(built, tmp_path / "cache" / "cache.tar")
    restore(tmp_path / "cache" / "cache.tar", tmp_path / "runner-2")
    out = tmp_path / "runner-2" / "_site"

    record = pagesrecord.read(out / CACHE_DIR, "3")
    assert pagesrecord.complete(record, out)
    os.rename(out / "articles" / "b", out / "articles" / "c")
    assert os.stat(out / "articles").st_nlink == os.stat(built / "articles").st_nlink
    assert not pagesrecord.complete(record, out)
