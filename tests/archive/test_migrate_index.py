"""`quietedit migrate` moving the schema-2 index (`index/<hh>.json`) into the shard folders
of schema 3: every entry kept, the same writer's file, idempotent, readable at every point
of a migration killed midway, and accepted by verify and by the git audit."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive import migrate_index
from quietedit.archive.checks import LEGACY_INDEX
from quietedit.archive.files import replace_file
from quietedit.archive.layout import Layout, index_file_writer, index_shard
from quietedit.archive.migrate import migrate_archive
from quietedit.archive.records import dump_json
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.model import JSON
from quietedit.revisions import EvidenceRef
from tests.archive.builders import story_url, write, write_story
from tests.conftest import T0, git

STORIES = 24


def no_pages(document: str, url: str, observed_at: datetime, body: bytes) -> EvidenceRef:
    raise AssertionError("a schema-2 archive has no pages to keep")


def write_archive(root: Path) -> dict[str, str]:
    """Stories over three days, in the current layout; their partitions by id."""
    homes = {}
    for n in range(STORIES):
        day = T0 - timedelta(days=n % 3)
        doc = write_story(root, story_url(n), revisions=1, discovered=day)
        homes[doc] = day.strftime("%Y/%m/%d")
    return homes


def to_schema_2(root: Path) -> list[Path]:
    """The index written as schema 2 wrote it: one file per two-digit shard and writer."""
    layout = Layout(root)
    merged: dict[tuple[str, str], dict[str, JSON]] = {}
    for path in sorted(layout.index_dir.glob("*/*/entries*.json")):
        found = index_file_writer(path.name)
        assert found is not None
        writer = found[0]
        entries = json.loads(path.read_text(encoding="utf-8"))["documents"]
        merged.setdefault((path.parent.parent.name, writer), {}).update(entries)
    shutil.rmtree(layout.index_dir)
    written = []
    for (shard, writer), entries in sorted(merged.items()):
        record: dict[str, JSON] = {
            "documents": dict(sorted(entries.items())),
            "schema": 2,
            "shard": shard,
            "type": "index",
        }
        written.append(write(layout.legacy_index_file(shard, writer=writer), dump_json(record)))
    return written


def messages(root: Path) -> list[str]:
    return [str(problem) for problem in verify_archive(root).problems]


def test_a_schema_2_index_is_moved_into_shard_folders_and_verify_passes(tmp_path: Path) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    layout = Layout(root)
    current = {p: p.read_bytes() for p in sorted(layout.index_dir.rglob("*.json"))}
    old = to_schema_2(root)
    assert messages(root) == [f"{layout.index_dir}: {LEGACY_INDEX} ({len(old)} files)"]
    report = migrate_archive(root, keep_page=no_pages)
    assert report.ok and report.index_files == len(old)
    assert report.index_entries == STORIES
    # the same files, byte for byte, as a run of this version writes them
    assert {p: p.read_bytes() for p in sorted(layout.index_dir.rglob("*.json"))} == current
    assert messages(root) == []
    fresh = Archive(root)
    assert {doc: fresh.partition(doc) for doc in homes} == homes
    again = migrate_archive(root, keep_page=no_pages)
    assert again.ok and (again.index_files, again.index_entries) == (0, 0)


def test_an_archive_not_yet_migrated_finds_its_documents_and_writes_the_new_layout(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    to_schema_2(root)
    archive = Archive(root)
    assert {doc: archive.partition(doc) for doc in homes} == homes
    # a known document is not registered again, in another partition
    known = next(iter(homes))
    later = (T0 + timedelta(days=9)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert archive.index.place(known, {"discovered_at": later}, writer="") == (homes[known], False)
    assert not archive.layout.index_folder(index_shard(known)).exists()
    new = document_id(story_url(99))
    archive.write_document(new, {"url": story_url(99), "discovered_at": later})
    assert archive.layout.index_file(index_shard(new)).is_file()
    assert migrate_archive(root, keep_page=no_pages).ok
    assert messages(root) == []


def test_an_ingest_shards_index_file_goes_to_that_shards_file(tmp_path: Path) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    layout = Layout(root)
    for path in sorted(layout.index_dir.glob("*/*/entries-*.json")):
        shard = path.parent.name
        path.rename(layout.index_file(shard, writer="shard-2-of-3"))  # written by shard 2 of 3
    old = to_schema_2(root)
    assert all(path.name.endswith("-shard-2-of-3.json") for path in old)
    assert migrate_archive(root, keep_page=no_pages).ok
    files = layout.index_dir.glob("*/*/*.json")
    assert not [path for path in files if index_file_writer(path.name) == ("", None)]
    for doc in homes:
        mine = layout.index_file(index_shard(doc), writer="shard-2-of-3")
        assert json.loads(mine.read_text(encoding="utf-8"))["documents"][doc] == homes[doc]
    assert messages(root) == []


@pytest.mark.parametrize("survived", range(0, 12, 3))
def test_a_migration_killed_at_any_write_loses_no_entry_and_the_next_run_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, survived: int
) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    to_schema_2(root)
    calls: list[Path] = []

    def killed(tmp_dir: Path, path: Path, data: bytes, *, final: bool) -> None:
        if len(calls) == survived:
            raise SystemExit("killed")
        calls.append(path)
        replace_file(tmp_dir, path, data, final=final)

    monkeypatch.setattr(migrate_index, "replace_file", killed)
    with pytest.raises(SystemExit):
        migrate_archive(root, keep_page=no_pages)
    monkeypatch.undo()
    archive = Archive(root)
    assert {doc: archive.partition(doc) for doc in homes} == homes
    assert any(LEGACY_INDEX in message for message in messages(root))
    assert migrate_archive(root, keep_page=no_pages).ok
    assert messages(root) == []
    assert {doc: Archive(root).partition(doc) for doc in homes} == homes


def test_an_entry_the_new_files_place_elsewhere_leaves_its_old_file_in_place(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    old = to_schema_2(root)
    doc = next(iter(homes))
    layout = Layout(root)
    record: dict[str, JSON] = {
        "documents": {doc: "2020/01/01"},
        "schema": 3,
        "shard": index_shard(doc),
        "type": "index",
    }
    write(layout.index_file(index_shard(doc)), dump_json(record))
    report = migrate_archive(root, keep_page=no_pages)
    conflicted = layout.legacy_index_file(doc[-16:-14])
    assert [(p.path, p.message.split(":")[0]) for p in report.problems] == [(str(conflicted), doc)]
    assert "2020/01/01" in report.problems[0].message
    assert conflicted.is_file()
    assert [path for path in old if path.is_file()] == [conflicted]


def test_the_moving_commit_passes_verify_since_and_a_lost_entry_does_not(repo: Path) -> None:
    root = repo / "data"
    homes = write_archive(root)
    to_schema_2(root)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "schema 2")
    before = git(repo, "rev-parse", "HEAD").strip()
    result = CliRunner().invoke(cli, ["migrate", "--data", str(root)], catch_exceptions=False)
    assert result.exit_code == 0
    assert f"wrote {STORIES} index entries, moved" in result.stdout
    assert verify_since(root, before).problems == ()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "migrate")
    assert verify_since(root, before).problems == ()
    # the same move with one entry dropped on the way: reported at the old file
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    doc = next(iter(homes))
    assert migrate_archive(root, keep_page=no_pages).ok
    path = Layout(root).index_file(index_shard(doc))
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["documents"][doc]
    if record["documents"]:
        path.write_bytes(dump_json(record))
    else:
        path.unlink()
    found = [str(p) for p in verify_since(root, before).problems]
    old = Layout(root).legacy_index_file(doc[-16:-14])
    assert any(
        m.startswith(f"{old}: deleted since {before[:12]}, but its entry documents.{doc}")
        for m in found
    )
