"""One ingest run: catalogue sync, feed polls, the policy's plan, article checks.

The shape is gather → decide → apply throughout: the feeds are polled (I/O) and what each
poll means is decided (:mod:`quietedit.decide.poll`, :mod:`quietedit.decide.registration`)
and written (:mod:`quietedit.ingest.register`); the re-check policy picks the articles to
fetch (pure); each is fetched and read, its writes decided (:mod:`quietedit.decide.check`)
and applied (:mod:`quietedit.ingest.check`). One feed or article failing is recorded and
the run goes on; only a configuration error or another run holding the archive stops it
before it starts. Loading and saving the request ledgers is :mod:`quietedit.ingest.ledgers`.

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
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.archive.evidence import EvidenceLog, evidence_file_name
from quietedit.archive.lock import RunLock
from quietedit.archive.store import Archive
from quietedit.article.template import HostProfile
from quietedit.config import Config
from quietedit.decide.check import CheckResult
from quietedit.decide.memory import (
    DocumentState,
    FeedState,
    SourceIndex,
    document_from_record,
)
from quietedit.decide.partitions import Observed, observed_documents, schedule_entry
from quietedit.decide.poll import feed_states, tracked_by_feeds
from quietedit.decide.profiles import learn_profiles, profile_sample
from quietedit.decide.recheck import FeedTrust, Reason, after_claim, plan_run
from quietedit.decide.registration import route_links
from quietedit.decide.shard import WHOLE, Shard
from quietedit.errors import ArchiveError
from quietedit.fetch import Fetcher, RequestLedger
from quietedit.fetch.guard import Resolver
from quietedit.fetch.politeness import Politeness
from quietedit.fetch.render import Renderer
from quietedit.ingest.check import check_article
from quietedit.ingest.feedrecords import load_departed, load_feeds, read_departed, save_feed
from quietedit.ingest.ledgers import load_ledger, save_ledger
from quietedit.ingest.partitions import (
    Schedules,
    ensure_recent,
    load_schedules,
    plan_records,
    recent,
    save_active,
)
from quietedit.ingest.poll import poll_feed
from quietedit.ingest.register import register_poll
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
    and its own request ledger (:mod:`quietedit.decide.shard`), so N runs over copies of one
    archive write disjoint sets of files. Every shard polls every feed, so the documents it
    owns get the links, claims and feed edits of all the feeds that list them.

    The raw response behind each new revision goes to the run's WARC file in
    ``settings.paths.evidence`` (:mod:`quietedit.archive.evidence`), named after ``now``
    and ``shard``; a run that stores no revision creates none."""
    evidence = EvidenceLog(config.settings.paths.evidence, evidence_file_name(now, shard=shard))
    with RunLock(archive.root, now=now), evidence:
        archive.require_current()
        archive.sweep_temp()
        archive.written_partitions.clear()  # from now on: the partitions this run wrote
        archive.written_documents.clear()  # ... and its documents
        archive.writer = shard.writer  # shards never write the same index or checks file
        archive.checks.batched = True  # each partition's checks file written once a run
        try:
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
                    evidence=evidence,
                )
            )
        finally:
            archive.checks.batched = False


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
    evidence: EvidenceLog,
) -> IngestReport:
    settings = config.settings
    report = IngestReport()
    started = time.monotonic()
    base = now.timestamp() if simulated else time.time()

    def clock() -> float:
        return base + (time.monotonic() - started)

    ledger, own = load_ledger(archive, shard=shard)
    seeded = len(ledger)
    politeness = Politeness(settings.politeness, ledger=ledger, clock=clock)
    feeds = feed_states(config.feeds, load_feeds(archive, unreadable="the feed starts afresh"))
    # every shard polls every feed from its committed record (validators, back-off, entry
    # snapshots), so all shards see the same changes; each keeps those of its own documents
    configs = {feed.slug: feed for feed in config.feeds}

    # the documents the next run reads: filled in when the checks are planned
    partitions: list[Observed] = []
    entries: Schedules = {}
    # before the polls: the list names the partitions this run's new documents go to, so a
    # run killed after registering them (their feed entries then known, never registered
    # again) leaves them to the next run's checks
    read_before = ensure_recent(archive, shard=shard, now=now)

    def save(error: type[BaseException] | None, *_: object) -> None:
        try:
            # the checks made, whatever ended the run: each entry names a stored record
            archive.flush_checks()
            _save_partitions(archive, partitions, read_before, entries, shard=shard, now=now)
            # after an error the feed records written as each feed was registered stand: a
            # later state could mark entries known whose documents were never registered
            for state in (feeds[slug] for slug in sorted(feeds)) if error is None else ():
                if shard.owns(state.url):  # another shard's feed record is that shard's to write
                    # final: losing it to a power cut leaves the one written at registration
                    save_feed(archive, state, now=now, final=True)
        finally:
            save_ledger(
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
        Renderer(fetcher) as renderer,  # a browser starts only if a render: feed needs one
        Workers() as workers,
    ):
        finish.push(save)
        polls = await asyncio.gather(
            *(
                poll_feed(
                    fetcher,
                    feeds[slug],
                    configs[slug],
                    now=now,
                    departed=lambda slug, days: read_departed(archive, slug, days),
                )
                for slug in sorted(configs)
            )
        )
        # the documents the feeds list, which registration reads: those a sparse checkout
        # left out come at once, not one fetch each
        archive.prefetch(
            doc
            for result in polls
            for routed in (route_links(result, shard=shard),)
            for doc in (*routed.documents, *routed.closed)
        )
        for result in polls:
            report.feeds[result.status] += 1
            progress(f"feed {result.feed.slug}", result.status)
            if result.error and result.status == "failed":
                report.errors.append(f"feed {result.feed.slug}: {result.error}")
            feeds[result.feed.slug] = result.feed
            # the poll's documents, then its feed record: a run that dies later finds these
            # entries known, and does not record their feed edits twice
            registered = await register_poll(archive, result, now=now, shard=shard, workers=workers)
            report.errors.extend(registered.errors)
            report.new_documents += registered.new_documents
            report.feed_edits += registered.feed_edits
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
                evidence=evidence,
                partitions=partitions,
                entries=entries,
                renderer=renderer,
            )
            feeds = {
                slug: replace(state, trust=trust.get(slug, state.trust))
                for slug, state in feeds.items()
            }
    logger.info("%s", report.summary())
    return report


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
    evidence: EvidenceLog,
    partitions: list[Observed],
    entries: Schedules,
    renderer: Renderer,
) -> dict[str, FeedTrust]:
    """Plan the run's article checks and carry them out; returns the feeds' new trust.
    ``partitions`` receives what the next run needs to read, ``entries`` the schedule
    entries the plan read (:func:`~quietedit.ingest.partitions.plan_records`). An article
    of a feed with ``render:`` is rendered by ``renderer``."""
    settings = config.settings
    configs = {feed.slug: feed for feed in config.feeds}
    rendered = {feed.slug for feed in config.feeds if feed.render is not None}
    states = {}
    homes = {}
    unreadable = set()
    read, kept = plan_records(archive, now=now)
    entries.clear()
    entries.update(kept)
    for partition, doc in sorted({*read, *kept}):
        record: dict[str, JSON] | None
        if (partition, doc) in kept:  # planned from its entry: its record read if selected
            record = kept[partition, doc]
        else:
            try:
                record = archive.read_document(doc)
            except ArchiveError as exc:  # reported; `quietedit verify` says more
                report.errors.append(str(exc))
                unreadable.add((partition, doc))  # read again next time: it may be repaired
                continue
            if record is not None:
                entries[partition, doc] = schedule_entry(record)
        if record is not None:
            state = document_from_record(doc, record)
            # include:/exclude: of feeds.yaml: a document its feeds leave out is not fetched
            tracked = tracked_by_feeds(state.url, state.feeds, configs)
            if shard.owns(state.url) and tracked:
                states[doc] = state
                homes[doc] = partition
    trust = {slug: state.trust for slug, state in feeds.items()}
    budget = settings.politeness.max_requests_per_host_per_hour
    plan = plan_run(
        (state.candidate for state in states.values()),
        policy=settings.recheck,
        now=now,
        max_articles=settings.run.max_articles,
        trust=trust,
        host_budget={host: max(0, budget - n) for host, n in _last_hour(fetcher, now).items()},
    )
    report.deferred += len(plan.deferred)
    archive.prefetch(d.key for d in plan.selected if (homes[d.key], d.key) in kept)
    selected = []
    for decision in plan.selected:  # planned from its entry: its whole record now
        doc = decision.key
        if (homes[doc], doc) in kept:
            try:
                record = archive.read_document(doc)  # fetched into a sparse checkout
            except ArchiveError as exc:
                report.errors.append(str(exc))
                unreadable.add((homes[doc], doc))
                continue
            if record is None:
                continue
            states[doc] = document_from_record(doc, record)
        selected.append(decision)
    # saved when the run ends (the run's last writes): what the next run reads
    keep = observed_documents(
        ((homes[doc], doc, state.candidate) for doc, state in states.items()),
        policy=settings.recheck,
        now=now,
        touched=archive.written_documents | unreadable,
    )
    # today's and yesterday's whole: where new documents go, so the next run (within the
    # day) finds its list already holding them and need not save it before its polls
    partitions.append(keep.with_whole(recent(now)))
    # before any check starts: from then on every page is read in a worker
    workers.start_processes(
        planned_workers(settings.run.workers, checks=len(selected), cores=cpu_count())
    )

    # the day files naming the links of the articles to check that left their feeds
    wanted = SourceIndex.days_needed(feeds, (states[d.key] for d in selected))
    sources = SourceIndex.of(feeds, load_departed(archive, wanted))
    hosts = {states[decision.key].candidate.host for decision in selected}
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
            evidence=evidence,
            renderer=renderer if rendered.intersection(state.feeds) else None,
        )

    tasks = {decision.key: asyncio.create_task(check(decision.key)) for decision in selected}
    reasons = {decision.key: decision.reason for decision in selected}
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
    sample of its documents (:func:`~quietedit.decide.profiles.profile_sample`). Stored
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
    archive.prefetch(docs)  # those a sparse checkout left out, at once
    articles = await asyncio.gather(*(workers.write(newest, doc) for doc in docs))
    found = dict(zip(docs, articles, strict=True))
    return learn_profiles(
        {
            host: [(doc, article) for doc in chosen if (article := found[doc]) is not None]
            for host, chosen in sample.items()
        }
    )


def _save_partitions(
    archive: Archive,
    planned: list[Observed],
    read_before: Observed | None,
    entries: Schedules,
    *,
    shard: Shard,
    now: datetime,
) -> None:
    """Save what the next run reads: the documents the plan found still observed; when
    no plan was made (``--feeds-only``, or the run failed before it), the list read at the
    start grown by every document the run wrote, so no new document is ever left out.
    With no list before and no plan, none is saved: the next run reads every partition.
    Each document keeps its schedule entry: as the plan read it, or read again from its
    record when the run wrote it; one whose record cannot be read keeps none (the next run
    reads its record)."""
    if planned:
        keep = planned[-1]
    elif read_before is not None:
        keep = read_before.union(Observed(documents=frozenset(archive.written_documents)))
        entries = {**(load_schedules(archive) or {}), **entries}
    else:
        return
    schedules = {pair: entry for pair, entry in entries.items() if pair in keep.documents}
    for pair in sorted(archive.written_documents & keep.documents):
        schedules.pop(pair, None)
        try:
            record = archive.read_document(pair[1])
        except ArchiveError:
            continue
        if record is not None:
            schedules[pair] = schedule_entry(record)
    # a whole partition with a document without an entry (unreadable) keeps none: the
    # checkout holds it whole when no longer recent, and that record is read again
    bare = {p for p, doc in keep.documents if p in keep.whole and (p, doc) not in schedules}
    schedules = {pair: entry for pair, entry in schedules.items() if pair[0] not in bare}
    save_active(archive, keep, shard=shard, now=now, schedules=schedules)


def _last_hour(fetcher: Fetcher, now: datetime) -> Counter[str]:
    ledger = fetcher.politeness.ledger if fetcher.politeness else RequestLedger()
    since = now - timedelta(hours=1)
    return Counter(entry.host for entry in ledger if entry.at >= since)
