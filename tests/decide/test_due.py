"""The schedule entry a list keeps of a document, and the documents a run is expected to
read (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quietedit.decide.memory import document_from_record
from quietedit.decide.partitions import due_documents, schedule_entry
from quietedit.decide.recheck import RecheckPolicy
from quietedit.model import JSON

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


def record(n: int, *, checked: timedelta, host: str = "news.example.org") -> dict[str, JSON]:
    at = (NOW - checked).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "url": f"https://{host}/story-{n}",
        "host": host,
        "discovered_at": "2026-12-02T04:00:00Z",
        "published_at": "2026-12-02T04:00:00Z",
        "feeds": ["courier"],
        "title": f"Story {n}",
        "links": ["https://example.org/"],
        "status": "active",
        "seen": {"revisions": 1, "last_seen": "x"},
        "http": {"etag": '"abc"'},
        "schedule": {"last_checked_at": at, "changes": 0, "failures": 0},
    }


def test_a_schedule_entry_plans_as_its_whole_record_does() -> None:
    whole = record(1, checked=timedelta(hours=3))
    entry = schedule_entry(whole)
    assert set(entry) == {
        "url",
        "host",
        "discovered_at",
        "published_at",
        "feeds",
        "schedule",
        "seen",
    }
    assert entry["seen"] == {"revisions": 1}
    full, kept = document_from_record("d1", whole), document_from_record("d1", entry)
    assert kept.candidate == full.candidate and kept.url == full.url
    assert kept.feeds == full.feeds and kept.seen.revisions == 1
    assert "seen" not in schedule_entry({**whole, "seen": {"revisions": 0}})


def test_the_due_documents_are_the_plans_within_its_cap_and_their_template_pages() -> None:
    policy = RecheckPolicy()

    def state(
        n: int, *, hours: int, host: str, revisions: int
    ) -> tuple[tuple[str, str], dict[str, JSON]]:
        found = record(n, checked=timedelta(hours=hours), host=host)
        return ("2026/12/01", f"d{n}"), {**found, "seen": {"revisions": revisions}}

    made = [
        *(state(n, hours=5, host="a.example", revisions=0) for n in range(5)),  # overdue
        state(5, hours=0, host="a.example", revisions=1),  # just checked: a template page
        state(6, hours=0, host="b.example", revisions=1),  # another site's, not due
    ]
    states = {pair: document_from_record(pair[1], rec) for pair, rec in made}
    due = due_documents(states, policy=policy, now=NOW, max_articles=2)
    overdue = {("2026/12/01", f"d{n}") for n in range(5)}
    assert len(due & overdue) == 2  # the cap, as the run's own plan
    # and the pages the template of their site is learnt from (those with a revision)
    assert due - overdue == {("2026/12/01", "d5")}
    assert due_documents(states, policy=policy, now=NOW, max_articles=0) == frozenset()
