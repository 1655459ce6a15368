"""The Atom feeds and the RSS twin: well-formed, valid shape, one stable entry per edit."""

from __future__ import annotations

import re
from pathlib import Path

import feedparser
from lxml import etree

from tests.publish.conftest import BASE_URL

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")


def atom_feeds(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("feed.xml") if ".quietedit-cache" not in p.parts)


def test_feedparser_reads_every_feed_cleanly(built_site: Path) -> None:
    feeds = atom_feeds(built_site) + sorted(built_site.rglob("feed.rss"))
    assert len(feeds) >= 1 + 3 + 3  # main, per-source Atom and RSS
    for path in feeds:
        parsed = feedparser.parse(path.read_bytes())
        assert parsed.bozo == 0, (path, parsed.get("bozo_exception"))
        ids = [entry.id for entry in parsed.entries]
        assert len(ids) == len(set(ids)), path


def test_main_feed_has_one_entry_per_edit_newest_first_with_archive_dates(built_site: Path) -> None:
    parsed = feedparser.parse((built_site / "feed.xml").read_bytes())
    assert parsed.version == "atom10"
    # four edits, and the mayor's article taken down (an entry of its own)
    entries = parsed.entries
    assert len(entries) == 4 + 1
    gone = [e for e in entries if "#e" in e.id]
    assert [e.title.split(":")[0] for e in gone] == ["Taken down"]
    updated = [entry.updated for entry in entries]
    assert updated == sorted(updated, reverse=True)
    assert parsed.feed.updated == updated[0]  # the newest edit's time, not the build's
    bridge = next(e for e in entries if "despite cost doubts" in e.title)
    # the id is the edit's own address (it never changes); the link, the edit itself
    assert bridge.id.startswith(BASE_URL + "articles/") and bridge.id.endswith("/diff/3/")
    assert bridge.link == bridge.id.removesuffix("diff/3/") + "#r3"
    assert "headline" in bridge.title and "1 paragraph added" in bridge.content[0].value
    assert "<ins>" in bridge.content[0].value
    # a feed reader has no stylesheet to label the changes: the labels are text
    assert "[added: " in bridge.content[0].value


def test_every_atom_feed_meets_rfc_4287(built_site: Path) -> None:
    """The RFC's requirements, checked element by element (RELAX NG's rules, spelled out)."""
    for path in atom_feeds(built_site):
        feed = etree.fromstring(path.read_bytes())
        assert feed.tag == f"{ATOM}feed"
        for name in ("id", "title", "updated"):
            assert len(feed.findall(f"{ATOM}{name}")) == 1, (path, name)
        assert feed.find(f"{ATOM}author/{ATOM}name") is not None
        assert RFC3339.fullmatch(feed.findtext(f"{ATOM}updated") or ""), path
        assert feed.find(f"{ATOM}link[@rel='self']") is not None
        for entry in feed.findall(f"{ATOM}entry"):
            for name in ("id", "title", "updated"):
                assert len(entry.findall(f"{ATOM}{name}")) == 1, (path, name)
            assert RFC3339.fullmatch(entry.findtext(f"{ATOM}updated") or "")
            alternate = entry.find(f"{ATOM}link[@rel='alternate']")
            assert alternate is not None and alternate.get("href", "").startswith(BASE_URL)
            content = entry.find(f"{ATOM}content")
            if path.parent.parent.name == "articles":  # an article's own feed: compact
                assert content is None and entry.findtext(f"{ATOM}summary")
            else:
                assert content is not None and content.get("type") == "html"
            children = {child.tag for child in entry}
            assert children <= {
                f"{ATOM}{n}"
                for n in (
                    "id",
                    "title",
                    "updated",
                    "link",
                    "category",
                    "summary",
                    "content",
                )
            }


def test_rss_twin_carries_the_same_edits(built_site: Path) -> None:
    atom = feedparser.parse((built_site / "feed.xml").read_bytes())
    rss = feedparser.parse((built_site / "feed.rss").read_bytes())
    assert rss.version == "rss20" and rss.bozo == 0
    assert [e.id for e in rss.entries] == [e.id for e in atom.entries]
    assert [e.published_parsed for e in rss.entries] == [e.updated_parsed for e in atom.entries]


def test_articles_have_no_feed_of_their_own(built_site: Path) -> None:
    # an article's edits are in its source's feed: a feed per article cost more than its pages
    assert list((built_site / "articles").glob("*/feed.xml")) == []
