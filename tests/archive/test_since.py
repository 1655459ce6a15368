"""`quietedit verify --since REV`: the changed files checked, the range audited with git,
and nothing unchanged read."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive.audit import audit_since
from quietedit.archive.layout import Layout, revision_name
from quietedit.archive.records import (
    dump_json,
    new_revision,
    record_hash,
    revision_from_record,
    revision_to_record,
)
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import document_id
from quietedit.errors import ArchiveError, AuditError
from quietedit.model import JSON
from tests.archive.builders import (
    add_index_entry,
    story_url,
    write,
    write_legacy_story,
    write_story,
)
from tests.archive.test_verify import forge, rewrite
from tests.conftest import T0, git, observation

DAY = "2026/11/30"


def commit(repo: Path, message: str = "ingest") -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def since(root: Path, rev: str) -> list[str]:
    return [str(p) for p in verify_since(root, rev).problems]


def append_revision(root: Path, doc: str, partition: str = DAY) -> Path:
    """The document's next revision, as the ingest writes it."""
    layout = Layout(root)
    folder = layout.revisions_dir(doc, partition)
    newest = max(folder.glob("*.json"))
    previous = revision_from_record(json.loads(newest.read_text(encoding="utf-8")))
    number = previous.number + 1
    seen = observation(f"Paragraph rewritten for the {number}th time.", at=T0 + timedelta(days=1))
    seen = replace(seen, url=previous.observation.url)
    revision = new_revision(doc, seen, previous=previous)
    return write(
        layout.revision_file(doc, partition, number), dump_json(revision_to_record(revision))
    )


@pytest.fixture
def committed(repo: Path) -> tuple[Path, str, str]:
    root = repo / "data"
    doc = write_story(root, events=1)
    write_story(root, story_url(1), discovered=T0 - timedelta(days=40))
    return root, doc, commit(repo)


def test_a_checks_file_naming_no_document_of_its_partition_is_reported(
    repo: Path, committed: tuple[Path, str, str]
) -> None:
    root, doc, base = committed
    path = Layout(root).checks_file(DAY)
    entries: dict[str, JSON] = {doc: {"schedule": {"last_checked_at": "2026-11-30T09:00:00Z"}}}
    record: dict[str, JSON] = {
        "documents": entries,
        "partition": DAY,
        "schema": 2,
        "type": "checks",
    }
    write(path, dump_json(record))
    assert since(root, base) == []  # a check of a document the partition holds
    ghost = document_id(story_url(77))
    entries[ghost] = {"schedule": {}}
    write(path, dump_json(record))
    assert since(root, base) == [f"{path}: documents.{ghost}: no such document in this partition"]


def test_an_hours_additions_committed_or_not_are_fine(
    repo: Path, committed: tuple[Path, str, str]
) -> None:
    root, doc, base = committed
    append_revision(root, doc)
    write_story(root, story_url(2), discovered=T0 + timedelta(days=1))
    write(
        root / "state" / "ledger.json", dump_json({"name": "ledger", "schema": 2, "type": "state"})
    )
    report = verify_since(root, base)
    assert report.problems == ()
    assert (report.documents, report.revisions) == (2, 4)
    commit(repo)
    assert since(root, base) == []


def test_a_forged_new_revision_breaks_its_link_to_the_one_before(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, base = committed
    path = append_revision(root, doc)
    record = rewrite(path, previous="sha256:" + "1" * 64)
    rewrite(path, hash=record_hash(record))
    assert since(root, base) == [
        f"{path}: previous: sha256:{'1' * 64} breaks the chain; revision 3 has hash "
        f"{json.loads(path.with_name(revision_name(doc, 3)).read_text())['hash']}"
    ]


def test_an_edit_to_the_newest_revision_is_caught_by_git(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, base = committed
    newest = Layout(root).revision_file(doc, DAY, 3)
    forge(newest, title="Council rejects budget")  # self-consistent: files alone look sound
    assert verify_archive(root).problems == ()
    assert since(root, base) == [
        f"{newest}: modified since {base}; revisions, events and evidence are create-only"
    ]


def test_deleting_the_newest_revision_or_an_event_is_caught_by_git(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, _ = committed
    layout = Layout(root)
    layout.revision_file(doc, DAY, 3).unlink()
    layout.event_file(doc, DAY, 1).unlink()
    assert since(root, "HEAD") == [
        f"{layout.event_file(doc, DAY, 1)}: deleted since HEAD; revisions, events and "
        "evidence are create-only",
        f"{layout.revision_file(doc, DAY, 3)}: deleted since HEAD; revisions, events and "
        "evidence are create-only",
    ]


def test_a_modification_committed_and_then_undone_is_still_caught(
    repo: Path, committed: tuple[Path, str, str]
) -> None:
    root, doc, base = committed
    path = Layout(root).revision_file(doc, DAY, 1)
    original = path.read_bytes()
    forge(path, title="Rewritten history")
    commit(repo, "rewrite")
    path.write_bytes(original)
    commit(repo, "restore")
    shas = git(repo, "rev-list", f"{base}..HEAD").split()
    assert since(root, base) == sorted(
        f"{path}: modified in commit {sha[:12]}; revisions, events and evidence are create-only"
        for sha in shas
    )


def test_a_change_undone_on_a_merged_branch_is_still_caught(
    repo: Path, committed: tuple[Path, str, str]
) -> None:
    root, doc, base = committed
    path = Layout(root).revision_file(doc, DAY, 1)
    original = path.read_bytes()
    git(repo, "checkout", "-qb", "side")
    forge(path, title="Rewritten on a branch")
    commit(repo, "rewrite")
    path.write_bytes(original)
    commit(repo, "restore")
    git(repo, "checkout", "-q", "main")
    append_revision(root, doc)
    commit(repo, "ingest")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    found = since(root, base)
    assert len(found) == 2
    assert all(p.startswith(f"{path}: modified in commit") for p in found)


def test_index_entries_are_never_changed_or_removed(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, base = committed
    other = document_id(story_url(1))
    shard = Layout(root).index_file(doc[-16:-13])
    record = json.loads(shard.read_text())
    record["documents"][doc] = "2026/12/01"
    record["documents"].pop(other, None)
    shard.write_bytes(dump_json(record))
    found = since(root, base)
    changed = f"documents.{doc}: changed from {DAY} to 2026/12/01 since {base[:12]}"
    assert f"{shard}: {changed}; index entries are never changed" in found
    if other[-16:-13] == doc[-16:-13]:
        assert any(f"documents.{other}: removed since" in m for m in found)
    other_shard = Layout(root).index_file(other[-16:-13])
    if other_shard != shard:
        other_shard.unlink()
        assert f"{other_shard}: deleted since {base[:12]}; index entries are never removed" in (
            since(root, base)
        )


def test_a_new_folder_the_index_does_not_know_is_reported(
    committed: tuple[Path, str, str],
) -> None:
    root, _, base = committed
    layout = Layout(root)
    doc = write_story(root, story_url(3))
    shard = layout.index_file(doc[-16:-13])
    record = json.loads(shard.read_text())
    del record["documents"][doc]
    shard.write_bytes(dump_json(record))
    assert since(root, base) == [
        f"{layout.document_dir(doc, DAY)}: no index entry: the index does not know this document"
    ]


def test_stray_and_hand_edited_new_files_are_reported(committed: tuple[Path, str, str]) -> None:
    root, _, base = committed
    write(root / "notes.txt", b"hello")
    feed = write(root / "feeds" / "desk.json", b'{"schema": 2, "slug": "desk", "type": "feed"}')
    found = since(root, base)
    assert any(m.startswith(f"{root / 'notes.txt'}: unexpected file") for m in found)
    assert any(m.startswith(f"{feed}: not in canonical form") for m in found)


def test_unknown_revision_and_missing_repository_are_clear_errors(
    committed: tuple[Path, str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root, _, _ = committed
    with pytest.raises(AuditError, match="'no-such-tag' names no commit"):
        verify_since(root, "no-such-tag")
    with pytest.raises(AuditError, match="not a git revision"):
        verify_since(root, "--output=/tmp/x")
    outside = tmp_path_factory.mktemp("plain")
    with pytest.raises(AuditError, match="not inside a git repository"):
        audit_since(outside, "HEAD")


# -- the migration rule ------------------------------------------------------------------


def move_by_hand(root: Path, doc: str) -> None:
    """What migrate does to one document's files, done with plain file operations."""
    layout = Layout(root)
    old = layout.legacy_document_dir(doc)
    record = json.loads((old / "document.json").read_text())
    add_index_entry(root, doc, DAY)
    write(layout.document_file(doc, DAY), dump_json({**record, "schema": 2}))
    for path in sorted((old / "revisions").glob("*.json")):
        write(layout.revision_file(doc, DAY, int(path.stem)), path.read_bytes())
    for path in sorted((old / "events").glob("*.json")):
        write(layout.document_dir(doc, DAY) / "events" / path.name, path.read_bytes())
    shutil.rmtree(old)


@pytest.fixture
def legacy(repo: Path) -> tuple[Path, str, str, str]:
    root = repo / "data"
    doc = write_legacy_story(root)
    other = write_legacy_story(root, story_url(1))
    return root, doc, other, commit(repo)


def test_a_schema_1_file_moved_with_the_same_bytes_is_no_violation(
    repo: Path, legacy: tuple[Path, str, str, str]
) -> None:
    root, doc, other, base = legacy
    move_by_hand(root, doc)
    move_by_hand(root, other)
    assert audit_since(root, base) == []  # the working tree against base
    commit(repo, "migrate")
    assert audit_since(root, base) == []  # and the commit
    assert verify_since(root, base).problems == ()


def test_a_tampered_file_in_the_migrating_change_is_still_reported(
    repo: Path, legacy: tuple[Path, str, str, str]
) -> None:
    root, doc, other, base = legacy
    move_by_hand(root, doc)
    move_by_hand(root, other)
    moved = Layout(root).revision_file(doc, DAY, 2)
    forge(moved, title="Quietly rewritten on the way")
    old = f"{root}/documents/{doc}/revisions/000002.json"
    expected = f"{old}: deleted since {base}; revisions, events and evidence are create-only"
    assert [str(p) for p in audit_since(root, base)] == [expected]
    commit(repo, "migrate")
    sha = git(repo, "rev-parse", "HEAD").strip()
    assert [str(p) for p in audit_since(root, base)] == sorted(
        [
            expected,
            f"{old}: deleted in commit {sha[:12]}; revisions, events and evidence are create-only",
        ]
    )
    # the forged file is self-consistent but breaks revision 3's link
    assert any("breaks the chain" in m for m in since(root, base))


def test_evidence_goes_only_with_a_document_moved_in_the_same_change(
    repo: Path, legacy: tuple[Path, str, str, str]
) -> None:
    root, doc, other, base = legacy
    move_by_hand(root, doc)
    pages = sorted((Layout(root).legacy_document_dir(other) / "evidence").glob("*.html"))
    pages[0].unlink()  # the other document was not moved
    found = [str(p) for p in audit_since(root, base)]
    assert found == [
        f"{pages[0]}: deleted since {base}; revisions, events and evidence are create-only"
    ]


def test_a_schema_1_file_deleted_without_its_copy_is_reported(
    repo: Path, legacy: tuple[Path, str, str, str]
) -> None:
    root, doc, _, base = legacy
    old = Layout(root).legacy_document_dir(doc) / "revisions" / "000003.json"
    old.unlink()
    assert [str(p) for p in audit_since(root, base)] == [
        f"{old}: deleted since {base}; revisions, events and evidence are create-only"
    ]


# -- O(change) -----------------------------------------------------------------------------


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Every file this process opens while the test runs (Python's audit hook sees each
    ``open``, whoever calls it)."""
    seen: list[str] = []
    active = [True]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if active[0] and event == "open" and isinstance(args[0], str | Path):
            seen.append(str(args[0]))

    sys.addaudithook(hook)  # hooks cannot be removed: this one goes quiet after the test
    yield seen
    active[0] = False


def test_files_git_shows_unchanged_are_never_opened(repo: Path, opened: list[str]) -> None:
    root = repo / "data"
    docs = [
        write_story(root, story_url(n), discovered=T0 - timedelta(days=n % 50)) for n in range(60)
    ]
    base = commit(repo)
    changed = docs[7]
    partition = (T0 - timedelta(days=7)).strftime("%Y/%m/%d")
    new = append_revision(root, changed, partition)
    fresh = write_story(root, story_url(99), discovered=T0 + timedelta(days=1))
    opened.clear()
    report = verify_since(root, base)
    assert report.problems == ()
    read = {Path(p).relative_to(root).as_posix() for p in opened if p.startswith(str(root))}
    layout = Layout(root)
    fresh_folder = layout.document_dir(fresh, "2026/12/01")
    allowed = {
        new,
        new.with_name(revision_name(changed, 3)),  # the link to revision number - 1
        layout.index_file(changed[-16:-13]),  # where the index puts the changed document
        layout.index_file(fresh[-16:-13]),
        *(p for p in fresh_folder.rglob("*.json")),  # the new document's files
    }
    assert read <= {p.relative_to(root).as_posix() for p in allowed}
    assert new.relative_to(root).as_posix() in read
    untouched = {d for d in docs if d != changed}
    assert not any(doc in path for path in read for doc in untouched)


def test_the_check_of_a_change_and_the_full_check_agree_on_a_stray_shard(
    repo: Path,
) -> None:
    root = repo / "data"
    write_story(root)
    base = commit(repo)
    data: dict[str, JSON] = {"documents": {}, "schema": 2, "shard": "zz", "type": "index"}
    write(root / "index" / "zz.json", dump_json(data))
    report_full = {p.message for p in verify_archive(root).problems}
    report_change = {p.message for p in verify_since(root, base).problems}
    assert report_full == report_change


def test_a_sparse_checkout_of_the_partitions_still_observed_is_enough(repo: Path) -> None:
    root = repo / "data"
    recent = write_story(root)
    old = write_story(root, story_url(1), discovered=T0 - timedelta(days=200))
    base = commit(repo)
    git(repo, "sparse-checkout", "set", "--cone", "data/index", f"data/documents/{DAY}")
    assert not Layout(root).document_dir(old, "2026/05/14").exists()
    append_revision(root, recent)
    report = verify_since(root, base)
    assert report.problems == ()
    assert report.revisions == 1


def test_a_new_event_needs_its_predecessor_and_the_revision_it_names(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, base = committed
    layout = Layout(root)
    event = json.loads(layout.event_file(doc, DAY, 1).read_text())
    record = {**event, "number": 3, "revision": 9}
    third = write(layout.event_file(doc, DAY, 3), dump_json(record))
    found = since(root, base)
    gap = f"{layout.event_file(doc, DAY, 2)}: missing: events must run 1..n without gaps"
    assert f"{gap} (deleted?)" in found
    assert f"{third}: revision: 9 does not exist" in found


def test_a_removed_document_record_leaves_its_files_orphans(
    committed: tuple[Path, str, str],
) -> None:
    root, doc, base = committed
    Layout(root).document_file(doc, DAY).unlink()
    assert since(root, base) == [
        f"{Layout(root).document_dir(doc, DAY)}: orphan files: the folder has no document.json"
    ]


def test_a_second_index_entry_moving_a_document_to_a_forged_folder_is_caught(
    repo: Path, committed: tuple[Path, str, str]
) -> None:
    root, doc, _ = committed
    layout = Layout(root)
    shard = doc[-16:-13]
    # as a sharded deployment writes it: the entry in an ingest shard's own file
    layout.index_file(shard).rename(layout.index_file(shard, writer="shard-1-of-2"))
    base = commit(repo, "sharded ingest")
    # every file added, none changed: a new folder with a forged history, and an entry for
    # it in another file of the same index shard
    old, day = layout.document_dir(doc, DAY), "2026/12/01"
    new = layout.document_dir(doc, day)
    (new / "revisions").mkdir(parents=True)
    record = json.loads((old / "document.json").read_text(encoding="utf-8"))
    write(new / "document.json", dump_json({**record, "discovered_at": "2026-12-01T06:00:00Z"}))
    first = revision_name(doc, 1)
    shutil.copy(old / "revisions" / first, new / "revisions" / first)
    append_revision(root, doc, day)
    entry: dict[str, JSON] = {"documents": {doc: day}, "schema": 3, "shard": shard, "type": "index"}
    write(layout.index_file(shard), dump_json(entry))

    assert any("a document is indexed once" in p for p in since(root, base))
    with pytest.raises(ArchiveError, match="indexed once"):
        Archive(root).partition(doc)
