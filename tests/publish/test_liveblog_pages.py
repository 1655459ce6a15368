"""A live blog on the site: its live updates listed and in their own feed, its edits diffed
post by post, never one edit per new post."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from selectolax.lexbor import LexborHTMLParser

from quietedit.archive.store import Archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.publish import BuildOptions, build_site
from tests.ingest.test_liveblog import LiveDesk, config_path, play
from tests.liveblog_site import PATH, LiveBlog
from tests.publish.atomcheck import atom_problems

BASE_URL = "https://watch.example.org/"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A live blog ingested over 14 rounds (a post corrected in round 6, one deleted in
    round 10, the key points rewritten in round 12), and its site."""
    tmp = tmp_path_factory.mktemp("live")
    server = HTTPServer()
    server.start()
    try:
        desk = LiveDesk(server, LiveBlog(shown=5))
        desk.blog.add(1)

        def correct(blog: LiveBlog) -> None:
            post = next(p for p in blog.posts if p.key == "block-0004")
            post.paragraphs[1] = post.paragraphs[1].replace("changing", "improving")

        def delete(blog: LiveBlog) -> None:
            blog.posts = [p for p in blog.posts if p.key != "block-0008"]

        def key_points(blog: LiveBlog) -> None:
            blog.key_points[0] = "The high-level bridge has reopened to cars and buses"

        desk.script = {6: correct, 10: delete, 12: key_points}
        archive = Archive(tmp / "data")
        play(desk, config_path(tmp, desk), archive, range(1, 15))
        doc = document_id(canonical_url(desk.url(PATH)))
    finally:
        server.clear()
        server.stop()
    out = tmp / "site"
    build_site(BuildOptions(data=tmp / "data", out=out, base_url=BASE_URL, search=False))
    return out, doc


def test_the_live_blog_has_three_edits_and_thirteen_live_updates(built: tuple[Path, str]) -> None:
    site, doc = built
    data = json.loads((site / "api" / "documents" / f"{doc}.json").read_text(encoding="utf-8"))
    assert [d["new"] for d in data["diffs"]] == [2, 3, 4]
    live = [e for e in data["events"] if e["kind"] == "live-update" and e["detail"]["count"]]
    assert len(live) == 13 and sum(e["detail"]["count"] for e in live) == 13
    # the site-wide feed of edits has the three edits, not a post each
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert feed.count("<entry>") == 3


def test_each_edit_shows_only_what_was_edited(built: tuple[Path, str]) -> None:
    site, doc = built
    data = json.loads((site / "api" / "documents" / f"{doc}.json").read_text(encoding="utf-8"))
    table = data["blocks"]
    by_new = {d["new"]: d["diff"] for d in data["diffs"]}
    changed = by_new[2]["blocks"]
    # the corrected post is the only change: new posts and those paged out are not in it
    assert [b["op"] for b in changed] == ["changed"]
    new_text = table[data["revisions"][1]["blocks"][changed[0]["new"]]][1]
    assert new_text.endswith("says conditions are improving quickly.")
    assert changed[0]["old"] is None  # the post's earlier text is its live update's
    assert "added" not in by_new[2]["summary"] and "removed" not in by_new[2]["summary"]  # 0
    # the deleted post: removed blocks, and nothing else
    assert {b["op"] for b in by_new[3]["blocks"]} == {"removed"}
    assert by_new[3]["summary"]["removed"] == 3  # the post's heading and two paragraphs
    # the rewritten key point
    assert [b["op"] for b in by_new[4]["blocks"]] == ["changed"]
    classification = data["diffs"][0]["classification"]
    assert "added" not in classification["kinds"] and "removed" not in classification["kinds"]


def test_the_article_page_lists_the_live_updates_and_their_feed_is_valid(
    built: tuple[Path, str],
) -> None:
    site, doc = built
    page = LexborHTMLParser((site / "articles" / doc / "index.html").read_text(encoding="utf-8"))
    section = page.css_first("section.live-updates")
    assert section is not None
    items = section.css("ol.live > li")
    assert len(items) == 13
    assert "13 in 13 runs" in section.text()
    anchors = [item.attributes["id"] or "" for item in items]
    assert all(re.fullmatch(r"live-\d+", anchor) for anchor in anchors)
    numbers = [int(anchor.removeprefix("live-")) for anchor in anchors]
    assert numbers == sorted(numbers, reverse=True)  # newest first
    first = items[-1].text()
    assert "Update from" in first
    # the live updates are not in the events list, which holds other kinds only
    events = page.css_first("section ul.events")
    assert events is None or "live-update" not in events.text()
    feed = (site / "articles" / doc / "live.xml").read_bytes()
    assert atom_problems(feed) == ()
    assert feed.count(b"<entry>") == 13
    assert b"1 new post: Update from" in feed
