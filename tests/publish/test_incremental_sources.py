"""Sources not in feeds.yaml: which source a document belongs to, and the order of sources,
must not depend on which documents a build happened to render (an incremental build
renders few, a fresh one all, forked workers in any order)."""

from __future__ import annotations

from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Publisher
from tests.publish.conftest import STORIES, Story, write_archive
from tests.publish.test_incremental import build, files
from tests.publish.test_incremental_sitewide import revise

PUBLISHER = Publisher()


def story(url: str, feeds: tuple[str, ...], title: str) -> Story:
    return Story(url, feeds, ((title, ("One.",), PUBLISHER), (title, ("Two.",), PUBLISHER)))


def same_as_fresh(data: Path, out: Path, fresh: Path) -> None:
    build(data, out)
    build(data, fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_a_document_in_two_unlisted_feeds_keeps_its_source_in_an_incremental_build(
    tmp_path: Path,
) -> None:
    only_qq = story("https://b.example.org/harbour", ("qq",), "Harbour")
    both = story("https://a.example.org/ferry", ("zz", "qq"), "Ferry")
    data = tmp_path / "data"
    write_archive(data, (*STORIES[:3], only_qq, both))
    build(data, tmp_path / "site")
    revise(Archive(data), document_id(both.url), "Three.", hours=20)
    same_as_fresh(data, tmp_path / "site", tmp_path / "fresh")


def test_sources_with_one_name_keep_their_order_in_an_incremental_build(tmp_path: Path) -> None:
    first = story("https://x.example.org/x", ("aa",), "Ex")
    second = story("https://y.example.org/y", ("zz",), "Why")
    data = tmp_path / "data"
    write_archive(data, (*STORIES[:3], first, second))
    archive = Archive(data)
    archive.write_feed("aa", {"name": "Wire"})
    archive.write_feed("zz", {"name": "Wire"})
    build(data, tmp_path / "site")
    revise(archive, document_id(second.url), "Three.", hours=20)
    same_as_fresh(data, tmp_path / "site", tmp_path / "fresh")
    home = (tmp_path / "site" / "index.html").read_text()
    assert home.index("sources/aa/") < home.index("sources/zz/")
