"""An hourly build trusts the record the previous build left of its pages
(``pagesrecord``): with no article folder added or removed since, it neither lists the
article folders nor asks the cache for the documents kept unread, and the search index
keeps its runs of older articles unread (``search.Runs``). The site must still be what a
full build makes, byte for byte, after a folder is deleted and after a build that stopped
half way."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.publish import pagesrecord, scan, search
from quietedit.publish.catalog import Catalog
from quietedit.publish.paths import CACHE_DIR
from tests.conftest import git
from tests.publish.test_committed import clone, edit, origin_of
from tests.publish.test_folding import data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build
from tests.publish.test_settled_partitions import full_site, site


def searched_site(archive: Path, out: Path) -> dict[str, bytes]:
    """The site, search index included, a full build of ``archive`` makes."""
    assert build(archive, out, full=True, search=True).failures == ()
    return site(out)


def newest_documents(data: Path) -> list[str]:  # noqa: F811 - the fixture's folder
    archive = Archive(data)
    newest = archive.partitions()[-1]
    return [d for d in archive.document_ids() if archive.partition(d) == newest]


def commit_edit(origin: Path, doc: str) -> None:
    edit(Archive(origin / "data"), doc)
    git(origin, "add", "data")
    git(origin, "commit", "-qm", "an edit")


def listings(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The sites whose article folders a build lists (filled as it does)."""
    asked: list[Path] = []
    original = scan.article_folders

    def spy(out: Path) -> set[str]:
        asked.append(out)
        return original(out)

    monkeypatch.setattr(scan, "article_folders", spy)
    return asked


def test_an_hourly_build_lists_no_article_folder_and_keeps_the_search_runs(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out, search=True).failures == ()
    commit_edit(origin, newest_documents(data)[0])
    checkout = clone(origin, tmp_path / "second")
    asked = listings(monkeypatch)
    plans: list[search.Runs | None] = []
    original = search.plan_shards

    def spy(
        documents: dict[str, tuple[str, str]], *, runs: search.Runs | None = None
    ) -> list[search.Shard]:
        plans.append(runs)
        return original(documents, runs=runs)

    monkeypatch.setattr(search, "plan_shards", spy)

    report = build(checkout, out, search=True)

    assert report.failures == ()
    assert asked == []  # the previous build's folders are all there: not listed
    (runs,) = plans
    assert runs is not None  # September's articles: a run kept as the last build cut it
    assert {d for s in runs.shards for d in s.documents} == {
        d for d in september(checkout) if (out / "articles" / d).is_dir()
    }
    assert site(out) == searched_site(checkout, tmp_path / "full")


def test_an_article_folder_deleted_is_seen_and_made_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Removing a folder changes the ``articles/`` folder's signature: the next build
    lists the folders and checks every document with pages, as without a record."""
    origin = origin_of(data)
    out = tmp_path / "site"
    build(clone(origin, tmp_path / "first"), out)
    lost = next(d for d in september(data) if (out / "articles" / d).is_dir())
    shutil.rmtree(out / "articles" / lost)
    checkout = clone(origin, tmp_path / "second")
    asked = listings(monkeypatch)

    report = build(checkout, out)

    assert asked == [out]
    assert f"articles/{lost}/index.html" in report.written
    assert site(out) == full_site(checkout, tmp_path / "full")


def test_a_build_stopped_before_its_cache_is_written_is_repaired_by_the_next(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pages rewritten, the cache not: the record left is the previous build's, of the
    cache still there, and the next build makes the site a full build makes."""
    origin = origin_of(data)
    out = tmp_path / "site"
    build(clone(origin, tmp_path / "first"), out, search=True)
    commit_edit(origin, newest_documents(data)[0])
    # never edited: no pages until now
    once = next(d for d in september(data) if not (out / "articles" / d).exists())
    commit_edit(origin, once)
    checkout = clone(origin, tmp_path / "second")

    def stop(self: Catalog, **kwargs: object) -> int:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(Catalog, "finish", stop)
        with pytest.raises(KeyboardInterrupt):
            build(checkout, out, search=True)
    assert (out / "articles" / once / "index.html").is_file()  # written, not recorded

    report = build(checkout, out, search=True)

    assert report.failures == ()
    assert site(out) == searched_site(checkout, tmp_path / "full")


def test_a_record_of_another_cache_or_a_moved_folder_is_not_trusted(tmp_path: Path) -> None:
    out = tmp_path / "site"
    cache = out / CACHE_DIR
    (out / "articles" / "a").mkdir(parents=True)
    pagesrecord.write(cache, out, generation="7", search_before="2026/09/07")

    record = pagesrecord.read(cache, "7")
    assert record is not None and record.search_before == "2026/09/07"
    assert pagesrecord.complete(record, out)
    assert pagesrecord.read(cache, "8") is None  # another build's cache
    assert pagesrecord.read(cache, "") is None
    (out / "articles" / "a").rmdir()
    assert not pagesrecord.complete(record, out)
    pagesrecord.forget(cache)
    assert pagesrecord.read(cache, "7") is None
    (cache / pagesrecord.RECORD_FILE).write_text("[1]", encoding="utf-8")
    assert pagesrecord.read(cache, "7") is None


def test_an_edit_to_an_older_article_plans_the_search_runs_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An article of the runs rendered again (here one that gains its pages) may move
    them: every document with pages is asked for, and the runs are cut again."""
    origin = origin_of(data)
    out = tmp_path / "site"
    build(clone(origin, tmp_path / "first"), out, search=True)
    once = next(d for d in september(data) if not (out / "articles" / d).exists())
    commit_edit(origin, once)
    checkout = clone(origin, tmp_path / "second")
    plans: list[search.Runs | None] = []
    original = search.plan_shards

    def spy(
        documents: dict[str, tuple[str, str]], *, runs: search.Runs | None = None
    ) -> list[search.Shard]:
        plans.append(runs)
        return original(documents, runs=runs)

    monkeypatch.setattr(search, "plan_shards", spy)

    report = build(checkout, out, search=True)

    assert report.failures == ()
    assert plans == [None]
    assert once in (out / search.SHARDS_FILE).read_text(encoding="utf-8")
    assert site(out) == searched_site(checkout, tmp_path / "full")
