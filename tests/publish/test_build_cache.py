"""Determinism, incremental builds, stale files, failures in a batch, output containment."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.errors import DuplicateOutputError, UnsafeOutputPathError
from quietedit.model import Article, Block
from quietedit.publish import BuildOptions, batches, build_site
from quietedit.publish.paths import CACHE_DIR, SiteWriter, check_output_path
from quietedit.revisions import Observation
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, T0, write_archive


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and CACHE_DIR not in p.parts
    }


def options(data: Path, out: Path, **kwargs: object) -> BuildOptions:
    return BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_archive(root)
    return root


def test_same_archive_gives_byte_identical_sites(data: Path, tmp_path: Path) -> None:
    build_site(options(data, tmp_path / "a", search=False))
    build_site(options(data, tmp_path / "b", search=False))
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_rebuild_without_changes_writes_nothing(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build_site(options(data, out, search=False))
    second = build_site(options(data, out, search=False))
    assert first.rendered == 4 and second.rendered == 0
    assert second.written == () and second.removed == ()
    assert second.files == first.files


def test_one_new_revision_rerenders_only_the_affected_pages(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(options(data, out, search=False))
    archive = Archive(data)
    bridge = next(
        d
        for d in archive.document_ids()
        if d.startswith("news-example-org") and len(archive.revisions(d)) == 3
    )
    last = archive.revisions(bridge)[-1]
    blocks = (*last.article.blocks, Block("The mayor welcomed the decision."))
    archive.append_revision(
        bridge,
        Observation(
            url=STORIES[0].url,
            observed_at=T0 + timedelta(hours=12),
            article=Article(last.article.title, blocks, last.article.publisher),
            extractor="tests/1",
        ),
    )
    report = build_site(options(data, out, search=False))
    assert report.rendered == 1 and report.edits == 5
    written = set(report.written)
    assert f"articles/{bridge}/diff/4/index.html" in written
    assert f"articles/{bridge}/index.html" in written
    assert {"index.html", "feed.xml", "sources/courier-world/index.html"} <= written
    others = {p for p in written if p.startswith("articles/") and bridge not in p}
    assert others == set()
    # the older diffs of the same article came out the same, so they were not rewritten
    assert f"articles/{bridge}/diff/2/index.html" not in written


def test_full_build_renders_everything_but_rewrites_no_identical_file(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build_site(options(data, out, search=False))
    report = build_site(options(data, out, search=False, full=True))
    assert report.rendered == 4 and report.written == ()


def test_pages_of_a_document_no_longer_in_the_archive_are_removed(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build_site(options(data, out, search=False))
    smaller = tmp_path / "smaller"
    shutil.copytree(data, smaller)
    shrunk = Archive(smaller)
    gone = next(d for d in shrunk.document_ids() if d.startswith("blog-"))
    shutil.rmtree(shrunk.document_dir(gone))
    report = build_site(options(smaller, out, search=False))
    assert f"articles/{gone}/index.html" in report.removed
    assert not (out / "articles" / gone).exists()
    assert "sources/blog-example-com/index.html" in report.removed


def test_a_broken_document_is_reported_and_the_rest_is_published(
    data: Path, tmp_path: Path
) -> None:
    archive = Archive(data)
    broken = archive.document_ids()[0]
    revision = archive.revision_file(broken, 1)
    revision.chmod(0o644)
    revision.write_text("{ not json", encoding="utf-8")
    report = build_site(options(data, tmp_path / "site", search=False))
    assert len(report.failures) == 1 and broken in report.failures[0]
    assert "not valid UTF-8 JSON" in report.failures[0]
    assert report.documents == 3


def test_writing_one_path_twice_in_a_build_is_an_error(tmp_path: Path) -> None:
    writer = SiteWriter(tmp_path)
    writer.write("a/index.html", "one")
    with pytest.raises(DuplicateOutputError, match="written twice"):
        writer.write("a/index.html", "two")


@pytest.mark.parametrize(
    "path", ["../x.html", "/etc/passwd", "a/../../b", "a\\b", ".quietedit-cache/x", "", "a//b"]
)
def test_paths_that_would_leave_the_site_are_refused(path: str, tmp_path: Path) -> None:
    with pytest.raises(UnsafeOutputPathError):
        SiteWriter(tmp_path).write(path, "x")


@given(st.text(max_size=40))
def test_any_accepted_output_path_stays_inside_the_site(text: str) -> None:
    try:
        safe = check_output_path(text)
    except UnsafeOutputPathError:
        return
    root = Path("/site")
    assert (root / safe).resolve().is_relative_to(root)


def test_build_without_archive_names_the_folder_and_the_fix(tmp_path: Path) -> None:
    from quietedit.errors import PublishError

    with pytest.raises(PublishError, match=r"no archive at .*pass --data"):
        build_site(options(tmp_path / "nothing", tmp_path / "site"))


def test_a_changed_template_rerenders_pages(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    templates = tmp_path / "templates"
    templates.mkdir()
    build_site(options(data, out, search=False, templates=templates))
    (templates / "404.html").write_text(
        '{% extends "base.html" %}{% block title %}Lost{% endblock %}'
        "{% block content %}<h1>Lost</h1>{% endblock %}",
        encoding="utf-8",
    )
    report = build_site(options(data, out, search=False, templates=templates))
    assert report.rendered == 4 and "404.html" in report.written
    assert "<h1>Lost</h1>" in (out / "404.html").read_text(encoding="utf-8")


def test_markdown_pages_render_raw_html_as_text(data: Path, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    (templates / "pages").mkdir(parents=True)
    (templates / "pages/about.md").write_text(
        "# About\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n", encoding="utf-8"
    )
    out = tmp_path / "site"
    build_site(options(data, out, search=False, templates=templates))
    html = (out / "about/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'href="javascript:' not in html


def test_base_url_puts_every_internal_link_under_its_path(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(
        BuildOptions(data=data, out=out, base_url="https://user.github.io/repo/", search=False)
    )
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="/repo/static/site.css"' in html and 'href="/static/' not in html
    assert "https://user.github.io/repo/feed.xml" in (out / "feed.xml").read_text(encoding="utf-8")


def test_archive_pages_are_not_rewritten_when_a_new_edit_arrives(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    docs = []
    for n in range(30):
        url = f"https://news.example.org/2026/11/28/story-{n}"
        doc = document_id(url)
        docs.append((doc, url))
        archive.write_document(doc, {"url": url, "first_seen": "2026-11-28T06:00:00Z"})
        for r in range(3):
            text = f"The council approved {n * 10 + r} new homes on Monday."
            archive.append_revision(
                doc,
                Observation(
                    url=url,
                    observed_at=T0 + timedelta(minutes=10 * n + 300 * r),
                    article=Article(f"Story {n}", (Block(text),)),
                    extractor="tests/1",
                ),
            )
    out = tmp_path / "site"
    first = build_site(options(archive.root, out, search=False))
    assert first.edits == 60 and (out / "edits/1/index.html").is_file()
    doc, url = docs[0]
    archive.append_revision(
        doc,
        Observation(
            url=url,
            observed_at=T0 + timedelta(days=2),
            # the same kinds of edit as before, so the filter navigation stays the same
            article=Article("Story 0", (Block("The council approved 999 new homes on Monday."),)),
            extractor="tests/1",
        ),
    )
    report = build_site(options(archive.root, out, search=False))
    assert "index.html" in report.written and "edits/2/index.html" in report.written
    assert "edits/1/index.html" not in report.written  # the oldest 50 edits did not move
    assert not any(p.startswith("kinds/") and "/edits/1/" in p for p in report.written)


def test_full_build_still_removes_stale_files(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(options(data, out, search=False))
    smaller = tmp_path / "smaller"
    shutil.copytree(data, smaller)
    shrunk = Archive(smaller)
    gone = next(d for d in shrunk.document_ids() if d.startswith("blog-"))
    shutil.rmtree(shrunk.document_dir(gone))
    report = build_site(options(smaller, out, search=False, full=True))
    assert f"articles/{gone}/index.html" in report.removed


def test_full_build_repairs_a_page_edited_by_hand(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(options(data, out, search=False))
    (out / "stats/index.html").write_text("tampered", encoding="utf-8")
    assert "stats/index.html" not in build_site(options(data, out, search=False)).written
    report = build_site(options(data, out, search=False, full=True))
    assert "stats/index.html" in report.written
    assert "<h1>Statistics</h1>" in (out / "stats/index.html").read_text(encoding="utf-8")


def test_forked_workers_build_the_same_site(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batches, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(batches, "CHUNK_SIZE", 1)
    serial = build_site(options(data, tmp_path / "one", search=False, workers=1))
    forked = build_site(options(data, tmp_path / "two", search=False, workers=2))
    assert forked.rendered == serial.rendered == 4
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
