"""Feed and sitemap entries become re-check candidates with plausible dates."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from quietedit.decide.candidates import feed_candidates, sitemap_candidates
from quietedit.feeds.parse import parse_feed
from quietedit.feeds.sitemaps import parse_sitemap

URL = "https://www.example-courier.test/world/rss.xml"
FETCHED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def item(
    guid: str, *, pub: str | None = None, updated: str | None = None, link: bool = True
) -> str:
    parts = [f"<guid isPermaLink='false'>{guid}</guid><title>{guid}</title>"]
    if link:
        parts.append(f"<link>https://www.example-courier.test/{guid}</link>")
    if pub:
        parts.append(f"<pubDate>{pub}</pubDate>")
    if updated:
        parts.append(f"<atom:updated>{updated}</atom:updated>")
    return "<item>" + "".join(parts) + "</item>"


def candidates(*items: str) -> dict[str, tuple[datetime, str, datetime | None]]:
    body = (
        "<rss version='2.0' xmlns:atom='http://www.w3.org/2005/Atom'><channel><title>W</title>"
        + "".join(items)
        + "</channel></rss>"
    )
    feed = parse_feed(body.encode(), url=URL, fetched_at=FETCHED)
    return {
        c.entry_id or "": (c.published_at, c.published_from, c.updated_claim)
        for c in feed_candidates(feed, discovered_at=FETCHED)
    }


def test_published_then_updated_then_discovery() -> None:
    found = candidates(
        item("pub", pub="Mon, 30 Nov 2026 07:00:00 GMT", updated="2026-11-30T09:00:00Z"),
        item("upd", updated="2026-11-30T09:00:00Z"),
        item("none"),
    )
    assert found == {
        "pub": (
            datetime(2026, 11, 30, 7, tzinfo=UTC),
            "published",
            datetime(2026, 11, 30, 9, tzinfo=UTC),
        ),
        "upd": (
            datetime(2026, 11, 30, 9, tzinfo=UTC),
            "updated",
            datetime(2026, 11, 30, 9, tzinfo=UTC),
        ),
        "none": (FETCHED, "discovered", None),
    }


def test_dates_before_1995_or_in_the_future_are_not_believed() -> None:
    found = candidates(
        item("epoch", pub="Thu, 01 Jan 1970 00:00:00 GMT", updated="2026-11-30T10:00:00Z"),
        item("future", pub="Tue, 01 Dec 2026 12:00:00 GMT", updated="2030-01-01T00:00:00Z"),
        item("garbage", pub="soon"),
    )
    assert found["epoch"] == (
        datetime(2026, 11, 30, 10, tzinfo=UTC),
        "updated",
        datetime(2026, 11, 30, 10, tzinfo=UTC),
    )
    assert found["future"] == (FETCHED, "discovered", None)
    assert found["garbage"] == (FETCHED, "discovered", None)


def test_an_archive_article_entering_the_feed_keeps_its_age() -> None:
    found = candidates(item("old", pub="Tue, 03 Mar 2015 10:00:00 GMT"))
    assert found["old"][0] == datetime(2015, 3, 3, 10, tzinfo=UTC)


def test_entries_without_a_link_or_with_a_repeated_link_yield_no_candidate() -> None:
    body = (
        "<rss version='2.0'><channel><title>W</title>"
        "<item><guid>a</guid><link>https://x.example/1</link></item>"
        "<item><guid>b</guid><link>https://x.example/1</link></item>"
        "<item><guid isPermaLink='false'>c</guid><title>no link</title></item>"
        "</channel></rss>"
    )
    feed = parse_feed(body.encode(), url=URL)
    assert [(c.url, c.entry_id) for c in feed_candidates(feed, discovered_at=FETCHED)] == [
        ("https://x.example/1", "a")
    ]


def test_sitemap_urls_use_the_news_date_then_lastmod() -> None:
    body = b"""<urlset xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
      <url><loc>https://x.example/a</loc><lastmod>2026-11-30T11:00:00Z</lastmod>
        <news:news><news:publication_date>2026-11-30T06:00:00Z</news:publication_date>
        <news:title>A</news:title></news:news></url>
      <url><loc>https://x.example/b</loc><lastmod>2026-11-29T11:00:00Z</lastmod></url>
      <url><loc>https://x.example/c</loc></url>
    </urlset>"""
    sitemap = parse_sitemap(body, url="https://x.example/news.xml", fetched_at=FETCHED)
    found = [
        (c.url, c.published_at, c.published_from, c.updated_claim, c.title)
        for c in sitemap_candidates(sitemap, discovered_at=FETCHED)
    ]
    assert found == [
        (
            "https://x.example/a",
            datetime(2026, 11, 30, 6, tzinfo=UTC),
            "published",
            datetime(2026, 11, 30, 11, tzinfo=UTC),
            "A",
        ),
        (
            "https://x.example/b",
            datetime(2026, 11, 29, 11, tzinfo=UTC),
            "updated",
            datetime(2026, 11, 29, 11, tzinfo=UTC),
            None,
        ),
        ("https://x.example/c", FETCHED, "discovered", None, None),
    ]


def test_a_naive_discovery_time_is_a_programming_error() -> None:
    feed = parse_feed(b"<rss version='2.0'><channel><title>W</title></channel></rss>", url=URL)
    with pytest.raises(ValueError, match="no timezone"):
        feed_candidates(feed, discovered_at=datetime(2026, 11, 30))  # noqa: DTZ001
