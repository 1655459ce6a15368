"""Checking one article: gather (fetch, read, load), decide, apply.

:func:`check_article` gathers: it fetches the page, has it read by the workers, and loads
what the archive holds of the document as far as the decision
(:func:`quietedit.decide.check.needs`) asks. :func:`quietedit.decide.check.plan_check`
decides, a pure function. :func:`apply_check` makes the plan's writes, in the one order
that keeps the archive sound if the process dies between any two of them: evidence, then
the revision that references it, then the events (each refers to a revision already
stored; a live update's page is kept as evidence just before its event), then the
document record. A run killed after the revision but before the record
simply fetches the article again next time, finds the same content, and stores nothing
twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial

from quietedit.archive.evidence import EvidenceLog
from quietedit.archive.records import evidence_to_record
from quietedit.archive.store import Archive
from quietedit.article.template import HostProfile
from quietedit.decide.check import (
    FAILED_STATUSES,
    CheckPlan,
    CheckResult,
    Gathered,
    Needs,
    Stored,
    needs,
    plan_check,
    plan_failure,
)
from quietedit.decide.memory import DocumentState
from quietedit.decide.reading import read_page
from quietedit.errors import ArchiveError, FetchError, HostDeferredError
from quietedit.fetch import Fetcher, RawDocument
from quietedit.fetch.render import Renderer
from quietedit.ingest.poll import ValidatorCache
from quietedit.ingest.workers import Workers
from quietedit.model import JSON
from quietedit.revisions import EvidenceRef, Observation

logger = logging.getLogger(__name__)


async def check_article(
    fetcher: Fetcher,
    archive: Archive,
    state: DocumentState,
    *,
    now: datetime,
    workers: Workers | None = None,
    signals: dict[str, JSON] | None = None,
    profile: HostProfile | None = None,
    evidence: EvidenceLog | None = None,
    renderer: Renderer | None = None,
) -> CheckResult:
    """Check ``state``'s article once and record the result; the record is written here.

    Never raises for anything the publisher or the network does: it is all in the result.
    A deferral (the host's hourly budget is spent) leaves the document untouched, so it
    carries over to the next run. The page is read (:func:`~quietedit.decide.reading.read_page`)
    by ``workers`` and the archive's reads and writes (each write flushed to disk) run in
    their threads, so other fetches go on meanwhile; without ``workers``, both run in a
    thread of the loop. ``signals`` and ``profile`` are as for
    :func:`~quietedit.decide.check.plan_check`; a new revision's response is kept in
    ``evidence`` (:func:`apply_check`). With a ``renderer`` (the article's feed says
    ``render: chromium``) the page is rendered after it is fetched, and what is read is the
    rendered DOM; its request is never conditional, since an unchanged page may still load
    changed text.
    """
    url = state.links[0] if state.links else state.url
    cache = None
    if renderer is None:
        cache = ValidatorCache(url, etag=state.etag, last_modified=state.last_modified)
    try:
        fetched: RawDocument | FetchError = await fetcher.fetch_article(url, cache=cache)
        if renderer is not None and isinstance(fetched, RawDocument):
            fetched = await renderer.render(fetched)
    except FetchError as exc:
        fetched = exc
    if isinstance(fetched, HostDeferredError):  # nothing to load, nothing to write
        return plan_check(state, Gathered(fetched, url), now=now).result
    try:
        need = needs(state, fetched)
        reading = None
        if need.page and isinstance(fetched, RawDocument):
            page = fetched
            if workers is None:
                reading = await asyncio.to_thread(
                    read_page, page.body, url=page.url, content_type=page.content_type
                )
            else:
                reading = await workers.read_page(
                    page.body, url=page.url, content_type=page.content_type
                )
        gathered = Gathered(fetched, url, cache.entry if cache else None, reading)
        settle = partial(
            _settle,
            archive,
            state,
            gathered,
            need,
            signals=signals,
            profile=profile,
            now=now,
            evidence=evidence,
        )
        return await _in_writer(workers, settle)
    except Exception as exc:  # a bug or a damaged file must not pin the article for ever
        logger.exception("article %s: the check failed", state.url)
        detail = f"the check failed: {exc!r}"
        failed = partial(apply_check, archive, plan_failure(state, detail, now=now))
        try:
            return await _in_writer(workers, failed)
        except Exception:  # noqa: BLE001 - the record itself cannot be written: report only
            return CheckResult(state, "failed", detail)


def _settle(
    archive: Archive,
    state: DocumentState,
    gathered: Gathered,
    need: Needs,
    *,
    signals: dict[str, JSON] | None,
    profile: HostProfile | None,
    now: datetime,
    evidence: EvidenceLog | None,
) -> CheckResult:
    """The rest of a check, in a writer thread: load what is stored, decide, apply."""
    stored = load_stored(archive, state.id, need)
    plan = plan_check(
        state, replace(gathered, stored=stored), now=now, signals=signals, profile=profile
    )
    return apply_check(archive, plan, evidence=evidence)


def load_stored(archive: Archive, document: str, need: Needs) -> Stored:
    """What ``archive`` holds of ``document`` as far as ``need`` asks (raises
    ``ArchiveError`` for a damaged revision: the check then fails)."""
    if need.page:
        revisions = archive.revisions(document)
        pairs = tuple((revision.content_hash, revision.article) for revision in revisions)
        return Stored(newest=len(pairs) or None, revisions=pairs)
    if need.newest:
        latest = archive.latest_revision(document)
        return Stored(newest=None if latest is None else latest.number)
    return Stored()


def apply_check(
    archive: Archive, plan: CheckPlan, *, evidence: EvidenceLog | None = None
) -> CheckResult:
    """Make ``plan``'s writes in the crash-safe order (see the module docstring) and
    return its result. A new revision's response goes to ``evidence`` first, and the
    revision names its record (without a log, the revision names no evidence). Raises
    ``ArchiveError`` when a write fails, or when the archive numbers the new revision
    otherwise than the plan (the record is then not written)."""
    result = plan.result
    document = result.state.id
    new = plan.revision
    if new is not None:
        observation = new.observation
        if evidence is not None:
            observation = replace(
                observation, evidence=_keep_evidence(evidence, document, new.response, observation)
            )
        stored = archive.append_revision(document, observation, fingerprint=new.fingerprint)
        if stored.number != new.number:
            raise ArchiveError(
                archive.revision_file(document, stored.number),
                f"stored as revision {stored.number}, planned as {new.number}; another "
                "writer is at work: run quietedit verify",
            )
    for event in plan.events:
        detail = event.detail
        if event.response is not None and evidence is not None:
            page = event.response  # a live update's entries: the page they were seen in
            kept = evidence.append_response(
                document=document,
                url=page.url,
                observed_at=event.observed_at,
                status=page.status,
                headers=page.headers,
                body=page.body,
            )
            detail = {**detail, "evidence": evidence_to_record(kept)}
        archive.append_event(
            document,
            event.kind,
            observed_at=event.observed_at,
            revision=event.revision,
            detail=detail,
        )
    if plan.record is not None:
        # the check's last write: nothing refers to it, and losing it to a power cut is a
        # check killed before it (see the module docstring), so its rename need not be flushed
        # a new revision restarts the schedule (changes, last_changed_at): written at once,
        # not with the run's batch, so a run killed later keeps it
        archive.write_document(document, plan.record, final=True, at_once=new is not None)
    if result.status in FAILED_STATUSES:
        logger.info("article %s: %s", result.state.url, result.detail)
    return result


def _keep_evidence(
    evidence: EvidenceLog, document: str, page: RawDocument, observation: Observation
) -> EvidenceRef:
    """Append ``page``'s evidence; the reference the revision keeps. A rendered page is the
    server's response, then the rendered DOM referring to it (which the revision names)."""
    original = page.original
    kept = evidence.append_response(
        document=document,
        url=original.url,
        observed_at=observation.observed_at,
        status=original.status,
        headers=original.headers,
        body=original.body,
    )
    if page.rendering is None:
        return kept
    rendering = page.rendering
    return evidence.append_rendered(
        document=document,
        url=page.url,
        observed_at=observation.observed_at,
        body=page.body,
        content_type=page.content_type or "text/html",
        refers_to=kept,
        rendering=[
            ("By", rendering.browser),
            ("Requests", str(rendering.requests)),
            ("Skipped", str(rendering.skipped)),
            *(("Refused", refused) for refused in rendering.refused),
        ],
    )


async def _in_writer(workers: Workers | None, job: Callable[[], CheckResult]) -> CheckResult:
    return await (workers.write(job) if workers else asyncio.to_thread(job))
