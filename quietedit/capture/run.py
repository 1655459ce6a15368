"""One ``quietedit capture`` run: poll the jobs asked for before, ask for the new revisions.

Gather: the state (``state/captures.json``, :mod:`quietedit.capture.state`), how many
revisions each document on disk has, and the revisions added since the last run. Decide:
which to ask for now (oldest first, ``settings.archive_org.max_captures``, none while
backing off). Apply: poll each pending job (a success becomes an ``archived`` event of
the document, with the copy's address), then ask for the captures, then write the state.

Nothing here waits for a job: a job still pending is polled by the next run. A failed
request is recorded and backs the run off (the remaining requests wait); it never stops
the run, and the run never fails an ingest: its problems are lines of the report.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field, replace
from datetime import datetime

from quietedit.archive.store import Archive
from quietedit.capture.spn2 import CaptureError, SavePageNow
from quietedit.capture.state import (
    MAX_QUEUE,
    MAX_TRIES,
    STATE_NAME,
    Capture,
    CaptureState,
    expired,
    new_revisions,
    snapshot_url,
)
from quietedit.config.settings import ArchiveOrgSettings
from quietedit.errors import ArchiveError
from quietedit.fetch.retry import parse_retry_after
from quietedit.model import format_timestamp, parse_timestamp

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class CaptureReport:
    requested: int = 0
    archived: list[str] = field(default_factory=list)  # snapshot URLs recorded
    pending: int = 0
    queued: int = 0
    problems: list[str] = field(default_factory=list)


def capture_revisions(
    archive: Archive,
    settings: ArchiveOrgSettings,
    service: SavePageNow,
    *,
    now: datetime,
) -> CaptureReport:
    """Poll, ask and record (see the module docstring); the caller holds the run lock."""
    report = CaptureReport()
    try:
        state = CaptureState.from_record(archive.read_state(STATE_NAME))
    except ArchiveError as exc:
        report.problems.append(f"{exc}; starting afresh")
        state = CaptureState()
    state = _poll(archive, service, state, report, settings=settings, now=now)
    state = _find_new(archive, state, now=now)
    state = _ask(service, state, report, settings=settings, now=now)
    report.pending, report.queued = len(state.pending), len(state.queue)
    archive.write_state(STATE_NAME, state.to_record())
    return report


def _poll(
    archive: Archive,
    service: SavePageNow,
    state: CaptureState,
    report: CaptureReport,
    *,
    settings: ArchiveOrgSettings,
    now: datetime,
) -> CaptureState:
    if state.backing_off(now):
        return state
    still: list[Capture] = []
    again: list[Capture] = []
    for index, capture in enumerate(state.pending):
        try:
            job = service.status(capture.job)
        except CaptureError as exc:
            report.problems.append(f"{capture.document} revision {capture.revision}: {exc}")
            # the rest are polled after the backoff
            return replace(
                state, pending=(*still, *state.pending[index:]), queue=(*again, *state.queue)
            ).failed(now, backoff=settings.backoff, at_least=_asked_wait(exc, now))
        if job.status == "success":
            url = snapshot_url(settings.base_url, job.timestamp, job.original_url or capture.url)
            try:
                archive.append_event(
                    capture.document,
                    "archived",
                    observed_at=now,
                    revision=capture.revision,
                    detail={"snapshot": url, "timestamp": job.timestamp, "url": capture.url},
                )
            except ArchiveError as exc:  # the document left the index, or cannot be fetched
                report.problems.append(
                    f"{capture.document} revision {capture.revision}: copy {url} not recorded: "
                    f"{exc}"
                )
                continue  # dropped: the run's own revisions must still be committed
            report.archived.append(url)
        elif job.status == "error" or expired(capture, now):
            why = job.message if job.status == "error" else "still pending after a day"
            if capture.tries < MAX_TRIES:
                again.append(replace(capture, job="", requested_at=""))
            else:
                report.problems.append(
                    f"{capture.document} revision {capture.revision}: no copy made ({why})"
                )
        else:
            still.append(capture)
    return replace(state, pending=tuple(still), queue=(*again, *state.queue)).succeeded()


def _find_new(archive: Archive, state: CaptureState, *, now: datetime) -> CaptureState:
    """The queue with the revisions added since the last run, and the new counts."""
    counts: dict[str, int] = {}
    for document in archive.document_ids(archive.partitions()):
        folder = archive.revisions_dir(document)
        try:
            counts[document] = sum(1 for name in os.listdir(folder) if name.endswith(".json"))
        except OSError:
            continue
    if state.checked_at is None:
        # the first run: what is on disk now is the starting point, not a backlog
        return replace(
            state, checked_at=format_timestamp(now), counts=tuple(sorted(counts.items()))
        )
    known = dict(state.counts)
    checked = parse_timestamp(state.checked_at)
    first_time: dict[str, int] = {}
    revisions_of: dict[str, dict[int, tuple[str, str]]] = {}
    wanted = {d for d, c in counts.items() if d not in known or c > known[d]}
    for document in sorted(wanted):
        try:
            revisions = archive.revisions(document, shallow=True)
        except ArchiveError as exc:
            logger.warning("%s; not captured", exc)
            continue
        revisions_of[document] = {
            r.number: (r.observation.url, format_timestamp(r.observation.observed_at))
            for r in revisions
        }
        if document not in known:
            after = [r.number for r in revisions if r.observation.observed_at > checked]
            first_time[document] = min(after) if after else len(revisions) + 1
    found = new_revisions(state, counts, first_time=first_time)
    queued = list(state.queue)
    for document, number in found:
        url, observed = revisions_of.get(document, {}).get(number, ("", ""))
        if url:
            queued.append(Capture(document, number, url, observed))
    return replace(
        state,
        checked_at=format_timestamp(now),
        counts=tuple(sorted(counts.items())),
        queue=tuple(queued[-MAX_QUEUE:]),
    )


def _ask(
    service: SavePageNow,
    state: CaptureState,
    report: CaptureReport,
    *,
    settings: ArchiveOrgSettings,
    now: datetime,
) -> CaptureState:
    if state.backing_off(now):
        return state
    queue = list(state.queue)
    pending = list(state.pending)
    while queue and report.requested < settings.max_captures:
        capture = queue[0]
        try:
            job = service.request(capture.url)
        except CaptureError as exc:
            report.problems.append(f"{capture.document} revision {capture.revision}: {exc}")
            return replace(state, queue=tuple(queue), pending=tuple(pending)).failed(
                now, backoff=settings.backoff, at_least=_asked_wait(exc, now)
            )
        queue.pop(0)
        report.requested += 1
        pending.append(
            replace(capture, job=job, requested_at=format_timestamp(now), tries=capture.tries + 1)
        )
    return replace(state, queue=tuple(queue), pending=tuple(pending)).succeeded()


def _asked_wait(exc: CaptureError, now: datetime) -> float:
    """Seconds the service asked to wait (its Retry-After), 0 when it did not say."""
    if not exc.retry_after:
        return 0.0
    wait = parse_retry_after(exc.retry_after, now=now)
    return wait if wait is not None else 0.0
