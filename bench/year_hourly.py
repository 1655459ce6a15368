"""The hourly run of ``bench/year.py``: the origin the year is committed to, the loopback
newsrooms, and one hourly run as the workflow does it (``update.yml``'s own clone step: the
newest commit without trees, then the folder listings it needs; ``quietedit sparse-paths
--fetch-trees``; ingest against the loopback newsrooms; ``verify --since``; commit; push),
timed step by step."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import yaml
from stepcpu import (
    adopt_orphans,
    children_cpu,
    mark_step,
    reap_orphans,
    receive_pack_timer,
    timed,
    upload_cpu,
    upload_pack_timer,
)
from year_newsroom import CONTENT_TYPE, OUTLETS, Story, story_page

from quietedit.article.identity import is_document_id

BASE_PATHS: Final = ("data/feeds", "data/state")
"""What the clone checks out before ``quietedit sparse-paths`` can read the active list
(not the index: a run fetches the shards it reads)."""
WORKFLOW: Final = Path(__file__).resolve().parents[1] / ".github" / "workflows" / "update.yml"
CLONE_STEP: Final = "Clone the newest commit and the folders every run reads"
GIT: Final = ("git", "-c", "user.name=bench", "-c", "user.email=bench@example.org")
STEPS: Final = ("clone", "sparse-paths", "sparse add", "ingest", "verify --since", "commit", "push")

# -- the loopback server ----------------------------------------------------------------


@dataclass
class Site:
    """What the newsrooms serve: feed bodies by outlet, and the version of each story
    page by path (``None``: taken down, 404)."""

    port: int
    page_kb: int
    feeds: dict[int, bytes] = field(default_factory=dict)
    pages: dict[tuple[int, str], tuple[Story, int] | None] = field(default_factory=dict)
    requests: int = 0
    bytes_sent: int = 0

    def respond(self, outlet: int, path: str) -> tuple[int, str, bytes]:
        if path == "/robots.txt":
            return 200, "text/plain", b"User-agent: *\nDisallow: /account/\n"
        if path == "/feed.xml" and outlet in self.feeds:
            return 200, "application/rss+xml; charset=utf-8", self.feeds[outlet]
        found = self.pages.get((outlet, path))
        if found is None:
            return 404, CONTENT_TYPE, b"<!doctype html><title>Not found</title><h1>Not found</h1>"
        story, version = found
        return 200, CONTENT_TYPE, story_page(story, version, port=self.port, page_kb=self.page_kb)


class Newsrooms:
    """Every outlet served on its loopback address from background threads (a context
    manager). Raises ``OSError`` naming the port when it is taken."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self._servers = [
            _Server((outlet.address, site.port), _handler(site, outlet.index)) for outlet in OUTLETS
        ]
        self._threads = [
            threading.Thread(target=server.serve_forever, daemon=True) for server in self._servers
        ]

    def __enter__(self) -> Newsrooms:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join()


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client that hung up on a kept-alive connection: not the bench's error
        super().handle_error(request, client_address)


def _handler(site: Site, outlet: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            status, kind, body = site.respond(outlet, self.path.split("?", 1)[0])
            site.requests += 1
            site.bytes_sent += len(body)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


# -- git ----------------------------------------------------------------------------------


def git(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str = ""
) -> str:
    done = subprocess.run(
        [*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True, input=stdin,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip
    return done.stdout


ORIGIN_CONFIG: Final = (
    ("uploadpack.allowFilter", "true"),
    ("uploadpack.allowAnySHA1InWant", "true"),
    ("gc.auto", "0"),
    ("index.version", "4"),
    ("core.splitIndex", "true"),
    # A pack's reverse index on disk (a .rev file beside the .idx), as GitHub's servers
    # keep and as git writes by default since 2.41: without it every fetch from a packed
    # origin sorts the whole pack's offsets again before it serves a single object, a cost
    # of the origin's size (measured on the year's day-89 origin, one pack with a bitmap:
    # six requests of the hourly clone 0.31 -> 0.12 CPU s; about 0.2 s a request at day
    # 365 without it). Git older than 2.41 needs the setting.
    ("pack.writeReverseIndex", "true"),
)
"""The origin's settings: a host that serves filtered fetches and objects by id, as
GitHub's does, packed only when the bench says so."""


class Repository:
    """The origin (bare) and the generator's work tree; commits go straight into the
    origin (the same objects a push would bring), through ``git update-index``."""

    def __init__(self, workdir: Path, *, new: bool = True) -> None:
        self.origin = workdir / "origin.git"
        self.tree = workdir / "year"
        self.env = {
            "GIT_DIR": str(self.origin),
            "GIT_WORK_TREE": str(self.tree),
            "GIT_INDEX_FILE": str(workdir / "year.index"),
        }
        self.head: str | None = None
        self.seconds = 0.0  # spent in git while generating
        if new:
            git("init", "-q", "--bare", "-b", "main", str(self.origin))
        # set again on an origin an earlier run made, so that a resumed year packs as a
        # new one does
        for key, value in ORIGIN_CONFIG:
            git("config", key, value, cwd=self.origin)
        if not new:
            return
        self.tree.mkdir()
        (self.tree / ".gitignore").write_text("/data/.tmp/\n/evidence/\n")

    @classmethod
    def reopen(cls, workdir: Path) -> Repository:
        """The origin and work tree an earlier run made in ``workdir`` (its head unset)."""
        return cls(workdir, new=False)

    def commit(self, paths: set[Path], message: str) -> None:
        started = time.perf_counter()
        # a path no longer on disk (a state file the run removed) leaves the index
        names = sorted(str(p.relative_to(self.tree)) for p in paths)
        if self.head is None:
            names.append(".gitignore")
        subprocess.run(
            [*GIT, "update-index", "--add", "--remove", "-z", "--stdin"],
            input="\0".join(names).encode() + b"\0", check=True, env={**os.environ, **self.env},
        )  # fmt: skip
        tree = git("write-tree", env=self.env).strip()
        parents = ["-p", self.head] if self.head else []
        self.head = git("commit-tree", tree, *parents, "-m", message, env=self.env).strip()
        git("update-ref", "refs/heads/main", self.head, env=self.env)
        self.seconds += time.perf_counter() - started

    def repack(self) -> None:
        """Pack the loose objects (as a host would; thousands of files a day otherwise)."""
        started = time.perf_counter()
        git("repack", "-d", "-q", cwd=self.origin)
        self.seconds += time.perf_counter() - started

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
    if parts[-1].startswith("checks") and "documents" in parts:
        return "checks files"
    if len(parts) > 1 and parts[1] in ("index", "feeds", "state", "departed"):
        return {
            "index": "index shards",
            "feeds": "feed records",
            "state": "state",
            "departed": "feeds' day files",
        }[parts[1]]
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


def clone_step() -> str:
    """The script of ``update.yml``'s clone step, as the hourly job runs it."""
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    for found in workflow["jobs"]["ingest-and-build"]["steps"]:
        if found.get("name") == CLONE_STEP:
            script: str = found["run"]
            return script
    raise LookupError(f"{WORKFLOW}: no step named {CLONE_STEP!r}")


def clone_as_workflow(clone: Path, origin: Path, head: str) -> None:
    """Clone ``head`` of ``origin`` into the empty folder ``clone`` by ``update.yml``'s own
    clone step: the newest commit without trees, then the listings of the folders every
    run reads."""
    script = clone.parent / f"{clone.name}-clone.sh"
    script.write_text(clone_step(), encoding="utf-8")
    step_env = {
        **os.environ,
        "ORIGIN": f"file://{origin}",
        "SERVER": "file://",
        "TOKEN": "",
        "SHA": head,
        "BRANCH": "main",
    }
    subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=clone, env=step_env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    script.unlink()


def hourly_run(
    site: Site,
    repo: Repository,
    workdir: Path,
    *,
    now: datetime,
    articles: int,
    sparse_index: bool = False,
) -> dict[str, Any]:
    """One hourly run at ``now`` as the workflow does it, against the newsrooms serving
    ``site``, timed step by step; the origin's branch is set back afterwards.
    ``sparse_index``: an index of the checked-out folders only, as the workflow's
    (``index.sparse``), not of every path of the tree (``--full-index``)."""
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    clone = workdir / f"clone-{now:%Y%m%dT%H}"
    config = workdir / "feeds.yaml"
    feeds_yaml(config, port=site.port, articles=articles)
    quietedit = str(Path(sys.executable).with_name("quietedit"))
    steps: dict[str, float] = {}
    adopted = adopt_orphans()
    reap_orphans()  # any left by the generation are not this run's
    head = git("rev-parse", "main", cwd=repo.origin).strip()
    clone.mkdir()
    # the origin's side of every fetch (its upload-pack, GitHub's in real use) timed apart
    upload = upload_pack_timer(workdir)
    if upload is not None:
        os.environ |= {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "remote.origin.uploadpack",
            "GIT_CONFIG_VALUE_0": str(upload[0]),
        }
    started = time.perf_counter()
    cpu = children_cpu()
    clone_as_workflow(clone, repo.origin, head)
    if not sparse_index:
        git("sparse-checkout", "reapply", "--no-sparse-index", cwd=clone)
    steps["clone"] = time.perf_counter() - started
    mark_step(upload, "clone")
    steps["clone cpu"] = children_cpu() - cpu
    cpu = children_cpu()
    reap_orphans()
    steps["clone cpu left"] = children_cpu() - cpu
    before = head
    git("config", "index.sparse", "true" if sparse_index else "false", cwd=clone)
    printed = timed(
        steps, "sparse-paths",
        [quietedit, "sparse-paths", "--fetch-trees", "--config", str(config), "--data", "data",
         "--now", stamp],
        cwd=clone,
    )[0]  # fmt: skip
    mark_step(upload, "sparse-paths")
    # stdout's paths (all below data/) and the log line on stderr saying what was fetched
    paths = [line for line in printed.splitlines() if line.startswith("data/")]
    fetched = re.search(r"fetched (\d+) folder listings in (\d+) requests", printed)
    timed(
        steps, "sparse add", ["git", "sparse-checkout", "add", "--stdin"],
        cwd=clone, stdin="".join(f"{path}\n" for path in paths),
    )  # fmt: skip
    mark_step(upload, "sparse add")
    folders = [path for path in paths if path.startswith("data/documents/")]  # not day files
    # a document's own folder (in a partition read in part), at any depth below its day
    documents = [p for p in folders if is_document_id(p.rsplit("/", 1)[-1])]
    # what came over the wire is the object store; the index lists every path of the tree
    # (checked out or not) unless it is a sparse index, so it is counted apart
    received = sum(p.stat().st_size for p in (clone / ".git" / "objects").rglob("*") if p.is_file())
    index = (clone / ".git" / "index").stat().st_size
    files = sum(len(names) for _, _, names in os.walk(clone / "data"))
    checked_out = sum(
        os.path.getsize(os.path.join(folder, name))
        for folder, _, names in os.walk(clone / "data")
        for name in names
    )  # before the run writes anything, as files
    feed_bytes = folder_bytes(clone / "data" / "feeds")
    day_bytes = folder_bytes(clone / "data" / "departed")
    with Newsrooms(site):
        log = timed(
            steps, "ingest",
            [quietedit, "ingest", "--config", str(config), "--data", "data", "--now", stamp],
            cwd=clone,
        )[0]  # fmt: skip
    mark_step(upload, "ingest")
    timed(
        steps,
        "verify --since",
        [quietedit, "verify", "--data", "data", "--since", before],
        cwd=clone,
    )
    mark_step(upload, "verify --since")
    timed(
        steps, "commit",
        ["git", "add", "--sparse", "-A", "data"],
        [*GIT, "commit", "-q", "-m", f"Ingest {stamp}"],
        cwd=clone,
    )  # fmt: skip
    push = ["git", "push", "-q", "origin", "HEAD:main"]
    receive = receive_pack_timer(workdir)
    if receive is not None:  # the origin's side (GitHub's, in real use) timed apart
        push[2:2] = [f"--receive-pack={receive[0]}"]
    timed(steps, "push", push, cwd=clone)
    if receive is not None:
        steps["push origin cpu"] = sum(map(float, receive[1].read_text().split()[-2:]))
    if upload is not None:
        for name in ("GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"):
            os.environ.pop(name, None)
        steps |= {f"{step} origin cpu": cpu for step, cpu in upload_cpu(upload[1]).items()}
    changed = committed_changes(repo.origin, before, git("rev-parse", "HEAD", cwd=clone).strip())
    git("update-ref", "refs/heads/main", repo.head or "", cwd=repo.origin)  # the year goes on
    shutil.rmtree(clone)
    return {
        "steps": dict(steps),
        "left_processes_counted": adopted,
        "clone_bytes": received,
        "clone_index_bytes": index,
        "files_checked_out": files,
        "partitions_checked_out": sum(1 for p in folders if p.count("/") == 4),
        "partitions_in_part": len({"/".join(p.split("/")[2:5]) for p in documents}),
        "documents_in_part": len(documents),
        "listings_fetched": int(fetched[1]) if fetched else 0,
        "listing_requests": int(fetched[2]) if fetched else 0,
        "bytes_checked_out": checked_out,
        "feed_records_bytes": feed_bytes,
        "day_files_bytes": day_bytes,
        "commit_files": changed[0],
        "commit_bytes": changed[1],
        "commit_bytes_by_kind": changed[2],
        "pages_served": site.requests,
        "megabytes_served": round(site.bytes_sent / 1e6, 1),
        # the document folders the run read that the checkout did not hold
        "fetched_on_demand": log.count("into the sparse checkout"),
        "ingest_summary": next(
            (line for line in log.splitlines() if "feeds:" in line), log.strip()[-300:]
        ),
    }


def folder_bytes(folder: Path) -> int:
    """The size of the files below ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def committed_changes(origin: Path, before: str, after: str) -> tuple[int, int, dict[str, int]]:
    """The files commit ``after`` added, changed or deleted since ``before``, the size of
    those it added or changed (what git writes and the push sends, before deltas), and
    that size by kind of file (:func:`_kind_of`): read in the origin, which holds every
    object (the clone would fetch the trees it lacks)."""
    listed = git("diff-tree", "-r", "--no-commit-id", "--no-renames", before, after, cwd=origin)
    rows = [line.split("\t", 1) for line in listed.splitlines() if line]
    kept = [(row[0].split()[3], row[1]) for row in rows if row[0].split()[4] != "D"]
    sizes = subprocess.run(
        ["git", "cat-file", "--batch-check=%(objectsize)"], cwd=origin, check=True,
        input="".join(f"{blob}\n" for blob, _ in kept), capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    by_kind: dict[str, int] = defaultdict(int)
    for (_, path), size in zip(kept, sizes, strict=True):
        by_kind[_kind_of(path)] += int(size)
    return len(rows), sum(int(size) for size in sizes), dict(sorted(by_kind.items()))


def largest_folder(root: Path) -> tuple[str, int]:
    best = ("", 0)
    for folder, dirs, files in os.walk(root):
        if ".tmp" in dirs:
            dirs.remove(".tmp")
        count = len(dirs) + len(files)
        if count > best[1]:
            best = (str(Path(folder).relative_to(root)), count)
    return best


def keep_schedules(root: Path, *, now: datetime) -> set[Path]:
    """Give the saved list (``state/partitions.json``) the schedule entry of each document
    it names, read from the records, as the hourly run before this one saves it (the
    generator saves the list alone, for speed); the paths of the list's files written or
    removed (its head and parts)."""
    from quietedit.archive.store import Archive
    from quietedit.decide.partitions import schedule_entry
    from quietedit.decide.shard import WHOLE
    from quietedit.ingest.partitions import load_active, recent, save_active

    archive = Archive(root)
    state = archive.layout.state_file(WHOLE.partitions_name).parent
    before = set(state.glob("*.json"))
    active = load_active(archive)
    if active is None:
        raise SystemExit("no saved list to give schedule entries to")
    named = set(active.documents) | set(archive.documents(active.whole))
    schedules = {}
    for partition, doc in sorted(named):
        record = archive.read_document(doc)
        if record is not None:
            schedules[partition, doc] = schedule_entry(record)
    # the documents of the partitions read whole are named too, with their entries
    keep = active.union(type(active)(documents=frozenset(schedules))).with_whole(recent(now))
    save_active(archive, keep, shard=WHOLE, now=now, schedules=schedules)
    return before | set(state.glob("*.json"))
