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
from functools import partial
from typing import Final, Literal

from quietedit.archive.store import Archive
from quietedit.article.identity import canonical_url, is_home_or_section
from quietedit.article.template import HostProfile
from quietedit.decide.memory import DocumentState, document_to_record
from quietedit.decide.profiles import judge_observation
from quietedit.decide.reading import PageReading, read_page
from quietedit.decide.recheck import Outcome, after_check
from quietedit.errors import (
    FetchError,
    HostDeferredError,
    HTTPStatusError,
    InvalidURLError,
    RobotsDisallowedError,
)
from quietedit.fetch import Fetcher, RawDocument
from quietedit.ingest.poll import ValidatorCache
from quietedit.ingest.workers import Workers
from quietedit.model import JSON
from quietedit.revisions import Observation
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
    fetcher: Fetcher,
    archive: Archive,
    state: DocumentState,
    *,
    now: datetime,
    workers: Workers | None = None,
    signals: dict[str, JSON] | None = None,
    profile: HostProfile | None = None,
) -> CheckResult:
    """Check ``state``'s article once and record the result; the record is written here.

    Never raises for anything the publisher or the network does: it is all in the result.
    A deferral (the host's hourly budget is spent) leaves the document untouched, so it
    carries over to the next run. The page is read (:func:`~quietedit.decide.reading.read_page`)
    by ``workers`` and the archive's writes (each flushed to disk) run in their threads, so
    other fetches go on meanwhile; without ``workers``, both run in a thread of the loop.
    ``signals`` is what the feeds listing the article claim now, kept with a new revision;
    ``profile`` the host's template, through which the text is compared with the stored
    revisions (:mod:`quietedit.decide.profiles`).
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
        reading = None
        if isinstance(raw, RawDocument) and _needs_reading(state, raw):
            if workers is None:
                reading = await asyncio.to_thread(
                    read_page, raw.body, url=raw.url, content_type=raw.content_type
                )
            else:
                reading = await workers.read_page(
                    raw.body, url=raw.url, content_type=raw.content_type
                )
        record = partial(
            _record,
            archive,
            state,
            raw,
            cache,
            url=url,
            reading=reading,
            signals=signals,
            profile=profile,
            now=now,
        )
        return await (workers.write(record) if workers else asyncio.to_thread(record))
    except Exception as exc:  # a bug or a damaged file must not pin the article for ever
        logger.exception("article %s: the check failed", state.url)
        detail = f"the check failed: {exc!r}"
        failed = partial(_failed, archive, state, "failed", detail, now=now)
        try:
            return await (workers.write(failed) if workers else asyncio.to_thread(failed))
        except Exception:  # noqa: BLE001 - the record itself cannot be written: report only
            return CheckResult(state, "failed", detail)


def _needs_reading(state: DocumentState, raw: RawDocument) -> bool:
    """Whether :func:`_record` will look at the page's text (see its first steps)."""
    if raw.not_modified:
        return False
    return not (_redirected_elsewhere(state, raw.url) and is_home_or_section(raw.url))


def _record(
    archive: Archive,
    state: DocumentState,
    raw: RawDocument | FetchError,
    cache: ValidatorCache,
    *,
    url: str,
    reading: PageReading | None,
    signals: dict[str, JSON] | None,
    profile: HostProfile | None,
    now: datetime,
) -> CheckResult:
    """Everything after the fetch and the page's reading: the verdict and the archive's
    writes. ``reading`` is the page's, read beforehand where :func:`_needs_reading` says."""
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
    if reading is None:  # not foreseen by _needs_reading: read here rather than fail
        reading = read_page(raw.body, url=raw.url, content_type=raw.content_type)
    article = reading.article
    revisions = archive.revisions(state.id)
    # with a profile, both sides are compared without the host's furniture (profiles.py)
    verdict, seen = judge_observation(
        article,
        plain=reading.fingerprint,
        words=reading.words,
        revisions=[(r.content_hash, r.article) for r in revisions],
        seen=state.seen,
        profile=profile,
    )
    state = replace(state, title=article.title or state.title, seen=seen)
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
                encoding=reading.encoding,
                http={"status": raw.status, "etag": raw.etag, "last_modified": raw.last_modified},
                signals=signals,
            ),
            fingerprint=reading.fingerprint,  # what is stored is the text as extracted
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
            detail={
                "reason": verdict.reason,
                "content_hash": reading.fingerprint,
                "url": raw.url,
            },
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
    # the check's last write: nothing refers to it, and losing it to a power cut is a
    # check killed before it (see the module docstring), so its rename need not be flushed
    archive.write_document(state.id, document_to_record(state), final=True)
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
