"""Polling feeds over real HTTP: conditional polls, pages, sitemaps, failures, back-off."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytest_httpserver import HTTPServer

from quietedit.config import FeedConfig, parse_config
from quietedit.decide.memory import FeedState
from quietedit.decide.poll import PollResult
from quietedit.fetch import Fetcher
from quietedit.ingest.poll import poll_feed

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
RSS = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Desk</title>'
    "<item><title>{title}</title><link>{base}/news/a</link><guid>a</guid>"
    "<description>Teaser.</description><pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate>"
    "{updated}</item></channel></rss>"
)


def poll(server: HTTPServer, state: FeedState, config: FeedConfig) -> PollResult:
    settings = parse_config(None, environ={}, source="-", base_dir=Path()).settings

    async def go() -> PollResult:
        async with Fetcher(settings, allow_private=True, politeness=False) as fetcher:
            return await poll_feed(fetcher, state, config, now=NOW)

    return asyncio.run(go())


def feed(server: HTTPServer, path: str = "/feed.xml") -> tuple[FeedState, FeedConfig]:
    url = server.url_for(path)
    return FeedState("desk", url, "Desk"), FeedConfig(url, "Desk", "desk", (), True)


def rss(server: HTTPServer, title: str = "Council approves budget", updated: str = "") -> str:
    return RSS.format(title=title, base=server.url_for("").rstrip("/"), updated=updated)


def test_a_second_poll_is_conditional_and_a_304_costs_no_parsing(httpserver: HTTPServer) -> None:
    state, config = feed(httpserver)
    httpserver.expect_ordered_request("/feed.xml").respond_with_data(
        rss(httpserver), content_type="application/rss+xml", headers={"ETag": '"v1"'}
    )
    httpserver.expect_ordered_request(
        "/feed.xml", headers={"If-None-Match": '"v1"'}
    ).respond_with_data("", status=304)
    first = poll(httpserver, state, config)
    assert (first.status, first.feed.etag, len(first.candidates)) == ("polled", '"v1"', 1)
    second = poll(httpserver, first.feed, config)
    assert second.status == "not-modified"
    assert second.feed.not_modified == 1
    assert second.candidates == ()
    httpserver.check_assertions()


def test_headline_edits_and_updated_claims_are_found_between_polls(httpserver: HTTPServer) -> None:
    state, config = feed(httpserver)
    httpserver.expect_ordered_request("/feed.xml").respond_with_data(
        rss(httpserver, updated="<updated>2026-11-30T10:00:00Z</updated>"),
        content_type="application/rss+xml",
    )
    httpserver.expect_ordered_request("/feed.xml").respond_with_data(
        rss(
            httpserver, "Council approves larger budget", "<updated>2026-11-30T11:00:00Z</updated>"
        ),
        content_type="application/rss+xml",
    )
    first = poll(httpserver, state, config)
    assert (first.changes, first.claims) == ((), frozenset())
    second = poll(httpserver, first.feed, config)
    assert [c.fields for c in second.changes] == [("title",)]
    assert second.changes[0].previous is not None
    assert second.changes[0].previous.title == "Council approves budget"
    assert second.claims == {httpserver.url_for("/news/a")}


def test_a_web_page_is_searched_for_its_feed_and_the_feed_remembered(
    httpserver: HTTPServer,
) -> None:
    state, config = feed(httpserver, "/politics")
    httpserver.expect_request("/politics").respond_with_data(
        '<html><head><link rel="alternate" type="application/rss+xml" href="/politics/rss">'
        "</head><body>Politics</body></html>",
        content_type="text/html",
    )
    httpserver.expect_request("/politics/rss").respond_with_data(
        rss(httpserver), content_type="application/rss+xml"
    )
    result = poll(httpserver, state, config)
    assert result.status == "polled"
    assert result.feed.resolved_url == httpserver.url_for("/politics/rss")
    assert [c.url for c in result.candidates] == [httpserver.url_for("/news/a")]


def test_a_page_without_a_feed_is_a_clear_failure(httpserver: HTTPServer) -> None:
    state, config = feed(httpserver, "/about")
    httpserver.expect_request("/about").respond_with_data(
        "<p>About us</p>", content_type="text/html"
    )
    result = poll(httpserver, state, config)
    assert result.status == "failed"
    assert result.error is not None
    assert "advertises no feed" in result.error
    assert (result.feed.failures, result.feed.failures_total) == (1, 1)


def test_a_news_sitemap_index_is_read_like_a_feed(httpserver: HTTPServer) -> None:
    state, config = feed(httpserver, "/sitemap.xml")
    httpserver.expect_request("/sitemap.xml").respond_with_data(
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{httpserver.url_for('/news-sitemap.xml')}</loc>"
        "<lastmod>2026-11-30T11:00:00Z</lastmod></sitemap></sitemapindex>",
        content_type="application/xml",
    )
    httpserver.expect_request("/news-sitemap.xml").respond_with_data(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">'
        f"<url><loc>{httpserver.url_for('/news/b')}</loc><lastmod>2026-11-30T11:30:00Z</lastmod>"
        "<news:news><news:publication_date>2026-11-30T09:00:00Z</news:publication_date>"
        "<news:title>Ferries stopped</news:title></news:news></url></urlset>",
        content_type="application/xml",
    )
    result = poll(httpserver, state, config)
    assert result.status == "polled"
    assert result.feed.kind == "sitemap"
    [candidate] = result.candidates
    assert (candidate.url, candidate.title) == (httpserver.url_for("/news/b"), "Ferries stopped")
    assert candidate.published_at == datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_a_failing_feed_is_skipped_while_it_backs_off_then_polled_again(
    httpserver: HTTPServer,
) -> None:
    state, config = feed(httpserver)
    failing = replace(state, failures=3, last_polled_at=NOW - timedelta(minutes=30))
    skipped = poll(httpserver, failing, config)
    assert skipped.status == "skipped"
    assert skipped.error is not None
    assert "backing off" in skipped.error
    httpserver.expect_request("/feed.xml").respond_with_data(
        rss(httpserver), content_type="application/rss+xml"
    )
    later = replace(failing, last_polled_at=NOW - timedelta(hours=1))
    recovered = poll(httpserver, later, config)
    assert (recovered.status, recovered.feed.failures) == ("polled", 0)


def test_a_feed_that_renames_its_entries_every_poll_keeps_one_snapshot_each_and_says_so(
    httpserver: HTTPServer,
) -> None:
    state, config = feed(httpserver)
    base = httpserver.url_for("").rstrip("/")
    for n, title in enumerate(["Council approves budget"] * 3 + ["Council approves cuts"]):
        body = RSS.format(title=title, base=base, updated="").replace(
            "<guid>a</guid>", f"<guid>urn:uuid:7f3c-{n:04d}</guid>"
        )
        httpserver.clear()
        httpserver.expect_request("/feed.xml").respond_with_data(
            body, content_type="application/rss+xml"
        )
        result = poll(httpserver, state, config)
        state = result.feed
        assert list(state.entries) == [f"urn:uuid:7f3c-{n:04d}"]
    assert [c.fields for c in result.changes] == [("title",)]  # the last poll's real edit
    assert "changed their id since the last poll" in state.problems[0]


def test_a_feed_wrapped_in_an_xhtml_page_is_polled_as_a_feed(httpserver: HTTPServer) -> None:
    state, config = feed(httpserver, "/feed.xhtml")
    base = httpserver.url_for("").rstrip("/")
    page = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Subscribe</title></head>'
        "<body><p>Paste this address into your reader.</p>"
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>Desk</title><id>urn:desk</id>'
        f"<updated>2026-11-30T10:00:00Z</updated><entry><title>Council approves budget</title>"
        f'<link href="{base}/news/a"/><id>urn:desk:a</id>'
        "<updated>2026-11-30T10:00:00Z</updated></entry></feed></body></html>"
    )
    httpserver.expect_request("/feed.xhtml").respond_with_data(
        page, content_type="application/xhtml+xml"
    )
    result = poll(httpserver, state, config)
    assert result.status == "polled"
    assert [c.url for c in result.candidates] == [f"{base}/news/a"]
