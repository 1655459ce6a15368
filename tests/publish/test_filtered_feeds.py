"""The filtered feeds (silent, headlines, significant, per kind, per watched term; for the
site and per source), and the takedowns and flip-flops listed among the edits, on a real
built site: every feed valid Atom, each holding exactly the edits it promises, linked from
the pages that list the same edits, byte-identical across builds and between an hourly
and a full build.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest
from lxml import etree

from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.publish import BuildOptions, BuildReport, build_site
from quietedit.publish.pages import Source
from quietedit.revisions import Observation
from tests.publish.atomcheck import A, atom_feed_files, atom_problems, duplicate_entry_ids
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, T0, Story, write_archive
from tests.publish.sitecheck import parse
from tests.publish.test_incremental import files

BERLIN = Source(
    "berliner-blatt",
    "Berliner Blatt",
    "https://www.berliner-blatt.example/politik.rss",
    watch=("Klima*", "Wegner"),
)
WATCH = ("Merz", "bridge")

# a German article: the chancellor's name added in a hyphenated compound, a compound of
# "Klima" added, the mayor's name removed; "Merzig" and "Kommerz" must not count as "Merz"
GERMAN = Story(
    "https://www.berliner-blatt.example/politik/haushalt",
    ("berliner-blatt",),
    (
        (
            "Haushalt: Senat streitet über Kürzungen",
            (
                "Der Berliner Senat hat am Dienstag über den Haushalt beraten.",
                "Bürgermeister Wegner verteidigte die Pläne, ein Sprecher aus Merzig widersprach.",
                "Im Kommerz-Ausschuss blieb es ruhig.",
            ),
            Publisher(date_published="2026-11-28T05:00:00Z", language="de"),
        ),
        (
            "Haushalt: Senat streitet über Kürzungen",
            (
                "Der Berliner Senat hat am Dienstag über den Haushalt beraten.",
                "Die Merz-Regierung kündigte Hilfen für den Klimaschutz an.",
                "Im Kommerz-Ausschuss blieb es ruhig.",
            ),
            Publisher(date_published="2026-11-28T05:00:00Z", language="de"),
        ),
    ),
)
FEEDS = (*SOURCES, BERLIN)


def write(root: Path) -> dict[str, str]:
    ids = write_archive(root, (*STORIES, GERMAN))
    archive = Archive(root)
    minister = ids[STORIES[1].url]
    # the interview went back to its first text: a flip-flop, not a new edit
    archive.append_event(
        minister, "flip-flop", observed_at=T0 + timedelta(hours=7), revision=1, detail={}
    )
    return ids


def build(data: Path, out: Path, **kwargs: object) -> BuildReport:
    options = BuildOptions(
        data=data, out=out, base_url=BASE_URL, sources=FEEDS, search=False, workers=1, watch=WATCH
    )
    report = build_site(dataclasses.replace(options, **kwargs))  # type: ignore[arg-type]
    assert not report.failures, report.failures
    return report


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("filtered")
    ids = write(root / "data")
    build(root / "data", root / "site")
    return root / "site", ids


def entries(path: Path) -> list[etree._Element]:
    root = etree.fromstring(path.read_bytes())
    return list(root.iterfind(f"{A}entry"))


def entry_ids(path: Path) -> list[str]:
    return [e.findtext(f"{A}id") or "" for e in entries(path)]


def content(entry: etree._Element) -> str:
    return entry.findtext(f"{A}content") or ""


def alternates(page: Path) -> dict[str, str]:
    """href → title of the page's Atom ``<link rel="alternate">``."""
    found = parse(page).css('link[rel="alternate"][type="application/atom+xml"]')
    return {str(n.attributes["href"]): str(n.attributes["title"]) for n in found}


def edit_id(doc: str, number: int) -> str:
    return f"{BASE_URL}articles/{doc}/diff/{number}/"


def test_every_feed_is_valid_atom_with_unique_entry_ids(site: tuple[Path, dict[str, str]]) -> None:
    out, _ = site
    feeds = {p.relative_to(out).as_posix(): p for p in atom_feed_files(out)}
    expected = {
        "feeds/silent.xml",
        "feeds/headlines.xml",
        "feeds/significant.xml",
        "feeds/kinds/headline.xml",
        "feeds/watch/merz.xml",
        "feeds/watch/bridge.xml",
        "feeds/watch/klima-prefix.xml",
        "feeds/watch/wegner.xml",
        "sources/courier-world/feeds/headlines.xml",
        "sources/berliner-blatt/feeds/watch/merz.xml",
        "sources/berliner-blatt/feeds/watch/klima-prefix.xml",
    }
    assert expected <= set(feeds)
    for name, path in feeds.items():
        data = path.read_bytes()
        assert atom_problems(data) == (), (name, atom_problems(data))
        assert duplicate_entry_ids(data) == [], name
    # no RSS twin for the filtered feeds: Atom only
    assert not list(out.glob("feeds/**/*.rss")) and not list(out.glob("sources/*/feeds/**/*.rss"))


def test_each_feed_holds_exactly_the_edits_it_promises(site: tuple[Path, dict[str, str]]) -> None:
    out, ids = site
    bridge = ids[STORIES[0].url]
    minister = ids[STORIES[1].url]
    mayor = ids[STORIES[2].url]
    german = ids[GERMAN.url]
    everything = set(entry_ids(out / "feed.xml"))
    # silent: every entry's verdict is silent; the bridge's second edit carried a
    # correction note and a new modified date, so it is not among them
    silent = entry_ids(out / "feeds/silent.xml")
    assert silent and set(silent) <= everything
    assert edit_id(bridge, 2) in silent and edit_id(bridge, 3) not in silent
    for entry in entries(out / "feeds/silent.xml"):
        assert "(silent edit)" in (entry.findtext(f"{A}title") or "")
    # headlines: the bridge's rewritten headline and the mayor's, old and new in each entry
    headlines = {e.findtext(f"{A}id"): e for e in entries(out / "feeds/headlines.xml")}
    assert set(headlines) == {edit_id(bridge, 3), edit_id(mayor, 2)}
    bridge_entry = headlines[edit_id(bridge, 3)]
    summary = bridge_entry.findtext(f"{A}summary") or ""
    assert "“Council approves Elm river bridge” → “Elm river bridge approved despite" in summary
    # feed.xml's entry has it too, marked up
    (full,) = [e for e in entries(out / "feed.xml") if e.findtext(f"{A}id") == edit_id(bridge, 3)]
    assert "<del>Council approves Elm river bridge</del> → <ins>Elm river bridge" in content(full)
    # the filtered feeds are compact: title, summary and links (and a watched term's words)
    assert bridge_entry.find(f"{A}content") is None
    # significant: substantive only; the flip-flop and the takedown are never in it
    significant = entry_ids(out / "feeds/significant.xml")
    assert edit_id(bridge, 2) in significant  # a figure changed: facts, substantive
    assert edit_id(minister, 2) in significant or edit_id(minister, 2) not in everything
    assert not any("#e" in i for i in significant)
    # a kind's feed: only edits of that kind
    for entry in entries(out / "feeds/kinds/headline.xml"):
        terms = {c.get("term") for c in entry.iterfind(f"{A}category")}
        assert "headline" in terms
    # watched terms: "Merz" added in "Merz-Regierung" (Merzig and Kommerz do not count),
    # "Klima*" added in "Klimaschutz", "Wegner" removed
    assert entry_ids(out / "feeds/watch/merz.xml") == [edit_id(german, 2)]
    merz = content(entries(out / "feeds/watch/merz.xml")[0])
    assert "Watched term added" in merz and "<mark>Merz</mark>-Regierung" in merz
    klima = content(entries(out / "feeds/watch/klima-prefix.xml")[0])
    assert "<mark>Klimaschutz</mark>" in klima
    wegner = content(entries(out / "feeds/watch/wegner.xml")[0])
    assert "Watched term removed" in wegner and "Bürgermeister <mark>Wegner</mark>" in wegner
    # "bridge" is watched everywhere: the bridge's edits only changed figures and order,
    # the headline rewrite kept the word, so no edit added or removed it
    assert entry_ids(out / "feeds/watch/bridge.xml") == []
    # per source: the same filters over the source's edits alone
    assert entry_ids(out / "sources/berliner-blatt/feeds/watch/merz.xml") == [edit_id(german, 2)]
    assert entry_ids(out / "sources/courier-world/feeds/headlines.xml") == [edit_id(bridge, 3)]
    # a source's own terms are watched only in its articles: no feed of them elsewhere
    assert not (out / "sources/courier-world/feeds/watch/klima-prefix.xml").exists()
    # and a source's feed exists only where it has entries
    assert not (out / "sources/daily-politics/feeds/headlines.xml").exists()


def test_the_pages_link_the_feeds_of_the_edits_they_list(
    site: tuple[Path, dict[str, str]],
) -> None:
    out, _ = site
    home = alternates(out / "index.html")
    for path in (
        "feed.xml",
        "feeds/silent.xml",
        "feeds/headlines.xml",
        "feeds/significant.xml",
        "feeds/watch/merz.xml",
    ):
        assert f"/quietedit/{path}" in home, path
    assert not any("/kinds/" in h for h in home)  # a kind's feed is on its kind's page
    kind = alternates(out / "kinds/headline/index.html")
    assert any(h.endswith("feeds/kinds/headline.xml") for h in kind)
    source = alternates(out / "sources/berliner-blatt/index.html")
    assert any(h.endswith("sources/berliner-blatt/feeds/watch/merz.xml") for h in source)
    assert any(h.endswith("sources/berliner-blatt/feeds/silent.xml") for h in source) == (
        (out / "sources/berliner-blatt/feeds/silent.xml").exists()
    )
    for href in (*home, *kind, *source):  # every link leads to a feed of the site
        assert href.startswith("/quietedit/"), href
        assert (out / href.removeprefix("/quietedit/")).is_file(), href


def test_takedowns_and_flip_flops_are_entries_of_their_own(
    site: tuple[Path, dict[str, str]],
) -> None:
    out, ids = site
    mayor, minister = ids[STORIES[2].url], ids[STORIES[1].url]
    feed = {e.findtext(f"{A}id"): e for e in entries(out / "feed.xml")}
    gone = feed[f"{BASE_URL}articles/{mayor}/#e1"]
    assert (gone.findtext(f"{A}title") or "").startswith("Taken down: ")
    assert "taken down (HTTP 410)" in (gone.findtext(f"{A}summary") or "")
    flip = feed[f"{BASE_URL}articles/{minister}/#e1"]
    assert (flip.findtext(f"{A}title") or "").startswith("Flip-flop: Minister")
    assert "went back to revision 1" in (flip.findtext(f"{A}summary") or "")
    # the home page lists both, linking the event on the article page, which has it
    home = parse(out / "index.html")
    gone_item = home.css_first("li.event-gone")
    assert gone_item is not None and "taken down" in gone_item.text()
    link = gone_item.css_first("a")
    assert link is not None and str(link.attributes["href"]).endswith(f"articles/{mayor}/#e1")
    assert home.css_first("li.event-flip-flop") is not None
    article = parse(out / f"articles/{mayor}/index.html")
    assert article.css_first("li#e1.event-gone") is not None
    # the headline change shows old → new on the listing
    change = home.css_first("p.headline-change")
    assert change is not None
    assert "Council approves Elm river bridge" in change.text()
    assert "Elm river bridge approved despite cost doubts" in change.text()
    # they are not edits: the counts and statistics leave them out
    lede = home.css_first("p.lede")
    assert lede is not None and lede.text().startswith("5 edits observed")


def test_two_builds_are_byte_identical(site: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    out, _ = site
    again = tmp_path / "site"
    build(out.parent / "data", again)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(again).items()}


def test_an_hourly_build_renders_only_the_feeds_whose_entries_changed(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    ids = write(data)
    build(data, out)
    archive = Archive(data)
    german = ids[GERMAN.url]
    last = archive.revisions(german)[-1]
    article = last.article
    archive.append_revision(
        german,
        Observation(
            url=last.observation.url,
            observed_at=T0 + timedelta(hours=20),
            article=Article(
                article.title,
                (*article.blocks, Block("Kanzler Merz reist am Freitag nach Paris.")),
                article.publisher,
            ),
            extractor="tests/1",
        ),
    )
    # a takedown of another article, on the same hour
    bridge = ids[STORIES[0].url]
    archive.append_event(
        bridge, "gone", observed_at=T0 + timedelta(hours=21), revision=3, detail={"status": 404}
    )
    report = build(data, out)
    written = set(report.written)
    assert "feeds/watch/merz.xml" in written  # "Merz" added again
    assert "sources/berliner-blatt/feeds/watch/merz.xml" in written
    assert "feed.xml" in written  # the takedown
    # feeds whose newest entries did not change are left as they were
    for kept in (
        "feeds/headlines.xml",
        "feeds/watch/wegner.xml",
        "sources/courier-world/feeds/headlines.xml",
        "sources/daily-politics/feed.xml",
    ):
        assert kept not in written, kept
    # the bridge's first event was an anomaly, a kind not listed: the takedown is its second
    assert f"{BASE_URL}articles/{bridge}/#e2" in entry_ids(out / "feed.xml")
    # and the hourly site is the full build's, byte for byte
    fresh = tmp_path / "fresh"
    build(data, fresh, full=True)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_changing_the_watched_terms_rebuilds_their_feeds(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    write(data)
    build(data, out)
    build(data, out, watch=("Senat",))
    assert not (out / "feeds/watch/merz.xml").exists()  # no longer watched: removed
    # "Senat" occurs as often before as after in every edit: watched, but no entry yet
    assert entries(out / "feeds/watch/senat.xml") == []
    fresh = tmp_path / "fresh"
    build(data, fresh, watch=("Senat",))
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
