"""Index shards that seal their full files: a new entry rewrites a small open file at any
age, every entry stays findable, a write killed mid-seal leaves an index verify accepts,
and `quietedit migrate` seals the open files of schema 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quietedit.archive import migrate_index
from quietedit.archive.files import listdir
from quietedit.archive.index import DocumentIndex
from quietedit.archive.layout import INDEX_CHUNK_ENTRIES, Layout, index_file_writer
from quietedit.archive.migrate import migrate_archive
from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.errors import ArchiveError
from quietedit.model import JSON
from tests.archive.test_migrate_index import messages, no_pages, write_archive
from tests.archive.test_since import commit, since

SHARD = "abc"
RECORD: dict[str, JSON] = {"discovered_at": "2026-11-30T06:00:00Z"}


def ids(count: int, *, start: int = 0) -> list[str]:
    """Document ids that all fall in shard ``SHARD``."""
    return [f"news-example-org-{SHARD}{n:013x}" for n in range(start, start + count)]


def names(root: Path) -> list[str]:
    return listdir(Layout(root).index_folder(SHARD))


def test_a_full_open_file_is_sealed_and_every_entry_is_still_found(tmp_path: Path) -> None:
    root = tmp_path / "data"
    archive = Archive(root)
    documents = ids(2 * INDEX_CHUNK_ENTRIES + 5)
    largest = 0
    open_file = archive.layout.index_file(SHARD)
    for document in documents:
        assert archive.index.place(document, dict(RECORD), writer="") == ("2026/11/30", True)
        held = json.loads(open_file.read_text(encoding="utf-8"))["documents"]
        largest = max(largest, len(held))
    assert largest == INDEX_CHUNK_ENTRIES  # no write rewrites a file larger than a chunk
    assert names(root) == [
        f"entries-{SHARD}.json",
        f"sealed-0001-{SHARD}.json",
        f"sealed-0002-{SHARD}.json",
    ]
    assert len(json.loads(open_file.read_text(encoding="utf-8"))["documents"]) == 5
    fresh = Archive(root)
    assert {fresh.partition(doc) for doc in documents} == {"2026/11/30"}
    assert fresh.partition(ids(1, start=999)[0]) is None
    assert messages(root) == []


def test_a_sealed_file_keeps_the_open_files_bytes(tmp_path: Path) -> None:
    """git then stores no new blob for the sealed file: it is the open file's last version."""
    root = tmp_path / "data"
    archive = Archive(root)
    documents = ids(INDEX_CHUNK_ENTRIES + 1)
    for document in documents[:-1]:
        archive.index.place(document, dict(RECORD), writer="")
    full = archive.layout.index_file(SHARD).read_bytes()
    archive.index.place(documents[-1], dict(RECORD), writer="")
    assert archive.layout.sealed_index_file(SHARD, 1).read_bytes() == full


def test_each_writer_seals_its_own_files(tmp_path: Path) -> None:
    root = tmp_path / "data"
    first = Archive(root, writer="shard-1-of-2")
    second = Archive(root, writer="shard-2-of-2")
    documents = ids(2 * INDEX_CHUNK_ENTRIES + 2)
    for n, document in enumerate(documents):
        (first if n % 2 else second).index.place(document, dict(RECORD), writer=(
            "shard-1-of-2" if n % 2 else "shard-2-of-2"
        ))  # fmt: skip
    assert names(root) == [
        f"entries-shard-1-of-2-{SHARD}.json",
        f"entries-shard-2-of-2-{SHARD}.json",
        f"sealed-0001-shard-1-of-2-{SHARD}.json",
        f"sealed-0001-shard-2-of-2-{SHARD}.json",
    ]
    for reader in (first, second, Archive(root)):
        assert {reader.partition(doc) for doc in documents} == {"2026/11/30"}
    assert messages(root) == []


def test_a_write_killed_mid_seal_leaves_an_index_verify_accepts(tmp_path: Path) -> None:
    root = tmp_path / "data"
    archive = Archive(root)
    documents = ids(INDEX_CHUNK_ENTRIES + 3)
    for document in documents[:INDEX_CHUNK_ENTRIES]:
        archive.index.place(document, dict(RECORD), writer="")
    layout = archive.layout
    writes: list[Path] = []

    def killed_after_the_seal(path: Path, data: bytes) -> None:
        if writes:  # the seal is on disk; the open file is never begun again
            raise ArchiveError(path, "killed")
        writes.append(path)
        layout.tmp_dir.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    killed = DocumentIndex(layout, read=_read, replace=killed_after_the_seal)
    with pytest.raises(ArchiveError):
        killed.place(documents[INDEX_CHUNK_ENTRIES], dict(RECORD), writer="")
    assert writes == [layout.sealed_index_file(SHARD, 1)]
    # every entry twice, in the same partition: readers and verify accept it
    assert messages(root) == []
    assert {Archive(root).partition(doc) for doc in documents[:INDEX_CHUNK_ENTRIES]} == {
        "2026/11/30"
    }
    # the next write finds them sealed already, and begins the open file again
    after = Archive(root)
    for document in documents[INDEX_CHUNK_ENTRIES:]:
        after.index.place(document, dict(RECORD), writer="")
    assert names(root) == [f"entries-{SHARD}.json", f"sealed-0001-{SHARD}.json"]
    held = json.loads(layout.index_file(SHARD).read_text(encoding="utf-8"))["documents"]
    assert sorted(held) == documents[INDEX_CHUNK_ENTRIES:]
    assert {Archive(root).partition(doc) for doc in documents} == {"2026/11/30"}
    assert messages(root) == []


def _read(path: Path) -> JSON | None:
    return json.loads(path.read_bytes()) if path.exists() else None


def to_schema_3(root: Path) -> dict[Path, bytes]:
    """Each open index file as schema 3 named and wrote it (``entries[-writer].json``)."""
    old = {}
    for path in sorted(Layout(root).index_dir.glob("*/*/*.json")):
        found = index_file_writer(path.name)
        assert found is not None and found[1] is None
        record = json.loads(path.read_bytes())
        data = dump_json({**record, "schema": 3})
        target = path.with_name(f"entries-{found[0]}.json" if found[0] else "entries.json")
        path.unlink()
        target.write_bytes(data)
        old[target] = data
    return old


def test_migrate_seals_the_open_files_of_schema_3_bytes_unchanged(tmp_path: Path) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    old = to_schema_3(root)
    # not migrated yet: every document found, and verify accepts schema 3
    assert {doc: Archive(root).partition(doc) for doc in homes} == homes
    assert messages(root) == []
    report = migrate_archive(root, keep_page=no_pages)
    assert report.ok and report.index_sealed == len(old)
    for path, data in old.items():
        shard = path.parent.name
        assert not path.exists()
        assert Layout(root).sealed_index_file(shard, 1).read_bytes() == data
    assert messages(root) == []
    assert {doc: Archive(root).partition(doc) for doc in homes} == homes
    again = migrate_archive(root, keep_page=no_pages)
    assert again.ok and again.index_sealed == 0


@pytest.mark.parametrize("survived", [0, 1, 5])
def test_a_migration_killed_mid_seal_loses_no_entry_and_the_next_run_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, survived: int
) -> None:
    root = tmp_path / "data"
    homes = write_archive(root)
    old = to_schema_3(root)
    renames = 0
    real = Path.rename

    def killed(self: Path, target: Path) -> Path:
        nonlocal renames
        if renames >= survived:
            raise OSError("killed")
        renames += 1
        return real(self, target)

    monkeypatch.setattr(Path, "rename", killed)
    with pytest.raises(OSError, match="killed"):
        migrate_index.seal_open_files(Layout(root))
    monkeypatch.setattr(Path, "rename", real)
    assert messages(root) == []
    assert {doc: Archive(root).partition(doc) for doc in homes} == homes
    report = migrate_archive(root, keep_page=no_pages)
    assert report.ok and report.index_sealed == len(old) - survived
    assert messages(root) == []
    assert not [p for p in Layout(root).index_dir.glob("*/*/entries*.json") if p in old]


def test_verify_since_accepts_a_seal_and_still_catches_a_removed_entry(repo: Path) -> None:
    root = repo / "data"
    archive = Archive(root)
    documents = ids(INDEX_CHUNK_ENTRIES + 1)
    for document in documents[:-1]:
        archive.index.place(document, dict(RECORD), writer="")
    base = commit(repo)
    archive.index.place(documents[-1], dict(RECORD), writer="")  # seals the full file
    assert since(root, base) == []
    sealed = archive.layout.sealed_index_file(SHARD, 1)
    record = json.loads(sealed.read_bytes())
    gone = record["documents"].pop(documents[0])
    sealed.write_bytes(dump_json(record))
    assert gone == "2026/11/30"
    open_file = archive.layout.index_file(SHARD)
    assert f"{open_file}: documents.{documents[0]}: removed since {base[:12]}; " in "".join(
        since(root, base)
    )


def test_verify_since_accepts_the_migration_that_seals_schema_3(repo: Path) -> None:
    root = repo / "data"
    write_archive(root)
    to_schema_3(root)
    base = commit(repo)
    assert migrate_archive(root, keep_page=no_pages).ok
    assert since(root, base) == []
    # a schema-3 file deleted with its entries nowhere else is still caught
    victim = sorted(Layout(root).index_dir.glob("*/*/sealed-0001-*.json"))[0]
    victim.unlink()
    old = victim.with_name("entries.json")
    assert f"{old}: deleted since {base[:12]}; index entries are never removed" in since(root, base)
