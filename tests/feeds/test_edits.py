"""entry_changes: headline and teaser edits seen in the feed itself, and the stored snapshot."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.archive.records import dump_json
from quietedit.feeds.edits import EntrySnapshot, entry_changes
from quietedit.feeds.parse import parse_feed

URL = "https://www.example-courier.test/world/rss.xml"
T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def poll(*items: tuple[str, str, str], pub: str = "Mon, 30 Nov 2026 07:00:00 +0000") -> bytes:
    """An RSS poll with (guid, title, teaser) items."""
    body = "".join(
        f"<item><guid isPermaLink='false'>{guid}</guid><title>{title}</title>"
        f"<link>https://www.example-courier.test/world/{guid}</link>"
        f"<description>{teaser}</description><pubDate>{pub}</pubDate></item>"
        for guid, title, teaser in items
    )
    return f"<rss version='2.0'><channel><title>World</title>{body}</channel></rss>".encode()


def replay(*polls: bytes) -> list[list[tuple[str, str, tuple[str, ...]]]]:
    """Run the polls in order, storing a snapshot for every change, as the ingest will."""
    stored: dict[str, EntrySnapshot] = {}
    seen: list[list[tuple[str, str, tuple[str, ...]]]] = []
    for n, body in enumerate(polls):
        at = T0 + timedelta(hours=n)
        changes = entry_changes(stored, parse_feed(body, url=URL, fetched_at=at))
        for change in changes:
            stored[change.entry.id] = change.snapshot(observed_at=at)
        seen.append([(str(c.kind), c.entry.id, c.fields) for c in changes])
    return seen


def test_new_entries_then_a_headline_edit_then_nothing() -> None:
    first = poll(("a", "Talks resume", "Negotiators met."), ("b", "Rates held", "As expected."))
    edited = poll(
        ("a", "Talks resume in Geneva", "Negotiators met."), ("b", "Rates held", "As expected.")
    )
    assert replay(first, edited, edited) == [
        [("new", "a", ()), ("new", "b", ())],
        [("edited", "a", ("title",))],
        [],
    ]


def test_a_teaser_edit_is_reported_with_the_previous_state() -> None:
    stored = {"a": EntrySnapshot("a", T0, "Talks resume", "Negotiators met.")}
    feed = parse_feed(poll(("a", "Talks resume", "Negotiators met for six hours.")), url=URL)
    [change] = entry_changes(stored, feed)
    assert (change.kind, change.fields) == ("edited", ("summary", "link", "published"))
    assert change.previous == stored["a"]
    assert change.entry.summary == "Negotiators met for six hours."


def test_typographic_and_spacing_changes_are_not_edits() -> None:
    first = poll(("a", 'It\'s a "deal" - at last', "Two  spaces."))
    styled = poll(("a", "It\u2019s a \u201cdeal\u201d \u2013 at last", "Two spaces."))
    assert replay(first, styled)[1] == []


def test_a_change_of_link_or_publication_date_alone_is_metadata() -> None:
    first = poll(("a", "T", "S"))
    redated = poll(("a", "T", "S"), pub="Mon, 30 Nov 2026 09:30:00 +0000")
    same_moment = poll(("a", "T", "S"), pub="Mon, 30 Nov 2026 08:00:00 +0100")
    assert replay(first, redated, same_moment)[1:] == [
        [("metadata", "a", ("published",))],
        [("metadata", "a", ("published",))],
    ]
    assert replay(first, same_moment)[1] == []


def test_a_flip_flop_is_two_edits() -> None:
    a = poll(("x", "Minister resigns", "S"))
    b = poll(("x", "Minister to resign", "S"))
    assert [len(changes) for changes in replay(a, b, a)] == [1, 1, 1]


def test_entries_that_leave_the_feed_are_not_reported() -> None:
    assert replay(poll(("a", "T", "S"), ("b", "U", "V")), poll(("b", "U", "V")))[1] == []


def test_a_snapshot_record_is_json_ready_and_reads_back() -> None:
    feed = parse_feed(poll(("a", "Talks resume", "Negotiators met.")), url=URL)
    snapshot = EntrySnapshot.of(feed.entries[0], observed_at=T0)
    record = snapshot.to_record()
    assert json.loads(dump_json(record)) == {
        "schema": 1,
        "id": "a",
        "observed_at": "2026-11-30T08:00:00Z",
        "title": "Talks resume",
        "summary": "Negotiators met.",
        "link": "https://www.example-courier.test/world/a",
        "published": "Mon, 30 Nov 2026 07:00:00 +0000",
        "updated": None,
    }
    assert EntrySnapshot.from_record(json.loads(dump_json(record))) == snapshot


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema": 2}, "schema: 2 is not entry snapshot schema 1"),
        ({"title": None}, "title: None is not text"),
        ({"link": 5}, "link: 5 is not text or null"),
        ({"observed_at": "yesterday"}, "observed_at: "),
        ({"observed_at": "2026-11-30T08:00:00"}, "observed_at: timestamp"),
    ],
)
def test_a_bad_snapshot_record_names_the_key(change: dict[str, object], message: str) -> None:
    record = EntrySnapshot("a", T0, "T", "S").to_record() | change
    with pytest.raises(ValueError, match=message):
        EntrySnapshot.from_record(record)  # type: ignore[arg-type]


text = st.text(max_size=40)


@given(text, text, text, st.none() | text, st.none() | text)
def test_snapshot_records_round_trip(
    entry_id: str, title: str, summary: str, link: str | None, published: str | None
) -> None:
    snapshot = EntrySnapshot(entry_id, T0, title, summary, link, published, None)
    assert EntrySnapshot.from_record(json.loads(dump_json(snapshot.to_record()))) == snapshot
