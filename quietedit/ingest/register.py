"""Registering the documents behind one feed poll: links, claims and feed edits.

Every link a poll found becomes a document (``documents/<id>/document.json``) the first
time it is seen. Each poll adds the link and its feed to the document, moves the document's
update claim to the feed's when that is newer, and records a ``feed-edit`` event when the
feed changed the title or summary of the entry of a document registered before. Only
documents the run's shard owns are touched: the shard of each other document polls the
same feed and registers its own.

One link failing (an invalid URL, a damaged record) becomes an error on the result; the
other links are registered. Nothing here reads the clock: ``now`` is the run's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from quietedit.archive.store import Archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.decide.candidates import EntryCandidate
from quietedit.decide.memory import DocumentState, document_from_record, document_to_record
from quietedit.decide.poll import PollResult
from quietedit.decide.recheck import Candidate
from quietedit.decide.shard import Shard
from quietedit.errors import ArchiveError, InvalidURLError
from quietedit.feeds.edits import EntryChange
from quietedit.ingest.workers import Workers
from quietedit.model import JSON


@dataclass(frozen=True, slots=True)
class Registered:
    """What registering links did: documents created, ``feed-edit`` events recorded, and
    one error per link left unregistered (``"feed <slug>: <reason>"``), those of invalid
    URLs first, then those of damaged records."""

    new_documents: int = 0
    feed_edits: int = 0
    errors: tuple[str, ...] = ()


async def register_poll(
    archive: Archive,
    poll: PollResult,
    *,
    now: datetime,
    shard: Shard,
    workers: Workers,
) -> Registered:
    """Make a document of every new link a poll found; note links, claims and feed edits.
    Only links to documents ``shard`` owns: the shard of each other document polls the same
    feed and registers its own.

    Documents are registered in the writer threads, many at once (each write waits for the
    disk); the links of one document, in feed order, by one of them."""
    slug = poll.feed.slug
    edited = {change.entry.link: change for change in poll.changes if change.entry.link}
    errors: list[str] = []
    links: dict[str, list[tuple[str, EntryCandidate]]] = {}
    for found in poll.candidates:
        try:
            url = canonical_url(found.url)
        except InvalidURLError as exc:
            errors.append(f"feed {slug}: {exc}")
            continue
        if not shard.owns(url):
            continue
        links.setdefault(document_id(url), []).append((url, found))
    done = await asyncio.gather(
        *(
            workers.write(
                _register_document, archive, doc, found, poll=poll, edited=edited, now=now
            )
            for doc, found in links.items()
        )
    )
    return Registered(
        new_documents=sum(registered.new_documents for registered in done),
        feed_edits=sum(registered.feed_edits for registered in done),
        errors=(*errors, *(error for registered in done for error in registered.errors)),
    )


def _register_document(
    archive: Archive,
    doc: str,
    links: list[tuple[str, EntryCandidate]],
    *,
    poll: PollResult,
    edited: Mapping[str, EntryChange],
    now: datetime,
) -> Registered:
    """Register the ``links`` (canonical URL, candidate) of one document that ``poll`` found.

    A ``feed-edit`` event the document already has as its newest one from this feed (same
    text before and after) is not recorded again: a shard compares another shard's feed
    with its committed record, which lags when that shard's run failed to push, and a run
    that died before writing the feed record compares with the old one."""
    slug = poll.feed.slug
    registered = Registered()
    for url, found in links:
        try:
            record = archive.read_document(doc)
        except ArchiveError as exc:  # a damaged record: this link waits, the run goes on
            errors = (*registered.errors, f"feed {slug}: {exc}")
            registered = replace(registered, errors=errors)
            continue
        state = (
            document_from_record(doc, record)
            if record is not None
            else _new_document(doc, url, found, slug=slug)
        )
        if record is None:
            registered = replace(registered, new_documents=1)
        before = state
        state = state.with_link(found.url, feed=slug)
        if state.title is None and found.title:
            state = replace(state, title=found.title)
        if found.url in poll.claims:
            claim = found.updated_claim or now
            current = state.candidate.claimed_at
            if current is None or claim > current:
                # the claim is this feed's: its trust decides, and it is charged the outcome
                claimed = replace(state.candidate, claimed_at=claim, feed=slug)
                state = replace(state, candidate=claimed)
        change = edited.get(found.url)
        if record is not None and change is not None and change.previous is not None:
            detail: dict[str, JSON] = {
                "feed": slug,
                "fields": list(change.fields),
                "before": {"title": change.previous.title, "summary": change.previous.summary},
                "after": {"title": change.entry.title, "summary": change.entry.summary},
            }
            if not _recorded_last(archive, doc, detail):
                archive.append_event(
                    doc,
                    "feed-edit",
                    observed_at=now,
                    revision=_newest(archive, doc),
                    detail=detail,
                )
                registered = replace(registered, feed_edits=registered.feed_edits + 1)
        if state != before or record is None:
            archive.write_document(doc, document_to_record(state))
    return registered


def _recorded_last(archive: Archive, doc: str, detail: Mapping[str, JSON]) -> bool:
    """Whether the newest ``feed-edit`` event of ``doc`` from ``detail``'s feed records the
    same edit (``before`` and ``after``); an unreadable event history counts as not."""
    try:
        events = archive.events(doc)
    except ArchiveError:
        return False
    for event in reversed(events):
        if event.kind == "feed-edit" and event.detail.get("feed") == detail["feed"]:
            return all(event.detail.get(key) == detail[key] for key in ("before", "after"))
    return False


def _new_document(doc: str, url: str, found: EntryCandidate, *, slug: str) -> DocumentState:
    host = url.split("/")[2] if url.count("/") >= 2 else ""
    return DocumentState(
        id=doc,
        url=url,
        candidate=Candidate(
            key=doc,
            host=host.lower(),
            discovered_at=found.discovered_at,
            published_at=found.published_at if found.published_from != "discovered" else None,
            feed=slug,
        ),
        title=found.title,
    )


def _newest(archive: Archive, doc: str) -> int | None:
    latest = archive.latest_revision(doc)
    return None if latest is None else latest.number
