"""Checking one article: fetch, extract, fingerprint, judge, and record what it means.

Writes happen in the one order that keeps the archive sound if the process dies between
any two of them: evidence, then the revision or event that references it, then the
document record. A run killed after the revision but before the record simply fetches the
article again next time, finds the same content, and stores nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final, Literal

from quietedit.archive.store import Archive
from quietedit.article.encoding import resolve_encoding
from quietedit.article.extract import extract_article
from quietedit.article.fingerprint import content_hash
from quietedit.article.identity import canonical_url, is_home_or_section
from quietedit.errors import (
    FetchError,
    HostDeferredError,
    HTTPStatusError,
    InvalidURLError,
    RobotsDisallowedError,
)
from quietedit.fetch import Fetcher, RawDocument
from quietedit.ingest.policy import Outcome, after_check
from quietedit.ingest.poll import ValidatorCache
from quietedit.ingest.state import DocumentState, Seen, document_to_record
from quietedit.ingest.versioning import Known, body_words, judge, next_known
from quietedit.model import Observation
from quietedit.version import __version__

logger = logging.getLogger(__name__)

EXTRACTOR: Final = f"quietedit/{__version__}"
GONE_STATUSES: Final = frozenset({404, 410})

CheckStatus = Literal[
    "new-revision",
    "unchanged",
    "not-modified",
    "flip-flop",
    "anomaly",
    "gone",
    "redirected",
    "robots",
    "failed",
    "deferred",
]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The document's new state and what the check found."""

    state: DocumentState
    status: CheckStatus
    detail: str = ""
    revision: int | None = None

    @property
    def produced_revision(self) -> bool:
        return self.status == "new-revision"


async def check_article(
    fetcher: Fetcher, archive: Archive, state: DocumentState, *, now: datetime
) -> CheckResult:
    """Check ``state``'s article once and record the result; the record is written here.

    Never raises for anything the publisher or the network does: it is all in the result.
    A deferral (the host's hourly budget is spent) leaves the document untouched, so it
    carries over to the next run. Extraction and the archive's writes (each flushed to
    disk) run in a worker thread, so other fetches go on meanwhile.
    """
    url = state.links[0] if state.links else state.url
    cache = ValidatorCache(url, etag=state.etag, last_modified=state.last_modified)
    try:
        raw: RawDocument | FetchError = await fetcher.fetch_article(url, cache=cache)
    except HostDeferredError as exc:
        return CheckResult(state, "deferred", str(exc))
    except FetchError as exc:
        raw = exc
    try:
        return await asyncio.to_thread(_record, archive, state, raw, cache, url=url, now=now)
    except Exception as exc:  # a bug or a damaged file must not pin the article for ever
        logger.exception("article %s: the check failed", state.url)
        detail = f"the check failed: {exc!r}"
        try:
            return _failed(archive, state, "failed", detail, now=now)
        except Exception:  # noqa: BLE001 - the record itself cannot be written: report only
            return CheckResult(state, "failed", detail)


def _record(
    archive: Archive,
    state: DocumentState,
    raw: RawDocument | FetchError,
    cache: ValidatorCache,
    *,
    url: str,
    now: datetime,
) -> CheckResult:
    """Everything after the fetch: extraction, the verdict and the archive's writes."""
    if isinstance(raw, HTTPStatusError) and raw.status in GONE_STATUSES:
        return _gone(archive, state, status=raw.status, now=now)
    if isinstance(raw, RobotsDisallowedError):
        return _failed(archive, state, "robots", str(raw), now=now)
    if isinstance(raw, FetchError):
        return _failed(archive, state, "failed", str(raw), now=now)
    validators = cache.entry
    state = replace(
        state,
        etag=validators.etag if validators else None,
        last_modified=validators.last_modified if validators else None,
    )
    if raw.not_modified:
        return _done(
            archive, state, "not-modified", "304 Not Modified", outcome="unchanged", now=now
        )
    moved = _redirected_elsewhere(state, raw.url)
    if moved and state.location != raw.url:
        archive.append_event(
            state.id,
            "redirected",
            observed_at=now,
            revision=_newest(archive, state.id),
            detail={"location": raw.url, "from": url},
        )
        state = replace(state, location=raw.url)
    if moved and is_home_or_section(raw.url):
        # a story that now lands on a home or section page has been taken down
        state = replace(state, status="redirected")
        return _failed(archive, state, "redirected", f"now redirects to {raw.url}", now=now)
    article = extract_article(raw.body, url=raw.url, content_type=raw.content_type)
    revisions = archive.revisions(state.id)
    hashes = tuple(r.content_hash for r in revisions)
    behind = len(revisions) > state.seen.revisions  # a run died after storing a revision
    known = Known(
        revision_hashes=hashes,
        newest_words=body_words(revisions[-1].article) if revisions else 0,
        last_seen=hashes[-1] if behind else state.seen.last_seen,
        anomaly_hash=None if behind else state.seen.anomaly_hash,
        anomaly_count=0 if behind else state.seen.anomaly_count,
    )
    fingerprint = content_hash(article)
    verdict = judge(article, fingerprint=fingerprint, known=known)
    after = next_known(known, verdict, fingerprint=fingerprint, words=body_words(article))
    state = replace(
        state,
        title=article.title or state.title,
        seen=Seen(
            after.last_seen,
            after.anomaly_hash,
            after.anomaly_count,
            revisions=len(after.revision_hashes),
        ),
    )
    newest = len(revisions) or None
    if verdict.action == "store":
        evidence = archive.put_evidence(state.id, raw.body)
        revision = archive.append_revision(
            state.id,
            Observation(
                url=raw.url,
                observed_at=now,
                article=article,
                extractor=EXTRACTOR,
                evidence=evidence,
                encoding=resolve_encoding(raw.body, raw.content_type).to_record(),
                http={"status": raw.status, "etag": raw.etag, "last_modified": raw.last_modified},
            ),
            fingerprint=fingerprint,
        )
        state = _restored(archive, state, revision=revision.number, now=now)
        result = _done(archive, state, "new-revision", verdict.reason, outcome="changed", now=now)
        return replace(result, revision=revision.number)
    if verdict.action in ("flip-flop", "anomaly") and verdict.record_event:
        archive.append_event(
            state.id,
            verdict.action,
            observed_at=now,
            revision=verdict.revision if verdict.action == "flip-flop" else newest,
            detail={"reason": verdict.reason, "content_hash": fingerprint, "url": raw.url},
        )
    if verdict.action != "anomaly":  # the article is served again, whatever its text
        state = _restored(archive, state, revision=verdict.revision or newest, now=now)
    if verdict.action == "unchanged":
        return _done(archive, state, "unchanged", verdict.reason, outcome="unchanged", now=now)
    status: CheckStatus = "flip-flop" if verdict.action == "flip-flop" else "anomaly"
    return _done(archive, state, status, verdict.reason, outcome="unchanged", now=now)


def _restored(
    archive: Archive, state: DocumentState, *, revision: int | None, now: datetime
) -> DocumentState:
    """The document served again after being gone or redirected away: say so, once."""
    if state.status == "active":
        return state
    archive.append_event(
        state.id, "restored", observed_at=now, revision=revision, detail={"was": state.status}
    )
    return replace(state, status="active")


def _gone(archive: Archive, state: DocumentState, *, status: int, now: datetime) -> CheckResult:
    if state.status != "gone":
        archive.append_event(
            state.id,
            "gone",
            observed_at=now,
            revision=_newest(archive, state.id),
            detail={"status": status},
        )
    state = replace(state, status="gone")
    return _failed(archive, state, "gone", f"HTTP {status}", now=now)


def _failed(
    archive: Archive, state: DocumentState, status: CheckStatus, detail: str, *, now: datetime
) -> CheckResult:
    logger.info("article %s: %s", state.url, detail)
    return _done(archive, state, status, detail, outcome="failed", now=now)


def _done(
    archive: Archive,
    state: DocumentState,
    status: CheckStatus,
    detail: str,
    *,
    outcome: Outcome,
    now: datetime,
) -> CheckResult:
    state = replace(state, candidate=after_check(state.candidate, outcome=outcome, now=now))
    archive.write_document(state.id, document_to_record(state))
    return CheckResult(state, status, detail)


def _newest(archive: Archive, document: str) -> int | None:
    latest = archive.latest_revision(document)
    return None if latest is None else latest.number


def _redirected_elsewhere(state: DocumentState, final_url: str) -> bool:
    """Whether the page now lives at another article's address (not just a variant URL)."""
    try:
        return canonical_url(final_url) != state.url
    except InvalidURLError:
        return True
