"""Registering the documents behind one feed poll: gather, decide, apply.

:func:`register_poll` routes the poll's links to the documents the shard owns, loads what
the archive knows of each (:func:`load_known`), has
:func:`quietedit.decide.registration.plan_registration` decide (a pure function: the
rules are there), and applies the plan (:func:`apply_registration`): each document's
record then its ``feed-edit`` events, in the writer threads, many documents at once (each
write waits for the disk); the feed record last. Nothing here reads the clock: ``now`` is
the run's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime

from quietedit.archive.store import Archive
from quietedit.decide.poll import PollResult
from quietedit.decide.registration import (
    DocumentPlan,
    KnownDocument,
    PollPlan,
    needs_history,
    plan_registration,
    route_links,
)
from quietedit.decide.shard import Shard
from quietedit.errors import ArchiveError
from quietedit.ingest.feedrecords import save_departed
from quietedit.ingest.workers import Workers
from quietedit.model import JSON


async def register_poll(
    archive: Archive,
    poll: PollResult,
    *,
    now: datetime,
    shard: Shard,
    workers: Workers,
) -> PollPlan:
    """Register the documents ``shard`` owns of every link ``poll`` found, note links,
    claims and feed edits, and write the feed record if ``shard`` owns the feed; returns
    the plan it applied (its counts and errors are the summary's)."""
    routed = route_links(poll, shard=shard)
    docs = [*routed.documents, *(doc for doc in routed.closed if doc not in routed.documents)]
    known = await asyncio.gather(
        *(
            workers.write(
                load_known,
                archive,
                doc,
                feed=poll.feed.slug,
                history=doc in routed.documents and needs_history(poll, routed.documents[doc]),
            )
            for doc in docs
        )
    )
    plan = plan_registration(
        poll, routed, dict(zip(docs, known, strict=True)), shard=shard, now=now
    )
    await apply_registration(archive, plan, workers=workers, now=now)
    return plan


def load_known(archive: Archive, document: str, *, feed: str, history: bool) -> KnownDocument:
    """What ``archive`` knows of ``document``; with ``history``, its newest revision number
    and newest ``feed-edit`` event from ``feed`` too (an unreadable event history counts
    as having none). A record or revision that cannot be read is the result's ``error``."""
    try:
        record = archive.read_document(document)
        if record is None or not history:
            return KnownDocument(record)
        latest = archive.latest_revision(document)
    except ArchiveError as exc:
        return KnownDocument(error=str(exc))
    return KnownDocument(
        record,
        newest=None if latest is None else latest.number,
        last_feed_edit=_last_feed_edit(archive, document, feed=feed),
    )


async def apply_registration(
    archive: Archive, plan: PollPlan, *, workers: Workers, now: datetime
) -> None:
    """Make ``plan``'s writes: the documents' (at once, each in a writer thread), then
    the day file of the entries that left the feed, then the feed record, so a run that
    dies before it polls the same changes again (the documents' checks entries written
    first: :meth:`Archive.flush_checks`)."""
    await asyncio.gather(*(workers.write(_apply_document, archive, doc) for doc in plan.documents))
    if plan.feed_record is not None:
        if any(not doc.new and doc.record is not None for doc in plan.documents):
            # the feed record takes in the claims the known documents' checks entries
            # hold: those go to disk first, whatever a batching run does, or a run killed
            # before its flush would lose them (a new document's entry may wait: one never
            # checked is checked next run anyway)
            await workers.write(archive.flush_checks)
        if plan.departed is not None:  # before the record that forgets them
            day, snapshots = plan.departed
            await workers.write(save_departed, archive, plan.slug, day, snapshots, now=now)
        await workers.write(archive.write_feed, plan.slug, plan.feed_record)


def _apply_document(archive: Archive, plan: DocumentPlan) -> None:
    """One document's writes: its record (a new document's events need it), then its
    events. Nothing refers to a feed-edit event, and a run that dies between the two
    records the same edit next time (the feed record is written after them)."""
    if plan.record is not None:
        archive.write_document(plan.document, plan.record)
    for event in plan.events:
        archive.append_event(
            plan.document,
            event.kind,
            observed_at=event.observed_at,
            revision=event.revision,
            detail=event.detail,
        )


def _last_feed_edit(archive: Archive, document: str, *, feed: str) -> Mapping[str, JSON] | None:
    try:
        events = archive.events(document)
    except ArchiveError:
        return None
    for event in reversed(events):
        if event.kind == "feed-edit" and event.detail.get("feed") == feed:
            return event.detail
    return None
