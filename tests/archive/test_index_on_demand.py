"""The index left out of the hourly clone, its shards fetched when a run reads them: with
real git against a local bare origin, cloned by update.yml's own clone step. The index
grows with the archive (4,096 shard files, 4.7 MB at 89,000 documents), so a clone that
checks it out whole downloads and writes more every day; a run instead fetches the shards
of the documents new to it, at once, and finds the documents still observed through the
list the last run saved."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quietedit.archive.index import DocumentIndex
from quietedit.archive.layout import INDEX_SCHEMA, Layout, index_shard
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.decide.shard import WHOLE
from quietedit.errors import ArchiveError
from quietedit.ingest.partitions import ensure_recent
from quietedit.model import JSON
from tests.conftest import observation
from tests.test_workflow_clone import clone

OLD_DAY, LISTED_DAY = "2026/10/02", "2026/11/27"
NOW = datetime(2026, 11, 28, 9, 17, tzinfo=UTC)


def git(repo: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def url(day: str, number: int) -> str:
    return f"https://news.example.org/{day}/story-{number}"


def url_in_shard(shard: str, day: str) -> str:
    """A story URL whose document falls in index ``shard`` (found by trying)."""
    return next(url(day, n) for n in range(10**6) if index_shard(document_id(url(day, n))) == shard)


def store(archive: Archive, address: str, day: str) -> str:
    doc = document_id(address)
    record: dict[str, JSON] = {
        "url": address,
        "discovered_at": f"{day.replace('/', '-')}T06:00:00Z",
        "schedule": {"last_checked_at": f"{day.replace('/', '-')}T07:00:00Z", "failures": 0},
    }
    archive.write_document(doc, record)
    archive.append_revision(doc, observation(url=address))
    return doc


def git_commands(trace: Path, wanted: Callable[[list[str]], bool]) -> list[list[str]]:
    """The git commands a trace2 event log shows started, each as its arguments after
    ``git`` and any ``-c`` settings."""
    if not trace.exists():
        return []
    found = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("event") != "start":
            continue
        argv = event["argv"][1:]
        while argv[:1] == ["-c"]:  # the configuration given on the command line
            argv = argv[2:]
        if wanted(argv):
            found.append(argv)
    return found


def test_a_run_fetches_the_shards_of_the_documents_new_to_it_not_the_index(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bare, seed = tmp_path / "origin.git", tmp_path / "seed"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    git(bare, "config", "uploadpack.allowAnySHA1InWant", "true", env=env)
    git(tmp_path, "init", "-q", "-b", "main", str(seed), env=env)
    archive = Archive(seed / "data")
    old = [store(archive, url(OLD_DAY, n), OLD_DAY) for n in range(16)]  # retired
    listed = [store(archive, url(LISTED_DAY, n), LISTED_DAY) for n in range(16)]
    # the list the last run saved: yesterday's partition read in part, its sixteen
    # documents still observed (today's partition does not exist yet)
    names: list[JSON] = []
    names.extend(sorted(listed))
    archive.write_state("partitions", {"active": [LISTED_DAY], "documents": {LISTED_DAY: names}})
    for name in ("pyproject.toml", "quietedit/__init__.py", "templates/base.html"):
        (seed / name).parent.mkdir(parents=True, exist_ok=True)
        (seed / name).write_text("\n", encoding="utf-8")
    git(seed, "add", "-A", env=env)
    git(seed, "commit", "-q", "-m", "The archive so far", env=env)
    git(seed, "push", "-q", str(bare), "main", env=env)
    shards = {index_shard(doc) for doc in old + listed}
    assert len(shards) == 32  # one shard each: what a run reads is countable

    work = tmp_path / "clone"
    clone(bare.as_uri(), work, "update.yml", "ingest-and-build", env=env)
    git(work, "config", "index.sparse", "true", env=env)
    # the clone holds no shard of the index (it held all 32 before)
    assert not (work / "data" / "index").exists()
    before = git(work, "rev-parse", "HEAD", env=env)

    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    mine = Archive(work / "data")
    ensure_recent(mine, shard=WHOLE, now=NOW)  # as a run starts: the list read, learnt
    # the feeds list the sixteen documents still observed, two old ones that reappear
    # (one of them a story new to the feed, the other again) and a new story
    reappearing = old[:2]
    new_url = url_in_shard(index_shard(old[2]), "2026/11/28")  # beside an old document
    new = document_id(new_url)
    mine.prefetch([*listed, *reappearing, new])

    # the old documents are found (their shards fetched), the new one is not
    assert [mine.partition(doc) for doc in reappearing] == [OLD_DAY, OLD_DAY]
    assert mine.partition(new) is None
    assert all(mine.read_document(doc) is not None for doc in listed)
    # on disk: the shards of the documents new to the run, not those of the listed ones
    on_disk = {p.name for p in (work / "data" / "index").glob("*/*") if p.is_dir()}
    assert on_disk == {index_shard(doc) for doc in [*reappearing, new]}
    # ... asked for together: one sparse-checkout add for the three shards, one for the
    # document folders, none per shard or per document
    adds = git_commands(trace, lambda argv: argv[:2] == ["sparse-checkout", "add"])
    assert len(adds) == 2

    # the documents on disk, listed by another command (as `quietedit capture` lists them
    # to find new revisions), are found through their folders: no shard fetched for them
    other = Archive(work / "data")
    assert len([other.revisions_dir(doc) for doc in other.document_ids()]) == 18
    assert len(git_commands(trace, lambda argv: argv[:2] == ["sparse-checkout", "add"])) == 2

    # a new document placed in a shard the clone left out keeps the shard's other entries
    store(mine, new_url, "2026/11/28")
    entries = json.loads(Layout(work / "data").index_file(index_shard(new)).read_text())
    assert set(entries["documents"]) == {old[2], new}

    # verify --since fetches the shards of the documents the run changed, at once: six
    # listed documents edited (found through the list, their shards never read)
    for number in range(6):
        edited = observation("A paragraph added later.", url=url(LISTED_DAY, number))
        mine.append_revision(listed[number], edited)
    assert {p.name for p in (work / "data" / "index").glob("*/*")} == on_disk | {index_shard(new)}
    report = verify_since(work / "data", before)
    assert report.problems == ()
    assert report.documents == 7


class _Bringer:
    """A stand-in for the sparse checkout: brings shard folders by writing their files
    (from ``stored``), and records each call."""

    def __init__(self, layout: Layout, stored: dict[str, dict[str, str]]) -> None:
        self.layout, self.stored, self.calls = layout, stored, list[list[Path]]()
        self.refuse = False

    def __call__(self, folders: list[Path]) -> None:
        self.calls.append(folders)
        if self.refuse:
            raise ArchiveError(folders[0], "git sparse-checkout add failed: unreachable")
        for folder in folders:
            documents = self.stored.get(folder.name)
            if documents is not None:
                folder.mkdir(parents=True, exist_ok=True)
                record = {"documents": documents, "schema": INDEX_SCHEMA, "shard": folder.name}
                (folder / "entries.json").write_text(json.dumps({**record, "type": "index"}))


def index_with(tmp_path: Path, stored: dict[str, dict[str, str]]) -> tuple[DocumentIndex, _Bringer]:
    layout = Layout(tmp_path / "data")
    bring = _Bringer(layout, stored)

    def read(path: Path) -> JSON | None:
        return json.loads(path.read_text()) if path.exists() else None

    def replace(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    return DocumentIndex(layout, read=read, replace=replace, bring=bring), bring


def test_a_learnt_document_needs_no_shard_and_each_shard_is_brought_once(
    tmp_path: Path,
) -> None:
    first, second, third = (f"news-example-org-{n}{'0' * 15}" for n in "abc")
    index, bring = index_with(tmp_path, {"a00": {first: OLD_DAY}, "b00": {second: OLD_DAY}})
    index.learn([(LISTED_DAY, third)])
    assert index.partition(third, writer="") == LISTED_DAY
    assert bring.calls == []
    assert index.prefetch([first, second, third]) == 2
    assert [sorted(f.name for f in call) for call in bring.calls] == [["a00", "b00"]]
    assert index.partition(first, writer="") == OLD_DAY
    assert index.place(second, {"discovered_at": "2026-11-28T06:00:00Z"}, writer="") == (
        OLD_DAY,
        False,
    )
    # an empty shard (no folder in git either) is asked for once, not at every read
    fourth = f"news-example-org-d{'0' * 15}"
    assert index.partition(fourth, writer="") is None
    assert index.partition(fourth, writer="") is None
    assert len(bring.calls) == 2


def test_a_shard_git_cannot_bring_is_an_error_not_an_empty_shard(tmp_path: Path) -> None:
    document = f"news-example-org-a{'0' * 15}"
    index, bring = index_with(tmp_path, {"a00": {document: OLD_DAY}})
    bring.refuse = True
    assert index.prefetch([document]) == 0  # logged; each shard is asked for when read
    with pytest.raises(ArchiveError, match="sparse-checkout add failed"):
        index.place(document, {"discovered_at": "2026-11-28T06:00:00Z"}, writer="")
    assert not Layout(tmp_path / "data").index_folder("a00").exists()  # nothing written
    bring.refuse = False
    assert index.partition(document, writer="") == OLD_DAY
