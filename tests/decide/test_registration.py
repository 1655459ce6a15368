"""Registering a poll's documents decided on plain values: links, claims, feed edits, the
feed record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quietedit.article.identity import canonical_url, document_id
from quietedit.decide.candidates import EntryCandidate
from quietedit.decide.memory import (
    DocumentState,
    FeedState,
    document_from_record,
    document_to_record,
)
from quietedit.decide.poll import PollResult
from quietedit.decide.recheck import Candidate
from quietedit.decide.registration import (
    KnownDocument,
    PollPlan,
    RoutedLinks,
    needs_history,
    plan_registration,
    route_links,
)
from quietedit.decide.shard import WHOLE, Shard, shard_of
from quietedit.feeds.edits import EntryChange, EntrySnapshot
from quietedit.feeds.entries import FeedEntry
from quietedit.model import JSON

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
FEED = FeedState("desk", "https://news.example.org/feed.xml", "Desk")
URL = "https://news.example.org/politics/council-budget"
DOC = document_id(URL)


def found(url: str = URL, *, title: str | None = "Council approves budget") -> EntryCandidate:
    return EntryCandidate(url, NOW, NOW - timedelta(hours=3), "published", title=title)


def edit(url: str = URL, before: str = "Council approves budget") -> EntryChange:
    entry = FeedEntry("a", "id", url, "Council approves larger budget", "Teaser.")
    previous = EntrySnapshot("a", NOW - timedelta(hours=1), before, "Teaser.", link=url)
    return EntryChange("edited", entry, previous, ("title",))


def poll(
    *candidates: EntryCandidate,
    changes: tuple[EntryChange, ...] = (),
    claims: frozenset[str] = frozenset(),
) -> PollResult:
    return PollResult(FEED, "polled", candidates=candidates, changes=changes, claims=claims)


def plan(result: PollResult, known: dict[str, KnownDocument], shard: Shard = WHOLE) -> PollPlan:
    return plan_registration(result, route_links(result, shard=shard), known, shard=shard, now=NOW)


def record(*, feeds: tuple[str, ...] = ("desk",)) -> dict[str, JSON]:
    candidate = Candidate(DOC, "news.example.org", NOW - timedelta(days=1), feed="desk")
    state = DocumentState(DOC, URL, candidate, links=(URL,), feeds=feeds, title="Council")
    return document_to_record(state)


def test_a_new_link_plans_a_new_document_and_the_feed_record() -> None:
    result = poll(found(URL + "?utm_source=rss"))
    done = plan(result, {DOC: KnownDocument()})
    [document] = done.documents
    assert (document.document, document.new, document.events) == (DOC, True, ())
    assert document.record is not None
    state = document_from_record(DOC, document.record)
    assert (state.url, state.links, state.feeds) == (URL, (URL + "?utm_source=rss",), ("desk",))
    assert state.title == "Council approves budget"
    assert state.candidate.published_at == NOW - timedelta(hours=3)
    assert (done.new_documents, done.feed_edits, done.errors) == (1, 0, ())
    assert done.feed_record is not None and done.feed_record["url"] == FEED.url


def test_a_known_document_with_nothing_new_plans_no_write() -> None:
    done = plan(poll(found()), {DOC: KnownDocument(record())})
    [document] = done.documents
    assert (document.record, document.events, document.new) == (None, (), False)


def test_an_updated_claim_newer_than_the_documents_moves_it_to_this_feed() -> None:
    claimed = EntryCandidate(URL, NOW, NOW, "published", updated_claim=NOW - timedelta(minutes=5))
    known = record(feeds=("city", "desk"))
    done = plan(poll(claimed, claims=frozenset({URL})), {DOC: KnownDocument(known)})
    [document] = done.documents
    assert document.record is not None
    schedule = document.record["schedule"]
    assert isinstance(schedule, dict)
    assert schedule["claimed_at"] == "2026-11-30T11:55:00Z"
    assert schedule["claimed_by"] == "desk"


def test_a_feed_edit_of_a_known_document_is_an_event_once() -> None:
    result = poll(found(), changes=(edit(),))
    assert needs_history(result, route_links(result, shard=WHOLE).documents[DOC])
    done = plan(result, {DOC: KnownDocument(record(), newest=2)})
    [document] = done.documents
    [event] = document.events
    assert (event.kind, event.revision, event.observed_at) == ("feed-edit", 2, NOW)
    assert event.detail["before"] == {"title": "Council approves budget", "summary": "Teaser."}
    assert done.feed_edits == 1
    again = plan(result, {DOC: KnownDocument(record(), newest=2, last_feed_edit=event.detail)})
    assert again.documents[0].events == ()  # a run that died before the feed record


def test_a_new_document_records_no_feed_edit_of_its_first_link() -> None:
    result = poll(found(), changes=(edit(),))
    [document] = plan(result, {DOC: KnownDocument()}).documents
    assert document.new and document.events == ()


def test_invalid_urls_and_unreadable_records_are_errors_and_the_rest_is_registered() -> None:
    other = "https://news.example.org/world/ferries"
    result = poll(found("https://"), found(URL), found(URL + "?utm_source=rss"), found(other))
    known = {DOC: KnownDocument(error="documents/x/document.json: not valid UTF-8 JSON")}
    done = plan(result, known | {document_id(other): KnownDocument()})
    assert [d.document for d in done.documents] == [document_id(other)]
    assert len(done.errors) == 3  # the invalid URL, then both links of the damaged record
    assert done.errors[0].startswith("feed desk: ")
    assert (
        done.errors[1]
        == done.errors[2]
        == "feed desk: documents/x/document.json: not valid UTF-8 JSON"
    )


def test_a_shard_registers_only_its_documents_and_writes_only_its_feeds_record() -> None:
    hosts = [f"https://news.example{n}.org/a" for n in range(20)]
    mine = next(url for url in hosts if shard_of(url, count=2) == shard_of(FEED.url, count=2))
    theirs = next(url for url in hosts if shard_of(url, count=2) != shard_of(FEED.url, count=2))
    own = Shard(shard_of(FEED.url, count=2), 2)
    routed = route_links(poll(found(mine), found(theirs)), shard=own)
    assert list(routed.documents) == [document_id(canonical_url(mine))]
    assert plan(poll(), {}, own).feed_record is not None
    other = Shard(3 - own.index, 2)
    assert plan(poll(), {}, other).feed_record is None
    assert routed == RoutedLinks(routed.documents, ())
