"""Ingest's records: round trips, catalogue sync, the rolled-up ledger (plain values)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from quietedit.config import FeedConfig
from quietedit.decide.memory import (
    DocumentState,
    FeedState,
    Seen,
    SourceIndex,
    document_from_record,
    document_to_record,
    feed_from_record,
    feed_to_record,
    ledger_record,
)
from quietedit.decide.poll import feed_states
from quietedit.decide.recheck import Candidate, FeedTrust
from quietedit.feeds.edits import EntrySnapshot
from quietedit.fetch.ledger import LedgerEntry
from quietedit.model import JSON

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_a_document_record_round_trips() -> None:
    state = DocumentState(
        id="news-example-org-0123456789abcdef",
        url="https://news.example.org/a",
        candidate=Candidate(
            key="news-example-org-0123456789abcdef",
            host="news.example.org",
            discovered_at=NOW,
            published_at=NOW - timedelta(hours=1),
            feed="desk",
            last_checked_at=NOW,
            changes=2,
            failures=1,
            last_failure_at=NOW,
            claimed_at=NOW,
        ),
        links=("https://news.example.org/a?utm_source=rss",),
        feeds=("desk",),
        title="Council approves budget",
        status="gone",
        etag='"v2"',
        seen=Seen(last_seen="sha256:" + "a" * 64, anomaly_hash=None, anomaly_count=0),
    )
    assert document_from_record(state.id, document_to_record(state)) == state


def test_the_feed_that_made_the_last_claim_is_the_one_remembered() -> None:
    record: dict[str, JSON] = {
        "url": "https://x.example/a",
        "feeds": ["alpha", "zeta"],
        "schedule": {"claimed_at": "2026-11-30T11:00:00Z", "claimed_by": "zeta"},
    }
    assert document_from_record("x-0123456789abcdef", record).candidate.feed == "zeta"
    del record["schedule"]
    assert document_from_record("x-0123456789abcdef", record).candidate.feed == "alpha"


def test_a_damaged_document_record_falls_back_to_defaults_instead_of_failing() -> None:
    state = document_from_record(
        "doc-0123456789abcdef",
        {
            "url": "https://x.example/a",
            "schedule": "nonsense",
            "feeds": [1, "desk"],
            "discovered_at": "yesterday",
            "seen": {"anomaly_count": -3},
        },
    )
    assert state.candidate.last_checked_at is None
    assert state.feeds == ("desk",)
    assert state.seen.anomaly_count == 0


def test_a_feed_record_round_trips_and_forgets_entries_gone_for_a_month() -> None:
    old = EntrySnapshot(id="old", observed_at=NOW - timedelta(days=31), title="Old", summary="")
    recent = EntrySnapshot(id="new", observed_at=NOW - timedelta(days=1), title="New", summary="")
    state = FeedState(
        slug="desk",
        url="https://x.example/feed",
        name="Desk",
        polls=3,
        failures=1,
        last_polled_at=NOW,
        trust=FeedTrust(unproductive_claims=4, last_probe_at=NOW),
        entries={"old": old, "new": recent},
    )
    back = feed_from_record("desk", feed_to_record(state, now=NOW))
    assert back.entries == {"new": recent}
    assert back.trust == state.trust
    assert (back.polls, back.failures, back.last_polled_at) == (3, 1, NOW)


def test_a_failing_feed_backs_off_exponentially_up_to_a_day() -> None:
    waits = []
    for failures in (1, 2, 3, 10):
        state = FeedState("desk", "u", "n", failures=failures, last_polled_at=NOW)
        retry = state.next_poll_at()
        assert retry is not None
        waits.append(retry - NOW)
    assert waits == [
        timedelta(minutes=10),
        timedelta(minutes=20),
        timedelta(minutes=40),
        timedelta(days=1),
    ]
    assert FeedState("desk", "u", "n").next_poll_at() is None


def test_catalogue_sync_adds_updates_and_deactivates_but_never_deletes() -> None:
    known = {
        "desk": FeedState(
            "desk",
            "https://x.example/old.xml",
            "Desk",
            etag='"e"',
            resolved_url="https://x.example/found.xml",
        ),
        "gone": FeedState("gone", "https://y.example/feed", "Gone"),
        "same": FeedState("same", "https://z.example/feed", "Same", etag='"s"'),
    }
    configs = (
        FeedConfig("https://x.example/new.xml", "Desk (renamed)", "desk", (), True),
        FeedConfig("https://z.example/feed", "Same", "same", (), False),
        FeedConfig("https://w.example/feed", "Fresh", "fresh", (), True),
    )
    states = feed_states(configs, known)
    assert set(states) == {"desk", "gone", "same", "fresh"}
    assert states["gone"].active is False
    assert (states["desk"].name, states["desk"].etag, states["desk"].resolved_url) == (
        "Desk (renamed)",
        None,
        None,
    )  # a new URL: the old validators are not reused
    assert (states["same"].etag, states["same"].enabled) == ('"s"', False)
    assert states["fresh"].polls == 0


def test_the_ledger_keeps_two_hours_of_requests_and_rolls_up_the_rest() -> None:
    def entry(at: datetime, host: str = "a.example", error: str | None = None) -> LedgerEntry:
        return LedgerEntry(at, f"https://{host}/x", host, 200, 100, 0.1, 0, error)

    entries = [
        entry(NOW - timedelta(minutes=30)),
        entry(NOW - timedelta(hours=3)),
        entry(NOW - timedelta(hours=3), error="NetworkError"),
        entry(NOW - timedelta(days=1), host="b.example"),
    ]
    previous: dict[str, JSON] = {
        "daily": {
            "a.example": {
                "2026-11-30": {"requests": 5, "bytes": 10, "errors": 0},
                "2026-01-01": {"requests": 1, "bytes": 1, "errors": 0},
            }
        }
    }
    record = ledger_record(entries, previous, now=NOW)
    assert len(record["requests"]) == 1  # type: ignore[arg-type]
    assert record["daily"] == {
        "a.example": {"2026-11-30": {"requests": 7, "bytes": 210, "errors": 1}},
        "b.example": {"2026-11-29": {"requests": 1, "bytes": 100, "errors": 0}},
    }


def test_a_feed_failing_thousands_of_times_backs_off_a_day_and_a_new_url_resets_it() -> None:
    failing = FeedState("desk", "https://x.example/old", "Desk", failures=5000, last_polled_at=NOW)
    assert failing.next_poll_at() == NOW + timedelta(days=1)
    [fixed] = feed_states(
        (FeedConfig("https://x.example/new", "Desk", "desk", (), True),), {"desk": failing}
    ).values()
    assert fixed.failures == 0
    assert fixed.next_poll_at() is None


def test_the_claims_of_an_article_come_from_the_feeds_and_sitemaps_that_list_it() -> None:
    link = "https://news.example.org/politics/budget?utm_source=rss"

    def snapshot(updated: str | None, at: str = link) -> EntrySnapshot:
        return EntrySnapshot(id=at, observed_at=NOW, title="Budget", summary="", link=at,
                             updated=updated)  # fmt: skip

    feeds = {
        "city-desk": FeedState("city-desk", "u", "City", kind="rss",
                               entries={"g1": snapshot(None)}),
        "politics": FeedState("politics", "u", "Politics", kind="atom",
                              entries={"g2": snapshot("2026-11-30T09:00:00Z")}),
        "sitemap": FeedState("sitemap", "u", "Map", kind="sitemap",
                             entries={link: snapshot("2026-11-30T09:05:00+00:00")}),
        "sport": FeedState("sport", "u", "Sport", kind="rss",
                           entries={"g3": snapshot("x", at="https://news.example.org/b")}),
    }  # fmt: skip
    state = DocumentState(
        id="doc",
        url="https://news.example.org/politics/budget",
        candidate=Candidate(key="doc", host="news.example.org", discovered_at=NOW,
                            feed="politics"),
        links=(link,),
        feeds=("city-desk", "politics", "sitemap", "sport"),
    )  # fmt: skip
    index = SourceIndex.of(feeds)
    assert index.claims(state) == {
        # the feed whose claim counts for the article goes first
        "feed_updated": {"feed": "politics", "value": "2026-11-30T09:00:00Z"},
        "sitemap_lastmod": {"feed": "sitemap", "value": "2026-11-30T09:05:00+00:00"},
    }
    unclaimed = replace(state, candidate=replace(state.candidate, feed=None))
    assert index.claims(unclaimed)["feed_updated"] == {"feed": "city-desk", "value": None}  # type: ignore[index]
    assert index.claims(replace(state, links=("https://news.example.org/c",))) is None
