"""Registering the documents behind one feed poll, decided: links, claims, feed edits and
the feed record -> a plan of writes (pure).

Every link a poll found becomes a document the first time it is seen. Each poll adds the
link and its feed to the document, moves the document's update claim to the feed's when
that is newer, and records a ``feed-edit`` event when the feed changed the title or
summary of the entry of a document registered before. Only documents the run's shard owns
are touched: the shard of each other document polls the same feed and registers its own;
the feed record is written by the shard that owns the feed.

The shell routes the poll's links to documents (:func:`route_links`), loads what the
archive knows of each (:class:`KnownDocument`, the history only where :func:`needs_history`
says), and applies the :class:`PollPlan` of :func:`plan_registration`: each document's
record, then its events; the feed record last, so a run that dies before it finds the
same changes next time, and records no feed edit twice (a feed edit is not recorded again
when it is the document's newest one from that feed).

One link failing (an invalid URL, a damaged record) becomes an error on the plan; the
other links are registered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from quietedit.article.identity import canonical_url, document_id
from quietedit.decide.candidates import EntryCandidate
from quietedit.decide.check import NewEvent
from quietedit.decide.departed import day_of
from quietedit.decide.homepage import EVENT_KIND as HEADLINES_EVENT
from quietedit.decide.homepage import ClosedLink
from quietedit.decide.memory import (
    DocumentState,
    document_from_record,
    document_to_record,
    feed_to_record,
    leaving_kept,
)
from quietedit.decide.poll import PollResult
from quietedit.decide.recheck import Candidate
from quietedit.decide.shard import Shard
from quietedit.errors import InvalidURLError
from quietedit.feeds.edits import EntryChange, EntrySnapshot
from quietedit.model import JSON

Link = tuple[str, EntryCandidate]
"""A link a poll found for a document: its canonical URL and the candidate as listed."""


@dataclass(frozen=True, slots=True)
class RoutedLinks:
    """The links of a poll that the shard owns, by document id (each in feed order), and
    one error per link that is no valid URL (``"feed <slug>: <reason>"``); ``closed``, the
    homepage links whose headline history is complete, by the document they go to."""

    documents: Mapping[str, tuple[Link, ...]]
    errors: tuple[str, ...] = ()
    closed: Mapping[str, ClosedLink] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class KnownDocument:
    """What the archive knows of a document: its ``record`` (``None``: a new document),
    and, where :func:`needs_history` asked, its ``newest`` revision number and the
    ``detail`` of its newest ``feed-edit`` event from the polled feed (``None``: none, or
    the events could not be read). ``error`` says why the document could not be read;
    its links then wait for the next poll."""

    record: Mapping[str, JSON] | None = None
    newest: int | None = None
    last_feed_edit: Mapping[str, JSON] | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class DocumentPlan:
    """One document's writes: its ``record`` (``None``: unchanged, nothing written), then
    the ``events`` to append; ``new`` when the poll registers it."""

    document: str
    events: tuple[NewEvent, ...] = ()
    record: dict[str, JSON] | None = None
    new: bool = False


@dataclass(frozen=True, slots=True)
class PollPlan:
    """A poll's writes: each document's, then the snapshots of the entries that left the
    feed (``departed``: the day file and its new snapshots, added to those it holds), then
    the ``feed_record`` of feed ``slug`` (``None``: another shard's feed), which forgets
    them. ``errors`` has one per link left unregistered, those of invalid URLs first, then
    those of unreadable records."""

    slug: str
    documents: tuple[DocumentPlan, ...] = ()
    feed_record: dict[str, JSON] | None = None
    departed: tuple[str, Mapping[str, EntrySnapshot]] | None = None
    errors: tuple[str, ...] = field(default_factory=tuple)

    @property
    def new_documents(self) -> int:
        return sum(plan.new for plan in self.documents)

    @property
    def feed_edits(self) -> int:
        return sum(event.kind == "feed-edit" for plan in self.documents for event in plan.events)


def route_links(poll: PollResult, *, shard: Shard) -> RoutedLinks:
    """The documents behind ``poll``'s candidates that ``shard`` owns, with their links."""
    slug = poll.feed.slug
    errors: list[str] = []
    documents: dict[str, list[Link]] = {}
    for found in poll.candidates:
        try:
            url = canonical_url(found.url)
        except InvalidURLError as exc:
            errors.append(f"feed {slug}: {exc}")
            continue
        if shard.owns(url):
            documents.setdefault(document_id(url), []).append((url, found))
    closed = {}
    for link in poll.closed:  # canonical already: a homepage's links are stored so
        if shard.owns(link.url):
            closed[document_id(link.url)] = link
    return RoutedLinks(
        {doc: tuple(links) for doc, links in documents.items()}, tuple(errors), closed
    )


def needs_history(poll: PollResult, links: tuple[Link, ...]) -> bool:
    """Whether registering ``links`` may record a feed edit, so the document's newest
    revision and feed-edit event must be known."""
    edited = _edited(poll)
    return any(
        (change := edited.get(found.url)) is not None and change.previous is not None
        for _, found in links
    )


def plan_registration(
    poll: PollResult,
    routed: RoutedLinks,
    known: Mapping[str, KnownDocument],
    *,
    shard: Shard,
    now: datetime,
) -> PollPlan:
    """The writes that register ``routed`` (of ``poll``) given what is ``known`` of each
    document, and the feed record, at ``now`` (see the module docstring)."""
    slug = poll.feed.slug
    edited = _edited(poll)
    plans: list[DocumentPlan] = []
    errors = list(routed.errors)
    for doc, links in routed.documents.items():
        document = known.get(doc, KnownDocument())
        if document.error is not None:  # a damaged record: its links wait, the run goes on
            errors.extend(f"feed {slug}: {document.error}" for _ in links)
            continue
        plan = _plan_document(doc, links, document, poll=poll, edited=edited, now=now)
        if doc in routed.closed:
            plan = replace(plan, events=(*plan.events, _closed(routed.closed[doc], slug, now)))
        plans.append(plan)
    for doc, link in sorted(routed.closed.items()):
        document = known.get(doc, KnownDocument())
        # a link never registered (left out by include/exclude then, or failing) has no
        # document to keep its history in: it stays in the feed record's history in git
        if doc not in routed.documents and document.record is not None and not document.error:
            plans.append(DocumentPlan(doc, (_closed(link, slug, now),)))
    owned = shard.owns(poll.feed.url)  # another shard's feed record is that shard's
    leaving = leaving_kept(poll.feed, now=now)
    return PollPlan(
        slug,
        documents=tuple(plans),
        feed_record=feed_to_record(poll.feed, now=now) if owned else None,
        departed=(day_of(now), leaving) if owned and leaving else None,
        errors=tuple(errors),
    )


def _plan_document(
    doc: str,
    links: tuple[Link, ...],
    known: KnownDocument,
    *,
    poll: PollResult,
    edited: Mapping[str, EntryChange],
    now: datetime,
) -> DocumentPlan:
    """Register the ``links`` of one document, in feed order.

    A ``feed-edit`` event the document already has as its newest one from this feed (same
    text before and after) is not recorded again: a shard compares another shard's feed
    with its committed record, which lags when that shard's run failed to push, and a run
    that died before writing the feed record compares with the old one."""
    slug = poll.feed.slug
    new = known.record is None
    first = links[0]
    state = (
        _new_document(doc, first[0], first[1], slug=slug)
        if known.record is None
        else document_from_record(doc, known.record)
    )
    recorded = not new
    changed = new
    last_edit = known.last_feed_edit
    events: list[NewEvent] = []
    for _, found in links:
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
        if recorded and change is not None and change.previous is not None:
            detail: dict[str, JSON] = {
                "feed": slug,
                "fields": list(change.fields),
                "before": {"title": change.previous.title, "summary": change.previous.summary},
                "after": {"title": change.entry.title, "summary": change.entry.summary},
            }
            if not _same_edit(last_edit, detail):
                events.append(NewEvent("feed-edit", now, known.newest, detail))
                last_edit = detail
        if state != before or not recorded:
            changed = True
            # each link's update reads the document as its record would read back
            state = document_from_record(doc, document_to_record(state))
        recorded = True  # a new document's record is written with its first link
    return DocumentPlan(
        doc, tuple(events), record=document_to_record(state) if changed else None, new=new
    )


def _closed(link: ClosedLink, slug: str, now: datetime) -> NewEvent:
    """The ``homepage-headlines`` event of a homepage link whose history is complete."""
    return NewEvent(HEADLINES_EVENT, now, None, link.detail(slug))


def _same_edit(last: Mapping[str, JSON] | None, detail: Mapping[str, JSON]) -> bool:
    """Whether ``last`` (the newest feed-edit from this feed) records ``detail``'s edit."""
    return last is not None and all(last.get(key) == detail[key] for key in ("before", "after"))


def _edited(poll: PollResult) -> dict[str, EntryChange]:
    return {change.entry.link: change for change in poll.changes if change.entry.link}


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
