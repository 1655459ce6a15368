"""Registering a poll in a batching run: what the feed record takes in is on disk first."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.decide.memory import document_from_record
from quietedit.decide.registration import DocumentPlan, PollPlan
from quietedit.ingest.register import apply_registration
from quietedit.ingest.workers import Workers
from quietedit.model import JSON, parse_timestamp
from tests.conftest import STORY_URL

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_a_claim_is_on_disk_before_the_feed_record_that_took_it_in(tmp_path: Path) -> None:
    """The feed record, once written, never sees the same claim again: a batching run
    killed after it must not lose the claim its document's checks entry holds."""
    data = tmp_path / "data"
    doc = document_id(STORY_URL)
    Archive(data).write_document(doc, _record(claimed_at=None))
    running = Archive(data)
    running.checks.batched = True
    plan = PollPlan(
        "metro",
        documents=(DocumentPlan(doc, record=_record(claimed_at="2026-11-30T08:00:00Z")),),
        feed_record={"url": "https://news.example.org/feed.xml", "entries": {}},
    )

    async def apply() -> None:
        with Workers(threads=2) as workers:
            await apply_registration(running, plan, workers=workers, now=NOW)

    asyncio.run(apply())
    # killed here: nothing flushed at the end of the run
    after = Archive(data)
    assert after.read_feed("metro") is not None
    assert document_from_record(doc, after.read_document(doc) or {}).candidate.claimed_at == (
        parse_timestamp("2026-11-30T08:00:00Z")
    )


def _record(*, claimed_at: str | None) -> dict[str, JSON]:
    return {
        "url": STORY_URL,
        "discovered_at": "2026-11-30T06:00:00Z",
        "feeds": ["metro"],
        "http": {"etag": None, "last_modified": None},
        "schedule": {"last_checked_at": "2026-11-30T07:00:00Z", "claimed_at": claimed_at},
    }
