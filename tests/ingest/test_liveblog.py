"""A live blog on loopback over many rounds: new posts are live updates, edits are edits."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.config import load_config
from quietedit.decide.memory import document_from_record
from quietedit.ingest.run import IngestReport, run_ingest
from quietedit.revisions import Event
from tests.liveblog_site import PATH, START, LiveBlog

ROUND = timedelta(minutes=15)


class LiveDesk:
    """A newsroom serving a feed that lists one live blog, and the live blog itself."""

    def __init__(self, server: HTTPServer, blog: LiveBlog) -> None:
        self.server = server
        self.blog = blog
        self.now = START
        self.script: dict[int, Callable[[LiveBlog], None]] = {}  # round -> what the desk does
        server.expect_request("/robots.txt").respond_with_data(
            "User-agent: *\nDisallow: /account/\n", content_type="text/plain"
        )
        server.expect_request("/feed.xml").respond_with_handler(self.feed)
        server.expect_request(PATH).respond_with_handler(self.live)

    def url(self, path: str) -> str:
        return self.server.url_for(path)

    def feed(self, request: Request) -> Response:
        body = (
            '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>Northern Chronicle</title><link>{self.url('/')}</link>"
            "<description>News</description><item><title>Storm Ida live</title>"
            f"<link>{self.url(PATH)}</link><guid>{self.url(PATH)}</guid>"
            "<pubDate>Mon, 30 Nov 2026 06:00:00 GMT</pubDate></item></channel></rss>"
        )
        return Response(body, content_type="application/rss+xml")

    def live(self, request: Request) -> Response:
        return Response(self.blog.page(self.now), content_type="text/html; charset=utf-8")


@pytest.fixture
def desk() -> Iterator[LiveDesk]:
    server = HTTPServer()
    server.start()
    yield LiveDesk(server, LiveBlog(shown=6))
    server.clear()
    server.stop()


def posts(event: Event) -> list[Any]:
    """The new posts a ``live-update`` event holds."""
    found = event.detail["entries"]
    assert isinstance(found, list)
    return found


def config_path(tmp_path: Path, desk: LiveDesk, extra: str = "") -> Path:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        "feeds:\n"
        f"  - url: {desk.url('/feed.xml')}\n"
        "    name: Northern Chronicle\n"
        f"{extra}"
        "settings:\n"
        "  allow_private_addresses: true\n"
        "  politeness:\n"
        "    min_host_interval: 0s\n"
        "  fetch:\n"
        "    retries: 0\n",
        encoding="utf-8",
    )
    return path


def play(desk: LiveDesk, path: Path, archive: Archive, rounds: range) -> list[IngestReport]:
    """Run one ingest per round; before round ``r`` the desk publishes post ``r`` and does
    what ``desk.script`` says for that round."""
    config = load_config(path, environ={})
    reports = []
    for number in rounds:
        desk.now = START + ROUND * number
        if number > 1:
            desk.blog.add(number)
        if number in desk.script:
            desk.script[number](desk.blog)
        reports.append(run_ingest(config, archive, now=desk.now, simulated=True))
    return reports


def test_new_posts_are_live_updates_and_edited_posts_are_edits(
    desk: LiveDesk, tmp_path: Path
) -> None:
    desk.blog.add(1)

    def correct(blog: LiveBlog) -> None:  # an earlier post corrected in place
        post = next(p for p in blog.posts if p.key == "block-0003")
        post.paragraphs[0] = re.sub(r"\d+", "1,200", post.paragraphs[0], count=1)

    def delete(blog: LiveBlog) -> None:  # a post still on the page taken out
        blog.posts = [p for p in blog.posts if p.key != "block-0007"]

    desk.script = {5: correct, 9: delete}
    archive = Archive(tmp_path / "data")
    reports = play(desk, config_path(tmp_path, desk), archive, range(1, 13))
    assert verify_archive(archive.root).problems == ()

    doc = document_id(canonical_url(desk.url(PATH)))
    revisions = archive.revisions(doc)
    events = [e for e in archive.events(doc) if e.kind == "live-update"]
    # revision 1, the corrected post (round 5), the deleted post (round 9): three revisions
    assert [r.number for r in revisions] == [1, 2, 3]
    assert [r.observation.observed_at for r in revisions] == [START + ROUND * n for n in (1, 5, 9)]
    # one event per round from round 2 on, each holding that round's one new post
    updates = [e for e in events if e.detail["count"]]
    assert [e.observed_at for e in updates] == [START + ROUND * n for n in range(2, 13)]
    assert all(e.detail["count"] == 1 for e in updates)
    assert [posts(e)[0]["key"] for e in updates] == [f"block-{n:04d}" for n in range(2, 13)]
    first = posts(updates[0])[0]
    assert first["blocks"][0] == {"kind": "heading", "text": "Update from Durham"}
    # the revisions stored with a layout: the first (declared) and the two edits
    layouts = [e.revision for e in events if "layout" in e.detail]
    assert layouts == [1, 2, 3]
    assert events[0].detail["count"] == 0 and events[0].revision == 1
    edit_events = {
        e.revision: e.detail for e in events if e.revision in (2, 3) and "layout" in e.detail
    }
    assert edit_events[2]["changed"] == ["block-0003"]
    assert edit_events[3]["removed"] == ["block-0007"]
    # posts paged out below the sixth were never taken for deletions
    statuses = [dict(r.articles) for r in reports]
    assert statuses[0] == {"new-revision": 1}
    assert statuses[4] == {"new-revision": 1} and statuses[8] == {"new-revision": 1}
    assert all(s == {"live-update": 1} for i, s in enumerate(statuses) if i not in (0, 4, 8))
    record = archive.read_document(doc)
    assert record is not None
    state = document_from_record(doc, record)
    assert state.live is not None and state.live.confirmed
    assert state.live.updates == 11
    assert state.live.revision == 3
    # each live update kept its page as evidence, like a revision
    assert all("evidence" in e.detail for e in updates if e.revision != 2 and e.revision != 3)


def test_a_page_without_json_ld_becomes_a_live_blog_after_growing_twice(
    desk: LiveDesk, tmp_path: Path
) -> None:
    desk.blog.declared = False
    desk.blog.add(0)
    desk.blog.add(1)
    archive = Archive(tmp_path / "data")
    reports = play(desk, config_path(tmp_path, desk), archive, range(1, 6))
    doc = document_id(canonical_url(desk.url(PATH)))
    # round 2: a timestamped post at the top once is an edit of an article; from round 3
    # the page has shown itself as a live blog
    assert [dict(r.articles) for r in reports] == [
        {"new-revision": 1},
        {"new-revision": 1},
        {"live-update": 1},
        {"live-update": 1},
        {"live-update": 1},
    ]
    assert len(archive.revisions(doc)) == 2
    events = [e for e in archive.events(doc) if e.kind == "live-update"]
    # the confirming event gives the newest revision's layout, for the site's next diff
    assert events[0].revision == 2 and "layout" in events[0].detail
    assert [e.detail["count"] for e in events] == [1, 1, 1]


def test_excluded_live_blogs_are_not_tracked(desk: LiveDesk, tmp_path: Path) -> None:
    desk.blog.add(1)
    archive = Archive(tmp_path / "data")
    path = config_path(tmp_path, desk, "    exclude: [/live/]\n")
    reports = play(desk, path, archive, range(1, 3))
    assert [dict(r.articles) for r in reports] == [{}, {}]
    assert archive.document_ids() == []


def test_a_live_blog_already_archived_stops_being_fetched_once_excluded(
    desk: LiveDesk, tmp_path: Path
) -> None:
    desk.blog.add(1)
    archive = Archive(tmp_path / "data")
    play(desk, config_path(tmp_path, desk), archive, range(1, 3))
    path = config_path(tmp_path, desk, "    include: [/sport/]\n")
    reports = play(desk, path, archive, range(3, 5))
    assert [dict(r.articles) for r in reports] == [{}, {}]
    doc = document_id(canonical_url(desk.url(PATH)))
    assert len(archive.revisions(doc)) == 1  # kept, never deleted


def test_fifty_rounds_of_a_live_blog_are_one_live_blog_not_fifty_edits(
    desk: LiveDesk, tmp_path: Path
) -> None:
    desk.blog = LiveBlog(shown=20)
    desk.blog.add(1)

    def correct(blog: LiveBlog) -> None:
        blog.posts[5].paragraphs[0] = re.sub(r"\d+", "1,200", blog.posts[5].paragraphs[0], count=1)

    desk.script = {30: correct}
    archive = Archive(tmp_path / "data")
    reports = play(desk, config_path(tmp_path, desk), archive, range(1, 51))
    (doc,) = archive.document_ids()
    assert len(archive.revisions(doc)) == 2  # the first observation and the one correction
    updates = [e for e in archive.events(doc) if e.kind == "live-update" and e.detail["count"]]
    assert len(updates) == 49 and all(e.detail["count"] == 1 for e in updates)
    assert sum(r.articles["new-revision"] for r in reports) == 2
    assert sum(r.articles["live-update"] for r in reports) == 48  # round 30's is in its edit
