"""Feeds that mint a new entry id on every render: bounded memory, edits still seen."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from quietedit.ingest.changes import EntrySnapshot, compare_feed, match_entries
from quietedit.ingest.feeds import parse_feed
from quietedit.ingest.state import MAX_SNAPSHOTS, FeedState, feed_from_record, feed_to_record

URL = "https://www.harbour-gazette.test/rss/latest.xml"
T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
STORIES = [f"story-{n}" for n in range(30)]


def rss(poll: int, titles: dict[str, str], *, links: dict[str, str] | None = None) -> bytes:
    """A poll as a CMS renders it that puts a fresh GUID on every item at every request."""
    items = "".join(
        "<item>"
        f"<guid isPermaLink='false'>{uuid.uuid5(uuid.NAMESPACE_URL, f'{poll}/{slug}')}</guid>"
        f"<title>{titles.get(slug, slug.replace('-', ' ').title())}</title>"
        f"<link>{(links or {}).get(slug, f'https://www.harbour-gazette.test/news/{slug}')}</link>"
        f"<description>The latest on {slug}.</description>"
        "<pubDate>Mon, 30 Nov 2026 05:00:00 +0000</pubDate></item>"
        for slug in STORIES
    )
    return (
        "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>"
        f"<title>Harbour Gazette</title><link>https://www.harbour-gazette.test/</link>{items}"
        "</channel></rss>"
    ).encode()


def test_a_hundred_polls_of_rotating_ids_keep_one_snapshot_per_entry_and_see_the_edit() -> None:
    state = FeedState("harbour-gazette", URL, "Harbour Gazette")
    sizes, edits = set(), []
    for poll in range(100):
        at = T0 + timedelta(minutes=15 * poll)
        titles = {"story-7": "Ferry fares to rise by a third"} if poll >= 60 else {}
        feed = parse_feed(rss(poll, titles), url=URL, fetched_at=at)
        compared = compare_feed(state.entries, feed, observed_at=at)
        edits += [(poll, c) for c in compared.changes if c.kind == "edited"]
        if poll:
            assert compared.renamed == len(STORIES)
            assert [c.kind for c in compared.changes if c.kind != "edited"] == []
        # stored and read back, as every run does
        polled = replace(state, entries=compared.snapshots)
        state = feed_from_record(state.slug, json.loads(json.dumps(feed_to_record(polled, now=at))))
        sizes.add(len(state.entries))
    assert sizes == {len(STORIES)}
    [(poll, edit)] = edits
    assert poll == 60
    assert edit.fields == ("title",)
    assert edit.previous is not None
    assert edit.previous.title == "Story 7"
    assert edit.entry.title == "Ferry fares to rise by a third"


def test_entries_sharing_a_link_are_not_matched_by_it() -> None:
    shared = "https://www.harbour-gazette.test/live"
    links = {"story-1": shared, "story-2": shared}
    first = parse_feed(rss(0, {}, links=links), url=URL, fetched_at=T0)
    stored = compare_feed({}, first, observed_at=T0).snapshots
    titles = {"story-1": "Live: the storm", "story-2": "Live: the ferries"}
    second = parse_feed(rss(1, titles, links=links), url=URL, fetched_at=T0)
    compared = compare_feed(stored, second, observed_at=T0)
    edited = {c.entry.link for c in compared.changes if c.kind == "edited"}
    assert shared not in edited  # which old entry each one is cannot be told: no edit invented
    assert compared.renamed == len(STORIES) - 2


def test_a_feed_rotating_ids_and_links_is_capped_to_the_newest_snapshots() -> None:
    snapshots = {
        f"id-{n}": EntrySnapshot(
            id=f"id-{n}",
            observed_at=T0 + timedelta(seconds=n),
            title=f"Item {n}",
            summary="",
            link=f"https://www.harbour-gazette.test/news/{n}?session={n}",
        )
        for n in range(MAX_SNAPSHOTS + 500)
    }
    record = feed_to_record(FeedState("g", URL, "G", entries=snapshots), now=T0 + timedelta(days=1))
    kept = record["entries"]
    assert isinstance(kept, dict)
    assert len(kept) == MAX_SNAPSHOTS
    assert "id-0" not in kept and f"id-{MAX_SNAPSHOTS + 499}" in kept  # the newest stay
    assert list(kept) == sorted(kept)  # deterministic order


@given(
    st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=6),
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=6, unique=True),
)
def test_an_entry_is_matched_only_to_its_own_id_or_its_own_unique_link(
    stored_links: list[str], polled_links: list[str]
) -> None:
    stored = {
        f"old-{n}": EntrySnapshot(
            id=f"old-{n}", observed_at=T0, title="t", summary="", link=f"https://x.test/{link}"
        )
        for n, link in enumerate(stored_links)
    }
    items = "".join(
        f"<item><guid>new-{n}</guid><link>https://x.test/{link}</link><title>t</title></item>"
        for n, link in enumerate(polled_links)
    )
    feed = parse_feed(f"<rss version='2.0'><channel>{items}</channel></rss>".encode(), url=URL)
    matched = match_entries(stored, feed)
    for entry in feed.entries:
        if entry.id in matched:
            assert matched[entry.id].link == entry.link
            assert stored_links.count(entry.link.rsplit("/", 1)[1]) == 1  # type: ignore[union-attr]
    assert len({s.id for s in matched.values()}) == len(matched)  # no snapshot used twice
