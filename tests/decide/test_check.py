"""The article check decided on plain values: what was known and what was read -> the writes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from quietedit.article.fingerprint import content_hash
from quietedit.decide.check import (
    EXTRACTOR,
    CheckPlan,
    Gathered,
    Needs,
    Stored,
    needs,
    plan_check,
    plan_failure,
)
from quietedit.decide.memory import DocumentState, Seen
from quietedit.decide.reading import PageReading
from quietedit.decide.recheck import Candidate
from quietedit.decide.versioning import body_words
from quietedit.errors import (
    FetchError,
    HostDeferredError,
    HTTPStatusError,
    NetworkError,
    RobotsDisallowedError,
)
from quietedit.fetch.cache import CachedResponse
from quietedit.fetch.document import RawDocument
from quietedit.model import Article, Block

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
EARLIER = NOW - timedelta(hours=2)
URL = "https://news.example.org/politics/2026/11/30/council-budget-vote"
DOC = "news-example-org-5358b171ce9e8281"


def text(amount: str) -> Article:
    blocks = tuple(
        Block(
            f"Paragraph {n}: the council approved a budget of {amount} euros on Monday after "
            "a debate that ran late into the night, the mayor's office said."
        )
        for n in range(6)
    )
    return Article(title="Council approves budget", blocks=blocks)


OLD, NEW = text("4.2 million"), text("4.8 million")


NOTHING_STORED = Stored()


def reading(article: Article) -> PageReading:
    return PageReading(article, content_hash(article), {"encoding": "utf-8"}, body_words(article))


def stored(*articles: Article) -> Stored:
    revisions = tuple((content_hash(a), a) for a in articles)
    return Stored(newest=len(revisions) or None, revisions=revisions)


def document(
    *, revisions: int = 0, status: str = "active", seen: str | None = None
) -> DocumentState:
    checked = EARLIER if revisions else None
    candidate = Candidate(DOC, "news.example.org", NOW - timedelta(days=1), last_checked_at=checked)
    return DocumentState(
        DOC,
        URL,
        candidate,
        links=(URL,),
        status=status,
        etag='"v1"',
        seen=Seen(last_seen=seen, revisions=revisions),
    )


def page(url: str = URL, *, not_modified: bool = False) -> RawDocument:
    status = 304 if not_modified else 200
    return RawDocument(url, status, "text/html", b"<html>page</html>", '"v2"', None, not_modified)


def check(
    state: DocumentState,
    fetched: RawDocument | FetchError,
    *,
    reading: PageReading | None = None,
    stored: Stored = NOTHING_STORED,
    validators: CachedResponse | None = None,
) -> CheckPlan:
    gathered = Gathered(fetched, URL, validators=validators, reading=reading, stored=stored)
    return plan_check(state, gathered, now=NOW)


def test_a_first_reading_plans_revision_one_with_its_evidence() -> None:
    plan = check(document(), page(), reading=reading(OLD), stored=stored())
    assert plan.revision is not None
    assert plan.revision.number == 1
    assert plan.revision.response.body == b"<html>page</html>"
    observation = plan.revision.observation
    assert (observation.article, observation.extractor, observation.evidence) == (
        OLD,
        EXTRACTOR,
        None,  # the archive names the evidence when it keeps it
    )
    assert plan.events == ()
    assert (plan.result.status, plan.result.revision) == ("new-revision", 1)
    assert plan.record is not None
    schedule = plan.record["schedule"]
    assert isinstance(schedule, dict) and schedule["changes"] == 0


def test_a_changed_text_plans_a_revision_and_restarts_the_curve() -> None:
    known = document(revisions=1, seen=content_hash(OLD))
    plan = check(known, page(), reading=reading(NEW), stored=stored(OLD))
    assert plan.revision is not None and plan.revision.number == 2
    assert plan.result.produced_revision
    candidate = plan.result.state.candidate
    assert (candidate.changes, candidate.last_changed_at, candidate.last_checked_at) == (
        1,
        NOW,
        NOW,
    )
    assert plan.result.state.seen == Seen(content_hash(NEW), None, 0, revisions=2)


def test_the_same_text_plans_only_the_record() -> None:
    known = document(revisions=1, seen=content_hash(OLD))
    plan = check(known, page(), reading=reading(OLD), stored=stored(OLD))
    assert (plan.revision, plan.events, plan.result.status) == (None, (), "unchanged")
    assert plan.record is not None
    assert plan.result.state.candidate.last_checked_at == NOW


def test_a_304_keeps_the_new_validators_and_plans_only_the_record() -> None:
    validators = CachedResponse(URL, b"", None, '"v2"', "Mon, 30 Nov 2026 10:00:00 GMT")
    fetched = page(not_modified=True)
    known = document(revisions=1)
    assert needs(known, fetched) == Needs()
    plan = check(known, fetched, validators=validators)
    assert (plan.result.status, plan.revision, plan.events) == ("not-modified", None, ())
    assert plan.record is not None
    assert plan.record["http"] == {"etag": '"v2"', "last_modified": validators.last_modified}


def test_a_deferral_plans_no_write_at_all() -> None:
    deferred = HostDeferredError(URL, "the host's hourly budget is spent", retry_at=0.0)
    plan = check(document(revisions=1), deferred)
    assert plan == CheckPlan(plan.result)
    assert (plan.result.status, plan.result.state) == ("deferred", document(revisions=1))


def test_a_404_plans_a_gone_event_once_and_backs_off() -> None:
    missing = HTTPStatusError(URL, 404, "404 Not Found")
    active = document(revisions=2)
    assert needs(active, missing) == Needs(newest=True)
    plan = check(active, missing, stored=Stored(newest=2))
    [event] = plan.events
    assert (event.kind, event.revision, event.detail) == ("gone", 2, {"status": 404})
    assert (plan.result.status, plan.result.state.status) == ("gone", "gone")
    assert plan.result.state.candidate.failures == 1
    gone = replace(active, status="gone")
    assert needs(gone, missing) == Needs()
    assert check(gone, missing).events == ()


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (RobotsDisallowedError(URL, "disallowed by robots.txt"), "robots"),
        (NetworkError(URL, "connection refused"), "failed"),
    ],
)
def test_a_refused_or_failed_fetch_plans_only_the_record_of_a_failed_check(
    error: FetchError, status: str
) -> None:
    plan = check(document(revisions=1), error)
    assert (plan.result.status, plan.revision, plan.events) == (status, None, ())
    assert plan.result.state.candidate.failures == 1
    assert plan.result.state.etag == '"v1"'  # a failed fetch tells nothing of the page


def test_a_story_landing_on_the_home_page_is_a_take_down_not_read() -> None:
    home = page("https://news.example.org/")
    known = document(revisions=3)
    assert needs(known, home) == Needs(newest=True)
    plan = check(known, home, stored=Stored(newest=3))
    [event] = plan.events
    assert (event.kind, event.revision) == ("redirected", 3)
    assert event.detail == {"location": "https://news.example.org/", "from": URL}
    assert (plan.result.status, plan.result.state.status) == ("redirected", "redirected")
    assert plan.result.state.candidate.failures == 1
    moved = replace(known, location="https://news.example.org/")
    assert needs(moved, home) == Needs()
    assert check(moved, home).events == ()


def test_a_page_served_again_after_it_was_gone_is_restored_after_its_new_revision() -> None:
    known = document(revisions=1, status="gone", seen=content_hash(OLD))
    plan = check(known, page(), reading=reading(NEW), stored=stored(OLD))
    [event] = plan.events
    assert (event.kind, event.revision, event.detail) == ("restored", 2, {"was": "gone"})
    assert plan.result.state.status == "active"


def test_a_return_to_an_earlier_text_is_a_flip_flop_event_not_a_revision() -> None:
    known = document(revisions=2, seen=content_hash(NEW))
    plan = check(known, page(), reading=reading(OLD), stored=stored(OLD, NEW))
    assert plan.revision is None
    [event] = plan.events
    assert (event.kind, event.revision) == ("flip-flop", 1)
    assert event.detail["content_hash"] == content_hash(OLD)
    assert plan.result.status == "flip-flop"


def test_an_empty_page_is_an_anomaly_recorded_once() -> None:
    empty = Article(title="Council approves budget", blocks=(Block("Loading..."),))
    known = document(revisions=1, seen=content_hash(OLD))
    plan = check(known, page(), reading=reading(empty), stored=stored(OLD))
    [event] = plan.events
    assert (event.kind, event.revision, plan.result.status) == ("anomaly", 1, "anomaly")
    again = check(plan.result.state, page(), reading=reading(empty), stored=stored(OLD))
    assert (again.events, again.result.status) == ((), "anomaly")


def test_a_page_that_needs_reading_but_was_not_read_is_refused() -> None:
    assert needs(document(), page()) == Needs(page=True, newest=True)
    with pytest.raises(ValueError, match="was not read"):
        check(document(), page())


def test_a_check_that_failed_in_the_shell_backs_the_document_off() -> None:
    plan = plan_failure(document(revisions=1), "the check failed: OSError()", now=NOW)
    assert (plan.result.status, plan.revision, plan.events) == ("failed", None, ())
    assert plan.result.state.candidate.failures == 1
    assert plan.record is not None
