"""Homepages on the site: the JSON API file of each, its page of changed headlines and its
Atom feed, from a front page polled hourly on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from selectolax.lexbor import LexborHTMLParser

from quietedit.archive.store import Archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.publish import BuildOptions, build_site
from tests.ingest.test_homepage import BRIDGE, BUDGET, DERBY, Front, at, config, poll
from tests.publish.atomcheck import atom_problems

BASE_URL = "https://watch.example.org/"


@pytest.fixture(scope="module")
def archive_and_front(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The archive of a front page polled in hours 0 to 5, and the front's URL."""
    tmp = tmp_path_factory.mktemp("front")
    server = HTTPServer()
    server.start()
    try:
        front = Front(server)
        poll(front, config(tmp, front), Archive(tmp / "data"), [0, 1, 2, 3, 4, 5])
        base = canonical_url(front.url("/"))
    finally:
        server.clear()
        server.stop()
    return tmp / "data", base


def build(data: Path, out: Path) -> list[str]:
    report = build_site(BuildOptions(data=data, out=out, base_url=BASE_URL, search=False))
    assert report.failures == ()
    return list(report.written)


def test_the_api_file_lists_each_link_with_its_headlines(
    archive_and_front: tuple[Path, str], tmp_path: Path
) -> None:
    data, base = archive_and_front
    build(data, tmp_path)
    found = json.loads((tmp_path / "api" / "homepages" / "chronicle-front.json").read_text())
    assert found["source"] == "chronicle-front"
    assert found["polled_at"] == at(5)
    links = {link["url"].removeprefix(base): link for link in found["links"]}
    assert set(links) == {s.path.lstrip("/") for s in (BRIDGE, BUDGET, DERBY)}
    bridge = links[BRIDGE.path.lstrip("/")]
    assert bridge["headlines"] == [
        {"text": BRIDGE.headlines[0], "first_seen": at(0), "last_seen": at(4)},
        {"text": BRIDGE.headlines[1], "first_seen": at(1), "last_seen": at(5)},
    ]
    assert bridge["on_page"] is True
    assert bridge["document"] == document_id(bridge["url"])
    assert links[DERBY.path.lstrip("/")]["on_page"] is False
    for link in found["links"]:
        assert set(link) == {"url", "document", "on_page", "headlines"}
        for headline in link["headlines"]:
            assert set(headline) == {"text", "first_seen", "last_seen"}


def test_the_page_lists_the_links_whose_headline_changed_and_its_feed_is_valid(
    archive_and_front: tuple[Path, str], tmp_path: Path
) -> None:
    data, base = archive_and_front
    build(data, tmp_path)
    page = LexborHTMLParser(
        (tmp_path / "homepages" / "chronicle-front" / "index.html").read_text(encoding="utf-8")
    )
    listed = [a.text() for a in page.css("section.homepage-link p.meta a")]
    # the newest change first: the retitle (hour 3), then the A/B test (its B from hour 1)
    assert [url.removeprefix(base) for url in listed] == [
        BUDGET.path.lstrip("/"),
        BRIDGE.path.lstrip("/"),
    ]
    feed = (tmp_path / "homepages" / "chronicle-front" / "feed.xml").read_bytes()
    assert atom_problems(feed) == ()
    assert feed.count(b"<entry>") == 2
    assert "“Council budget passes by a single vote” (was “Council approves".encode() in feed
    index = (tmp_path / "homepages" / "index.html").read_text(encoding="utf-8")
    assert "Northern Chronicle front page" in index and "2 with more than one headline" in index


def test_a_build_with_nothing_new_rewrites_no_homepage_file(
    archive_and_front: tuple[Path, str], tmp_path: Path
) -> None:
    data, _ = archive_and_front
    first = build(data, tmp_path)
    assert "api/homepages/chronicle-front.json" in first
    assert "homepages/chronicle-front/feed.xml" in first
    second = build(data, tmp_path)
    assert [path for path in second if "homepages" in path] == []
