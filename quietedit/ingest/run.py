"""One ingest run: catalogue sync, feed polls, the policy's plan, article checks.

The shape is gather → decide → apply: the feeds are polled (I/O), the re-check policy
picks the articles to fetch (pure), each is checked and recorded (I/O). One feed or
article failing is recorded and the run goes on; only a configuration error or another run
holding the archive stops it before it starts.

Time: ``now`` is the run's clock for everything it records. A simulated ``now`` (replays,
tests, the demo) is frozen for the whole run; the HTTP politeness clock always runs in
real seconds on top of it, so spacing and the hourly budget hold in both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.archive.lock import RunLock
from quietedit.archive.store import Archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.article.template import HostProfile
from quietedit.config import Config
from quietedit.errors import ArchiveError, InvalidURLError
from quietedit.fetch import Fetcher, LedgerEntry, RequestLedger
from quietedit.fetch.guard import Resolver
from quietedit.fetch.politeness import Politeness
from quietedit.ingest.candidates import EntryCandidate
from quietedit.ingest.changes import EntryChange
from quietedit.ingest.check import CheckResult, check_article
from quietedit.ingest.policy import (
    Candidate,
    FeedTrust,
    Reason,
    RecheckPolicy,
    after_claim,
    plan_run,
)
from quietedit.ingest.poll import PollResult, feed_states, poll_feed
from quietedit.ingest.profiles import learn_profiles, profile_sample
from quietedit.ingest.shard import WHOLE, Shard, is_ledger_name
from quietedit.ingest.state import (
    DocumentState,
    FeedState,
    SourceIndex,
    document_from_record,
    document_to_record,
    feed_from_record,
    feed_to_record,
    ledger_record,
)
from quietedit.ingest.workers import Workers, cpu_count, planned_workers
from quietedit.model import JSON, Article

logger = logging.getLogger(__name__)

LEDGER_STATE: Final = "ledger"


@dataclass
class IngestReport:
    """What a run did, for the summary and ``--strict``."""

    feeds: Counter[str] = field(default_factory=Counter)  # polled, not-modified, failed, ...
    articles: Counter[str] = field(default_factory=Counter)  # new-revision, unchanged, ...
    new_documents: int = 0
    feed_edits: int = 0
    deferred: int = 0  # due, but left for the next run by the budget
    errors: list[str] = field(default_factory=list)
    read_in_workers: int = 0  # article pages read by worker processes (run.workers)

    @property
    def failures(self) -> int:
        return self.feeds["failed"] + self.articles["failed"]

    def summary(self) -> str:
        feeds = ", ".join(f"{n} {k}" for k, n in sorted(self.feeds.items())) or "none"
        articles = ", ".join(f"{n} {k}" for k, n in sorted(self.articles.items())) or "none"
        return (
            f"feeds: {feeds}; new documents: {self.new_documents}; feed edits: "
            f"{self.feed_edits}; articles: {articles}; carried over: {self.deferred}"
        )


Progress = Callable[[str, str], None]
"""Called with (what, outcome) after each feed poll and article check."""


def run_ingest(
    config: Config,
    archive: Archive,
    *,
    now: datetime,
    feeds_only: bool = False,
    simulated: bool = False,
    resolve: Resolver | None = None,
    progress: Progress | None = None,
    shard: Shard = WHOLE,
) -> IngestReport:
    """Run one ingest over ``archive`` (see the module docstring). Raises only
    ``ArchiveLockedError`` when another run holds the archive.

    ``shard`` limits what the run writes to the feed records and documents that shard owns
    and its own request ledger (:mod:`quietedit.ingest.shard`), so N runs over copies of one
    archive write disjoint sets of files. Every shard polls every feed, so the documents it
    owns get the links, claims and feed edits of all the feeds that list them."""
    with RunLock(archive.root, now=now):
        archive.sweep_temp()
        return asyncio.run(
            _ingest(
                config,
                archive,
                now=now,
                feeds_only=feeds_only,
                simulated=simulated,
                resolve=resolve,
                progress=progress or (lambda what, outcome: None),
                shard=shard,
            )
        )


async def _ingest(
    config: Config,
    archive: Archive,
    *,
    now: datetime,
    feeds_only: bool,
    simulated: bool,
    resolve: Resolver | None,
    progress: Progress,
    shard: Shard,
) -> IngestReport:
    settings = config.settings
    report = IngestReport()
    started = time.monotonic()
    base = now.timestamp() if simulated else time.time()

    def clock() -> float:
        return base + (time.monotonic() - started)

    ledger, own = _load_ledger(archive, shard=shard)
    seeded = len(ledger)
    politeness = Politeness(settings.politeness, ledger=ledger, clock=clock)
    feeds = feed_states(config.feeds, _load_feeds(archive))
    # every shard polls every feed from its committed record (validators, back-off, entry
    # snapshots), so all shards see the same changes; each keeps those of its own documents
    configs = {feed.slug: feed for feed in config.feeds}

    def save(error: type[BaseException] | None, *_: object) -> None:
        try:
            # after an error the feed records written as each feed was registered stand: a
            # later state could mark entries known whose documents were never registered
            for slug, state in sorted(feeds.items()) if error is None else ():
                if shard.owns(state.url):  # another shard's feed record is that shard's to write
                    archive.write_feed(slug, feed_to_record(state, now=now))
        finally:
            _save_ledger(
                archive,
                [*own, *list(ledger)[seeded:]],
                name=shard.ledger_name,
                now=datetime.fromtimestamp(clock(), tz=now.tzinfo),
            )

    async with (
        # closed last, whatever ends the run (an error, Ctrl-C): the request ledger (and,
        # unless the run failed, the feed records) saved once workers and writes are done
        contextlib.AsyncExitStack() as finish,
        Fetcher(settings, politeness=politeness, clock=clock, resolve=resolve) as fetcher,
        Workers() as workers,
    ):
        finish.push(save)
        polls = await asyncio.gather(
            *(poll_feed(fetcher, feeds[slug], configs[slug], now=now) for slug in sorted(configs))
        )
        for result in polls:
            report.feeds[result.status] += 1
            progress(f"feed {result.feed.slug}", result.status)
            if result.error and result.status == "failed":
                report.errors.append(f"feed {result.feed.slug}: {result.error}")
            feeds[result.feed.slug] = result.feed
            await _register(archive, result, now=now, report=report, shard=shard, workers=workers)
            if shard.owns(result.feed.url):  # another shard's feed record is that shard's
                # written now, so a run that dies later finds these entries known, and
                # does not record their feed edits twice
                await workers.write(
                    archive.write_feed, result.feed.slug, feed_to_record(result.feed, now=now)
                )
        if not feeds_only:
            deadline = started + settings.run.max_duration
            trust = await _check_due(
                fetcher,
                archive,
                feeds,
                now=now,
                config=config,
                deadline=deadline,
                report=report,
                progress=progress,
                shard=shard,
                workers=workers,
            )
            feeds = {
                slug: replace(state, trust=trust.get(slug, state.trust))
                for slug, state in feeds.items()
            }
    logger.info("%s", report.summary())
    return report


async def _register(
    archive: Archive,
    poll: PollResult,
    *,
    now: datetime,
    report: IngestReport,
    shard: Shard,
    workers: Workers,
) -> None:
    """Make a document of every new link a poll found; note links, claims and feed edits.
    Only links to documents ``shard`` owns: the shard of each other document polls the same
    feed and registers its own.

    Documents are registered in the writer threads, many at once (each write waits for the
    disk); the links of one document, in feed order, by one of them."""
    slug = poll.feed.slug
    edited = {change.entry.link: change for change in poll.changes if change.entry.link}
    links: dict[str, list[tuple[str, EntryCandidate]]] = {}
    for found in poll.candidates:
        try:
            url = canonical_url(found.url)
        except InvalidURLError as exc:
            report.errors.append(f"feed {slug}: {exc}")
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
    for registered in done:
        report.new_documents += registered.new
        report.feed_edits += registered.feed_edits
        report.errors.extend(registered.errors)


@dataclass(frozen=True, slots=True)
class _Registered:
    new: bool = False
    feed_edits: int = 0
    errors: tuple[str, ...] = ()


def _register_document(
    archive: Archive,
    doc: str,
    links: list[tuple[str, EntryCandidate]],
    *,
    poll: PollResult,
    edited: Mapping[str, EntryChange],
    now: datetime,
) -> _Registered:
    """Register the ``links`` (canonical URL, candidate) of one document that ``poll`` found.

    A ``feed-edit`` event the document already has as its newest one from this feed (same
    text before and after) is not recorded again: a shard compares another shard's feed
    with its committed record, which lags when that shard's run failed to push, and a run
    that died before writing the feed record compares with the old one."""
    slug = poll.feed.slug
    registered = _Registered()
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
            registered = replace(registered, new=True)
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


async def _check_due(
    fetcher: Fetcher,
    archive: Archive,
    feeds: Mapping[str, FeedState],
    *,
    now: datetime,
    config: Config,
    deadline: float,
    report: IngestReport,
    progress: Progress,
    shard: Shard,
    workers: Workers,
) -> dict[str, FeedTrust]:
    """Plan the run's article checks and carry them out; returns the feeds' new trust."""
    settings = config.settings
    states = {}
    for doc in archive.document_ids():
        try:
            record = archive.read_document(doc)
        except ArchiveError as exc:  # reported; `quietedit verify` says more
            report.errors.append(str(exc))
            continue
        if record is not None:
            state = document_from_record(doc, record)
            if shard.owns(state.url):
                states[doc] = state
    trust = {slug: state.trust for slug, state in feeds.items()}
    budget = settings.politeness.max_requests_per_host_per_hour
    policy = RecheckPolicy(**asdict(settings.recheck))
    plan = plan_run(
        (state.candidate for state in states.values()),
        policy=policy,
        now=now,
        max_articles=settings.run.max_articles,
        trust=trust,
        host_budget={host: max(0, budget - n) for host, n in _last_hour(fetcher, now).items()},
    )
    report.deferred += len(plan.deferred)
    # an explicit count is what the operator wants every page read with; automatic
    # workers take over from the ingest process once they are up
    workers.start_processes(
        planned_workers(settings.run.workers, checks=len(plan.selected), cores=cpu_count()),
        wait=settings.run.workers > 1,
    )

    sources = SourceIndex.of(feeds)
    hosts = {states[decision.key].candidate.host for decision in plan.selected}
    profiles = await _learn_profiles(archive, states, hosts=hosts, workers=workers)

    async def check(doc: str) -> CheckResult:
        # Past the budget no new check starts; one under way finishes, so its result is
        # counted and recorded rather than cut off between the fetch and the archive.
        if time.monotonic() >= deadline:
            return CheckResult(states[doc], "deferred", "the run's time budget is spent")
        state = states[doc]
        claims = sources.claims(state)
        return await check_article(
            fetcher,
            archive,
            state,
            now=now,
            workers=workers,
            signals=claims,
            profile=profiles.get(state.candidate.host),
        )

    tasks = {decision.key: asyncio.create_task(check(decision.key)) for decision in plan.selected}
    reasons = {decision.key: decision.reason for decision in plan.selected}
    if not tasks:
        return trust
    # the grace lets checks under way finish: at most one fetch deadline each
    remaining = max(0.0, deadline - time.monotonic()) + settings.fetch.deadline
    done, pending = await asyncio.wait(tasks.values(), timeout=remaining)
    for task in pending:  # still waiting for their host after the grace: carried over
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
        report.deferred += len(pending)
        report.errors.append(f"the run's time budget ended with {len(pending)} checks left")
    for doc, task in sorted(tasks.items()):
        if task not in done or task.cancelled():
            continue
        error = task.exception()
        if error is not None:  # a bug or a damaged record: report it, keep going
            if not isinstance(error, Exception):
                raise error
            report.articles["failed"] += 1
            report.errors.append(f"article {states[doc].url}: {error!r}")
            continue
        result = task.result()
        report.articles[result.status] += 1
        if result.status == "deferred":
            report.deferred += 1
        progress(f"article {states[doc].url}", result.status)
        reason = reasons[doc]
        feed = states[doc].candidate.feed
        if reason in (Reason.CLAIM, Reason.PROBE) and feed in trust and result.status != "deferred":
            trust[feed] = after_claim(
                trust[feed],
                produced_revision=result.produced_revision,
                probe=reason is Reason.PROBE,
                now=now,
            )
    report.read_in_workers = workers.read_in_workers
    return trust


async def _learn_profiles(
    archive: Archive, states: Mapping[str, DocumentState], *, hosts: set[str], workers: Workers
) -> dict[str, HostProfile]:
    """The template of each of ``hosts``, learnt from the newest stored revisions of a
    sample of its documents (:func:`~quietedit.ingest.profiles.profile_sample`). Stored
    revisions never depend on a template, so the same archive always teaches the same one;
    nothing is written. A revision that cannot be read is left out of the sample."""
    sample = profile_sample(states.values(), hosts=hosts)

    def newest(doc: str) -> Article | None:
        try:
            revision = archive.latest_revision(doc)
        except ArchiveError:
            return None
        return None if revision is None else revision.article

    docs = [doc for _, chosen in sorted(sample.items()) for doc in chosen]
    articles = await asyncio.gather(*(workers.write(newest, doc) for doc in docs))
    found = dict(zip(docs, articles, strict=True))
    return learn_profiles(
        {
            host: [(doc, article) for doc in chosen if (article := found[doc]) is not None]
            for host, chosen in sample.items()
        }
    )


def _last_hour(fetcher: Fetcher, now: datetime) -> Counter[str]:
    ledger = fetcher.politeness.ledger if fetcher.politeness else RequestLedger()
    since = now - timedelta(hours=1)
    return Counter(entry.host for entry in ledger if entry.at >= since)


def _newest(archive: Archive, doc: str) -> int | None:
    latest = archive.latest_revision(doc)
    return None if latest is None else latest.number


def _load_feeds(archive: Archive) -> dict[str, FeedState]:
    states = {}
    for slug in archive.feed_slugs():
        try:
            record = archive.read_feed(slug)
        except ArchiveError as exc:
            logger.warning("%s; the feed starts afresh", exc)
            continue
        if record is not None:
            states[slug] = feed_from_record(slug, record)
    return states


def _load_ledger(archive: Archive, *, shard: Shard) -> tuple[RequestLedger, list[LedgerEntry]]:
    """The politeness ledger seeded with the requests of every ledger file (the unsharded
    one and each shard's), and the entries of this run's own file, which it rewrites."""
    own: list[LedgerEntry] = []
    others: list[LedgerEntry] = []
    names = {name for name in archive.state_names() if is_ledger_name(name)}
    for name in sorted(names | {shard.ledger_name}):
        try:
            record = archive.read_state(name)
            requests = record.get("requests") if record else None
            rows = (
                [r for r in requests if isinstance(r, dict)] if isinstance(requests, list) else []
            )
            entries = list(RequestLedger.from_records(rows, source=f"state/{name}.json"))
        except ArchiveError as exc:
            logger.warning("%s; the request ledger starts afresh", exc)
            continue
        (own if name == shard.ledger_name else others).extend(entries)
    return RequestLedger([*others, *own]), own


def _save_ledger(archive: Archive, entries: list[LedgerEntry], *, name: str, now: datetime) -> None:
    try:
        previous = archive.read_state(name) or {}
    except ArchiveError:
        previous = {}
    archive.write_state(name, ledger_record(entries, previous, now=now))
