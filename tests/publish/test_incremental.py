"""The build cache under change: what an incremental build rewrites, and what it must not miss.

Correctness first: every test here would fail if the cache kept a page whose inputs
changed, or touched a page whose inputs did not.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from quietedit.archive.store import Archive
from quietedit.errors import UnsafeOutputPathError
from quietedit.model import Article, Block
from quietedit.publish import BuildOptions, BuildReport, build_site, buildcache, cacherows
from quietedit.publish.buildcache import STATE_FILE
from quietedit.publish.catalog import Catalog
from quietedit.publish.pages import Edit
from quietedit.publish.paths import CACHE_DIR, SiteWriter
from quietedit.publish.search import search_available
from quietedit.revisions import Observation
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, T0, write_archive


def build(data: Path, out: Path, **kwargs: Any) -> BuildReport:
    options = BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False)
    return build_site(dataclasses.replace(options, **kwargs))


def files(out: Path) -> dict[str, tuple[int, int, bytes]]:
    """Each site file's inode, modification time and bytes."""
    found = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and CACHE_DIR not in path.parts:
            st = path.stat()
            found[path.relative_to(out).as_posix()] = (st.st_ino, st.st_mtime_ns, path.read_bytes())
    return found


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_archive(root)
    return root


def bridge_document(archive: Archive) -> str:
    return next(
        d
        for d in archive.document_ids()
        if d.startswith("news-example-org") and len(archive.revisions(d)) == 3
    )


def add_revision(
    archive: Archive, doc: str, text: str, *, hours: int = 12, title: str | None = None
) -> None:
    last = archive.revisions(doc)[-1]
    archive.append_revision(
        doc,
        Observation(
            url=STORIES[0].url,
            observed_at=T0 + timedelta(hours=hours),
            article=Article(
                title or last.article.title,
                (*last.article.blocks, Block(text)),
                last.article.publisher,
            ),
            extractor="tests/1",
        ),
    )


def test_a_new_revision_leaves_every_unaffected_file_untouched(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    before = files(out)
    archive = Archive(data)
    doc = bridge_document(archive)
    add_revision(archive, doc, "The mayor welcomed the decision.")
    report = build(data, out)
    after = files(out)
    changed = {p for p in after if before.get(p) != after[p]}
    assert changed == set(report.written)
    assert f"articles/{doc}/diff/4/index.html" in changed
    others = {p for p in changed if p.startswith(("articles/", "api/documents/")) and doc not in p}
    assert others == set()
    # the other documents' pages keep their inode and time, not just their bytes
    untouched = [p for p in before if p.startswith("articles/") and doc not in p]
    assert untouched and all(before[p][:2] == after[p][:2] for p in untouched)


def test_the_new_revision_shows_on_every_page_that_lists_it(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    archive = Archive(data)
    doc = bridge_document(archive)
    add_revision(archive, doc, "A spokesperson declined to comment on the overrun.")
    build(data, out)
    fresh = tmp_path / "fresh"
    build(data, fresh)
    # the incremental site is exactly the one a build from nothing makes
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_a_cache_file_a_killed_build_left_half_written_is_removed_by_the_next(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    left = out / CACHE_DIR / f"{STATE_FILE}.999999.tmp"
    left.write_bytes(b"SQLite format 3\0 cut short")
    build(data, out)
    assert not left.exists()
    assert (out / CACHE_DIR / STATE_FILE).is_file()


def test_a_damaged_or_foreign_cache_falls_back_to_a_full_build(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    good = state.read_bytes()

    def altered(change: str) -> bytes:
        """The good cache with one SQL statement run on it (its checksums not updated)."""
        copy = tmp_path / "altered.sqlite"
        copy.write_bytes(good)
        with contextlib.closing(sqlite3.connect(copy)) as db:
            db.executescript(change)
        return copy.read_bytes()

    broken: list[tuple[str, bytes]] = [
        ("garbage", b'{"schema": 2, "documents": {"x": [1]}'),
        ("empty", b""),
        ("cut short", good[: len(good) // 2]),
        ("a title changed", altered("UPDATE documents SET title = 'Forged' WHERE files > 0;")),
        ("another schema", altered("PRAGMA user_version = 3;")),
        ("another application", altered("PRAGMA application_id = 1;")),
        ("no documents table", altered("DROP TABLE documents;")),
    ]
    for what, content in broken:
        state.write_bytes(content)
        report = build(data, out)
        assert report.rendered == first.rendered == report.documents, what
        assert report.failures == () and report.written == (), what  # same bytes kept
    state.write_bytes(good)  # the check of the checks: this one is used
    assert build(data, out).rendered == 0


def test_damaged_edit_rows_found_when_read_give_a_full_build(data: Path, tmp_path: Path) -> None:
    """The edits' rows are read only for the edits a build shows again: damage there is
    found then, half-way through a build, which starts again in full."""
    out = tmp_path / "site"
    first = build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    with contextlib.closing(sqlite3.connect(state)) as db:
        db.execute("UPDATE documents SET rows = '[]'")  # their checksums not updated
        db.commit()
    assert build(data, out).rendered == 0  # nothing shown again: nothing read
    front = out / "index.html"
    good = front.read_bytes()
    front.unlink()  # the front page is rendered again, with the edits of every document
    report = build(data, out)
    assert report.rendered == first.rendered == report.documents
    assert report.failures == () and report.written == ("index.html",)
    assert front.read_bytes() == good
    assert build(data, out).rendered == 0  # the cache written whole again, and trusted


def test_an_edit_reference_of_another_document_is_not_trusted(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    with contextlib.closing(sqlite3.connect(state)) as db:
        (doc, refs), (other, *_) = db.execute("SELECT id, refs FROM documents").fetchall()[:2]
        forged = json.loads(refs)
        forged[0][3] = other
        db.execute("UPDATE documents SET refs = ? WHERE id = ?", (json.dumps(forged), doc))
        # the checksum made to match: only the shape check can refuse it
        query = f"SELECT {cacherows.COLUMNS} FROM documents WHERE id = ?"  # noqa: S608
        row = db.execute(query, (doc,))
        crc = cacherows._crc(row.fetchone())
        db.execute("UPDATE documents SET crc32 = ? WHERE id = ?", (crc, doc))
        db.commit()
    previous = buildcache.BuildState.load(out / CACHE_DIR)
    entry = previous.select("WHERE id = ?", (doc,))[doc]  # its checksum holds
    with pytest.raises(cacherows.CacheDamagedError, match="another document"):
        _ = entry.refs
    previous.close()


def test_a_damaged_row_of_the_edits_table_gives_a_full_build(data: Path, tmp_path: Path) -> None:
    """The listings and feeds read the ``edits`` table: a row of the wrong shape found
    there, half-way through a build, makes it start again in full, to the same site."""
    out = tmp_path / "site"
    first = build(data, out)
    before = files(out)
    state = out / CACHE_DIR / STATE_FILE
    with contextlib.closing(sqlite3.connect(state)) as db:
        db.execute('UPDATE edits SET kinds = \'{"not": "a list"}\'')
        db.commit()
    report = build(data, out)
    assert report.rendered == first.rendered == report.documents
    assert report.failures == () and report.written == ()
    assert files(out) == before
    assert build(data, out).rendered == 0  # the cache written whole again, and trusted


def test_a_cache_restored_without_the_site_rebuilds_every_page(data: Path, tmp_path: Path) -> None:
    """CI restores only the cache folder into an empty output folder."""
    out = tmp_path / "site"
    first = build(data, out)
    restored = tmp_path / "restored"
    shutil.copytree(out / CACHE_DIR, restored / CACHE_DIR)
    report = build(data, restored)
    # every document with pages; the one never edited has none to restore
    assert report.rendered == first.rendered - 1 == 3
    assert {p: v[2] for p, v in files(restored).items()} == {p: v[2] for p, v in files(out).items()}


def test_a_new_base_url_rewrites_every_page_with_its_links(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    report = build(data, out, base_url="https://mirror.example.com/edits/")
    assert report.rendered == report.documents
    pages = [p for p in files(out) if p.endswith(".html")]
    assert set(pages) <= set(report.written)
    # the old base path, as a root-relative link or in an absolute URL (the about page
    # links to the project's repository, github.com/quietedit/quietedit, which stays)
    old = ('="/quietedit/', "watch.example.org/quietedit/")
    assert all(not any(o in (out / p).read_text(encoding="utf-8") for o in old) for p in pages), (
        "a page kept a link under the old base path"
    )


def test_a_changed_template_rerenders_what_it_renders(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    templates = tmp_path / "templates"
    templates.mkdir()
    build(data, out, templates=templates)
    shipped = Path(__file__).parents[2] / "templates" / "_edit_item.html"
    (templates / "_edit_item.html").write_text(
        shipped.read_text(encoding="utf-8").replace("{{ edit_item", "<!-- v2 -->{{ edit_item"),
        encoding="utf-8",
    )
    report = build(data, out, templates=templates)
    assert "<!-- v2 -->" in (out / "index.html").read_text(encoding="utf-8")
    assert "index.html" in report.written


def test_a_document_that_starts_failing_loses_its_pages_and_is_reported(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    archive = Archive(data)
    doc = bridge_document(archive)
    # a new (create-only, next-numbered) event file that cannot be read
    folder = archive.events_dir(doc)
    folder.mkdir(exist_ok=True)
    broken = folder / f"{len(list(folder.glob('*.json'))) + 1:06d}.json"
    broken.write_text("{ not json", encoding="utf-8")
    report = build(data, out)
    assert len(report.failures) == 1 and doc in report.failures[0]
    assert not (out / "articles" / doc).exists()
    assert f"articles/{doc}/index.html" in report.removed
    broken.unlink()
    assert build(data, out).failures == ()
    assert (out / "articles" / doc / "index.html").is_file()


def test_removed_documents_lose_their_pages_and_their_cached_diffs(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    doc = bridge_document(Archive(data))
    assert (out / CACHE_DIR / "diffs" / f"{doc}.json").is_file()
    shutil.rmtree(Archive(data).document_dir(doc))
    report = build(data, out)
    assert f"api/documents/{doc}.json" in report.removed
    assert not (out / "articles" / doc).exists()
    assert not (out / CACHE_DIR / "diffs" / f"{doc}.json").exists()


def test_a_linked_folder_leading_out_of_the_site_is_refused(tmp_path: Path) -> None:
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "articles").mkdir(parents=True)
    outside.mkdir()
    os.symlink(outside, site / "articles" / "x")
    with pytest.raises(UnsafeOutputPathError, match="through a link"):
        SiteWriter(site).write("articles/x/index.html", "page")
    assert list(outside.iterdir()) == []


def test_an_edit_reads_back_from_its_cache_row_unchanged() -> None:
    edit = Edit(
        document="news-example-org-0123456789abcdef",
        number=3,
        observed_at="2026-11-28T10:00:00Z",
        previous_at="2026-11-28T08:00:00Z",
        title="Bridge cost rises to 52 million",
        old_title="Bridge approved",
        url=None,
        source="courier-world",
        kinds=("facts", "headline"),
        significance="substantive",
        rank=3,
        silent=None,
        excerpt=(("=", "at a cost of "), ("-", "48"), ("+", "52")),
        summary="headline changed, 1 paragraph changed",
        published="2026-11-28T06:00:00Z",
    )
    assert Edit.from_row(json.loads(json.dumps(edit.to_row()))) == edit
    with pytest.raises(ValueError, match="wrong length"):
        Edit.from_row(edit.to_row()[:-1])


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_new_revision_reindexes_only_the_search_shard_of_its_source(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out, search=True)
    before = files(out)
    archive = Archive(data)
    doc = bridge_document(archive)
    # the index holds the article's outlet, headline and byline: a new headline changes it
    title = "Bridge repairs delayed again as engineers inspect the riverbed"
    add_revision(archive, doc, "Engineers will inspect the riverbed in January.", title=title)
    report = build(data, out, search=True)
    shards = (out / "search/index/shards.txt").read_text(encoding="utf-8").splitlines()
    own = next(line.split()[0] for line in shards if doc in line)
    touched = {p for p in report.written if p.startswith("search/index/") and "/" in p[13:]}
    assert touched and all(p.startswith(own) for p in touched if p != "search/index/shards.txt")
    others = [p for p in before if p.startswith("search/index/") and not p.startswith(own)]
    assert others and all(files(out)[p][:2] == before[p][:2] for p in others if p in files(out))
    fresh = tmp_path / "fresh"
    build(data, fresh, search=True)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def site_rows(out: Path) -> dict[str, tuple[str, str]]:
    """The build cache's record of the site-wide files: path → (digest, key)."""
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        return {p: (d, k) for p, d, k in db.execute("SELECT path, digest, key FROM site")}


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_search_bundles_kept_whole_keep_their_rows_and_a_dropped_index_goes(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An hourly build reads the cache's rows of the bundles it indexes again, not of
    those it keeps: the kept ones' rows stay as they are, and the cache, the site and
    the count of files are those of a build from nothing; the next build without the
    index removes every bundle's files and rows."""
    out, fresh = tmp_path / "site", tmp_path / "fresh"
    build(data, out, search=True)
    archive = Archive(data)
    doc = bridge_document(archive)
    title = "Bridge repairs delayed again as engineers inspect the riverbed"
    add_revision(archive, doc, "Engineers will inspect the riverbed in January.", title=title)
    read: list[str] = []
    bundle_site = buildcache.BuildState.bundle_site

    def reading(self: buildcache.BuildState, bundle: str) -> dict[str, tuple[str, str]]:
        read.append(bundle)
        return bundle_site(self, bundle)

    monkeypatch.setattr(buildcache.BuildState, "bundle_site", reading)
    report = build(data, out, search=True)
    shards = (out / "search/index/shards.txt").read_text(encoding="utf-8").splitlines()
    own = next(line.split()[0] for line in shards if doc in line)
    assert read == [own] and len(shards) > 1  # the others kept whole, unread
    whole = build(data, fresh, search=True)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
    assert site_rows(out) == site_rows(fresh)
    assert report.files == whole.files
    report = build(data, out, search=False)
    assert not (out / "search/index").exists()
    assert not [p for p in site_rows(out) if p.startswith("search/index/")]
    assert report.files == build(data, fresh, search=False).files
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_cache_written_whole_keeps_the_rows_of_the_bundles_kept_whole(
    data: Path, tmp_path: Path
) -> None:
    """The cache cannot be written in place (its edit rows' count is lost): written whole,
    it holds the rows of the bundles kept unread too."""
    out, fresh = tmp_path / "site", tmp_path / "fresh"
    build(data, out, search=True)
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        db.execute("DELETE FROM meta WHERE key = 'edit_rows'")
        db.commit()
    archive = Archive(data)
    add_revision(archive, bridge_document(archive), "Engineers will inspect the riverbed.")
    report = build(data, out, search=True)
    assert report.files == build(data, fresh, search=True).files
    assert site_rows(out) == site_rows(fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_a_renamed_feed_renames_its_source_on_the_pages_of_its_articles(
    data: Path, tmp_path: Path
) -> None:
    """A source missing from feeds.yaml is named by its feed state, in the archive."""
    out = tmp_path / "site"
    build(data, out)
    archive = Archive(data)
    blog = next(d for d in archive.document_ids() if d.startswith("blog-example-com"))
    archive.write_feed("blog-example-com", {"name": "The Example Blog", "polls": 3})
    report = build(data, out)
    assert f"articles/{blog}/index.html" in report.written
    assert "The Example Blog" in (out / "articles" / blog / "index.html").read_text("utf-8")
    # counters of a feed state change on every poll; they are not part of any article page
    archive.write_feed("blog-example-com", {"name": "The Example Blog", "polls": 4})
    assert not [p for p in build(data, out).written if p.startswith("articles/")]


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_a_document_checked_again_without_a_change_leaves_the_search_index_alone(
    data: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "site"
    build(data, out, search=True)
    caplog.set_level(logging.DEBUG, logger="quietedit.publish.search")
    before = files(out)
    archive = Archive(data)
    doc = bridge_document(archive)
    record = archive.read_document(doc) or {}
    # what a run writes after a check that found the page unchanged: its schedule moves,
    # in the partition's checks file, so the document is not even read again
    archive.write_document(doc, {**record, "schedule": {"last_checked_at": "2026-11-29T08:00:00Z"}})
    report = build(data, out, search=True)
    assert (report.rendered, report.written) == (0, ())
    # a record rewritten with nothing the site shows (here a field it does not read)
    archive.write_document(doc, {**record, "seen": {"last_seen": None, "revisions": 3}})
    report = build(data, out, search=True)
    assert report.rendered == 1  # read again: its record changed
    assert report.written == ()  # and nothing it shows did
    indexed = [r.getMessage() for r in caplog.records if r.getMessage().startswith("search ")]
    assert indexed == []  # so Pagefind did not index its bundle again
    after = files(out)
    assert {p: v[:2] for p, v in after.items()} == {p: v[:2] for p, v in before.items()}


def test_an_hourly_build_updates_the_cache_in_place_to_what_a_whole_write_holds(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    inode = state.stat().st_ino
    archive = Archive(data)
    add_revision(archive, bridge_document(archive), "Engineers will inspect the riverbed.")
    build(data, out)
    assert state.stat().st_ino == inode  # the rows that changed, written in place
    fresh = tmp_path / "fresh"
    build(data, fresh)  # the same archive, its cache written whole

    def dump(root: Path) -> list[list[tuple[object, ...]]]:
        # all but the count of builds that wrote the cache (``storyrows``)
        with contextlib.closing(sqlite3.connect(root / CACHE_DIR / STATE_FILE)) as db:
            return [
                db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()  # noqa: S608
                for table in ("documents", "site", "meta WHERE key != 'generation'")
            ]

    assert dump(out) == dump(fresh)
    updated = buildcache.BuildState.load(out / CACHE_DIR)
    assert updated.loaded and updated.documents
    assert {d: e.summary for d, e in updated.documents.items()} == {
        d: e.summary for d, e in buildcache.BuildState.load(fresh / CACHE_DIR).documents.items()
    }


def test_a_build_killed_while_saving_the_cache_leaves_the_previous_state(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    first = build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    # the files as a kill leaves them in the middle of the cache's transaction: the
    # database half written, its journal (the pages before) beside it
    with contextlib.closing(sqlite3.connect(state, isolation_level=None)) as db:
        db.execute("PRAGMA cache_size = 1")  # the changed pages go to the file at once
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE documents SET title = 'Half written', crc32 = 0")
        rows = [(f"x/{n}", "0" * 500, "") for n in range(2000)]  # more than the page cache
        db.executemany("INSERT INTO site VALUES (?, ?, ?)", rows)
        killed = {p.name: p.read_bytes() for p in state.parent.glob(f"{STATE_FILE}*")}
        db.execute("ROLLBACK")
    assert f"{STATE_FILE}-journal" in killed and killed[STATE_FILE] != state.read_bytes()
    for name, content in killed.items():
        (out / CACHE_DIR / name).write_bytes(content)
    report = build(data, out)
    assert report.rendered == 0 and report.written == ()  # the state before, rolled back
    assert first.documents == report.documents
    assert not (out / CACHE_DIR / f"{STATE_FILE}-journal").exists()


def test_cached_edits_are_read_through_the_connection_that_writes_the_cache(
    data: Path, tmp_path: Path
) -> None:
    """Once a build writes the cache, another connection may find it locked (the writer's
    page cache spilled to the file): the edits of cached documents are read through the
    writer, and never fail the build over to a full one."""
    out = tmp_path / "site"
    build(data, out)
    previous = buildcache.BuildState.load(out / CACHE_DIR)
    edited = previous.select("WHERE refs != '[]'")
    catalog = Catalog.begin(out / CACHE_DIR, previous, whole=False)
    try:
        catalog.db.execute("PRAGMA cache_size = 1")  # changed pages go to the file at once
        rows = [(f"x/{n}", "0" * 500, "") for n in range(2000)]
        catalog.db.executemany("INSERT INTO site VALUES (?, ?, ?)", rows)
        with pytest.raises(cacherows.CacheDamagedError, match="locked"):
            previous.query("SELECT COUNT(*) FROM documents")  # another connection: locked
        assert all(entry.edits for entry in edited.values())  # read through the writer
    finally:
        catalog.abort()
    previous.close()
    assert build(data, out).rendered == 0  # the cache as it was
