"""Incremental builds of the site-wide pages: listings over several archive pages, source
filters, feeds and stats, as documents gain revisions, arrive, vanish or start failing.

Each test compares the incremental site with a build from nothing (byte for byte) and
checks that what it did not need to touch kept its inode and time. Listing pages hold one
edit each here, so that the small test archive spans several archive pages.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from markupsafe import escape

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import JSON, Article, Block, Publisher
from quietedit.publish import BuildReport, listing, siteindexes, sitewide
from quietedit.publish.buildcache import STATE_FILE, BuildState
from quietedit.publish.edittable import EVERY, EditTable, Scope
from quietedit.publish.paths import CACHE_DIR
from quietedit.revisions import Observation
from tests.publish.conftest import SOURCES, STORIES, T0, write_archive
from tests.publish.test_incremental import build, files


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(listing, "PAGE_SIZE", 1)
    root = tmp_path / "data"
    write_archive(root)
    return root


def doc_of(url: str) -> str:
    return document_id(url)


def revise(archive: Archive, doc: str, text: str, *, hours: int) -> None:
    """A new revision of ``doc`` with a paragraph added, ``hours`` after T0."""
    last = archive.revisions(doc)[-1]
    archive.append_revision(
        doc,
        Observation(
            url=last.observation.url,
            observed_at=T0 + timedelta(hours=hours),
            article=Article(
                last.article.title, (*last.article.blocks, Block(text)), last.article.publisher
            ),
            extractor="tests/1",
        ),
    )


def rebuild_and_compare(data: Path, out: Path, fresh: Path) -> tuple[BuildReport, set[str]]:
    """Build ``out`` again; assert it equals a build from nothing and that exactly the
    files it reports as written changed. Returns the report and the untouched files."""
    before = files(out)
    report = build(data, out)
    after = files(out)
    changed = {p for p in after if before.get(p) != after[p]}
    assert changed == set(report.written)
    assert set(before) - set(after) == set(report.removed)
    build(data, fresh)
    assert {p: v[2] for p, v in after.items()} == {p: v[2] for p, v in files(fresh).items()}
    assert sums(out) == sums(fresh) == counted_again(out)
    untouched = {p for p in after if p in before and before[p][:2] == after[p][:2]}
    return report, untouched


_SUMS = {
    "document_sums": "SELECT * FROM document_sums ORDER BY 1, 2",
    "edit_sums": "SELECT * FROM edit_sums ORDER BY 1, 2, 3, 4",
    "kind_sums": "SELECT * FROM kind_sums ORDER BY 1, 2",
}
_COUNTED = {
    "document_sums": "SELECT partition, source, COUNT(*), TOTAL(published), TOTAL(revisions),"
    " TOTAL(files), TOTAL(open_size), TOTAL(folded_size) FROM documents GROUP BY 1, 2"
    " ORDER BY 1, 2",
    "edit_sums": "SELECT source, event != '', delay, coalesce(silent, -1), COUNT(*) FROM edits"
    " GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
    "kind_sums": "SELECT kind, event != '', COUNT(*) FROM edit_kinds GROUP BY 1, 2 ORDER BY 1, 2",
}


def _rows(out: Path, queries: dict[str, str]) -> dict[str, list[tuple[int | str, ...]]]:
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        return {
            name: [tuple(int(v) if isinstance(v, float) else v for v in r) for r in db.execute(q)]
            for name, q in queries.items()
        }


def sums(out: Path) -> dict[str, list[tuple[int | str, ...]]]:
    """The sums the build cache's triggers keep."""
    return _rows(out, _SUMS)


def counted_again(out: Path) -> dict[str, list[tuple[int | str, ...]]]:
    """The same sums counted again from the rows."""
    return _rows(out, _COUNTED)


def test_a_new_revision_of_a_document_on_an_old_archive_page(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build(data, out)
    assert first.edits == 4 and (out / "edits" / "4" / "index.html").is_file()
    minister = doc_of(STORIES[1].url)  # its one edit is among the oldest
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    report, untouched = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.rendered == 1 and report.edits == 5
    # the new edit is the newest: the front pages and the new last archive page change,
    # the archive pages that keep their edits do not
    assert {"index.html", "edits/5/index.html", "feed.xml", "stats/index.html"} <= set(
        report.written
    )
    assert {"edits/1/index.html", "edits/2/index.html", "edits/3/index.html"} <= untouched
    # the other source's listing and feed hold no edit of it
    assert {"sources/courier-world/index.html", "sources/courier-world/feed.xml"} <= untouched
    assert "sources/daily-politics/index.html" in report.written


def test_an_edit_inserted_before_older_ones_moves_the_pages_after_it(
    data: Path, tmp_path: Path
) -> None:
    """A substantive edit leads its day: the archive pages from its place on shift."""
    out = tmp_path / "site"
    build(data, out)
    bridge = doc_of(STORIES[0].url)
    archive = Archive(data)
    last = archive.revisions(bridge)[-1]
    archive.append_revision(
        bridge,
        Observation(
            url=last.observation.url,
            observed_at=T0 + timedelta(hours=11),  # the same day as every other edit
            article=Article(
                "Elm river bridge scrapped", (last.article.blocks[0],), last.article.publisher
            ),
            extractor="tests/1",
        ),
    )
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.edits == 5 and "edits/5/index.html" in report.written


@pytest.mark.parametrize("feeds", [["courier-world"], []], ids=["known source", "new source"])
def test_a_new_document(data: Path, tmp_path: Path, feeds: list[str]) -> None:
    out = tmp_path / "site"
    build(data, out)
    archive = Archive(data)
    url = "https://news.example.org/world/2026/11/29/flood-warning"
    doc = doc_of(url)
    record: dict[str, JSON] = {
        "url": url,
        "feeds": list(feeds),
        "first_seen": "2026-11-29T06:00:00Z",
    }
    archive.write_document(doc, record)
    publisher = Publisher(date_published="2026-11-29T05:30:00Z")
    for hours, text in ((23, "Rivers may burst their banks."), (26, "Rivers burst their banks.")):
        archive.append_revision(
            doc,
            Observation(
                url=url,
                observed_at=T0 + timedelta(hours=hours),
                article=Article("Flood warning", (Block(text),), publisher),
                extractor="tests/1",
            ),
        )
    report, untouched = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.rendered == 1 and report.documents == 5 and report.edits == 5
    source = "courier-world" if feeds else "news-example-org"
    assert {
        f"articles/{doc}/index.html",
        f"sources/{source}/index.html",
        "sources/index.html",
        "api/index.json",
        "sitemaps/articles-1.xml",
    } <= set(report.written)
    assert "sources/daily-politics/index.html" in untouched
    # the filters on a listing's newest page name each source; its archive pages, which
    # have none, stay as they are
    assert "edits/1/index.html" in untouched


def test_a_deleted_and_a_failing_document_leave_the_listings(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    minister, mayor = doc_of(STORIES[1].url), doc_of(STORIES[2].url)
    shutil.rmtree(Archive(data).document_dir(minister))
    events = Archive(data).events_dir(mayor)
    broken = events / f"{len(list(events.glob('*.json'))) + 1:06d}.json"
    broken.write_text("{ not json", encoding="utf-8")
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.documents == 2 and report.edits == 2 and len(report.failures) == 1
    assert f"articles/{minister}/index.html" in report.removed
    assert f"articles/{mayor}/index.html" in report.removed
    assert {"edits/3/index.html", "edits/4/index.html"} <= set(report.removed)
    # a configured source keeps its page, now without edits
    assert "sources/daily-politics/index.html" in report.written
    broken.unlink()  # it reads again: back on every listing
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh-again")
    assert report.rendered == 1 and report.edits == 3


def test_nothing_changed_renders_no_site_wide_page(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    report, untouched = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.written == () and report.rendered == 0
    assert {"index.html", "edits/1/index.html", "stats/index.html", "feed.xml"} <= untouched


def test_moved_folder_times_alone_render_nothing_and_are_recorded(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    bridge = doc_of(STORIES[0].url)
    os.utime(Archive(data).revisions_dir(bridge), ns=(1_000_000_000, 1_000_000_000))
    report = build(data, out)
    assert report.rendered == 0 and report.written == ()
    # the new stamp is kept, so the next build does not hash the document again
    stamp = Archive(data).document_stamps()[bridge]
    assert BuildState.load(out / CACHE_DIR).documents[bridge].stamp == stamp


def test_a_restamped_document_keeps_its_edits_in_the_cache_and_on_its_listings(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    bridge = doc_of(STORIES[0].url)
    before = BuildState.load(out / CACHE_DIR).documents[bridge].edits
    assert before
    os.utime(Archive(data).revisions_dir(bridge), ns=(1_000_000_000, 1_000_000_000))
    build(data, out)  # its row written again, under the new stamp, with its edits
    assert BuildState.load(out / CACHE_DIR).documents[bridge].edits == before
    front = out / "index.html"
    good = front.read_bytes()
    front.unlink()  # rendered again, from the edits the cache holds
    report = build(data, out)
    assert report.written == ("index.html",) and front.read_bytes() == good


def _sitemap_chunks(out: Path) -> dict[str, str]:
    """Each document of the sitemap's chunks of articles → its chunk's file."""
    found = {}
    for path in sorted((out / "sitemaps").glob("articles-*.xml")):
        for doc in re.findall(r"/articles/([^/<]+)/</loc>", path.read_text(encoding="utf-8")):
            found[doc] = f"sitemaps/{path.name}"
    return found


def test_the_sitemap_chunks_before_the_earliest_change_are_kept_unread(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An article per chunk: a new revision of the newest article rewrites its chunk and
    keeps the others without reading them; a chunk's file gone is made again; an article
    gone moves every chunk after it. Each time, the site is the one a build from nothing
    makes."""
    monkeypatch.setattr(siteindexes, "SITEMAP_LIMIT", 1)
    out = tmp_path / "site"
    build(data, out)
    chunks = _sitemap_chunks(out)
    assert len(chunks) == 3 and len(set(chunks.values())) == 3
    newest, *_, oldest = sorted(chunks, key=lambda doc: chunks[doc], reverse=True)
    revise(Archive(data), newest, "A late paragraph.", hours=30)
    report, untouched = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert chunks[newest] in report.written
    assert {chunks[doc] for doc in chunks if doc != newest} <= untouched
    (out / chunks[oldest]).unlink()
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh-again")
    assert chunks[oldest] in report.written
    shutil.rmtree(Archive(data).document_dir(oldest))
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh-third")
    assert _sitemap_chunks(out) == {
        doc: f"sitemaps/articles-{n}.xml"
        for n, doc in enumerate(sorted(set(chunks) - {oldest}, key=chunks.__getitem__), 1)
    }


def test_a_listing_page_is_keyed_by_its_edits_digests() -> None:
    """Two archive pages alike in all but what one edit shows (its digest) have two
    keys: the page is made again when an edit it lists changed."""
    site = sitewide.SiteWide(
        renderer=cast(Any, None), writer=cast(Any, None), archive=cast(Any, None),
        fingerprint="f", keys={}, edit_of=cast(Any, None),
    )  # fmt: skip
    ref = listing.EditRef(
        "2026-11-28", 1, "2026-11-28T08:00:00Z", "doc", 2, "courier", ("added",), 0,
        None, "digest-1",
    )  # fmt: skip
    page = listing.ListingPage("edits/1", "Recent edits — page 1", (ref,), None, number=1)
    other = dataclasses.replace(page, edits=(ref._replace(digest="digest-2"),))
    assert site._key_text({"listing": page}) != site._key_text({"listing": other})


def test_a_filter_archive_page_redirects_to_the_page_of_all_edits_holding_it(
    data: Path, tmp_path: Path
) -> None:
    """A source's or a kind's edits past its newest page are not listed twice: each of
    its archive pages is a redirect to the home archive page of its newest edit, at that
    edit's day."""
    out = tmp_path / "site"
    build(data, out)
    redirects = sorted(out.glob("kinds/*/edits/*/index.html"))
    sources = sorted(out.glob("sources/*/edits/*/index.html"))
    assert redirects and sources
    for page in redirects + sources:
        name = page.parent.parent.parent.name
        html = page.read_text(encoding="utf-8")
        assert "<li>" not in html and len(html.encode()) < 400
        target = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', html)
        assert target is not None
        path, _, anchor = target.group(1).partition("#")
        listing = (page.parent / path / "index.html").resolve()
        assert listing.parent.parent == (out / "edits").resolve()
        assert re.search(r'<link rel="canonical" href="[^"]+/edits/\d+/">', html)
        shown = listing.read_text(encoding="utf-8")
        assert f'id="{anchor}"' in shown
        # one edit a page here: the page it leads to holds an edit of that kind or source
        if page in redirects:
            assert f'<b class="kind">{name}</b>' in shown
        else:
            names = {s.slug: s.name for s in SOURCES}
            assert f" · {escape(names.get(name, name))}</span>" in shown
    kind = redirects[0].parent.parent.parent.name
    assert "Older edits, of every kind →" in (out / "kinds" / kind / "index.html").read_text()
    source = sources[0].parent.parent.parent.name
    front = (out / "sources" / source / "index.html").read_text()
    assert "Older edits, of every source →" in front


def test_the_archive_pages_before_a_listings_earliest_change_are_not_read(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An hourly build reads each listing's archive pages from its earliest change on
    (``listingpages``): of the main listing, the last two; the rest are kept unread."""
    out = tmp_path / "site"
    build(data, out)
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    starts: list[tuple[str, int]] = []
    by_time = EditTable.by_time

    def spy(self: EditTable, scope: Scope, start: int) -> list[tuple[listing.EditRef, str]]:
        starts.append((repr(scope), start))
        return by_time(self, scope, start)

    monkeypatch.setattr(EditTable, "by_time", spy)
    report, untouched = rebuild_and_compare(data, out, tmp_path / "fresh")
    hourly = starts[: len(starts) // 2]  # then the build from nothing, which reads all
    # six pages of one edit (five edits and an event): from the fifth on
    assert [start for scope, start in hourly if scope == repr(EVERY)] == [4]
    assert all(start == 0 for _, start in starts[len(starts) // 2 :])
    assert {"edits/1/index.html", "edits/2/index.html", "edits/3/index.html"} <= untouched
    assert report.rendered == 1


def test_a_cache_of_the_schema_before_the_edits_table_gives_a_full_build(
    data: Path, tmp_path: Path
) -> None:
    """The cache an older version left (schema 10, no ``edits`` table): a full build, the
    same site as from nothing, and a cache the next hour's build uses."""
    out = tmp_path / "site"
    build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    with contextlib.closing(sqlite3.connect(state)) as db:
        db.executescript("DROP TABLE edit_kinds; DROP TABLE edits; PRAGMA user_version = 10;")
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.rendered == report.documents
    revise(Archive(data), minister, "A second late paragraph.", hours=31)
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh-again")
    assert report.rendered == 1


def test_a_cache_deleted_between_two_builds_gives_the_same_site(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    shutil.rmtree(out / CACHE_DIR)
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh")
    assert report.rendered == report.documents
    revise(Archive(data), minister, "A second late paragraph.", hours=31)
    report, _ = rebuild_and_compare(data, out, tmp_path / "fresh-again")
    assert report.rendered == 1


def test_another_navigation_reads_every_archive_page_again(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What every listing page shows besides its edits (the sources and kinds of the
    navigation, the page size, the fold) is not what the cache's pages show: every
    archive page is read and made again, none kept."""
    out = tmp_path / "site"
    build(data, out)
    state = out / CACHE_DIR / STATE_FILE
    with contextlib.closing(sqlite3.connect(state)) as db:
        (key,) = db.execute("SELECT value FROM meta WHERE key = 'listings'").fetchone()
        assert len(key) == 64
        db.execute("UPDATE meta SET value = 'another navigation' WHERE key = 'listings'")
        db.commit()
    starts: list[int] = []
    by_time = EditTable.by_time

    def spy(self: EditTable, scope: Scope, start: int) -> list[tuple[listing.EditRef, str]]:
        starts.append(start)
        return by_time(self, scope, start)

    monkeypatch.setattr(EditTable, "by_time", spy)
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    rebuild_and_compare(data, out, tmp_path / "fresh")
    assert starts and set(starts) == {0}
    with contextlib.closing(sqlite3.connect(state)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'listings'").fetchone() == (key,)


def _redirect_targets(out: Path) -> dict[str, int]:
    """Each filter archive page (``sources/<slug>/edits/N``, ``kinds/<kind>/edits/N``) →
    the number of the home archive page it redirects to."""
    found = {}
    for page in sorted(
        [*out.glob("kinds/*/edits/*/index.html"), *out.glob("sources/*/edits/*/index.html")]
    ):
        html = page.read_text(encoding="utf-8")
        target = re.search(r'http-equiv="refresh" content="0; url=([^"#]+)', html)
        assert target is not None, page
        home = (page.parent / target.group(1)).resolve()
        assert home.parent == (out / "edits").resolve(), page
        found[page.parent.relative_to(out).as_posix()] = int(home.name)
    return found


def _expected_targets(out: Path, folded: frozenset[str] = frozenset()) -> dict[str, int]:
    """The same, as :func:`listing.paginate` numbers the home archive: the page of every
    edit (events included) that holds the newest edit of each filter archive page."""
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        table = EditTable(db, frozenset())
        rows = table.by_time(EVERY, 0)
    month = dict(rows)
    refs = [ref for ref, _ in rows]

    def hidden(ref: listing.EditRef) -> bool:
        return month[ref] in folded

    ordered = listing.ordered(refs)
    size = listing.PAGE_SIZE
    home = listing.paginate(ordered, base="", heading="", size=size, hidden=hidden)
    page_of = {ref: page.number for page in home if page.number for ref in page.edits}
    expected = {}
    filters = [(f"sources/{slug}", items) for slug, items in listing.by_source(ordered).items()]
    filters += [
        (f"kinds/{sitewide.kind_slug(kind)}", items)
        for kind, items in listing.by_kind(ordered).items()
    ]
    for base, items in filters:
        for page in listing.paginate(items, base=base, heading="", size=size, hidden=hidden):
            if page.number is not None:
                expected[page.path] = page_of[max(page.edits, key=listing.BY_TIME)]
    return expected


def _add_document(archive: Archive, url: str, feeds: list[str], hours: tuple[int, ...]) -> None:
    """A document first fetched late (a shard of another poller, say), its revisions
    observed ``hours`` after T0 (before every edit already built when negative)."""
    doc = doc_of(url)
    seen = (T0 + timedelta(hours=hours[0], minutes=-30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    record: dict[str, JSON] = {"url": url, "feeds": list(feeds), "first_seen": seen}
    archive.write_document(doc, record)
    publisher = Publisher(date_published="2026-11-27T05:30:00Z")
    text = "The harbour closed."
    for n, hour in enumerate(hours):
        text += f" Update {n}."
        archive.append_revision(
            doc,
            Observation(
                url=url,
                observed_at=T0 + timedelta(hours=hour),
                article=Article(f"Harbour closed {n}", (Block(text),), publisher),
                extractor="tests/1",
            ),
        )


@pytest.mark.parametrize("size", [1, 2, 3])
def test_redirects_follow_edits_observed_before_the_built_ones(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """Edits that arrive with observed times earlier than those already built (a late
    shard) move the home archive's pages after them: each filter archive page redirects
    to the home page that now holds its newest edit, incrementally as from nothing."""
    monkeypatch.setattr(listing, "PAGE_SIZE", size)
    out = tmp_path / "site"
    build(data, out)
    assert _redirect_targets(out) == _expected_targets(out)
    archive = Archive(data)
    steps = [
        ("https://news.example.org/world/2026/11/27/harbour", ["courier-world"], (-20, -18, -17)),
        ("https://blog.example.com/2026/11/late", [], (-2, 1, 5)),
    ]
    for n, (url, feeds, hours) in enumerate(steps):
        _add_document(archive, url, feeds, hours)
        rebuild_and_compare(data, out, tmp_path / f"fresh-{n}")
        assert _redirect_targets(out) == _expected_targets(out)


def test_redirects_of_a_site_whose_oldest_month_folds(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A month's edits listed, then folded (the site outgrew its bound), then a late
    document of the folded month and one of the shown month: the filters' redirects lead
    to the home page holding their newest shown edit, incrementally as from nothing."""
    monkeypatch.setattr(listing, "PAGE_SIZE", 2)
    archive = Archive(data)
    _add_document(
        archive,
        "https://news.example.org/world/2026/10/harbour",
        ["courier-world"],
        (-24 * 40, -24 * 39),
    )
    out = tmp_path / "site"
    build(data, out)
    assert _redirect_targets(out) == _expected_targets(out)
    before = files(out)
    report = build(data, out, max_bytes=1)
    build(data, tmp_path / "fresh-0", max_bytes=1)
    assert {p: v[2] for p, v in files(out).items()} == {
        p: v[2] for p, v in files(tmp_path / "fresh-0").items()
    }
    assert (out / "archive").is_dir() and before
    folded = frozenset({"2026-10"})
    assert _redirect_targets(out) == _expected_targets(out, folded)
    _add_document(
        archive,
        "https://news.example.org/world/2026/10/late",
        ["courier-world"],
        (-24 * 41, -24 * 38),
    )
    _add_document(archive, "https://blog.example.com/2026/11/late", [], (-2, 1, 5))
    for n in (1, 2):
        report = build(data, out, max_bytes=1)
        build(data, tmp_path / f"fresh-{n}", max_bytes=1)
        assert {p: v[2] for p, v in files(out).items()} == {
            p: v[2] for p, v in files(tmp_path / f"fresh-{n}").items()
        }
        assert _redirect_targets(out) == _expected_targets(out, folded)
    assert report.rendered == 0


def test_deleted_archive_and_redirect_pages_are_made_again(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages before a listing's earliest change whose file is gone are made again (the
    home archive's and the filters' redirects alike)."""
    out = tmp_path / "site"
    build(data, out)
    gone = [out / "edits/1/index.html", *sorted(out.glob("*/*/edits/1/index.html"))]
    assert len(gone) > 2
    for page in gone:
        page.unlink()
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    rebuild_and_compare(data, out, tmp_path / "fresh")
    assert all(page.is_file() for page in gone)


def test_a_cache_of_another_archive_gives_the_same_site(data: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    write_archive(other, (STORIES[1], STORIES[0], *STORIES[2:]))
    out = tmp_path / "site"
    build(other, out)
    build(data, tmp_path / "fresh")
    build(data, out)
    assert {p: v[2] for p, v in files(out).items()} == {
        p: v[2] for p, v in files(tmp_path / "fresh").items()
    }


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE edits SET kinds = 'not json'",
        "DELETE FROM edits",
        "DELETE FROM edit_kinds",
        "DELETE FROM edits WHERE (document, number) IN"
        " (SELECT document, number FROM edits ORDER BY observed_at LIMIT 1)",
        "DELETE FROM meta WHERE key = 'edit_rows'",
        # the sums the triggers keep, damaged (the listings' counts and the statistics)
        "UPDATE edit_sums SET edits = edits + 1",
        "DELETE FROM kind_sums",
        "UPDATE document_sums SET documents = documents + 1",
        "DROP TRIGGER edit_sums_insert",
    ],
)
def test_a_damaged_edits_table_gives_the_same_site(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """The cache's edit rows no longer what its documents' references say (rows gone,
    changed by hand): the tables are written whole, and the site is the one a build from
    nothing makes, without a traceback."""
    monkeypatch.setattr(listing, "PAGE_SIZE", 2)
    out = tmp_path / "site"
    build(data, out)
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        db.execute(damage)
        db.commit()
    minister = doc_of(STORIES[1].url)
    revise(Archive(data), minister, "The opposition called the interview a U-turn.", hours=30)
    rebuild_and_compare(data, out, tmp_path / "fresh")
