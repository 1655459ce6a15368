"""Sources not in feeds.yaml: which source a document belongs to, and the order of sources,
must not depend on which documents a build happened to render (an incremental build
renders few, a fresh one all, forked workers in any order)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Article, Block, Observation, Publisher
from tests.publish.conftest import STORIES, T0, Story, write_archive
from tests.publish.test_incremental import build, files

PUBLISHER = Publisher()


def story(url: str, feeds: tuple[str, ...], title: str) -> Story:
    return Story(url, feeds, ((title, ("One.",), PUBLISHER), (title, ("Two.",), PUBLISHER)))


def add_revision(archive: Archive, url: str, title: str) -> None:
    doc = document_id(url)
    archive.append_revision(
        doc,
        Observation(
            url=url,
            observed_at=T0 + timedelta(hours=20),
            article=Article(title, (Block("Three."),), PUBLISHER),
            extractor="tests/1",
            evidence=archive.put_evidence(doc, b"<html>three</html>"),
        ),
    )


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
    add_revision(Archive(data), both.url, "Ferry")
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
    add_revision(archive, second.url, "Why")
    same_as_fresh(data, tmp_path / "site", tmp_path / "fresh")
    home = (tmp_path / "site" / "index.html").read_text()
    assert home.index("sources/aa/") < home.index("sources/zz/")
