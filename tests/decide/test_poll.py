"""The feed poll decided on plain values: what was known and what was fetched -> the feed's
new state, its candidates, edits and claims."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from quietedit.config import FeedConfig
from quietedit.decide.memory import FeedState
from quietedit.decide.poll import (
    MAX_CHILD_SITEMAPS,
    Polled,
    is_sitemap,
    merged_sitemap,
    plan_poll,
    sitemap_children,
    skipped,
)
from quietedit.feeds.dates import normalize_date
from quietedit.feeds.entries import Feed
from quietedit.feeds.parse import parse_feed
from quietedit.feeds.sitemaps import Sitemap, SitemapEntry, SitemapRef
from quietedit.fetch.cache import CachedResponse

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
URL = "https://news.example.org/feed.xml"
ARTICLE = "https://news.example.org/politics/council-budget"
CONFIG = FeedConfig(URL, "Desk", "desk", (), True)
STATE = FeedState("desk", URL, "Desk", etag='"v0"')


def rss(title: str, updated: str = "2026-11-30T10:00:00Z", *, at: datetime = NOW) -> Feed:
    body = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Desk</title>'
        f"<item><title>{title}</title><link>{ARTICLE}</link><guid>a</guid>"
        "<description>Teaser.</description><pubDate>Mon, 30 Nov 2026 09:00:00 GMT</pubDate>"
        f"<updated>{updated}</updated></item></channel></rss>"
    ).encode()
    return parse_feed(body, url=URL, fetched_at=at)


def sitemap(lastmod: str, url: str = ARTICLE) -> Sitemap:
    date = normalize_date(lastmod, fetched_at=NOW)
    return Sitemap(URL, "urlset", (SitemapEntry(url, lastmod=date),), (), ())


def test_a_disabled_or_backing_off_feed_is_skipped_and_a_due_one_is_not() -> None:
    off = skipped(STATE, replace(CONFIG, enabled=False), now=NOW)
    assert off is not None and (off.status, off.error) == ("skipped", "disabled in feeds.yaml")
    failing = replace(STATE, failures=3, last_polled_at=NOW - timedelta(minutes=30))
    waiting = skipped(failing, CONFIG, now=NOW)
    assert waiting is not None and waiting.error is not None
    assert waiting.error.startswith("backing off until")
    assert (
        skipped(replace(failing, last_polled_at=NOW - timedelta(hours=1)), CONFIG, now=NOW) is None
    )


def test_a_304_is_a_success_that_keeps_the_validators_and_clears_the_failures() -> None:
    failing = replace(STATE, failures=2, polls=5, last_error="timeout")
    result = plan_poll(failing, Polled(not_modified=True), now=NOW)
    assert result.status == "not-modified"
    feed = result.feed
    assert (feed.polls, feed.not_modified, feed.failures, feed.etag) == (6, 1, 0, '"v0"')
    assert (feed.last_polled_at, feed.last_success_at, feed.last_error) == (NOW, NOW, None)
    assert result.candidates == ()


def test_a_failure_counts_in_a_row_and_in_total_and_keeps_the_feed_a_page_advertised() -> None:
    found = "https://news.example.org/politics/rss"
    polled = Polled(error="feed is not XML", resolved_url=found)
    result = plan_poll(replace(STATE, failures=1, failures_total=4), polled, now=NOW)
    assert (result.status, result.error) == ("failed", "feed is not XML")
    feed = result.feed
    assert (feed.failures, feed.failures_total, feed.last_error) == (2, 5, "feed is not XML")
    assert (feed.resolved_url, feed.last_success_at) == (found, None)


def test_a_first_poll_lists_its_candidates_and_takes_the_new_validators() -> None:
    validators = CachedResponse(URL, b"", None, '"v1"', None)
    result = plan_poll(
        STATE, Polled(rss("Council approves budget"), validators=validators), now=NOW
    )
    assert result.status == "polled"
    assert [c.url for c in result.candidates] == [ARTICLE]
    assert (result.changes, result.claims) == ((), frozenset())
    assert (result.feed.kind, result.feed.etag, result.feed.entries_seen) == ("rss", '"v1"', 1)
    assert list(result.feed.entries) == ["a"]


def test_a_headline_edit_and_a_newer_updated_date_are_an_edit_and_a_claim() -> None:
    first = plan_poll(STATE, Polled(rss("Council approves budget")), now=NOW - timedelta(hours=1))
    later = rss("Council approves larger budget", "2026-11-30T11:00:00Z")
    second = plan_poll(first.feed, Polled(later), now=NOW)
    [change] = second.changes
    assert change.fields == ("title",)
    assert change.previous is not None and change.previous.title == "Council approves budget"
    assert second.claims == {ARTICLE}


def test_a_changed_sitemap_lastmod_is_a_claim_and_a_first_one_is_not() -> None:
    first = plan_poll(STATE, Polled(sitemap("2026-11-30T10:00:00Z")), now=NOW)
    assert (first.feed.kind, first.claims) == ("sitemap", frozenset())
    same = plan_poll(first.feed, Polled(sitemap("2026-11-30T10:00:00Z")), now=NOW)
    assert same.claims == frozenset()
    changed = plan_poll(first.feed, Polled(sitemap("2026-11-30T11:30:00Z")), now=NOW)
    assert changed.claims == {ARTICLE}


def test_an_index_reads_its_newest_children_merged_in_order() -> None:
    refs = tuple(
        SitemapRef(f"https://news.example.org/sitemap-{day}.xml", normalize_date(
            f"2026-11-{day}T00:00:00Z", fetched_at=NOW))
        for day in (26, 30, 28, 29, 27)
    )  # fmt: skip
    index = Sitemap(URL, "sitemapindex", (), refs, ("a stray <foo>",))
    chosen = sitemap_children(index)
    assert len(chosen) == MAX_CHILD_SITEMAPS
    assert [ref.url[-6:-4] for ref in chosen] == ["30", "29", "28"]
    a, b = sitemap("2026-11-30T10:00:00Z"), sitemap("2026-11-29T10:00:00Z", ARTICLE + "-2")
    merged = merged_sitemap(index, [a, replace(b, problems=("no lastmod",))])
    assert (merged.kind, merged.url) == ("urlset", URL)
    assert [entry.url for entry in merged.entries] == [ARTICLE, ARTICLE + "-2"]
    assert merged.problems == ("a stray <foo>", "no lastmod")


def test_sitemaps_are_told_from_feeds_by_their_root() -> None:
    assert is_sitemap(b'\xef\xbb\xbf\n<?xml version="1.0"?><urlset xmlns="x">')
    assert is_sitemap(b"<sitemapindex>")
    assert not is_sitemap(b'<?xml version="1.0"?><rss version="2.0">')
