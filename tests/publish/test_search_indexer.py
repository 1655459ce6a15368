"""Pagefind's command indexes each search bundle (``search.Indexer``): from the bundle's
pages alone, whatever the caller's folder and environment say, and a failure names the
bundle."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest

from quietedit.errors import PublishError
from quietedit.publish import BuildOptions, build_site, search
from quietedit.publish.documents import DocumentPages
from quietedit.publish.paths import SiteWriter
from quietedit.publish.search import UNUSED_FILES, Indexer, Shard, search_available
from tests.publish.conftest import BASE_URL, SOURCES, write_archive

DOCS = ("harbour-example-org-0000000000000001", "harbour-example-org-0000000000000002")
HEADLINES = ("Harbour bridge reopens after repairs", "Council delays the ferry timetable")


def _site(root: Path) -> Path:
    for doc, headline in zip(DOCS, HEADLINES, strict=True):
        folder = root / "articles" / doc
        folder.mkdir(parents=True)
        (folder / "index.html").write_text(
            f'<!doctype html><html lang="en"><head><title>{headline}</title></head><body>'
            f"<header data-pagefind-body><h1>{headline}</h1><p>The Harbour Gazette</p>"
            "</header><main><p>What changed.</p></main></body></html>",
            encoding="utf-8",
        )
    return root


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_bundle_is_indexed_from_its_pages_whatever_the_callers_folder_and_environment_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pagefind's command reads a configuration file in its working folder and PAGEFIND_*
    # variables: a caller's would index other files, or in another language
    caller = tmp_path / "caller"
    caller.mkdir()
    (caller / "pagefind.yml").write_text('glob: "nothing/*.html"\n', encoding="utf-8")
    monkeypatch.chdir(caller)
    monkeypatch.setenv("PAGEFIND_FORCE_LANGUAGE", "de")
    monkeypatch.setenv("PAGEFIND_GLOB", "nothing/*.html")
    _site(tmp_path / "site")
    # folders named relative to the caller's, as ``quietedit build --out site`` names them
    indexer = Indexer(Path("../site"), work=Path("../work"))
    shard = Shard("harbour-gazette", "week", DOCS)
    indexer.add(shard)

    found = indexer.finish()

    files = found[shard.path]
    entry = json.loads(files["pagefind-entry.json"].read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["en"] and entry["languages"]["en"]["page_count"] == 2
    assert "pagefind.js" in files and not UNUSED_FILES & set(files)
    assert any(name.startswith("fragment/") for name in files)
    indexer.close()
    assert not list((tmp_path / "work").iterdir())


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_bundle_without_pages_has_no_files_and_no_error(tmp_path: Path) -> None:
    indexer = Indexer(_site(tmp_path / "site"), work=tmp_path / "work")
    empty = Shard("harbour-gazette", "week", ("harbour-example-org-000000000000000f",))
    full = Shard("harbour-gazette", "1", DOCS)
    indexer.add(empty)
    indexer.add(full)

    found = indexer.finish()

    assert found[empty.path] == {} and "pagefind-entry.json" in found[full.path]
    indexer.close()


def test_pagefind_failing_fails_the_index_naming_the_bundle_and_what_pagefind_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "pagefind"
    broken.write_text("#!/bin/sh\necho 'reading the pages' >&2\necho 'no room' >&2\nexit 3\n")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(search, "pagefind_binary", lambda: str(broken))
    indexer = Indexer(_site(tmp_path / "site"), work=tmp_path / "work")
    indexer.add(Shard("harbour-gazette", "week", DOCS))

    with pytest.raises(
        PublishError, match=r"search/index/harbour-gazette/week/: exit status 3: no room"
    ):
        indexer.finish()
    assert not (tmp_path / "work").exists() or not list((tmp_path / "work").iterdir())


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_bundle_whose_every_page_failed_to_render_is_left_off_the_search_page_until_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    write_archive(data)
    first = tmp_path / "first"
    build_site(_options(data, first))
    plan = (first / "search/index/shards.txt").read_text(encoding="utf-8").splitlines()
    lone, doc = next(line.split(" ") for line in plan if len(line.split(" ")) == 2)
    render = DocumentPages.render

    def failing(self: DocumentPages, document: str, writer: SiteWriter) -> object:
        if document == doc:
            raise OSError("disk full")
        return render(self, document, writer)

    monkeypatch.setattr(DocumentPages, "render", failing)
    out = tmp_path / "site"

    report = build_site(_options(data, out))

    assert [f for f in report.failures if doc in f] and not (out / "articles" / doc).exists()
    listed = _listed_bundles(out)
    assert f"/quietedit/{lone}" not in listed and len(listed) == len(plan) - 1
    assert all(
        (out / bundle.removeprefix("/quietedit/") / "pagefind-entry.json").is_file()
        for bundle in listed
    )
    monkeypatch.setattr(DocumentPages, "render", render)
    assert not build_site(_options(data, out)).failures
    assert f"/quietedit/{lone}" in _listed_bundles(out)
    assert (out / lone / "pagefind-entry.json").is_file()


def _options(data: Path, out: Path) -> BuildOptions:
    return BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES)


def _listed_bundles(site: Path) -> list[str]:
    page = (site / "search/index.html").read_text(encoding="utf-8")
    return re.findall(r'data-bundle="([^"]+)"', page)
