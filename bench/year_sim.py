"""The simulated year of ``bench/year.py``: articles registered, checked and re-checked at
hourly runs on the real re-check policy's schedule, written through the real store.

Each article's record is made with the ingest's own record functions
(:mod:`quietedit.decide.memory`) and its schedule advanced with the policy's own
``decide``/``after_check``, so simulated articles retire as real ones do; an edit is
stored when the next check sees it, a page taken down gets its ``gone`` event. At the end
of a commit period, :meth:`Year.save` writes what the hourly runs would have left: each
checked document's record, every feed record, the active-partition list.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import random
import uuid
import zlib
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

from year_hourly import Site
from year_newsroom import (
    FEED_ITEMS,
    OUTLETS,
    Outlet,
    Story,
    entry_snapshot,
    feed_xml,
    pick_outlet,
    story_article,
    story_text,
)

from quietedit.archive.checks import discovered_partition
from quietedit.archive.files import load_json
from quietedit.archive.index import DocumentIndex, index_record
from quietedit.archive.layout import INDEX_CHUNK_ENTRIES, Layout, index_shard, partition_of
from quietedit.archive.partition_checks import Entry, PartitionChecks, split_record
from quietedit.archive.store import Archive
from quietedit.article.fingerprint import content_hash
from quietedit.article.identity import document_id
from quietedit.decide.check import EXTRACTOR
from quietedit.decide.departed import remember
from quietedit.decide.memory import (
    DocumentState,
    FeedState,
    Seen,
    document_to_record,
    leaving_kept,
)
from quietedit.decide.partitions import observed_documents
from quietedit.decide.recheck import Candidate, Outcome, RecheckPolicy, after_check, decide
from quietedit.decide.shard import WHOLE
from quietedit.errors import ArchiveError
from quietedit.feeds.edits import EntrySnapshot
from quietedit.ingest.feedrecords import save_feed
from quietedit.ingest.partitions import recent, save_active
from quietedit.model import JSON
from quietedit.revisions import EvidenceRef, Observation

START: Final = datetime(2026, 1, 1, tzinfo=UTC)
HOUR: Final = timedelta(hours=1)
RUN_HOUR: Final = 10
"""The hour of the day (UTC) of the timed run: mid-morning, a busy news hour."""
EDITED: Final = 0.27
"""Share of articles edited after publication."""
MORE_EDITS: Final = 0.15
"""Chance of one more edit after each edit: 1.18 edits per edited article on average."""
GONE: Final = 0.01
"""Share of articles taken down (404) some time after publication."""
# news is published by day: the share of a day's stories appearing in each UTC hour
DIURNAL: Final = (1, 1, 1, 1, 1, 2, 3, 5, 7, 8, 8, 7, 7, 7, 7, 6, 6, 5, 5, 4, 3, 2, 2, 1)


# -- the simulated articles ---------------------------------------------------------------


@dataclass(slots=True)
class Doc:
    """One simulated article: its story, the times its page is edited or taken down,
    and what the archive holds (the version stored last, the ingest's state)."""

    story: Story
    id: str
    url: str
    edits: tuple[datetime, ...]
    gone_at: datetime | None
    state: DocumentState
    stored: int = -1  # the version of the newest revision (-1: none yet)
    fingerprint: str = ""  # its content hash
    revisions: int = 0
    events: int = 0
    kept: dict[str, JSON] | None = None  # its record file as last written (while observed)

    def version_at(self, now: datetime) -> int:
        return sum(1 for edit in self.edits if edit <= now)


@dataclass(frozen=True, slots=True)
class Planned:
    """A new story and what will happen to its page (drawn when it appears)."""

    story: Story
    edits: tuple[datetime, ...]
    gone_at: datetime | None


def edit_times(rng: random.Random, published: datetime) -> tuple[datetime, ...]:
    """When the page is edited: most within hours of publication, some days later."""
    if rng.random() >= EDITED:
        return ()
    times = []
    while True:
        roll = rng.random()
        hours = (
            rng.uniform(0.1, 6)
            if roll < 0.6
            else rng.uniform(6, 72)
            if roll < 0.9
            else rng.uniform(72, 480)
        )
        times.append(published + timedelta(hours=hours))
        if rng.random() >= MORE_EDITS:
            return tuple(sorted(times))


class BatchedIndex(DocumentIndex):
    """The real index, its new entries kept in memory until :meth:`flush` writes each
    changed shard's file once (the same file a write per new document leaves).

    The generator is the archive's only writer, so what it holds is what the files say:
    no shard is listed or read again after its first read. An hourly run writes a shard
    per new document, which at a year's scale (1,400 entries a shard) is the generator's
    one cost growing with the archive's size: each write re-reads and re-serialises the
    whole shard."""

    def __init__(self, layout: Layout, archive: Archive) -> None:
        super().__init__(
            layout,
            read=lambda path: load_json(path) if path.exists() else None,  # as the store's
            replace=lambda path, data: archive._replace(path, data, final=False),
        )
        self._known: dict[str, dict[str, str]] = {}  # shard -> every writer's entries
        self._own: dict[str, dict[str, str]] = {}  # shard -> this writer's file's entries
        self._sealed: dict[str, int] = {}  # shard -> this writer's last sealed file
        self._dirty: set[str] = set()

    def _shard(self, shard: str, writer: str) -> dict[str, str]:
        known = self._known.get(shard)
        if known is None:  # the files on disk, once (an archive generated on top of one)
            with self._lock:
                read = self._read_shard(shard, writer=writer, fresh=True)
            known = self._known[shard] = dict(read.entries)
            self._own[shard] = dict(read.own)
            self._sealed[shard] = read.sealed
        return known

    def partition(self, document: str, *, writer: str) -> str | None:
        return self._shard(index_shard(document), writer).get(document)

    def place(self, document: str, record: dict[str, JSON], *, writer: str) -> tuple[str, bool]:
        shard = index_shard(document)
        known = self._shard(shard, writer)
        found = known.get(document)
        if found is not None:
            return found, False
        partition = discovered_partition(record)
        if partition is None:
            raise ArchiveError(self.layout.documents_dir, f"{document}: no discovered_at")
        if len(self._own[shard]) >= INDEX_CHUNK_ENTRIES:  # sealed, as the real index does
            self._sealed[shard] += 1
            path = self.layout.sealed_index_file(shard, self._sealed[shard], writer=writer)
            self._replace(path, index_record(shard, self._own[shard]))
            self._own[shard] = {}
        known[document] = self._own[shard][document] = partition
        self._dirty.add(shard)
        return partition, True

    def flush(self, writer: str) -> None:
        """Write each shard that has new entries, as :meth:`DocumentIndex.place` does."""
        for shard in sorted(self._dirty):
            path = self.layout.index_file(shard, writer=writer)
            self._replace(path, index_record(shard, self._own[shard]))
        self._dirty.clear()


class BatchedChecks(PartitionChecks):
    """The real checks files, written only by :meth:`flush`: not also every
    :data:`~quietedit.archive.partition_checks.FLUSH_SECONDS` of wall time, which would
    make what a commit holds depend on the machine's speed."""

    def put(
        self, partition: str, document: str, entry: Entry, *, writer: str, at_once: bool = False
    ) -> None:
        with self._lock:
            self._pending.setdefault((partition, writer), {})[document] = entry
            if at_once:
                self.flush(only=(partition, writer))

    def held(self) -> dict[tuple[str, str], dict[str, Entry]]:
        """The entries not yet written (a snapshot of the year keeps them)."""
        with self._lock:
            return {key: dict(entries) for key, entries in self._pending.items()}

    def hold(self, pending: dict[tuple[str, str], dict[str, Entry]]) -> None:
        """Take back the entries :meth:`held` returned (a resumed year)."""
        with self._lock:
            for key, entries in pending.items():
                self._pending.setdefault(key, {}).update(entries)


class RecordingArchive(Archive):
    """The real store, noting every file it writes (for ``git update-index``) and the
    zlib-compressed size of every revision record. Its index entries and checks entries
    are written at the end of each hour (:meth:`flush_checks`), as a batching run writes
    its checks entries."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.checks = self.batched_checks = BatchedChecks(
            self.layout,
            read=lambda path: self._read_state(path, kind="checks"),
            replace=lambda path, data: self._replace(path, data, final=True),
        )
        self.checks.batched = True  # an hour's checks written at its end, as a run does
        self.index = self.batched_index = BatchedIndex(self.layout, self)
        self.written: set[Path] = set()
        self.revision_zlib = 0
        self.revision_bytes = 0
        self.measure = True  # count the revisions' zlib size (bench/year.py reports it)

    def flush_checks(self) -> None:
        self.batched_index.flush(self.writer)
        super().flush_checks()

    def put_checks(self, document: str, entry: dict[str, JSON]) -> None:
        """What :meth:`write_document` does for a known document whose record is
        unchanged (its file would not be rewritten): the checks entry alone."""
        partition = self.index.partition(document, writer=self.writer)
        if partition is None:
            raise ArchiveError(self.layout.documents_dir, f"{document}: not in the index")
        self.checks.put(partition, document, entry, writer=self.writer)
        self.written_partitions.add(partition)
        self.written_documents.add((partition, document))

    def _create(self, path: Path, data: bytes) -> None:
        super()._create(path, data)
        self.written.add(path)
        if self.measure and path.parent.name == "revisions":
            self.revision_bytes += len(data)
            self.revision_zlib += len(zlib.compress(data))

    def _replace(self, path: Path, data: bytes, *, final: bool) -> None:
        super()._replace(path, data, final=final)
        self.written.add(path)

    def _remove(self, path: Path) -> None:
        super()._remove(path)
        self.written.add(path)  # git update-index --remove drops it


@dataclass
class Year:
    """The simulation: the archive, the articles still observed (by the hour of their
    next check), every story (for the newsrooms), and counters."""

    archive: RecordingArchive
    rate: int
    port: int
    page_kb: int
    rng: random.Random
    policy: RecheckPolicy = field(default_factory=RecheckPolicy)
    due: dict[int, list[Doc]] = field(default_factory=lambda: defaultdict(list))
    observed: dict[str, Doc] = field(default_factory=dict)
    docs: dict[str, Doc] = field(default_factory=dict)
    by_outlet: dict[int, list[Story]] = field(default_factory=lambda: defaultdict(list))
    feeds: dict[str, FeedState] = field(default_factory=dict)
    # the snapshots of the entries each feed carries (those that left go to day files)
    entries: dict[str, dict[str, EntrySnapshot]] = field(default_factory=lambda: defaultdict(dict))
    encoding: dict[str, JSON] = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)  # documents whose record is stale on disk
    written_now: set[tuple[str, str]] = field(default_factory=set)  # documents written, last hour
    outlets: tuple[Outlet, ...] = OUTLETS  # whose feed records :meth:`save` writes
    list_partitions: bool = True  # whether :meth:`save` writes the active-partition list
    numbers: int = 0
    events: int = 0
    checks: int = 0

    def stories_of_hour(self, hour: int) -> int:
        """How many stories appear in ``hour`` (deterministic: the day's rate spread by
        the diurnal profile, the remainder drawn)."""
        share = self.rate * DIURNAL[hour % 24] / sum(DIURNAL)
        whole = int(share)
        return whole + (random.Random(hour * 7919).random() < share - whole)

    def new_stories(self, hour: int) -> list[Story]:
        now = START + hour * HOUR
        found = []
        for _ in range(self.stories_of_hour(hour)):
            self.numbers += 1
            published = now - timedelta(minutes=self.rng.randint(1, 55))
            found.append(
                Story(self.numbers, pick_outlet(self.rng), self.rng.getrandbits(48), now, published)
            )
        return found

    # -- one hourly run, simulated ------------------------------------------------------

    def plan_hour(self, hour: int) -> list[Planned]:
        """The hour's new stories, each with the times its page will be edited and taken
        down: every draw of the year's random stream (nothing else draws from it)."""
        planned = []
        for story in self.new_stories(hour):
            edits = edit_times(self.rng, story.published_at)
            gone_at = None
            if self.rng.random() < GONE:
                gone_at = story.published_at + timedelta(hours=self.rng.uniform(2, 120))
            planned.append(Planned(story, edits, gone_at))
        return planned

    def run_hour(self, hour: int, planned: list[Planned] | None = None) -> None:
        """One hourly run: the hour's new stories registered (``planned``, by default
        drawn now), then every document due checked."""
        now = START + hour * HOUR
        self.written_now = set()
        for plan in self.plan_hour(hour) if planned is None else planned:
            self.register(plan, now)
        for doc in self.due.pop(hour, []):
            self.check(doc, now, hour)

    def register(self, plan: Planned, now: datetime) -> None:
        """A feed poll finds the story: its record (so its index entry), then its first check."""
        story = plan.story
        url = story.url(self.port)
        doc_id = document_id(url)
        slug = story.outlet.slug
        state = DocumentState(
            id=doc_id,
            url=url,
            candidate=Candidate(
                key=doc_id,
                host=url.split("/")[2].lower(),
                discovered_at=now,
                published_at=story.published_at,
                feed=slug,
            ),
            links=(url,),
            feeds=(slug,),
            title=story_text(story.seed, 0).title,
        )
        doc = Doc(story, doc_id, url, plan.edits, plan.gone_at, state)
        self.archive.write_document(doc_id, document_to_record(state))
        self.docs[doc_id] = doc
        self.observed[doc_id] = doc
        self.by_outlet[story.outlet.index].append(story)
        snapshot = entry_snapshot(story, port=self.port)
        self.entries[slug][snapshot.id] = snapshot
        self.check(doc, now, None)

    def check(self, doc: Doc, now: datetime, hour: int | None) -> None:
        """The policy's check of ``doc`` at ``now``: a new revision if the page changed
        since the stored version, a ``gone`` event if it was taken down; then its next
        check is scheduled (or it retires)."""
        policy = self.policy
        decision = decide(doc.state.candidate, policy=policy, now=now)
        if decision.retired:
            del self.observed[doc.id]
            return
        if not decision.due and decision.due_at is not None:
            self.schedule(doc, decision.due_at)
            return
        self.checks += 1
        state = doc.state
        if doc.gone_at is not None and now >= doc.gone_at:
            if state.status != "gone":
                self.archive.append_event(
                    doc.id,
                    "gone",
                    observed_at=now,
                    revision=doc.revisions or None,
                    detail={"status": 404},
                )
                self.events += 1
                state = replace(state, status="gone")
            state = replace(
                state, candidate=after_check(state.candidate, outcome="failed", now=now)
            )
        else:
            version = doc.version_at(now)
            outcome: Outcome = "unchanged"
            if version != doc.stored:
                article = story_article(doc.story, version, port=self.port)
                fingerprint = content_hash(article)
                # an edit that only moved the page's dateModified is no news
                if fingerprint != doc.fingerprint:
                    self.archive.append_revision(
                        doc.id,
                        Observation(
                            url=doc.url,
                            observed_at=now,
                            article=article,
                            extractor=EXTRACTOR,
                            evidence=evidence_ref(doc, version, now),
                            encoding=self.encoding,
                            http={"status": 200, "etag": None, "last_modified": None},
                            signals={
                                "feed_updated": {"feed": doc.story.outlet.slug, "value": None}
                            },
                        ),
                        fingerprint=fingerprint,
                    )
                    doc.fingerprint = fingerprint
                    doc.revisions += 1
                    outcome = "changed"
                    state = replace(state, title=article.title)
                doc.stored = version
            state = replace(
                state,
                seen=Seen(last_seen=doc.fingerprint, revisions=doc.revisions),
                candidate=after_check(state.candidate, outcome=outcome, now=now),
            )
        doc.state = state
        self.touched.add(doc.id)
        self.written_now.add((partition_of(state.candidate.discovered_at), doc.id))
        after = decide(state.candidate, policy=policy, now=now)
        if after.retired or after.due_at is None:
            del self.observed[doc.id]
        else:
            self.schedule(doc, after.due_at)

    def schedule(self, doc: Doc, due_at: datetime) -> None:
        """The hourly run at or after ``due_at`` checks ``doc`` (or finds it retired)."""
        hour = math.ceil((due_at - START) / HOUR)
        self.due[hour].append(doc)

    # -- what the newsrooms serve at a timed run -------------------------------------------

    def site(self, hour: int) -> Site:
        """The feeds and pages at ``hour``: every outlet's newest stories, including the
        hour's new ones (which the year generates again after the run), and the page of
        every article still observed, as edited by then (or gone)."""
        now = START + hour * HOUR
        site = Site(self.port, self.page_kb)
        rng, numbers = self.rng.getstate(), self.numbers
        new = self.new_stories(hour)
        self.rng.setstate(rng)
        self.numbers = numbers
        stories = {outlet.index: list(self.by_outlet[outlet.index]) for outlet in OUTLETS}
        for story in new:
            stories[story.outlet.index].append(story)
            site.pages[(story.outlet.index, _path(story.url(self.port)))] = (story, 0)
        for outlet in OUTLETS:
            newest = sorted(stories[outlet.index], key=lambda s: s.published_at)[-FEED_ITEMS:]
            site.feeds[outlet.index] = feed_xml(outlet, newest[::-1], port=self.port, now=now)
        for doc in self.observed.values():
            gone = doc.gone_at is not None and now >= doc.gone_at
            site.pages[(doc.story.outlet.index, _path(doc.url))] = (
                None if gone else (doc.story, doc.version_at(now))
            )
        return site

    # -- the end of a commit period -------------------------------------------------------

    def save(self, now: datetime, *, feeds: bool = True) -> None:
        """What the hourly runs left on disk by ``now``: each checked document's record,
        every feed record (``feeds``: else kept in memory until a later save), the
        active-partition list."""
        for doc_id in sorted(self.touched):
            doc = self.docs[doc_id]
            record = document_to_record(doc.state)
            kept, entry = split_record(record)
            if kept == doc.kept:  # the record file as it is: its checks entry alone
                self.archive.put_checks(doc_id, entry)
            else:
                self.archive.write_document(doc_id, record)
            doc.kept = kept if doc_id in self.observed else None
        self.touched.clear()
        for outlet in self.outlets:
            slug = outlet.slug
            feed = self.feeds.get(slug) or FeedState(slug, outlet.feed_url(self.port), outlet.name)
            polls = feed.polls + 1
            stories = self.by_outlet[outlet.index]
            # the feed carries its newest stories; the entries of the others left it, and
            # go to the day file of ``now`` as the runs of the day would have put them,
            # then the record that keeps their digests (the ingest's own writes)
            newest = sorted(stories, key=lambda s: s.published_at)[-FEED_ITEMS:]
            carried = {story.url(self.port) for story in newest}
            entries = self.entries[slug]
            leaving = {key: snap for key, snap in entries.items() if key not in carried}
            for key in leaving:
                del entries[key]
            feed = replace(
                feed,
                entries=dict(entries),
                leaving={**feed.leaving, **leaving},  # those a save without feeds kept
                kind="rss",
                polls=polls,
                last_polled_at=now,
                last_success_at=now,
                entries_seen=min(len(stories), FEED_ITEMS),
            )
            if feeds:
                save_feed(self.archive, feed, now=now, final=True)
                index = remember(feed.departed, leaving_kept(feed, now=now).values(), now=now)
                feed = replace(feed, departed=index, leaving={})
            self.feeds[slug] = feed
        if self.list_partitions:
            save_partitions(
                self.archive, self.still_observed(), self.written_now, policy=self.policy, now=now
            )

    def still_observed(self) -> list[tuple[str, str, Candidate]]:
        """``(partition, id, candidate)`` of every document still observed."""
        return [
            (partition_of(doc.state.candidate.discovered_at), doc.id, doc.state.candidate)
            for doc in self.observed.values()
        ]


def save_partitions(
    archive: Archive,
    observed: list[tuple[str, str, Candidate]],
    touched: set[tuple[str, str]],
    *,
    policy: RecheckPolicy,
    now: datetime,
) -> None:
    """The active-partition list a run at ``now`` leaves (``touched``: the documents its
    last hour wrote), by the real policy."""
    keep = observed_documents(observed, policy=policy, now=now, touched=touched)
    save_active(archive, keep.with_whole(recent(now)), shard=WHOLE, now=now)


WARC_REFERENCES: Final = importlib.util.find_spec("quietedit.archive.evidence") is not None
"""Whether this version of quietedit keeps evidence as WARC (else revisions name none)."""


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def evidence_ref(doc: Doc, version: int, now: datetime) -> EvidenceRef | None:
    """The reference the ingest would write to the page's WARC record (not written here:
    WARC files live outside the branch)."""
    if not WARC_REFERENCES:
        return None
    payload = hashlib.sha256(f"{doc.story.seed}/{version}".encode()).hexdigest()
    return EvidenceRef(
        file=f"{now:%Y-%m}/quietedit-{now:%Y%m%dT%H%M%S}Z.warc.gz",
        record=f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{doc.id}/{now}/{payload}')}",
        sha256=f"sha256:{payload}",
    )
