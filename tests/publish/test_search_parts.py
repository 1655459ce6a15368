"""An hourly build indexes a search bundle again only when what Pagefind reads of one of
its articles' pages changed (``publish.searchparts``): a revision that leaves the
outlet, headline, byline and notes as they were rewrites the article page but keeps the
bundle, and the site is still a full build's, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.publish import search
from quietedit.publish.search import search_available
from quietedit.publish.searchparts import search_part
from tests.publish.test_incremental import add_revision, bridge_document, build, data, files

__all__ = ["data"]  # the fixture

PAGE = (
    b'<!doctype html>\n<html lang="en">\n<head><title>T</title></head><body>'
    b'<header data-pagefind-body>\n<p class="kicker">Courier</p>\n'
    b'<h1 data-pagefind-meta="title">T</h1>\n'
    b'<dl class="facts" data-pagefind-ignore>\n<dt>Text</dt><dd>3 paragraphs</dd>\n</dl>\n'
    b"</header>\n<section>Revision 2</section></body></html>"
)


def test_the_part_pagefind_reads_leaves_out_the_ignored_facts_and_the_timeline() -> None:
    part = search_part(PAGE)
    assert part.startswith(b'<html lang="en">') and b"<h1" in part
    assert b"paragraphs" not in part and b"Revision" not in part
    other = PAGE.replace(b"3 paragraphs", b"4 paragraphs").replace(b"Revision 2", b"Revision 3")
    assert search_part(other) == part
    assert search_part(PAGE.replace(b">T</h1>", b">U</h1>")) != part
    unmarked = PAGE.replace(b" data-pagefind-body", b"")
    assert search_part(unmarked) == unmarked  # compared whole


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_revision_that_leaves_the_header_as_it_was_keeps_its_search_bundle(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "site"
    build(data, out, search=True)
    archive = Archive(data)
    doc = bridge_document(archive)
    add_revision(archive, doc, "Engineers will inspect the riverbed in January.")
    indexed: list[str] = []
    add = search.Indexer.add

    def counted(self: search.Indexer, shard: search.Shard) -> None:
        indexed.append(shard.path)
        add(self, shard)

    monkeypatch.setattr(search.Indexer, "add", counted)

    report = build(data, out, search=True)

    assert report.failures == ()
    assert f"articles/{doc}/index.html" in report.written  # its timeline grew
    # the old code gave the article's bundle to Pagefind again for the page's new bytes
    assert indexed == []
    assert not [p for p in report.written if p.startswith("search/index/")]
    fresh = tmp_path / "fresh"
    build(data, fresh, search=True)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
