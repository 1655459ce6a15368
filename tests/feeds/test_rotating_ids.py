"""Feeds that mint a new entry id on every render: bounded memory, edits still seen."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from quietedit.decide.departed import MAX_SNAPSHOTS
from quietedit.decide.memory import FeedState, feed_from_record, feed_to_record
from quietedit.feeds.edits import EntrySnapshot, compare_feed, match_entries
from quietedit.feeds.parse import parse_feed

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
    st.lists(st.sampled_from([None, "05:00", "07:00"]), min_size=6, max_size=6),
    st.lists(st.sampled_from([None, "05:00", "07:00"]), min_size=6, max_size=6),
    st.sets(st.integers(0, 5)),
)
def test_an_entry_is_matched_only_to_the_newest_snapshot_of_its_own_link_and_date(
    stored_links: list[str],
    polled_links: list[str],
    stored_dates: list[str | None],
    polled_dates: list[str | None],
    kept: set[int],
) -> None:
    def date(time: str | None) -> str | None:
        return None if time is None else f"Mon, 30 Nov 2026 {time}:00 +0000"

    stored = {
        f"old-{n}": EntrySnapshot(
            id=f"old-{n}",
            observed_at=T0 + timedelta(minutes=n % 3),
            title="t",
            summary="",
            link=f"https://x.test/{link}",
            published=date(stored_dates[n]),
        )
        for n, link in enumerate(stored_links)
    }
    items = "".join(  # some old ids are still listed, under another link
        f"<item><guid>old-{n}</guid><link>https://x.test/kept-{n}</link><title>t</title></item>"
        for n in sorted(kept)
        if f"old-{n}" in stored
    ) + "".join(
        f"<item><guid>new-{n}</guid><link>https://x.test/{link}</link><title>t</title>"
        + (f"<pubDate>{date(polled_dates[n])}</pubDate>" if polled_dates[n] else "")
        + "</item>"
        for n, link in enumerate(polled_links)
    )
    feed = parse_feed(f"<rss version='2.0'><channel>{items}</channel></rss>".encode(), url=URL)
    listed = {entry.id for entry in feed.entries}
    matched = match_entries(stored, feed)
    for entry in feed.entries:
        if entry.id.startswith("old-"):
            assert matched[entry.id] is stored[entry.id]
            continue
        n = int(entry.id.removeprefix("new-"))
        eligible = [  # the rule of the module docstring, written out on its own
            s
            for s in stored.values()
            if s.link == entry.link and s.id not in listed and s.published == date(polled_dates[n])
        ]
        if not eligible:
            assert entry.id not in matched
        else:
            newest = max(eligible, key=lambda s: (s.observed_at, s.id))
            assert matched[entry.id] is newest
    assert len({s.id for s in matched.values()}) == len(matched)  # no snapshot used twice


def alerts(items: Sequence[tuple[str, str, str, str | None]]) -> bytes:
    """A live page's alert feed: (guid, title, link, pubDate) per item."""
    body = "".join(
        f"<item><guid isPermaLink='false'>{guid}</guid><title>{title}</title><link>{link}</link>"
        + (f"<pubDate>{published}</pubDate>" if published else "")
        + "</item>"
        for guid, title, link, published in items
    )
    return (
        "<?xml version='1.0'?><rss version='2.0'><channel><title>Coast Alerts</title>"
        f"<link>https://alerts.coastguard.test/</link>{body}</channel></rss>"
    ).encode()


LIVE = "https://alerts.coastguard.test/live"


def test_a_new_stable_id_with_another_date_on_one_live_page_is_a_new_entry_not_an_edit() -> None:
    one = alerts([("alert-1", "Storm warning for the coast", LIVE, "Mon, 30 Nov 2026 05:00 GMT")])
    first = compare_feed({}, parse_feed(one, url=URL, fetched_at=T0), observed_at=T0)
    later = T0 + timedelta(hours=2)
    two = alerts([("alert-2", "Water supply restored", LIVE, "Mon, 30 Nov 2026 07:00 GMT")])
    second = compare_feed(
        first.snapshots, parse_feed(two, url=URL, fetched_at=later), observed_at=later
    )
    assert [(c.kind, c.entry.id) for c in second.changes] == [("new", "alert-2")]
    assert second.renamed == 0
    assert set(second.snapshots) == {"alert-2"}
    assert set(second.departed) == {"alert-1"}  # alert-1 left the feed: kept apart, not replaced


def test_a_rotated_id_keeps_its_match_when_the_date_is_written_another_way() -> None:
    one = alerts([("r1", "Ferries suspended", LIVE, "Mon, 30 Nov 2026 05:00:00 +0000")])
    first = compare_feed({}, parse_feed(one, url=URL, fetched_at=T0), observed_at=T0)
    two = alerts([("r2", "Ferries suspended until Friday", LIVE, "Mon, 30 Nov 2026 05:00 GMT")])
    second = compare_feed(first.snapshots, parse_feed(two, url=URL, fetched_at=T0), observed_at=T0)
    [change] = second.changes
    assert (change.kind, change.fields, second.renamed) == ("edited", ("title",), 1)


def test_an_undated_entry_is_not_matched_to_an_old_id_still_in_the_feed() -> None:
    one = alerts([("alert-1", "Storm warning", LIVE, None)])
    first = compare_feed({}, parse_feed(one, url=URL, fetched_at=T0), observed_at=T0)
    both = alerts(
        [
            ("alert-1", "Storm warning", "https://alerts.coastguard.test/archive/1", None),
            ("alert-2", "Water supply restored", LIVE, None),
        ]
    )
    second = compare_feed(first.snapshots, parse_feed(both, url=URL, fetched_at=T0), observed_at=T0)
    assert [(c.kind, c.entry.id) for c in second.changes] == [
        ("metadata", "alert-1"),
        ("new", "alert-2"),
    ]


def test_a_story_listed_twice_in_one_poll_still_shows_its_later_headline_edit() -> None:
    link = "https://www.harbour-gazette.test/news/ferries"
    published = "Mon, 30 Nov 2026 05:00:00 +0000"
    snapshots: dict[str, EntrySnapshot] = {}
    edits, sizes, departed = [], [], []
    for poll in range(6):
        at = T0 + timedelta(hours=poll)
        title = "Ferries suspended" if poll < 3 else "Ferries suspended until Friday"
        items = [(f"r{poll}a", title, link, published)]
        if poll == 0:  # top stories and its section, one render
            items.append((f"r{poll}b", title, link, published))
        compared = compare_feed(
            snapshots, parse_feed(alerts(items), url=URL, fetched_at=at), observed_at=at
        )
        snapshots = compared.snapshots
        edits += [
            (poll, c.previous.title if c.previous else None)
            for c in compared.changes
            if c.kind == "edited"
        ]
        sizes.append(len(snapshots))
        departed.append(sorted(compared.departed))
    assert edits == [(3, "Ferries suspended")]
    assert sizes == [2, 1, 1, 1, 1, 1]  # no snapshot piles up per poll
    assert departed == [[], ["r0a"], [], [], [], []]  # the second listing left the feed
