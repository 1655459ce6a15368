"""The hourly clone checks out the documents still observed, not whole partitions.

Real git throughout: a bare origin serving partial clones (as GitHub does), a clone made
as the workflow makes it (shallow, blob-less, cone-mode sparse with a sparse index), then
``quietedit sparse-paths | git sparse-checkout add --stdin``. Cone mode brings the files
directly in each folder above a document folder along, so a partition checked out in part
has its checks file; the documents left out stay in git, untouched.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive import sparse
from quietedit.archive.layout import index_shard
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.decide.partitions import Observed
from quietedit.decide.shard import WHOLE
from quietedit.ingest.partitions import load_active, save_active
from quietedit.model import JSON, parse_timestamp
from tests.conftest import clone_observed, git, observation

DAY = "2026/10/02"
URLS = {
    name: f"https://news.example.org/world/2026/10/02/{name}"
    for name in ("harbour-fire", "ferry-strike", "school-closures")
}
KEPT, OLD, OTHER = (document_id(url) for url in URLS.values())
"""Three documents of one partition: one still observed, two retired long ago."""
SCHEDULE: dict[str, JSON] = {"last_checked_at": "2026-10-20T06:00:00Z", "failures": 0, "changes": 1}
NOW = "2026-12-02T06:00:00Z"


def seed_origin(tmp_path: Path) -> tuple[Path, Path]:
    """A work repository whose archive has the three documents (each with a revision and
    a checks entry) and a list naming ``KEPT`` alone, pushed to a bare origin."""
    work, bare = tmp_path / "work", tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    archive = Archive(work / "data")
    for doc, url in zip((KEPT, OLD, OTHER), URLS.values(), strict=True):
        record: dict[str, JSON] = {
            "url": url,
            "discovered_at": "2026-10-02T06:00:00Z",
            "schedule": SCHEDULE,
        }
        archive.write_document(doc, record)
        archive.append_revision(doc, observation(url=url))
    archive.write_feed("courier", {"url": "https://news.example.org/feed.xml"})
    save_active(
        archive,
        Observed(frozenset({"2026/12/01"}), frozenset({(DAY, KEPT)})),
        shard=WHOLE,
        now=parse_timestamp(NOW),
    )
    git(work, "add", "-A")
    git(work, "commit", "-qm", "The archive so far")
    git(work, "push", "-q", str(bare), "main")
    return work, bare


def folder(clone: Path, doc: str) -> Path:
    return clone / "data" / "documents" / DAY / doc[-16:-14] / doc


def checks(root: Path) -> dict[str, object]:
    record = json.loads((root / "data" / "documents" / DAY / "checks.json").read_text())
    found: dict[str, object] = record["documents"]
    return found


def test_sparse_paths_prints_the_folders_of_the_documents_still_observed(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    archive = Archive(tmp_path / "data")
    archive.write_state(
        "partitions",
        {"active": ["2026/12/01", DAY], "documents": {DAY: [OLD, KEPT]}},
    )
    done = CliRunner().invoke(cli, ["sparse-paths", "--data", str(archive.root), f"--now={NOW}"])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        "data/feeds",
        "data/state",
        "data/departed/2026/12/01",
        "data/departed/2026/12/02",
        "data/documents/2026/12/01",
        "data/documents/2026/12/02",
        *sorted(f"data/documents/{DAY}/{doc[-16:-14]}/{doc}" for doc in (KEPT, OLD)),
    ]


def test_a_list_naming_documents_outside_its_partitions_is_not_trusted(archive: Archive) -> None:
    archive.write_state("partitions", {"active": ["2026/12/01"], "documents": {DAY: [KEPT]}})
    assert load_active(archive) is None  # every partition is read: slower, never wrong
    archive.write_state("partitions", {"active": [DAY], "documents": {DAY: ["../../etc"]}})
    assert load_active(archive) is None


def test_the_clone_holds_the_documents_still_observed_and_their_partitions_checks_file(
    tmp_path: Path,
) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)

    assert (folder(clone, KEPT) / "document.json").is_file()
    assert not folder(clone, OLD).exists() and not folder(clone, OTHER).exists()
    assert set(checks(clone)) == {KEPT, OLD, OTHER}  # cone mode: the parent's own files
    # the buckets left out are one entry each in the sparse index, their blobs never fetched
    listed = git(clone, "ls-files", "--sparse").splitlines()
    assert OLD[-16:-14] != KEPT[-16:-14]
    assert f"data/documents/{DAY}/{OLD[-16:-14]}/" in listed
    assert not any(line.startswith(f"data/documents/{DAY}/{OLD[-16:-14]}/n") for line in listed)


def test_an_old_article_coming_back_is_fetched_alone_not_its_partition(tmp_path: Path) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    archive = Archive(clone / "data")

    revisions = archive.revisions(OLD)  # a feed lists it again: the run reads it

    assert [revision.number for revision in revisions] == [1]
    assert (folder(clone, OLD) / "document.json").is_file()
    assert not folder(clone, OTHER).exists()
    assert git(clone, "status", "--porcelain").strip() == ""


def test_a_check_in_a_partition_checked_out_in_part_keeps_every_other_entry_and_pushes(
    tmp_path: Path,
) -> None:
    work, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    before = git(clone, "rev-parse", "HEAD").strip()
    archive = Archive(clone / "data")
    archive.checks.batched = True  # as a run does: written at its end
    record = archive.read_document(KEPT) or {}
    later: dict[str, JSON] = {**SCHEDULE, "last_checked_at": "2026-12-02T06:10:00Z"}
    archive.write_document(KEPT, {**record, "schedule": later})
    archive.append_revision(OTHER, observation("The schools reopen.", url=URLS["school-closures"]))
    archive.flush_checks()

    assert set(checks(clone)) == {KEPT, OLD, OTHER}
    assert checks(clone)[KEPT] == {"schedule": later}
    report = verify_since(clone / "data", before)
    assert report.problems == ()
    push = Path(__file__).parents[2] / ".github" / "scripts" / "push-data.sh"
    identity = {"GIT_AUTHOR_NAME": "Tests", "GIT_AUTHOR_EMAIL": "tests@example.org"}
    identity |= {"GIT_COMMITTER_NAME": "Tests", "GIT_COMMITTER_EMAIL": "tests@example.org"}
    pushed = subprocess.run(
        [str(push), "main", "Ingest"],
        cwd=clone,
        env={**os.environ, **identity},
        capture_output=True,
        text=True,
        check=False,
    )
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr

    git(work, "pull", "-q", str(bare), "main")
    assert set(checks(work)) == {KEPT, OLD, OTHER}
    assert verify_archive(work / "data").problems == ()
    assert len(Archive(work / "data").revisions(OTHER)) == 2


def test_verify_since_reports_an_entry_for_a_document_that_is_nowhere(tmp_path: Path) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    before = git(clone, "rev-parse", "HEAD").strip()
    path = clone / "data" / "documents" / DAY / "checks.json"
    record = json.loads(path.read_text())
    ghost = document_id("https://news.example.org/world/2026/10/02/never-stored")
    record["documents"][ghost] = {"schedule": SCHEDULE}
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")

    problems = verify_since(clone / "data", before).problems

    assert [p.message for p in problems] == [
        f"documents.{ghost}: no such document in this partition"
    ]


def test_a_process_killed_while_it_fetches_a_document_leaves_a_clone_the_next_one_uses(
    tmp_path: Path,
) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    # the origin answers a fetch only after a while: the reader is killed in between
    hook, marker = tmp_path / "slow-pack.sh", tmp_path / "fetching"
    hook.write_text(f'#!/bin/sh\ntouch "{marker}"\nsleep 30\nexec "$@"\n', encoding="utf-8")
    hook.chmod(0o755)
    home = tmp_path / "slow-home"  # protected (global) config: the hook is honoured there
    home.mkdir()
    (home / ".gitconfig").write_text(f"[uploadpack]\n\tpackObjectsHook = {hook}\n")
    env = {**os.environ, "HOME": str(home)}
    reader = subprocess.Popen(
        [sys.executable, "-c", _READ_OLD, str(clone / "data"), OLD],
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not marker.exists():
        time.sleep(0.05)
    assert marker.exists(), "the fetch never started"
    os.killpg(reader.pid, signal.SIGKILL)
    reader.wait()

    revisions = Archive(clone / "data").revisions(OLD)  # a fresh process, as the next step

    assert [revision.number for revision in revisions] == [1]
    assert (folder(clone, OLD) / "document.json").is_file()
    assert git(clone, "status", "--porcelain").strip() == ""


_READ_OLD = (
    "import sys\nfrom pathlib import Path\nfrom quietedit.archive.store import Archive\n"
    "Archive(Path(sys.argv[1])).revisions(sys.argv[2])\n"
)


@pytest.fixture(autouse=True)
def _no_global_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def test_documents_a_run_will_read_are_fetched_at_once(tmp_path: Path) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    assert not folder(clone, OLD).exists() and not folder(clone, OTHER).exists()
    archive = Archive(clone / "data")

    # the two retired ones (and one already here, and one never stored): two folders come
    assert archive.prefetch([OLD, KEPT, OTHER, "news-example-org-0000000000000000"]) == 2
    assert folder(clone, OLD).is_dir() and folder(clone, OTHER).is_dir()
    assert [r.number for r in archive.revisions(OTHER)] == [1]
    assert archive.prefetch([OLD, OTHER]) == 0  # here now: nothing is run
    cone = git(clone, "sparse-checkout", "list").split()
    assert f"data/documents/{DAY}/{OLD[-16:-14]}/{OLD}" in cone
    assert f"data/documents/{DAY}/{OTHER[-16:-14]}/{OTHER}" in cone
    assert verify_archive(clone / "data").problems == ()


def test_documents_a_build_places_come_without_their_index_shards(tmp_path: Path) -> None:
    _, bare = seed_origin(tmp_path)
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    # as in the hourly job's clone, the index's shards are fetched when read
    cone = [p for p in git(clone, "sparse-checkout", "list").split() if p != "data/index"]
    git(clone, "sparse-checkout", "set", "--cone", "--sparse-index", *cone)
    archive = Archive(clone / "data")
    assert not archive.layout.index_dir.exists()

    # OLD where the build's cache places it; OTHER placed a day off (a record out of date)
    came = archive.prefetch([OLD, OTHER], placed={OLD: DAY, OTHER: "2026/10/01"})

    assert came == 2
    assert folder(clone, OLD).is_dir() and folder(clone, OTHER).is_dir()
    # OLD came by its place alone, with no index shard; OTHER's place came from its shard
    assert not archive.layout.index_folder(index_shard(OLD)).exists()
    assert archive.layout.index_folder(index_shard(OTHER)).is_dir()
    assert [r.number for r in archive.revisions(OLD)] == [1]
    assert [r.number for r in Archive(clone / "data").revisions(OTHER)] == [1]
    assert archive.prefetch([OLD, OTHER], placed={OLD: DAY, OTHER: DAY}) == 0
    assert git(clone, "status", "--porcelain").strip() == ""
    git(clone, "sparse-checkout", "add", "data/index")  # the index whole, for the check
    assert verify_archive(clone / "data").problems == ()


def test_a_placed_document_deleted_since_is_asked_for_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work, bare = seed_origin(tmp_path)
    # OLD's folder taken out of the archive (its index entry stays, as index entries do)
    git(work, "rm", "-rq", f"data/documents/{DAY}/{OLD[-16:-14]}/{OLD}")
    git(work, "commit", "-qm", "OLD taken out")
    git(work, "push", "-q", str(bare), "main")
    clone = clone_observed(bare, tmp_path / "clone", now=NOW)
    cone = [p for p in git(clone, "sparse-checkout", "list").split() if p != "data/index"]
    git(clone, "sparse-checkout", "set", "--cone", "--sparse-index", *cone)
    asked: list[str] = []
    fetch = sparse.fetch_folders

    def counted(root: Path, folders: list[Path], *, strict: bool = False) -> int:
        asked.extend(folder.name for folder in folders)
        return fetch(root, folders, strict=strict)

    monkeypatch.setattr(sparse, "fetch_folders", counted)
    archive = Archive(clone / "data")

    came = archive.prefetch([OLD, OTHER], placed={OLD: DAY, OTHER: DAY})

    assert came == 1  # OTHER's folder; OLD's is not in the commit
    assert folder(clone, OTHER).is_dir() and not folder(clone, OLD).exists()
    assert asked.count(OLD) == 1  # where the cache placed it, not again after its shard
