"""The digests a feed record keeps of the entries that left the feed, by day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quietedit.decide.departed import (
    DIGEST_DIGITS,
    MAX_DIGESTS,
    day_of,
    days_naming,
    index_from_record,
    index_to_record,
    key_digest,
    remember,
)
from quietedit.decide.memory import FeedState, feed_from_record, feed_to_record
from quietedit.feeds.edits import EntrySnapshot, compare_feed
from quietedit.feeds.parse import parse_feed

T0 = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
LINK = "https://www.harbour-gazette.test/news/ferries"


def snapshot(key: str, *, at: datetime = T0, link: str | None = None) -> EntrySnapshot:
    return EntrySnapshot(key, at, f"Story {key}", "", link, "Mon, 30 Nov 2026 05:00:00 GMT")


def test_a_departure_is_kept_under_its_day_by_the_digests_of_its_id_and_link() -> None:
    index = remember({}, [snapshot("urn:1", link=LINK), snapshot("urn:2")], now=T0)
    assert index == {"2026/11/30": frozenset(key_digest(k) for k in ("urn:1", LINK, "urn:2"))}
    assert days_naming(index, ["urn:9", LINK]) == ["2026/11/30"]
    assert days_naming(index, ["urn:9"]) == []
    # an hour later is another day (UTC): the days stay apart
    later = remember(index, [snapshot("urn:3")], now=T0 + timedelta(hours=1))
    assert sorted(later) == ["2026/11/30", "2026/12/01"]
    assert day_of(T0 + timedelta(hours=1)) == "2026/12/01"


def test_days_older_than_the_memory_and_beyond_the_backstop_are_forgotten() -> None:
    index = remember({}, [snapshot("urn:1")], now=T0)
    assert remember(index, [], now=T0 + timedelta(days=30)) == index
    assert remember(index, [], now=T0 + timedelta(days=31)) == {}
    many = [snapshot(f"urn:{n}") for n in range(MAX_DIGESTS)]
    full = remember(index, many, now=T0 + timedelta(days=1))
    assert list(full) == ["2026/12/01"]  # the older day went first, whole


def test_the_index_is_written_compactly_and_a_damaged_day_is_left_out() -> None:
    index = remember({}, [snapshot("urn:1", link=LINK)], now=T0)
    record = index_to_record(index)
    [text] = record.values()
    assert isinstance(text, str) and len(text) == 2 * DIGEST_DIGITS
    assert index_from_record(record) == index
    damaged = {**record, "2026/11/29": "xyz", "../etc": text, "2026/11/28": 5}
    assert index_from_record(damaged) == index
    assert index_from_record(None) == {}


def test_the_record_holds_what_the_feed_carries_and_the_digests_of_what_left() -> None:
    state = FeedState(
        "gazette",
        "https://gazette.test/feed.xml",
        "Gazette",
        entries={"urn:2": snapshot("urn:2")},
        leaving={"urn:1": snapshot("urn:1", link=LINK)},
    )
    record = feed_to_record(state, now=T0)
    entries = record["entries"]
    assert isinstance(entries, dict) and list(entries) == ["urn:2"]
    assert feed_from_record("gazette", record).departed == remember(
        {}, state.leaving.values(), now=T0
    )


def rss(items: list[tuple[str, str]]) -> bytes:
    body = "".join(
        f"<item><guid>{guid}</guid><title>{title}</title><link>{LINK}</link>"
        "<pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>"
        for guid, title in items
    )
    return (
        f"<?xml version='1.0'?><rss version='2.0'><channel><title>G</title>{body}</channel></rss>"
    ).encode()


def test_an_entry_back_under_a_new_id_is_matched_with_its_departed_snapshot_by_link() -> None:
    gone = EntrySnapshot("r1", T0, "Ferries suspended", "", LINK, "Mon, 30 Nov 2026 05:00:00 GMT")
    feed = parse_feed(rss([("r2", "Ferries suspended until Friday")]), url=LINK, fetched_at=T0)
    compared = compare_feed({}, feed, observed_at=T0, returning={"r1": gone})
    [change] = compared.changes
    assert (change.kind, change.fields, compared.renamed) == ("edited", ("title",), 1)
    assert list(compared.snapshots) == ["r2"] and compared.departed == {}
    alone = compare_feed({}, feed, observed_at=T0)
    assert [c.kind for c in alone.changes] == ["new"]
