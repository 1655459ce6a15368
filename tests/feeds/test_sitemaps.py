"""parse_sitemap: news sitemaps, sitemap indexes, lastmod as a publisher signal, and limits."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.errors import FeedParseError
from quietedit.feeds.sitemaps import parse_sitemap

URL = "https://www.example-courier.test/sitemaps/news.xml"
FETCHED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

NEWS_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://www.example-courier.test/world/2026/nov/30/ceasefire-talks</loc>
    <lastmod>2026-11-30T10:41:00+01:00</lastmod>
    <news:news>
      <news:publication>
        <news:name>The Example Courier</news:name>
        <news:language>en</news:language>
      </news:publication>
      <news:publication_date>2026-11-30T09:02:00+01:00</news:publication_date>
      <news:title>Ceasefire talks resume in Geneva &amp; aid convoys wait</news:title>
      <news:keywords>Geneva, ceasefire</news:keywords>
    </news:news>
    <image:image><image:loc>https://i.example-courier.test/geneva.jpg</image:loc></image:image>
  </url>
  <url>
    <loc>/business/2026/nov/30/central-bank-holds-rates</loc>
    <lastmod>2026-11-30</lastmod>
  </url>
  <url>
    <loc>javascript:alert(1)</loc>
  </url>
  <url>
    <loc>https://www.example-courier.test/future</loc>
    <lastmod>2027-01-01T00:00:00Z</lastmod>
  </url>
</urlset>
"""

INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.example-courier.test/sitemaps/news.xml</loc><lastmod>2026-11-30T11:00:00Z</lastmod></sitemap>
  <sitemap><loc>/sitemaps/2026-11.xml.gz</loc></sitemap>
</sitemapindex>
"""


def test_a_news_sitemap_gives_urls_titles_publication_dates_and_lastmod() -> None:
    sitemap = parse_sitemap(NEWS_SITEMAP.encode(), url=URL, fetched_at=FETCHED)
    assert sitemap.kind == "urlset"
    first, second, future = sitemap.entries
    assert first.url == "https://www.example-courier.test/world/2026/nov/30/ceasefire-talks"
    assert first.news_title == "Ceasefire talks resume in Geneva & aid convoys wait"
    assert first.news_publication == "The Example Courier"
    assert first.news_language == "en"
    assert first.news_published is not None and first.lastmod is not None
    assert first.news_published.value == datetime(2026, 11, 30, 8, 2, tzinfo=UTC)
    assert first.lastmod.value == datetime(2026, 11, 30, 9, 41, tzinfo=UTC)
    assert (
        second.url
        == "https://www.example-courier.test/business/2026/nov/30/central-bank-holds-rates"
    )
    assert second.lastmod is not None and second.lastmod.exact is False
    assert second.news_title is None
    assert future.lastmod is not None and future.lastmod.clamped
    assert any("url 3:" in p and "only http(s)" in p for p in sitemap.problems)


def test_a_sitemap_index_lists_further_sitemaps() -> None:
    sitemap = parse_sitemap(INDEX.encode(), url=URL, fetched_at=FETCHED)
    assert sitemap.kind == "sitemapindex"
    assert sitemap.entries == ()
    assert [s.url for s in sitemap.sitemaps] == [
        "https://www.example-courier.test/sitemaps/news.xml",
        "https://www.example-courier.test/sitemaps/2026-11.xml.gz",
    ]
    assert sitemap.sitemaps[0].lastmod is not None


def test_a_gzipped_sitemap_is_read() -> None:
    sitemap = parse_sitemap(gzip.compress(NEWS_SITEMAP.encode()), url=URL, fetched_at=FETCHED)
    assert len(sitemap.entries) == 3


def test_a_gzip_bomb_is_refused() -> None:
    bomb = gzip.compress(b"<urlset>" + b" " * 5_000_000 + b"</urlset>")
    assert len(bomb) < 10_000
    with pytest.raises(FeedParseError, match="inflates to more than 1000000 bytes"):
        parse_sitemap(bomb, url=URL, fetched_at=FETCHED, max_bytes=1_000_000)


def test_urls_beyond_the_cap_are_not_read_and_the_cut_is_recorded() -> None:
    urls = "".join(f"<url><loc>https://x.example/{n}</loc></url>" for n in range(500))
    sitemap = parse_sitemap(
        f"<urlset>{urls}</urlset>".encode(), url=URL, fetched_at=None, max_urls=100
    )
    assert len(sitemap.entries) == 100
    assert "more than 100 URLs; only the first 100 are read" in sitemap.problems


def test_a_truncated_sitemap_keeps_what_was_read() -> None:
    body = NEWS_SITEMAP.encode()[: NEWS_SITEMAP.index("<url>\n    <loc>/business")]
    sitemap = parse_sitemap(body, url=URL, fetched_at=FETCHED)
    assert len(sitemap.entries) == 1
    assert any("not well-formed XML" in p for p in sitemap.problems)


def test_elements_without_the_sitemap_namespace_still_read() -> None:
    body = (
        b"<urlset><url><loc>https://x.example/a</loc><lastmod>2026-11-30</lastmod></url></urlset>"
    )
    assert [e.url for e in parse_sitemap(body, url=URL, fetched_at=None).entries] == [
        "https://x.example/a"
    ]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"<rss version='2.0'><channel/></rss>", "not a sitemap: the root is <rss>"),
        (b"not xml at all", "not well-formed XML"),
        (b"", "not well-formed XML"),
    ],
)
def test_a_body_that_is_no_sitemap_is_one_clear_error(body: bytes, reason: str) -> None:
    with pytest.raises(FeedParseError) as caught:
        parse_sitemap(body, url=URL, fetched_at=None)
    assert str(caught.value).startswith(f"sitemap {URL}: ")
    assert reason in str(caught.value)


@settings(max_examples=100, deadline=None)
@given(
    st.binary(max_size=500)
    | st.text(max_size=300).map(lambda t: f"<urlset><url><loc>{t}</loc></url></urlset>".encode())
)
def test_any_body_gives_a_sitemap_or_a_clear_error(body: bytes) -> None:
    try:
        sitemap = parse_sitemap(body, url=URL, fetched_at=FETCHED)
    except FeedParseError:
        return
    for entry in sitemap.entries:
        assert entry.url.startswith(("http://", "https://"))
