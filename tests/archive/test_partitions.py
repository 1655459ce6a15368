"""Documents in first-seen partitions, found through the index; sparse checkouts."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive.layout import Layout, index_shard, is_partition, partition_of, revision_name
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.errors import ArchiveError, UnsafePathError
from tests.conftest import STORY_URL, git, observation

DOC = document_id(STORY_URL)
OLD_URL = "https://news.example.org/world/2026/10/02/old-story"
OLD = document_id(OLD_URL)


def test_a_document_lives_in_the_utc_day_it_was_first_seen(archive: Archive) -> None:
    # 23:30 two hours west of Greenwich is already the next day in UTC
    archive.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T23:30:00-02:00"})
    archive.append_revision(DOC, observation())
    home = archive.root / "documents" / "2026" / "12" / "01" / DOC[-16:-14] / DOC
    assert archive.document_dir(DOC) == home
    assert (home / "revisions" / revision_name(DOC, 1)).is_file()
    shard = DOC[-16:-13]
    path = archive.root / "index" / DOC[-16:-14] / shard / f"entries-{shard}.json"
    assert json.loads(path.read_text()) == {
        "documents": {DOC: "2026/12/01"},
        "schema": 4,
        "shard": DOC[-16:-13],
        "type": "index",
    }
    # a later record with another discovery time never moves the document
    archive.write_document(DOC, {"url": STORY_URL, "discovered_at": "2027-01-01T00:00:00Z"})
    assert archive.partition(DOC) == "2026/12/01"


def test_a_new_document_needs_a_discovery_time_to_find_its_partition(archive: Archive) -> None:
    with pytest.raises(ArchiveError, match="discovered_at"):
        archive.write_document(DOC, {"url": STORY_URL})
    assert not (archive.root / "documents").exists()


def test_an_index_entry_a_crash_left_without_its_folder_is_used_when_the_url_returns(
    archive: Archive,
) -> None:
    archive.index.place(DOC, {"discovered_at": "2026-11-29T10:00:00Z"}, writer="")  # then killed
    fresh = Archive(archive.root)
    assert fresh.read_document(DOC) is None
    assert fresh.latest_revision(DOC) is None
    fresh.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    assert fresh.document_dir(DOC).parent.parent == archive.root / "documents" / "2026/11/29"


def test_shards_write_index_files_of_their_own_and_read_every_one(tmp_path: Path) -> None:
    first = Archive(tmp_path / "data", writer="shard-1-of-2")
    second = Archive(tmp_path / "data", writer="shard-2-of-2")
    first.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    second.write_document(OLD, {"url": OLD_URL, "discovered_at": "2026-10-02T06:00:00Z"})
    names = sorted(
        p.relative_to(tmp_path / "data" / "index").as_posix()
        for p in (tmp_path / "data" / "index").rglob("*.json")
    )
    assert names == sorted(
        [
            f"{DOC[-16:-14]}/{index_shard(DOC)}/entries-shard-1-of-2-{index_shard(DOC)}.json",
            f"{OLD[-16:-14]}/{index_shard(OLD)}/entries-shard-2-of-2-{index_shard(OLD)}.json",
        ]
    )
    for reader in (first, second, Archive(tmp_path / "data")):
        assert reader.partition(DOC) == "2026/11/30"
        assert reader.partition(OLD) == "2026/10/02"


def test_documents_are_listed_by_partition(archive: Archive) -> None:
    archive.write_document(DOC, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    archive.write_document(OLD, {"url": OLD_URL, "discovered_at": "2026-10-02T06:00:00Z"})
    assert archive.partitions() == ["2026/10/02", "2026/11/30"]
    assert archive.documents() == [("2026/10/02", OLD), ("2026/11/30", DOC)]
    assert archive.document_ids(["2026/11/30"]) == [DOC]
    assert archive.written_partitions == {"2026/10/02", "2026/11/30"}


@pytest.mark.parametrize("hostile", ["../../etc", "2026/13/01", "2026/02/30", "2026/1/1", ""])
def test_hostile_partitions_never_become_paths(archive: Archive, hostile: str) -> None:
    assert not is_partition(hostile)
    with pytest.raises(UnsafePathError):
        Layout(archive.root).partition_dir(hostile)


def test_an_index_naming_a_hostile_partition_is_refused(archive: Archive) -> None:
    path = archive.layout.index_file(index_shard(DOC))
    path.parent.mkdir(parents=True)
    shard = index_shard(DOC)
    record = {"documents": {DOC: "../../../etc"}, "schema": 3, "shard": shard, "type": "index"}
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ArchiveError, match="not a partition"):
        archive.read_document(DOC)


def test_a_schema_1_archive_must_be_migrated_before_a_run(archive: Archive) -> None:
    legacy = archive.root / "documents" / DOC
    legacy.mkdir(parents=True)
    (legacy / "document.json").write_text("{}\n", encoding="utf-8")
    with pytest.raises(ArchiveError, match="run quietedit migrate"):
        archive.require_current()


def test_partition_of_is_the_utc_day() -> None:
    assert partition_of(datetime(2026, 1, 9, 23, 59, tzinfo=UTC)) == "2026/01/09"


def _clone_sparse(origin: Path, target: Path) -> None:
    subprocess.run(
        ["git", "clone", "-q", "--filter=blob:none", "--sparse", f"file://{origin}", str(target)],
        check=True,
        capture_output=True,
    )
    git(target, "sparse-checkout", "set", "data/index", "data/state")


def test_a_partition_outside_a_sparse_checkout_is_fetched_when_needed(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "uploadpack.allowFilter", "true")
    archive = Archive(origin / "data")
    archive.write_document(OLD, {"url": OLD_URL, "discovered_at": "2026-10-02T06:00:00Z"})
    archive.append_revision(OLD, observation(url=OLD_URL))
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "archive")
    clone = tmp_path / "clone"
    _clone_sparse(origin, clone)
    partition = clone / "data" / "documents" / "2026" / "10" / "02"
    assert not partition.exists()

    revisions = Archive(clone / "data").revisions(OLD)

    assert [r.number for r in revisions] == [1]
    assert (partition / OLD[-16:-14] / OLD / "document.json").is_file()


def test_sparse_paths_lists_what_an_hourly_run_reads(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    data = tmp_path / "data"
    runner = CliRunner()
    now = "--now=2026-12-02T06:00:00Z"
    before = runner.invoke(cli, ["sparse-paths", "--data", str(data), now])
    assert before.exit_code == 0, before.output
    recent = ["data/departed/2026/12/01", "data/departed/2026/12/02"]  # where entries that leave go
    assert before.output.split() == [
        "data/feeds",
        "data/state",
        *recent,
        "data/index",  # every document is read, before a run has saved its list
        "data/documents",
    ]

    Archive(data).write_state("partitions", {"active": ["2026/11/20"]})
    after = runner.invoke(cli, ["sparse-paths", "--data", str(data), now])
    assert after.output.split() == [
        "data/feeds",
        "data/state",
        *recent,
        "data/documents/2026/11/20",
        "data/documents/2026/12/01",
        "data/documents/2026/12/02",
    ]


def test_partitions_needed_at_once_are_fetched_one_after_another(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "uploadpack.allowFilter", "true")
    archive = Archive(origin / "data")
    docs = []
    for day in range(1, 7):  # six documents, each in a partition of its own
        url = f"https://news.example.org/world/2026/10/{day:02d}/story"
        doc = document_id(url)
        archive.write_document(doc, {"url": url, "discovered_at": f"2026-10-{day:02d}T06:00:00Z"})
        archive.append_revision(doc, observation(url=url))
        docs.append(doc)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "archive")
    clone = tmp_path / "clone"
    _clone_sparse(origin, clone)
    reader = Archive(clone / "data")

    with ThreadPoolExecutor(max_workers=6) as pool:
        found = list(pool.map(lambda doc: len(reader.revisions(doc)), docs))

    assert found == [1] * 6


def test_an_archive_object_given_another_writer_writes_only_its_own_entries(
    archive: Archive,
) -> None:
    first = document_id(STORY_URL)
    second = next(
        doc
        for n in range(1, 5000)
        if index_shard(doc := document_id(f"{STORY_URL}-{n}")) == index_shard(first)
    )
    archive.write_document(first, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    assert archive.partition(first) == "2026/11/30"  # the shard is read, and kept
    archive.writer = "shard-1-of-2"  # the same object, reused by a sharded run
    archive.write_document(second, {"url": STORY_URL, "discovered_at": "2026-11-30T07:00:00Z"})
    shard = index_shard(first)
    own = json.loads(archive.layout.index_file(shard, writer="shard-1-of-2").read_text())
    assert own["documents"] == {second: "2026/11/30"}
    assert Archive(archive.root).partition(first) == "2026/11/30"
