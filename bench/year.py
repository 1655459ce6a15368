"""A year of the archive, and what one hourly run costs at day 7, 90 and 365.

Generates a simulated year (``--rate`` articles a day, default 1,000, for ``--days``,
default 365) through the real archive code: every article is registered, checked and
re-checked on the real re-check policy's schedule at hourly runs, its record made with
the ingest's own record functions (:mod:`quietedit.decide.memory`), so simulated
articles retire as real ones do and the active partitions stay few; 27 % of articles are
edited later (1.2 edits each on average, most within hours, some days later), 1 % are
taken down (a ``gone`` event). Each edit is stored when the policy's next check sees it.
The feed records hold the entries the feeds listed, as polls record them. Stories are
600-900 words of news-like text (:mod:`year_newsroom`) on ~300 KB pages.

The year is committed day by day (``--commits-per-day``) into a bare git repository, the
origin (``uploadpack.allowFilter`` on, so blob-less clones work over ``file://``). At each
checkpoint (``--checkpoints``, default 7, 90, 365) generation pauses at 10:00 UTC and one
hourly run is timed as the workflow does it:

1. **clone**: ``git clone --filter=blob:none --depth 1 --sparse`` of the origin, then
   ``git sparse-checkout set`` (cone mode) of ``data/feeds``, ``data/state``, ``data/index``;
2. **sparse add**: ``git sparse-checkout add`` of what ``quietedit sparse-paths`` prints;
3. **ingest**: ``quietedit ingest --now`` against the loopback newsrooms, which serve
   the feeds and the pages of that hour (the new stories, and every due re-check: the
   page as last archived, or edited, or gone);
4. **verify**: ``quietedit verify --since`` the cloned commit;
5. **commit**: ``git add -A data`` and ``git commit``;
6. **push**: ``git push`` to the origin (afterwards the origin's branch is set back, so
   the year goes on as generated).

Printed per checkpoint: documents and revisions so far; the origin's packed size (after
``git gc``) against the zlib-compressed size of every revision record (target: at most
1.3x); what the clone downloaded (its ``.git`` after checkout) and the files it checked
out; seconds per step (target: day 365 within 1.2x of day 7); and the folder with the
most entries in ``data/`` (target: none over 5,000). ``--json FILE`` also writes them as
JSON (``--json -``: JSON on stdout instead of the table).

Generation writes through the real store, whose every write is flushed (``fsync``): on
a disk that costs ~0.5 ms a file, so the work folder goes to ``/dev/shm`` when it has room
(the output says where it ran). Evidence: revisions reference WARC records the bench
does not write (they live outside the branch; only the reference is in ``data/``).

    .venv/bin/python bench/year.py [--rate 1000] [--days 365] [--checkpoints 7,90,365]
        [--workdir DIR] [--json FILE|-] [--commits-per-day 1] [--run-articles 250]

Smoke test: ``--rate 100 --days 30 --checkpoints 7,30``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

from year_newsroom import (
    FEED_ITEMS,
    OUTLETS,
    Newsrooms,
    Site,
    Story,
    check_extraction,
    entry_snapshot,
    feed_xml,
    page_encoding,
    pick_outlet,
    story_article,
    story_text,
)

from quietedit.archive.layout import partition_of
from quietedit.archive.store import Archive
from quietedit.article.fingerprint import content_hash
from quietedit.article.identity import document_id
from quietedit.decide.check import EXTRACTOR
from quietedit.decide.memory import (
    DocumentState,
    FeedState,
    Seen,
    document_to_record,
    feed_to_record,
)
from quietedit.decide.partitions import active_partitions
from quietedit.decide.recheck import Candidate, Outcome, RecheckPolicy, after_check, decide
from quietedit.decide.shard import WHOLE
from quietedit.ingest.partitions import save_active
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
BASE_PATHS: Final = ("data/feeds", "data/state", "data/index")
"""What the clone checks out before ``quietedit sparse-paths`` can read the active list."""
GIT: Final = ("git", "-c", "user.name=bench", "-c", "user.email=bench@example.org")


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

    def version_at(self, now: datetime) -> int:
        return sum(1 for edit in self.edits if edit <= now)


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


class RecordingArchive(Archive):
    """The real store, noting every file it writes (for ``git update-index``) and the
    zlib-compressed size of every revision record."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.written: set[Path] = set()
        self.revision_zlib = 0
        self.revision_bytes = 0

    def _create(self, path: Path, data: bytes) -> None:
        super()._create(path, data)
        self.written.add(path)
        if path.parent.name == "revisions":
            self.revision_bytes += len(data)
            self.revision_zlib += len(zlib.compress(data))

    def _replace(self, path: Path, data: bytes, *, final: bool) -> None:
        super()._replace(path, data, final=final)
        self.written.add(path)


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
    encoding: dict[str, Any] = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)  # documents whose record is stale on disk
    written_now: set[str] = field(default_factory=set)  # partitions written in the last hour
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

    def run_hour(self, hour: int) -> None:
        now = START + hour * HOUR
        self.written_now = set()
        for story in self.new_stories(hour):
            self.register(story, now)
        for doc in self.due.pop(hour, []):
            self.check(doc, now, hour)

    def register(self, story: Story, now: datetime) -> None:
        """A feed poll finds ``story``: its record (so its index entry), then its first check."""
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
        doc = Doc(story, doc_id, url, edit_times(self.rng, story.published_at), None, state)
        if self.rng.random() < GONE:
            doc.gone_at = story.published_at + timedelta(hours=self.rng.uniform(2, 120))
        self.archive.write_document(doc_id, document_to_record(state))
        self.docs[doc_id] = doc
        self.observed[doc_id] = doc
        self.by_outlet[story.outlet.index].append(story)
        feed = self.feeds.setdefault(
            slug, FeedState(slug, story.outlet.feed_url(self.port), story.outlet.name)
        )
        snapshot = entry_snapshot(story, port=self.port)
        self.feeds[slug] = replace(feed, entries={**feed.entries, snapshot.id: snapshot})
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
        self.written_now.add(partition_of(state.candidate.discovered_at))
        after = decide(state.candidate, policy=policy, now=now)
        if after.retired or after.due_at is None:
            del self.observed[doc.id]
        else:
            self.schedule(doc, after.due_at)

    def schedule(self, doc: Doc, due_at: datetime) -> None:
        """The hourly run at or after ``due_at`` checks ``doc`` (or finds it retired)."""
        hour = math.ceil((due_at - START) / HOUR)
        self.due[hour].append(doc)

    # -- the end of a commit period -------------------------------------------------------

    def save(self, now: datetime) -> None:
        """What the hourly runs left on disk by ``now``: each checked document's record,
        every feed record, the active-partition list."""
        for doc_id in sorted(self.touched):
            self.archive.write_document(doc_id, document_to_record(self.docs[doc_id].state))
        self.touched.clear()
        for outlet in OUTLETS:
            slug = outlet.slug
            feed = self.feeds.get(slug) or FeedState(slug, outlet.feed_url(self.port), outlet.name)
            polls = feed.polls + 1
            stories = self.by_outlet[outlet.index]
            feed = replace(
                feed,
                kind="rss",
                polls=polls,
                last_polled_at=now,
                last_success_at=now,
                entries_seen=min(len(stories), FEED_ITEMS),
            )
            self.feeds[slug] = feed
            self.archive.write_feed(slug, feed_to_record(feed, now=now), final=True)
        keep = active_partitions(
            (
                (partition_of(doc.state.candidate.discovered_at), doc.state.candidate)
                for doc in self.observed.values()
            ),
            policy=self.policy,
            now=now,
            touched=self.written_now,
        )
        save_active(self.archive, keep, shard=WHOLE, now=now)


WARC_REFERENCES: Final = importlib.util.find_spec("quietedit.archive.evidence") is not None
"""Whether this version of quietedit keeps evidence as WARC (else revisions name none)."""


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


# -- git ----------------------------------------------------------------------------------


def git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip
    return done.stdout


class Repository:
    """The origin (bare) and the generator's work tree; commits go straight into the
    origin (the same objects a push would bring), through ``git update-index``."""

    def __init__(self, workdir: Path) -> None:
        self.origin = workdir / "origin.git"
        self.tree = workdir / "year"
        self.env = {
            "GIT_DIR": str(self.origin),
            "GIT_WORK_TREE": str(self.tree),
            "GIT_INDEX_FILE": str(workdir / "year.index"),
        }
        git("init", "-q", "--bare", "-b", "main", str(self.origin))
        for key, value in (
            ("uploadpack.allowFilter", "true"),
            ("uploadpack.allowAnySHA1InWant", "true"),
            ("gc.auto", "0"),
            ("index.version", "4"),
            ("core.splitIndex", "true"),
        ):
            git("config", key, value, cwd=self.origin)
        self.tree.mkdir()
        (self.tree / ".gitignore").write_text("/data/.tmp/\n/evidence/\n")
        self.head: str | None = None

    def commit(self, paths: set[Path], message: str) -> None:
        names = sorted(str(p.relative_to(self.tree)) for p in paths if p.exists())
        if self.head is None:
            names.append(".gitignore")
        subprocess.run(
            [*GIT, "update-index", "--add", "-z", "--stdin"],
            input="\0".join(names).encode() + b"\0", check=True, env={**os.environ, **self.env},
        )  # fmt: skip
        tree = git("write-tree", env=self.env).strip()
        parents = ["-p", self.head] if self.head else []
        self.head = git("commit-tree", tree, *parents, "-m", message, env=self.env).strip()
        git("update-ref", "refs/heads/main", self.head, env=self.env)

    def repack(self) -> None:
        """Pack the loose objects (as a host would; thousands of files a day otherwise)."""
        git("repack", "-d", "-q", cwd=self.origin)

    def gc(self) -> float:
        started = time.perf_counter()
        git("gc", "-q", "--prune=now", cwd=self.origin)
        return time.perf_counter() - started

    def packed_by_kind(self) -> dict[str, int]:
        """The packed bytes of the origin's objects by what they are: revisions, events,
        document records, index shards, feed and state records, trees, commits."""
        paths = {}
        for line in git("rev-list", "--objects", "--all", cwd=self.origin).splitlines():
            sha, _, path = line.partition(" ")
            paths[sha] = path
        sizes: dict[str, int] = defaultdict(int)
        listing = git(
            "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) "
            "%(objectsize:disk)", cwd=self.origin,
        )  # fmt: skip
        for line in listing.splitlines():
            sha, kind, size = line.split()
            sizes[kind if kind != "blob" else _kind_of(paths.get(sha, ""))] += int(size)
        return dict(sorted(sizes.items()))

    def packed_size(self) -> int:
        return sum(p.stat().st_size for p in (self.origin / "objects" / "pack").glob("*.pack"))


def _kind_of(path: str) -> str:
    parts = path.split("/")
    if "revisions" in parts:
        return "revisions"
    if "events" in parts:
        return "events"
    if parts[-1] == "document.json":
        return "document records"
    if len(parts) > 1 and parts[1] in ("index", "feeds", "state"):
        return {"index": "index shards", "feeds": "feed records", "state": "state"}[parts[1]]
    return "other"


# -- the timed hourly run ------------------------------------------------------------------


def feeds_yaml(path: Path, *, port: int, articles: int) -> None:
    """The catalogue of the thirty newsrooms; loopback allowed, no spacing (no real host)."""
    config = {
        "feeds": [
            {"url": outlet.feed_url(port), "name": outlet.name, "slug": outlet.slug}
            for outlet in OUTLETS
        ],
        "settings": {
            "allow_private_addresses": True,
            "politeness": {"min_host_interval": "0s", "max_requests_per_host_per_hour": 100_000},
            "fetch": {"retries": 0},
            "run": {"max_articles": articles},
        },
    }
    path.write_text(json.dumps(config, indent=2))  # JSON is YAML


def timed(figures: dict[str, float], step: str, *commands: list[str], cwd: Path) -> list[str]:
    started = time.perf_counter()
    outputs = []
    for command in commands:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        outputs.append(done.stdout + done.stderr)
    figures[step] = time.perf_counter() - started
    return outputs


def hourly_run(
    year: Year, repo: Repository, workdir: Path, *, hour: int, articles: int
) -> dict[str, Any]:
    """One hourly run at ``hour`` as the workflow does it, timed step by step."""
    now = START + hour * HOUR
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    clone = workdir / f"clone-{hour}"
    config = workdir / "feeds.yaml"
    feeds_yaml(config, port=year.port, articles=articles)
    quietedit = str(Path(sys.executable).with_name("quietedit"))
    site = Site(year.port, year.page_kb)
    rng, numbers = year.rng.getstate(), year.numbers
    new = year.new_stories(hour)
    year.rng.setstate(rng)  # the year generates the same stories again after the run
    year.numbers = numbers
    stories = {**year.by_outlet}
    for story in new:
        stories[story.outlet.index] = [*stories[story.outlet.index], story]
    for outlet in OUTLETS:
        newest = sorted(stories[outlet.index], key=lambda s: s.published_at)[-FEED_ITEMS:][::-1]
        site.feeds[outlet.index] = feed_xml(outlet, newest, port=year.port, now=now)
    for doc in year.observed.values():
        gone = doc.gone_at is not None and now >= doc.gone_at
        site.pages[(doc.story.outlet.index, _path(doc.url))] = (
            None if gone else (doc.story, doc.version_at(now))
        )
    for story in new:
        site.pages[(story.outlet.index, _path(story.url(year.port)))] = (story, 0)
    steps: dict[str, float] = {}
    origin = f"file://{repo.origin}"
    shallow = ["--filter=blob:none", "--depth", "1", "--sparse"]
    timed(
        steps, "clone",
        ["git", "clone", "-q", *shallow, origin, str(clone)],
        ["git", "-C", str(clone), "sparse-checkout", "set", "--cone", *BASE_PATHS],
        cwd=workdir,
    )  # fmt: skip
    before = git("rev-parse", "HEAD", cwd=clone).strip()
    paths = timed(
        steps, "sparse-paths",
        [quietedit, "sparse-paths", "--config", str(config), "--data", "data", "--now", stamp],
        cwd=clone,
    )[0].split()  # fmt: skip
    timed(steps, "sparse add", ["git", "sparse-checkout", "add", *paths], cwd=clone)
    received = sum(p.stat().st_size for p in (clone / ".git").rglob("*") if p.is_file())
    files = sum(len(names) for _, _, names in os.walk(clone / "data"))
    with Newsrooms(site):
        log = timed(
            steps, "ingest",
            [quietedit, "ingest", "--config", str(config), "--data", "data", "--now", stamp],
            cwd=clone,
        )[0]  # fmt: skip
    timed(
        steps,
        "verify --since",
        [quietedit, "verify", "--data", "data", "--since", before],
        cwd=clone,
    )
    timed(
        steps, "commit",
        ["git", "add", "-A", "data"],
        [*GIT, "commit", "-q", "-m", f"Ingest {stamp}"],
        cwd=clone,
    )  # fmt: skip
    timed(steps, "push", ["git", "push", "-q", "origin", "HEAD:main"], cwd=clone)
    git("update-ref", "refs/heads/main", repo.head or "", cwd=repo.origin)  # the year goes on
    shutil.rmtree(clone)
    return {
        "steps": dict(steps),
        "clone_bytes": received,
        "files_checked_out": files,
        "partitions_checked_out": sum(1 for p in paths if p.count("/") == 4),
        "pages_served": site.requests,
        "megabytes_served": round(site.bytes_sent / 1e6, 1),
        "ingest_summary": next(
            (line for line in log.splitlines() if "feeds:" in line), log.strip()[-300:]
        ),
    }


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def largest_folder(root: Path) -> tuple[str, int]:
    best = ("", 0)
    for folder, dirs, files in os.walk(root):
        if ".tmp" in dirs:
            dirs.remove(".tmp")
        count = len(dirs) + len(files)
        if count > best[1]:
            best = (str(Path(folder).relative_to(root)), count)
    return best


# -- the year -------------------------------------------------------------------------------


def workdir_for(requested: Path | None, *, need: int) -> tuple[Path, str]:
    """The work folder: ``requested``, else a new one on /dev/shm when it has room for
    ``need`` bytes (and memory to spare), else in the system's temp folder."""
    if requested is not None:
        requested.mkdir(parents=True, exist_ok=True)
        return requested, str(requested)
    shm = Path("/dev/shm")  # noqa: S108 (a new folder made by mkdtemp, not a fixed name)
    if shm.is_dir():
        free = shutil.disk_usage(shm).free
        available = _mem_available()
        if free > 2 * need and available > need + 4 * 2**30:
            return Path(tempfile.mkdtemp(prefix="quietedit-year-", dir=shm)), "tmpfs (/dev/shm)"
    return Path(tempfile.mkdtemp(prefix="quietedit-year-")), "the temp folder (disk)"


def _mem_available() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    need = args.rate * args.days * 20_000  # ~20 KB an article: files, blocks, objects
    workdir, where = workdir_for(args.workdir, need=need)
    checkpoints = sorted({day for day in args.checkpoints if 1 <= day <= args.days})
    repo = Repository(workdir)
    archive = RecordingArchive(repo.tree / "data")
    year = Year(archive, args.rate, args.port, args.page_kb, random.Random(args.seed))
    sample = year.new_stories(0)[:3] or [Story(0, OUTLETS[0], 1, START, START - HOUR)]
    year.numbers = 0
    check_extraction(sample, port=args.port, page_kb=args.page_kb)
    year.encoding = page_encoding(port=args.port, page_kb=args.page_kb, story=sample[0])
    readme = Path(__file__).resolve().parents[1] / "data" / "README.md"
    if readme.is_file():
        archive.root.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(readme, archive.root / "README.md")
        archive.written.add(archive.root / "README.md")
    result: dict[str, Any] = {
        "rate": args.rate,
        "days": args.days,
        "workdir": where,
        "commits_per_day": args.commits_per_day,
        "run_articles": args.run_articles,
        "checkpoints": [],
    }
    per_commit = 24 // args.commits_per_day
    generation = 0.0
    git_time = 0.0
    started = time.perf_counter()
    for day in range(args.days):
        timed_now = day + 1 in checkpoints
        for hour in range(day * 24, day * 24 + 24):
            if timed_now and hour == day * 24 + RUN_HOUR:
                generation += time.perf_counter() - started
                result_day = checkpoint(year, repo, workdir, day=day + 1, hour=hour, args=args)
                result["checkpoints"].append(result_day)
                _progress(args, f"day {day + 1}: {json.dumps(result_day)}")
                started = time.perf_counter()
            year.run_hour(hour)
            if (hour + 1) % per_commit == 0:
                commit(year, repo, hour)
        if (day + 1) % 7 == 0:
            began = time.perf_counter()
            repo.repack()
            git_time += time.perf_counter() - began
        if (day + 1) % 10 == 0:
            _progress(
                args,
                f"day {day + 1}: {len(year.docs)} documents, "
                f"{archive.revision_zlib >> 20} MiB of revisions (zlib)",
            )
    generation += time.perf_counter() - started
    result["generation_seconds"] = round(generation, 1)
    result["documents"] = len(year.docs)
    result["revisions"] = sum(doc.revisions for doc in year.docs.values())
    result["checks"] = year.checks
    if args.workdir is None and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def commit(year: Year, repo: Repository, hour: int) -> None:
    now = START + hour * HOUR
    year.save(now)
    repo.commit(year.archive.written, f"Ingest {now:%Y-%m-%dT%H:%M:%SZ}")
    year.archive.written = set()


def checkpoint(
    year: Year, repo: Repository, workdir: Path, *, day: int, hour: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Commit what the hours before ``hour`` wrote, pack the origin, time one hourly run."""
    commit(year, repo, hour - 1)
    gc = repo.gc()
    packed = repo.packed_size()
    kinds = repo.packed_by_kind()
    run_figures = hourly_run(year, repo, workdir, hour=hour, articles=args.run_articles)
    folder, entries = largest_folder(year.archive.root)
    return {
        "day": day,
        "documents": len(year.docs),
        "revisions": sum(doc.revisions for doc in year.docs.values()),
        "still_observed": len(year.observed),
        "packed_bytes": packed,
        "revisions_zlib_bytes": year.archive.revision_zlib,
        "packed_ratio": round(packed / max(year.archive.revision_zlib, 1), 2),
        "gc_seconds": round(gc, 1),
        "packed_by_kind": kinds,
        "largest_folder": folder,
        "largest_folder_entries": entries,
        **run_figures,
    }


def _progress(args: argparse.Namespace, text: str) -> None:
    if args.verbose:
        print(text, file=sys.stderr, flush=True)


# -- output -----------------------------------------------------------------------------------

STEPS: Final = ("clone", "sparse-paths", "sparse add", "ingest", "verify --since", "commit", "push")


def table(result: dict[str, Any]) -> Iterator[str]:
    points = result["checkpoints"]
    yield (
        f"{result['rate']} articles a day for {result['days']} days on {result['workdir']}; "
        f"generated in {result['generation_seconds']} s ({result['documents']} documents, "
        f"{result['revisions']} revisions, {result['checks']} checks); "
        f"{result['commits_per_day']} commit(s) a day"
    )
    rows: list[tuple[str, ...]] = [("day", *(str(p["day"]) for p in points if isinstance(p, dict)))]

    def row(label: str, key: str, fmt: str = "{}", scale: float = 1.0) -> None:
        values = []
        for point in points:
            value = point[key]
            if isinstance(value, (int, float)) and scale != 1.0:
                value = value / scale
            values.append(fmt.format(value))
        rows.append((label, *values))

    row("documents", "documents")
    row("revisions", "revisions")
    row("still observed", "still_observed")
    row("packed (MiB, origin after gc)", "packed_bytes", "{:.1f}", 2**20)
    kinds = sorted({kind for point in points for kind in point["packed_by_kind"]})
    for kind in kinds:
        sizes = [point["packed_by_kind"].get(kind, 0) / 2**20 for point in points]
        rows.append((f"  of it {kind} (MiB)", *(f"{size:.2f}" for size in sizes)))
    row("revisions zlib (MiB)", "revisions_zlib_bytes", "{:.1f}", 2**20)
    row("packed / revisions zlib (<= 1.3)", "packed_ratio")
    row("clone downloads (MiB, .git)", "clone_bytes", "{:.2f}", 2**20)
    row("files checked out", "files_checked_out")
    row("partitions checked out", "partitions_checked_out")
    row("pages served (MB)", "megabytes_served")
    for step in STEPS:
        values = []
        for point in points:
            steps = point["steps"]
            values.append(f"{steps[step]:.2f}")
        rows.append((f"{step} (s)", *values))
    row("largest folder (entries, <= 5000)", "largest_folder_entries")
    row("  which", "largest_folder")
    width = max(len(r[0]) for r in rows)
    cols = [max(len(r[i]) for r in rows) for i in range(1, len(rows[0]))]
    for r in rows:
        yield "  ".join(
            [r[0].ljust(width), *(v.rjust(c) for v, c in zip(r[1:], cols, strict=True))]
        )
    if len(points) > 1:
        first, last = points[0], points[-1]
        a, b = first["steps"], last["steps"]
        ratios = ", ".join(f"{s} {float(b[s]) / max(float(a[s]), 1e-9):.2f}x" for s in STEPS)
        yield f"day {last['day']} / day {first['day']} (target <= 1.2x): {ratios}"
    for point in points:
        yield f"ingest at day {point['day']}: {point['ingest_summary']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000, help="articles a day")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument(
        "--checkpoints", type=lambda t: [int(x) for x in t.split(",")], default=[7, 90, 365],
        help="days after which an hourly run is timed, e.g. 7,90,365",
    )  # fmt: skip
    parser.add_argument("--workdir", type=Path, help="default: a new folder on /dev/shm or /tmp")
    parser.add_argument("--keep", action="store_true", help="keep the default work folder")
    parser.add_argument(
        "--commits-per-day", type=int, default=1, choices=(1, 2, 3, 4, 6, 8, 12, 24)
    )
    parser.add_argument(
        "--run-articles", type=int, default=250, help="the timed run's max_articles"
    )
    parser.add_argument("--page-kb", type=int, default=300, help="page weight around the text")
    parser.add_argument("--port", type=int, default=28470)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument(
        "--json", metavar="FILE", help="also write the figures as JSON to FILE ('-': stdout only)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    args = parser.parse_args()
    result = run(args)
    figures = json.dumps(result, indent=2, sort_keys=True)
    if args.json == "-":
        print(figures)
        return
    if args.json:
        Path(args.json).write_text(figures + "\n")
    for line in table(result):
        print(line)


if __name__ == "__main__":
    main()
